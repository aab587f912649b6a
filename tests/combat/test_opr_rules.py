"""Hand-computed exact values, one test per rule clause (000 = AoF 2.16, 001 = GF, 002 = AoF regiments)."""

from __future__ import annotations

import math

import pytest

from listbuilder.combat import PreviewError
from listbuilder.combat.opr import Pick, Preview, _advance, preview_fighters
from listbuilder.combat.profiles import wound_line
from listbuilder.dice import Dist
from tests.combat.helpers import DIALECT, situation, unit, weapon

S = 1 / 6
HORDE = unit("Horde", 40, 5, 4, weapons=(weapon("Hand", 1, 0, count=40),))  # enough models that nothing caps


def run(code, att, dfn=HORDE, attack="shooting", **kw):
    return preview_fighters(DIALECT[code], att, dfn, situation(attack, **kw))


def gun(*labels, attacks=10, q=4, rng=24, unit_rules=()):
    return unit("Shooters", 1, q, 5, *unit_rules, weapons=(weapon("Gun", attacks, rng, *labels),))


def axe(*labels, attacks=10, q=4, unit_rules=(), models=1):
    return unit("Fighters", models, q, 4, *unit_rules, weapons=(weapon("Axe", attacks, 0, *labels, count=models),))


def target(defense, *labels, models=40, tough=None):
    extra = (f"Tough({tough})",) if tough else ()
    return unit("Target", models, 5, defense, *labels, *extra, weapons=(weapon("Hand", 1, 0, count=models),))


def approx(a, b):
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


# -- the core sequence ---------------------------------------------------------------------


@pytest.mark.parametrize("code", ["000", "001", "002"])
def test_quality_defense_ap_issue_example(code):
    # Roll to hit / Roll to block / AP(X): 10 attacks Q4+ vs D5+ with AP(1) -> 10 x 1/2 x 5/6
    r = run(code, gun("AP(1)"), target(5))
    assert approx(r["expected"]["hits"], 5.0)
    assert approx(r["expected"]["wounds"], 10 * 0.5 * 5 / 6)
    assert r["distributions"]["hits"]["pmf"]["10"] == pytest.approx(0.5**10)
    assert approx(r["expected"]["models_killed"], 10 * 0.5 * 5 / 6)


def test_modifiers_natural_six_always_hits():
    # 000 Quality Tests: a 6 always succeeds (-3 to hit from cover, Stealth, Indirect after moving)
    r = run("000", gun("Indirect"), target(6, "Stealth"), cover=True, hold=False)
    assert approx(r["expected"]["hits"], 10 * S)


def test_modifiers_natural_one_always_fails():
    # 001 cover +1 on Defense 2+: a 1 still fails -> 5/6 blocked
    r = run("001", gun("Reliable"), target(2), cover=True)
    assert approx(r["expected"]["wounds"], 10 * 5 / 6 * 1 / 6)


def test_000_cover_minus_one_to_hit():
    assert approx(run("000", gun(), target(6), cover=True)["expected"]["hits"], 10 / 3)


@pytest.mark.parametrize("code", ["001", "002"])
def test_cover_plus_one_defense(code):
    r = run(code, gun(), target(5), cover=True)
    assert approx(r["expected"]["hits"], 5.0) and approx(r["expected"]["wounds"], 5 * 0.5)


def test_several_weapon_groups_in_one_attack():
    att = unit("Mixed", 1, 4, 5, weapons=(weapon("Gun", 10, 24), weapon("Rocket", 2, 24, "AP(2)")))
    r = run("001", att, target(4))
    assert approx(r["expected"]["hits"], 6.0)
    assert approx(r["expected"]["wounds"], 5 * 0.5 + 1 * 5 / 6)


# -- Blast, Deadly, Tough, Hero, Regeneration ------------------------------------------------


def test_blast_multiplies_hits_up_to_models():
    r = run("001", gun("Blast(3)", attacks=1, q=2), target(6, models=2))
    assert approx(r["expected"]["hits"], 5 / 6 * 2)


def test_000_blast_ignores_cover():
    assert approx(run("000", gun("Blast(3)", attacks=1), target(6), cover=True)["expected"]["hits"], 0.5 * 3)


def test_deadly_multiplies_wounds_on_one_model():
    r = run("001", gun("Deadly(3)", "Reliable", attacks=1), target(6, models=1, tough=3))
    assert approx(r["p_destroyed"], 5 / 6 * 5 / 6)


