"""A whole turn against one target: the attacker shoots it, then charges it.

OPR units cannot shoot and charge in one activation, so the turn is read as the attacker's
shooting followed by its charge into the same target before the target acts again: whatever
the shooting did (wounds, models lost, a failed morale test leaving the target Shaken or
Wavering) is where the charge starts, and the melee brings the target's strike-back, the melee
result and the loser's morale test.

The answer is one exact distribution: for every state the shooting can leave the target in
(its position on its wound line, and whether it failed its morale test), the melee is run from
that state by the same engine and the results are mixed with the state's probability. A Sniper
pick in the shooting may leave the picked model part-wounded out of the usual wound order; each
such state has its own wound line (:mod:`.pick`) and the charge starts on it. A unit with no
ranged weapon only charges. The Monte Carlo simulator cross-checks it in the tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import partial
from operator import add
from typing import Any

from listbuilder.combat.combatant import Combatant
from listbuilder.combat.opr.dialects import Dialect, dialect_for
from listbuilder.combat.opr.preview import Preview, ranged_weapons
from listbuilder.combat.opr.situation import Situation
from listbuilder.combat.profiles import Fighter, fighter_from
from listbuilder.combat.service import PreviewError, unmodelled_rules
from listbuilder.dice import Dist
from listbuilder.model import GameSystem

# what a melee answer says that mixes over the charge's starting states
MIXED = ("melee", "morale", "p_defender_removed", "p_attacker_destroyed")


def turn_situations(data: Mapping[str, Any]) -> tuple[Situation, Situation]:
    """The request's turn situation -> (the shooting, the charge).

    ``weapons`` and ``pick`` steer the shooting, as in a single shooting preview; the charge
    fights with every melee weapon, its Takedown blows (002) going at the next model.
    """
    shoot = Situation.of(
        {
            **{k: data[k] for k in ("range", "hold", "cover", "weapons", "pick", "attacker", "defender") if k in data},
            "attack": "shooting",
        }
    )
    charge = Situation.of(
        {
            **{k: data[k] for k in ("facing", "strike_back", "attacker", "defender") if k in data},
            "attack": "melee",
            "charging": True,
        }
    )
    return shoot, charge


def preview_turn(
    dialect: Dialect, attacker: Fighter, defender: Fighter, shoot: Situation, charge: Situation
) -> dict[str, Any]:
    """Shooting, then the charge from every state it leaves, as one answer (see the module).

    A unit with no ranged weapon holds its fire: the turn is its charge alone, and the answer
    says so (``steps.shooting`` is null).
    """
    shooting = Preview(dialect, attacker, defender, shoot)
    can_shoot = bool(ranged_weapons(attacker))
    _check_weapons(attacker, shoot)
    # 000 Actions, Charge (no shooting at any point) / 002 Actions, Charge (moves into melee):
    # the charge shoots nothing, so a unit with no ranged weapon has only that step.
    # 000/001 Sniper, 002 Takedown: the attacker's pick steers the shooting.
    shot = shooting.shoot() if can_shoot else shooting.hold_fire()
    where = shot.where  # after a Sniper pick, one wound line per state of the picked model
    wounds: dict[int, float] = {}
    killed: dict[int, float] = {}
    melee_mix: list[tuple[float, dict[str, Any]]] = []
    hits_mix: list[tuple[float, Dist]] = []
    back_wounds: list[tuple[float, Dist]] = []
    p_charge = 0.0
    charge_notes: list[str] = []
    for key, w in shot.ends.items():
        line, p = where.locate(key)
        shot_wounds, shot_killed = where.wounds(key), where.killed(key)
        if p >= line.end:  # shot off the table: nothing left to charge
            wounds[shot_wounds] = wounds.get(shot_wounds, 0.0) + w
            killed[shot_killed] = killed.get(shot_killed, 0.0) + w
            continue
        p_charge += w
        failed = shot.failed.get(key, 0.0)
        for shaken, ws in ((False, 1.0 - failed), (True, failed)):
            if ws <= 0.0:
                continue
            state = replace(charge.defender, shaken=charge.defender.shaken or shaken)
            clash = Preview(
                dialect, attacker, defender, replace(charge, defender=state), start_d=p, line_d=line
            ).clash()
            weight = w * ws
            for k, q in clash.ends_d.items():
                total_w = shot_wounds + clash.where.wounds(k)
                total_k = shot_killed + clash.where.killed(k)
                wounds[total_w] = wounds.get(total_w, 0.0) + weight * q
                killed[total_k] = killed.get(total_k, 0.0) + weight * q
            hits_mix.append((weight, clash.hits))
            back_wounds.append((weight, clash.ends_a.map(partial(add, -clash.start_a))))
            melee_mix.append((weight, {k: clash.consequences[k] for k in MIXED}))
            charge_notes = charge_notes or clash.notes
    total_wounds, total_killed = Dist(wounds), Dist(killed)
    melee = _mix([(w / p_charge, c) for w, c in melee_mix]) if p_charge > 0 else {}
    shot_destroyed = shot.answer["p_destroyed"] if shot.answer else 0.0
    removed = shot_destroyed + sum(w * c["p_defender_removed"] for w, c in melee_mix)
    notes = _turn_notes(shot.answer, shooting.fight.notes, attacker.name, charge_notes)
    return {
        "expected": {"wounds": total_wounds.mean, "models_killed": total_killed.mean},
        "distributions": {"wounds": total_wounds.as_dict(), "models_killed": total_killed.as_dict()},
        "p_destroyed": sum(q for k, q in total_killed.items() if k >= where.alive_before),
        "consequences": {
            "p_charge": p_charge,
            "p_defender_removed": removed,
            "p_attacker_destroyed": sum(w * c["p_attacker_destroyed"] for w, c in melee_mix),
            "melee_if_charged": melee,
            "attacker_wounds_taken": Dist.mixture(back_wounds).as_dict() if back_wounds else Dist.constant(0).as_dict(),
        },
        "steps": {
            "shooting": {k: shot.answer[k] for k in ("expected", "distributions", "p_destroyed", "consequences")}
            if shot.answer
            else None,
            "charge": {"expected_hits": Dist.mixture(hits_mix).mean / p_charge if p_charge > 0 else 0.0},
        },
        "notes": notes,
    }


def _turn_notes(
    shot_answer: dict[str, Any] | None, held_notes: list[str], attacker: str, charge_notes: list[str]
) -> list[str]:
    """The turn's notes: the shooting's (or why there was none), then the charge's groups."""
    if shot_answer:
        notes = [f"shooting {n}" if n.startswith("groups:") else n for n in shot_answer["notes"]]
    else:
        notes = [f"shooting: skipped, {attacker} has no ranged weapon; the turn is its charge alone", *held_notes]
    return notes + [f"charge {n}" for n in charge_notes if n.startswith("groups:")]


