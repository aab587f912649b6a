"""ancients-hex combat previews (rulebook 003): hand-computed exact values, one test per clause,
and agreement with the independent Monte Carlo simulator in ``montecarlo_hex.py``."""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import pytest

from listbuilder.combat.ancients_hex import Pool, engine, roll_pool, terror_failure, willpower_passes
from listbuilder.combat.combatant import Combatant
from listbuilder.combat.service import PreviewError
from listbuilder.dice import reroll_once
from listbuilder.model import RuleRef, Unit
from tests.combat.montecarlo_hex import AncientsCard, ancients_trial, run


def card(
    attack: int = 4,
    defence: int = 0,
    hp: int = 10,
    wp: int = 2,
    missile: int = 0,
    rng: int = 0,
    rules: dict[str, str | None] | None = None,
    kind: str = "troops",
) -> Combatant:
    stats: dict[str, Any] = {
        "unit_class": kind,
        "attack": attack,
        "defence": defence,
        "hit_points": hp,
        "willpower": wp,
    }
    if missile:
        stats.update(missile=missile, missile_range=rng)
    refs = tuple(RuleRef(name, param) for name, param in (rules or {}).items())
    unit = Unit(id="u", name="Unit", size=1, cost=None, stats=stats, rules=refs)  # type: ignore[arg-type]
    return Combatant("Unit", unit, 1, (), (), refs)


def fight(att: Combatant, dfn: Combatant, **situation: Any) -> dict[str, Any]:
    return engine(None, att, dfn, {"attack": "melee", **situation})  # type: ignore[arg-type]


def pmf(result: dict[str, Any], name: str) -> dict[int, float]:
    return {int(k): v for k, v in result["distributions"][name]["pmf"].items()}


def close(a: float, b: F | float) -> bool:
    return abs(a - float(b)) < 1e-12


# -- 003 §4.2.2 attack dice -----------------------------------------------------------------------


def test_4_2_2_attack_dice_hit_on_4_and_natural_six_counts_two() -> None:
    one = roll_pool(Pool(1, doubles=frozenset({6})))
    assert close(one.p(0), F(1, 2)) and close(one.p(1), F(1, 3)) and close(one.p(2), F(1, 6))
    result = fight(card(attack=3), card(defence=0))
    assert close(result["expected"]["hits"], 3 * F(2, 3))


def test_9_critical_hit_fives_count_two_against_its_target() -> None:
    result = fight(card(attack=1, rules={"Critical Hit": "Cavalry"}), card(kind="cavalry"))
    assert close(pmf(result, "hits")[2], F(1, 3)) and close(result["expected"]["hits"], F(5, 6))
    other = fight(card(attack=1, rules={"Critical Hit": "Cavalry"}), card(kind="troops"))
    assert close(other["expected"]["hits"], F(2, 3))  # not its target: only 6s count twice
    everyone = fight(card(attack=1, rules={"Critical Hit": "all"}), card(kind="troops"))
    assert close(everyone["expected"]["hits"], F(5, 6))


def test_4_3_disadvantage_hits_on_5_6_and_double_disadvantage_on_6_only() -> None:
    single = fight(card(attack=1), card(), attacker_disadvantage=1)
    assert close(pmf(single, "hits")[1], F(1, 6)) and close(pmf(single, "hits")[2], F(1, 6))
    double = fight(card(attack=1), card(), attacker_disadvantage=2)
    assert close(double["expected"]["hits"], F(1, 3)) and set(pmf(double, "hits")) == {0, 2}


def test_9_volley_fire_shoots_with_advantage_on_3_plus() -> None:
    shooter = card(missile=2, rng=4, rules={"Volley Fire": None})
    still = engine(None, shooter, card(), {"attack": "shooting", "range": 3})  # type: ignore[arg-type]
    assert close(still["expected"]["hits"], 2 * F(5, 6))  # 3,4,5 score 1 and 6 scores 2
    moved = engine(None, shooter, card(), {"attack": "shooting", "range": 3, "moved": True})  # type: ignore[arg-type]
    assert close(moved["expected"]["hits"], 2 * F(1, 2))  # 003 §4.2.7: moved, so disadvantaged


