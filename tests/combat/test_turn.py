"""Whole-turn previews (issue 15): the attacker shoots, then charges the same target.

The exact turn is checked against a seeded Monte Carlo of the same turn (tests/combat/montecarlo.py
``TurnSim``), against hand-built mixtures of single previews, and over the API.
"""

from __future__ import annotations

import zlib

import pytest

from listbuilder.combat.opr import Pick, SideState, preview_fighters, preview_turn
from listbuilder.combat.service import PreviewError
from tests.combat.helpers import DIALECT, situation, unit, weapon
from tests.combat.montecarlo import TurnSim

TRIALS = 4000

ARCHERS = unit("Archers", 10, 4, 5, weapons=(weapon("Bow", 1, 24, count=10), weapon("Knife", 1, 0, count=10)))
BRUTES = unit("Brutes", 5, 4, 4, "Tough(3)", weapons=(weapon("Claws", 2, 0, "AP(1)", count=5),))
SPEARS = unit("Spears", 10, 5, 5, "Phalanx", weapons=(weapon("Spear", 1, 0, count=10),))
RAIDERS = unit(
    "Raiders",
    5,
    4,
    4,
    "Furious",
    "Impact(1)",
    weapons=(weapon("Pistol", 1, 12, "AP(1)", count=5), weapon("Axe", 2, 0, "AP(1)", count=5)),
)
SHAKY = unit("Shaky", 6, 5, 5, weapons=(weapon("Club", 1, 0, count=6),))
# a Sniper (000/001) or Takedown (002) rifle beside plain rifles, and knives for the charge
MARKSMEN = unit(
    "Marksmen",
    5,
    4,
    4,
    weapons=(
        weapon("Long Rifle", 2, 30, "Sniper", "Takedown", count=2),
        weapon("Rifle", 2, 24, "AP(1)", count=5),
        weapon("Knife", 1, 0, count=5),
    ),
)
CAPTAIN = unit("Captain", 1, 3, 3, "Hero", "Tough(3)", "Fearless", weapons=(weapon("Blade", 3, 0, "AP(1)"),))
ESCORT = unit("Guards", 5, 4, 5, weapons=(weapon("Spear", 1, 0, count=5),), heroes=(CAPTAIN,))
SWORDS = unit("Swords", 8, 4, 4, "Furious", weapons=(weapon("Sword", 2, 0, "AP(1)", count=8),))

CASES = [
    ("000-archers-brutes", "000", ARCHERS, BRUTES, {}),
    ("000-raiders-phalanx", "000", RAIDERS, SPEARS, {}),
    ("001-raiders-shaky", "001", RAIDERS, SHAKY, {}),
    ("002-archers-shaky-flank", "002", ARCHERS, SHAKY, {"facing": "flank"}),
    (
        "001-wounded-target-no-strike-back",
        "001",
        ARCHERS,
        BRUTES,
        {"defender": {"models_lost": 2, "wounds_taken": 1}, "strike_back": False},
    ),
    # the shooting's options, as in a single shooting preview
    ("001-sniper-pick-hero-then-charge", "001", MARKSMEN, ESCORT, {"pick": Pick(hero=0)}),
    ("000-sniper-pick-third-model-then-charge", "000", MARKSMEN, BRUTES, {"pick": Pick(model=2)}),
    ("002-takedown-pick-hero-by-name", "002", MARKSMEN, ESCORT, {"pick": Pick(hero="captain")}),
    ("001-only-the-rifles-shoot", "001", MARKSMEN, SHAKY, {"weapons": ("Rifle",)}),
    # no ranged weapon: the charge alone
    ("000-charge-only-into-phalanx", "000", SWORDS, SPEARS, {}),
    ("002-charge-only-wounded-target", "002", SWORDS, BRUTES, {"defender": {"models_lost": 1, "wounds_taken": 2}}),
]


def turn(code, att, dfn, kw):
    state = SideState(**kw.get("defender", {}))
    shoot = situation("shooting", defender=kw.get("defender"), weapons=kw.get("weapons"), pick=kw.get("pick", Pick()))
    charge = situation(
        "melee",
        defender=kw.get("defender"),
        charging=True,
        facing=kw.get("facing", "front"),
        strike_back=kw.get("strike_back", True),
    )
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
        assert abs(value - mean) <= 5 * se + 1e-9, (
            f"{name}: {label} exact {value:.4f} vs simulated {mean:.4f} ± {se:.4f}"
        )

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


