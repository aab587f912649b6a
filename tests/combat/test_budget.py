"""Preview work budgets: every book unit fits, hostile sides get a 413 naming the side."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import pytest

from listbuilder.combat import budget
from listbuilder.combat.budget import SideSize
from listbuilder.combat.service import _combatant, resolve_side
from listbuilder.model import ListEntry
from listbuilder.resolve import resolve_entry

ERROR_KEYS = {"code", "status", "message", "errors"}
TROLLS = {
    "name": "Trolls",
    "size": 3,
    "quality": 4,
    "defense": 4,
    "rules": ["Tough(3)"],
    "weapons": [{"name": "Claws", "attacks": 3}],
}


def preview(client, attacker_profile, system="grimdark-future", situation=None):
    body = {
        "system": system,
        "attacker": {"profile": attacker_profile},
        "defender": {"profile": TROLLS},
        "situation": situation or {"attack": "melee"},
    }
    return client.post("/api/v1/previews", json=body)


def test_every_book_unit_combined_with_heroes_fits_the_budget(registry):
    for book in registry.books.values():
        system = registry.systems[book.system]
        heroes = []
        for unit in book.units:
            resolved, _ = resolve_entry(book, ListEntry(key="x", unit=unit.id), 0)
            combatant = _combatant(resolved, "book")
            assert SideSize.of(combatant).over_budget() is None, (book.id, unit.id)
            (heroes if unit.is_hero else []).append(combatant)
        # The largest unit, doubled as a combined pair, with every hero of the book joined.
        biggest = max((u for u in book.units if not u.is_hero), key=lambda u: u.size)
        side = resolve_side(registry, system, {"book": book.id, "unit": biggest.id}, "attacker")
        pair = copy.copy(side)
        object.__setattr__(pair, "models", side.models * 2)
        object.__setattr__(pair, "weapons", tuple(w.with_count(w.count * 2) for w in side.weapons))
        object.__setattr__(pair, "heroes", tuple(heroes))
        assert SideSize.of(pair).over_budget() is None, (book.id, biggest.id)


def test_the_issue_example_is_413_naming_the_attacker(client):
    # Size 5000, 100 attacks, against Tough(1000): ran 30 s until gunicorn killed the worker.
    huge = {
        "name": "Horde",
        "size": 5000,
        "quality": 3,
        "defense": 3,
        "rules": ["Tough(1000)"],
        "weapons": [{"name": "w", "attacks": 100}],
    }
    response = preview(client, huge)
    assert response.status_code == 413
    body = response.get_json()
    assert set(body) == ERROR_KEYS and body["status"] == "Content Too Large"
    assert body["errors"] == {"attacker": ["5000 models: a preview takes at most 100"]}


@pytest.mark.parametrize(
    "change, words",
    [
        ({"size": budget.MAX_MODELS + 1}, "models"),
        ({"weapons": [{"name": "w", "attacks": budget.MAX_DICE + 1, "count": 1}]}, "attack dice"),
        ({"size": 1, "rules": [f"Tough({budget.MAX_TOUGH + 1})"]}, "Tough"),
        ({"size": 20, "rules": ["Tough(11)"]}, "wounds in all"),
        ({"rules": [f"Impact({budget.MAX_STAT + 1})"]}, "rule's (X)"),
    ],
)
def test_each_budget_is_413_naming_the_side(client, change, words):
    response = preview(client, {**TROLLS, **change})
    assert response.status_code == 413, response.get_json()
    (message,) = response.get_json()["errors"]["attacker"]
    assert words in message


def test_at_the_budget_a_preview_is_computed(client):
    edge = {
        "name": "Edge",
        "size": 10,
        "quality": 4,
        "defense": 4,
        "rules": ["Tough(20)"],
        "weapons": [{"name": "w", "attacks": 30, "count": 10, "range": 24}],
    }
    assert SideSize(10, 300, 20, 200, 20).over_budget() is None
    assert preview(client, edge, situation={"attack": "shooting"}).status_code == 200


def test_hex_dice_are_bounded_too(client, registry):
    # armour-hex assault dice of 300 overflowed a float (a 500 before the budget).
    book = registry.books_of("armour-hex")[0]
    tank = next(u for u in book.units if u.stats.get("assault"))
    profile = {
        "name": "Tank",
        "type": tank.stats["unit_type"],
        "size_class": tank.stats["size_class"],
        "size": 1,
        "speeds": [{"speed": "still", "movement": ["-"], "gunnery": ["-"], "default": "-"}],
        "armour": [5, 4, 4, 3],
        "assault": {"dice": [300, 3, 3, 2], "hit": 5, "ap": 3, "damage": "d6"},
        "damage_tables": {},
    }
    body = {
        "system": "armour-hex",
        "attacker": {"profile": profile},
        "defender": {"book": book.id, "unit": tank.id},
        "situation": {"attack": "assault"},
    }
    response = client.post("/api/v1/previews", json=body)
    assert response.status_code == 413, response.get_json()
    assert response.get_json()["errors"]["attacker"][0].startswith("300 as a")


def test_000_hero_any_number_of_joined_heroes_is_previewed(client):
    # rules/000 Hero (AoF 2.16 sets no limit on heroes joined to one unit): five heroes in one
    # legal unit are previewed, not refused by a budget.
    army = json.loads((Path(__file__).parents[1] / "golden/age-of-fantasy/legal-2000-ember-marches.json").read_text())[
        "list"
    ]
    heroes = [u for u in army["units"] if u.get("joined_to")]
    assert len(heroes) == 5
    for hero in heroes:
        hero["joined_to"] = "levy-a"
    side = {"list": army, "key": "levy-a"}
    response = client.post(
        "/api/v1/previews",
        json={
            "system": "age-of-fantasy",
            "attacker": side,
            "defender": side,
            "situation": {"attack": "melee", "charging": True},
        },
    )
    assert response.status_code == 200, response.get_json()


FURIOUS_BLAST = {
    "name": "Blasters",
    "size": 10,
    "quality": 2,
    "defense": 4,
    "rules": ["Furious"],
    "weapons": [{"name": "Blast claws", "attacks": 30, "count": 10, "rules": ["Blast(20)"]}],
}


def test_furious_with_blast_20_at_the_dice_budget_is_413_naming_the_hits(client):
    # Issue 25: 300 dice (the dice budget) of Blast(20), charging with Furious (000: +1 die a
    # model), into 100 models: 6200 hits before sixes, up to 12,400 with them; math.comb of them overflowed to float (a 500) or ran for 12-14 s.
    horde = {"name": "Horde", "size": 100, "quality": 4, "defense": 4, "weapons": [{"name": "Claws", "attacks": 1}]}
    body = {
        "system": "age-of-fantasy",
        "attacker": {"profile": FURIOUS_BLAST},
        "defender": {"profile": horde},
        "situation": {"attack": "melee", "charging": True},
    }
    response = client.post("/api/v1/previews", json=body)
    assert response.status_code == 413, response.get_json()
    assert response.get_json()["errors"] == {
        "attacker": [f"6200 hits before sixes (attack dice x Blast): a preview takes at most {budget.MAX_HITS}"]
    }


def test_at_the_hits_budget_a_blast_preview_is_computed(client):
    edge = {**FURIOUS_BLAST, "weapons": [{"name": "Blast claws", "attacks": 3, "count": 10, "rules": ["Blast(20)"]}]}
    assert (10 * 3 + 10) * 20 == budget.MAX_HITS  # (dice + Furious's die a model) x Blast: exactly at the budget
    horde = {
        "name": "Horde",
        "size": 100,
        "quality": 4,
        "defense": 4,
        "rules": ["Tough(2)"],
        "weapons": [{"name": "Claws", "attacks": 1}],
    }
    body = {
        "system": "age-of-fantasy",
        "attacker": {"profile": edge},
        "defender": {"profile": horde},
        "situation": {"attack": "melee", "charging": True},
    }
    response = client.post("/api/v1/previews", json=body)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["expected"]["wounds"] == pytest.approx(
        200, abs=1e-3
    )  # 600 dice-hits on 100 Tough(2) models: all but surely dead


def test_binomials_of_many_trials_stay_finite_and_exact():
    from listbuilder.dice import Dist

    for n in (1021, 5000, 12000):
        d = Dist.binomial(n, 0.3)
        assert d.total == pytest.approx(1.0, abs=1e-9) and d.mean == pytest.approx(0.3 * n, rel=1e-9)
    assert Dist.binomial(1021, 1 / 6).p(170) == pytest.approx(
        math.comb(1021, 170) * (1 / 6) ** 170 * (5 / 6) ** 851, rel=1e-9
    )
