"""Exact shooting and melee odds for the OPR family: 000 (AoF 2.16), 001 (GF), 002 (AoF regiments).

The three rulebooks share one sequence - roll to hit (Quality), roll to block (Defense),
remove casualties - but give many rules of the same name different meanings. Each rulebook's
meaning lives in a :class:`Dialect`; the maths below reads the dialect's switches and never
asks which system it is serving.

How the numbers are computed (all exact, no sampling):

* The defender's state is one integer: wounds absorbed on its :class:`WoundLine` (models in the
  order the rules make wounds reach them). Wounds fill the most-wounded tough model first and
  heroes last, so a position says exactly which models are gone and how hurt the next one is.
* A weapon group's attack is a per-die mixture (miss / natural 6 / other hit) turned into
  "effective wounds" - wounds that survive blocks and Regeneration - and summed over the
  group's attacks by convolution (``Dist.repeat``). Each effective wound then moves the
  position: +1, or with Deadly(X) up to X but never past the current model.
* Groups are resolved one after another, each from every possible state the earlier groups
  left (``Dist.bind``), so Blast caps, a hero's own Defense once the unit is gone and
  strike-back attacks all follow the dice.

Interpretations chosen where the texts are unclear are commented at the code and listed in
docs/combat.md.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from listbuilder.combat.profiles import Fighter, WoundLine, fighter_from, wound_line
from listbuilder.combat.service import Combatant, PreviewError
from listbuilder.dice import Dist, success_chance
from listbuilder.model import GameSystem, RuleRef, Weapon, rule_rating

B = 1 << 12  # base for packing (hits, wounds) into one Dist outcome: hits * B + wounds
SIX = 1.0 / 6.0

# --------------------------------------------------------------------------------------------
# What each rulebook means


@dataclass(frozen=True)
class Dialect:
    """One rulebook's meaning for every rule the maths models."""

    code: str
    name: str
    shaken: str  # what a failed test makes a unit: "Wavering" (000) or "Shaken" (001/002)
    cover: str  # "hit": shooters get -1 to hit (000); "defense": +1 to Defense rolls (001/002)
    stealth_over: int | None  # Stealth only from over this range (None: always)
    stealth_all_models: bool
    artillery: str  # "defense2" (000), "ranged9" (002), "" (001: no such rule)
    fearless: str  # "plus1" (000: +1 to the roll), "reroll4" (001/002: a failed test passes on 4+)
    fearless_all_models: bool
    fear: str  # "d3" (000: +D3 wounds), "x_unit" (001: +X), "x_model" (002: +X per model)
    furious: str  # "extra_attack" (000), "six_extra" (001/002: natural 6s in melee add a hit)
    poison: str  # "six_x3" (000), "regen_reroll6" (001), "" (002)
    rending: str  # "ap4_no_regen" (000), "ap4_regen_minus1" (001), "ap_plus4_no_regen" (002)
    impact: str  # "auto" (000: X automatic hits), "q2" (001: X attacks at 2+), "dice_front" (002)
    relentless: str  # "" (000), "hold" (001), "over9" (002)
    regeneration_all_models: bool
    deadly_first: bool
    destroyed_loses: bool
    musician_wound: bool  # 000: Musician / Battle Standard count +1 wound in the melee result
    banner_morale: bool  # 002: Banner gives +1 to morale tests
    sergeant: str  # "plus1" (000: +1 to hit), "six_extra" (002), "" (001)
    rows: bool  # 002: regiments - two front rows strike, full rows count in the melee result
    flanking: bool  # 002: -1/-2 to morale when charged in the flank/rear
    phalanx: bool  # 000
    counter: bool
    lance: bool
    thrust: bool
    bane: bool
    surge: bool
    unstoppable: bool
    takedown: bool
    sniper: bool
    lock_on: bool
    aircraft: bool
    entrenched: bool
    reliable: bool
    modelled: frozenset[str]


_COMMON = frozenset({"AP", "Blast", "Deadly", "Fear", "Fearless", "Furious", "Hero", "Impact", "Indirect",
                     "Regeneration", "Rending", "Stealth", "Tough"})
# Rules that never change a fight's odds (movement, deployment, spells): no note for them.
_NO_COMBAT_EFFECT = frozenset({"Ambush", "Fast", "Slow", "Flying", "Strider", "Scout", "Immobile", "Wizard",
                               "Caster", "Transport", "Limited", "Musician"})

AOF = Dialect(
    code="000", name="Age of Fantasy 2.16", shaken="Wavering", cover="hit", stealth_over=None,
    stealth_all_models=False, artillery="defense2", fearless="plus1", fearless_all_models=False,
    fear="d3", furious="extra_attack", poison="six_x3", rending="ap4_no_regen", impact="auto",
    relentless="", regeneration_all_models=False, deadly_first=True, destroyed_loses=True,
    musician_wound=True, banner_morale=False, sergeant="plus1", rows=False, flanking=False,
    phalanx=True, counter=False, lance=False, thrust=False, bane=False, surge=False,
    unstoppable=False, takedown=False, sniper=True, lock_on=False, aircraft=False,
    entrenched=False, reliable=False,
    modelled=_COMMON | {"Artillery", "Poison", "Sniper", "Phalanx", "Sergeant", "Musician", "Battle Standard"},
)
GF = Dialect(
    code="001", name="Grimdark Future", shaken="Shaken", cover="defense", stealth_over=12,
    stealth_all_models=True, artillery="", fearless="reroll4", fearless_all_models=False,
    fear="x_unit", furious="six_extra", poison="regen_reroll6", rending="ap4_regen_minus1",
    impact="q2", relentless="hold", regeneration_all_models=False, deadly_first=True,
    destroyed_loses=True, musician_wound=False, banner_morale=False, sergeant="", rows=False,
    flanking=False, phalanx=False, counter=True, lance=True, thrust=False, bane=False,
    surge=False, unstoppable=False, takedown=False, sniper=True, lock_on=True, aircraft=True,
    entrenched=True, reliable=True,
    modelled=_COMMON | {"Poison", "Counter", "Lance", "Relentless", "Reliable", "Sniper", "Lock-On", "Aircraft", "Entrenched"},
)
AOFR = Dialect(
    code="002", name="Age of Fantasy: Regiments", shaken="Shaken", cover="defense", stealth_over=9,
    stealth_all_models=True, artillery="ranged9", fearless="reroll4", fearless_all_models=True,
    fear="x_model", furious="six_extra", poison="", rending="ap_plus4_no_regen", impact="dice_front",
    relentless="over9", regeneration_all_models=True, deadly_first=True, destroyed_loses=True,
    musician_wound=False, banner_morale=True, sergeant="six_extra", rows=True, flanking=True,
    phalanx=False, counter=True, lance=False, thrust=True, bane=True, surge=True,
    unstoppable=True, takedown=True, sniper=False, lock_on=False, aircraft=False,
    entrenched=False, reliable=True,
    modelled=_COMMON | {"Artillery", "Bane", "Counter", "Relentless", "Reliable", "Surge", "Takedown", "Thrust",
                        "Unstoppable", "Sergeant", "Banner"},
)

# rulebook number -> dialect (a system's ``rulebook`` file name starts with it)
DIALECTS: dict[str, Dialect] = {d.code: d for d in (AOF, GF, AOFR)}


def dialect_for(system: GameSystem) -> Dialect:
    dialect = DIALECTS.get(system.rulebook[:3])
    if dialect is None:
        raise PreviewError("system", f"no OPR combat rules for rulebook {system.rulebook!r}")
    return dialect


# --------------------------------------------------------------------------------------------
# The situation


@dataclass(frozen=True)
class SideState:
    shaken: bool = False
    fatigued: bool = False
    models_lost: int = 0
    wounds_taken: int = 0
    moved: bool = False


@dataclass(frozen=True)
class Pick:
    """Which defender model the attacker's Sniper/Takedown groups go at (``situation.pick``).

    000/001 Sniper and 002 Takedown let the attacker choose the model; the usual choice is a
    joined hero, whom the other weapons only reach last. The default is the next model in the
    wound order, so a preview without a pick reads as it always did.
    """

    hero: int | str | None = None  # a joined hero: index into the defender's heroes, or its name
    model: int = 0  # otherwise: place among the models still standing, in wound order (0 = next)
    where: str = "situation.pick"  # the request field to blame for a pick that names no model

    @classmethod
    def of(cls, raw: Any) -> Pick:
        """The request's forms: absent/"next", "hero", {"hero": index or name}, {"model": n}."""
        if raw is None or raw == "next":
            return cls()
        if raw == "hero":
            return cls(hero=0)
        if isinstance(raw, Mapping) and len(raw) == 1 and "hero" in raw:
            return cls(hero=raw["hero"], where="situation.pick.hero")
        if isinstance(raw, Mapping) and len(raw) == 1 and isinstance(raw.get("model"), int):
            return cls(model=raw["model"], where="situation.pick.model")
        raise PreviewError("situation.pick", 'pick is "next", "hero", {"hero": index or name} or {"model": place}')

    @property
    def is_default(self) -> bool:
        return self.hero is None and self.model == 0


