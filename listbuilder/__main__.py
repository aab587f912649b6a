"""``python -m listbuilder`` runs the command line."""

import sys

from listbuilder.cli import main

sys.exit(main())
