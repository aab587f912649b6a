"""Standings (listbuilder/tournament/standings.py): score, then the organiser's tiebreakers in order."""

from __future__ import annotations

import pytest

from listbuilder.tournament.scoring import GameScore
from listbuilder.tournament.standings import Game, standings

WIN, LOSS, DRAW = GameScore(3, 0, "win"), GameScore(0, 0, "loss"), GameScore(1, 0, "draw")


def game(rnd, a, b, sa=WIN, sb=LOSS):
    return Game(rnd, (a, b), {a: sa, b: sb} if b else {a: sa})


# Round 1: A beats B, C beats D. Round 2: A beats C, D beats B.
GAMES = [game(1, "A", "B"), game(1, "C", "D"), game(2, "A", "C"), game(2, "D", "B")]


def test_standings_rank_by_score_then_buchholz():
    table = standings("ABCD", GAMES, ["buchholz"])
    assert [(s.rank, s.player, s.score) for s in table] == [(1, "A", 6), (2, "C", 3), (3, "D", 3), (4, "B", 0)]
    # C met A (6) and D (3); D met C (3) and B (0)
    assert table[1].tiebreakers == {"buchholz": 9} and table[2].tiebreakers == {"buchholz": 3}


def test_head_to_head_among_the_tied_players_when_the_organiser_puts_it_first():
    # C beat D, X beat C, D beat Y, Y beat Z and W: C, D and X are tied on 3.
    games = [game(1, "C", "D"), game(1, "Y", "Z"), game(2, "X", "C"), game(2, "D", "Y"), game(3, "Y", "W")]
    # Buchholz alone: D met C (3) and Y (6) = 9, C met D and X = 6, X met C = 3.
    assert [s.player for s in standings("CDXYZW", games, ["buchholz"])][1:4] == ["D", "C", "X"]
    # Head to head first: among C, D, X, C and X scored 3 against the others, D none;
    # then Buchholz splits C (6) from X (3).
    ranked = standings("CDXYZW", games, ["head_to_head", "buchholz"])
    assert [s.player for s in ranked][1:4] == ["C", "X", "D"]
    assert [s.tiebreakers["head_to_head"] for s in ranked][1:4] == [3, 3, 0]


def test_secondary_breaks_ties_when_asked():
    games = [
        Game(1, ("A", "B"), {"A": GameScore(3, 5, "win"), "B": GameScore(0, 9, "loss")}),
        Game(1, ("C", "D"), {"C": GameScore(3, 7, "win"), "D": GameScore(0, 1, "loss")}),
    ]
    assert [s.player for s in standings("ABCD", games, ["secondary"])] == ["C", "A", "B", "D"]


def test_opponents_strength_is_the_sum_of_the_opponents_buchholz():
    table = {s.player: s for s in standings("ABCD", GAMES, ["opponents_strength"])}
    # Buchholz: A 3 (B 0 + C 3), B 9, C 9, D 3. A met B and C: 9 + 9.
    assert table["A"].tiebreakers["opponents_strength"] == 18


def test_a_bye_is_a_win_without_an_opponent_and_equal_players_share_a_rank():
    table = standings("ABC", [game(1, "A", "B", DRAW, DRAW), Game(1, ("C", None), {"C": WIN})])
    assert [(s.rank, s.player, s.byes) for s in table] == [(1, "C", 1), (2, "A", 0), (2, "B", 0)]


def test_an_unknown_tiebreaker_is_refused():
    with pytest.raises(ValueError):
        standings("AB", [], ["coin_toss"])
