"""armour-hex combat previews (rulebook 004): hand-computed exact values, one test per clause,
and agreement with the independent Monte Carlo simulator in ``montecarlo_hex.py``."""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import pytest

from listbuilder.combat.armour_hex import engine, hit_chance
from listbuilder.combat.armour_hex_damage import armour_outcome
from listbuilder.combat.combatant import Combatant
from listbuilder.combat.service import PreviewError
from listbuilder.dice import open_ended_at_least, open_ended_d6
from listbuilder.model import RuleRef, Unit, Weapon
from tests.combat.montecarlo_hex import armour_assault_trial, armour_fire_trial, run

TANK_TABLE = [
    {"at": 4, "effects": ("Future Damage(1)",)},
    {"at": 7, "effects": ("Shaken", "Future Damage(1)")},
    {"at": 9, "effects": ("Destroyed",)},
]
INFANTRY_TABLE = [{"at": 3, "effects": ("Shaken",)}, {"at": 5, "effects": ("Kill(1)",)}]


def unit(
    *,
    models: int = 1,
    armour: tuple[int, int, int, int] | None = None,
    table: list[dict[str, Any]] | None = None,
    weapons: tuple[Weapon, ...] = (),
    rules: tuple[str, ...] = (),
    size_class: str = "medium",
    assault: dict[str, Any] | None = None,
    deflection: dict[str, Any] | None = None,
    psychic: list[dict[str, Any]] | None = None,
) -> Combatant:
    tables = {"regular": tuple(table or INFANTRY_TABLE)}
    if psychic:
        tables["psychic"] = tuple(psychic)
    stats = {
        "unit_type": "vehicle",
        "size_class": size_class,
        "armour": armour,
        "assault": assault,
        "deflection": deflection,
        "damage_tables": tables,
    }
    refs = tuple(RuleRef.parse(r) for r in rules)
    u = Unit(id="u", name="Unit", size=models, cost=None, stats=stats, rules=refs, weapons=weapons)  # type: ignore[arg-type]
    return Combatant("Unit", u, models, weapons, (), refs)


def gun(
    range_: int = 4,
    ap: int = 0,
    damage: str = "d6",
    burst: int | None = None,
    rules: tuple[str, ...] = (),
    count: int = 1,
    damage_type: str = "regular",
) -> Weapon:
    extra = {
        "ap": ap,
        "damage": damage,
        "damage_type": damage_type,
        "burst": burst,
        "angles": (True, False, False, False),
    }
    return Weapon("Gun", 1, range_, tuple(RuleRef.parse(r) for r in rules), count, extra)


def shoot(att: Combatant, dfn: Combatant, **situation: Any) -> dict[str, Any]:
    return engine(None, att, dfn, {"attack": "shooting", "range": 2, **situation})  # type: ignore[arg-type]


def close(a: float, b: F | float) -> bool:
    return abs(a - float(b)) < 1e-12


def row(result: dict[str, Any], at: int) -> dict[str, Any]:
    return next(r for r in result["consequences"]["damage_table"] if r["at"] == at)


# -- 004 Fire ---------------------------------------------------------------------------------------


def test_fire_open_ended_d6() -> None:
    assert close(open_ended_at_least(6), F(1, 6))
    assert close(open_ended_at_least(7), F(1, 6) * F(1, 3))
    assert close(open_ended_at_least(8), F(1, 6) * F(1, 9))
    assert abs(open_ended_d6().total - 1) < 1e-12 and close(open_ended_d6().p(7), F(1, 6) * F(1, 3) * F(2, 3))


def test_fire_basic_to_hit_5_plus() -> None:
    assert close(hit_chance(0), F(1, 3))
    assert close(hit_chance(-2), F(1, 18))  # needs 7: a 6, then a 5 or 6
    assert hit_chance(4) == 1.0
    result = shoot(unit(weapons=(gun(),)), unit())
    assert close(result["consequences"]["to_hit"]["p_hit"], F(1, 3))