def test_deadly_wounds_do_not_carry_over():
    r = run("001", gun("Deadly(3)", "Reliable", attacks=2), target(6, models=5))
    assert approx(r["expected"]["models_killed"], 2 * 5 / 6 * 5 / 6)
    assert approx(r["expected"]["wounds"], 2 * 5 / 6 * 5 / 6)
    # 000 Sniper on top: both attacks go to one picked model, so at most one dies
    r = run("000", gun("Deadly(3)", "Sniper", attacks=2), target(6, models=5))
    assert approx(r["expected"]["models_killed"], 1 - (1 - 25 / 36) ** 2)


def test_tough_most_wounded_model_first():
    line = wound_line(target(4, models=2, tough=3))
    assert _advance(line, 0, 3, 1, line.end) == 3 and line.alive(3) == 1
    assert line.position(0, 2) == 2 and line.alive(_advance(line, 2, 1, 1, line.end)) == 1


def test_tough_deadly_fills_the_wounded_model_only():
    line = wound_line(target(4, models=2, tough=3))
    assert _advance(line, 2, 1, 3, line.end) == 3  # Deadly(3) on a model with 1 wound left


def test_hero_takes_wounds_last_and_uses_unit_defense():
    hero = unit("Hero", 1, 3, 2, "Hero", "Tough(3)")
    guards = unit("Guards", 2, 4, 6, weapons=(weapon("Hand", 1, 0, count=2),), heroes=(hero,))
    p = Preview(DIALECT["001"], gun(), guards, situation())
    assert p.saves.target(guards, p.fight.line_d, 0, None) is guards
    assert p.saves.target(guards, p.fight.line_d, 2, None) is hero
    assert p.fight.line_d.heroes_alive(1) == (0,) and p.fight.line_d.unit_alive(2) == 0


@pytest.mark.parametrize("code", ["000", "001", "002"])
def test_regeneration_ignores_wounds_on_5plus(code):
    r = run(code, gun(), target(4, "Regeneration"))
    assert approx(r["expected"]["wounds"], 10 * 0.5 * 0.5 * 2 / 3)


def test_002_regeneration_needs_all_models():
    hero = unit("Hero", 1, 3, 4, "Hero")
    r = run("002", gun(), unit("Trolls", 40, 4, 4, "Regeneration", heroes=(hero,)))
    assert approx(r["expected"]["wounds"], 10 * 0.5 * 0.5)


def test_000_regeneration_is_per_model():
    hero = unit("Hero", 1, 3, 4, "Hero")
    r = run("000", gun(), unit("Trolls", 40, 4, 4, "Regeneration", heroes=(hero,)))
    assert approx(r["expected"]["wounds"], 10 * 0.5 * 0.5 * 2 / 3)


# -- rules on natural sixes -----------------------------------------------------------------


def test_000_rending_ap4_and_ignores_regeneration_on_sixes():
    r = run("000", gun("Rending"), target(2, "Regeneration"))
    assert approx(r["expected"]["wounds"], 10 * (S * 5 / 6 + 2 / 6 * S * 2 / 3))


def test_001_rending_ap4_and_minus_one_regeneration():
    r = run("001", gun("Rending"), target(2, "Regeneration"))
    assert approx(r["expected"]["wounds"], 10 * (S * 5 / 6 + 2 / 6 * S) * 5 / 6)


def test_002_rending_ap_plus4_and_ignores_regeneration():
    r = run("002", gun("Rending", "AP(1)"), target(2, "Regeneration"))
    assert approx(r["expected"]["wounds"], 10 * (S * 5 / 6 + 2 / 6 * 2 / 6))


def test_000_poison_triples_sixes():
    assert approx(run("000", gun("Poison"), target(6))["expected"]["hits"], 10 * (3 * S + 2 / 6))


def test_001_poison_rerolls_defense_sixes_and_minus_one_regeneration():
    block = (0.5 - S) + S * 0.5
    r = run("001", gun("Poison"), target(4, "Regeneration"))
    assert approx(r["expected"]["wounds"], 10 * 0.5 * (1 - block) * 5 / 6)


def test_002_bane_rerolls_defense_sixes_and_ignores_regeneration():
    block = (0.5 - S) + S * 0.5
    assert approx(run("002", gun("Bane"), target(4, "Regeneration"))["expected"]["wounds"], 10 * 0.5 * (1 - block))


def test_001_relentless_on_hold():
    assert approx(run("001", gun(unit_rules=("Relentless",)), target(6), hold=True)["expected"]["hits"], 10 * (0.5 + S))
    assert approx(run("001", gun(unit_rules=("Relentless",)), target(6), hold=False)["expected"]["hits"], 5.0)


def test_002_relentless_over_9():
    assert approx(run("002", gun(unit_rules=("Relentless",)), target(6), range=12)["expected"]["hits"], 10 * (0.5 + S))
    assert approx(run("002", gun(unit_rules=("Relentless",)), target(6), range=6)["expected"]["hits"], 5.0)