def test_9_skilled_rerolls_ones_once() -> None:
    result = fight(card(attack=1, rules={"Skilled": "1"}), card())
    assert close(result["expected"]["hits"], F(2, 3) + F(1, 6) * F(2, 3))


def test_9_skilled_matches_the_generic_reroll_once_helper() -> None:
    single = reroll_once(lambda f: 0 if f < 4 else (2 if f == 6 else 1), lambda f: f <= 2)
    assert roll_pool(Pool(1, doubles=frozenset({6}), reroll_upto=2)) == single


def test_9_brace_rerolls_defence_ones_and_twos() -> None:
    result = fight(card(attack=1), card(defence=1, rules={"Brace": "2"}))
    assert close(result["expected"]["blocks"], F(1, 2) + F(2, 6) * F(1, 2))


def test_combat_sequence_no_die_rerolled_twice() -> None:
    # Frenzy on a charge rerolls every miss; Skilled 3 on top adds nothing because a die
    # already rerolled cannot be rerolled again.
    frenzy = fight(card(attack=1, rules={"Frenzy": None, "Skilled": "3"}), card(), charging=True)
    one = F(2, 3) + F(1, 2) * F(2, 3)
    assert close(frenzy["expected"]["hits"], 2 * one)
    assert close(pmf(frenzy, "hits")[0], (F(1, 2) * F(1, 2)) ** 2)


def test_9_support_gives_one_reroll_die() -> None:
    result = fight(card(attack=2, rules={"Support": None}), card(), attacker_support=1)
    assert close(pmf(result, "hits")[0], F(1, 4) * F(1, 2))
    alone = fight(card(attack=2), card(), attacker_support=1)  # 003 §9: only between Support units
    assert close(pmf(alone, "hits")[0], F(1, 4))


def test_9_charge_adds_a_die_unless_disadvantaged() -> None:
    charger = card(attack=3, rules={"Charge": None})
    assert close(fight(charger, card(), charging=True)["expected"]["hits"], 4 * F(2, 3))
    assert close(fight(charger, card(), charging=True, attacker_disadvantage=1)["expected"]["hits"], 3 * F(1, 2))
    assert close(fight(charger, card(), charging=True, no_charge_bonus=True)["expected"]["hits"], 3 * F(2, 3))


def test_9_impact_disadvantages_the_defence_on_a_valid_charge() -> None:
    rammer = card(attack=1, rules={"Impact": None})
    assert close(fight(rammer, card(defence=3), charging=True)["expected"]["blocks"], 3 * F(1, 3))
    assert close(fight(rammer, card(defence=3))["expected"]["blocks"], 3 * F(1, 2))


def test_9_deadly_disadvantages_the_defence_but_4_3_not_against_missiles() -> None:
    assert close(fight(card(attack=1, rules={"Deadly": None}), card(defence=2))["expected"]["blocks"], 2 * F(1, 3))
    shooter = card(missile=1, rng=3, rules={"Deadly": None})
    shot = engine(None, shooter, card(defence=2), {"attack": "shooting", "range": 2})  # type: ignore[arg-type]
    assert close(shot["expected"]["blocks"], 2 * F(1, 2))


def test_9_frenzy_adds_a_die_on_a_charge() -> None:
    assert fight(card(attack=2, rules={"Frenzy": None}), card(), charging=True)["notes"][0].startswith("attack: 3 dice")


def test_3_7_3_evade_disadvantages_the_attacker_and_is_the_retreat() -> None:
    result = fight(card(attack=2), card(defence=1, rules={"Evade": None}), defender_action="evade")
    assert close(result["expected"]["hits"], 2 * F(1, 2))
    assert result["consequences"]["retreat"]["p_retreat"] == 1.0
    assert result["consequences"]["retreat"]["p_extra_hit"] == 0.0
    with pytest.raises(PreviewError):
        fight(card(), card(), defender_action="evade")  # no Evade attribute
    with pytest.raises(PreviewError):
        fight(card(), card(rules={"Evade": None}), defender_action="evade", retreat_blocked=1)


