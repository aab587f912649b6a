"""Saves: whose Defense blocks a hit, how likely it holds, and Regeneration's second chance.

Defense is the unit's until its own models are gone, then the joined heroes'; Sniper/Takedown
attacks see one model as a unit of 1 with its own Defense and Regeneration. Regeneration is
rolled by the model a wound reaches (000/001) or only when every model left has it (002).
"""

from __future__ import annotations

from dataclasses import replace

from listbuilder.combat.opr.fight import Fight, members_at
from listbuilder.combat.opr.groups import Group
from listbuilder.combat.opr.hits import SIX
from listbuilder.combat.profiles import Fighter, WoundLine
from listbuilder.dice import success_chance


class Saves:
    """Block and Regeneration chances for one fight (Sniper's lone-model views cached)."""

    def __init__(self, fight: Fight):
        self.f = fight
        self._alone_cache: dict[int, Fighter] = {}
        # (id(defender), id(line), p) -> whether every model left has Regeneration alike (None: mixed)
        self._uniform: dict[tuple[int, int, int], bool | None] = {}

    def target(self, defender: Fighter, line: WoundLine, p: int, g: Group) -> Fighter:
        """Whose Defense blocks: the unit's until its own models are gone (000/001/002 Hero)."""
        if line.unit_alive(p) > 0 or not defender.heroes:
            return defender
        alive = line.heroes_alive(p)
        return defender.heroes[alive[0]] if alive else defender

    def block(self, target: Fighter, ap: int, g: Group, shooting: bool) -> float:
        d = self.f.d
        defense = target.defense
        if shooting and d.artillery == "defense2" and target.has("Artillery"):
            defense = 2  # 000 Artillery: Defense 2+ against shooting
        mod = -ap  # AP(X): -X to Defense rolls
        if shooting and self.f.sit.cover and d.cover == "defense" and not g.ignores_cover:
            mod += 1  # 001/002 Cover Terrain: +1 to Defense rolls against shooting
        block = success_chance(defense, mod)
        if g.reroll_def6:
            block = (block - SIX) + SIX * block  # re-roll unmodified 6s (001 Poison, 002 Bane); a die is re-rolled once
        return block

    @staticmethod
    def owner(defender: Fighter, line: WoundLine, model: int) -> Fighter:
        """The profile of the model at a place on the line: the unit's, or a joined hero's."""
        return defender if model < line.unit_models else defender.heroes[line.hero_index[model - line.unit_models]]

    def alone(self, owner: Fighter) -> Fighter:
        """One model of this profile as a unit of 1 of its own (how Sniper/Takedown see it)."""
        alone = self._alone_cache.get(id(owner))
        if alone is None:
            alone = self._alone_cache[id(owner)] = (
                owner if owner.models == 1 and not owner.heroes else replace(owner, models=1, heroes=())
            )
        return alone

    def regen_has(self, defender: Fighter, line: WoundLine, pos: int) -> bool:
        if self.f.d.regeneration_all_models:
            # 002 Regeneration: only when all models (of those left) have it
            members = members_at(defender, line, pos)
            return bool(members) and all(m.has("Regeneration") for m in members)
        return self.owner(defender, line, line.model_at(pos)).has(
            "Regeneration"
        )  # 000/001 Regeneration: the model taking the wound rolls

    def regen_at(self, defender: Fighter, line: WoundLine, pos: int, g: Group, kind: str) -> float:
        return self.regen_roll(self.regen_has(defender, line, pos), g, kind)

    @staticmethod
    def regen_roll(has: bool, g: Group, kind: str) -> float:
        """Chance one wound of this kind ("plain"/"six") is ignored by a model with or without Regeneration."""
        if not has or g.no_regen or (kind == "six" and g.six_no_regen):
            return 0.0
        return success_chance(5, g.regen_mod)  # Regeneration: each wound is ignored on 5+

    def regen_profile(self, defender: Fighter, line: WoundLine, p: int, g: Group) -> tuple[float, float] | None:
        """(plain, six) chance a wound is ignored, if the same for every model left; else None."""
        key = (id(defender), id(line), p)
        if key not in self._uniform:
            flags = {self.regen_has(defender, line, q) for q in model_starts(line, p)}
            self._uniform[key] = flags.pop() if len(flags) == 1 else None
        has = self._uniform[key]
        if has is None:
            return None
        return self.regen_roll(has, g, "plain"), self.regen_roll(has, g, "six")


def model_starts(line: WoundLine, p: int) -> list[int]:
    """A position inside each model still standing from p on."""
    out = [p]
    out.extend(e for e in line.ends if e > p and e < line.end)
    return out
