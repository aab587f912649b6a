"""Cost vectors: what units, upgrades and whole lists cost, in one or several currencies.

Why a module of its own: the arithmetic of costs (sums, weighted totals, zero entries dropped)
is used by every rules family and every report, and depends on nothing else in the model.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from types import MappingProxyType


class Cost:
    """A cost vector such as ``{"pts": 120}`` or ``{"ip": 3, "mp": 2}``.

    Costs are never bare integers: the hex armour game spends four currencies at once, and
    keeping one type for every system means totals, limits and reports share one code path.
    Zero entries are dropped so that equal costs compare equal. Immutable by convention
    (no setters; arithmetic returns new costs); kept light because validation adds many.
    """

    __slots__ = ("_amounts",)

    def __init__(self, amounts: Mapping[str, int] | None = None):
        self._amounts: dict[str, int] = {k: int(v) for k, v in sorted((amounts or {}).items()) if v}

    @classmethod
    def _from_clean(cls, amounts: dict[str, int]) -> Cost:
        """Wrap a dict already in canonical form (sorted keys, ints); arithmetic keeps that form."""
        cost = cls.__new__(cls)
        cost._amounts = {k: v for k, v in amounts.items() if v}
        return cost

    @classmethod
    def of(cls, **amounts: int) -> Cost:
        return cls(amounts)

    @property
    def amounts(self) -> Mapping[str, int]:
        return MappingProxyType(self._amounts)

    def __add__(self, other: Cost) -> Cost:
        if not other._amounts:
            return self
        if not self._amounts:
            return other
        if self._amounts.keys() == other._amounts.keys():
            return Cost._from_clean({k: v + other._amounts[k] for k, v in self._amounts.items()})
        merged = dict(self._amounts)
        for currency, amount in other._amounts.items():
            merged[currency] = merged.get(currency, 0) + amount
        return Cost(merged)

    def __sub__(self, other: Cost) -> Cost:
        return self + other * -1

    def __mul__(self, factor: int) -> Cost:
        if factor == 1:
            return self
        return Cost._from_clean({k: v * factor for k, v in self._amounts.items()})

    def __getitem__(self, currency: str) -> int:
        return self._amounts.get(currency, 0)

    def __iter__(self) -> Iterator[str]:
        return iter(self._amounts)

    def __bool__(self) -> bool:
        return bool(self._amounts)

    def __hash__(self) -> int:
        return hash(tuple(self._amounts.items()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cost) and self._amounts == other._amounts

    def __repr__(self) -> str:
        return f"Cost({self._amounts!r})"

    def as_dict(self) -> dict[str, int]:
        return dict(self._amounts)

    @staticmethod
    def weighted_total(base: Cost, parts: Iterable[tuple[Cost, int]]) -> Cost:
        """``base + sum(cost * factor)`` in one pass: a unit's price is its base cost plus each
        upgrade row's cost times the models it covers, and validation prices every entry."""
        merged = dict(base._amounts)
        for cost, factor in parts:
            for currency, amount in cost._amounts.items():
                merged[currency] = merged.get(currency, 0) + amount * factor
        return Cost(merged) if merged.keys() != base._amounts.keys() else Cost._from_clean(merged)

    @staticmethod
    def total(costs: Iterable[Cost]) -> Cost:
        merged: dict[str, int] = {}
        for cost in costs:
            for currency, amount in cost._amounts.items():
                merged[currency] = merged.get(currency, 0) + amount
        return Cost(merged)
