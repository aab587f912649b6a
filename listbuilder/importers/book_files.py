"""Imported books as YAML files in a books folder (what ``listbuilder import-book`` writes).

All-or-nothing: every file is converted and its YAML read back before anything is written,
and each book file appears whole (written beside, then renamed), so an interrupted or failed
import leaves the folder as it was.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from listbuilder.books.parsing import parse_yaml
from listbuilder.importers.army_forge_book import SOURCE_KEY, ConvertedBook, convert_book
from listbuilder.importers.errors import ImportFailed
from listbuilder.model import ArmyBook, GameSystem


@dataclass(frozen=True)
class PlannedBook:
    """One converted book and where its YAML goes."""

    source: str
    converted: ConvertedBook
    path: Path
    text: str


def book_yaml(document: Mapping[str, Any]) -> str:
    """Our YAML for a book document, with a header saying where it came from."""
    origin = document.get("extra", {}).get(SOURCE_KEY, {})
    header = (
        f"# {document['name']}: imported from Army Forge (book {origin.get('uid') or '?'}, version {origin.get('version') or '?'}).\n"
        "# Written by `listbuilder import-book`; docs/army-books.md describes every field.\n"
    )
    # libyaml's emitter when PyYAML has it (several times faster); both write plain YAML only.
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return header + yaml.dump(
        dict(document), Dumper=dumper, sort_keys=False, allow_unicode=True, width=110, default_flow_style=None
    )


def plan_imports(
    files: Sequence[tuple[str, Any]], systems: Mapping[str, GameSystem], books: Mapping[str, ArmyBook], into: Path
) -> list[PlannedBook]:
    """Convert every ``(name, data)`` file (its JSON already read, by the caller's reader:
    the command line reads it as the API reads a body, so both refuse the same text) for
    *into*; raises ImportFailed (message prefixed with the file) for the first file that
    cannot be imported, before anything is written."""
    planned: list[PlannedBook] = []
    for name, data in files:
        try:
            converted = convert_book(data, systems, source=name)
        except ImportFailed as exc:
            raise ImportFailed(
                exc.code,
                f"{name}: {exc.path}" if exc.path else name,
                exc.message,
                [(f"{name}: {p}" if p else name, m) for p, m in exc.problems],
            ) from None
        book = converted.book
        path = into / book.system / f"{book.id}.yaml"
        clash = books.get(book.id)
        if clash is not None and Path(clash.source).resolve() != path.resolve():
            raise ImportFailed(
                "invalid_result", f"{name}: id", f"book id {book.id!r} is already used by {clash.source}"
            )
        earlier = next((p for p in planned if p.converted.book.id == book.id), None)
        if earlier is not None:
            raise ImportFailed(
                "invalid_result", f"{name}: id", f"book id {book.id!r} is also what {earlier.source} imports as"
            )
        text_out = book_yaml(converted.document)
        if parse_yaml(text_out) != converted.document:  # what is written must load back the same (and is now cached)
            raise ImportFailed("invalid_result", name, "the YAML written for this book does not read back the same")
        planned.append(PlannedBook(name, converted, path, text_out))
    return planned


def write_planned(planned: Sequence[PlannedBook]) -> None:
    """Write every planned book file whole (a temporary file renamed over the target)."""
    for plan in planned:
        plan.path.parent.mkdir(parents=True, exist_ok=True)
        partial = plan.path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(plan.text, encoding="utf-8")
        os.replace(partial, plan.path)
