"""Swiss pairing: who plays whom in a round, and at which table.

A round is a maximum-weight perfect matching on a graph of the players who play it: every
pair that may meet is an edge whose weight says how good a game it would be. The matching is
networkx's (``max_weight_matching`` with ``maxcardinality``: Edmonds' blossom algorithm, well
kept and proven) rather than one of our own, whose corner cases (odd cycles of preferences)
are exactly where home-made Swiss pairers go wrong.

An odd field has one more vertex, the bye, joined to every player: the player matched to it
sits out. So the bye is chosen by the matching, together with the games, never before them
(a bye chosen first can leave the others a rematch that another bye avoids).

The rules, most important first (each level outweighs every lower one summed over a whole
round, so the order is strict; every weight is an exact integer):

a. nobody has a second bye while someone who has had none can take it;
b. as few rematches as possible: none while a pairing of everyone (with a bye allowed by a)
   avoids them;
c. the bye goes to the lowest-scored player for whom (a) and (b) still hold (FIDE C.04.1);
d. the sum of the squared score differences of the games is the smallest, so a game across
   two score groups costs more than two games across one each;
e. with the options on, players of one club apart, and in round 1 of one faction apart;
f. places in the order close: neighbours in the standings from round 2 (1 v 2, 3 v 4 within
   a score group), and in round 1 the fold of the order (1 v n/2+1), so that the top seeds do
   not meet at once; among equals, the bye goes to the lowest in the order (in round 1, the
   last of the order).

Large fields: the graph joins each player to the ``window`` players either side of them in
the order (and the bye to everyone), widened (doubling) whenever its matching is not perfect,
holds a rematch, or puts the bye where (a) or (c) would not, up to the whole field; below
``FULL_GRAPH`` players it is whole from the start.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx  # type: ignore[import-untyped]

FULL_GRAPH = 128  # fields up to this size are paired on the complete graph
WINDOW = 8  # larger fields start with this many neighbours either side
SCORE_UNIT = 1000  # scores compared in thousandths (armour-hex scores are square roots)

# The levels of a cost, most important first (see the module's doc).
SECOND_BYE, REMATCH, BYE_SCORE, SQUARED_GAP, CLASH, PLACE = range(6)
LEAST_FIRST = (PLACE, CLASH, SQUARED_GAP, BYE_SCORE, REMATCH, SECOND_BYE)
Cost = tuple[int, int, int, int, int, int]


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
    games, bye = _match(_Costs(order, options, first_round))
    tables = [Table(n, (order[i].key, order[j].key)) for n, (i, j) in enumerate(sorted(games), start=1)]
    if bye is not None:
        tables.append(Table(len(tables) + 1, (order[bye].key, None)))
    return tables


class _Costs:
    """What makes a game (i, j), or a bye for i, worse, level by level (see the module's doc),
    for players by their place in *order*."""

    def __init__(self, order: list[Entrant], options: Options, first_round: bool):
        self.order, self.options, self.first_round = order, options, first_round
        self.n = len(order)
        self.half = self.n // 2
        # Scores in thousandths, less the lowest, in units of their greatest common divisor:
        # the same order of every sum of squares, in the smallest integers.
        thousandths = [round(e.score * SCORE_UNIT) for e in order]
        low = min(thousandths)
        unit = math.gcd(*(s - low for s in thousandths)) or 1
        self.scores = [(s - low) // unit for s in thousandths]
        group = {s: rank for rank, s in enumerate(sorted(set(self.scores)))}
        self.group = [group[s] for s in self.scores]
        # (a): only someone without a bye may take it, unless everyone has had one.
        self.may_sit_out = [not e.had_bye for e in order] if not all(e.had_bye for e in order) else [True] * self.n
        # (c): the lowest score group among them.
        self.lowest_group = min(g for g, may in zip(self.group, self.may_sit_out) if may)

    def game(self, i: int, j: int) -> Cost:
        a, b = self.order[i], self.order[j]
        clash = int(self.options.avoid_same_club and a.club is not None and a.club == b.club)
        clash += int(
            self.first_round
            and self.options.avoid_same_faction_first_round
            and a.faction is not None
            and a.faction == b.faction
        )
        place = abs(abs(i - j) - self.half) if self.first_round else abs(i - j) - 1
        return 0, int(b.key in a.opponents), 0, (self.scores[i] - self.scores[j]) ** 2, clash, place

    def bye(self, i: int) -> Cost:
        return int(not self.may_sit_out[i]), 0, self.group[i], 0, 0, self.n - 1 - i

    def settled(self, games: list[tuple[int, int]], bye: int | None) -> bool:
        """Whether a matching found on part of the graph already keeps (a) to (c): no rematch,
        and a bye for the lowest score group of those who may take it."""
        if any(self.order[j].key in self.order[i].opponents for i, j in games):
            return False
        return bye is None or (self.may_sit_out[bye] and self.group[bye] == self.lowest_group)


def _match(costs: _Costs) -> tuple[list[tuple[int, int]], int | None]:
    """The best perfect matching of the players (i < j in each game) and who sits out (None
    for an even field), on a window of the order widened until it keeps (a) to (c) (or is
    the whole field)."""
    n = costs.n
    bye_vertex = n if n % 2 else None
    window = n if n <= FULL_GRAPH else WINDOW
    while True:
        edges = {(i, j): costs.game(i, j) for i in range(n) for j in range(i + 1, min(n, i + window + 1))}
        if bye_vertex is not None:
            edges.update({(i, bye_vertex): costs.bye(i) for i in range(n)})
        mates = _best_matching(n + n % 2, edges)
        games = [(i, j) for i, j in mates if j != bye_vertex]
        bye = next((i for i, j in mates if j == bye_vertex), None)
        complete = len(mates) * 2 == n + n % 2
        if window >= n or (complete and costs.settled(games, bye)):
            if not complete:
                raise PairingError("no pairing of every player exists")
            return games, bye
        window *= 2


def _best_matching(vertices: int, edges: dict[tuple[int, int], Cost]) -> list[tuple[int, int]]:
    """Lexicographic costs folded into one integer weight each: every level is scaled past the
    largest total the levels below it can reach over one matching, so the order is strict.
    The weights are Python integers, however large: networkx's matching then computes in
    integers only, exactly (floats would lose the lower levels past 2**53)."""
    per_matching = vertices // 2
    largest = [max(costs[level] for costs in edges.values()) for level in range(len(LEAST_FIRST))]
    scale, weight_of_level = 1, [0] * len(LEAST_FIRST)
    for level in LEAST_FIRST:
        weight_of_level[level] = scale
        scale *= largest[level] * per_matching + 1
    graph = nx.Graph()
    for (i, j), costs in edges.items():
        graph.add_edge(i, j, weight=scale - sum(c * w for c, w in zip(costs, weight_of_level)))
    matching: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((min(pair), max(pair)) for pair in matching)
