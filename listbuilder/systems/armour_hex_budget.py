"""The armour-hex budgets (rulebook 004, Build your army): which amounts a list may spend, and
whether it stays within them.

A list plays a game mode (fixed amounts per currency; the armoured asymmetric side also has
points to divide over MP, CP and XP), or writes its own budget (an agreement between players).
Interpretations (also in ``docs/systems/armour-hex.md``): "less than the total" is read as
*not more than* unless the system says ``spend: below``; a written division of the split points
must add up exactly and is then checked currency by currency, an open one is checked as a pool.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any

from listbuilder.model import ArmyList, Cost
from listbuilder.validation import Issue

CUSTOM = "custom"


@dataclass(frozen=True)
class Budget:
    """What a list may spend: fixed amounts per currency and, for the armoured asymmetric side,
    points to divide over several currencies (``declared`` when the list wrote the division)."""

    mode: str
    fixed: Mapping[str, int]
    split_points: int = 0
    split_across: tuple[str, ...] = ()
    declared: Mapping[str, int] | None = None

    @property
    def pooled(self) -> bool:
        return bool(self.split_across) and self.declared is None

    def allowed(self, currency: str) -> int | None:
        """The amount one currency may use on its own, or None when it shares the split pool."""
        if currency in self.split_across:
            return None if self.declared is None else self.declared.get(currency, 0)
        return self.fixed.get(currency, 0)


def _show(amounts: Mapping[str, int]) -> str:
    return ", ".join(f"{v} {c.upper()}" for c, v in amounts.items()) or "nothing"


class Budgets:
    """The budget rules of one armour-hex system, read from its composition (currencies, game
    modes, ``spend``, the budget clause). The system's data never changes once loaded, so what
    every validation reads is built once."""

    def __init__(self, composition: Mapping[str, Any]):
        self.composition = composition

    @cached_property
    def currencies(self) -> tuple[str, ...]:
        return tuple(self.composition["currencies"])

    @cached_property
    def modes(self) -> Mapping[str, Mapping[str, Any]]:
        return MappingProxyType({m["id"]: m for m in self.composition["game_modes"]})

    def mode_budget(self, mode_id: str) -> Budget:
        mode = self.modes[mode_id]
        split = mode.get("split") or {}
        return Budget(mode_id, dict(mode["budget"]), split.get("points", 0), tuple(split.get("across", ())))

    def settle(self, army: ArmyList) -> tuple[Budget | None, list[Issue]]:
        """The budget a list plays with, from its game mode and/or its budget (see module doc)."""
        clause = self.composition["budget_clause"]
        mode_id = army.extra.get("game_mode")
        given = army.extra.get("budget")
        given = {c: int(given.get(c, 0)) for c in self.currencies} if given is not None else None
        modes = self.modes
        if mode_id is None:
            if given is None:
                return self.mode_budget(self.composition["default_mode"]), []
            # 004 Build your army: players may agree any amounts; the list's budget is that agreement.
            return Budget(CUSTOM, given), []
        if mode_id not in modes:
            issue = Issue(
                "game_mode.unknown",
                f"no game mode {mode_id!r}; known: {', '.join(modes)}",
                "game_mode",
                clause,
                data={"known": list(modes)},
            )
            return (Budget(CUSTOM, given) if given is not None else None), [issue]
        budget = self.mode_budget(mode_id)
        if given is None:
            return budget, []
        issues: list[Issue] = []
        fixed_given = {c: v for c, v in given.items() if c not in budget.split_across}
        expected = {c: budget.fixed.get(c, 0) for c in fixed_given}
        # In a split mode the fixed currencies may be left out (0) or repeat the mode's amount.
        mismatched = {c: v for c, v in fixed_given.items() if v != expected[c] and not (budget.split_across and v == 0)}
        if mismatched:
            issues.append(
                Issue(
                    "game_mode.budget_mismatch",
                    f"game mode {mode_id!r} gives {_show(expected)}, the list's budget says {_show(fixed_given)}; the mode's amounts apply",
                    "budget",
                    clause,
                    data={"mode": dict(budget.fixed), "budget": given},
                )
            )
        if not budget.split_across:
            return budget, issues
        declared = {c: given[c] for c in budget.split_across}
        if not any(declared.values()):
            return budget, issues  # only the fixed part was repeated: the division stays open
        # 004 Build your army: the armoured side has 12 points in a combination of MP, XP and CP.
        if sum(declared.values()) != budget.split_points:
            issues.append(
                Issue(
                    "budget.split",
                    f"the {budget.split_points} free points are divided as {_show(declared)} = {sum(declared.values())}; they must add up to {budget.split_points}",
                    "budget",
                    clause,
                    data={"points": budget.split_points, "declared": declared},
                )
            )
            return budget, issues
        return Budget(mode_id, budget.fixed, budget.split_points, budget.split_across, declared), issues

    def over(self, spent: int, allowed: int) -> bool:
        # 004 Build your army: "less than the total" - read as not more than (spend: at_most).
        if self.composition["spend"] == "below":
            return spent > 0 and spent >= allowed
        return spent > allowed

    def spending(self, spent: Cost, budget: Budget) -> Iterator[Issue]:
        clause = self.composition["budget_clause"]
        for currency in self.currencies:
            allowed = budget.allowed(currency)
            if allowed is None:
                continue
            # 004 Build your army: each currency is spent within its own budget.
            if self.over(spent[currency], allowed):
                yield Issue(
                    f"budget.{currency}",
                    f"{spent[currency]} {currency.upper()} spent of {allowed} ({spent[currency] - allowed} over) in the {budget.mode} game",
                    f"budget.{currency}",
                    clause,
                    data={
                        "currency": currency,
                        "budget": allowed,
                        "spent": spent[currency],
                        "over": spent[currency] - allowed,
                    },
                )
        if budget.pooled:
            used = sum(spent[c] for c in budget.split_across)
            # 004 Build your army: the armoured side's MP, XP and CP together come to 12 points.
            if self.over(used, budget.split_points):
                names = "+".join(c.upper() for c in budget.split_across)
                yield Issue(
                    "budget.split",
                    f"{names} spent together: {used} of the {budget.split_points} free points ({used - budget.split_points} over)",
                    "budget",
                    clause,
                    data={"points": budget.split_points, "spent": used, "over": used - budget.split_points},
                )

    def totals(self, spent: Cost, budget: Budget | None) -> dict[str, Any]:
        if budget is None:
            return {"budget": None, "left": None}
        limits: dict[str, int] = {}
        left: dict[str, int] = {}
        pool_left = budget.split_points - sum(spent[c] for c in budget.split_across)
        for currency in self.currencies:
            allowed = budget.allowed(currency)
            if allowed is None:  # shares the pool: the most it could still take
                limits[currency] = spent[currency] + max(pool_left, 0)
                left[currency] = pool_left
            else:
                limits[currency] = allowed
                left[currency] = allowed - spent[currency]
        out: dict[str, Any] = {"budget": limits, "left": left}
        if budget.split_across:
            out["split"] = {
                "points": budget.split_points,
                "across": list(budget.split_across),
                "declared": dict(budget.declared) if budget.declared is not None else None,
                "spent": sum(spent[c] for c in budget.split_across),
                "left": pool_left,
            }
        return out
