"""Where army books are read from and where their parsed forms are kept between starts.

``LISTBUILDER_BOOKS`` names the book folders (os.pathsep-separated; ``army_books/`` beside
the package by default) and ``LISTBUILDER_CACHE`` the cache folder ("off" turns caching off).
"""

from __future__ import annotations

import os
from pathlib import Path

SYSTEM_FILE = "_system.yaml"
PROJECT = Path(__file__).resolve().parents[2]


def cache_folder() -> Path | None:
    """Where parsed YAML (as JSON) and loaded books (``registry/``, see ``books.cache``) are kept
    between starts (LISTBUILDER_CACHE; "off" disables both)."""
    configured = os.environ.get("LISTBUILDER_CACHE")
    if configured == "off":
        return None
    return Path(configured) if configured else PROJECT / ".cache" / "army_books"


def default_books_folder() -> Path:
    """``army_books/`` beside the package, unless LISTBUILDER_BOOKS points elsewhere (its
    first folder, when it names several)."""
    return default_books_folders()[0]


def default_books_folders() -> list[Path]:
    """The folders LISTBUILDER_BOOKS names (os.pathsep-separated), or ``army_books/``."""
    configured = [part for part in os.environ.get("LISTBUILDER_BOOKS", "").split(os.pathsep) if part]
    return [Path(part) for part in configured] or [PROJECT / "army_books"]
