"""Exact combat previews for ancients-hex (rulebook 003): one attack, its blocks and aftermath.

Why this shape: an ancients-hex fight is two dice pools thrown against each other. The
attacker's pool scores hits on 4+ (6s, and 5s with Critical Hit, count twice); the defender's
pool scores blocks on 4+; the difference is damage, and a unit that takes damage must fall back
(or take an extra hit when it cannot). Disadvantage raises the needed face, advantage lowers
it, and the built-in rerolls (Skilled, Brace, Frenzy, Support) act once per die. Each pool is a
small exact distribution; willpower (Terror) tests pick which pools are thrown, so the answer
is a mixture over the test results.

Everything a rule changes is decided in :func:`plan_attack` from the two units and the
situation, so the pool maths (``ancients_hex_dice``) stays generic and each interpretation
lives in one place with its clause. ``docs/combat-hex.md`` lists them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from listbuilder.combat.ancients_hex_dice import Pool, need_for, roll_pool, terror_failure, willpower_passes
from listbuilder.combat.combatant import Combatant
from listbuilder.combat.service import PreviewError, unmodelled_rules
from listbuilder.dice import Dist
from listbuilder.model import GameSystem

MELEE, SHOOTING = "melee", "shooting"
DEFEND, EVADE, FIGHT_BACK = "defend", "evade", "fight_back"


# --------------------------------------------------------------------------------------------
# Reading the units


def _key(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


@dataclass(frozen=True)
class Fighter:
    """One side's ancients-hex card: dice pools, hit points and attributes by plain name."""

    name: str
    attack: int
    missile: int
    missile_range: int
    defence: int
    willpower: int
    hit_points: int
    rules: Mapping[str, str | None] = field(default_factory=dict)
    kinds: frozenset[str] = frozenset()

    def has(self, rule: str) -> bool:
        return _key(rule) in self.rules

    def param(self, rule: str) -> str | None:
        return self.rules.get(_key(rule))

    def rating(self, rule: str, default: int = 0) -> int:
        """The number a rule carries (``Skilled(2)`` -> 2; ``Terror(1/2)`` style -> the first)."""
        if not self.has(rule):
            return 0
        text = self.param(rule)
        if text is None:
            return default
        digits = "".join(ch if ch.isdigit() else " " for ch in text).split()
        return int(digits[0]) if digits else default


def read_fighter(side: Combatant, where: str) -> Fighter:
    """A Combatant's ancients-hex card; raises PreviewError when it has no ancients-hex stats."""
    stats = side.stats
    missing = [name for name in ("attack", "defence", "hit_points") if name not in stats]
    if missing:
        raise PreviewError(where, f"{side.name} has no ancients-hex {', '.join(missing)}: not an ancients-hex unit")
    rules: dict[str, str | None] = {}
    for rule in side.rules:
        rules[_key(rule.name)] = rule.param
    kinds = {_key(side.name), _key(side.unit.name), _key(str(stats.get("unit_class", "")))}
    kinds.update(_key(tag) for tag in side.unit.tags)
    kinds.update(rules)
    return Fighter(
        name=side.name,
        attack=int(stats.get("attack") or 0),
        missile=int(stats.get("missile") or 0),
        missile_range=int(stats.get("missile_range") or 0),
        defence=int(stats.get("defence") or 0),
        willpower=int(stats.get("willpower") or 0),
        hit_points=int(stats.get("hit_points") or 1),
        rules=rules,
        kinds=frozenset(k for k in kinds if k),
    )


def critical_applies(attacker: Fighter, defender: Fighter) -> bool:
    """003 §9 Critical Hit X: only against the named kind of target; "all" (or none) hits any."""
    if not attacker.has("Critical Hit"):
        return False
    target = attacker.param("Critical Hit")
    if target is None or _key(target) in {"all", "vall", "any"}:
        return True
    wanted = {_key(part) for part in target.replace(",", "/").split("/") if part.strip()}
    return bool(wanted & defender.kinds) or any(w.rstrip("s") in defender.kinds for w in wanted)


# --------------------------------------------------------------------------------------------
# The situation