def test_002_surge():
    assert approx(run("002", gun("Surge"), target(6))["expected"]["hits"], 10 * (0.5 + S))


def test_001_furious_sixes_add_a_hit_when_charging():
    r = run("001", axe(), target(6), attack="melee", charging=True, strike_back=False)
    assert approx(r["expected"]["hits"], 5.0)  # the axe-wielder has no Furious
    r = run("001", axe(unit_rules=("Furious",)), target(6), attack="melee", charging=True, strike_back=False)
    assert approx(r["expected"]["hits"], 10 * (0.5 + S))


def test_000_furious_one_extra_attack_per_model():
    r = run(
        "000",
        axe(attacks=1, models=10, unit_rules=("Furious",)),
        target(6),
        attack="melee",
        charging=True,
        strike_back=False,
    )
    assert approx(r["expected"]["hits"], 20 * 0.5)


def _at_least(n: int, p: float, k: int) -> float:
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))


def test_000_furious_extra_attack_is_rolled_with_its_weapon_and_blocked_at_unit_defense():
    # 000 Furious (+1 attack with a weapon) / Melee (all attacks rolled together) / Hero (blocks
    # at the unit's Defense until all non-hero models are killed): the issue-26 charge is one
    # roll of 30 Reaver Axe attacks at the Swordsmen's 5+. A wound chance of 1/6 * 5/6 (Rending
    # 6s at AP(4)) + 2/6 * 4/6, and Deadly(2) kills a Swordsman per wound and the Tough(3)
    # Marchlord with two: destroyed on 12 wounds or more.
    reavers = unit(
        "Reavers", 10, 4, 5, "Furious", weapons=(weapon("Reaver Axe", 2, 0, "Rending", "Deadly(2)", count=10),)
    )
    lord = unit("Marchlord", 1, 3, 4, "Hero", "Tough(3)", "Fearless", weapons=(weapon("Hand Weapon", 3, 0),))
    swordsmen = unit("Swordsmen", 10, 4, 5, weapons=(weapon("Hand Weapon", 1, 0, count=10),), heroes=(lord,))
    r = run("000", reavers, swordsmen, attack="melee", charging=True)
    assert approx(r["p_destroyed"], _at_least(30, 13 / 36, 12))
    assert round(r["p_destroyed"], 6) == 0.393813
    assert r["notes"][-1].startswith("groups: Reavers: Reaver Axe, Swordsmen")  # one group, no "(Furious)" apart


@pytest.mark.parametrize("code", ["000", "001", "002"])
def test_hero_melee_attack_blocks_at_unit_defense_for_every_weapon(code):
    # 000/001/002 Hero and Melee: a Deadly weapon (resolved first) and a plain one are one
    # attack; when the first kills both Guards, the second still blocks at their 6+, not the
    # Champion's 2+. Exact: every hit wounds on 5/6, one roll of all 12 attacks.
    champion = unit("Champion", 1, 4, 2, "Hero", "Tough(3)")
    guards = unit("Guards", 2, 4, 6, heroes=(champion,))
    att = unit("Mixed", 1, 4, 5, weapons=(weapon("Pick", 6, 0, "Deadly(2)"), weapon("Sword", 6, 0)))
    r = run(code, att, guards, attack="melee", strike_back=False)
    assert approx(r["expected"]["hits"], 6.0)

    # a Pick wounds and b Sword wounds, each Binomial(6, 5/12): Pick wounds go first (Deadly),
    # killing a Guard each, then 2 apiece on the Champion; Sword wounds finish the Guards first.
    def pmf(k: int) -> float:
        return math.comb(6, k) * (5 / 12) ** k * (7 / 12) ** (6 - k)

    expected = sum(
        pmf(a) * pmf(b) for a in range(7) for b in range(7) if 2 * max(0, a - 2) + max(0, b - max(0, 2 - a)) >= 3
    )
    assert approx(r["p_destroyed"], expected)


def test_000_shooting_joined_hero_same_weapon_is_one_group():
    # 000 Multiple Weapon Types: a weapon type is one weapon group, so the Leader's Rifle
    # shoots with the squad's and all its hits block at the Guards' 6+ (Hero).
    leader = unit("Leader", 1, 4, 4, "Hero", "Tough(3)", weapons=(weapon("Rifle", 2, 24),))
    squad = unit("Squad", 4, 4, 4, weapons=(weapon("Rifle", 2, 24, count=4),), heroes=(leader,))
    champion = unit("Champion", 1, 4, 2, "Hero", "Tough(3)")
    guards = unit("Guards", 1, 4, 6, heroes=(champion,))
    r = run("000", squad, guards)
    # 10 shots at 4+, each hit wounds on 5/6 whatever fell first: destroyed on 4+ wounds
    assert approx(r["p_destroyed"], _at_least(10, 0.5 * 5 / 6, 4))