def test_4_2_4_blocks_cancel_hits_and_the_rest_is_damage() -> None:
    result = fight(card(attack=1), card(defence=1, hp=5))
    damage = pmf(result, "damage")
    assert close(damage[0], F(2, 3)) and close(damage[1], F(1, 4)) and close(damage[2], F(1, 12))
    assert close(result["consequences"]["retreat"]["p_retreat"], F(1, 3))


def test_4_2_6_retreat_blocked_takes_an_extra_hit() -> None:
    result = fight(card(attack=1), card(defence=1, hp=5), retreat_blocked=1)
    lost = pmf(result, "hp_lost")
    assert close(lost[0], F(2, 3)) and close(lost[2], F(1, 4)) and close(lost[3], F(1, 12))
    assert close(result["consequences"]["retreat"]["p_extra_hit"], F(1, 3))


def test_9_steadfast_ignores_the_retreat_and_no_retreat_takes_the_extra_hit() -> None:
    stand = fight(card(attack=1), card(defence=1, hp=5, rules={"Steadfast": None}), retreat_blocked=1)
    assert close(stand["expected"]["hp_lost"], F(5, 12)) and stand["consequences"]["retreat"]["p_retreat"] == 0
    unstoppable = fight(
        card(attack=1, rules={"Unstoppable": None}), card(defence=1, hp=5, rules={"Steadfast": None}), retreat_blocked=1
    )
    assert close(unstoppable["expected"]["hp_lost"], F(5, 12) + F(1, 3))
    holds = fight(card(attack=1), card(defence=1, hp=5, rules={"No retreat": None}))
    assert close(holds["expected"]["hp_lost"], F(5, 12) + F(1, 3))


def test_4_4_last_gasp_fight_back_trades_blocks_for_damage() -> None:
    result = fight(card(attack=2, hp=3), card(defence=2, hp=2), defender_action="fight_back")
    assert close(result["expected"]["damage"], 2 * F(2, 3))  # nothing is blocked
    assert close(result["expected"]["attacker_hp_lost"], 2 * F(1, 2))
    assert close(result["consequences"]["last_gasp"]["p_attacker_destroyed"], 0)
    assert close(pmf(result, "attacker_hp_lost")[2], F(1, 4))


def test_4_4_volley_fire_fight_back_with_missiles_is_disadvantaged() -> None:
    bowmen = card(defence=2, missile=4, rng=4, rules={"Volley Fire": None})
    result = fight(card(attack=4), bowmen, defender_action="fight_back", fight_back_with="missile", charging=True)
    assert close(result["expected"]["attacker_hp_lost"], 4 * (F(1, 6) + F(2, 6)))
    with pytest.raises(PreviewError):
        fight(card(attack=4), bowmen, defender_action="fight_back", fight_back_with="missile")  # not charged


def test_9_support_applies_in_last_gasp_rolls() -> None:
    result = fight(
        card(attack=1), card(defence=1, rules={"Support": None}), defender_action="fight_back", defender_support=1
    )
    assert close(result["expected"]["attacker_hp_lost"], F(3, 4))


def test_5_2_terror_willpower_test_and_5_3_steadfast() -> None:
    assert close(willpower_passes(1).p(2), F(1, 6))
    assert close(terror_failure(1, 1, steadfast=False, fearless=False), F(1, 2))
    assert close(terror_failure(2, 2, steadfast=False, fearless=False), F(7, 12))
    assert terror_failure(1, 1, steadfast=True, fearless=False) == 0
    assert close(terror_failure(2, 2, steadfast=True, fearless=False), F(1, 4))
    assert terror_failure(0, 2, steadfast=False, fearless=True) == 0
    # a failed test makes the attacker fight at a disadvantage: 1/2 x 2/3 + 1/2 x 1/2
    result = fight(card(attack=1, wp=1), card(rules={"Terror": "1"}))
    assert close(result["expected"]["hits"], F(1, 2) * F(2, 3) + F(1, 2) * F(1, 2))