@dataclass(frozen=True)
class Situation:
    """How the fight happens; built from the request's ``situation`` after its schema."""

    attack: str = "shooting"
    charging: bool = False
    range: int | None = None
    hold: bool = True
    cover: bool = False
    strike_back: bool = True
    facing: str = "front"
    attacker: SideState = SideState()
    defender: SideState = SideState()
    weapons: tuple[str, ...] | None = None
    pick: Pick = Pick()

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Situation:
        def side(raw: Any) -> SideState:
            raw = raw or {}
            return SideState(**{k: raw[k] for k in ("shaken", "fatigued", "models_lost", "wounds_taken", "moved") if k in raw})

        weapons = data.get("weapons")
        return cls(
            attack=data.get("attack", "shooting"),
            charging=bool(data.get("charging", False)),
            range=data.get("range"),
            hold=bool(data.get("hold", True)),
            cover=bool(data.get("cover", False)),
            strike_back=bool(data.get("strike_back", True)),
            facing=data.get("facing") or "front",
            attacker=side(data.get("attacker")),
            defender=side(data.get("defender")),
            weapons=tuple(weapons) if weapons else None,
            pick=Pick.of(data.get("pick")),
        )

    @property
    def melee(self) -> bool:
        return self.attack == "melee"


# --------------------------------------------------------------------------------------------
# Weapon groups


@dataclass(frozen=True)
class Group:
    """One weapon type fired (or swung) together: everything its dice need."""

    label: str
    owner: int  # -1: the unit's own models; i >= 0: joined hero i
    per_copy: int  # attacks per copy of the weapon
    copies: int  # copies at full strength
    owner_models: int  # models of the owner at full strength
    quality: int
    hit_mod: int = 0
    six_only: bool = False  # fatigue / Wavering: only unmodified 6s hit
    six_hits: int = 1  # hits a natural 6 becomes, all counting as 6s (000 Poison: 3)
    six_extra: int = 0  # extra plain hits per natural 6 (Furious, Relentless, Surge, Sergeant)
    auto: bool = False  # every attack is a hit (000 Impact)
    blast: int = 1
    ap: int = 0
    six_ap: int = 0
    reroll_def6: bool = False  # 001 Poison / 002 Bane: re-roll unmodified Defense 6s
    regen_mod: int = 0  # 001 Poison / Rending: -1 to Regeneration rolls
    no_regen: bool = False  # 002 Bane / Rending / Unstoppable
    six_no_regen: bool = False  # 000 Rending: the 6s ignore Regeneration
    deadly: int = 1
    single_model: bool = False  # Sniper / Takedown: one model, as a unit of 1
    ignores_cover: bool = False
    minus: int = 0  # attacks taken away from the group's total (Counter against Impact)
    sergeant_split: bool = False  # one copy fights separately as the sergeant
    sergeant_only: bool = False  # this group is the sergeant's copy
    order: int = 2

    def attacks(self, unit_alive: int, heroes_alive: tuple[int, ...]) -> int:
        """Attacks this group makes with the models still standing."""
        if self.owner >= 0:
            copies = self.copies if self.owner in heroes_alive else 0
        elif self.sergeant_only:
            copies = 1 if unit_alive >= 1 else 0
        elif self.sergeant_split:
            copies = min(self.copies - 1, max(0, unit_alive - 1))
        elif self.copies >= self.owner_models:
            # Interpretation: gear carried by every model (or several per model) is lost with
            # the models; casualties are taken from plain models before special weapons.
            copies = self.copies * unit_alive // self.owner_models
        else:
            copies = min(self.copies, unit_alive)
        return max(0, copies * self.per_copy - self.minus)


# --------------------------------------------------------------------------------------------
# Where a side can end up


@dataclass(frozen=True)
class Outcomes:
    """The states a side can end an attack in, as integer keys.

    Normally that is a position on the side's one wound line (key = position). After a
    Sniper/Takedown pick, the picked model may be left with any number of wounds, which no
    single position can express; each of those outcomes gets its own line, and the lines share
    one key space (key = the line's offset + position). Every reader of a result goes through
    :meth:`locate`, so the rest of the engine works on (line, position) pairs either way.
    """

    lines: tuple[WoundLine, ...]
    offsets: tuple[int, ...]
    dealt: tuple[int, ...]  # wounds this attack dealt, minus the position, on each line
    alive_before: int  # models standing before this attack

    @classmethod
    def one_line(cls, line: WoundLine, start: int) -> Outcomes:
        return cls((line,), (0,), (-start,), line.alive(start))

    @classmethod
    def of(cls, lines: list[WoundLine], dealt: list[int], alive_before: int) -> Outcomes:
        offsets, total = [], 0
        for line in lines:
            offsets.append(total)
            total += line.end + 1
        return cls(tuple(lines), tuple(offsets), tuple(dealt), alive_before)

    @property
    def untouched(self) -> int:
        """The key of the state the attack found the side in (no wounds dealt)."""
        return self.offsets[0] - self.dealt[0]

    def key(self, index: int, p: int) -> int:
        return self.offsets[index] + p

    def line_index(self, key: int) -> int:
        return bisect_right(self.offsets, key) - 1

    def locate(self, key: int) -> tuple[WoundLine, int]:
        """The line and position a key stands for."""
        if len(self.lines) == 1:
            return self.lines[0], key
        i = self.line_index(key)
        return self.lines[i], key - self.offsets[i]

    def wounds(self, key: int) -> int:
        i = self.line_index(key)
        return self.dealt[i] + key - self.offsets[i]

    def killed(self, key: int) -> int:
        line, p = self.locate(key)
        return self.alive_before - line.alive(p)

    def destroyed(self, key: int) -> bool:
        line, p = self.locate(key)
        return p >= line.end


def _rating(rules: Iterable[RuleRef], name: str) -> int:
    return rule_rating(rules, name, 0)


def _has(rules: Iterable[RuleRef], name: str) -> bool:
    return any(r.name == name for r in rules)


# --------------------------------------------------------------------------------------------
# Engine entry point


def engine(system: GameSystem, attacker: Combatant, defender: Combatant, situation: Mapping[str, Any]) -> dict[str, Any]:
    """The OPR family's preview: see :mod:`listbuilder.combat.service` for the shape."""
    dialect = dialect_for(system)
    sit = Situation.of(situation)
    return Preview(dialect, fighter_from(attacker), fighter_from(defender), sit).run()


def preview_fighters(dialect: Dialect, attacker: Fighter, defender: Fighter, situation: Situation) -> dict[str, Any]:
    """The same, for callers (tests, benchmark) that build fighters directly."""
    return Preview(dialect, attacker, defender, situation).run()