def test_fire_modifier_table_speeds_terrain_aim_range_angle_size_abilities() -> None:
    shooter = unit(weapons=(gun(rules=("Enhanced Accuracy",)),), rules=("Good Shot", "Bad at Long Range"))
    target = unit(size_class="huge", rules=("Camouflage(forest)", "Take Cover(fast, -1)"))
    result = shoot(
        shooter,
        target,
        range=6,
        attacker_speed="still",
        defender_speed="fast",
        defender_terrain="forest",
        aim=True,
        on_edge=True,
    )
    mods = result["consequences"]["to_hit"]["modifiers"]
    assert mods == {
        "attacker speed": 1,
        "target speed": -1,
        "target terrain": -1,
        "aim": 2,
        "range": -2,
        "on edge of firing angle": -1,
        "target size": 1,
        "Good Shot": 1,
        "Bad at Long Range": -2,
        "Camouflage": -1,
        "Take Cover": -1,
        "Enhanced Accuracy": 1,
    }
    assert result["consequences"]["to_hit"]["needed"] == 8
    assert close(result["consequences"]["to_hit"]["p_hit"], F(1, 6) * F(1, 9))


def test_fire_range_bands_and_beyond_long_range_is_refused() -> None:
    shooter = unit(weapons=(gun(range_=3),))
    assert shoot(shooter, unit(), range=1)["consequences"]["to_hit"]["modifiers"] == {"range": 1}
    assert shoot(shooter, unit(), range=6)["consequences"]["to_hit"]["range_band"] == "long"
    with pytest.raises(PreviewError) as err:
        shoot(shooter, unit(), range=7)
    assert err.value.field == "situation.range"
    with pytest.raises(PreviewError):
        shoot(unit(), unit())  # no ranged weapon
    with pytest.raises(PreviewError):
        shoot(shooter, unit(), attacker_facing="back")  # the gun fires only to the front


# -- 004 Armor ------------------------------------------------------------------------------------


def test_armor_two_successes_block_one_gives_minus_three() -> None:
    split = armour_outcome(4, 2)  # two dice at 5+
    assert close(split["blocked"], F(1, 9)) and close(split["partial"], F(4, 9)) and close(split["penetrated"], F(4, 9))
    assert armour_outcome(None, 0)["penetrated"] == 1.0
    assert armour_outcome(2, 5)["penetrated"] == 1.0  # AP beyond armour: no dice
    # d6 against "at 4": penetrated 1/2, partial (-3) never reaches 4 -> 4/9 x 1/2 per hit
    result = shoot(
        unit(weapons=(gun(ap=2),)),
        unit(armour=(4, 3, 3, 2), table=[{"at": 4, "effects": ("Kill(1)",)}]),
        aim=True,
        attacker_speed="still",
    )
    assert close(row(result, 4)["p_per_hit"], F(4, 9) * F(1, 2))


def test_armor_facing_chooses_the_armour_value() -> None:
    target = unit(armour=(4, 3, 3, 2))
    assert shoot(unit(weapons=(gun(),)), target, facing="back")["consequences"]["armour"]["dice"] == 2
    assert shoot(unit(weapons=(gun(),)), target)["consequences"]["armour"]["dice"] == 4


def test_damage_range_long_halves_ap_and_point_blank_adds_one() -> None:
    weapon = gun(range_=3, ap=3)
    target = unit(armour=(4, 4, 4, 4))
    assert shoot(unit(weapons=(weapon,)), target, range=5)["consequences"]["armour"]["ap"] == 1
    assert shoot(unit(weapons=(weapon,)), target, range=1)["consequences"]["armour"]["ap"] == 4


# -- 004 Damage -----------------------------------------------------------------------------------


def test_damage_table_read_with_future_damage_tokens_and_range() -> None:
    result = shoot(unit(weapons=(gun(),)), unit(table=TANK_TABLE))
    assert close(row(result, 4)["p_per_hit"], F(1, 2))  # d6 of 4-6
    tokens = shoot(unit(weapons=(gun(),)), unit(table=TANK_TABLE), future_damage=2)
    assert close(row(tokens, 4)["p_per_hit"], F(3, 6)) and close(row(tokens, 7)["p_per_hit"], F(2, 6))  # d6+2
    assert close(row(tokens, 9)["p_per_hit"], 0)
    point_blank = shoot(unit(weapons=(gun(),)), unit(table=TANK_TABLE), range=1, future_damage=2)
    assert close(row(point_blank, 9)["p_per_hit"], F(1, 6))  # 6 + 2 + 1
    assert close(point_blank["p_destroyed"], F(1, 2) * F(1, 6))  # hits on 4+ at point blank