@dataclass(frozen=True)
class Situation:
    """How the attack happens; every field is optional except ``attack``. The API checks a
    request's situation (keys, limits, words) with
    ``listbuilder.shapes.hex_situations.AncientsHexSituationSchema`` before it gets here."""

    attack: str
    range: int | None = None
    charging: bool = False
    moved: bool = False
    attacker_disadvantage: int = 0
    defender_disadvantage: int = 0
    no_charge_bonus: bool = False
    defender_action: str = DEFEND
    fight_back_with: str = "defence"
    attacker_support: int = 0
    defender_support: int = 0
    attacker_hp_lost: int = 0
    defender_hp_lost: int = 0
    retreat_blocked: int = 0
    defender_stands: bool | None = None
    critical_hit: bool | None = None
    defender_activated: bool = False
    terror: bool = True

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


# --------------------------------------------------------------------------------------------
# Planning one attack: which pools are thrown


@dataclass(frozen=True)
class Plan:
    """Everything the rules decided before any die is thrown, for one Terror outcome."""

    attack: Pool
    defence: Pool
    fight_back: Pool | None
    charge: bool
    notes: tuple[str, ...] = ()


def plan_attack(a: Fighter, d: Fighter, s: Situation, *, attacker_terrified: bool, defender_terrified: bool) -> Plan:
    """Turn units, situation and Terror results into the pools; the rule clauses live here."""
    melee = s.attack == MELEE
    # -- causes of disadvantage on the attacker's dice
    a_dis = s.attacker_disadvantage
    if melee and s.defender_action == EVADE:
        a_dis += 1  # 003 §3.7.3 evade: the evading unit is attacked as disadvantaged
    if attacker_terrified:
        a_dis += 1  # 003 §5.2 terror: a failed test means fighting as disadvantaged
    if d.has("Ethereal"):
        a_dis += 1  # 003 §9 Ethereal: attacks against ethereals are disadvantaged
    if not melee and d.has("Stealthy"):
        a_dis += 1  # 003 §9 Stealthy: all missile attacks against it are disadvantaged
    if melee and d.has("Flight") and not s.defender_activated:
        a_dis += 1  # 003 §9 Flight: melee attacks on it are disadvantaged until it has activated
    if not melee and s.moved:
        a_dis += 1  # 003 §4.2.7 shooting: units which move shoot as disadvantaged
    # 003 §9 Charge: no charge bonus if any cause of disadvantage is present (or terrain forbids it)
    charge = melee and s.charging and a_dis == 0 and not s.no_charge_bonus
    advantage = 0
    if not melee and a.has("Volley Fire") and not s.moved:
        advantage = 1  # 003 §4.4 example / §9 Volley Fire: fire as advantaged instead of moving (3-6 hit)
    dice = a.attack if melee else a.missile
    if charge and a.has("Charge"):
        dice += 1  # 003 §9 Charge: +1 die on a move into combat
    if charge and a.has("Frenzy"):
        dice += 1  # 003 §9 Frenzy: extra attack die on charge
    if s.defender_hp_lost > 0 and a.has("Scavenger"):
        dice += 1  # 003 §9 Scavenger: +1 attack against wounded enemies
    crit = critical_applies(a, d) if s.critical_hit is None else s.critical_hit
    attack = Pool(
        dice=dice,
        level=advantage - a_dis,  # 003 §4.3 disadvantage: 5-6 only, two or more causes 6 only
        doubles=frozenset({5, 6} if crit else {6}),  # 003 §4.2.2 natural 6 = 2 hits; §9 Critical Hit: 5s too
        reroll_upto=a.rating("Skilled", 1),  # 003 §9 Skilled N: reroll 1..N in attacks or missile attacks
        reroll_misses=charge and a.has("Frenzy"),  # 003 §9 Frenzy: may reroll the attack on a charge
        spare_rerolls=s.attacker_support if a.has("Support") or a.has("Mob") else 0,  # 003 §9 Support: one reroll die
    )
    # -- the defender's dice
    d_dis = s.defender_disadvantage
    if melee:
        if defender_terrified:
            d_dis += 1  # 003 §5.2 terror: a failed test means fighting as disadvantaged
        deadly = a.param("Deadly")
        if a.has("Deadly") and (deadly is None or "charge" not in deadly.lower() or charge):
            d_dis += 1  # 003 §9 Deadly: defender disadvantaged on defence (some only on charge)
        if charge and a.has("Impact"):
            d_dis += 1  # 003 §9 Impact: defender disadvantaged when the attack meets Charge's conditions
    else:
        d_dis = 0  # 003 §4.3: defenders rolling against missile attacks are NOT disadvantaged
    d_support = s.defender_support if d.has("Support") else 0
    defence = Pool(
        dice=d.defence,
        level=-d_dis,
        reroll_upto=d.rating("Brace", 1),  # 003 §9 Brace N: reroll defence dice of 1..N
        spare_rerolls=d_support,  # 003 §9 Support: one reroll die on all rolls, last gasp included
    )
    fight_back: Pool | None = None
    if melee and s.defender_action == FIGHT_BACK:
        if s.fight_back_with == "missile":
            # 003 §4.4/§4.2.7: a shooter may fight back with its missile dice, disadvantaged
            fight_back = Pool(
                dice=d.missile,
                level=-1 - (1 if defender_terrified else 0),
                doubles=frozenset({5, 6} if critical_applies(d, a) else {6}),
                reroll_upto=d.rating("Skilled", 1),
                spare_rerolls=d_support,
            )
        else:
            fight_back = defence  # 003 §4.4 last gasp: the successful blocks become attacks instead
    return Plan(attack, defence, fight_back, charge)


