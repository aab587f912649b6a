"""English for messages a player reads: counts with the right noun, never "option(s)"."""

from __future__ import annotations


def counted(n: int, one: str, many: str | None = None) -> str:
    """``counted(1, "option")`` is "1 option", ``counted(2, "option")`` "2 options"."""
    return f"{n} {one if n == 1 else (many or one + 's')}"
