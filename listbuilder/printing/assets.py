"""The files a printed roster is made from: templates, stylesheets and fonts, and their digest.

The renderer reads only these folders (``pdf.LocalFetcher``), and a rendered PDF is kept under
a key that includes their digest (``pdf_cache``), so an edited template, stylesheet or font is
never answered with a PDF rendered from the old one.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from listbuilder.util.digest import files_digest

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
STATIC = ROOT / "static"
# The only folders the renderer may read from.
ASSET_FOLDERS: tuple[Path, ...] = (TEMPLATES / "roster", STATIC / "roster", STATIC / "fonts")


@cache
def assets_digest(folders: tuple[Path, ...] = ASSET_FOLDERS) -> str:
    """SHA-256 of every file under *folders*: each one's path within the project and its bytes.

    Contents, not modification times: instances on other machines share rendered PDFs through
    Redis, and a fresh clone's times differ from the one that rendered them. Read once per
    process, on the first PDF (about 1.4 MB, most of it the two fonts).
    """
    return files_digest(folders, ROOT)
