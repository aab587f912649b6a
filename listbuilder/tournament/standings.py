"""Standings: players ranked by score, then by the tiebreakers the organiser put in order.

Always recomputed from every game played (nothing is kept as a running total), so a result the
organiser overrides in round 1 moves everything after it. "The opponents" are the players one
met in a game that counts (once per game: an opponent met twice counts twice); a bye brings
none, and neither does a round one did not play (not arrived yet, withdrawn, a table still
without a result). An opponent's score is their total now, their own byes included. The
tiebreakers:

- ``buchholz``: the sum of one's opponents' scores (a bye or a missed round adds nothing, so it
  lowers Buchholz against players who met an opponent every round);
- ``opponents_strength``: the sum of those opponents' own Buchholz (how hard their schedules were);
- ``secondary``: the sum of one's secondary scores (OPR: the event's own; armour-hex: MVP);
- ``head_to_head``: among the players still tied when it is applied, the points each scored in
  the games they played against one another;
- ``sos`` (strength of schedule): the mean of one's opponents' scores: Buchholz divided by
  the number of games that brought an opponent; 0 for a player with no such game.
  Byes and missed rounds are left out of both, so they neither raise nor lower it;
- ``secondary_difference``: the sum, over one's games against an opponent, of one's secondary
  score minus the opponent's in that game (a bye counts nothing): over the event the values
  sum to 0.

The organiser's adjustments (penalties and bonuses, ``adjustments``: player -> points) count
in the player's own score, and so in their rank, but not in their opponents' Buchholz: a
penalty for lateness is the late player's, not their opponents'.

A bye counts as a game won but brings no opponent; a round a late arrival missed, where the
organiser counts it as a loss, is a game with no opponent and the outcome ``loss`` (in the
record, not in ``played``). Players equal on the score and on every
tiebreaker share a rank (1, 2, 2, 4) and are listed by name. Values are compared and shown
rounded to 6 decimals (a mean such as 13/3 would otherwise tie by chance or not at all).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from listbuilder.tournament import DEFAULT_TIEBREAKERS, TIEBREAKERS
from listbuilder.tournament.scoring import GameScore


@dataclass(frozen=True)
class Game:
    """One table's result: its two players (the second None for a bye) and their scores."""

    round: int
    players: tuple[str, str | None]
    scores: Mapping[str, GameScore]


@dataclass(frozen=True)
class Standing:
    rank: int
    player: str
    score: float
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    opponents: tuple[str, ...]
    tiebreakers: Mapping[str, float] = field(default_factory=dict)
    adjustment: float = 0.0  # the organiser's adjustments, already in score


def standings(
    players: Sequence[str],
    games: Sequence[Game],
    tiebreakers: Sequence[str] = DEFAULT_TIEBREAKERS,
    adjustments: Mapping[str, float] | None = None,
) -> list[Standing]:
    """Every player of *players* ranked from *games* and the organiser's *adjustments* (player ->
    points). Raises ValueError for an unknown tiebreaker."""
    unknown = [t for t in tiebreakers if t not in TIEBREAKERS]
    if unknown:
        raise ValueError(f"unknown tiebreakers {unknown}; known: {list(TIEBREAKERS)}")
    score: dict[str, float] = dict.fromkeys(players, 0.0)
    secondary: dict[str, float] = dict.fromkeys(players, 0.0)
    difference: dict[str, float] = dict.fromkeys(players, 0.0)
    opponents: dict[str, list[str]] = {p: [] for p in players}
    outcomes: dict[str, dict[str, int]] = {p: defaultdict(int) for p in players}
    for game in games:
        a, b = game.players
        for me, other in ((a, b), (b, a)):
            if me is None:
                continue
            mine = game.scores[me]
            score[me] += mine.points
            secondary[me] += mine.secondary
            # no opponent: a bye (a win), or a round missed and counted as a loss (a late arrival)
            outcomes[me]["bye" if other is None and mine.outcome != "loss" else mine.outcome] += 1
            if other is not None:
                opponents[me].append(other)
                difference[me] += mine.secondary - game.scores[other].secondary
    buchholz = {p: sum(score[o] for o in opponents[p]) for p in players}
    adjusted = {p: (adjustments or {}).get(p, 0.0) for p in players}
    for p in players:
        score[p] += adjusted[p]
    values = {
        "score": score,
        "buchholz": buchholz,
        "secondary": secondary,
        "opponents_strength": {p: sum(buchholz[o] for o in opponents[p]) for p in players},
        "sos": {p: buchholz[p] / len(opponents[p]) if opponents[p] else 0.0 for p in players},
        "secondary_difference": difference,
    }
    shown: dict[str, dict[str, float]] = {p: {} for p in players}
    classes = _rank(list(players), ["score", *tiebreakers], values, games, shown)
    ranked, place = [], 1
    for tied in classes:
        for p in tied:
            o = outcomes[p]
            ranked.append(
                Standing(
                    place,
                    p,
                    round(score[p], 6),
                    len(opponents[p]) + o["bye"],
                    o["win"],
                    o["draw"],
                    o["loss"],
                    o["bye"],
                    tuple(opponents[p]),
                    {t: round(shown[p].get(t, values.get(t, {}).get(p, 0.0)), 6) for t in tiebreakers},
                    round(adjusted[p], 6),
                )
            )
        place += len(tied)
    return ranked


def _rank(
    group: list[str],
    criteria: list[str],
    values: Mapping[str, Mapping[str, float]],
    games: Sequence[Game],
    shown: dict[str, dict[str, float]],
) -> list[list[str]]:
    """*group* split into classes of players tied on every criterion, best class first."""
    if not criteria or len(group) == 1:
        return [sorted(group, key=str.casefold)]
    first, rest = criteria[0], criteria[1:]
    value: Mapping[str, float]
    if first == "head_to_head":
        value = _head_to_head(set(group), games)
        for p in group:
            shown[p]["head_to_head"] = value[p]
    else:
        value = values[first]
    by_value: dict[float, list[str]] = defaultdict(list)
    for p in group:
        by_value[round(value[p], 6)].append(p)
    return [tied for v in sorted(by_value, reverse=True) for tied in _rank(by_value[v], rest, values, games, shown)]


def _head_to_head(group: set[str], games: Sequence[Game]) -> dict[str, float]:
    """The points each player of *group* scored in games against another player of *group*."""
    found = dict.fromkeys(group, 0.0)
    for game in games:
        a, b = game.players
        if a in group and b in group:
            found[a] += game.scores[a].points
            found[b] += game.scores[b].points
    return found