# -- Quality 2+ and single-model rules ------------------------------------------------------


def test_reliable_quality_2plus():
    assert approx(run("002", gun("Reliable", q=6), target(6))["expected"]["hits"], 10 * 5 / 6)


def test_sniper_one_model_as_a_unit_of_one():
    r = run("001", gun("Sniper", q=6, attacks=20), target(2, models=5, tough=3))
    assert approx(r["expected"]["hits"], 20 * 5 / 6)
    assert r["distributions"]["models_killed"]["at_least"].get("2", 0.0) == 0.0


def test_002_takedown_one_model():
    r = run("002", gun("Takedown", attacks=20), target(2, models=5, tough=3))
    assert r["distributions"]["models_killed"]["at_least"].get("2", 0.0) == 0.0


# -- situation.pick: the model Sniper/Takedown goes at -----------------------------------------


def escort(hero, models=5, defense=5, *labels, tough=None):
    """A unit of plain models with one joined hero."""
    extra = (f"Tough({tough})",) if tough else ()
    return unit(
        "Guards", models, 5, defense, *labels, *extra, weapons=(weapon("Spear", 1, 0, count=models),), heroes=(hero,)
    )


def test_001_sniper_picks_the_joined_hero():
    # 001 Sniper: Q2+, the picked model resolved as a unit of 1 -> the hero blocks with its own 3+
    # (not the unit's 5+): each shot wounds 5/6 x 2/6; Tough(3) dies to all three
    hero = unit("Captain", 1, 3, 3, "Hero", "Tough(3)")
    r = run("001", gun("Sniper", attacks=3, q=5), escort(hero), pick=Pick(hero=0))
    a = 5 / 6 * 2 / 6
    assert approx(r["expected"]["wounds"], 3 * a)
    assert approx(r["p_destroyed"], 0.0) and approx(r["expected"]["models_killed"], a**3)
    assert approx(r["consequences"]["pick"]["p_killed"], a**3)
    assert r["consequences"]["pick"]["name"] == "Captain" and r["consequences"]["pick"]["hero"] is True
    # without a pick the shots go at the next model in the wound order, a 5+ guard
    r = run("001", gun("Sniper", attacks=3, q=5), escort(hero))
    assert approx(r["expected"]["models_killed"], 1 - (1 - 5 / 6 * 4 / 6) ** 3) and "pick" not in r["consequences"]


def test_000_sniper_picks_a_hero_by_name():
    first = unit("Captain", 1, 3, 6, "Hero", "Tough(3)")
    second = unit("Bearer", 1, 4, 6, "Hero")
    guards = unit("Guards", 3, 5, 6, weapons=(weapon("Spear", 1, 0, count=3),), heroes=(first, second))
    r = run("000", gun("Sniper", attacks=1), guards, pick=Pick(hero="bearer"))
    assert approx(r["consequences"]["pick"]["p_killed"], 5 / 6 * 5 / 6)  # 000 Sniper: Q2+, the Bearer's own 6+
    assert r["consequences"]["pick"]["name"] == "Bearer" and r["consequences"]["pick"]["place"] == 4


def test_000_tough_sniped_hero_keeps_its_wounds_and_is_still_assigned_wounds_last():
    # 000 Sniper: one shot at a Tough(3) hero; 000 Tough: the other weapon's wounds go on the
    # plain model first, heroes last even when wounded. Every die wounds with a = 5/6 x 5/6.
    hero = unit("Captain", 1, 3, 6, "Hero", "Tough(3)")
    att = unit("Mixed", 1, 2, 5, weapons=(weapon("Long Rifle", 1, 24, "Sniper"), weapon("Gun", 4, 24)))
    r = run("000", att, escort(hero, models=1, defense=6), pick=Pick(hero=0))
    a = 25 / 36
    gun_at_least = {k: sum(math.comb(4, j) * a**j * (1 - a) ** (4 - j) for j in range(k, 5)) for k in range(5)}
    hero_dead = a * gun_at_least[3] + (1 - a) * gun_at_least[4]  # the guard soaks the first gun wound
    assert approx(r["consequences"]["pick"]["p_killed"], hero_dead)
    assert approx(r["p_destroyed"], hero_dead)
    assert approx(r["expected"]["models_killed"], gun_at_least[1] + hero_dead)