def _check_weapons(attacker: Fighter, shoot: Situation) -> None:
    """A turn's ``weapons`` choose what shoots: a melee weapon there has nothing to do (the
    charge always fights with every melee weapon)."""
    ranged = {w.name for w in ranged_weapons(attacker)}
    for name in shoot.weapons or ():
        if name not in ranged:
            raise PreviewError(
                "situation.weapons",
                f"{name!r} is a melee weapon: a turn's weapons are the ones that shoot, and the charge fights with every melee weapon",
            )


def _mix(weighted: list[tuple[float, Any]]) -> Any:
    """The weighted mean of equally shaped answers (numbers mixed, text kept)."""
    first = weighted[0][1]
    if isinstance(first, dict):
        return {k: _mix([(w, v[k]) for w, v in weighted if k in v]) for k in first}
    if isinstance(first, bool) or not isinstance(first, (int, float)):
        return first
    return sum(w * v for w, v in weighted)


def turn_engine(
    system: GameSystem, attacker: Combatant, defender: Combatant, situation: Mapping[str, Any]
) -> dict[str, Any]:
    """The OPR family's whole-turn preview (``listbuilder.combat.service.preview_turn``)."""
    shoot, charge = turn_situations(situation)
    dialect = dialect_for(system)
    out = preview_turn(dialect, fighter_from(attacker), fighter_from(defender), shoot, charge)
    out["unmodelled"] = unmodelled_rules((attacker, defender), dialect.knows)
    return out
