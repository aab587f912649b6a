"""Swiss pairing: who plays whom in a round, and at which table.

A round is a maximum-weight perfect matching on a graph of the players who play it: every
pair that may meet is an edge whose weight says how good a game it would be. The matching is
networkx's (``max_weight_matching`` with ``maxcardinality``: Edmonds' blossom algorithm, well
kept and proven) rather than one of our own, whose corner cases (odd cycles of preferences)
are exactly where home-made Swiss pairers go wrong.

What makes a pair good, most important first (each level outweighs every lower one summed
over a whole round, so the order is strict):

1. they have not met before (a rematch only when no pairing of everyone avoids it);
2. their scores are close (the round's total score difference is the smallest possible);
3. with the options on, they are not of the same club, nor (round 1) the same faction;
4. their places in the order are close: neighbours in the standings from round 2
   (1 v 2, 3 v 4 within a score group), and in round 1 the fold of the order (1 v n/2+1),
   so that the top seeds do not meet at once.

An odd number of players gives one bye, decided before the matching: the lowest-ranked player
who has not had one (in round 1, the last of the order).

Large fields: the graph joins each player to the ``window`` players either side of them in
the order, widened (doubling) whenever the matching is not perfect or holds a rematch, up to
the whole field; below ``FULL_GRAPH`` players it is whole from the start.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import networkx as nx

FULL_GRAPH = 128  # fields up to this size are paired on the complete graph
WINDOW = 8  # larger fields start with this many neighbours either side
SCORE_UNIT = 1000  # scores compared in thousandths (armour-hex scores are square roots)


class PairingError(ValueError):
    """A round that cannot be paired as asked (fewer than two players, a bad seed order)."""


@dataclass(frozen=True)
class Entrant:
    """A player as the pairing sees them."""

    key: str
    score: float = 0.0
    club: str | None = None
    faction: str | None = None
    had_bye: bool = False
    opponents: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True)
class Options:
    avoid_same_club: bool = False
    avoid_same_faction_first_round: bool = False


@dataclass(frozen=True)
class Table:
    """A table of a round; the second player is None for a bye."""

    number: int
    players: tuple[str, str | None]


def pair_first_round(
    entrants: Sequence[Entrant],
    *,
    options: Options = Options(),
    seed: int | None = None,
    seed_order: Sequence[str] | None = None,
) -> list[Table]:
    """Round 1: the players in *seed_order* (each named once), or shuffled by *seed*
    (the same seed gives the same round), folded so the top half meets the bottom half.
    Raises PairingError."""
    by_key = {e.key: e for e in entrants}
    if seed_order is not None:
        if sorted(seed_order) != sorted(by_key):
            raise PairingError("the seed order must name every player who plays exactly once")
        order = [by_key[k] for k in seed_order]
    else:
        order = sorted(entrants, key=lambda e: e.key)
        random.Random(seed).shuffle(order)
    return _pair(order, options, first_round=True)


def pair_round(ranked: Sequence[Entrant], *, options: Options = Options()) -> list[Table]:
    """A later round for players in standings order (best first). Raises PairingError."""
    return _pair(list(ranked), options, first_round=False)


def _pair(order: list[Entrant], options: Options, *, first_round: bool) -> list[Table]:
    if len(order) < 2:
        raise PairingError("a round needs at least two players")
    bye = None
    if len(order) % 2:
        bye = next((e for e in reversed(order) if not e.had_bye), order[-1])
        order = [e for e in order if e is not bye]
    pairs = _match(order, _cost_function(order, options, first_round))
    position = {e.key: i for i, e in enumerate(order)}
    pairs.sort(key=lambda pair: min(position[pair[0]], position[pair[1]]))
    tables = [Table(n, pair) for n, pair in enumerate(pairs, start=1)]
    if bye is not None:
        tables.append(Table(len(tables) + 1, (bye.key, None)))
    return tables


Cost = Callable[[int, int], tuple[int, int, int, int]]


def _cost_function(order: list[Entrant], options: Options, first_round: bool) -> Cost:
    """The four levels of what makes a pair (i, j) worse, as integers (see the module's doc)."""
    half = len(order) // 2
    scores = [round(e.score * SCORE_UNIT) for e in order]

    def cost(i: int, j: int) -> tuple[int, int, int, int]:
        a, b = order[i], order[j]
        clash = int(options.avoid_same_club and a.club is not None and a.club == b.club)
        clash += int(
            first_round and options.avoid_same_faction_first_round and a.faction is not None and a.faction == b.faction
        )
        place = abs(abs(i - j) - half) if first_round else abs(i - j) - 1
        return int(b.key in a.opponents), abs(scores[i] - scores[j]), clash, place

    return cost


def _match(order: list[Entrant], cost: Cost) -> list[tuple[str, str]]:
    """The best perfect matching of *order*, on a window of the order widened until it
    pairs everyone without a rematch (or is the whole field)."""
    n = len(order)
    window = n if n <= FULL_GRAPH else WINDOW
    while True:
        edges = {(i, j): cost(i, j) for i in range(n) for j in range(i + 1, min(n, i + window + 1))}
        mates = _best_matching(n, edges)
        complete = len(mates) * 2 == n
        if window >= n or (complete and not any(edges[pair][0] for pair in mates)):
            if not complete:
                raise PairingError("no pairing of every player exists")
            return [(order[i].key, order[j].key) for i, j in mates]
        window *= 2


def _best_matching(n: int, edges: dict[tuple[int, int], tuple[int, int, int, int]]) -> list[tuple[int, int]]:
    """Lexicographic costs folded into one integer weight each: every level is scaled past the
    largest total the levels below it can reach over one matching, so the order is strict."""
    pairs = n // 2
    totals = [0, 0, 0, 0]
    for costs in edges.values():
        for level, value in enumerate(costs):
            totals[level] = max(totals[level], value)
    scale, weight_of_level = 1, [0, 0, 0, 0]
    for level in (3, 2, 1, 0):
        weight_of_level[level] = scale
        scale *= totals[level] * pairs + 1
    graph = nx.Graph()
    for (i, j), costs in edges.items():
        graph.add_edge(i, j, weight=scale - sum(c * w for c, w in zip(costs, weight_of_level)))
    return sorted(tuple(sorted(pair)) for pair in nx.max_weight_matching(graph, maxcardinality=True))
