"""The digest a text is known by: SHA-256 of its UTF-8 bytes, as hex."""

from __future__ import annotations

import hashlib


def text_digest(text: str) -> str:
    """SHA-256 of a book or system file's text: its ``digest`` and the key its copy is kept under."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
