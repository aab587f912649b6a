"""A book or system file's text -> plain data: YAML through ``yaml.safe_load`` (remembered as
JSON under the text's digest), JSON read directly."""

from __future__ import annotations

import json
from typing import Any

import yaml

from listbuilder.books import cache as book_cache
from listbuilder.books.checks import BookProblem
from listbuilder.books.settings import cache_folder
from listbuilder.util.digest import text_digest


def read_mapping(text: str, where: str, problems: list[BookProblem]) -> dict[str, Any] | None:
    """The mapping at the top of a file's *text*, or None after adding a problem saying why not."""
    try:
        data = _json_text(text) if text.startswith("{") else parse_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        reason = getattr(exc, "problem", None) or str(exc)
        problems.append(BookProblem(where, "", f"not valid YAML: {reason}", line))
        return None
    if not isinstance(data, dict):
        problems.append(BookProblem(where, "", "the file must hold a mapping at the top level", 1))
        return None
    return data


def parse_yaml(text: str) -> Any:
    """``yaml.safe_load``, remembered as JSON under the text's SHA-256 to start faster.

    The pure-Python YAML parser needs about half a second for all books; reading the same data
    back from JSON takes a few milliseconds. Any change to a file changes its hash and
    re-parses it; an entry is read only from a folder and file of ours and only if it matches
    the SHA-256 kept with it (``book_cache.read_parsed``), so an edited entry is parsed again.
    Without a writable cache folder the data is simply parsed every time.
    """
    folder = cache_folder()
    digest = text_digest(text)
    if folder is not None:
        kept = book_cache.read_parsed(folder, digest)
        if kept is not None:
            return kept
    data = yaml.safe_load(text)
    if folder is not None:
        book_cache.write_parsed(folder, digest, data)
    return data


def _json_text(text: str) -> Any:
    """A book kept as JSON (imported books are stored as their canonical JSON): JSON is YAML
    too, but ``json`` reads it a hundred times faster and needs no cache file per book."""
    try:
        return json.loads(text)
    except ValueError:
        return parse_yaml(text)  # flow-style YAML that is not JSON