def test_damage_resistance_lowers_the_roll_of_its_type() -> None:
    plain = shoot(unit(weapons=(gun(),)), unit(table=TANK_TABLE, rules=("Resistance(regular, 2)",)))
    assert close(row(plain, 4)["p_per_hit"], F(1, 6))
    psychic = shoot(unit(weapons=(gun(),)), unit(table=TANK_TABLE, rules=("Resistance(psychic, 2)",)))
    assert close(row(psychic, 4)["p_per_hit"], F(1, 2))


def test_special_damage_without_its_table_does_nothing() -> None:
    result = shoot(unit(weapons=(gun(damage_type="psychic"),)), unit(table=TANK_TABLE))
    assert result["consequences"]["p_no_damage_per_hit"] == 1.0
    hurt = shoot(unit(weapons=(gun(damage_type="psychic"),)), unit(psychic=[{"at": 4, "effects": ("Shaken",)}]))
    assert close(row(hurt, 4)["p_per_hit"], F(1, 2))


def test_armour_breaker_adds_three_when_fully_through() -> None:
    result = shoot(unit(weapons=(gun(rules=("Armour Breaker",)),)), unit(table=TANK_TABLE))
    # no armour counts as fully penetrated: d6+3, so 9+ on a 6 and 7-8 on a 4 or 5
    assert close(row(result, 9)["p_per_hit"], F(1, 6)) and close(row(result, 7)["p_per_hit"], F(2, 6))
    armoured = shoot(unit(weapons=(gun(rules=("Armour Breaker",)),)), unit(armour=(1, 1, 1, 1), table=TANK_TABLE))
    # one armour die: 2/3 penetrated (+3), 1/3 partial (-3, never reaches 4)
    assert close(row(armoured, 9)["p_per_hit"], F(2, 3) * F(1, 6))


def test_burst_fires_n_times_per_model() -> None:
    result = shoot(unit(models=2, weapons=(gun(burst=3, count=2),)), unit(models=4))
    assert result["consequences"]["shots"] == 6
    assert close(result["expected"]["hits"], 6 * F(1, 3))
    killed = {int(k): v for k, v in result["distributions"]["models_killed"]["pmf"].items()}
    assert close(killed[0], (1 - F(1, 3) * F(1, 3)) ** 6)
    assert close(
        result["p_destroyed"],
        sum(__import__("math").comb(6, k) * F(1, 9) ** k * F(8, 9) ** (6 - k) for k in range(4, 7)),
    )


# -- 004 Assault ----------------------------------------------------------------------------------


def test_assault_deflection_removes_successes_and_the_larger_gains_advantage() -> None:
    att = unit(
        assault={"dice": (1, 1, 1, 1), "hit": 4, "ap": 0, "damage": "d6"}, deflection={"dice": (1, 0, 0, 0), "hit": 4}
    )
    dfn = unit(assault={"dice": (1, 1, 1, 1), "hit": 4, "ap": 0, "damage": "d6"})
    result = engine(None, att, dfn, {"attack": "assault"})  # type: ignore[arg-type]
    # attacker: 1 die at 4+, no enemy deflection; defender: 1 die at 4+ minus 1 deflection at 4+
    assert close(result["expected"]["attacker_successes"], F(1, 2))
    assert close(result["expected"]["defender_successes"], F(1, 4))
    advantage = result["consequences"]["advantage"]
    assert close(advantage["p_attacker"], F(1, 2) * F(3, 4)) and close(advantage["p_defender"], F(1, 2) * F(1, 4))
    assert close(advantage["p_tie"], F(1, 2) * F(3, 4) + F(1, 2) * F(1, 4))  # 0-0 or 1-1
    assert close(result["p_destroyed"], F(1, 2) * F(1, 3))  # kill on 5+ on a d6
    tie = engine(None, att, dfn, {"attack": "assault", "tie_winner": "defender"})  # type: ignore[arg-type]
    assert close(tie["consequences"]["advantage"]["p_defender"], F(1, 8) + F(1, 2))