# --------------------------------------------------------------------------------------------
# The whole preview


def _check(a: Fighter, d: Fighter, s: Situation) -> None:
    """Refuse situations the rules do not allow (a 4xx, not a zero)."""
    if s.attack == SHOOTING:
        if a.missile <= 0:
            raise PreviewError("situation.attack", f"{a.name} has no missile dice to shoot with")
        if s.range is None:
            raise PreviewError("situation.range", "shooting needs the range in hexes")
        if s.range < 2:
            raise PreviewError("situation.range", "003 §4.2.7: a unit adjacent to an enemy cannot shoot")
        if s.range > a.missile_range:
            raise PreviewError(
                "situation.range", f"{s.range} hexes is beyond {a.name}'s missile range of {a.missile_range}"
            )
        if s.defender_action != DEFEND:
            raise PreviewError(
                "situation.defender_action", "evading and fighting back answer close combat, not missile fire"
            )
        if s.charging:
            raise PreviewError("situation.charging", "a charge is a move into close combat, not a shot")
    else:
        if a.attack <= 0:
            raise PreviewError("situation.attack", f"{a.name} has no attack dice for close combat")
        if s.range not in (None, 1):
            raise PreviewError("situation.range", "close combat is between adjacent hexes (range 1)")
    if s.defender_action == EVADE:
        if not d.has("Evade"):
            raise PreviewError("situation.defender_action", f"{d.name} does not have Evade")
        if s.retreat_blocked:
            raise PreviewError(
                "situation.defender_action", "003 §3.7.3: a unit that cannot fall back cannot choose to evade"
            )
    if s.defender_action == FIGHT_BACK and s.fight_back_with == "missile":
        if d.missile <= 0:
            raise PreviewError("situation.fight_back_with", f"{d.name} has no missile dice to fight back with")
        if not s.charging:
            raise PreviewError(
                "situation.fight_back_with",
                "003 §4.4: missile fight back answers an enemy that moved into contact (set charging)",
            )
    if s.defender_hp_lost >= d.hit_points:
        raise PreviewError("situation.defender_hp_lost", f"{d.name} has only {d.hit_points} hit points")
    if s.attacker_hp_lost >= a.hit_points:
        raise PreviewError("situation.attacker_hp_lost", f"{a.name} has only {a.hit_points} hit points")


def _stands(a: Fighter, d: Fighter, s: Situation) -> bool:
    """Whether the defender ignores the fall back (so never takes the blocked-retreat hit)."""
    unstoppable = a.has("Unstoppable")
    if s.defender_stands is not None:
        return s.defender_stands and not unstoppable  # 003 §9 Steadfast/Massive: except against Unstoppable
    # 003 §3.7.2.1/§9 Steadfast and Massive may choose not to fall back; we assume they stand
    return (d.has("Steadfast") or d.has("Massive")) and not unstoppable


@dataclass(frozen=True)
class Outcome:
    """The distributions of one Terror branch (or of their mixture)."""

    hits: Dist
    blocks: Dist
    damage: Dist
    hp_lost: Dist
    attacker_hp_lost: Dist
    p_retreat: float
    p_extra_hit: float


