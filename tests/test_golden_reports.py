"""Whole validation reports of the golden lists, kept as they were approved.

``test_golden_lists`` checks each golden list's issue codes; this checks everything else a
client reads (messages, paths, clauses, data, totals, per-entry costs), so a change made for
speed cannot alter a report unnoticed. Each list is validated twice: with nothing memoised
(the book's resolution memo emptied first) and again with its entries memoised, and both
reports must equal the kept one.

After a deliberate change to what reports say, write the file again and review its diff:

    .venv/bin/python -m tests.test_golden_reports --write
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from listbuilder.lists.documents import parse_list, validate_list
from tests.conftest import GOLDEN

KEPT = GOLDEN.parent / "golden_reports.json"
CASES = sorted(GOLDEN.glob("*/*.json"))


def _name(path: Any) -> str:
    return f"{path.parent.name}/{path.stem}"


def _reports(registry: Any, path: Any) -> tuple[str, str]:
    """The list's report as the API sends it (JSON, keys in order) with nothing memoised,
    then with its entries memoised."""
    army = parse_list(json.loads(path.read_text(encoding="utf-8"))["list"])
    registry.books[army.book].resolution_memo.clear()
    fresh = validate_list(registry, army).as_dict()
    return _text(fresh), _text(validate_list(registry, army).as_dict())


def _text(report: Any) -> str:
    return json.dumps(report, ensure_ascii=False)


@pytest.fixture(scope="module")
def kept() -> dict[str, Any]:
    return json.loads(KEPT.read_text(encoding="utf-8"))


def test_every_golden_list_has_a_kept_report(kept):
    assert sorted(kept) == sorted(_name(p) for p in CASES)


@pytest.mark.parametrize("path", CASES, ids=[_name(p) for p in CASES])
def test_golden_report_unchanged(path, registry, kept):
    fresh, memoised = _reports(registry, path)
    assert fresh == _text(kept[_name(path)])
    assert memoised == fresh


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    from listbuilder.books.loader import load_registry
    from tests.conftest import BOOKS

    books = load_registry(BOOKS)
    found = {_name(p): json.loads(_reports(books, p)[0]) for p in CASES}
    KEPT.write_text(json.dumps(found, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(found)} reports to {KEPT}")