def test_turn_without_ranged_weapon_is_the_charge_alone():
    """000 Actions, Charge: the charging unit shoots nothing; with no ranged weapon the turn is
    its charge, equal to the single charge preview from the same state."""
    kw = {"defender": {"models_lost": 1, "wounds_taken": 2}}
    _, charge, exact = turn("000", SWORDS, BRUTES, kw)
    single = preview_fighters(DIALECT["000"], SWORDS, BRUTES, charge)
    assert exact["steps"]["shooting"] is None
    assert exact["notes"][0].startswith("shooting: skipped, Swords has no ranged weapon")
    assert exact["consequences"]["p_charge"] == 1.0
    for key in ("wounds", "models_killed"):
        for n, p in single["distributions"][key]["pmf"].items():
            assert abs(exact["distributions"][key]["pmf"][n] - p) < 1e-12
    assert abs(exact["p_destroyed"] - single["p_destroyed"]) < 1e-12
    melee = exact["consequences"]["melee_if_charged"]
    assert abs(melee["melee"]["p_attacker_wins"] - single["consequences"]["melee"]["p_attacker_wins"]) < 1e-12
    assert abs(exact["consequences"]["p_defender_removed"] - single["consequences"]["p_defender_removed"]) < 1e-12


def test_turn_shooting_step_takes_the_single_previews_weapons_and_pick():
    """The turn's shooting step is the single shooting preview with the same weapons and pick
    (001 Sniper: the attacker picks the model, resolved as a unit of 1)."""
    for kw in (
        {"weapons": ("Long Rifle",)},
        {"pick": Pick(hero=0)},
        {"weapons": ("Long Rifle",), "pick": Pick(hero="Captain")},
    ):
        shoot, _, exact = turn("001", MARKSMEN, ESCORT, kw)
        single = preview_fighters(DIALECT["001"], MARKSMEN, ESCORT, shoot)
        step = exact["steps"]["shooting"]
        assert step["distributions"] == single["distributions"]
        assert step["consequences"] == single["consequences"]
    assert step["consequences"]["pick"]["name"] == "Captain" and step["consequences"]["pick"]["p_killed"] > 0
    # the charge still fights with the melee weapons: the filter names what shoots
    assert any(n.startswith("charge groups:") and "Knife" in n for n in exact["notes"])


def test_turn_sniper_pick_changes_the_charge_that_follows():
    """A sniped hero that falls no longer strikes back or tests morale in the charge: the
    picked turn leaves the attacker fewer wounds than the turn with no pick."""
    _, _, plain = turn("001", MARKSMEN, ESCORT, {})
    _, _, picked = turn("001", MARKSMEN, ESCORT, {"pick": Pick(hero=0)})
    assert (
        picked["consequences"]["attacker_wounds_taken"]["mean"] < plain["consequences"]["attacker_wounds_taken"]["mean"]
    )
    assert abs(sum(picked["distributions"]["wounds"]["pmf"].values()) - 1) < 1e-12


@pytest.mark.parametrize(
    ("kw", "field"),
    [
        ({"weapons": ("Knife",)}, "situation.weapons"),  # a melee weapon: the charge uses every melee weapon
        ({"weapons": ("Lance",)}, "situation.weapons"),  # a weapon the attacker lacks
        ({"pick": Pick(hero=0, where="situation.pick.hero")}, "situation.pick.hero"),  # no joined hero
    ],
)
def test_turn_refuses_shooting_options_that_name_nothing(kw, field):
    with pytest.raises(PreviewError) as err:
        turn("001", MARKSMEN, SHAKY, kw)
    assert err.value.field == field


