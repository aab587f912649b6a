"""pygal, without the import finder it adds for map plugins.

On import, pygal appends ``PluginImportFixer`` to ``sys.meta_path`` so that ``pygal.maps.*``
names can come from separately installed map plugins. The finder has only the old
``find_module`` method: from then on, every import that no other finder answers (an optional
dependency tried in a ``try``) makes Python 3.11 warn (``ImportWarning``; our tests turn warnings
into errors), in every module of the process, not only in charts. We draw no maps, so the finder
is taken out of ``sys.meta_path`` as soon as pygal is imported. Relies on: the finder's class
name and that pygal adds it at import (``tests/compat/test_pygal.py`` checks both).
"""

from __future__ import annotations

import sys

import pygal

PLUGIN_FINDER = "PluginImportFixer"


def _drop_plugin_finder() -> None:
    sys.meta_path[:] = [
        finder
        for finder in sys.meta_path
        if not (type(finder).__name__ == PLUGIN_FINDER and type(finder).__module__ == "pygal")
    ]


_drop_plugin_finder()

__all__ = ["pygal"]
