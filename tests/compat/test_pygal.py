"""listbuilder.compat.pygal: pygal's map-plugin finder is added on import and taken out by us."""

from __future__ import annotations

import subprocess
import sys


def run(code: str) -> str:
    return subprocess.run(
        [sys.executable, "-W", "error", "-c", code], capture_output=True, text=True, check=True
    ).stdout


def test_pygal_still_adds_its_finder_on_import_else_the_shim_can_go():
    found = run("import sys, pygal; print([type(f).__name__ for f in sys.meta_path])")
    assert "PluginImportFixer" in found, "pygal no longer adds its finder: delete listbuilder/compat/pygal.py"


def test_after_our_import_no_finder_of_pygal_is_left_and_a_missing_module_raises_no_warning():
    found = run(
        "import sys\n"
        "from listbuilder.compat.pygal import pygal\n"
        "try:\n    import no_such_module_anywhere\nexcept ImportError:\n    pass\n"
        "print([type(f).__name__ for f in sys.meta_path])"
    )
    assert "PluginImportFixer" not in found
