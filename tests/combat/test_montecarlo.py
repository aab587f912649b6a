"""The exact engine against an independent seeded Monte Carlo, on a battery covering every rule.

Tolerance: 5 standard errors of the simulated mean (plus a hair for float noise), so a
correct engine fails this by chance about once in a few million comparisons.
"""

from __future__ import annotations

import zlib

import pytest

from listbuilder.combat.opr import Pick, preview_fighters
from tests.combat.helpers import DIALECT, situation, unit, weapon
from tests.combat.montecarlo import Sim

TRIALS = 6000

INF10 = unit("Infantry", 10, 4, 4, weapons=(weapon("Hand", 1, 0, count=10),))
TOUGH = unit("Brutes", 5, 4, 4, "Tough(3)", weapons=(weapon("Claws", 2, 0, "AP(1)", count=5),))
REGEN = unit("Trolls", 3, 4, 4, "Tough(3)", "Regeneration", weapons=(weapon("Club", 2, 0, count=3),))
HERO = unit("Captain", 1, 3, 3, "Hero", "Tough(3)", "Fearless", weapons=(weapon("Blade", 3, 0, "AP(1)"),))
ESCORT = unit("Guards", 5, 4, 5, "Regeneration", weapons=(weapon("Spear", 1, 0, count=5),), heroes=(HERO,))
BEARER = unit("Bearer", 1, 4, 4, "Hero", "Tough(2)", "Regeneration", weapons=(weapon("Staff", 1, 0),))
RETINUE = unit("Retinue", 4, 4, 5, "Tough(2)", weapons=(weapon("Halberd", 1, 0, count=4),), heroes=(HERO, BEARER))
# The issue-26 charge: 10 Furious Reavers into Swordsmen (5+) led by a Marchlord (4+)
REAVERS = unit("Reavers", 10, 4, 5, "Furious", weapons=(weapon("Reaver Axe", 2, 0, "Rending", "Deadly(2)", count=10),))
MARCHLORD = unit("Marchlord", 1, 3, 4, "Hero", "Tough(3)", "Fearless", weapons=(weapon("Hand Weapon", 3, 0),))
SNIPERS = unit(
    "Mix", 5, 4, 4, weapons=(weapon("Long Rifle", 2, 30, "Sniper", count=2), weapon("Rifle", 2, 24, "AP(1)", count=5))
)


def shooters(
    *labels: str, attacks: int = 1, count: int = 10, rng: int = 24, q: int = 4, unit_rules: tuple[str, ...] = ()
) -> object:
    return unit("Shooters", count, q, 5, *unit_rules, weapons=(weapon("Gun", attacks, rng, *labels, count=count),))


def brawlers(*labels: str, unit_rules: tuple[str, ...] = (), models: int = 10, attacks: int = 1) -> object:
    return unit("Brawlers", models, 4, 4, *unit_rules, weapons=(weapon("Axe", attacks, 0, *labels, count=models),))


