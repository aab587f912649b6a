"""Plain data through a family's marshmallow schema, every refusal a problem with its path and line."""

from __future__ import annotations

from functools import cache
from typing import Any

from marshmallow import ValidationError

from listbuilder.books.checks import BookProblem
from listbuilder.books.lines import line_of, split_path


@cache
def _schema(schema_cls: type) -> Any:
    """One instance per schema class: building one also builds every nested schema, which
    costs more than loading a small book, and books of a family share their schemas."""
    return schema_cls()


def apply_schema(
    schema_cls: type, data: dict[str, Any], source: str, text: str | None, problems: list[BookProblem]
) -> Any:
    """*data* loaded by *schema_cls*, or None after adding a problem for every refused field."""
    try:
        return _schema(schema_cls).load(data)
    except ValidationError as exc:
        for where, message in flatten_messages(exc.messages):
            problems.append(BookProblem(source, where, message, line_of(text, split_path(where))))
        return None


def flatten_messages(messages: Any, prefix: str = "") -> list[tuple[str, str]]:
    """Marshmallow's nested error dict -> ``[("units[3].weapons[0].attacks", "message")]``."""
    out: list[tuple[str, str]] = []
    if isinstance(messages, dict):
        for key, value in messages.items():
            if key == "_schema":
                out.extend(flatten_messages(value, prefix))
                continue
            step = f"[{key}]" if isinstance(key, int) else (f".{key}" if prefix else str(key))
            out.extend(flatten_messages(value, prefix + step))
    elif isinstance(messages, (list, tuple)):
        for message in messages:
            out.extend(flatten_messages(message, prefix))
    else:
        out.append((prefix, str(messages)))
    return out