def test_turn_target_shot_off_the_table_is_not_charged():
    guns = unit("Guns", 10, 2, 5, weapons=(weapon("Cannon", 3, 24, "AP(4)", count=10), weapon("Knife", 1, 0, count=10)))
    lone = unit("Lone", 1, 5, 6, weapons=(weapon("Stick", 1, 0),))
    _, _, exact = turn("000", guns, lone, {})
    assert exact["p_destroyed"] > 0.999 and exact["consequences"]["p_charge"] < 1e-3
    assert abs(exact["consequences"]["p_defender_removed"] - 1.0) < 1e-9


TURN_BODY = {
    "system": "age-of-fantasy",
    "attacker": {"book": "aof-ember-marches", "unit": "crossbowmen"},
    "defender": {"book": "aof-sunken-hollows", "unit": "mire-warriors"},
    "situation": {"range": 18, "cover": True},
}


def test_turn_endpoint_answers_one_distribution(client):
    res = client.post("/api/v1/previews/turn", json=TURN_BODY)
    assert res.status_code == 200, res.get_json()
    body = res.get_json()
    pmf = body["distributions"]["wounds"]["pmf"]
    assert abs(sum(pmf.values()) - 1) < 1e-9
    assert body["expected"]["wounds"] > body["steps"]["shooting"]["expected"]["wounds"]
    assert set(body["consequences"]) >= {
        "p_charge",
        "p_defender_removed",
        "p_attacker_destroyed",
        "melee_if_charged",
        "attacker_wounds_taken",
    }
    assert any(n.startswith("charge groups:") for n in body["notes"])


@pytest.mark.parametrize(
    ("change", "status", "field"),
    [
        ({"situation": {"attack": "melee"}}, 422, "situation.attack"),
        ({"system": "ancients-hex"}, 422, "system"),
        ({"defender": {"book": "aof-sunken-hollows", "unit": "nobody"}}, 404, "defender.unit"),
        (
            {"defender": {"profile": {"name": "Wall", "size": 20, "quality": 4, "defense": 4, "rules": ["Tough(4)"]}}},
            413,
            "defender",
        ),
    ],
)
def test_turn_endpoint_refuses_what_it_cannot_answer(client, change, status, field):
    res = client.post("/api/v1/previews/turn", json={**TURN_BODY, **change})
    assert res.status_code == status, res.get_json()
    assert field in res.get_json()["errors"]


def test_turn_endpoint_charge_only_for_a_unit_without_ranged_weapons(client):
    body = {**TURN_BODY, "attacker": {"book": "aof-ember-marches", "unit": "march-swordsmen"}, "situation": {}}
    res = client.post("/api/v1/previews/turn", json=body)
    assert res.status_code == 200, res.get_json()
    answer = res.get_json()
    assert answer["steps"]["shooting"] is None and answer["consequences"]["p_charge"] == 1.0
    assert answer["notes"][0].startswith("shooting: skipped")
    single = client.post(
        "/api/v1/previews", json={**body, "situation": {"attack": "melee", "charging": True}}
    ).get_json()
    assert abs(answer["expected"]["wounds"] - single["expected"]["wounds"]) < 1e-12


def test_turn_endpoint_takes_weapons_and_pick(client):
    base = {
        "system": "grimdark-future",
        "attacker": {"book": "gf-cinder-covenant", "unit": "cc-pathfinders"},
        "defender": {"book": "gf-cinder-covenant", "unit": "cc-iron-sentinels"},
    }
    res = client.post(
        "/api/v1/previews/turn", json={**base, "situation": {"pick": {"model": 2}, "weapons": ["Long Rifle"]}}
    )
    assert res.status_code == 200, res.get_json()
    single = client.post(
        "/api/v1/previews",
        json={**base, "situation": {"attack": "shooting", "pick": {"model": 2}, "weapons": ["Long Rifle"]}},
    ).get_json()
    assert res.get_json()["steps"]["shooting"]["consequences"] == single["consequences"]
    assert single["consequences"]["pick"]["place"] == 2
    bad = client.post("/api/v1/previews/turn", json={**base, "situation": {"pick": {"hero": 0}}})
    assert bad.status_code == 422 and "situation.pick.hero" in bad.get_json()["errors"]
    bad = client.post("/api/v1/previews/turn", json={**base, "situation": {"weapons": ["No Such Gun"]}})
    assert bad.status_code == 422 and "situation.weapons" in bad.get_json()["errors"]