CASES = [
    # (id, system, attacker, defender, situation kwargs)
    ("basic-ap", "000", shooters("AP(1)"), INF10, {}),
    ("000-cover-stealth", "000", shooters(), unit("Elves", 10, 4, 5, "Stealth"), {"cover": True}),
    ("001-cover-defense", "001", shooters(), INF10, {"cover": True}),
    ("001-stealth-over12", "001", shooters(), unit("Ghosts", 10, 4, 5, "Stealth"), {"range": 18}),
    ("002-stealth-over9", "002", shooters(), unit("Ghosts", 10, 4, 5, "Stealth"), {"range": 12}),
    ("blast", "001", shooters("Blast(3)", count=2), unit("Five", 5, 4, 5), {}),
    (
        "blast-then-blast",
        "002",
        unit(
            "Mix",
            2,
            4,
            4,
            weapons=(weapon("Mortar", 1, 24, "Blast(3)", count=2), weapon("Cannon", 1, 24, "Blast(6)", count=1)),
        ),
        unit("Four", 4, 4, 6),
        {},
    ),
    ("deadly-tough", "001", shooters("Deadly(3)", attacks=2), unit("Ogres", 10, 4, 4, "Tough(3)", "Regeneration"), {}),
    ("000-rending-regen", "000", shooters("Rending"), REGEN, {}),
    ("001-rending-regen", "001", shooters("Rending"), REGEN, {}),
    ("002-rending-regen", "002", shooters("Rending"), REGEN, {}),
    ("000-poison", "000", shooters("Poison"), INF10, {}),
    ("001-poison", "001", shooters("Poison"), REGEN, {}),
    ("002-bane", "002", shooters("Bane"), REGEN, {}),
    (
        "002-unstoppable",
        "002",
        shooters("Unstoppable"),
        unit("Ghosts", 10, 4, 4, "Stealth", "Regeneration"),
        {"range": 12},
    ),
    ("reliable", "001", shooters("Reliable", q=5), INF10, {}),
    ("sniper", "001", shooters("Sniper", count=3, q=5), TOUGH, {}),
    ("000-sniper", "000", shooters("Sniper", "AP(2)", count=2), TOUGH, {}),
    ("takedown", "002", shooters("Takedown", "Deadly(2)", count=3), TOUGH, {}),
    ("001-relentless", "001", shooters(unit_rules=("Relentless",)), INF10, {"hold": True}),
    ("002-relentless", "002", shooters(unit_rules=("Relentless",)), INF10, {"range": 12}),
    ("surge", "002", shooters("Surge"), INF10, {}),
    ("indirect-moved", "001", shooters("Indirect"), INF10, {"hold": False}),
    ("000-artillery-defense", "000", shooters("AP(1)"), unit("Cannon", 1, 4, 5, "Artillery", "Tough(3)"), {}),
    (
        "002-artillery",
        "002",
        unit("Guns", 2, 4, 5, "Artillery", weapons=(weapon("Cannon", 2, 30, "AP(2)", count=2),)),
        unit("Cannon", 2, 4, 5, "Artillery", "Tough(3)"),
        {"range": 20},
    ),
    (
        "001-aircraft-entrenched",
        "001",
        shooters(rng=30),
        unit("Bunker", 3, 4, 4, "Entrenched", "Tough(3)"),
        {"range": 18},
    ),
    (
        "001-lock-on",
        "001",
        shooters("Lock-On", rng=30),
        unit("Jet", 1, 4, 4, "Aircraft", "Tough(6)"),
        {"range": 18, "cover": True},
    ),
    ("hero-last-unit-defense", "001", shooters("AP(1)", attacks=2), ESCORT, {}),
    ("002-regen-all-models", "002", shooters(attacks=2), ESCORT, {}),
    (
        "wounded-start-morale",
        "000",
        shooters(attacks=2),
        unit("Fearless", 10, 5, 5, "Fearless"),
        {"defender": {"models_lost": 3}},
    ),
    ("shaken-autofail", "001", shooters(), unit("Shaky", 6, 4, 5), {"defender": {"shaken": True, "models_lost": 2}}),
    ("fearless-reroll", "001", shooters(attacks=2), unit("Stoic", 8, 5, 5, "Fearless"), {}),
    (
        "single-model-half",
        "002",
        shooters("AP(2)", attacks=2),
        unit("Giant", 1, 4, 4, "Tough(6)"),
        {"defender": {"wounds_taken": 1}},
    ),
    (
        "000-mixed-regen-rending-blast",
        "000",
        unit(
            "Mix",
            5,
            4,
            4,
            weapons=(weapon("Rifle", 2, 24, "Rending", count=5), weapon("Mortar", 1, 24, "Blast(3)", count=2)),
        ),
        unit("Trolls", 4, 4, 4, "Tough(2)", "Regeneration", heroes=(HERO,)),
        {},
    ),
    (
        "001-mixed-regen-blast-sniper",
        "001",
        unit(
            "Mix",
            5,
            4,
            4,
            weapons=(weapon("Long Rifle", 1, 30, "Sniper", count=2), weapon("Mortar", 1, 24, "Blast(3)", count=3)),
        ),
        unit("Trolls", 4, 4, 4, "Tough(2)", "Regeneration", heroes=(HERO,)),
        {},
    ),
    # situation.pick: Sniper/Takedown at a chosen model, then the other groups on the rest
    ("001-sniper-joined-hero", "001", SNIPERS, ESCORT, {"pick": Pick(hero=0)}),
    ("000-sniper-second-hero-by-name", "000", SNIPERS, RETINUE, {"pick": Pick(hero="bearer")}),
    (
        "002-takedown-deadly-hero",
        "002",
        unit(
            "Hunters",
            3,
            4,
            4,
            weapons=(weapon("Harpoon", 2, 24, "Takedown", "Deadly(2)", count=3), weapon("Bow", 1, 24, count=3)),
        ),
        unit("Trolls", 4, 4, 4, "Tough(2)", "Regeneration", heroes=(HERO,)),
        {"pick": Pick(hero=0)},
    ),
    (
        "002-takedown-next-model-own-regen",
        "002",
        shooters("Takedown", "AP(1)", count=4),
        unit("Trolls", 4, 4, 4, "Tough(2)", "Regeneration", heroes=(HERO,)),
        {},
    ),
    ("001-sniper-wounded-tough", "001", SNIPERS, TOUGH, {"defender": {"models_lost": 1, "wounds_taken": 2}}),
    (
        "000-sniper-fresh-beside-wounded",
        "000",
        SNIPERS,
        TOUGH,
        {"defender": {"wounds_taken": 1}, "pick": Pick(model=3)},
    ),
    (
        "001-two-sniper-groups-hero-then-next",
        "001",
        unit(
            "Team",
            2,
            4,
            4,
            weapons=(
                weapon("Long Rifle", 3, 30, "Sniper", "AP(2)"),
                weapon("Marksman Rifle", 3, 30, "Sniper", "AP(2)"),
                weapon("Rifle", 2, 24, count=2),
            ),
        ),
        unit("Pair", 2, 4, 4, "Tough(2)", heroes=(HERO,)),
        {"pick": Pick(hero=0)},
    ),
    (
        "melee-002-takedown-hero",
        "002",
        unit(
            "Duelists",
            5,
            4,
            4,
            weapons=(weapon("Rapier", 2, 0, "Takedown", "Deadly(2)", count=2), weapon("Sword", 1, 0, count=5)),
        ),
        ESCORT,
        {"charging": True, "pick": Pick(hero=0)},
    ),
    # melee
    ("melee-basic", "000", brawlers(), INF10, {"charging": True}),
    (
        "000-furious-impact-fear",
        "000",
        brawlers("AP(1)", unit_rules=("Furious", "Impact(1)", "Fear")),
        TOUGH,
        {"charging": True},
    ),
    (
        "001-furious-impact-lance",
        "001",
        brawlers("Lance", unit_rules=("Furious", "Impact(2)")),
        TOUGH,
        {"charging": True},
    ),
    (
        "002-thrust-impact-rows",
        "002",
        brawlers("Thrust", unit_rules=("Impact(1)", "Fear(1)")),
        brawlers(models=10),
        {"charging": True},
    ),
    (
        "001-counter",
        "001",
        brawlers(unit_rules=("Impact(1)",), models=5),
        unit("Pikes", 10, 4, 4, weapons=(weapon("Pike", 1, 0, "Counter", count=10),)),
        {"charging": True},
    ),
    (
        "002-counter-flank",
        "002",
        brawlers(unit_rules=("Impact(1)",), models=5),
        unit("Pikes", 10, 4, 5, "Banner", weapons=(weapon("Pike", 1, 0, "Counter", count=10),)),
        {"charging": True, "facing": "flank"},
    ),
    (
        "000-phalanx",
        "000",
        brawlers(unit_rules=("Furious",)),
        unit("Spears", 10, 5, 5, "Phalanx", weapons=(weapon("Spear", 1, 0, count=10),)),
        {"charging": True},
    ),
    ("fatigue-both", "001", brawlers(), INF10, {"attacker": {"fatigued": True}, "defender": {"fatigued": True}}),
    ("000-wavering-defender", "000", brawlers(attacks=2), INF10, {"charging": True, "defender": {"shaken": True}}),
    ("000-sergeant-musician", "000", brawlers(unit_rules=("Sergeant", "Musician")), INF10, {"charging": True}),
    ("002-sergeant-banner", "002", brawlers(unit_rules=("Sergeant", "Banner")), brawlers(models=5), {"charging": True}),
    ("melee-hero-joined", "001", brawlers("AP(2)", attacks=2), ESCORT, {"charging": True}),
    ("melee-deadly-regen", "000", brawlers("Deadly(2)", attacks=2, models=5), REGEN, {"charging": True}),
    ("melee-no-strike-back", "002", brawlers(), INF10, {"charging": True, "strike_back": False}),
    # One pass of the attack sequence blocks at one Defense (000/001/002 Hero: the unit's until
    # its non-hero models are killed), though its attacks come from several weapons or rules:
    # each case gives the joined hero a Defense better or worse than the unit's and enough
    # attacks that the early ones often kill every non-hero model.
    (
        "melee-000-furious-reavers-hero-better",
        "000",
        REAVERS,
        unit("Swordsmen", 10, 4, 5, weapons=(weapon("Hand Weapon", 1, 0, count=10),), heroes=(MARCHLORD,)),
        {"charging": True},
    ),
    (
        "melee-000-furious-hero-better",
        "000",
        brawlers(unit_rules=("Furious",), models=12),
        unit("Guards", 3, 4, 6, heroes=(unit("Champion", 1, 4, 2, "Hero", "Tough(3)"),)),
        {"charging": True},
    ),
    (
        "melee-000-furious-sergeant-hero-worse",
        "000",
        brawlers("AP(1)", unit_rules=("Furious", "Sergeant"), models=10),
        unit("Wardens", 3, 4, 2, heroes=(unit("Seer", 1, 4, 6, "Hero", "Tough(3)"),)),
        {"charging": True},
    ),
    (
        "melee-000-impact-deadly-hero-worse",
        "000",
        unit(
            "Riders",
            5,
            4,
            4,
            "Impact(2)",
            weapons=(weapon("Lance", 1, 0, "Deadly(2)", count=5), weapon("Hooves", 2, 0, count=5)),
        ),
        unit("Shields", 2, 4, 2, heroes=(unit("Priest", 1, 4, 6, "Hero", "Tough(3)"),)),
        {"charging": True},
    ),
    (
        "melee-001-impact-hero-better",
        "001",
        brawlers(unit_rules=("Impact(2)",), models=6),
        unit("Guards", 3, 4, 6, heroes=(unit("Champion", 1, 4, 2, "Hero", "Tough(3)"),)),
        {"charging": True},
    ),
    (
        "melee-002-deadly-and-plain-hero-worse",
        "002",
        unit("Guard", 5, 4, 4, weapons=(weapon("Halberd", 3, 0, "Deadly(2)", count=5), weapon("Sword", 2, 0, count=5))),
        unit("Shields", 2, 4, 4, heroes=(unit("Priest", 1, 4, 6, "Hero", "Tough(3)"),)),
        {"charging": True},
    ),
    (
        "000-rifles-joined-hero-same-weapon-hero-better",
        "000",
        unit(
            "Squad",
            8,
            4,
            4,
            weapons=(weapon("Rifle", 2, 24, count=8),),
            heroes=(unit("Leader", 1, 3, 4, "Hero", "Tough(3)", weapons=(weapon("Rifle", 2, 24),)),),
        ),
        unit("Guards", 2, 4, 6, heroes=(unit("Champion", 1, 4, 2, "Hero", "Tough(3)"),)),
        {},
    ),
    (
        "002-two-weapon-types-hero-worse",
        "002",
        unit("Archers", 5, 4, 4, weapons=(weapon("Bow", 2, 24, count=5), weapon("Crossbow", 2, 24, "AP(1)", count=5))),
        unit("Shields", 2, 4, 2, heroes=(unit("Priest", 1, 4, 6, "Hero", "Tough(3)"),)),
        {},
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_engine_agrees_with_monte_carlo(case):
    name, code, att, dfn, kw = case
    attack = (
        "melee"
        if name.startswith(
            (
                "melee",
                "000-furious",
                "001-furious",
                "002-thrust",
                "001-counter",
                "002-counter",
                "000-phalanx",
                "fatigue",
                "000-wavering",
                "000-sergeant",
                "002-sergeant",
            )
        )
        else "shooting"
    )
    sit = situation(attack, **kw)
    exact = preview_fighters(DIALECT[code], att, dfn, sit)
    sim = Sim(code, att, dfn, sit, seed=zlib.crc32(name.encode())).run(TRIALS)

    def close(label: str, value: float, key: str) -> None:
        mean, se = sim[key]
        if key not in ("hits", "wounds", "killed"):
            # a probability: use the exact value's binomial error (rare events simulate as 0)
            se = max(se, (max(value * (1 - value), 0.0) / TRIALS) ** 0.5) + 1 / TRIALS
        assert abs(value - mean) <= 5 * se + 1e-9, (
            f"{name}: {label} exact {value:.4f} vs simulated {mean:.4f} ± {se:.4f}"
        )

    close("hits", exact["expected"]["hits"], "hits")
    close("wounds", exact["expected"]["wounds"], "wounds")
    close("models killed", exact["expected"]["models_killed"], "killed")
    close("destroyed", exact["p_destroyed"], "destroyed")
    cons = exact["consequences"]
    if attack == "shooting":
        close("morale test", cons["morale"]["p_test"], "test")
        fail_key = next(k for k in cons["morale"] if k in ("p_shaken", "p_wavering"))
        close("morale fail", cons["morale"][fail_key], "fail")
    else:
        close("attacker wins", cons["melee"]["p_attacker_wins"], "a_wins")
        close("defender wins", cons["melee"]["p_defender_wins"], "d_wins")
        close("defender routs", cons["morale"]["defender"]["p_rout"], "d_rout")
        close("attacker routs", cons["morale"]["attacker"]["p_rout"], "a_rout")