def test_assault_extra_successes_support_the_damage_rolls() -> None:
    # 2 sure successes against a one-model unit: one damaging roll with +1 support
    att = unit(assault={"dice": (2, 2, 2, 2), "hit": 1, "ap": 0, "damage": "d6"})
    result = engine(None, att, unit(), {"attack": "assault"})  # type: ignore[arg-type]
    assert close(result["p_destroyed"], F(3, 6))  # d6 + 1 >= 5


def test_assault_uses_the_facing_dice_and_refuses_an_empty_pool() -> None:
    att = unit(assault={"dice": (3, 1, 1, 0), "hit": 5, "ap": 0, "damage": "d6"})
    assert engine(None, att, unit(), {"attack": "assault"})["consequences"]["pools"]["attacker"]["dice"] == 3  # type: ignore[arg-type]
    with pytest.raises(PreviewError):
        engine(None, att, unit(), {"attack": "assault", "attacker_facing": "back"})  # type: ignore[arg-type]


def test_stubborn_loser_stays_and_the_winner_falls_back() -> None:
    att = unit(assault={"dice": (2, 2, 2, 2), "hit": 1, "ap": 0, "damage": "1"})
    result = engine(None, att, unit(rules=("Stubborn",)), {"attack": "assault"})  # type: ignore[arg-type]
    assert result["consequences"]["retreat"]["p_defender_retreats"] == 0.0
    assert result["consequences"]["retreat"]["p_attacker_retreats"] == 1.0


# -- Monte Carlo battery ----------------------------------------------------------------------------

FIRE_BATTERY: list[tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]] = [
    ("plain", {"weapon": {}}, {"table": TANK_TABLE}, {}),
    (
        "armour-aim",
        {"weapon": {"ap": 1, "damage": "d6+1"}},
        {"armour": (4, 3, 3, 2), "table": TANK_TABLE},
        {"aim": True},
    ),
    (
        "burst-infantry",
        {"models": 2, "weapon": {"burst": 2, "count": 2, "damage": "d6"}},
        {"models": 4, "table": INFANTRY_TABLE},
        {"defender_speed": "still"},
    ),
    (
        "long-range-tokens",
        {"weapon": {"range_": 3, "ap": 3, "damage": "2d6"}},
        {"armour": (3, 3, 3, 3), "table": TANK_TABLE},
        {"range": 5, "future_damage": 2},
    ),
    (
        "point-blank-breaker",
        {"weapon": {"ap": 1, "damage": "d6", "rules": ("Armour Breaker",)}},
        {"armour": (2, 2, 2, 2), "table": TANK_TABLE},
        {"range": 1},
    ),
    (
        "needs-seven",
        {"weapon": {"damage": "d8"}},
        {"table": TANK_TABLE, "size_class": "tiny"},
        {"defender_terrain": "forest"},
    ),
    (
        "resisted",
        {"weapon": {"damage": "d6+2"}},
        {"table": TANK_TABLE, "rules": ("Resistance(regular, 1)",)},
        {"aim": True},
    ),
]


