"""The digest a text is known by (SHA-256 of its UTF-8 bytes, as hex), and that of a tree of files."""

from __future__ import annotations

import hashlib
from pathlib import Path


def text_digest(text: str) -> str:
    """SHA-256 of a book or system file's text: its ``digest`` and the key its copy is kept under."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def files_digest(folders: tuple[Path, ...], root: Path, pattern: str = "*") -> str:
    """SHA-256 of every file matching *pattern* under *folders*: each one's path within *root*
    and its bytes. Contents, not modification times, so two clones of one commit agree."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(p for p in folder.rglob(pattern) if p.is_file()):
            digest.update(f"{path.relative_to(root).as_posix()}\0{path.stat().st_size}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()
