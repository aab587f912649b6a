"""One OPR preview: the phases wired together, shooting resolved, melee handed to :mod:`.melee`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from listbuilder.combat.combatant import Combatant
from listbuilder.combat.opr.dialects import Dialect, dialect_for
from listbuilder.combat.opr.fight import Fight
from listbuilder.combat.opr.groups import AttackGroups
from listbuilder.combat.opr.melee import Clash, Melee
from listbuilder.combat.opr.morale import Morale
from listbuilder.combat.opr.outcomes import Outcomes, result
from listbuilder.combat.opr.pick import Picking
from listbuilder.combat.opr.saves import Saves
from listbuilder.combat.opr.situation import Situation
from listbuilder.combat.opr.wounds import Wounding
from listbuilder.combat.profiles import Fighter, WoundLine, fighter_from
from listbuilder.combat.service import PreviewError, unmodelled_rules
from listbuilder.dice import Dist
from listbuilder.model import GameSystem, Weapon


def engine(
    system: GameSystem, attacker: Combatant, defender: Combatant, situation: Mapping[str, Any]
) -> dict[str, Any]:
    """The OPR family's preview: see :mod:`listbuilder.combat.service` for the shape."""
    dialect = dialect_for(system)
    sit = Situation.of(situation)
    out = Preview(dialect, fighter_from(attacker), fighter_from(defender), sit).run()
    out["unmodelled"] = unmodelled_rules((attacker, defender), dialect.knows)
    return out


def preview_fighters(dialect: Dialect, attacker: Fighter, defender: Fighter, situation: Situation) -> dict[str, Any]:
    """The same, for callers (tests, benchmark) that build fighters directly."""
    return Preview(dialect, attacker, defender, situation).run()


class Preview:
    """One preview: lays the fight out, checks it, and runs shooting or melee through the phases."""

    def __init__(
        self,
        dialect: Dialect,
        attacker: Fighter,
        defender: Fighter,
        situation: Situation,
        *,
        start_d: int | None = None,
        line_d: WoundLine | None = None,
    ):
        self.fight = Fight.of(dialect, attacker, defender, situation, start_d=start_d, line_d=line_d)
        check(self.fight)
        self.groups = AttackGroups(self.fight)
        self.saves = Saves(self.fight)
        self.wounding = Wounding(self.fight, self.saves)
        self.picking = Picking(self.fight, self.wounding, self.saves)
        self.morale = Morale(self.fight)

    def run(self) -> dict[str, Any]:
        if self.fight.sit.melee:
            return self.clash().answer()
        shot = self.shoot()
        assert shot.answer is not None, "only hold_fire leaves the answer empty"
        return shot.answer

    def clash(self) -> Clash:
        """The melee, with its raw distributions (a whole-turn preview mixes them)."""
        return Melee(self.fight, self.groups, self.wounding, self.picking, self.morale).resolve()

    def shoot(self) -> Shot:
        """The shooting: its answer, and where it leaves the defender."""
        f = self.fight
        groups = self.groups.attack_groups(f.att)
        if not groups:
            ranged = ranged_weapons(f.att)
            if not ranged:
                raise PreviewError("attacker", f"{f.att.name} has no ranged weapon to shoot with")
            reach = max(self.groups.reach(w) for w in ranged)
            raise PreviewError(
                "situation.range", f'{f.sit.range}" is beyond every weapon of {f.att.name} (longest {reach}")'
            )
        self.picking.use(groups)
        hits, ends = self.picking.strike_defender(groups, f.start_a, True)
        where = self.picking.out
        out = result(hits, ends, where)
        test = fail = 0.0
        failed: dict[int, float] = {}
        for k, w in ends.items():
            line, p = where.locate(k)
            # Morale: a unit left at half strength or less by wounds tests (not if destroyed)
            if where.wounds(k) > 0 and p < line.end and self.morale.half_or_less(f.dfn, line, p):
                failed[k] = self.morale.fail(f.dfn, line, p, f.sit.defender)
                test += w
                fail += w * failed[k]
        out["consequences"] = {
            "morale": {"p_test": test, f"p_{f.d.shaken.lower()}": fail, "p_rout": 0.0, "state_on_fail": f.d.shaken},
            **self.picking.report(ends),
        }
        out["notes"] = f.notes + [f"groups: {', '.join(g.label for g in groups)}"]
        return Shot(out, ends, where, failed)

    def hold_fire(self) -> Shot:
        """No shooting at all (a whole turn of a unit with no ranged weapon): the defender
        stays as the situation says, and a pick has nothing to steer."""
        f = self.fight
        self.picking.use([])
        return Shot(None, Dist.constant(f.start_d), Outcomes.one_line(f.line_d, f.start_d), {})


@dataclass(frozen=True)
class Shot:
    """A shooting's answer and the defender's outcomes, each with its chance to fail morale."""

    answer: dict[str, Any] | None  # None: nothing was shot (see Preview.hold_fire)
    ends: Dist  # defender outcome keys of ``where``
    where: Outcomes
    failed: dict[int, float]  # outcome key -> chance the morale test it forces fails


def ranged_weapons(fighter: Fighter) -> list[Weapon]:
    """The weapons of the unit and its joined heroes that can shoot."""
    return [w for m in fighter.all_members for w in m.weapons if not w.is_melee]


def check(fight: Fight) -> None:
    """Refuse situations no table allows; note the rules this dialect does not model."""
    sit, d = fight.sit, fight.d
    if sit.attacker.shaken:
        # 000 Wavering / 001 / 002 Shaken: the unit spends its activation idle.
        raise PreviewError(
            "situation.attacker.shaken", f"a {d.shaken} unit stays idle: it can neither shoot nor charge"
        )
    if not sit.melee and sit.charging:
        raise PreviewError("situation.charging", "charging is a melee situation; use attack: melee")
    if sit.melee and sit.range is not None:
        raise PreviewError("situation.range", "range is for shooting; melee is fought in base contact")
    if sit.facing not in ("front", "flank", "rear"):
        raise PreviewError("situation.facing", "facing is front, flank or rear")
    names = {w.name for f in fight.att.all_members for w in f.weapons}
    for name in sit.weapons or ():
        if name not in names:
            raise PreviewError("situation.weapons", f"the attacker has no weapon {name!r}; it has {sorted(names)}")
    seen = set()
    for f in (fight.att, fight.dfn):
        for member in f.all_members:
            for rule in (*member.rules, *(r for w in member.weapons for r in w.rules)):
                if not d.knows(rule.name) and rule.name not in seen:
                    seen.add(rule.name)
                    fight.notes.append(f"{rule.name}: not modelled in previews for {d.name}; ignored")
