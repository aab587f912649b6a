"""Reading another tool's JSON with every value checked and every error naming its path.

A :class:`Node` is a value of the source document together with where it sits
(``upgradePackages[2].sections[0].options[1].cost``). Its readers accept what exports really
contain (numbers sent as strings, such as ``"02"``; ``null`` for "not given") and raise
:class:`ImportFailed` naming the path for anything else.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from listbuilder.importers.errors import ImportFailed

_MISSING: Any = object()
_WHOLE = re.compile(r"^\s*[+-]?\d+\s*$")


def malformed(path: str, message: str) -> ImportFailed:
    return ImportFailed("malformed", path, message)


class Node:
    """A JSON value and its path; readers return plain values or child nodes."""

    __slots__ = ("value", "path")

    def __init__(self, value: Any, path: str = ""):
        self.value = value
        self.path = path

    def child_path(self, key: str | int) -> str:
        if isinstance(key, int):
            return f"{self.path}[{key}]"
        return f"{self.path}.{key}" if self.path else key

    def _field(self, key: str, default: Any) -> Any:
        if not isinstance(self.value, dict):
            raise malformed(self.path, "expected an object")
        value = self.value.get(key)
        if value is None:
            if default is _MISSING:
                raise malformed(self.child_path(key), "missing")
            return default
        return value

    def has(self, key: str) -> bool:
        return isinstance(self.value, dict) and self.value.get(key) is not None

    def node(self, key: str) -> Node:
        value = self._field(key, _MISSING)
        if not isinstance(value, dict):
            raise malformed(self.child_path(key), "expected an object")
        return Node(value, self.child_path(key))

    def text(self, key: str, default: Any = _MISSING) -> str:
        value = self._field(key, default)
        if value is default:
            return value
        if not isinstance(value, str):
            raise malformed(self.child_path(key), f"expected text, got {_show(value)}")
        return value

    def whole(self, key: str, default: Any = _MISSING, *, low: int | None = None) -> int:
        """A whole number; exports send some as text ("02") or as 2.0."""
        value = self._field(key, default)
        if value is default:
            return value
        number = as_whole(value)
        if number is None:
            raise malformed(self.child_path(key), f"expected a whole number, got {_show(value)}")
        if low is not None and number < low:
            raise malformed(self.child_path(key), f"expected a number of at least {low}, got {number}")
        return number

    def flag(self, key: str, default: bool = False) -> bool:
        value = self._field(key, default)
        if not isinstance(value, bool):
            raise malformed(self.child_path(key), f"expected true or false, got {_show(value)}")
        return value

    def items(self, key: str, *, required: bool = False) -> Iterator[Node]:
        """The entries of a list field (none when the field is absent, unless required)."""
        value = self._field(key, _MISSING if required else [])
        if not isinstance(value, list):
            raise malformed(self.child_path(key), f"expected a list, got {_show(value)}")
        base = self.child_path(key)
        for i, entry in enumerate(value):
            yield Node(entry, f"{base}[{i}]")

    def texts(self, key: str) -> list[str]:
        out = []
        for entry in self.items(key):
            if not isinstance(entry.value, str):
                raise malformed(entry.path, f"expected text, got {_show(entry.value)}")
            out.append(entry.value)
        return out


def as_whole(value: Any) -> int | None:
    """``3``, ``3.0`` or ``"03"`` -> 3; anything else -> None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and _WHOLE.match(value):
        return int(value)
    return None


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