def test_9_scavenger_ethereal_stealthy_and_flight() -> None:
    assert close(
        fight(card(attack=1, rules={"Scavenger": None}), card(), defender_hp_lost=1)["expected"]["hits"], 2 * F(2, 3)
    )
    assert close(fight(card(attack=1), card(rules={"Ethereal": None}))["expected"]["hits"], F(1, 2))
    assert close(fight(card(attack=1), card(rules={"Flight": None}))["expected"]["hits"], F(1, 2))
    assert close(
        fight(card(attack=1), card(rules={"Flight": None}), defender_activated=True)["expected"]["hits"], F(2, 3)
    )
    shot = engine(None, card(missile=1, rng=3), card(rules={"Stealthy": None}), {"attack": "shooting", "range": 2})  # type: ignore[arg-type]
    assert close(shot["expected"]["hits"], F(1, 2))


def test_hit_points_p_destroyed() -> None:
    result = fight(card(attack=1), card(defence=0, hp=1))
    assert close(result["p_destroyed"], F(1, 2))
    wounded = fight(card(attack=1), card(defence=0, hp=3), defender_hp_lost=1)
    assert close(wounded["p_destroyed"], F(1, 6))


def test_4_1_nonsense_inputs_are_refused() -> None:
    with pytest.raises(PreviewError) as no_missile:
        engine(None, card(), card(), {"attack": "shooting", "range": 2})  # type: ignore[arg-type]
    assert no_missile.value.field == "situation.attack"
    with pytest.raises(PreviewError) as too_far:
        engine(None, card(missile=2, rng=3), card(), {"attack": "shooting", "range": 4})  # type: ignore[arg-type]
    assert too_far.value.field == "situation.range"
    with pytest.raises(PreviewError):
        engine(None, card(missile=2, rng=3), card(), {"attack": "shooting", "range": 1})  # type: ignore[arg-type]
    with pytest.raises(PreviewError):
        fight(card(attack=0), card())
    # unknown keys and wrong values are refused before the engine: tests/combat/test_hex_situations.py


# -- Monte Carlo battery ----------------------------------------------------------------------------

