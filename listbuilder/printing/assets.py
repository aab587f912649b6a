"""The files a printed roster is made from: templates, stylesheets and fonts, and their digest.

The renderer reads only these folders (``pdf.LocalFetcher``), and a rendered PDF is kept under
a key that includes their digest (``pdf_cache``), so an edited template, stylesheet or font is
never answered with a PDF rendered from the old one.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

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
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            digest.update(f"{path.relative_to(ROOT).as_posix()}\0{path.stat().st_size}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()
