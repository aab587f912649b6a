"""A Swiss tournament played with random winners, for the pairing tests and benchmarks/tournament.py."""

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
) -> Played:
    """*rounds* rounds of *players* players (round 1 by a random seed), each game won by a coin toss."""
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
            played.score[rng.choice((a, b))] += 3
    return played