def test_001_tough_picked_model_becomes_the_most_wounded():
    # 001 Tough: wounds go on the tough model with most wounds. The next model has 1 wound; a
    # Deadly(2) sniper shot puts 2 on a fresh one, which then takes the gun's wound and dies.
    att = unit("Mixed", 1, 2, 5, weapons=(weapon("Long Rifle", 1, 24, "Sniper", "Deadly(2)"), weapon("Gun", 1, 24)))
    r = run("001", att, target(6, models=2, tough=3), defender={"wounds_taken": 1}, pick=Pick(model=1))
    a = 25 / 36
    assert approx(r["expected"]["models_killed"], a * a)
    assert approx(r["expected"]["wounds"], 2 * a + a)
    # without the pick the sniper fills the wounded model (1 + 2: dead), and the gun's wound
    # goes on the next one, or on the wounded model if the sniper missed
    r = run("001", att, target(6, models=2, tough=3), defender={"wounds_taken": 1})
    assert approx(r["expected"]["models_killed"], a)
    assert approx(r["expected"]["wounds"], 2 * a + a)


def test_002_takedown_blast_and_deadly_stop_at_the_picked_hero():
    # 002 Takedown: the picked hero as a unit of 1 - Blast(3) makes 1 hit, Deadly(3) stops at Tough(2)
    hero = unit("Captain", 1, 3, 6, "Hero", "Tough(2)")
    r = run("002", gun("Takedown", "Blast(3)", "Deadly(3)", attacks=2), escort(hero, models=3), pick=Pick(hero=0))
    dead = 1 - (1 - 0.5 * 5 / 6) ** 2
    assert approx(r["expected"]["hits"], 2 * 0.5)
    assert approx(r["expected"]["wounds"], 2 * dead) and approx(r["expected"]["models_killed"], dead)
    assert r["distributions"]["models_killed"]["at_least"].get("2", 0.0) == 0.0


def test_002_takedown_hero_rolls_its_own_regeneration():
    # 002 Regeneration needs all models of the unit; the picked hero alone is a unit of 1 that has it
    hero = unit("Shaman", 1, 3, 6, "Hero", "Regeneration")
    r = run("002", gun("Takedown", attacks=1), escort(hero), pick=Pick(hero=0))
    assert approx(r["consequences"]["pick"]["p_killed"], 0.5 * 5 / 6 * 2 / 3)


def test_002_takedown_next_model_rolls_its_own_regeneration():
    # the default pick is a unit of 1 too: a troll without its hero has Regeneration
    hero = unit("Chief", 1, 3, 6, "Hero")
    r = run("002", gun("Takedown", attacks=1), escort(hero, 5, 6, "Regeneration"))
    assert approx(r["expected"]["models_killed"], 0.5 * 5 / 6 * 2 / 3)


def test_001_sniped_hero_leaves_the_unit_at_half_strength():
    # Morale: the hero's death leaves 1 of 2 models -> test, on the guard's Quality 5+ (the
    # hero is gone); without the pick the guard dies and the hero tests on its 3+.
    hero = unit("Captain", 1, 3, 6, "Hero")
    r = run("001", gun("Sniper", attacks=1), escort(hero, models=1, defense=6), pick=Pick(hero=0))
    kill = 5 / 6 * 5 / 6
    assert approx(r["consequences"]["morale"]["p_test"], kill)
    assert approx(r["consequences"]["morale"]["p_shaken"], kill * 4 / 6)
    r = run("001", gun("Sniper", attacks=1), escort(hero, models=1, defense=6))
    assert approx(r["consequences"]["morale"]["p_shaken"], kill * 2 / 6)


def test_002_takedown_pick_in_melee_and_the_hero_no_longer_strikes_back():
    # 002 Takedown in melee: the picked hero dies (1 wound at 4+ vs 6+) and cannot strike back
    hero = unit("Captain", 1, 3, 6, "Hero", weapons=(weapon("Blade", 6, 0),))
    att = unit("Duelist", 1, 4, 6, "Tough(50)", weapons=(weapon("Rapier", 1, 0, "Takedown"),))
    r = run("002", att, escort(hero, models=1, defense=6), attack="melee", charging=True, pick=Pick(hero=0))
    kill = 0.5 * 5 / 6
    back = r["consequences"]["strike_back"]["expected"]["hits"]
    assert approx(back, (1 - kill) * 6 * 4 / 6 + 2 / 6)  # hero: 6 attacks at 3+; guard: 1 at 5+


def test_pick_without_sniper_or_takedown_is_a_note():
    hero = unit("Captain", 1, 3, 6, "Hero")
    r = run("001", gun(), escort(hero), pick=Pick(hero=0))
    assert any(n.startswith("pick: no Sniper weapon") for n in r["notes"]) and "pick" not in r["consequences"]


