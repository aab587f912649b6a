"""A seeded Monte Carlo simulator of OPR-family fights, written apart from the engine.

It rolls every die of a fight the way players do at the table - model by model, wound by
wound - straight from the rulebook texts, and shares no code with ``listbuilder.combat.opr``
(only the input data classes, Fighter and Situation, and the rule labels). The test battery
compares its averages with the engine's exact figures; agreement within the sampling error
means both read the rules the same way.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from listbuilder.combat.opr import Situation
from listbuilder.combat.profiles import Fighter


def _r(rules: Any, name: str) -> int:
    total, found = 0, False
    for r in rules:
        if r.name == name:
            found = True
            try:
                total += int(r.param or 0)
            except ValueError:
                pass
    return total if found else 0


def _h(rules: Any, name: str) -> bool:
    return any(r.name == name for r in rules)


@dataclass
class Model:
    member: Fighter
    hero: bool
    tough: int
    damage: int = 0

    @property
    def dead(self) -> bool:
        return self.damage >= self.tough


class Unit:
    """The models of a fighter on the table."""

    def __init__(self, f: Fighter, lost: int, wounds: int):
        self.f = f
        self.models = [Model(f, False, f.tough) for _ in range(f.models)]
        for h in f.heroes:
            self.models += [Model(h, True, h.tough) for _ in range(h.models)]
        for m in self.models[:lost]:
            m.damage = m.tough
        if wounds:
            self.models[lost].damage = wounds
        self.start = len(self.models)

    def alive(self) -> list[Model]:
        return [m for m in self.models if not m.dead]

    def regulars(self) -> list[Model]:
        return [m for m in self.alive() if not m.hero]

    def heroes(self) -> list[Model]:
        return [m for m in self.alive() if m.hero]

    def hp(self) -> int:
        return sum(m.tough - m.damage for m in self.alive())

    def next_target(self) -> Model | None:
        """Tough: the most wounded non-hero model first; heroes only when nobody else is left."""
        pool = self.regulars() or self.heroes()
        if not pool:
            return None
        return max(pool, key=lambda m: m.damage)

    def in_wound_order(self) -> list[Model]:
        """The standing models in the order wounds reach them: most-wounded first, heroes last."""
        return sorted(self.regulars(), key=lambda m: -m.damage) + sorted(self.heroes(), key=lambda m: -m.damage)

    def half_or_less(self) -> bool:
        if self.start == 1:
            return 2 * self.hp() <= self.models[0].tough
        return 2 * len(self.alive()) <= self.start


def d6(rng: random.Random) -> int:
    return rng.randint(1, 6)


def test_roll(rng: random.Random, target: int, mod: int) -> tuple[bool, int]:
    face = d6(rng)
    if face == 6:
        return True, face
    if face == 1:
        return False, face
    return face + mod >= target, face


class Sim:
    def __init__(self, code: str, att: Fighter, dfn: Fighter, sit: Situation, seed: int = 1):
        self.code, self.att_f, self.dfn_f, self.sit = code, att, dfn, sit
        self.rng = random.Random(seed)
        self.chosen: Model | None = None  # the model situation.pick names, this attack

    def choose(self, enemy: Unit) -> Model:
        """The model Sniper/Takedown shots go at, named by situation.pick before any die is rolled."""
        pick = self.sit.pick
        if pick.hero is None:
            return enemy.in_wound_order()[pick.model]
        heroes = list(enemy.f.heroes)
        if isinstance(pick.hero, str):
            wanted = heroes[[h.name.lower() for h in heroes].index(pick.hero.lower())]
        else:
            wanted = heroes[pick.hero]
        return next(m for m in enemy.alive() if m.hero and m.member is wanted)

    def all_have(self, f: Fighter, name: str) -> bool:
        return _h(f.rules, name) and all(_h(h.rules, name) for h in f.heroes)

    # who counts as charging for special rules (000 Phalanx cancels it)
    def charged(self) -> bool:
        if not self.sit.charging:
            return False
        return not (self.code == "000" and self.all_have(self.dfn_f, "Phalanx"))

    def row(self, n: int) -> int:
        return 5 if n % 5 == 0 else (3 if n % 3 == 0 else max(1, n))

    def weapon_groups(self, side: Unit, enemy: Unit, striking_back: bool, counter: str) -> list[dict[str, Any]]:
        sit, code = self.sit, self.code
        melee = sit.melee
        out = []
        members = [(side.f, None)] + [(h, i) for i, h in enumerate(side.f.heroes)]
        regular_alive = len(side.regulars())
        if code == "002" and melee:
            regular_alive = min(regular_alive, 2 * self.row(side.f.models))  # two front rows strike
        hero_alive = {id(m.member) for m in side.heroes()}
        for member, idx in members:
            for w in member.weapons:
                if w.is_melee != melee:
                    continue
                if not striking_back and sit.weapons is not None and w.name not in sit.weapons:
                    continue
                rng_limit = w.range - (
                    12 if code == "001" and self.all_have(enemy.f, "Aircraft") and not _h(w.rules, "Lock-On") else 0
                )
                if not melee and sit.range is not None and sit.range > rng_limit:
                    continue
                is_counter = code in ("001", "002") and _h(w.rules, "Counter")
                if (counter == "only" and not is_counter) or (counter == "without" and is_counter):
                    continue
                if idx is None:
                    M = member.models
                    copies = w.count * regular_alive // M if w.count >= M else min(w.count, regular_alive)
                else:
                    copies = w.count if id(member) in hero_alive else 0
                out.append({"member": member, "weapon": w, "copies": copies, "hero": idx is not None})
        # 000 Furious: each charging model makes one more attack with one of its weapons (the
        # most-AP one every model carries), thrown with that weapon's other attacks
        if code == "000" and melee and not striking_back and self.charged():
            for member, idx in members:
                if not _h(member.rules, "Furious"):
                    continue
                mine = [g for g in out if g["member"] is member]
                everyone = [g for g in mine if g["weapon"].count >= member.models]
                if mine:
                    best = max(
                        everyone or mine, key=lambda g: (_r(g["weapon"].rules, "AP"), _r(g["weapon"].rules, "Deadly"))
                    )
                    carriers = (
                        (regular_alive if best["weapon"].count >= member.models else best["copies"])
                        if idx is None
                        else (1 if id(member) in hero_alive else 0)
                    )
                    best["extra"] = carriers
        # Sergeant: one copy of the unit's first weapon fights with a bonus (000 +1 to hit, 002 6s +1 hit)
        if code in ("000", "002") and _h(side.f.rules, "Sergeant"):
            firsts = [g for g in out if not g["hero"] and g["weapon"].count <= side.f.models]
            if firsts and firsts[0]["copies"] > 0:
                g0 = firsts[0]
                alive = (
                    len(side.regulars())
                    if not (code == "002" and melee)
                    else min(len(side.regulars()), 2 * self.row(side.f.models))
                )
                g0["copies"] = min(g0["weapon"].count - 1, max(0, alive - 1))
                sergeant = {**g0, "copies": 1 if alive >= 1 else 0, "sergeant": True}
                if g0.get("extra"):
                    # the sergeant's own Furious attack is thrown with its bonus
                    sergeant["extra"], g0["extra"] = 1 if alive >= 1 else 0, max(0, alive - 1)
                out.append(sergeant)
        return out

    def group_order(self, g: dict[str, Any]) -> int:
        if g.get("impact"):
            return 2
        rules = g["weapon"].rules
        if (self.code in ("000", "001") and _h(rules, "Sniper") and not self.sit.melee) or (
            self.code == "002" and _h(rules, "Takedown")
        ):
            return 0
        if _r(rules, "Deadly") > 1:
            return 1
        return 3

    def fire(
        self, g: dict[str, Any], shooter: Unit, target: Unit, striking_back: bool, view: tuple[Any, int]
    ) -> tuple[int, int]:
        """Roll one group of a sequence; returns (hits, wounds absorbed).

        ``view`` is the target as it stood when the sequence's dice were thrown: whose Defense
        blocks (the unit's while any non-hero model stands, 000/001/002 Hero) and how many
        models Blast may hit. Every block of a sequence is rolled before any casualty.
        """
        code, sit, rng = self.code, self.sit, self.rng
        w = g["weapon"]
        rules = w.rules
        member = g["member"]
        melee = sit.melee
        charged = self.charged() and not striking_back
        n = g["copies"] * w.attacks + g.get("extra", 0)
        if n <= 0:
            return 0, 0
        q = member.quality
        if code in ("001", "002") and _h(rules, "Reliable"):
            q = 2
        single = False
        if code in ("000", "001") and _h(rules, "Sniper") and not melee:
            q, single = 2, True
        if code == "002" and _h(rules, "Takedown"):
            single = True
        blast_ignores = _h(rules, "Blast") or (code == "001" and _h(rules, "Lock-On"))
        mod = 0
        enemy = target.f
        if not melee:
            if code == "000":
                if sit.cover and not blast_ignores:
                    mod -= 1
                if _h(enemy.rules, "Stealth"):
                    mod -= 1
            if code == "001" and sit.range is not None and sit.range > 12 and self.all_have(enemy, "Stealth"):
                mod -= 1
            if code == "002" and sit.range is not None and sit.range > 9:
                if self.all_have(enemy, "Stealth"):
                    mod -= 1
                if _h(member.rules, "Artillery"):
                    mod += 1
                if _h(enemy.rules, "Artillery"):
                    mod -= 2
            if _h(rules, "Indirect") and not sit.hold:
                mod -= 1
            if code == "001" and self.all_have(enemy, "Aircraft"):
                mod -= 1
            if (
                code == "001"
                and _h(enemy.rules, "Entrenched")
                and sit.range is not None
                and sit.range > 12
                and not sit.defender.moved
            ):
                mod -= 2
        if code == "002" and melee and charged and _h(rules, "Thrust"):
            mod += 1
        if g.get("sergeant") and code == "000":
            mod += 1
        if mod < 0 and ((code == "001" and _h(rules, "Lock-On")) or (code == "002" and _h(rules, "Unstoppable"))):
            mod = 0
        fatigued = melee and (
            (sit.defender.fatigued or sit.defender.shaken) if striking_back else sit.attacker.fatigued
        )
        six_count, plain = 0, 0
        for _ in range(n):
            face = d6(rng)
            if face == 6:
                six_count += 1
            elif fatigued or face == 1:
                continue
            elif face + mod >= q:
                plain += 1
        # natural 6 effects
        per_six, extra = 1, 0
        if code == "000" and _h(rules, "Poison"):
            per_six = 3
        if code in ("001", "002") and melee and charged and _h(member.rules, "Furious"):
            extra += 1
        if not melee and (_h(member.rules, "Relentless") or _h(rules, "Relentless")):
            if code == "001" and sit.hold:
                extra += 1
            if code == "002" and sit.range is not None and sit.range > 9:
                extra += 1
        if code == "002" and _h(rules, "Surge"):
            extra += 1
        if code == "002" and g.get("sergeant"):
            extra += 1
        blast = max(1, _r(rules, "Blast"))
        blast = min(blast, 1 if single else view[1])
        six_hits = six_count * per_six * blast
        plain_hits = (plain + six_count * extra) * blast
        hits = six_hits + plain_hits
        ap = _r(rules, "AP")
        if code == "001" and melee and charged and _h(rules, "Lance"):
            ap += 2
        if code == "002" and melee and charged and _h(rules, "Thrust"):
            ap += 1
        rend = _h(rules, "Rending")
        six_ap = (max(ap, 4) if code in ("000", "001") else ap + 4) if rend else ap
        reroll = (code == "001" and _h(rules, "Poison")) or (code == "002" and _h(rules, "Bane"))
        regen_mod = 0
        if code == "001" and rend:
            regen_mod -= 1
        if code == "001" and _h(rules, "Poison"):
            regen_mod -= 1
        no_regen = code == "002" and (rend or _h(rules, "Bane") or _h(rules, "Unstoppable"))
        deadly = max(1, _r(rules, "Deadly"))
        # the picked model (Sniper/Takedown): the chosen one while it stands, else the next in order
        picked = None
        if single:
            chosen = None if striking_back else self.chosen
            picked = chosen if chosen is not None and not chosen.dead else target.next_target()
        # which Defense: a picked model alone is a unit of 1 and uses its own; otherwise the
        # unit's while any regular model stands (Hero)
        defender_profile = picked.member if picked is not None else view[0]
        defense = defender_profile.defense
        if code == "000" and not melee and _h(defender_profile.rules, "Artillery"):
            defense = 2
        dmod = 1 if (not melee and sit.cover and code in ("001", "002") and not blast_ignores) else 0

        def wounded(apv: int) -> bool:
            ok, face = test_roll(rng, defense, dmod - apv)
            if face == 6 and reroll:
                ok, face = test_roll(rng, defense, dmod - apv)
            return not ok

        raw = [("six", wounded(six_ap)) for _ in range(six_hits)] + [("plain", wounded(ap)) for _ in range(plain_hits)]
        wounds_list = [kind for kind, hit in raw if hit]
        before = target.hp()
        for kind in wounds_list:
            model = picked if single else target.next_target()
            if model is None or model.dead:
                break
            # a picked model as a unit of 1 has Regeneration if it has it itself (002's "all models" too)
            has_regen = _h(model.member.rules, "Regeneration") if single else self.regen(target, model)
            if has_regen and not no_regen and not (code == "000" and rend and kind == "six"):
                ok, _ = test_roll(rng, 5, regen_mod)
                if ok:
                    continue
            model.damage = min(model.tough, model.damage + deadly)
        return hits, before - target.hp()

    def regen(self, unit: Unit, model: Model) -> bool:
        if self.code == "002":
            members = ([unit.f] if unit.regulars() else []) + [m.member for m in unit.heroes()]
            return bool(members) and all(_h(m.rules, "Regeneration") for m in members)
        return _h(model.member.rules, "Regeneration")

    def impact(self, side: Unit, enemy: Unit, view: tuple[Any, int]) -> tuple[int, int]:
        code, rng = self.code, self.rng
        if not self.charged():
            return 0, 0
        if code == "002" and self.sit.attacker.fatigued:
            return 0, 0
        counters = 0
        if code in ("001", "002"):
            counters = sum(w.count for m in [enemy.f, *enemy.f.heroes] for w in m.weapons if _h(w.rules, "Counter"))
            if code == "002":
                counters = min(counters, 2 * self.row(enemy.f.models)) if self.sit.facing == "front" else 0
        hits = 0
        members = [
            (side.f, len(side.regulars()) if code != "002" else min(len(side.regulars()), 2 * self.row(side.f.models)))
        ]
        members += [(m.member, 1) for m in side.heroes()]
        for member, count in members:
            x = _r(member.rules, "Impact")
            if x <= 0 or count <= 0:
                continue
            n = max(0, x * count - counters)
            counters = 0
            for _ in range(n):
                if code == "000":
                    hits += 1
                else:
                    face = d6(rng)
                    if face == 6 or (not (code == "001" and self.sit.attacker.fatigued) and face >= 2):
                        hits += 1
        before = enemy.hp()
        for _ in range(hits):
            ok, _f = test_roll(rng, view[0].defense, 0)
            if ok:
                continue
            model = enemy.next_target()
            if model is None:
                break
            if self.regen(enemy, model):
                if test_roll(rng, 5, 0)[0]:
                    continue
            model.damage += 1
        return hits, before - enemy.hp()

    def attack(self, side: Unit, enemy: Unit, striking_back: bool, counter: str = "all") -> tuple[int, int]:
        groups = self.weapon_groups(side, enemy, striking_back, counter)
        if not striking_back and enemy.alive():
            self.chosen = self.choose(enemy)
        groups.sort(key=self.group_order)
        hits = wounds = 0
        for sequence in self.sequences(groups, striking_back):
            view = self.view(enemy)
            for g in sorted(sequence, key=self.group_order):
                if g.get("impact"):
                    h, w = self.impact(side, enemy, view)
                else:
                    h, w = self.fire(g, side, enemy, striking_back, view)
                hits, wounds = hits + h, wounds + w
        return hits, wounds

    def sequences(self, groups: list[dict[str, Any]], striking_back: bool) -> list[list[dict[str, Any]]]:
        """The passes of roll to hit / roll to block / remove casualties one attack makes.

        Sniper (000/001) and Takedown (002) shots each go alone, first, at one model. Melee:
        every model's attacks are summed and rolled as one (000/001 Melee Sequence; 002 melee
        "works like shooting"), Impact included. Shooting: 000/001 follow the sequence once per
        weapon group, a weapon type (the unit's and a joined hero's copies alike); 002 rolls
        every shot together.
        """
        singles = [[g] for g in groups if self.group_order(g) == 0]
        rest = [g for g in groups if self.group_order(g) > 0]
        if self.sit.melee:
            if not striking_back:
                rest.append({"impact": True, "weapon": None})
            return singles + [rest]
        if self.code == "002":
            return singles + ([rest] if rest else [])
        by_type: dict[Any, list[dict[str, Any]]] = {}
        for g in rest:
            w = g["weapon"]
            by_type.setdefault((w.name, w.attacks, w.range, tuple(sorted(r.label for r in w.rules))), []).append(g)
        return singles + sorted(by_type.values(), key=lambda seq: min(self.group_order(g) for g in seq))

    @staticmethod
    def view(target: Unit) -> tuple[Any, int]:
        """Whose Defense blocks (000/001/002 Hero: the unit's until its non-hero models are dead)
        and how many models stand, when a sequence's dice are thrown."""
        regs = target.regulars()
        profile = target.f if regs or not target.heroes() else target.heroes()[0].member
        return profile, len(target.alive())

    def morale_fails(self, unit: Unit, state: Any, flank: str = "front") -> bool:
        code, rng = self.code, self.rng
        if state.shaken:
            return True
        members = ([unit.f] if unit.regulars() else []) + [m.member for m in unit.heroes()]
        tester = min(members, key=lambda m: m.quality)
        mod = 0
        if code == "002":
            fearless = all(_h(m.rules, "Fearless") for m in members)
        else:
            fearless = _h(tester.rules, "Fearless") or (bool(unit.regulars()) and _h(unit.f.rules, "Fearless"))
        if code == "000" and fearless:
            mod += 1
        if code == "002" and _h(unit.f.rules, "Banner") and unit.regulars():
            mod += 1
        if code == "002" and flank != "front":
            mod -= 1 if flank == "flank" else 2
        ok, _ = test_roll(rng, tester.quality, mod)
        if not ok and fearless and code in ("001", "002"):
            ok = d6(rng) >= 4
        return not ok

    def bonus(self, unit: Unit) -> int:
        code, rng = self.code, self.rng
        if not unit.alive():
            return 0
        members = ([(unit.f, len(unit.regulars()))] if unit.regulars() else []) + [(m.member, 1) for m in unit.heroes()]
        b = 0
        if code == "000" and any(_h(m.rules, "Fear") for m, _ in members):
            b += rng.randint(1, 3)
        if code == "001":
            b += max((_r(m.rules, "Fear") or 1 for m, _ in members if _h(m.rules, "Fear")), default=0)
        if code == "002":
            b += sum((_r(m.rules, "Fear") or 1) * c for m, c in members if _h(m.rules, "Fear"))
        if code == "000" and (_h(unit.f.rules, "Musician") or _h(unit.f.rules, "Battle Standard")) and unit.regulars():
            b += 1
        if code == "002" and unit.f.models > 1:
            b += len(unit.regulars()) // self.row(unit.f.models)
        return b

    def trial(self) -> dict[str, float]:
        sit = self.sit
        a = Unit(self.att_f, sit.attacker.models_lost, sit.attacker.wounds_taken)
        d = Unit(self.dfn_f, sit.defender.models_lost, sit.defender.wounds_taken)
        return self.fight(a, d)

    def fight(self, a: Unit, d: Unit) -> dict[str, float]:
        """One attack by a on d as they stand (the units keep the damage)."""
        sit = self.sit
        d_alive0 = len(d.alive())
        out: dict[str, float] = {}
        if not sit.melee:
            hp0 = d.hp()
            hits, _ = self.attack(a, d, False)
            out.update(hits=hits, wounds=hp0 - d.hp(), killed=d_alive0 - len(d.alive()), destroyed=float(not d.alive()))
            test = d.alive() and d.hp() < hp0 and d.half_or_less()
            out["test"] = float(bool(test))
            out["fail"] = float(bool(test) and self.morale_fails(d, sit.defender))
            return out
        # melee
        if self.code == "000" and sit.charging and self.all_have(d.f, "Phalanx"):
            dice = min(d.f.models, sum(m.tough for m in a.alive()))
            for _ in range(dice):
                if d6(self.rng) == 1:
                    m = a.next_target()
                    if m is not None:
                        m.damage += 1
        a_hp0 = a.hp()
        d_hp0 = d.hp()
        counter_first = self.code in ("001", "002") and self.charged()
        if counter_first and sit.strike_back is not None:
            self.attack(d, a, True, "only")
        hits = 0
        if a.alive():
            hits, _ = self.attack(a, d, False)
        if d.alive() and a.alive() and sit.strike_back:
            self.attack(d, a, True, "without" if counter_first else "all")
        caused_a = d_hp0 - d.hp()
        caused_d = a_hp0 - a.hp()
        out.update(hits=hits, wounds=caused_a, killed=d_alive0 - len(d.alive()), destroyed=float(not d.alive()))
        if not d.alive() or not a.alive():
            a_wins = float(not d.alive() and bool(a.alive()))
            d_wins = float(not a.alive() and bool(d.alive()))
            out.update(a_wins=a_wins, d_wins=d_wins, d_rout=0.0, d_shaken=0.0, a_rout=0.0)
            return out
        sa = caused_a + self.bonus(a)
        sd = caused_d + self.bonus(d)
        out.update(a_wins=float(sa > sd), d_wins=float(sd > sa))
        out.update(d_rout=0.0, d_shaken=0.0, a_rout=0.0)
        if sa > sd and self.morale_fails(d, sit.defender, sit.facing):
            out["d_rout" if d.half_or_less() else "d_shaken"] = 1.0
        if sd > sa and self.morale_fails(a, sit.attacker):
            out["a_rout" if a.half_or_less() else "a_shaken"] = 1.0
        return out

    def run(self, trials: int) -> dict[str, tuple[float, float]]:
        """Mean and standard error of every measured quantity."""
        return summarise(self.trial() for _ in range(trials))


class TurnSim:
    """A whole turn, simulated: the attacker shoots the defender, then charges it as it stands
    (a failed morale test from the shooting leaves it Shaken/Wavering for the melee)."""

    def __init__(self, code: str, att: Fighter, dfn: Fighter, shoot: Situation, charge: Situation, seed: int = 1):
        self.shoot = Sim(code, att, dfn, shoot, seed)
        self.charge = Sim(code, att, dfn, charge, seed)
        self.charge.rng = self.shoot.rng
        self.base = charge

    def trial(self) -> dict[str, float]:
        sit = self.shoot.sit
        a = Unit(self.shoot.att_f, sit.attacker.models_lost, sit.attacker.wounds_taken)
        d = Unit(self.shoot.dfn_f, sit.defender.models_lost, sit.defender.wounds_taken)
        hp0, alive0 = d.hp(), len(d.alive())
        shot = self.shoot.fight(a, d)
        out = {"charged": float(bool(d.alive())), "a_wins": 0.0, "d_removed": 0.0, "a_lost": 0.0}
        if d.alive():
            state = replace(self.base.defender, shaken=self.base.defender.shaken or bool(shot["fail"]))
            self.charge.sit = replace(self.base, defender=state)
            a_hp0 = a.hp()
            melee = self.charge.fight(a, d)
            out.update(a_wins=melee["a_wins"], d_removed=melee["d_rout"], a_lost=float(a_hp0 - a.hp()))
        out.update(wounds=float(hp0 - d.hp()), killed=float(alive0 - len(d.alive())), destroyed=float(not d.alive()))
        out["d_removed"] += out["destroyed"]
        return out

    def run(self, trials: int) -> dict[str, tuple[float, float]]:
        return summarise(self.trial() for _ in range(trials))


def summarise(trials: Any) -> dict[str, tuple[float, float]]:
    """Mean and standard error of every measured quantity over the trials."""
    sums: dict[str, float] = {}
    squares: dict[str, float] = {}
    count = 0
    for result in trials:
        count += 1
        for k, v in result.items():
            sums[k] = sums.get(k, 0.0) + v
            squares[k] = squares.get(k, 0.0) + v * v
    out = {}
    for k in sums:
        mean = sums[k] / count
        var = max(0.0, squares[k] / count - mean * mean)
        out[k] = (mean, (var / count) ** 0.5)
    return out
