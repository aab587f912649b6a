"""The line of a file a problem's path points at, so an author goes straight to it.

Uses the safe composer (the node tree only, no object construction); the data itself always
comes from ``yaml.safe_load``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from listbuilder.books.checks import BookProblem


def split_path(where: str) -> list[str | int]:
    """``"units[3].weapons"`` -> ``["units", 3, "weapons"]``."""
    parts: list[str | int] = []
    for chunk in where.replace("]", "").replace("[", ".").split("."):
        if chunk:
            parts.append(int(chunk) if chunk.isdigit() else chunk)
    return parts


def with_line(problem: BookProblem) -> BookProblem:
    """The problem with the line of its path in its file, when the file can be read."""
    try:
        text = Path(problem.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return problem
    return replace(problem, line=line_of(text, split_path(problem.path)))


@lru_cache(maxsize=4)
def _composed(text: str) -> Any:
    """The node tree of one file, composed once however many problems it has."""
    try:
        return yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None


def line_of(text: str | None, parts: Iterable[str | int]) -> int | None:
    """1-based line of the YAML node at *parts*, or of the deepest ancestor that exists
    (None for data that came from no file)."""
    if text is None:
        return None
    node = _composed(text)
    if node is None:
        return None
    line = node.start_mark.line + 1
    for part in parts:
        if isinstance(node, yaml.MappingNode):
            match = next((v for k, v in node.value if k.value == part), None)
            key = next((k for k, v in node.value if k.value == part), None)
            if match is None:
                break
            line = key.start_mark.line + 1 if key is not None else line
            node = match
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            break
    return line