class Preview:
    """One preview: builds the groups, runs the dice, reads off the consequences."""

    def __init__(self, dialect: Dialect, attacker: Fighter, defender: Fighter, situation: Situation):
        self.d = dialect
        self.att = attacker
        self.dfn = defender
        self.sit = situation
        self.notes: list[str] = []
        self.line_a = wound_line(attacker)
        self.line_d = wound_line(defender)
        self.start_a = self._start(self.line_a, situation.attacker, "attacker")
        self.start_d = self._start(self.line_d, situation.defender, "defender")
        self._check()
        self.pick_at = self._pick_at()  # where the picked model stands on the defender's line
        self.picked: int | None = None  # pick_at while a pick moves shots off the wound order
        self.pick_ends: tuple[int, ...] = ()  # per outcome line: where the picked model falls
        self.out_d = Outcomes.one_line(self.line_d, self.start_d)
        self._alone_cache: dict[int, Fighter] = {}

    # -- set-up ------------------------------------------------------------------------------

    def _start(self, line: WoundLine, state: SideState, side: str) -> int:
        if state.models_lost >= line.models:
            raise PreviewError(f"situation.{side}.models_lost", f"the {side} has {line.models} models; {state.models_lost} lost leaves none")
        room = line.tough[state.models_lost]
        if state.wounds_taken >= room:
            raise PreviewError(f"situation.{side}.wounds_taken", f"the next {side} model takes {room} wound(s) to kill; {state.wounds_taken} would have killed it")
        return line.position(state.models_lost, state.wounds_taken)

    def _check(self) -> None:
        sit = self.sit
        if sit.attacker.shaken:
            # 000 Wavering / 001 / 002 Shaken: the unit spends its activation idle.
            raise PreviewError("situation.attacker.shaken", f"a {self.d.shaken} unit stays idle: it can neither shoot nor charge")
        if not sit.melee and sit.charging:
            raise PreviewError("situation.charging", "charging is a melee situation; use attack: melee")
        if sit.melee and sit.range is not None:
            raise PreviewError("situation.range", "range is for shooting; melee is fought in base contact")
        if sit.facing not in ("front", "flank", "rear"):
            raise PreviewError("situation.facing", "facing is front, flank or rear")
        names = {w.name for f in self.att.all_members for w in f.weapons}
        for name in sit.weapons or ():
            if name not in names:
                raise PreviewError("situation.weapons", f"the attacker has no weapon {name!r}; it has {sorted(names)}")
        seen = set()
        for f in (self.att, self.dfn):
            for member in f.all_members:
                for rule in (*member.rules, *(r for w in member.weapons for r in w.rules)):
                    if rule.name not in self.d.modelled and rule.name not in _NO_COMBAT_EFFECT and rule.name not in seen:
                        seen.add(rule.name)
                        self.notes.append(f"{rule.name}: not modelled in previews for {self.d.name}; ignored")

    def _pick_at(self) -> int:
        """Where on the defender's line the picked model stands (the next model by default).

        000/001 Sniper, 002 Takedown: the attacker may pick any model of the target unit.
        """
        pick, line = self.sit.pick, self.line_d
        first = line.model_at(self.start_d)
        if pick.hero is not None:
            index = self._hero_index(pick)
            standing = [j for j in range(max(first, line.unit_models), line.models) if line.hero_index[j - line.unit_models] == index]
            if not standing:
                raise PreviewError(pick.where, f"{self.dfn.heroes[index].name} is already lost (situation.defender.models_lost)")
            spot = standing[0]
        else:
            if isinstance(pick.model, bool) or not isinstance(pick.model, int) or pick.model < 0:
                raise PreviewError(pick.where, "a model's place is a whole number, 0 for the next model to take wounds")
            spot = first + pick.model
            if spot >= line.models:
                raise PreviewError(pick.where, f"{self.dfn.name} has {line.models - first} model(s) standing: places 0 to {line.models - first - 1} (0 = the next to take wounds)")
        return spot

    def _hero_index(self, pick: Pick) -> int:
        """The joined hero a pick names, by index or by name."""
        heroes = self.dfn.heroes
        if not heroes:
            raise PreviewError(pick.where, f"{self.dfn.name} has no joined hero to pick")
        if isinstance(pick.hero, str):
            names = [h.name for h in heroes]
            found = [i for i, name in enumerate(names) if name.casefold() == pick.hero.casefold()]
            if not found:
                raise PreviewError(pick.where, f"{self.dfn.name} has no joined hero {pick.hero!r}; it has {names}")
            return found[0]
        if isinstance(pick.hero, bool) or not isinstance(pick.hero, int) or not 0 <= pick.hero < len(heroes):
            raise PreviewError(pick.where, f"{self.dfn.name} has {len(heroes)} joined hero(es): index 0 to {len(heroes) - 1}, or a name")
        return pick.hero

    # -- conditions ----------------------------------------------------------------------

    def _charged(self) -> bool:
        """Charging for special rules: 000 Phalanx takes the charge bonus away."""
        if not self.sit.charging:
            return False
        if self.d.phalanx and self.dfn.has("Phalanx") and all(h.has("Phalanx") for h in self.dfn.heroes):
            # 000 Phalanx: enemies charging it don't count as having charged for special rules.
            return False
        return True

    def _over(self, inches: int) -> bool:
        return self.sit.range is not None and self.sit.range > inches

    def _all_have(self, fighter: Fighter, name: str) -> bool:
        return fighter.has(name) and all(h.has(name) for h in fighter.heroes)

    # -- groups ----------------------------------------------------------------------------

    def _weapons_for(self, fighter: Fighter, owner: int) -> list[Group]:
        """The fighter's weapons usable in this attack, as groups with every modifier."""
        d, sit = self.d, self.sit
        groups: list[Group] = []
        for weapon in fighter.weapons:
            if sit.weapons is not None and weapon.name not in sit.weapons:
                continue
            if sit.melee != weapon.is_melee:
                continue
            if not sit.melee and sit.range is not None and sit.range > self._reach(weapon):
                continue
            groups.append(self._group(fighter, owner, weapon))
        return groups

    def _reach(self, weapon: Weapon) -> int:
        if self.d.aircraft and self._all_have(self.dfn, "Aircraft") and not (self.d.lock_on and _has(weapon.rules, "Lock-On")):
            return weapon.range - 12  # 001 Aircraft: units targeting it get -12" range
        return weapon.range

    def _group(self, fighter: Fighter, owner: int, weapon: Weapon, *, striking_back: bool = False) -> Group:
        d, sit = self.d, self.sit
        rules = weapon.rules
        charged = self._charged() and not striking_back
        melee = sit.melee
        quality = fighter.quality
        mod = 0
        if d.reliable and _has(rules, "Reliable"):
            quality = 2  # 001/002 Reliable: attacks at Quality 2+
        sniper = (d.sniper and _has(rules, "Sniper")) and not melee
        if sniper:
            quality = 2  # 000/001 Sniper: Quality 2+, one picked model, resolved as a unit of 1
        takedown = d.takedown and _has(rules, "Takedown")  # 002 Takedown: a picked model as a unit of 1
        defender = self.att if striking_back else self.dfn
        ignores_cover = _has(rules, "Blast") or (d.lock_on and _has(rules, "Lock-On"))  # 000/001/002 Blast, 001 Lock-On: ignore cover
        if not melee:
            if sit.cover and d.cover == "hit" and not ignores_cover:
                mod -= 1  # 000 Cover Terrain: shooters get -1 to hit
            if d.stealth_over is None and defender.has("Stealth"):
                mod -= 1  # 000 Stealth: -1 to hit when shooting at it
            elif d.stealth_over is not None and self._over(d.stealth_over) and self._all_have(defender, "Stealth"):
                mod -= 1  # 001 Stealth (over 12") / 002 Stealth (over 9"): -1 to hit, all models must have it
            if d.artillery == "ranged9" and self._over(9):
                if fighter.has("Artillery"):
                    mod += 1  # 002 Artillery: +1 to hit when shooting at enemies over 9" away
                if defender.has("Artillery"):
                    mod -= 2  # 002 Artillery: enemies shooting at it from over 9" get -2 to hit
            if _has(rules, "Indirect") and not sit.hold:
                mod -= 1  # 000/001/002 Indirect: -1 to hit when shooting after moving
            if d.aircraft and self._all_have(defender, "Aircraft"):
                mod -= 1  # 001 Aircraft: units targeting it get -1 to hit
            if d.entrenched and defender.has("Entrenched") and self._over(12) and not sit.defender.moved:
                mod -= 2  # 001 Entrenched: -2 to hit from over 12" if it has not moved
        if melee and charged and d.thrust and _has(rules, "Thrust"):
            mod += 1  # 002 Thrust: +1 to hit when charging
        if d.lock_on and _has(rules, "Lock-On") and mod < 0:
            mod = 0  # 001 Lock-On: ignores all negative modifiers to hit
        if d.unstoppable and _has(rules, "Unstoppable") and mod < 0:
            mod = 0  # 002 Unstoppable: ignores all negative modifiers to this weapon
        six_hits, six_extra = 1, 0
        if d.poison == "six_x3" and _has(rules, "Poison"):
            six_hits = 3  # 000 Poison: an unmodified 6 to hit is multiplied by 3
        if melee and charged and d.furious == "six_extra" and fighter.has("Furious"):
            six_extra += 1  # 001/002 Furious: charging, unmodified 6s to hit in melee add a hit
        if not melee and (fighter.has("Relentless") or _has(rules, "Relentless")):
            if not melee and d.relentless == "hold" and sit.hold:
                six_extra += 1  # 001 Relentless: Hold and shoot, unmodified 6s add a hit
            elif not melee and d.relentless == "over9" and self._over(9):
                six_extra += 1  # 002 Relentless: shooting over 9", unmodified 6s add a hit
        if d.surge and _has(rules, "Surge"):
            six_extra += 1  # 002 Surge: unmodified 6s to hit deal 1 extra hit
        ap = _rating(rules, "AP")
        if melee and charged and d.lance and _has(rules, "Lance"):
            ap += 2  # 001 Lance: AP(+2) when charging
        if melee and charged and d.thrust and _has(rules, "Thrust"):
            ap += 1  # 002 Thrust: AP(+1) in melee when charging
        six_ap, regen_mod, no_regen, six_no_regen, reroll6 = ap, 0, False, False, False
        if _has(rules, "Rending"):
            if d.rending == "ap4_no_regen":
                six_ap, six_no_regen = max(ap, 4), True  # 000 Rending: a 6 to hit has AP(4) and ignores Regeneration
            elif d.rending == "ap4_regen_minus1":
                six_ap, regen_mod = max(ap, 4), regen_mod - 1  # 001 Rending: a 6 to hit has AP(4); -1 to Regeneration
            else:
                six_ap, no_regen = ap + 4, True  # 002 Rending: 6s to hit get AP(+4); ignores Regeneration
        if d.poison == "regen_reroll6" and _has(rules, "Poison"):
            regen_mod -= 1  # 001 Poison: -1 to Regeneration rolls ...
            reroll6 = True  # ... and Defense rolls of 6 must be re-rolled
        if d.bane and _has(rules, "Bane"):
            no_regen, reroll6 = True, True  # 002 Bane: ignores Regeneration, Defense 6s re-rolled
        if d.unstoppable and _has(rules, "Unstoppable"):
            no_regen = True  # 002 Unstoppable: ignores Regeneration
        fatigued = melee and (self.sit.defender.fatigued or self.sit.defender.shaken if striking_back else self.sit.attacker.fatigued)
        order = 0 if (sniper or takedown) else (1 if (d.deadly_first and _rating(rules, "Deadly") > 1) else 3)
        return Group(
            label=f"{fighter.name}: {weapon.name}", owner=owner, per_copy=weapon.attacks,
            copies=weapon.count, owner_models=fighter.models, quality=quality, hit_mod=mod,
            six_only=fatigued,  # 000/001/002 Fatigue & Wavering/Shaken: only unmodified 6s hit in melee
            six_hits=six_hits, six_extra=six_extra, blast=max(1, _rating(rules, "Blast")), ap=ap,
            six_ap=six_ap, reroll_def6=reroll6, regen_mod=regen_mod, no_regen=no_regen,
            six_no_regen=six_no_regen, deadly=max(1, _rating(rules, "Deadly")),
            single_model=sniper or takedown, ignores_cover=ignores_cover, order=order,
        )

    def _attack_groups(self, attacker: Fighter, *, striking_back: bool = False, counter: str = "all") -> list[Group]:
        """Every group of one side's attack; ``counter`` = all | only | without (Counter weapons)."""
        groups: list[Group] = []
        for owner, member in ((-1, attacker), *enumerate(attacker.heroes)):
            for weapon in member.weapons:
                if self.sit.melee != weapon.is_melee:
                    continue
                if not striking_back and self.sit.weapons is not None and weapon.name not in self.sit.weapons:
                    continue
                if not striking_back and not self.sit.melee and self.sit.range is not None and self.sit.range > self._reach(weapon):
                    continue
                is_counter = self.d.counter and _has(weapon.rules, "Counter")
                if (counter == "only" and not is_counter) or (counter == "without" and is_counter):
                    continue
                groups.append(self._group(member, owner, weapon, striking_back=striking_back))
        groups = self._furious_000(attacker, groups, striking_back)
        groups = self._sergeant(attacker, groups, striking_back)
        groups.sort(key=lambda g: g.order)
        return groups

    def _furious_000(self, attacker: Fighter, groups: list[Group], striking_back: bool) -> list[Group]:
        if self.d.furious != "extra_attack" or striking_back or not self.sit.melee or not self._charged():
            return groups
        # 000 Furious: charging, each model gets +1 attack with a weapon of its choice.
        # Interpretation: the extra attack goes to the model's melee weapon with the most AP.
        out = list(groups)
        for owner, member in ((-1, attacker), *enumerate(attacker.heroes)):
            if not member.has("Furious"):
                continue
            mine = [g for g in out if g.owner == owner]
            if not mine:
                continue
            best = max(mine, key=lambda g: (g.ap, g.deadly, g.six_ap))
            out.append(replace(best, label=f"{best.label} (Furious)", per_copy=1, copies=member.models, sergeant_split=False, sergeant_only=False))
        return out

    def _sergeant(self, attacker: Fighter, groups: list[Group], striking_back: bool) -> list[Group]:
        if not self.d.sergeant or not attacker.has("Sergeant"):
            return groups
        unit_groups = [g for g in groups if g.owner == -1 and not g.label.endswith("(Furious)") and g.copies <= g.owner_models]
        if not unit_groups:
            return groups
        # Interpretation: the sergeant carries one copy of the unit's first weapon in this attack.
        first = unit_groups[0]
        if self.d.sergeant == "plus1":
            sergeant = replace(first, label=f"{first.label} (Sergeant)", copies=1, sergeant_only=True, hit_mod=first.hit_mod + 1)  # 000 Sergeant: one model +1 to hit
        else:
            sergeant = replace(first, label=f"{first.label} (Sergeant)", copies=1, sergeant_only=True, six_extra=first.six_extra + 1)  # 002 Sergeant: its 6s to hit deal 1 extra hit
        return [replace(g, sergeant_split=True) if g is first else g for g in groups] + [sergeant]

    def _impact_groups(self, attacker: Fighter) -> list[Group]:
        """Impact hits of a charge (000 automatic hits, 001 attacks at 2+, 002 dice on 2+)."""
        if not self.sit.melee or not self._charged():
            return []
        if self.d.impact == "dice_front" and self.sit.attacker.fatigued:
            return []  # 002 Impact: no Impact dice when fatigued
        minus = 0
        if self.d.counter:
            counters = sum(w.count for m in self.dfn.all_members for w in m.weapons if _has(w.rules, "Counter"))
            if self.d.rows:
                counters = min(counters, 2 * _row_width(self.dfn.models))
                if self.sit.facing != "front":
                    counters = 0  # 002 Counter: only against a charge in the front
            minus = counters  # 001/002 Counter: the charger gets -1 Impact per model with Counter
        groups: list[Group] = []
        for owner, member in ((-1, attacker), *enumerate(attacker.heroes)):
            x = member.rating("Impact")
            if x <= 0:
                continue
            label = f"{member.name}: Impact"
            if self.d.impact == "auto":
                # 000 Impact(X): X automatic hits per charging model
                groups.append(Group(label, owner, x, member.models, member.models, 2, auto=True, order=2))
            else:
                six_only = self.d.impact == "q2" and self.sit.attacker.fatigued
                # 001 Impact(X): X attacks hitting on 2+ / 002 Impact(X): X dice, each 2+ is a hit
                groups.append(Group(label, owner, x, member.models, member.models, 2, six_only=six_only, minus=minus, order=2))
                minus = 0  # the Counter reduction comes off the unit's total once
        return groups

    # -- the pick (000/001 Sniper, 002 Takedown) --------------------------------------------

    def _use_pick(self, groups: list[Group]) -> None:
        """Turn the pick on for this attack, or note that no weapon in it can use a pick.

        A pick of the next model changes nothing but is still reported; any other model gets
        its own outcome lines (see :class:`Outcomes`).
        """
        if self.sit.pick.is_default:
            return
        if not any(g.single_model for g in groups):
            rule = "Sniper" if self.d.sniper else "Takedown"
            self.notes.append(f"pick: no {rule} weapon attacks here, so every hit follows the wound order; ignored")
            return
        m = self.pick_at
        if m == self.line_d.model_at(self.start_d):
            self.pick_ends = (self.line_d.ends[m],)
            return
        tough = self.line_d.tough[m]
        built = [self._line_with(m, tough - w) for w in range(tough)] + [self._line_with(m, 0)]
        self.picked = m
        self.pick_ends = tuple(end for _, end in built)
        self.out_d = Outcomes.of([line for line, _ in built], list(range(tough)) + [tough], self.line_d.alive(self.start_d))

    def _pick_report(self, ends: Dist) -> dict[str, Any]:
        """Who was picked and the chance this attack left it dead (the reason to pick it)."""
        if not self.pick_ends:
            return {}
        where, m = self.out_d, self.pick_at
        dead = 0.0
        for k, w in ends.items():
            _, p = where.locate(k)
            if p >= self.pick_ends[where.line_index(k)]:
                dead += w
        owner = self._owner(self.dfn, self.line_d, m)
        return {"pick": {"name": owner.name, "hero": m >= self.line_d.unit_models,
                         "place": m - self.line_d.model_at(self.start_d), "p_killed": dead}}

    def _line_with(self, m: int, left_on_m: int) -> tuple[WoundLine, int]:
        """The defender's line at its start, but with model m left with *left_on_m* wounds to
        take; and the position at which m falls on it.

        Models already gone go first as zero-wound entries, counted with the unit's own models,
        so the line still knows the starting size and which members stand. Then the unit's
        models, most-wounded first, then the heroes, most-wounded first (000/001/002 Tough:
        wounds go on the most-wounded tough model; heroes are assigned wounds last, even if
        wounded).
        """
        line, start = self.line_d, self.start_d
        current = line.model_at(start)
        left = [0] * current + [line.model_end(start) - start] + list(line.tough[current + 1:])
        left[m] = left_on_m
        taken = [line.tough[i] - left[i] for i in range(line.models)]
        gone = [i for i in range(line.models) if left[i] == 0]
        unit = sorted((i for i in range(line.unit_models) if left[i]), key=lambda i: -taken[i])
        heroes = sorted((i for i in range(line.unit_models, line.models) if left[i]), key=lambda i: -taken[i])
        order = gone + unit + heroes
        built = WoundLine(tuple(left[i] for i in order), len(gone) + len(unit),
                          tuple(line.hero_index[i - line.unit_models] for i in heroes))
        return built, built.ends[order.index(m)]

    def _strike_defender(self, groups: list[Group], pa: int, shooting: bool) -> tuple[Dist, Dist]:
        """The attacker (at pa) strikes the defender from its start: (hits, keys of ``self.out_d``)."""
        if self.picked is None:
            return self.strike(groups, self.att, self.line_a, pa, self.dfn, self.line_d, Dist.constant(self.start_d), shooting)
        return self._strike_at_pick(groups, pa, shooting)

    def _strike_at_pick(self, groups: list[Group], pa: int, shooting: bool) -> tuple[Dist, Dist]:
        """The attack with a picked model.

        The Sniper/Takedown groups go first, at the picked model alone. Then, for each number
        of wounds they left on it (or with it gone), the other groups hit the unit in the usual
        wound order, and the results are mixed with their weights. Hits of the two steps are
        independent once the state between them is known, so their sum is a convolution.
        """
        out = self.out_d
        unit_alive, heroes_alive = self._strikers(self.att, self.line_a, pa)
        first: dict[int, dict[int, float]] = {}  # outcome key -> {hits so far: weight}
        singles = [g for g in groups if g.single_model]
        for (h, key), w in self._pick_groups(singles, unit_alive, heroes_alive, shooting).items():
            by_hits = first.setdefault(key, {})
            by_hits[h] = by_hits.get(h, 0.0) + w
        rest = [g for g in groups if not g.single_model]
        hits_mix: list[tuple[float, Dist]] = []
        ends: dict[int, float] = {}
        for key, by_hits in first.items():
            weight = sum(by_hits.values())
            line, p = out.locate(key)
            rest_hits, rest_ends = self.strike(rest, self.att, self.line_a, pa, self.dfn, line, Dist.constant(p), shooting)
            hits_mix.append((weight, Dist({h: w / weight for h, w in by_hits.items()}) + rest_hits))
            for q, wq in rest_ends.items():
                ends[key - p + q] = ends.get(key - p + q, 0.0) + weight * wq
        return Dist.mixture(hits_mix), Dist(ends)

    def _pick_groups(self, singles: list[Group], unit_alive: int, heroes_alive: tuple[int, ...], shooting: bool) -> dict[tuple[int, int], float]:
        """(hits, outcome key) after the Sniper/Takedown groups.

        000/001 Sniper, 002 Takedown: the picked model as a unit of 1 - its own one-model line,
        so Blast makes one hit, Deadly stops at its last wound and nothing carries over. Once
        it has fallen, a later such group picks the next model in the wound order, as it would
        without a pick.
        """
        out, m = self.out_d, self.picked
        assert m is not None
        tough = self.line_d.tough[m]
        alone = self._alone(self._owner(self.dfn, self.line_d, m))
        own = WoundLine((tough,), 1)
        gone_i = len(out.lines) - 1
        without = out.lines[gone_i]
        s_own, s_without = tough + 1, without.end + 1
        on_model: dict[int, float] = {0: 1.0}  # hits * s_own + wounds on the picked model
        gone: dict[int, float] = {}  # hits * s_without + position on the line without it
        for g in singles:
            n = g.attacks(unit_alive, heroes_alive)
            if n <= 0:
                continue
            if gone:
                gone = self._apply_group(g, n, self.dfn, without, gone, s_without, shooting)
            still: dict[int, float] = {}
            for k, w in self._apply_group(g, n, alone, own, on_model, s_own, shooting).items():
                h, wounds = divmod(k, s_own)
                if wounds >= tough:
                    gone[h * s_without] = gone.get(h * s_without, 0.0) + w
                else:
                    still[k] = still.get(k, 0.0) + w
            on_model = still
        result: dict[tuple[int, int], float] = {}
        for states, s, line_of in ((on_model, s_own, lambda p: out.key(p, 0)), (gone, s_without, lambda p: out.key(gone_i, p))):
            for k, w in states.items():
                h, p = divmod(k, s)
                result[(h, line_of(p))] = result.get((h, line_of(p)), 0.0) + w
        return result

    # -- dice ------------------------------------------------------------------------------

    def _strikers(self, fighter: Fighter, line: WoundLine, p: int) -> tuple[int, tuple[int, ...]]:
        unit_alive = line.unit_alive(p)
        if self.d.rows and self.sit.melee:
            # 002 Melee: models in the two front rows strike
            unit_alive = min(unit_alive, 2 * _row_width(fighter.models))
        return unit_alive, line.heroes_alive(p)

    def strike(self, groups: list[Group], attacker: Fighter, line_a: WoundLine, pa: int, defender: Fighter,
               line_d: WoundLine, start: Dist, shooting: bool) -> tuple[Dist, Dist]:
        """Resolve *groups* in order; returns (hits, defender positions) distributions.

        The state is a position on the defender's line. When a later group has Blast, its cap
        depends on what earlier groups killed, so hits are carried along (key hits*S + position)
        to keep the hits distribution exact.
        """
        unit_alive, heroes_alive = self._strikers(attacker, line_a, pa)
        S = line_d.end + 1
        track = len(groups) > 1 and any(g.blast > 1 for g in groups[1:])
        state: dict[int, float] = dict(start.items())
        hits = Dist.constant(0)
        for g in groups:
            n = g.attacks(unit_alive, heroes_alive)
            if n <= 0:
                continue
            if not track:
                first = next(iter(state))
                hits = hits + self._hits_only(g, n, line_d.alive(first))
            state = self._apply_group(g, n, defender, line_d, state, S if track else 0, shooting)
        ends = Dist(state)
        if track:
            return ends.map(lambda k: k // S), ends.map(lambda k: k % S)
        return hits, ends

    def _apply_group(self, g: Group, n: int, defender: Fighter, line: WoundLine, state: dict[int, float], S: int, shooting: bool) -> dict[int, float]:
        """One group from every state; keys are positions, or hits*S + position when S > 0."""
        out: dict[int, float] = {}
        batches: dict[tuple[Any, ...], dict[int, float]] = {}
        p6, pn = self._hit_chances(g)
        for k, w in state.items():
            p = k % S if S else k
            if p >= line.end:
                out[k] = out.get(k, 0.0) + w  # nothing left to hit
                continue
            blast = min(g.blast, 1 if g.single_model else line.alive(p))  # Blast(X): never more hits than models
            if g.single_model:
                # 000/001 Sniper, 002 Takedown: resolved as a unit of 1, so the model blocks with
                # its own Defense and rolls its own Regeneration (interpretation 8)
                target = self._alone(self._owner(defender, line, line.model_at(p)))
                regen: tuple[float, float] | None = (self._regen_roll(target.has("Regeneration"), g, "plain"),
                                                     self._regen_roll(target.has("Regeneration"), g, "six"))
            else:
                target = self._target(defender, line, p, g)
                regen = self._regen_profile(defender, line, p, g)
            block_plain = self._block(target, g.ap, g, shooting)
            block_six = self._block(target, g.six_ap, g, shooting)
            cap = line.model_end(p) if g.single_model else line.end
            if regen is None:
                # Regeneration differs along the line (a hero without it, or 002's all-models
                # rule): batch these states and let each wound roll for the model it reaches.
                batches.setdefault((blast, id(target), block_plain, block_six, cap), {})[k] = w
                continue
            r_plain, r_six = regen
            q_plain = (1 - block_plain) * (1 - r_plain)
            q_six = (1 - block_six) * (1 - r_six)
            if S:
                dist = _group_2d(p6, pn, g.six_hits, g.six_extra, blast, q_six, q_plain, g.auto, n)
                base = (k // S) * S
                for x, px in dist.items():
                    key = base + (x // B) * S + _advance(line, p, x % B, g.deadly, cap)
                    out[key] = out.get(key, 0.0) + w * px
            else:
                dist = _wounds_only(_per_attack(p6, pn, g.six_hits, g.six_extra, blast, q_six, q_plain, g.auto)).repeat(n)
                for e, pe in dist.items():
                    key = _advance(line, p, e, g.deadly, cap)
                    out[key] = out.get(key, 0.0) + w * pe
        for (blast, _, block_plain, block_six, cap), sub in batches.items():
            for key, w in self._wound_by_wound(g, n, defender, line, sub, S, p6, pn, blast, block_plain, block_six, cap).items():
                out[key] = out.get(key, 0.0) + w
        return out

    def _wound_by_wound(self, g: Group, n: int, defender: Fighter, line: WoundLine, sub: dict[int, float], S: int,
                        p6: float, pn: float, blast: int, block_plain: float, block_six: float, cap: int) -> dict[int, float]:
        """Raw wounds applied one at a time to a batch of states, Regeneration model by model.

        With R raw wounds, the result is sum_k P(R = k) * (state after k single-wound steps), so
        one pass of single-wound steps serves every k. 000 Rending 6s (which ignore
        Regeneration) are stepped first, separately.
        """
        kinds_differ = g.six_no_regen
        if kinds_differ:
            raw = _per_attack_raw(p6, pn, g.six_hits, g.six_extra, blast, 1 - block_six, 1 - block_plain, g.auto).repeat(n)
            split = [((x // (B * B)) if S else 0, (x // B) % B, x % B, px) for x, px in raw.items()]
        elif S:
            raw = _group_2d(p6, pn, g.six_hits, g.six_extra, blast, 1 - block_six, 1 - block_plain, g.auto, n)
            split = [(x // B, 0, x % B, px) for x, px in raw.items()]
        else:
            raw = _wounds_only(_per_attack(p6, pn, g.six_hits, g.six_extra, blast, 1 - block_six, 1 - block_plain, g.auto)).repeat(n)
            split = [(0, 0, x, px) for x, px in raw.items()]
        grouped: dict[tuple[int, int], dict[int, float]] = {}
        for h, six, plain, px in split:
            grouped.setdefault((h, six), {})[plain] = grouped.get((h, six), {}).get(plain, 0.0) + px
        out: dict[int, float] = {}
        after_six: list[dict[int, float]] = [dict(sub)]
        for (h, six), plains in sorted(grouped.items()):
            while len(after_six) <= six:
                after_six.append(self._step(defender, line, g, after_six[-1], S, cap, "six"))
            cur = after_six[six]
            top = max(plains)
            for k in range(top + 1):
                weight = plains.get(k, 0.0)
                if weight > 0.0:
                    shift = h * S
                    for key, w in cur.items():
                        out[key + shift] = out.get(key + shift, 0.0) + w * weight
                if k < top:
                    cur = self._step(defender, line, g, cur, S, cap, "plain")
        return out

    def _step(self, defender: Fighter, line: WoundLine, g: Group, cur: dict[int, float], S: int, cap: int, kind: str) -> dict[int, float]:
        """Every state takes one more raw wound (Regeneration rolled by the model it reaches)."""
        nxt: dict[int, float] = {}
        for key, w in cur.items():
            p = key % S if S else key
            if p >= cap:
                nxt[key] = nxt.get(key, 0.0) + w
                continue
            r = self._regen_at(defender, line, p, g, kind)
            moved = key - p + _advance(line, p, 1, g.deadly, cap)
            if r > 0.0:
                nxt[key] = nxt.get(key, 0.0) + w * r
            nxt[moved] = nxt.get(moved, 0.0) + w * (1 - r)
        return nxt

    def _hits_only(self, g: Group, n: int, models_alive: int) -> Dist:
        blast = min(g.blast, 1 if g.single_model else max(1, models_alive))
        return _per_attack(*self._hit_chances(g), g.six_hits, g.six_extra, blast, 0.0, 0.0, g.auto).map(lambda x: x // B).repeat(n)

    def _hit_chances(self, g: Group) -> tuple[float, float]:
        """(chance of a natural 6, chance of another hit) for one attack die."""
        if g.auto:
            return 0.0, 1.0
        if g.six_only:
            return SIX, 0.0
        return SIX, success_chance(g.quality, g.hit_mod) - SIX

    def _target(self, defender: Fighter, line: WoundLine, p: int, g: Group) -> Fighter:
        """Whose Defense blocks: the unit's until its own models are gone (000/001/002 Hero)."""
        if line.unit_alive(p) > 0 or not defender.heroes:
            return defender
        alive = line.heroes_alive(p)
        return defender.heroes[alive[0]] if alive else defender

    def _block(self, target: Fighter, ap: int, g: Group, shooting: bool) -> float:
        d = self.d
        defense = target.defense
        if shooting and d.artillery == "defense2" and target.has("Artillery"):
            defense = 2  # 000 Artillery: Defense 2+ against shooting
        mod = -ap  # AP(X): -X to Defense rolls
        if shooting and self.sit.cover and d.cover == "defense" and not g.ignores_cover:
            mod += 1  # 001/002 Cover Terrain: +1 to Defense rolls against shooting
        block = success_chance(defense, mod)
        if g.reroll_def6:
            block = (block - SIX) + SIX * block  # re-roll unmodified 6s (001 Poison, 002 Bane); a die is re-rolled once
        return block

    @staticmethod
    def _owner(defender: Fighter, line: WoundLine, model: int) -> Fighter:
        """The profile of the model at a place on the line: the unit's, or a joined hero's."""
        return defender if model < line.unit_models else defender.heroes[line.hero_index[model - line.unit_models]]

    def _alone(self, owner: Fighter) -> Fighter:
        """One model of this profile as a unit of 1 of its own (how Sniper/Takedown see it)."""
        alone = self._alone_cache.get(id(owner))
        if alone is None:
            alone = self._alone_cache[id(owner)] = owner if owner.models == 1 and not owner.heroes else replace(owner, models=1, heroes=())
        return alone

    def _regen_has(self, defender: Fighter, line: WoundLine, pos: int) -> bool:
        if self.d.regeneration_all_models:
            # 002 Regeneration: only when all models (of those left) have it
            members = ([defender] if line.unit_alive(pos) > 0 else []) + [defender.heroes[i] for i in line.heroes_alive(pos)]
            return bool(members) and all(m.has("Regeneration") for m in members)
        return self._owner(defender, line, line.model_at(pos)).has("Regeneration")  # 000/001 Regeneration: the model taking the wound rolls

    def _regen_at(self, defender: Fighter, line: WoundLine, pos: int, g: Group, kind: str) -> float:
        return self._regen_roll(self._regen_has(defender, line, pos), g, kind)

    @staticmethod
    def _regen_roll(has: bool, g: Group, kind: str) -> float:
        """Chance one wound of this kind ("plain"/"six") is ignored by a model with or without Regeneration."""
        if not has or g.no_regen or (kind == "six" and g.six_no_regen):
            return 0.0
        return success_chance(5, g.regen_mod)  # Regeneration: each wound is ignored on 5+

    def _regen_profile(self, defender: Fighter, line: WoundLine, p: int, g: Group) -> tuple[float, float] | None:
        """(plain, six) chance a wound is ignored, if the same for every model left; else None."""
        flags = {self._regen_has(defender, line, q) for q in _model_starts(line, p)}
        if len(flags) > 1:
            return None
        return self._regen_at(defender, line, p, g, "plain"), self._regen_at(defender, line, p, g, "six")

    # -- consequences ----------------------------------------------------------------------

    def _morale_fail(self, fighter: Fighter, line: WoundLine, p: int, state: SideState, *, flank: str = "front") -> float:
        """Chance a morale test fails for *fighter* standing at position p."""
        d = self.d
        if state.shaken:
            return 1.0  # Wavering (000) / Shaken (001/002) units automatically fail morale tests
        members = ([fighter] if line.unit_alive(p) > 0 else []) + [fighter.heroes[i] for i in line.heroes_alive(p)]
        if not members:
            return 1.0
        tester = min(members, key=lambda m: m.quality)  # Hero: the unit may test on the hero's Quality
        quality = tester.quality
        mod = 0
        if d.fearless_all_models:
            fearless = all(m.has("Fearless") for m in members)  # 002 Fearless: all models must have it
        else:
            fearless = tester.has("Fearless") or (line.unit_alive(p) > 0 and fighter.has("Fearless"))
        if fearless and d.fearless == "plus1":
            mod += 1  # 000 Fearless: +1 to morale test rolls
        if d.banner_morale and fighter.has("Banner") and line.unit_alive(p) > 0:
            mod += 1  # 002 Banner: +1 to morale test rolls
        if d.flanking and flank != "front":
            mod -= 1 if flank == "flank" else 2  # 002 Flanking: -1 (flank) / -2 (rear) to morale
        fail = 1.0 - success_chance(quality, mod)
        if fearless and d.fearless == "reroll4":
            fail *= 1.0 - success_chance(4)  # 001/002 Fearless: a failed test passes on 4+
        return fail

    def _half_or_less(self, fighter: Fighter, line: WoundLine, p: int) -> bool:
        """Half or less of starting size (models), or of Tough for a single-model unit."""
        if line.models == 1:
            return (line.end - p) * 2 <= line.end
        return line.alive(p) * 2 <= line.models

    def _melee_bonus(self, fighter: Fighter, line: WoundLine, p: int) -> Dist:
        """Extra 'wounds' for the melee result: Fear, Musician/Battle Standard, full rows."""
        d = self.d
        if p >= line.end:
            return Dist.constant(0)
        members = ([fighter] if line.unit_alive(p) > 0 else []) + [fighter.heroes[i] for i in line.heroes_alive(p)]
        bonus = 0
        dist = Dist.constant(0)
        if d.fear == "d3" and any(m.has("Fear") for m in members):
            dist = Dist({1: 1 / 3, 2: 1 / 3, 3: 1 / 3})  # 000 Fear: +D3 wounds when seeing who won
        elif d.fear == "x_unit":
            bonus += max((max(1, m.rating("Fear")) for m in members if m.has("Fear")), default=0)  # 001 Fear(X): +X wounds
        elif d.fear == "x_model":
            for m in members:  # 002 Fear(X): each model with it counts +X wounds
                if m.has("Fear"):
                    count = line.unit_alive(p) if m is fighter else 1
                    bonus += max(1, m.rating("Fear")) * count
        if d.musician_wound and (fighter.has("Musician") or fighter.has("Battle Standard")):
            if line.unit_alive(p) > 0:
                bonus += 1  # 000 Musician / Battle Standard: +1 wound for the melee result
        if d.rows and fighter.models > 1:
            bonus += line.unit_alive(p) // _row_width(fighter.models)  # 002 Melee Results: + full rows
        return dist.map(lambda v: v + bonus)

    # -- the run ---------------------------------------------------------------------------

    def run(self) -> dict[str, Any]:
        return self._melee() if self.sit.melee else self._shooting()

    def _result(self, hits: Dist, ends: Dist, where: Outcomes) -> dict[str, Any]:
        wounds = ends.map(where.wounds)
        killed = ends.map(where.killed)
        return {
            "expected": {"hits": hits.mean, "wounds": wounds.mean, "models_killed": killed.mean},
            "distributions": {"hits": hits.as_dict(), "wounds": wounds.as_dict(), "models_killed": killed.as_dict()},
            "p_destroyed": sum(w for k, w in ends.items() if where.destroyed(k)),
        }

    def _shooting(self) -> dict[str, Any]:
        groups = self._attack_groups(self.att)
        if not groups:
            ranged = [w for m in self.att.all_members for w in m.weapons if not w.is_melee]
            if not ranged:
                raise PreviewError("attacker", f"{self.att.name} has no ranged weapon to shoot with")
            reach = max(self._reach(w) for w in ranged)
            raise PreviewError("situation.range", f'{self.sit.range}" is beyond every weapon of {self.att.name} (longest {reach}")')
        self._use_pick(groups)
        hits, ends = self._strike_defender(groups, self.start_a, True)
        where = self.out_d
        out = self._result(hits, ends, where)
        test = fail = 0.0
        for k, w in ends.items():
            line, p = where.locate(k)
            # Morale: a unit left at half strength or less by wounds tests (not if destroyed)
            if where.wounds(k) > 0 and p < line.end and self._half_or_less(self.dfn, line, p):
                test += w
                fail += w * self._morale_fail(self.dfn, line, p, self.sit.defender)
        out["consequences"] = {"morale": {"p_test": test, f"p_{self.d.shaken.lower()}": fail, "p_rout": 0.0, "state_on_fail": self.d.shaken},
                               **self._pick_report(ends)}
        out["notes"] = self.notes + [f"groups: {', '.join(g.label for g in groups)}"]
        return out

    def _melee(self) -> dict[str, Any]:
        d, sit = self.d, self.sit
        groups = self._attack_groups(self.att)
        groups.extend(self._impact_groups(self.att))
        groups.sort(key=lambda g: g.order)
        if not [g for g in groups if not g.label.endswith("Impact")]:
            raise PreviewError("attacker", f"{self.att.name} has no melee weapon to fight with")
        self._use_pick(groups)
        where = self.out_d
        untouched = where.untouched
        counter_first = d.counter and sit.charging and self._charged()
        back_groups = self._attack_groups(self.dfn, striking_back=True, counter="without" if counter_first else "all") if sit.strike_back else []
        counter_groups = self._attack_groups(self.dfn, striking_back=True, counter="only") if counter_first else []
        # Pre-strike: 000 Phalanx dangerous terrain tests, 001/002 Counter weapons striking first
        base = Dist.constant(self.start_a)
        if d.phalanx and sit.charging and self._all_have(self.dfn, "Phalanx"):
            # 000 Phalanx: the charger takes a Dangerous Terrain test (a wound on each 1), rolling
            # no more dice than the target has Phalanx models (Tough models roll X dice each).
            dice = min(self.dfn.models, sum(self.line_a.tough[self.line_a.model_at(self.start_a):]))
            base = Dist.binomial(dice, SIX).map(lambda w: min(self.start_a + w, self.line_a.end))
        joint: dict[tuple[int, int, int], float] = {}
        hits_mix: list[tuple[float, Dist]] = []
        back_hits_mix: list[tuple[float, Dist]] = []
        strike_cache: dict[int, tuple[Dist, Dist]] = {}
        back_cache: dict[tuple[int, int], tuple[Dist, Dist]] = {}
        for pa0, w0 in base.items():
            if pa0 >= self.line_a.end:
                joint[(pa0, pa0, untouched)] = joint.get((pa0, pa0, untouched), 0.0) + w0
                hits_mix.append((w0, Dist.constant(0)))
                continue
            if counter_groups:
                _, after_counter = self.strike(counter_groups, self.dfn, self.line_d, self.start_d, self.att, self.line_a, Dist.constant(pa0), False)
            else:
                after_counter = Dist.constant(pa0)
            for pa1, w1 in after_counter.items():
                if pa1 >= self.line_a.end:
                    joint[(pa0, pa1, untouched)] = joint.get((pa0, pa1, untouched), 0.0) + w0 * w1
                    hits_mix.append((w0 * w1, Dist.constant(0)))
                    continue
                key = self._strikers(self.att, self.line_a, pa1)
                if key not in strike_cache:
                    strike_cache[key] = self._strike_defender(groups, pa1, False)  # type: ignore[index]
                hits, ends_d = strike_cache[key]  # type: ignore[index]
                hits_mix.append((w0 * w1, hits))
                for pd, w2 in ends_d.items():
                    weight = w0 * w1 * w2
                    if where.destroyed(pd) or not back_groups:
                        joint[(pa0, pa1, pd)] = joint.get((pa0, pa1, pd), 0.0) + weight
                        continue
                    line_d, p_d = where.locate(pd)
                    bkey = (self._strikers(self.dfn, line_d, p_d), pa1)
                    if bkey not in back_cache:
                        back_cache[bkey] = self.strike(back_groups, self.dfn, line_d, p_d, self.att, self.line_a, Dist.constant(pa1), False)  # type: ignore[index]
                    bhits, ends_a = back_cache[bkey]  # type: ignore[index]
                    back_hits_mix.append((weight, bhits))
                    for pa2, w3 in ends_a.items():
                        joint[(pa0, pa2, pd)] = joint.get((pa0, pa2, pd), 0.0) + weight * w3
        hits = Dist.mixture(hits_mix)
        ends_d = Dist(_marginal(joint, lambda k: k[2]))
        ends_a = Dist(_marginal(joint, lambda k: k[1]))
        out = self._result(hits, ends_d, where)
        back = self._result(Dist.mixture(back_hits_mix) if back_hits_mix else Dist.constant(0), ends_a, Outcomes.one_line(self.line_a, self.start_a))
        out["consequences"] = {**self._melee_consequences(joint, back), **self._pick_report(ends_d)}
        groups_all = counter_groups + groups + back_groups
        out["notes"] = self.notes + [f"groups: {', '.join(g.label for g in groups_all)}"]
        return out

    def _melee_consequences(self, joint: dict[tuple[int, int, int], float], back: dict[str, Any]) -> dict[str, Any]:
        """Who wins the melee (wounds caused plus bonuses) and what the loser's test does."""
        d, where = self.d, self.out_d
        la = self.line_a
        a_wins = d_wins = tie = 0.0
        fate = {side: {"p_test": 0.0, "p_shaken": 0.0, "p_rout": 0.0} for side in ("attacker", "defender")}
        for (pa0, pa, key_d), w in joint.items():
            ld, pd = where.locate(key_d)
            a_dead, d_dead = pa >= la.end, pd >= ld.end
            if d_dead or a_dead:
                # 001: a unit destroyed in melee always counts as having lost (000/002 agree:
                # a destroyed unit has nothing left to win with).
                if d_dead and not a_dead:
                    a_wins += w
                elif a_dead and not d_dead:
                    d_wins += w
                else:
                    tie += w
                continue
            caused_a = Dist.constant(where.wounds(key_d)) + self._melee_bonus(self.att, la, pa)
            caused_d = Dist.constant(pa - pa0) + self._melee_bonus(self.dfn, ld, pd)
            diff = caused_a + caused_d.map(lambda v: -v)
            p_a = sum(q for v, q in diff.items() if v > 0)
            p_d = sum(q for v, q in diff.items() if v < 0)
            a_wins += w * p_a
            d_wins += w * p_d
            tie += w * (1 - p_a - p_d)
            for side, fighter, line, p, state, flank, lose in (
                ("defender", self.dfn, ld, pd, self.sit.defender, self.sit.facing, p_a),
                ("attacker", self.att, la, pa, self.sit.attacker, "front", p_d),
            ):
                if lose <= 0:
                    continue
                fail = self._morale_fail(fighter, line, p, state, flank=flank)
                fate[side]["p_test"] += w * lose
                # Morale after a lost melee: fail at half strength or less routs, else Shaken/Wavering
                key = "p_rout" if self._half_or_less(fighter, line, p) else "p_shaken"
                fate[side][key] += w * lose * fail
        label = f"p_{d.shaken.lower()}"
        for side in fate:
            fate[side][label] = fate[side].pop("p_shaken")
            fate[side]["state_on_fail"] = d.shaken  # type: ignore[assignment]
        p_d_destroyed = sum(w for k, w in joint.items() if where.destroyed(k[2]))
        return {
            "melee": {"p_attacker_wins": a_wins, "p_defender_wins": d_wins, "p_tie": tie},
            "morale": fate,
            "strike_back": back,
            "p_defender_removed": p_d_destroyed + fate["defender"]["p_rout"],
            "p_attacker_destroyed": sum(w for k, w in joint.items() if k[1] >= la.end),
        }


# --------------------------------------------------------------------------------------------
# Small exact helpers (cached: previews repeat the same dice many times)


def _row_width(models: int) -> int:
    """002 Regiments: 5 models per row for 5/10-model units, 3 per row for 3/6."""
    if models % 5 == 0:
        return 5
    if models % 3 == 0:
        return 3
    return max(1, models)


def _model_starts(line: WoundLine, p: int) -> list[int]:
    """A position inside each model still standing from p on."""
    out = [p]
    out.extend(e for e in line.ends if e > p and e < line.end)
    return out


def _marginal(joint: Mapping[Any, float], key: Callable[[Any], int]) -> dict[int, float]:
    out: dict[int, float] = {}
    for k, w in joint.items():
        out[key(k)] = out.get(key(k), 0.0) + w
    return out


def _advance(line: WoundLine, p: int, wounds: int, deadly: int, cap: int) -> int:
    """Position after *wounds* effective wounds from p.

    Plain wounds fill the current model and carry on to the next (Tough: most-wounded first).
    Deadly(X): each wound is multiplied by X on one model and the excess is lost. With a cap
    (Sniper/Takedown: one model, as a unit of 1) nothing passes the picked model.
    """
    if wounds <= 0:
        return p
    if deadly <= 1:
        return min(p + wounds, cap)
    return _advance_deadly(line, p, wounds, deadly, cap)


@lru_cache(maxsize=65536)
def _advance_deadly(line: WoundLine, p: int, wounds: int, deadly: int, cap: int) -> int:
    for _ in range(wounds):
        if p >= cap:
            break
        p = min(p + deadly, line.model_end(p), cap)  # 000/001/002 Deadly(X): x X, no carry-over
    return p


@lru_cache(maxsize=8192)
def _per_attack(p6: float, pn: float, six_hits: int, six_extra: int, blast: int, q_six: float, q_plain: float, auto: bool) -> Dist:
    """One attack die: hits * B + effective wounds.

    A natural 6 becomes ``six_hits`` hits that count as 6s plus ``six_extra`` plain hits; every
    hit is then multiplied by Blast. Each hit wounds independently.
    """
    if auto:
        return Dist({B + 1: q_plain, B: 1.0 - q_plain})
    out: dict[int, float] = {0: 1.0 - p6 - pn}
    s, x = six_hits * blast, six_extra * blast
    for e, pe in (Dist.binomial(s, q_six) + Dist.binomial(x, q_plain)).items():
        out[(s + x) * B + e] = out.get((s + x) * B + e, 0.0) + p6 * pe
    for e, pe in Dist.binomial(blast, q_plain).items():
        out[blast * B + e] = out.get(blast * B + e, 0.0) + pn * pe
    return Dist(out)


@lru_cache(maxsize=4096)
def _group_2d(p6: float, pn: float, six_hits: int, six_extra: int, blast: int, q_six: float, q_plain: float, auto: bool, n: int) -> Dist:
    """A whole group's hits * B + wounds. When every hit wounds alike, wounds given hits is a
    binomial, which avoids a two-dimensional convolution."""
    if abs(q_six - q_plain) < 1e-15:
        hits = _per_attack(p6, pn, six_hits, six_extra, blast, 0.0, 0.0, auto).map(lambda x: x // B).repeat(n)
        return Dist.mixture((ph, Dist.binomial(h, q_plain).map(lambda e, h=h: h * B + e)) for h, ph in hits.items())
    return _per_attack(p6, pn, six_hits, six_extra, blast, q_six, q_plain, auto).repeat(n)


@lru_cache(maxsize=8192)
def _wounds_only(per: Dist) -> Dist:
    return per.map(lambda x: x % B)


@lru_cache(maxsize=4096)
def _per_attack_raw(p6: float, pn: float, six_hits: int, six_extra: int, blast: int, w_six: float, w_plain: float, auto: bool) -> Dist:
    """One attack die: hits * B*B + six-wounds * B + plain wounds (before Regeneration)."""
    if auto:
        return Dist({B * B + 1: w_plain, B * B: 1.0 - w_plain})
    out: dict[int, float] = {0: 1.0 - p6 - pn}
    s, x = six_hits * blast, six_extra * blast
    for a, pa in Dist.binomial(s, w_six).items():
        for b, pb in Dist.binomial(x, w_plain).items():
            k = (s + x) * B * B + a * B + b
            out[k] = out.get(k, 0.0) + p6 * pa * pb
    for b, pb in Dist.binomial(blast, w_plain).items():
        k = blast * B * B + b
        out[k] = out.get(k, 0.0) + pn * pb
    return Dist(out)
