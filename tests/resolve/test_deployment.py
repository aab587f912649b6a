"""One vocabulary for counts: units (entries), activations (as deployed) and models."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from listbuilder.lists.documents import parse_list, validate_list
from listbuilder.printing.rosters import build_roster

GOLDEN = Path(__file__).parent.parent / "golden"
ALL_GOLDEN = sorted(GOLDEN.glob("*/*.json"))


def _list(path: Path):
    return parse_list(json.loads(path.read_text(encoding="utf-8"))["list"])


def test_a_combined_pair_with_two_joined_heroes_is_one_activation(registry):
    army = parse_list(
        {
            "system": "grimdark-future",
            "book": "gf-cinder-covenant",
            "points_limit": 1000,
            "units": [
                {"key": "a", "unit": "cc-ash-wardens"},
                {"key": "b", "unit": "cc-ash-wardens", "combined_with": "a"},
                {"key": "h", "unit": "cc-pyre-marshal", "joined_to": "a"},
                {"key": "c", "unit": "cc-ember-priest", "joined_to": "b"},
            ],
        }
    )
    totals = validate_list(registry, army).totals
    assert (totals["units"], totals["activations"]) == (4, 1)
    assert totals["models"] == 2 * 10 + 1 + 1


@pytest.mark.parametrize("path", ALL_GOLDEN, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_report_and_roster_count_the_same_way(registry, path):
    army = _list(path)
    totals = validate_list(registry, army).totals
    roster = build_roster(registry, army)
    assert {k: totals[k] for k in ("units", "activations", "models")} == dict(roster.counts)
    # identical activations print as one block with its copies counted
    assert roster.counts["activations"] == sum(block.copies for block in roster.blocks)


TANGLED = [  # every link that can or cannot be drawn, in one list
    {"key": "a", "unit": "cc-ash-wardens", "combined_with": "b"},
    {"key": "b", "unit": "cc-ash-wardens", "combined_with": "a"},
    {"key": "c", "unit": "cc-ash-wardens", "combined_with": "a"},  # a third claim on a
    {"key": "d", "unit": "cc-ash-wardens", "combined_with": "d"},  # itself
    {"key": "e", "unit": "cc-ash-wardens", "combined_with": "nobody"},
    {"key": "f", "unit": "cc-ember-priest", "combined_with": "c"},  # not the same unit
    {"key": "h", "unit": "cc-pyre-marshal", "joined_to": "b"},  # onto a pair's second copy
    {"key": "i", "unit": "cc-ember-priest", "joined_to": "h"},  # onto a hero that joined
    {"key": "j", "unit": "cc-ember-priest", "joined_to": "j"},
    {"key": "k", "unit": "cc-ember-priest", "joined_to": "c"},
    {"key": "l", "unit": "cc-ember-priest", "joined_to": "a", "combined_with": "k"},
    {"key": "m", "unit": "no-such-unit", "joined_to": "a"},
]


@pytest.mark.parametrize("size", range(1, len(TANGLED) + 1))
def test_activations_counted_from_the_links_equal_the_groups(registry, size):
    """count_totals counts the drawable links without grouping; the roster groups them. Both
    must agree on every shape of list (each prefix of a tangle of links)."""
    from listbuilder.lists.documents import book_for
    from listbuilder.resolve.deployment import count_totals, deployment_groups

    army = parse_list({"system": "grimdark-future", "book": "gf-cinder-covenant", "units": TANGLED[:size]})
    rules, book = book_for(registry, army)
    resolved, _ = rules.resolve(army, book)
    assert count_totals(army, resolved) == count_totals(army, resolved, deployment_groups(resolved))