@pytest.mark.parametrize(
    "pick, field",
    [
        (Pick(hero=0), "situation.pick"),
        (Pick(hero=0, where="situation.pick.hero"), "situation.pick.hero"),
        (Pick(model=40, where="situation.pick.model"), "situation.pick.model"),
    ],
)
def test_pick_of_a_model_the_defender_lacks_is_refused(pick, field):
    with pytest.raises(PreviewError) as err:
        run("001", gun("Sniper"), target(5), pick=pick)
    assert err.value.field == field


def test_pick_of_a_lost_hero_or_unknown_name_is_refused():
    hero = unit("Captain", 1, 3, 6, "Hero")
    with pytest.raises(PreviewError) as err:
        run("001", gun("Sniper"), escort(hero), pick=Pick(hero="Banner", where="situation.pick.hero"))
    assert err.value.field == "situation.pick.hero" and "Captain" in err.value.message
    with pytest.raises(PreviewError) as err:
        run("001", gun("Sniper"), escort(hero), pick=Pick(hero=0), defender={"models_lost": 6})
    assert err.value.field == "situation.defender.models_lost"  # nobody left at all
    lost = unit(
        "Guards", 2, 5, 5, weapons=(weapon("Spear", 1, 0, count=2),), heroes=(hero, unit("Bearer", 1, 4, 6, "Hero"))
    )
    with pytest.raises(PreviewError) as err:
        run("000", gun("Sniper"), lost, pick=Pick(hero=0), defender={"models_lost": 3})
    assert err.value.field == "situation.pick" and "already lost" in err.value.message


# -- charge rules ---------------------------------------------------------------------------


def test_002_thrust_plus_one_to_hit_and_ap_when_charging():
    r = run("002", axe("Thrust"), target(4), attack="melee", charging=True, strike_back=False)
    assert approx(r["expected"]["wounds"], 10 * 4 / 6 * 2 / 3)


def test_001_lance_ap_plus_two_when_charging():
    r = run("001", axe("Lance"), target(4), attack="melee", charging=True, strike_back=False)
    assert approx(r["expected"]["wounds"], 5 * 5 / 6)
    r = run("001", axe("Lance"), target(4), attack="melee", charging=False, strike_back=False)
    assert approx(r["expected"]["wounds"], 5 * 0.5)


def test_000_impact_automatic_hits():
    r = run(
        "000",
        axe(attacks=0 + 1, models=5, unit_rules=("Impact(2)",)),
        target(6),
        attack="melee",
        charging=True,
        strike_back=False,
    )
    assert approx(r["expected"]["hits"], 10 + 5 * 0.5)


def test_001_impact_attacks_hit_on_2plus():
    r = run(
        "001",
        axe(attacks=1, models=5, unit_rules=("Impact(2)",)),
        target(6),
        attack="melee",
        charging=True,
        strike_back=False,
    )
    assert approx(r["expected"]["hits"], 10 * 5 / 6 + 5 * 0.5)


def test_002_impact_two_front_rows_and_not_when_fatigued():
    att = unit("Riders", 15, 4, 4, "Impact(1)", weapons=(weapon("Lance", 1, 0, count=15),))
    r = run("002", att, target(6), attack="melee", charging=True, strike_back=False)
    assert approx(r["expected"]["hits"], 10 * 5 / 6 + 10 * 0.5)  # 15 models, rows of 5: ten strike
    r = run("002", att, target(6), attack="melee", charging=True, strike_back=False, attacker={"fatigued": True})
    assert approx(r["expected"]["hits"], 10 * S)


def test_counter_reduces_impact():
    pikes = unit("Pikes", 3, 4, 6, weapons=(weapon("Pike", 1, 0, "Counter", count=3),))
    att = axe(attacks=1, models=5, unit_rules=("Impact(1)", "Tough(50)"))  # nobody dies to the pikes
    r = run("001", att, pikes, attack="melee", charging=True, strike_back=False)
    assert approx(r["distributions"]["hits"]["mean"], 2 * 5 / 6 + 5 * 0.5 * (1 - 0))  # 5 Impact - 3 Counter
    r2 = run("002", att, pikes, attack="melee", charging=True, strike_back=False, facing="flank")
    assert r2["expected"]["hits"] > r["expected"]["hits"]  # 002 Counter: only against a front charge


def test_counter_strikes_first_even_without_strike_back():
    pikes = unit("Pikes", 5, 4, 6, weapons=(weapon("Pike", 2, 0, "Counter", count=5),))
    r = run("001", axe(models=5, attacks=1), pikes, attack="melee", charging=True, strike_back=False)
    assert r["consequences"]["strike_back"]["expected"]["wounds"] > 0
    plain = unit("Plain", 5, 4, 6, weapons=(weapon("Spear", 2, 0, count=5),))
    r = run("001", axe(models=5, attacks=1), plain, attack="melee", charging=True, strike_back=False)
    assert r["consequences"]["strike_back"]["expected"]["wounds"] == 0