BATTERY: list[tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]] = [
    ("basic", {"attack": 4}, {"defence": 3, "hit_points": 3}, {"attack": "melee"}),
    (
        "critical",
        {"attack": 4, "attributes": {"Critical Hit": "all"}},
        {"defence": 2, "hit_points": 3},
        {"attack": "melee"},
    ),
    (
        "skilled-support",
        {"attack": 4, "attributes": {"Skilled": "2", "Support": None}},
        {"defence": 3, "hit_points": 4},
        {"attack": "melee", "attacker_support": 2},
    ),
    (
        "brace-support",
        {"attack": 5},
        {"defence": 4, "hit_points": 4, "attributes": {"Brace": "1", "Support": None}},
        {"attack": "melee", "defender_support": 1},
    ),
    (
        "charge-impact-frenzy",
        {"attack": 3, "attributes": {"Charge": None, "Impact": None, "Frenzy": None}},
        {"defence": 3, "hit_points": 4},
        {"attack": "melee", "charging": True},
    ),
    (
        "charge-lost",
        {"attack": 3, "attributes": {"Charge": None, "Impact": None}},
        {"defence": 3, "hit_points": 4},
        {"attack": "melee", "charging": True, "attacker_disadvantage": 1},
    ),
    (
        "deadly-double",
        {"attack": 5, "attributes": {"Deadly": None}},
        {"defence": 4, "hit_points": 4},
        {"attack": "melee", "attacker_disadvantage": 2, "defender_disadvantage": 1},
    ),
    (
        "evade",
        {"attack": 4},
        {"defence": 3, "hit_points": 3, "attributes": {"Evade": None}},
        {"attack": "melee", "defender_action": "evade"},
    ),
    ("retreat-blocked", {"attack": 4}, {"defence": 2, "hit_points": 3}, {"attack": "melee", "retreat_blocked": 1}),
    (
        "steadfast-vs-unstoppable",
        {"attack": 4, "attributes": {"Unstoppable": None}},
        {"defence": 2, "hit_points": 3, "attributes": {"Steadfast": None}},
        {"attack": "melee", "retreat_blocked": 1},
    ),
    (
        "no-retreat",
        {"attack": 3},
        {"defence": 2, "hit_points": 3, "attributes": {"No retreat": None}},
        {"attack": "melee"},
    ),
    (
        "last-gasp",
        {"attack": 4, "hit_points": 2},
        {"defence": 3, "hit_points": 2, "attributes": {"Brace": "1"}},
        {"attack": "melee", "defender_action": "fight_back"},
    ),
    (
        "volley-fight-back",
        {"attack": 4, "hit_points": 2},
        {"defence": 2, "hit_points": 2, "missile": 4, "missile_range": 4, "attributes": {"Skilled": "1"}},
        {"attack": "melee", "defender_action": "fight_back", "fight_back_with": "missile", "charging": True},
    ),
    (
        "volley-fire",
        {"attack": 1, "missile": 4, "missile_range": 4, "attributes": {"Volley Fire": None, "Deadly": None}},
        {"defence": 2, "hit_points": 2},
        {"attack": "shooting", "range": 3},
    ),
    (
        "shoot-moved-stealthy",
        {"attack": 1, "missile": 5, "missile_range": 4, "attributes": {"Skilled": "1"}},
        {"defence": 2, "hit_points": 3, "attributes": {"Stealthy": None}},
        {"attack": "shooting", "range": 3, "moved": True},
    ),
    (
        "terror-both",
        {"attack": 4, "willpower": 2, "attributes": {"Terror": "1"}},
        {"defence": 3, "hit_points": 3, "willpower": 2, "attributes": {"Terror": "2"}},
        {"attack": "melee"},
    ),
    (
        "terror-steadfast-fearless",
        {"attack": 4, "willpower": 1, "attributes": {"Terror": "2", "Fearless": None}},
        {"defence": 3, "hit_points": 3, "willpower": 3, "attributes": {"Steadfast": None}},
        {"attack": "melee", "retreat_blocked": 1},
    ),
    (
        "scavenger-ethereal-flight",
        {"attack": 4, "attributes": {"Scavenger": None}},
        {"defence": 2, "hit_points": 4, "attributes": {"Ethereal": None, "Flight": None}},
        {"attack": "melee", "defender_hp_lost": 1},
    ),
]


def _as_combatant(spec: dict[str, Any]) -> Combatant:
    return card(
        attack=spec.get("attack", 0),
        defence=spec.get("defence", 0),
        hp=spec.get("hit_points", 5),
        wp=spec.get("willpower", 2),
        missile=spec.get("missile", 0),
        rng=spec.get("missile_range", 0),
        rules=spec.get("attributes"),
    )


def _as_card(spec: dict[str, Any]) -> AncientsCard:
    return AncientsCard(
        attack=spec.get("attack", 0),
        defence=spec.get("defence", 0),
        hit_points=spec.get("hit_points", 5),
        willpower=spec.get("willpower", 2),
        missile=spec.get("missile", 0),
        missile_range=spec.get("missile_range", 0),
        attributes=spec.get("attributes"),
        kind="troops",
    )


@pytest.mark.parametrize("name, att, dfn, situation", BATTERY, ids=[b[0] for b in BATTERY])
def test_monte_carlo_agrees_with_the_engine(
    name: str, att: dict[str, Any], dfn: dict[str, Any], situation: dict[str, Any]
) -> None:
    exact = engine(None, _as_combatant(att), _as_combatant(dfn), situation)  # type: ignore[arg-type]
    sampled = run(ancients_trial, 20000, 4, _as_card(att), _as_card(dfn), situation)
    for key in ("hits", "blocks", "damage", "hp_lost"):
        assert abs(exact["expected"][key] - sampled[key]) < 0.05, (key, exact["expected"][key], sampled[key])
    assert abs(exact["p_destroyed"] - sampled["destroyed"]) < 0.015
    if "attacker_hp_lost" in exact["expected"]:
        assert abs(exact["expected"]["attacker_hp_lost"] - sampled["attacker_hp_lost"]) < 0.05
