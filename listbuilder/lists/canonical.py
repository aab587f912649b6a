"""One canonical form of a list, and the short verification code derived from it.

A list can be spelled many ways in JSON (key order, defaults left out); the canonical document
is the one spelling every part of the product agrees on. Saved lists store it, the PDF cache
keys on it, and the verification code printed on every roster page (and shown by the API, the
read-only list page and an organiser's report) is a digest of it together with the versions of
the army book and game system it was checked against. Two sheets with the same code show the
same list under the same rules.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping
from typing import Any

from listbuilder.model import ArmyBook, ArmyList, GameSystem, ListEntry

# Bumped if the canonical form ever changes, so old and new codes never collide by accident.
_CODE_DOMAIN = "listbuilder-verify/1"


def list_document(army: ArmyList) -> dict[str, Any]:
    """The list in the API's JSON format, every field present, in a fixed order."""
    document: dict[str, Any] = {
        "system": army.system,
        "book": army.book,
        "name": army.name,
        "points_limit": army.points_limit,
        "force_org": army.force_org,
    }
    for key in ("game_mode", "budget"):
        if army.extra.get(key) is not None:
            document[key] = _plain(army.extra[key])
    document["units"] = [_entry_document(entry) for entry in army.units]
    return document


def _entry_document(entry: ListEntry) -> dict[str, Any]:
    return {
        "key": entry.key,
        "unit": entry.unit,
        "name": entry.name,
        "notes": entry.notes,
        "upgrades": [{"section": u.section, "option": u.option, "count": u.count} for u in entry.upgrades],
        "combined_with": entry.combined_with,
        "joined_to": entry.joined_to,
        "spells": list(entry.spells),
    }


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def canonical_json(army: ArmyList) -> str:
    """The canonical document as compact JSON with sorted keys: same list, same text."""
    return json.dumps(list_document(army), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def rules_version(book: ArmyBook, system: GameSystem) -> str:
    """A digest of the army book and game system a list is checked against.

    Uses the digests the loader records from the files' text; objects built without a file
    (tests, tools) fall back to their contents, which frozen dataclasses print stably.
    """
    parts = (book.digest or _content_digest(book), system.digest or _content_digest(system))
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def _content_digest(value: Any) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()


def verification_code(army: ArmyList, version: str) -> str:
    """An 8-character code (``K7QM-2XWD``) naming this exact list under these rules.

    40 bits of SHA-256 in Crockford-style base 32 without the look-alike letters: enough that
    two different lists at one event practically never share a code, short enough to read out.
    """
    digest = hashlib.sha256("\n".join((_CODE_DOMAIN, version, canonical_json(army))).encode("utf-8")).digest()
    text = base64.b32encode(digest[:5]).decode("ascii").translate(_READABLE)
    return f"{text[:4]}-{text[4:8]}"


# RFC 4648 base 32 uses A-Z and 2-7; swap the letters people misread (I, L, O, U) for digits it lacks.
_READABLE = str.maketrans({"I": "8", "L": "9", "O": "0", "U": "1"})