def test_000_phalanx_cancels_charge_bonuses():
    spears = unit("Spears", 40, 5, 6, "Phalanx", weapons=(weapon("Spear", 1, 0, count=40),))
    r = run(
        "000",
        axe(attacks=1, models=10, unit_rules=("Furious",)),
        spears,
        attack="melee",
        charging=True,
        strike_back=False,
    )
    assert r["expected"]["hits"] < 10  # no Furious attacks, and dangerous-terrain losses first


# -- shooting modifiers -----------------------------------------------------------------------


def test_indirect_minus_one_after_moving():
    assert approx(run("001", gun("Indirect"), target(6), hold=False)["expected"]["hits"], 10 / 3)


def test_000_stealth_always():
    assert approx(run("000", gun(), target(6, "Stealth"), range=6)["expected"]["hits"], 10 / 3)


def test_001_stealth_only_over_12():
    assert approx(run("001", gun(), target(6, "Stealth"), range=12)["expected"]["hits"], 5.0)
    assert approx(run("001", gun(), target(6, "Stealth"), range=13)["expected"]["hits"], 10 / 3)


def test_002_stealth_only_over_9():
    assert approx(run("002", gun(), target(6, "Stealth"), range=10)["expected"]["hits"], 10 / 3)


def test_002_unstoppable_ignores_negative_modifiers_and_regeneration():
    r = run("002", gun("Unstoppable"), target(4, "Stealth", "Regeneration"), range=12)
    assert approx(r["expected"]["hits"], 5.0) and approx(r["expected"]["wounds"], 2.5)


def test_000_artillery_defense_2plus_against_shooting():
    r = run("000", gun("AP(1)"), target(6, "Artillery"))
    assert approx(r["expected"]["wounds"], 5 * 2 / 6)


def test_002_artillery_range_modifiers():
    art = gun(unit_rules=("Artillery",))
    assert approx(run("002", art, target(6), range=12)["expected"]["hits"], 10 * 4 / 6)
    assert approx(run("002", gun(), target(6, "Artillery"), range=12)["expected"]["hits"], 10 * S)


def test_001_aircraft_range_and_to_hit():
    assert approx(run("001", gun(rng=30), target(6, "Aircraft"), range=18)["expected"]["hits"], 10 / 3)
    with pytest.raises(PreviewError):
        run("001", gun(rng=24), target(6, "Aircraft"), range=18)


def test_001_lock_on_ignores_negative_modifiers():
    assert approx(run("001", gun("Lock-On", rng=30), target(6, "Aircraft"), range=18)["expected"]["hits"], 5.0)


def test_001_entrenched():
    assert approx(run("001", gun(), target(6, "Entrenched"), range=18)["expected"]["hits"], 10 * S)
    assert approx(
        run("001", gun(), target(6, "Entrenched"), range=18, defender={"moved": True})["expected"]["hits"], 5.0
    )


# -- fatigue, Shaken/Wavering, morale ---------------------------------------------------------


def test_fatigue_only_unmodified_sixes():
    r = run("001", axe(q=2), target(6), attack="melee", attacker={"fatigued": True}, strike_back=False)
    assert approx(r["expected"]["hits"], 10 * S)


@pytest.mark.parametrize("code", ["000", "001", "002"])
def test_shaken_defender_strikes_back_fatigued(code):
    d = unit("D", 10, 2, 6, weapons=(weapon("Hand", 1, 0, count=10),))
    r = run(code, unit("A", 1, 4, 6, weapons=(weapon("Pin", 1, 0),)), d, attack="melee", defender={"shaken": True})
    # the attacker's single attack kills at most one model: nine or ten strike back, on 6s only
    assert r["consequences"]["strike_back"]["expected"]["hits"] == pytest.approx(
        S * (10 - r["expected"]["models_killed"])
    )


@pytest.mark.parametrize("code", ["000", "001", "002"])
def test_shaken_attacker_stays_idle(code):
    with pytest.raises(PreviewError) as err:
        run(code, gun(), target(5), attacker={"shaken": True})
    assert err.value.field == "situation.attacker.shaken"


def _morale_ratio(code, defender, lost=1):
    r = run(code, gun(attacks=1, q=2), defender, defender={"models_lost": lost})
    m = r["consequences"]["morale"]
    fail = next(v for k, v in m.items() if k in ("p_shaken", "p_wavering"))
    return m["p_test"], fail / m["p_test"]


def test_morale_test_at_half_strength_from_shooting():
    p_test, ratio = _morale_ratio("001", unit("Four", 4, 5, 6))
    assert approx(p_test, 5 / 6 * 5 / 6) and approx(ratio, 2 / 3)