@pytest.mark.parametrize("name, att, dfn, situation", FIRE_BATTERY, ids=[b[0] for b in FIRE_BATTERY])
def test_monte_carlo_agrees_on_fire(
    name: str, att: dict[str, Any], dfn: dict[str, Any], situation: dict[str, Any]
) -> None:
    weapon = gun(**att["weapon"])
    shooter = unit(models=att.get("models", 1), weapons=(weapon,))
    target = unit(
        models=dfn.get("models", 1),
        armour=dfn.get("armour"),
        table=dfn["table"],
        rules=dfn.get("rules", ()),
        size_class=dfn.get("size_class", "medium"),
    )
    exact = shoot(shooter, target, **situation)
    con = exact["consequences"]
    # The simulator gets the summed to-hit modifier (checked by hand above) and the range-adjusted AP
    # and damage bonus; it throws every die itself.
    band = con["to_hit"]["range_band"]
    flat = (
        {"long": -1, "point_blank": 1}.get(band, 0) + situation.get("future_damage", 0) - (1 if dfn.get("rules") else 0)
    )
    case = {
        "shots": con["shots"],
        "to_hit_modifier": 5 - con["to_hit"]["needed"],
        "armour": (dfn.get("armour") or (None,))[0],
        "ap": con["armour"]["ap"],
        "damage": weapon.extra["damage"],
        "flat": flat,
        "breaker": "Armour Breaker" in att["weapon"].get("rules", ()),
        "table": dfn["table"],
        "alive": dfn.get("models", 1),
    }
    sampled = run(armour_fire_trial, 20000, 7, case)
    for key in ("hits", "models_killed", "future_damage"):
        assert abs(exact["expected"][key] - sampled[key]) < 0.04, (key, exact["expected"][key], sampled[key])
    assert abs(exact["p_destroyed"] - sampled["destroyed"]) < 0.015
    assert abs(con["p_shaken"] - sampled["shaken"]) < 0.015


ASSAULT_BATTERY: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    (
        "tank-vs-infantry",
        {
            "models": 1,
            "armour": (4, 3, 3, 2),
            "table": TANK_TABLE,
            "assault": {"dice": (4, 3, 3, 2), "hit": 5, "ap": 3, "damage": "d6-1"},
            "deflection": {"dice": (2, 0, 0, 0), "hit": 5},
        },
        {
            "models": 4,
            "armour": None,
            "table": INFANTRY_TABLE,
            "assault": {"dice": (2, 2, 2, 2), "hit": 5, "ap": 0, "damage": "d6"},
            "deflection": {"dice": (1, 1, 1, 1), "hit": 6},
        },
    ),
    (
        "support-heavy",
        {
            "models": 4,
            "armour": None,
            "table": INFANTRY_TABLE,
            "assault": {"dice": (3, 3, 3, 3), "hit": 4, "ap": 1, "damage": "d6"},
            "deflection": None,
        },
        {
            "models": 1,
            "armour": (2, 2, 2, 2),
            "table": TANK_TABLE,
            "assault": {"dice": (2, 2, 2, 2), "hit": 5, "ap": 2, "damage": "d6"},
            "deflection": {"dice": (2, 2, 2, 2), "hit": 5},
        },
    ),
]


@pytest.mark.parametrize("name, att, dfn", ASSAULT_BATTERY, ids=[b[0] for b in ASSAULT_BATTERY])
def test_monte_carlo_agrees_on_assault(name: str, att: dict[str, Any], dfn: dict[str, Any]) -> None:
    def build(spec: dict[str, Any]) -> Combatant:
        return unit(
            models=spec["models"],
            armour=spec["armour"],
            table=spec["table"],
            assault=spec["assault"],
            deflection=spec["deflection"],
        )

    exact = engine(None, build(att), build(dfn), {"attack": "assault"})  # type: ignore[arg-type]

    def side(spec: dict[str, Any]) -> dict[str, Any]:
        a, d = spec["assault"], spec["deflection"] or {"dice": (0, 0, 0, 0), "hit": 7}
        return {
            "dice": a["dice"][0] * spec["models"],
            "hit": a["hit"],
            "deflect": d["dice"][0] * spec["models"],
            "deflect_hit": d["hit"],
            "ap": a["ap"],
            "damage": a["damage"],
            "alive": spec["models"],
            "armour": spec["armour"][0] if spec["armour"] else None,
            "table": spec["table"],
        }

    sampled = run(armour_assault_trial, 20000, 11, {"attacker": side(att), "defender": side(dfn)})
    for key in ("attacker_successes", "defender_successes", "models_killed", "attacker_models_killed"):
        assert abs(exact["expected"][key] - sampled[key]) < 0.04, (key, exact["expected"][key], sampled[key])
    assert abs(exact["consequences"]["advantage"]["p_attacker"] - sampled["attacker_advantage"]) < 0.015
    assert abs(exact["consequences"]["advantage"]["p_defender"] - sampled["defender_advantage"]) < 0.015
