"""Exact discrete probability distributions over integer outcomes, for dice maths.

A :class:`Dist` is an immutable outcome -> probability mapping. Distributions combine by
convolution (``a + b``: the sum of two independent results), by mixture (``bind``: the next
step depends on this step's outcome) and by mapping outcomes (``map``). Everything is computed
exactly by enumeration (floating point, no sampling); the test suite cross-checks it against
an independent Monte Carlo simulator.

Probabilities below ``EPSILON`` are dropped so long chains of convolutions stay small; the
dropped mass is far below anything a player could see in a percentage.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache

EPSILON = 1e-15


class Dist:
    """An immutable distribution over integers. ``Dist({0: 0.5, 1: 0.5})`` is a coin."""

    __slots__ = ("_pmf",)

    def __init__(self, pmf: Mapping[int, float]):
        cleaned = {int(k): float(v) for k, v in pmf.items() if v > EPSILON}
        self._pmf: dict[int, float] = dict(sorted(cleaned.items()))

    # -- construction ------------------------------------------------------------------------

    @staticmethod
    def constant(value: int = 0) -> Dist:
        return Dist({value: 1.0})

    @staticmethod
    def bernoulli(p: float) -> Dist:
        """1 with probability *p*, else 0."""
        return Dist({0: 1.0 - p, 1: p})

    @staticmethod
    def binomial(n: int, p: float) -> Dist:
        """Successes among *n* independent trials that each succeed with probability *p*."""
        return _binomial(n, round(p, 15))

    @staticmethod
    def die(sides: int = 6) -> Dist:
        return Dist(dict.fromkeys(range(1, sides + 1), 1.0 / sides))

    @staticmethod
    def mixture(weighted: Iterable[tuple[float, Dist]]) -> Dist:
        """The distribution that is *d* with probability *w*, for each ``(w, d)``."""
        out: dict[int, float] = {}
        for weight, dist in weighted:
            if weight <= EPSILON:
                continue
            for value, p in dist._pmf.items():
                out[value] = out.get(value, 0.0) + weight * p
        return Dist(out)

    # -- reading -----------------------------------------------------------------------------

    def items(self) -> Iterable[tuple[int, float]]:
        return self._pmf.items()

    def p(self, value: int) -> float:
        return self._pmf.get(value, 0.0)

    def at_least(self, value: int) -> float:
        return sum(p for v, p in self._pmf.items() if v >= value)

    def at_most(self, value: int) -> float:
        return sum(p for v, p in self._pmf.items() if v <= value)

    @property
    def mean(self) -> float:
        return sum(v * p for v, p in self._pmf.items())

    @property
    def total(self) -> float:
        return sum(self._pmf.values())

    @property
    def max(self) -> int:
        return max(self._pmf) if self._pmf else 0

    @property
    def min(self) -> int:
        return min(self._pmf) if self._pmf else 0

    def as_dict(self) -> dict[str, object]:
        """JSON form: probabilities of each outcome, mean, and "at least N" for every N."""
        top = self.max
        return {
            "mean": self.mean,
            "pmf": {str(v): p for v, p in self._pmf.items()},
            "at_least": {str(n): self.at_least(n) for n in range(self.min, top + 1)},
        }

    # -- combination -------------------------------------------------------------------------

    def __add__(self, other: Dist) -> Dist:
        """The sum of two independent outcomes (convolution)."""
        out: dict[int, float] = {}
        for a, pa in self._pmf.items():
            for b, pb in other._pmf.items():
                out[a + b] = out.get(a + b, 0.0) + pa * pb
        return Dist(out)

    def repeat(self, times: int) -> Dist:
        """The sum of *times* independent copies (by repeated doubling)."""
        result, base, n = Dist.constant(0), self, times
        while n > 0:
            if n & 1:
                result = result + base
            n >>= 1
            if n:
                base = base + base
        return result

    def map(self, fn: Callable[[int], int]) -> Dist:
        out: dict[int, float] = {}
        for v, p in self._pmf.items():
            key = fn(v)
            out[key] = out.get(key, 0.0) + p
        return Dist(out)

    def bind(self, fn: Callable[[int], Dist]) -> Dist:
        """Each outcome *v* leads to ``fn(v)``; the result is their weighted mixture."""
        return Dist.mixture((p, fn(v)) for v, p in self._pmf.items())

    def clip(self, low: int | None = None, high: int | None = None) -> Dist:
        return self.map(
            lambda v: max(low, v) if low is not None and v < low else (min(high, v) if high is not None else v)
        )

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Dist)
            and self._pmf.keys() == other._pmf.keys()
            and all(math.isclose(p, other._pmf[v], abs_tol=1e-12) for v, p in self._pmf.items())
        )

    def __hash__(self) -> int:
        return hash(tuple((v, round(p, 12)) for v, p in self._pmf.items()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{v}: {p:.6g}" for v, p in self._pmf.items())
        return f"Dist({{{inner}}})"


def forget_binomials() -> None:
    """Empty the binomial cache, so a benchmark can time a cold preview."""
    _binomial.cache_clear()


@lru_cache(maxsize=4096)
def _binomial(n: int, p: float) -> Dist:
    if n < 0:
        raise ValueError(f"binomial needs n >= 0, got {n}")
    if p <= 0.0:
        return Dist.constant(0)
    if p >= 1.0:
        return Dist.constant(n)
    if n <= _EXACT_COMB_UP_TO:
        return Dist({k: math.comb(n, k) * p**k * (1.0 - p) ** (n - k) for k in range(n + 1)})
    # Past that, C(n, k) is beyond a float (int * float raised OverflowError, a 500) and p**k
    # underflows to 0; the logarithms of all three stay small, so each term is exp(their sum).
    log_p, log_q, log_n = math.log(p), math.log1p(-p), math.lgamma(n + 1)
    return Dist(
        {
            k: math.exp(log_n - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * log_p + (n - k) * log_q)
            for k in range(n + 1)
        }
    )


# C(1020, 510) is about 1e305, the last central binomial coefficient below a float's 1.8e308:
# up to here the direct product is exact to rounding, and the usual case.
_EXACT_COMB_UP_TO = 1020


@lru_cache(maxsize=1024)
def success_chance(
    target: int, modifier: int = 0, sides: int = 6, *, natural_hit: int | None = 6, natural_miss: int | None = 1
) -> float:
    """Chance that one die scores *target*+ after *modifier*, with natural results fixed.

    OPR: a natural 6 always succeeds and a natural 1 always fails, whatever the modifiers.
    Cached: a melee preview asks the same few questions about a thousand times.
    """
    wins = 0
    for face in range(1, sides + 1):
        if natural_hit is not None and face >= natural_hit:
            wins += 1
        elif natural_miss is not None and face <= natural_miss:
            continue
        elif face + modifier >= target:
            wins += 1
    return wins / sides


# -- helpers for the hex systems ---------------------------------------------------------------


def reroll_once(value: Callable[[int], int], reroll: Callable[[int], bool], sides: int = 6) -> Dist:
    """One die's score when the faces *reroll* picks are rolled again, once only.

    *value* maps a face to what it scores (0 for a miss, 2 for a double hit...). The second
    roll stands whatever it shows: the hex rulebooks allow a die to be rerolled at most once.
    """
    fresh = Dist.die(sides).map(value)
    return Dist.die(sides).bind(lambda face: fresh if reroll(face) else Dist.constant(value(face)))


def open_ended_d6(*, sides: int = 6, bonus_from: int = 5) -> Dist:
    """An open-ended die: a top face rolls again, each roll at *bonus_from*+ adds one and goes on.

    The chain has no end in theory; its tail is cut once its mass falls below ``EPSILON``
    and the cut mass is kept on the last value, so the total stays exactly one.
    """
    pmf: dict[int, float] = dict.fromkeys(range(1, sides), 1.0 / sides)
    go_on = (sides - bonus_from + 1) / sides
    mass, extra = 1.0 / sides, 0
    while mass * go_on > EPSILON:
        pmf[sides + extra] = mass * (1.0 - go_on)
        mass *= go_on
        extra += 1
    pmf[sides + extra] = mass
    return Dist(pmf)


def open_ended_at_least(target: int, *, sides: int = 6, bonus_from: int = 5) -> float:
    """Exact chance that an open-ended die (see :func:`open_ended_d6`) totals *target* or more."""
    if target <= 1:
        return 1.0
    if target <= sides:
        return (sides - target + 1) / sides
    go_on = (sides - bonus_from + 1) / sides
    return (1.0 / sides) * go_on ** (target - sides)
