"""Limits the store keeps, in a module free of SQLAlchemy so the API can document them at start-up."""

from __future__ import annotations

# The most versions one saved list keeps. A player who saves after every change of a
# 2000-point list makes tens; a thousand, each at most the 1 MiB a request body may hold,
# bounds what one list can take. A full list can still be read, locked, copied (the copy
# starts again at version 1) and deleted.
MAX_VERSIONS_PER_LIST = 1000
