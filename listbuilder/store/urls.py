"""Database URLs: the default SQLite file and the spellings hosting platforms hand out.

Kept apart from ``database.py`` so that naming the database costs no SQLAlchemy import
(create_app records the URL; the engine is built on first use).
"""

from __future__ import annotations

from pathlib import Path

DEFAULT_FILE = "listbuilder.sqlite3"


def default_url(instance_folder: str | Path) -> str:
    """SQLite in the Flask instance folder: nothing to install or configure."""
    return f"sqlite:///{Path(instance_folder).resolve() / DEFAULT_FILE}"


def normalise_url(url: str) -> str:
    """``postgres://`` and ``postgresql://`` (as hosting platforms hand them out) use psycopg 3."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url
