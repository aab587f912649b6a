"""Whole-turn previews (issue 15): the attacker shoots, then charges the same target.

The exact turn is checked against a seeded Monte Carlo of the same turn (tests/combat/montecarlo.py
``TurnSim``), against hand-built mixtures of single previews, and over the API.
"""

from __future__ import annotations

import zlib

import pytest

from listbuilder.combat.opr import SideState, preview_fighters, preview_turn
from tests.combat.helpers import DIALECT, situation, unit, weapon
from tests.combat.montecarlo import TurnSim

TRIALS = 4000

ARCHERS = unit("Archers", 10, 4, 5, weapons=(weapon("Bow", 1, 24, count=10), weapon("Knife", 1, 0, count=10)))
BRUTES = unit("Brutes", 5, 4, 4, "Tough(3)", weapons=(weapon("Claws", 2, 0, "AP(1)", count=5),))
SPEARS = unit("Spears", 10, 5, 5, "Phalanx", weapons=(weapon("Spear", 1, 0, count=10),))
RAIDERS = unit("Raiders", 5, 4, 4, "Furious", "Impact(1)", weapons=(weapon("Pistol", 1, 12, "AP(1)", count=5), weapon("Axe", 2, 0, "AP(1)", count=5)))
SHAKY = unit("Shaky", 6, 5, 5, weapons=(weapon("Club", 1, 0, count=6),))

CASES = [
    ("000-archers-brutes", "000", ARCHERS, BRUTES, {}),
    ("000-raiders-phalanx", "000", RAIDERS, SPEARS, {}),
    ("001-raiders-shaky", "001", RAIDERS, SHAKY, {}),
    ("002-archers-shaky-flank", "002", ARCHERS, SHAKY, {"facing": "flank"}),
    ("001-wounded-target-no-strike-back", "001", ARCHERS, BRUTES, {"defender": {"models_lost": 2, "wounds_taken": 1}, "strike_back": False}),
]


def turn(code, att, dfn, kw):
    state = SideState(**kw.get("defender", {}))
    shoot = situation("shooting", defender=kw.get("defender"))
    charge = situation("melee", defender=kw.get("defender"), charging=True, facing=kw.get("facing", "front"), strike_back=kw.get("strike_back", True))
    assert charge.defender == state
    return shoot, charge, preview_turn(DIALECT[code], att, dfn, shoot, charge)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_whole_turn_agrees_with_monte_carlo(case):
    name, code, att, dfn, kw = case
    shoot, charge, exact = turn(code, att, dfn, kw)
    sim = TurnSim(code, att, dfn, shoot, charge, seed=zlib.crc32(name.encode())).run(TRIALS)

    def close(label: str, value: float, key: str, probability: bool = True) -> None:
        mean, se = sim[key]
        if probability:
            se = max(se, (max(value * (1 - value), 0.0) / TRIALS) ** 0.5) + 1 / TRIALS
        assert abs(value - mean) <= 5 * se + 1e-9, f"{name}: {label} exact {value:.4f} vs simulated {mean:.4f} ± {se:.4f}"

    cons = exact["consequences"]
    close("wounds", exact["expected"]["wounds"], "wounds", probability=False)
    close("models killed", exact["expected"]["models_killed"], "killed", probability=False)
    close("destroyed", exact["p_destroyed"], "destroyed")
    close("charged", cons["p_charge"], "charged")
    close("defender removed", cons["p_defender_removed"], "d_removed")
    close("attacker wounds taken", cons["attacker_wounds_taken"]["mean"], "a_lost", probability=False)
    close("attacker wins", cons["p_charge"] * cons["melee_if_charged"]["melee"]["p_attacker_wins"], "a_wins")


def test_turn_is_the_shooting_then_the_charge_from_each_state_it_leaves():
    """The turn's wounds = shooting wounds + the melee's from the state the shooting left."""
    shoot, charge, exact = turn("001", ARCHERS, SHAKY, {})
    shot = preview_fighters(DIALECT["001"], ARCHERS, SHAKY, shoot)
    assert exact["steps"]["shooting"]["expected"] == shot["expected"]
    expected = 0.0
    fail_by_lost = {}
    for lost, p in ((int(k), v) for k, v in shot["distributions"]["wounds"]["pmf"].items()):
        if lost >= 6:
            expected += p * 6
            continue
        # a test only at half strength or less (3+ of 6 lost); Quality 5+ fails 2/3
        fail = 2 / 3 if lost >= 3 else 0.0
        fail_by_lost[lost] = fail
        for shaken, q in ((False, 1 - fail), (True, fail)):
            if q == 0:
                continue
            sit = situation("melee", charging=True, defender={"models_lost": lost, "shaken": shaken})
            melee = preview_fighters(DIALECT["001"], ARCHERS, SHAKY, sit)
            expected += p * q * (lost + melee["expected"]["wounds"])
    assert abs(exact["expected"]["wounds"] - expected) < 1e-12


def test_turn_target_shot_off_the_table_is_not_charged():
    guns = unit("Guns", 10, 2, 5, weapons=(weapon("Cannon", 3, 24, "AP(4)", count=10), weapon("Knife", 1, 0, count=10)))
    lone = unit("Lone", 1, 5, 6, weapons=(weapon("Stick", 1, 0),))
    _, _, exact = turn("000", guns, lone, {})
    assert exact["p_destroyed"] > 0.999 and exact["consequences"]["p_charge"] < 1e-3
    assert abs(exact["consequences"]["p_defender_removed"] - 1.0) < 1e-9


TURN_BODY = {"system": "age-of-fantasy", "attacker": {"book": "aof-ember-marches", "unit": "crossbowmen"},
             "defender": {"book": "aof-sunken-hollows", "unit": "mire-warriors"}, "situation": {"range": 18, "cover": True}}


def test_turn_endpoint_answers_one_distribution(client):
    res = client.post("/api/v1/previews/turn", json=TURN_BODY)
    assert res.status_code == 200, res.get_json()
    body = res.get_json()
    pmf = body["distributions"]["wounds"]["pmf"]
    assert abs(sum(pmf.values()) - 1) < 1e-9
    assert body["expected"]["wounds"] > body["steps"]["shooting"]["expected"]["wounds"]
    assert set(body["consequences"]) >= {"p_charge", "p_defender_removed", "p_attacker_destroyed", "melee_if_charged", "attacker_wounds_taken"}
    assert any(n.startswith("charge groups:") for n in body["notes"])


@pytest.mark.parametrize(("change", "status", "field"), [
    ({"situation": {"attack": "melee"}}, 422, "situation.attack"),
    ({"attacker": {"book": "aof-ember-marches", "unit": "march-swordsmen"}}, 422, "attacker"),
    ({"system": "ancients-hex"}, 422, "system"),
    ({"defender": {"book": "aof-sunken-hollows", "unit": "nobody"}}, 404, "defender.unit"),
    ({"defender": {"profile": {"name": "Wall", "size": 20, "quality": 4, "defense": 4, "rules": ["Tough(4)"]}}}, 413, "defender"),
])
def test_turn_endpoint_refuses_what_it_cannot_answer(client, change, status, field):
    res = client.post("/api/v1/previews/turn", json={**TURN_BODY, **change})
    assert res.status_code == status, res.get_json()
    assert field in res.get_json()["errors"]