def resolve(a: Fighter, d: Fighter, s: Situation, plan: Plan) -> Outcome:
    """Throw the planned pools and apply damage, falling back and last gasp (003 §4.2, §4.4)."""
    hits = roll_pool(plan.attack)
    d_left = d.hit_points - s.defender_hp_lost
    a_left = a.hit_points - s.attacker_hp_lost
    if plan.fight_back is not None:
        blocks = Dist.constant(0)  # 003 §4.4: the defence dice strike instead of blocking
        damage = hits
        back = roll_pool(plan.fight_back)
    else:
        blocks = roll_pool(plan.defence)
        # 003 §4.2.4: hits beyond the blocks are inflicted on the defender
        damage = (hits + blocks.map(lambda b: -b)).map(lambda v: max(0, v))
        back = Dist.constant(0)
    evading = s.defender_action == EVADE
    no_retreat = d.has("No retreat") and not a.has("Unstoppable")
    stands = _stands(a, d, s)
    if evading:
        extra, retreats = 0, False  # 003 §3.7.3: the evade is the fall back, declared before the dice
    elif no_retreat:
        extra, retreats = 1, False  # 003 §9 No retreat: takes extra damage instead of falling back
    elif stands:
        extra, retreats = 0, False  # 003 §4.2.6: Steadfast (or Massive) ignores the retreat
    else:
        extra, retreats = s.retreat_blocked, True  # 003 §4.2.6 retreat: an extra hit per hex it cannot retreat
    p_hit = damage.at_least(1)
    taken = damage.map(lambda v: v + extra if v > 0 else 0)
    return Outcome(
        hits=hits,
        blocks=blocks,
        damage=damage,
        hp_lost=taken.map(lambda v: min(v, d_left)),
        attacker_hp_lost=back.map(lambda v: min(v, a_left)),
        p_retreat=p_hit if (retreats and not s.retreat_blocked) else (1.0 if evading else 0.0),
        p_extra_hit=p_hit if extra else 0.0,
    )


def _mix(branches: list[tuple[float, Outcome]]) -> Outcome:
    def mix(attr: str) -> Dist:
        return Dist.mixture((w, getattr(o, attr)) for w, o in branches)

    return Outcome(
        hits=mix("hits"),
        blocks=mix("blocks"),
        damage=mix("damage"),
        hp_lost=mix("hp_lost"),
        attacker_hp_lost=mix("attacker_hp_lost"),
        p_retreat=sum(w * o.p_retreat for w, o in branches),
        p_extra_hit=sum(w * o.p_extra_hit for w, o in branches),
    )


def preview_fight(a: Fighter, d: Fighter, s: Situation) -> dict[str, Any]:
    """The engine's answer for two read fighters (what :func:`engine` returns)."""
    _check(a, d, s)
    melee = s.attack == MELEE
    # 003 §5.2 terror: each side facing a Terror unit tests before close combat (Fearless ignores it)
    p_a_fail = (
        terror_failure(a.willpower, d.rating("Terror", 1), steadfast=a.has("Steadfast"), fearless=a.has("Fearless"))
        if melee and s.terror
        else 0.0
    )
    p_d_fail = (
        terror_failure(d.willpower, a.rating("Terror", 1), steadfast=d.has("Steadfast"), fearless=d.has("Fearless"))
        if melee and s.terror
        else 0.0
    )
    branches, plans, p_charge = _terror_branches(a, d, s, p_a_fail, p_d_fail)
    out = _mix(branches)
    d_left = d.hit_points - s.defender_hp_lost
    a_left = a.hit_points - s.attacker_hp_lost
    p_destroyed = out.hp_lost.at_least(d_left)
    distributions = {
        "hits": out.hits.as_dict(),
        "blocks": out.blocks.as_dict(),
        "damage": out.damage.as_dict(),
        "hp_lost": out.hp_lost.as_dict(),
    }
    expected: dict[str, float] = {
        "hits": out.hits.mean,
        "blocks": out.blocks.mean,
        "damage": out.damage.mean,
        "hp_lost": out.hp_lost.mean,
    }
    consequences: dict[str, Any] = {
        "retreat": {
            "p_retreat": out.p_retreat,
            "p_extra_hit": out.p_extra_hit,
            "defender_stands": _stands(a, d, s) or (d.has("No retreat") and not a.has("Unstoppable")),
            "evading": s.defender_action == EVADE,
        },
        "p_valid_charge": p_charge,  # 003 §9 Charge conditions met (Charge, Frenzy and Impact need them)
        "terror": {"p_attacker_fails": p_a_fail, "p_defender_fails": p_d_fail},
        "hit_points_left": d_left,
    }
    if s.defender_action == FIGHT_BACK:
        distributions["attacker_hp_lost"] = out.attacker_hp_lost.as_dict()
        expected["attacker_hp_lost"] = out.attacker_hp_lost.mean
        consequences["last_gasp"] = {
            "with": s.fight_back_with,
            "expected_damage_to_attacker": out.attacker_hp_lost.mean,
            "p_attacker_destroyed": out.attacker_hp_lost.at_least(a_left),
            "p_both_destroyed": _both(branches, d_left, a_left),
        }
    first = plans[0]
    notes = [
        f"attack: {first.attack.dice} dice hitting on {first.attack.need}+"
        + (" (5s and 6s count twice)" if 5 in first.attack.doubles else " (6s count twice)"),
        f"defence: {first.defence.dice} dice blocking on {first.defence.need}+",
    ]
    return {
        "expected": expected,
        "distributions": distributions,
        "p_destroyed": p_destroyed,
        "consequences": consequences,
        "notes": notes,
    }


