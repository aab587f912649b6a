"""What changed between two versions of a list, in data and in words, priced by validation."""

from __future__ import annotations

import pytest

from listbuilder.lists.diff import ADDED, CHANGED, REMOVED, diff_lists
from listbuilder.lists.documents import parse_list, validate_list
from listbuilder.model import Cost

BOOK = "gf-cinder-covenant"


def army(units: list[dict], **settings):
    return parse_list({"system": "grimdark-future", "book": BOOK, "points_limit": 1000, "units": units, **settings})


def diff(registry, before, after):
    def costs(a):
        return {k: Cost(e["cost"]) for k, e in validate_list(registry, a).entries.items()}

    book = registry.books[BOOK]
    return diff_lists(
        before, after, costs_before=costs(before), costs_after=costs(after), book_before=book, book_after=book
    )


WARDENS = {"key": "a", "unit": "cc-ash-wardens"}
PRIEST = {"key": "p", "unit": "cc-ember-priest"}


def test_identical_lists_have_no_changes(registry):
    same = army([WARDENS, PRIEST])
    result = diff(registry, same, same)
    assert result.unchanged and result.summary() == ["No changes."]


def test_units_added_and_removed_by_key_with_their_cost(registry):
    result = diff(registry, army([WARDENS, PRIEST]), army([WARDENS, {"key": "z", "unit": "cc-cinder-zealots"}]))
    assert [(e.change, e.key, e.name) for e in result.entries] == [
        (ADDED, "z", "Cinder Zealots"),
        (REMOVED, "p", "Ember Priest"),
    ]
    assert result.of_kind(ADDED)[0].cost_after == Cost({"pts": 110})
    assert result.total_change == Cost({"pts": 110 - 65})
    assert result.summary() == [
        "Added Cinder Zealots (110 pts)",
        "Removed Ember Priest (65 pts)",
        "Total: 190 pts → 235 pts (+45 pts)",
    ]


def test_a_key_that_now_holds_another_unit_is_a_removal_and_an_addition(registry):
    result = diff(registry, army([WARDENS]), army([{"key": "a", "unit": "cc-cinder-zealots"}]))
    assert sorted(e.change for e in result.entries) == [ADDED, REMOVED]


def test_upgrade_counts_taken_dropped_and_changed_in_words_and_cost(registry):
    before = army(
        [
            {
                **WARDENS,
                "upgrades": [
                    {"section": "cc-rifle-specials", "option": "flamer", "count": 1},
                    {"section": "cc-rifle-specials", "option": "fusion-rifle", "count": 1},
                ],
            }
        ]
    )
    after = army(
        [
            {
                **WARDENS,
                "upgrades": [
                    {"section": "cc-rifle-specials", "option": "flamer", "count": 2},
                    {"section": "cc-rifle-specials", "option": "grenade-launcher", "count": 1},
                ],
            }
        ]
    )
    result = diff(registry, before, after)
    (change,) = result.entries
    assert change.change == CHANGED
    assert [(u.option, u.before, u.after) for u in change.upgrades] == [
        ("flamer", 1, 2),
        ("fusion-rifle", 1, 0),
        ("grenade-launcher", 0, 1),
    ]
    assert change.cost_before == Cost({"pts": 125 + 5 + 15}) and change.cost_after == Cost({"pts": 125 + 10 + 10})
    assert (
        change.words() == "Ash Wardens: Flamer ×1 → ×2; dropped Fusion Rifle; took Grenade Launcher"
    )  # same cost: no price part


def test_a_changed_cost_is_given_before_after_and_signed(registry):
    before = army([WARDENS])
    after = army([{**WARDENS, "upgrades": [{"section": "cc-rifle-specials", "option": "fusion-rifle", "count": 2}]}])
    (change,) = diff(registry, before, after).entries
    assert change.words() == "Ash Wardens: took Fusion Rifle ×2; 125 pts → 155 pts (+30 pts)"


def test_joining_renaming_and_settings_are_reported(registry):
    before = army([WARDENS, PRIEST], name="First")
    after = army([WARDENS, {**PRIEST, "joined_to": "a", "name": "Father Ash"}], name="Second", points_limit=1500)
    result = diff(registry, before, after)
    (change,) = result.entries
    assert "renamed “Ember Priest” → “Father Ash”" in change.details
    assert "now joined to Ash Wardens" in change.details
    assert [(s.field, s.before, s.after) for s in result.settings] == [
        ("name", "First", "Second"),
        ("points_limit", 1000, 1500),
    ]
    assert result.summary()[:2] == ["List name: “First” → “Second”", "Points limit: 1000 → 1500"]
    assert result.summary()[-1] == "Total: 190 pts → 190 pts (no change)"


def test_repeated_unit_names_are_told_apart_by_place(registry):
    result = diff(registry, army([WARDENS]), army([WARDENS, {"key": "b", "unit": "cc-ash-wardens"}]))
    assert result.entries[0].name == "Ash Wardens #2"


@pytest.mark.parametrize("unknown", ["no-such-unit"])
def test_units_the_book_does_not_know_are_named_by_id(registry, unknown):
    result = diff(registry, army([]), army([{"key": "x", "unit": unknown}]))
    assert result.entries[0].name == unknown


def test_as_dict_carries_data_and_words(registry):
    data = diff(registry, army([WARDENS]), army([WARDENS, PRIEST])).as_dict()
    assert data["added"][0]["key"] == "p" and data["added"][0]["cost_after"] == {"pts": 65}
    assert data["totals"] == {"from": {"pts": 125}, "to": {"pts": 190}, "change": {"pts": 65}}
    assert data["summary"][-1] == "Total: 125 pts → 190 pts (+65 pts)"