def test_000_fearless_plus_one_to_morale():
    assert approx(_morale_ratio("000", unit("Four", 4, 5, 6, "Fearless"))[1], 0.5)


def test_001_fearless_failed_test_passes_on_4plus():
    assert approx(_morale_ratio("001", unit("Four", 4, 5, 6, "Fearless"))[1], 2 / 3 * 0.5)


def test_002_fearless_needs_all_models():
    hero = unit("Hero", 1, 5, 6, "Hero")
    assert approx(_morale_ratio("002", unit("Four", 4, 5, 6, "Fearless", heroes=(hero,)), lost=2)[1], 2 / 3)


def test_002_banner_plus_one_to_morale():
    assert approx(_morale_ratio("002", unit("Four", 4, 5, 6, "Banner"))[1], 0.5)


def test_hero_quality_for_morale():
    hero = unit("Hero", 1, 3, 6, "Hero")
    assert approx(_morale_ratio("000", unit("Four", 4, 5, 6, heroes=(hero,)), lost=2)[1], 2 / 6)


def test_000_fear_adds_d3_to_melee_result():
    p = Preview(DIALECT["000"], axe(unit_rules=("Fear",)), target(6), situation("melee"))
    assert p.morale.melee_bonus(p.fight.att, p.fight.line_a, 0) == Dist({1: 1 / 3, 2: 1 / 3, 3: 1 / 3})


def test_001_fear_x_adds_x():
    p = Preview(DIALECT["001"], axe(unit_rules=("Fear(2)",), models=5), target(6), situation("melee"))
    assert p.morale.melee_bonus(p.fight.att, p.fight.line_a, 0) == Dist.constant(2)


def test_002_fear_x_per_model_and_full_rows():
    p = Preview(DIALECT["002"], axe(unit_rules=("Fear(1)",), models=10), target(6), situation("melee"))
    assert p.morale.melee_bonus(p.fight.att, p.fight.line_a, 0) == Dist.constant(10 + 2)
    assert p.morale.melee_bonus(p.fight.att, p.fight.line_a, 3) == Dist.constant(7 + 1)


def test_000_musician_counts_one_wound():
    p = Preview(DIALECT["000"], axe(unit_rules=("Battle Standard",), models=5), target(6), situation("melee"))
    assert p.morale.melee_bonus(p.fight.att, p.fight.line_a, 0) == Dist.constant(1)


def test_002_flanking_minus_to_morale():
    p = Preview(DIALECT["002"], axe(), unit("Five", 5, 4, 6), situation("melee"))
    assert approx(
        p.morale.fail(p.fight.dfn, p.fight.line_d, 0, p.fight.sit.defender, flank="rear"), 1 - 1 / 6 * 1
    )  # 4+ at -2: only 6
    assert approx(p.morale.fail(p.fight.dfn, p.fight.line_d, 0, p.fight.sit.defender, flank="flank"), 0.5 + 1 / 6)


def test_000_sergeant_plus_one_to_hit():
    att = unit("Men", 10, 4, 5, "Sergeant", weapons=(weapon("Bow", 1, 24, count=10),))
    assert approx(run("000", att, target(6))["expected"]["hits"], 9 * 0.5 + 4 / 6)


def test_002_sergeant_sixes_add_a_hit():
    att = unit("Men", 10, 4, 5, "Sergeant", weapons=(weapon("Bow", 1, 24, count=10),))
    assert approx(run("002", att, target(6))["expected"]["hits"], 10 * 0.5 + S)


def test_melee_result_and_rout_at_half():
    d = unit("Five", 6, 6, 6, weapons=(weapon("Hand", 1, 0, count=6),))
    r = run("001", axe(q=2, attacks=6, models=1), d, attack="melee", charging=True)
    melee = r["consequences"]["melee"]
    assert approx(melee["p_attacker_wins"] + melee["p_defender_wins"] + melee["p_tie"], 1.0)
    assert r["consequences"]["morale"]["defender"]["p_rout"] > 0.3


# -- refusals ---------------------------------------------------------------------------------


def test_melee_without_melee_weapon_is_refused():
    with pytest.raises(PreviewError) as err:
        run("000", gun(), target(5), attack="melee")
    assert err.value.field == "attacker"


def test_range_beyond_weapon_is_refused():
    with pytest.raises(PreviewError) as err:
        run("000", gun(rng=12), target(5), range=18)
    assert err.value.field == "situation.range"


def test_models_lost_beyond_unit_is_refused():
    with pytest.raises(PreviewError):
        run("000", gun(), target(5, models=3), defender={"models_lost": 3})
