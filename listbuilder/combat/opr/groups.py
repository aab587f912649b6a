"""Attack groups: each weapon type a side fires or swings together, with every rule that bends its dice.

A :class:`Group` holds all its dice need (Quality and modifiers, extra hits on 6s, Blast, AP,
Regeneration-beaters, Deadly, Sniper/Takedown, order). :class:`AttackGroups` builds them for one
fight: a side's weapons, 000 Furious's extra attack, the Sergeant's copy and Impact.

Groups that share a ``volley`` are one pass of the rulebooks' sequence (roll to hit, roll to
block, remove casualties): their hits are all blocked before any of them removes a model, so
they block at the Defense (and Blast counts the models) of the moment the volley starts. A
side's melee attack is one volley in all three texts, and so is 002 shooting; 000/001 shooting
makes one volley per weapon type (the unit's and its joined heroes' copies together).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from listbuilder.combat.opr.fight import Fight, all_have, row_width
from listbuilder.combat.profiles import Fighter
from listbuilder.model import RuleRef, Weapon, rule_rating


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
    volley: str = ""  # groups with the same non-empty volley are rolled and blocked together
    bonus: int = 0  # extra attacks per model carrying the group (000 Furious, when charging)

    def attacks(self, unit_alive: int, heroes_alive: tuple[int, ...]) -> int:
        """Attacks this group makes with the models still standing."""
        if self.owner >= 0:
            copies = self.copies if self.owner in heroes_alive else 0
            carriers = self.owner_models if self.owner in heroes_alive else 0
        elif self.sergeant_only:
            copies = carriers = 1 if unit_alive >= 1 else 0
        elif self.sergeant_split:
            copies = min(self.copies - 1, max(0, unit_alive - 1))
            carriers = max(0, unit_alive - 1)
        elif self.copies >= self.owner_models:
            # Interpretation: gear carried by every model (or several per model) is lost with
            # the models; casualties are taken from plain models before special weapons.
            copies = self.copies * unit_alive // self.owner_models
            carriers = unit_alive
        else:
            copies = carriers = min(self.copies, unit_alive)
        return max(0, copies * self.per_copy + carriers * self.bonus - self.minus)


def _rating(rules: Iterable[RuleRef], name: str) -> int:
    return rule_rating(rules, name, 0)


def _has(rules: Iterable[RuleRef], name: str) -> bool:
    return any(r.name == name for r in rules)


class AttackGroups:
    """Builds the groups of one fight's attacks (the attacker's, and the defender's strike-back)."""

    def __init__(self, fight: Fight):
        self.f = fight

    def reach(self, weapon: Weapon) -> int:
        if (
            self.f.d.aircraft
            and all_have(self.f.dfn, "Aircraft")
            and not (self.f.d.lock_on and _has(weapon.rules, "Lock-On"))
        ):
            return weapon.range - 12  # 001 Aircraft: units targeting it get -12" range
        return weapon.range

    def group(self, fighter: Fighter, owner: int, weapon: Weapon, *, striking_back: bool = False) -> Group:
        d, sit = self.f.d, self.f.sit
        rules = weapon.rules
        charged = self.f.charged() and not striking_back
        melee = sit.melee
        quality = fighter.quality
        mod = 0
        if d.reliable and _has(rules, "Reliable"):
            quality = 2  # 001/002 Reliable: attacks at Quality 2+
        sniper = (d.sniper and _has(rules, "Sniper")) and not melee
        if sniper:
            quality = 2  # 000/001 Sniper: Quality 2+, one picked model, resolved as a unit of 1
        takedown = d.takedown and _has(rules, "Takedown")  # 002 Takedown: a picked model as a unit of 1
        defender = self.f.att if striking_back else self.f.dfn
        ignores_cover = _has(rules, "Blast") or (
            d.lock_on and _has(rules, "Lock-On")
        )  # 000/001/002 Blast, 001 Lock-On: ignore cover
        if not melee:
            mod += self._shooting_mod(fighter, defender, rules, ignores_cover)
        if melee and charged and d.thrust and _has(rules, "Thrust"):
            mod += 1  # 002 Thrust: +1 to hit when charging
        if d.lock_on and _has(rules, "Lock-On") and mod < 0:
            mod = 0  # 001 Lock-On: ignores all negative modifiers to hit
        if d.unstoppable and _has(rules, "Unstoppable") and mod < 0:
            mod = 0  # 002 Unstoppable: ignores all negative modifiers to this weapon
        six_hits, six_extra = self._six_hits(fighter, rules, charged)
        ap, six_ap, regen_mod, no_regen, six_no_regen, reroll6 = self._piercing(rules, charged)
        fatigued = melee and (
            self.f.sit.defender.fatigued or self.f.sit.defender.shaken
            if striking_back
            else self.f.sit.attacker.fatigued
        )
        order = 0 if (sniper or takedown) else (1 if (d.deadly_first and _rating(rules, "Deadly") > 1) else 3)
        return Group(
            label=f"{fighter.name}: {weapon.name}",
            owner=owner,
            per_copy=weapon.attacks,
            volley=self.volley(weapon, sniper or takedown),
            copies=weapon.count,
            owner_models=fighter.models,
            quality=quality,
            hit_mod=mod,
            six_only=fatigued,  # 000/001/002 Fatigue & Wavering/Shaken: only unmodified 6s hit in melee
            six_hits=six_hits,
            six_extra=six_extra,
            blast=max(1, _rating(rules, "Blast")),
            ap=ap,
            six_ap=six_ap,
            reroll_def6=reroll6,
            regen_mod=regen_mod,
            no_regen=no_regen,
            six_no_regen=six_no_regen,
            deadly=max(1, _rating(rules, "Deadly")),
            single_model=sniper or takedown,
            ignores_cover=ignores_cover,
            order=order,
        )

    def _six_hits(self, fighter: Fighter, rules: tuple[RuleRef, ...], charged: bool) -> tuple[int, int]:
        """What an unmodified 6 to hit becomes: how many hits it counts as, and extra plain hits."""
        d, sit = self.f.d, self.f.sit
        melee = sit.melee
        six_hits, six_extra = 1, 0
        if d.poison == "six_x3" and _has(rules, "Poison"):
            six_hits = 3  # 000 Poison: an unmodified 6 to hit is multiplied by 3
        if melee and charged and d.furious == "six_extra" and fighter.has("Furious"):
            six_extra += 1  # 001/002 Furious: charging, unmodified 6s to hit in melee add a hit
        if not melee and (fighter.has("Relentless") or _has(rules, "Relentless")):
            if not melee and d.relentless == "hold" and sit.hold:
                six_extra += 1  # 001 Relentless: Hold and shoot, unmodified 6s add a hit
            elif not melee and d.relentless == "over9" and self.f.over(9):
                six_extra += 1  # 002 Relentless: shooting over 9", unmodified 6s add a hit
        if d.surge and _has(rules, "Surge"):
            six_extra += 1  # 002 Surge: unmodified 6s to hit deal 1 extra hit
        return six_hits, six_extra

    def _piercing(self, rules: tuple[RuleRef, ...], charged: bool) -> tuple[int, int, int, bool, bool, bool]:
        """AP, AP of 6s to hit, and what gets past Regeneration and Defense 6s:
        (ap, six_ap, regen_mod, no_regen, six_no_regen, reroll_def6)."""
        d = self.f.d
        melee = self.f.sit.melee
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
        return ap, six_ap, regen_mod, no_regen, six_no_regen, reroll6

    def _shooting_mod(
        self, fighter: Fighter, defender: Fighter, rules: tuple[RuleRef, ...], ignores_cover: bool
    ) -> int:
        """The to-hit modifiers only shooting has: cover, Stealth, Artillery, Indirect, Aircraft, Entrenched."""
        d, sit = self.f.d, self.f.sit
        mod = 0
        if sit.cover and d.cover == "hit" and not ignores_cover:
            mod -= 1  # 000 Cover Terrain: shooters get -1 to hit
        if d.stealth_over is None and defender.has("Stealth"):
            mod -= 1  # 000 Stealth: -1 to hit when shooting at it
        elif d.stealth_over is not None and self.f.over(d.stealth_over) and all_have(defender, "Stealth"):
            mod -= 1  # 001 Stealth (over 12") / 002 Stealth (over 9"): -1 to hit, all models must have it
        if d.artillery == "ranged9" and self.f.over(9):
            if fighter.has("Artillery"):
                mod += 1  # 002 Artillery: +1 to hit when shooting at enemies over 9" away
            if defender.has("Artillery"):
                mod -= 2  # 002 Artillery: enemies shooting at it from over 9" get -2 to hit
        if _has(rules, "Indirect") and not sit.hold:
            mod -= 1  # 000/001/002 Indirect: -1 to hit when shooting after moving
        if d.aircraft and all_have(defender, "Aircraft"):
            mod -= 1  # 001 Aircraft: units targeting it get -1 to hit
        if d.entrenched and defender.has("Entrenched") and self.f.over(12) and not sit.defender.moved:
            mod -= 2  # 001 Entrenched: -2 to hit from over 12" if it has not moved
        return mod

    def attack_groups(self, attacker: Fighter, *, striking_back: bool = False, counter: str = "all") -> list[Group]:
        """Every group of one side's attack; ``counter`` = all | only | without (Counter weapons)."""
        groups: list[Group] = []
        for owner, member in ((-1, attacker), *enumerate(attacker.heroes)):
            for weapon in member.weapons:
                if self.f.sit.melee != weapon.is_melee:
                    continue
                if not striking_back and self.f.sit.weapons is not None and weapon.name not in self.f.sit.weapons:
                    continue
                if (
                    not striking_back
                    and not self.f.sit.melee
                    and self.f.sit.range is not None
                    and self.f.sit.range > self.reach(weapon)
                ):
                    continue
                is_counter = self.f.d.counter and _has(weapon.rules, "Counter")
                if (counter == "only" and not is_counter) or (counter == "without" and is_counter):
                    continue
                groups.append(self.group(member, owner, weapon, striking_back=striking_back))
        groups = self._furious_000(attacker, groups, striking_back)
        groups = self._sergeant(attacker, groups, striking_back)
        return in_resolution_order(groups)

    def volley(self, weapon: Weapon, single_model: bool) -> str:
        """Which pass of the attack sequence a weapon's attacks belong to (see the module doc)."""
        if single_model:
            return ""  # 000/001 Sniper, 002 Takedown: resolved as if the target were a unit of 1
        if self.f.sit.melee:
            return "melee"  # 000/001 Melee: the Attack values of all models are summed and rolled together; 002 Melee works like shooting
        if self.f.d.rows:
            return "shooting"  # 002 Shooting: one quality test per attack, then one die per hit to block
        # 000/001 Multiple Weapon Types: each weapon type may be its own weapon group, and the
        # sequence is followed separately for each group. Interpretation: every type is its own
        # group, and a joined hero's copy of the unit's weapon is the same type.
        return repr((weapon.name, weapon.attacks, weapon.range, sorted(r.label for r in weapon.rules)))

    def _furious_000(self, attacker: Fighter, groups: list[Group], striking_back: bool) -> list[Group]:
        if self.f.d.furious != "extra_attack" or striking_back or not self.f.sit.melee or not self.f.charged():
            return groups
        # 000 Furious: charging, each model gets +1 attack with a weapon of its choice - one
        # more attack of that weapon, rolled with the rest of its attacks.
        # Interpretation: the extra attack goes to the melee weapon with the most AP among
        # those every model of the unit carries (any weapon, if none is carried by all).
        out = list(groups)
        for owner, member in ((-1, attacker), *enumerate(attacker.heroes)):
            if not member.has("Furious"):
                continue
            mine = [g for g in out if g.owner == owner and not g.single_model]
            everyone = [g for g in mine if g.copies >= g.owner_models]
            if not mine:
                continue
            best = max(everyone or mine, key=lambda g: (g.ap, g.deadly, g.six_ap))
            out[out.index(best)] = replace(best, bonus=best.bonus + 1)
        return out

    def _sergeant(self, attacker: Fighter, groups: list[Group], striking_back: bool) -> list[Group]:
        if not self.f.d.sergeant or not attacker.has("Sergeant"):
            return groups
        unit_groups = [g for g in groups if g.owner == -1 and g.copies <= g.owner_models]
        if not unit_groups:
            return groups
        # Interpretation: the sergeant carries one copy of the unit's first weapon in this attack.
        first = unit_groups[0]
        if self.f.d.sergeant == "plus1":
            sergeant = replace(
                first, label=f"{first.label} (Sergeant)", copies=1, sergeant_only=True, hit_mod=first.hit_mod + 1
            )  # 000 Sergeant: one model +1 to hit
        else:
            sergeant = replace(
                first, label=f"{first.label} (Sergeant)", copies=1, sergeant_only=True, six_extra=first.six_extra + 1
            )  # 002 Sergeant: its 6s to hit deal 1 extra hit
        return [replace(g, sergeant_split=True) if g is first else g for g in groups] + [sergeant]

    def impact_groups(self, attacker: Fighter) -> list[Group]:
        """Impact hits of a charge (000 automatic hits, 001 attacks at 2+, 002 dice on 2+)."""
        if not self.f.sit.melee or not self.f.charged():
            return []
        if self.f.d.impact == "dice_front" and self.f.sit.attacker.fatigued:
            return []  # 002 Impact: no Impact dice when fatigued
        minus = 0
        if self.f.d.counter:
            counters = sum(w.count for m in self.f.dfn.all_members for w in m.weapons if _has(w.rules, "Counter"))
            if self.f.d.rows:
                counters = min(counters, 2 * row_width(self.f.dfn.models))
                if self.f.sit.facing != "front":
                    counters = 0  # 002 Counter: only against a charge in the front
            minus = counters  # 001/002 Counter: the charger gets -1 Impact per model with Counter
        groups: list[Group] = []
        for owner, member in ((-1, attacker), *enumerate(attacker.heroes)):
            x = member.rating("Impact")
            if x <= 0:
                continue
            label = f"{member.name}: Impact"
            # Impact is part of the charge's melee attack, blocked with the weapons' hits
            if self.f.d.impact == "auto":
                # 000 Impact(X): X automatic melee hits per charging model
                groups.append(
                    Group(label, owner, x, member.models, member.models, 2, auto=True, order=2, volley="melee")
                )
            else:
                six_only = self.f.d.impact == "q2" and self.f.sit.attacker.fatigued
                # 001 Impact(X): X attacks hitting on 2+ / 002 Impact(X): X dice, each 2+ is a hit
                groups.append(
                    Group(
                        label,
                        owner,
                        x,
                        member.models,
                        member.models,
                        2,
                        six_only=six_only,
                        minus=minus,
                        order=2,
                        volley="melee",
                    )
                )
                minus = 0  # the Counter reduction comes off the unit's total once
        return groups


def in_resolution_order(groups: list[Group]) -> list[Group]:
    """Groups in the order they are resolved: by ``order`` (Sniper/Takedown, Deadly, Impact,
    the rest), each volley's groups side by side where the order allows it."""
    first_seen: dict[str, int] = {}
    for i, g in enumerate(groups):
        first_seen.setdefault(g.volley or f"#{i}", i)
    keyed = [(g.order, first_seen[g.volley or f"#{i}"], i, g) for i, g in enumerate(groups)]
    return [g for *_, g in sorted(keyed, key=lambda t: t[:3])]


def volleys(groups: list[Group]) -> list[list[Group]]:
    """Consecutive groups of one volley, together; a group without a volley is alone."""
    out: list[list[Group]] = []
    for g in groups:
        if out and g.volley and out[-1][-1].volley == g.volley:
            out[-1].append(g)
        else:
            out.append([g])
    return out