def _terror_branches(
    a: Fighter, d: Fighter, s: Situation, p_a_fail: float, p_d_fail: float
) -> tuple[list[tuple[float, Outcome]], list[Plan], float]:
    """The fight once per outcome of the two terror tests: each weighted outcome, each plan,
    and the chance the charge is valid."""
    branches: list[tuple[float, Outcome]] = []
    p_charge = 0.0
    plans: list[Plan] = []
    for a_fail, pa in ((False, 1 - p_a_fail), (True, p_a_fail)):
        for d_fail, pd in ((False, 1 - p_d_fail), (True, p_d_fail)):
            weight = pa * pd
            if weight <= 0:
                continue
            plan = plan_attack(a, d, s, attacker_terrified=a_fail, defender_terrified=d_fail)
            plans.append(plan)
            p_charge += weight * plan.charge
            branches.append((weight, resolve(a, d, s, plan)))
    return branches, plans, p_charge


def _both(branches: list[tuple[float, Outcome]], d_left: int, a_left: int) -> float:
    """Both units destroyed: within one Terror branch the two throws are independent."""
    return sum(w * o.hp_lost.at_least(d_left) * o.attacker_hp_lost.at_least(a_left) for w, o in branches)


def engine(
    system: GameSystem, attacker: Combatant, defender: Combatant, situation: Mapping[str, Any]
) -> dict[str, Any]:
    """The ancients-hex engine the preview service dispatches to; raises PreviewError."""
    a = read_fighter(attacker, "attacker")
    d = read_fighter(defender, "defender")
    out = preview_fight(a, d, Situation(**situation))
    out["unmodelled"] = unmodelled_rules((attacker, defender), lambda name: _key(name) in KNOWN_RULES)
    return out


# Rules the maths above reads, and rules that never change one attack's dice (movement,
# activation, orders, spells, other units' attacks). Any other rule is named as unmodelled.
MODELLED = (
    "Brace",
    "Charge",
    "Critical Hit",
    "Deadly",
    "Ethereal",
    "Evade",
    "Fearless",
    "Flight",
    "Frenzy",
    "Impact",
    "Massive",
    "Mob",
    "No retreat",
    "Scavenger",
    "Skilled",
    "Steadfast",
    "Stealthy",
    "Support",
    "Terror",
    "Unstoppable",
    "Volley Fire",
)
NO_COMBAT_EFFECT = (
    "Advance",
    "Attachment",
    "Aura",
    "Command",
    "Compel",
    "Crush",
    "Follow me",
    "Hit & run",
    "Knock aside",
    "Light",
    "Magical resistance",
    "Magician",
    "Regenerate",
    "Skirmish",
    "Split attack",
    "Spy",
)
KNOWN_RULES = frozenset(_key(name) for name in (*MODELLED, *NO_COMBAT_EFFECT))


__all__ = [
    "Fighter",
    "Plan",
    "Pool",
    "Situation",
    "engine",
    "need_for",
    "plan_attack",
    "preview_fight",
    "read_fighter",
    "roll_pool",
    "terror_failure",
    "willpower_passes",
]
