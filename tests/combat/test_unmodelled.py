"""Every preview answer names the rules it does not model (issue 15), for each rules family."""

from __future__ import annotations

from dataclasses import replace

import pytest

from listbuilder.combat.service import engine_for, resolve_side
from listbuilder.model import RuleRef

# (system, book, unit, situation) for one fight each family can preview
FIGHTS = [
    ("age-of-fantasy", "aof-ember-marches", "march-swordsmen", {"attack": "melee", "charging": True}),
    ("grimdark-future", "gf-cinder-covenant", "cc-ash-wardens", {"attack": "shooting", "range": 12}),
    ("ancients-hex", None, None, {"attack": "melee"}),
    ("armour-hex", None, None, {"attack": "assault"}),
]


def fight(registry, system_id, book_id, unit_id, situation):
    system = registry.systems[system_id]
    book = registry.books[book_id] if book_id else registry.books_of(system_id)[0]
    unit = (
        book.unit(unit_id)
        if unit_id
        else next(u for u in book.units if not any(s.pick_min for s in map(book.sections.get, u.upgrades) if s))
    )
    side = resolve_side(registry, system, {"book": book.id, "unit": unit.id, "upgrades": ()}, "attacker")
    return system, side, situation


@pytest.mark.parametrize("case", FIGHTS, ids=[c[0] for c in FIGHTS])
def test_a_rule_from_an_imported_book_is_named_unmodelled(registry, case):
    system, side, situation = fight(registry, *case)
    engine = engine_for(system.family)
    plain = engine(system, side, side, situation)
    odd = replace(side, rules=(*side.rules, RuleRef.parse("Mystery Gas(2)")))
    answer = engine(system, odd, side, situation)
    assert "Mystery Gas" in answer["unmodelled"] and "Mystery Gas" not in plain["unmodelled"]
    assert answer["expected"] == plain["expected"]  # ignored, and said so


def test_book_rules_the_engine_reads_or_may_ignore_are_not_listed(registry):
    system, side, situation = fight(registry, *FIGHTS[0])
    answer = engine_for(system.family)(system, side, side, situation)
    assert answer["unmodelled"] == []


def test_the_api_answer_carries_the_list(client):
    body = {
        "system": "age-of-fantasy",
        "attacker": {
            "profile": {
                "name": "Odd",
                "size": 5,
                "quality": 4,
                "defense": 4,
                "rules": ["Swamp Stench"],
                "weapons": [{"name": "Club", "attacks": 1, "rules": ["Gloom(1)"]}],
            }
        },
        "defender": {"book": "aof-sunken-hollows", "unit": "mire-warriors"},
        "situation": {"attack": "melee"},
    }
    res = client.post("/api/v1/previews", json=body)
    assert res.status_code == 200, res.get_json()
    assert res.get_json()["unmodelled"] == ["Swamp Stench", "Gloom", "Bog Dweller"]
    turn = client.post(
        "/api/v1/previews/turn",
        json={**body, "attacker": {"book": "aof-ember-marches", "unit": "crossbowmen"}, "situation": {}},
    )
    assert turn.get_json()["unmodelled"] == ["Bog Dweller"]
