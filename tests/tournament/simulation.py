"""A Swiss tournament played with random winners, for the pairing tests and benchmarks/tournament.py.

Run alone, it plays the pairing tests' 20 tournaments of 64 players and 6 rounds and prints
their rematches and score gaps (the sum over every game of its players' score difference as
the round was paired), the figures issue 35 compares before and after:

    .venv/bin/python -m tests.tournament.simulation
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from listbuilder.tournament.pairing import Entrant, Table, pair_first_round, pair_round


@dataclass
class Played:
    """Where a simulated tournament stands: scores, who met whom, who had a bye."""

    score: dict[str, float]
    met: dict[str, set[str]]
    byes: set[str]

    def ranked(self) -> list[Entrant]:
        """The players as the next round's pairing sees them, best first."""
        entrants = (
            Entrant(k, self.score[k], had_bye=k in self.byes, opponents=frozenset(self.met[k])) for k in self.score
        )
        return sorted(entrants, key=lambda e: (-e.score, e.key))


def play_swiss(
    players: int,
    rounds: int,
    rng: random.Random,
    *,
    check: Callable[[int, list[Entrant], list[Table]], None] | None = None,
    draws: float = 0.0,
) -> Played:
    """*rounds* rounds of *players* players (round 1 by a random seed), each game won by a coin
    toss, or drawn (1 point each) with probability *draws*."""
    played = Played({f"p{i:04d}": 0.0 for i in range(players)}, {f"p{i:04d}": set() for i in range(players)}, set())
    for number in range(1, rounds + 1):
        ranked = played.ranked()
        tables = pair_first_round(ranked, seed=rng.randrange(2**31)) if number == 1 else pair_round(ranked)
        if check:
            check(number, ranked, tables)
        for t in tables:
            a, b = t.players
            if b is None:
                played.byes.add(a)
                played.score[a] += 3
                continue
            played.met[a].add(b), played.met[b].add(a)
            if draws and rng.random() < draws:
                played.score[a] += 1
                played.score[b] += 1
                continue
            played.score[rng.choice((a, b))] += 3
    return played


@dataclass
class Gaps:
    """What the pairings of some tournaments cost: rematches, and the games' score differences."""

    games: int = 0
    rematches: int = 0
    total: float = 0.0  # the sum of |score a - score b| over every game, scores as paired
    squares: float = 0.0  # the sum of their squares
    long_floats: int = 0  # games with another score group of the round between the two players

    def add(self, entrants: list[Entrant], tables: list[Table]) -> None:
        by_key = {e.key: e for e in entrants}
        groups = {e.score for e in entrants}
        for t in tables:
            a, b = t.players
            if b is None:
                continue
            low, high = sorted((by_key[a].score, by_key[b].score))
            self.games += 1
            self.rematches += b in by_key[a].opponents
            self.total += high - low
            self.squares += (high - low) ** 2
            self.long_floats += any(low < s < high for s in groups)


def gaps_of(
    tournaments: int = 20,
    players: int = 64,
    rounds: int = 6,
    *,
    seed: int = 28,
    draws: float = 0.0,
    into: Gaps | None = None,
) -> Gaps:
    """The rematches and score gaps of *tournaments* simulated tournaments (by default the
    pairing tests' own: the same seed, sizes and coin tosses), added *into* a running count."""
    rng, gaps = random.Random(seed), into or Gaps()
    for _ in range(tournaments):
        play_swiss(players, rounds, rng, check=lambda number, entrants, tables: gaps.add(entrants, tables), draws=draws)
    return gaps


if __name__ == "__main__":
    # 64 players and coin tosses keep every score group even (each game splits its group in
    # half), so the tests' own tournaments need no float at all; odd fields with draws do.
    harder = gaps_of(10, 63, seed=63, draws=0.15)
    for label, g in (
        ("20 x 64 players, no draws (the tests')", gaps_of()),
        ("10 x 63 and 10 x 65 players, 15 % draws", gaps_of(10, 65, seed=65, draws=0.15, into=harder)),
    ):
        print(
            f"{label}: {g.games} games, {g.rematches} rematches, total score gap {g.total:g}, "
            f"squared {g.squares:g}, {g.long_floats} games across a score group"
        )
