"""One vocabulary for counts: units (entries), activations (as deployed) and models."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from listbuilder.lists import parse_list, validate_list
from listbuilder.rosters import build_roster

GOLDEN = Path(__file__).parent / "golden"
ALL_GOLDEN = sorted(GOLDEN.glob("*/*.json"))


def _list(path: Path):
    return parse_list(json.loads(path.read_text(encoding="utf-8"))["list"])


def test_a_combined_pair_with_two_joined_heroes_is_one_activation(registry):
    army = parse_list({
        "system": "grimdark-future", "book": "gf-cinder-covenant", "points_limit": 1000,
        "units": [
            {"key": "a", "unit": "cc-ash-wardens"},
            {"key": "b", "unit": "cc-ash-wardens", "combined_with": "a"},
            {"key": "h", "unit": "cc-pyre-marshal", "joined_to": "a"},
            {"key": "c", "unit": "cc-ember-priest", "joined_to": "b"},
        ]})
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
