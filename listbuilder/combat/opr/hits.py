"""Rolling to hit, and the exact per-die kernels every later phase builds on.

A die's outcome is packed into one integer so a group's dice convolve as one :class:`Dist`:
``hits * B + effective wounds`` (or ``hits * B*B + six-wounds * B + plain wounds`` when the
two kinds must stay apart). Kernels are cached: previews repeat the same dice many times.
"""

from __future__ import annotations

from functools import lru_cache, partial
from operator import add

from listbuilder.combat.opr.groups import Group
from listbuilder.dice import Dist, success_chance

B = 1 << 12  # base for packing (hits, wounds) into one Dist outcome: hits * B + wounds
SIX = 1.0 / 6.0


def hit_chances(g: Group) -> tuple[float, float]:
    """(chance of a natural 6, chance of another hit) for one attack die."""
    if g.auto:
        return 0.0, 1.0
    if g.six_only:
        return SIX, 0.0
    return SIX, success_chance(g.quality, g.hit_mod) - SIX


def hits_only(g: Group, n: int, models_alive: int) -> Dist:
    """Hits of n attacks of the group against a unit with *models_alive* (Blast is capped by it)."""
    blast = min(g.blast, 1 if g.single_model else max(1, models_alive))
    return hits_n(*hit_chances(g), g.six_hits, g.six_extra, blast, g.auto, n)


# n attacks of one kind, cached whole: a melee strikes back from every state the attack left, and
# a whole-turn or compare preview repeats the same groups, so the convolutions are shared.


@lru_cache(maxsize=4096)
def hits_n(p6: float, pn: float, six_hits: int, six_extra: int, blast: int, auto: bool, n: int) -> Dist:
    """Hits of n attacks."""
    return per_attack(p6, pn, six_hits, six_extra, blast, 0.0, 0.0, auto).map(lambda x: x // B).repeat(n)


@lru_cache(maxsize=4096)
def wounds_n(
    p6: float, pn: float, six_hits: int, six_extra: int, blast: int, q_six: float, q_plain: float, auto: bool, n: int
) -> Dist:
    """Effective wounds of n attacks (hits dropped)."""
    return wounds_only(per_attack(p6, pn, six_hits, six_extra, blast, q_six, q_plain, auto)).repeat(n)


@lru_cache(maxsize=1024)
def raw_n(
    p6: float, pn: float, six_hits: int, six_extra: int, blast: int, w_six: float, w_plain: float, auto: bool, n: int
) -> Dist:
    """Raw wounds of n attacks, kinds apart (see :func:`per_attack_raw`)."""
    return per_attack_raw(p6, pn, six_hits, six_extra, blast, w_six, w_plain, auto).repeat(n)


@lru_cache(maxsize=8192)
def per_attack(
    p6: float, pn: float, six_hits: int, six_extra: int, blast: int, q_six: float, q_plain: float, auto: bool
) -> Dist:
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
def group_2d(
    p6: float, pn: float, six_hits: int, six_extra: int, blast: int, q_six: float, q_plain: float, auto: bool, n: int
) -> Dist:
    """A whole group's hits * B + wounds. When every hit wounds alike, wounds given hits is a
    binomial, which avoids a two-dimensional convolution."""
    if abs(q_six - q_plain) < 1e-15:
        hits = per_attack(p6, pn, six_hits, six_extra, blast, 0.0, 0.0, auto).map(lambda x: x // B).repeat(n)
        return Dist.mixture((ph, Dist.binomial(h, q_plain).map(partial(add, h * B))) for h, ph in hits.items())
    return per_attack(p6, pn, six_hits, six_extra, blast, q_six, q_plain, auto).repeat(n)


@lru_cache(maxsize=8192)
def wounds_only(per: Dist) -> Dist:
    return per.map(lambda x: x % B)


@lru_cache(maxsize=4096)
def per_attack_raw(
    p6: float, pn: float, six_hits: int, six_extra: int, blast: int, w_six: float, w_plain: float, auto: bool
) -> Dist:
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
