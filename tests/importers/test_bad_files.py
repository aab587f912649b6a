"""Bad input never crashes an import: seeded random damage to our fixture book and list (a
value of the wrong kind, a missing field) gives ImportFailed naming a path, or a good import,
and nothing else."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from listbuilder.importers import ImportFailed
from listbuilder.importers.army_forge_book import convert_book
from listbuilder.importers.army_forge_list import convert_list

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "army_forge"
WRONG_VALUES = [
    None,
    [],
    {},
    "x",
    "",
    -1,
    0,
    1.5,
    True,
    "02",
    [1],
    {"a": 1},
    10**30,
    "(",
    "Tough(",
    {"type": "exactly"},
]


def _paths(value, path=()):
    yield path
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        yield from _paths(child, (*path, key))


def _damage(document, rnd: random.Random) -> None:
    path = rnd.choice([p for p in _paths(document) if p])
    target = document
    for step in path[:-1]:
        target = target[step]
    if isinstance(target, dict) and rnd.random() < 0.2:
        del target[path[-1]]
    else:
        target[path[-1]] = copy.deepcopy(rnd.choice(WRONG_VALUES))


@pytest.mark.parametrize("seed", range(4))
def test_damaged_books_and_lists_fail_cleanly(registry, seed):
    rnd = random.Random(seed)
    book_data = json.loads((FIXTURES / "gf-rustbound-book.json").read_text())
    list_data = json.loads((FIXTURES / "gf-rustbound-list.json").read_text())
    book = convert_book(book_data, registry.systems).book
    failures = 0
    for _ in range(60):
        damaged = copy.deepcopy(book_data)
        for _ in range(rnd.randint(1, 3)):
            _damage(damaged, rnd)
        try:
            convert_book(damaged, registry.systems)
        except ImportFailed as exc:
            failures += 1
            assert exc.path or exc.code == "not_army_forge", exc
        damaged = copy.deepcopy(list_data)
        for _ in range(rnd.randint(1, 3)):
            _damage(damaged, rnd)
        try:
            convert_list(damaged, book)
        except ImportFailed as exc:
            assert exc.path or exc.code == "not_army_forge", exc
    assert failures > 10  # the damage does reach the importer's checks
