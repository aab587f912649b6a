"""How an OPR fight happens: the request's ``situation`` as values the phases read."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from listbuilder.combat.service import PreviewError


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
            return SideState(
                **{k: raw[k] for k in ("shaken", "fatigued", "models_lost", "wounds_taken", "moved") if k in raw}
            )

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
