"""Readable ids for imported things, and matching gear named loosely ("Hand Weapons", "2x CCW")."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

_NOT_ID = re.compile(r"[^a-z0-9]+")
_COUNT_PREFIX = re.compile(r"^\s*(\d+)\s*x\s+", re.IGNORECASE)


def slug(text: str, fallback: str = "x") -> str:
    """``"Heavy Flamer (12\\", A1)"`` -> ``"heavy-flamer-12-a1"``: lowercase letters, digits, hyphens."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    made = _NOT_ID.sub("-", plain).strip("-")[:48].strip("-")
    return made or fallback


class IdMaker:
    """Unique ids within one namespace: the slug, then ``slug-2``, ``slug-3``..."""

    def __init__(self, taken: Iterable[str] = ()):
        self._taken = set(taken)

    def make(self, text: str, fallback: str = "x") -> str:
        base = slug(text, fallback)
        made, n = base, 1
        while made in self._taken:
            n += 1
            made = f"{base}-{n}"
        self._taken.add(made)
        return made


def split_count(target: str) -> tuple[str, int]:
    """``"2x Hurl Log"`` -> ``("Hurl Log", 2)``; a plain name counts 1."""
    match = _COUNT_PREFIX.match(target)
    if match is None:
        return target.strip(), 1
    return target[match.end() :].strip(), max(1, int(match.group(1)))


def _fold(name: str) -> str:
    return " ".join(name.lower().split())


def _singulars(name: str) -> list[str]:
    """Spellings a plural *name* may stand for: "Hand Weapons" -> "hand weapon", "CCWS" -> "ccw"."""
    folded = _fold(name)
    out = [folded]
    if folded.endswith("ies"):
        out.append(folded[:-3] + "y")
    if folded.endswith("ves"):
        out += [folded[:-3] + "f", folded[:-3] + "fe"]
    if folded.endswith("es"):
        out.append(folded[:-2])
    if folded.endswith("s"):
        out.append(folded[:-1])
    out.append(folded + "s")  # gear named in the plural, target in the singular
    return out


def match_gear(target: str, names: Iterable[str]) -> str | None:
    """The gear name among *names* that *target* refers to: the same name (any case), else a
    singular or plural spelling of it; None when nothing fits."""
    by_fold: dict[str, str] = {}
    for name in names:
        by_fold.setdefault(_fold(name), name)
    for spelling in _singulars(target):
        found = by_fold.get(spelling)
        if found is not None:
            return found
    return None
