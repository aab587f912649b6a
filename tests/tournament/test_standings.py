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


# --------------------------------------------------------------------------------------------
# sos and secondary_difference (issue 35): the worked example of docs/events.md
#
# Round 1: Ann beats Bob 10-4; Cid has the bye; Dee has not arrived (she plays from round 2).
# Round 2: Ann beats Cid 8-6; Dee beats Bob 7-2.
# Round 3: Dee beats Ann 9-3; Bob beats Cid 7-5.
# Scores: Ann 6, Dee 6, Bob 3, Cid 3 (his bye's 3).


def scored(rnd, winner, loser, won, lost):
    return Game(rnd, (winner, loser), {winner: GameScore(3, won, "win"), loser: GameScore(0, lost, "loss")})


EXAMPLE = [
    scored(1, "Ann", "Bob", 10, 4),
    Game(1, ("Cid", None), {"Cid": GameScore(3, 0, "win")}),
    scored(2, "Ann", "Cid", 8, 6),
    scored(2, "Dee", "Bob", 7, 2),
    scored(3, "Dee", "Ann", 9, 3),
    scored(3, "Bob", "Cid", 7, 5),
]
PLAYERS = ["Ann", "Bob", "Cid", "Dee"]
EVERY = ["buchholz", "sos", "secondary", "secondary_difference"]


def by_player(table):
    return {s.player: s for s in table}


def test_the_worked_example_of_the_docs_by_hand():
    table = by_player(standings(PLAYERS, EXAMPLE, EVERY))
    assert {p: s.score for p, s in table.items()} == {"Ann": 6, "Bob": 3, "Cid": 3, "Dee": 6}
    assert {p: s.tiebreakers for p, s in table.items()} == {
        # Ann met Bob (3), Cid (3), Dee (6); secondary 10 + 8 + 3, minus 4 + 6 + 9
        "Ann": {"buchholz": 12, "sos": 4, "secondary": 21, "secondary_difference": 2},
        # Bob met Ann (6), Dee (6), Cid (3); 4 + 2 + 7 against 10 + 7 + 5
        "Bob": {"buchholz": 15, "sos": 5, "secondary": 13, "secondary_difference": -9},
        # Cid: the bye, then Ann (6) and Bob (3); 6 + 5 against 8 + 7, the bye nothing
        "Cid": {"buchholz": 9, "sos": 4.5, "secondary": 11, "secondary_difference": -4},
        # Dee, from round 2: Bob (3) and Ann (6); 7 + 9 against 2 + 3
        "Dee": {"buchholz": 9, "sos": 4.5, "secondary": 16, "secondary_difference": 11},
    }


def test_sos_is_the_mean_of_the_opponents_scores_so_a_bye_lowers_buchholz_but_not_sos():
    # P and Q both end on 6 and every opponent they met ends on 3; P's first round was a bye.
    games = [
        Game(1, ("P", None), {"P": WIN}),
        game(1, "Q", "O1"),
        game(1, "O2", "O4"),
        game(1, "O3", "O5"),
        game(2, "P", "O2"),
        game(2, "Q", "O3"),
        game(2, "O1", "O4"),
        Game(2, ("O5", None), {"O5": WIN}),
    ]
    table = by_player(standings(["P", "Q", "O1", "O2", "O3", "O4", "O5"], games, ["buchholz", "sos"]))
    assert table["P"].score == table["Q"].score == 6
    assert table["P"].tiebreakers == {"buchholz": 3, "sos": 3}  # O2 (3), over one game
    assert table["Q"].tiebreakers == {"buchholz": 6, "sos": 3}  # O1 (3) and O3 (3), over two


def test_a_late_arrivals_sos_is_the_mean_over_the_games_they_played():
    dee = by_player(standings(PLAYERS, EXAMPLE, ["buchholz", "sos"]))["Dee"]
    assert dee.played == 2 and dee.tiebreakers == {"buchholz": 9, "sos": 4.5}  # (3 + 6) / 2, not / 3


def test_sos_takes_the_opponents_score_now_and_counts_an_opponent_met_twice_twice():
    after_one = by_player(standings("AB", [game(1, "A", "B")], ["sos"]))
    assert after_one["B"].tiebreakers["sos"] == 3
    twice = [game(1, "A", "B"), game(2, "B", "A"), game(3, "A", "C")]  # A ends on 6, B on 3, C on 0
    table = by_player(standings("ABC", twice, ["sos"]))
    assert table["A"].tiebreakers["sos"] == 2  # (3 + 3 + 0) / 3
    assert table["B"].tiebreakers["sos"] == 6  # (6 + 6) / 2


def test_sos_is_0_for_a_player_with_no_game_against_an_opponent():
    table = by_player(standings("ABCD", [game(1, "A", "B"), Game(1, ("C", None), {"C": WIN})], ["sos"]))
    assert table["C"].tiebreakers["sos"] == 0  # only a bye
    assert table["D"].tiebreakers["sos"] == 0  # no game at all
    assert table["B"].tiebreakers["sos"] == 3


def test_equal_means_tie_though_the_floats_differ_in_the_last_bit():
    def share(rnd, a, b, pa, pb):
        return Game(rnd, (a, b), {a: GameScore(pa, 0, "win"), b: GameScore(pb, 0, "loss")})

    # A met X, Y, Z, who end on 0.1, 0.2, 0.3 (armour-hex scores are such fractions); B met W on 0.2.
    games = [share(1, "A", "X", 1, 0.1), share(2, "A", "Y", 1, 0.2), share(3, "A", "Z", 1, 0.3)]
    games.append(share(1, "B", "W", 3, 0.2))
    assert (0.1 + 0.2 + 0.3) / 3 != 0.2
    table = standings("ABWXYZ", games, ["sos"])
    assert [(s.rank, s.player, s.tiebreakers["sos"]) for s in table[:2]] == [(1, "A", 0.2), (1, "B", 0.2)]


def test_secondary_difference_is_ones_secondary_minus_the_opponents_in_the_same_games():
    table = by_player(standings(PLAYERS, EXAMPLE, ["secondary_difference"]))
    assert table["Ann"].tiebreakers["secondary_difference"] == (10 - 4) + (8 - 6) + (3 - 9)
    assert table["Cid"].tiebreakers["secondary_difference"] == (6 - 8) + (5 - 7)  # the bye counts nothing
    assert sum(s.tiebreakers["secondary_difference"] for s in table.values()) == 0


def test_a_bye_counts_nothing_in_secondary_difference_even_when_it_carries_a_secondary_score():
    # armour-hex scores a bye with MVP as its secondary; there is no opponent to subtract
    games = [Game(1, ("A", None), {"A": GameScore(3, 40, "win")}), scored(2, "A", "B", 20, 25)]
    table = by_player(standings("AB", games, ["secondary", "secondary_difference"]))
    assert table["A"].tiebreakers == {"secondary": 60, "secondary_difference": -5}
    assert table["B"].tiebreakers == {"secondary": 25, "secondary_difference": 5}


@pytest.mark.parametrize(
    ("order", "ranked"),
    [
        (["sos", "secondary_difference"], ["Dee", "Ann", "Bob", "Cid"]),  # Dee 4.5 > Ann 4; Bob 5 > Cid 4.5
        (["secondary_difference", "sos"], ["Dee", "Ann", "Cid", "Bob"]),  # Dee 11 > Ann 2; Cid -4 > Bob -9
        (["buchholz", "sos"], ["Ann", "Dee", "Bob", "Cid"]),  # Ann 12 > Dee 9: the late arrival pays
        (["head_to_head"], ["Dee", "Ann", "Bob", "Cid"]),  # Dee beat Ann, Bob beat Cid
    ],
)
def test_ties_are_broken_in_the_organisers_order(order, ranked):
    table = standings(PLAYERS, EXAMPLE, order)
    assert [s.player for s in table] == ranked and [s.rank for s in table] == [1, 2, 3, 4]
    assert all(list(s.tiebreakers) == order for s in table)


def test_the_default_order_is_the_four_there_were_before_sos_so_existing_events_do_not_move():
    from listbuilder.tournament import DEFAULT_TIEBREAKERS, TIEBREAKERS

    assert DEFAULT_TIEBREAKERS == ("buchholz", "opponents_strength", "secondary", "head_to_head")
    assert set(TIEBREAKERS) == {*DEFAULT_TIEBREAKERS, "sos", "secondary_difference"}
    table = standings(PLAYERS, EXAMPLE)
    assert [s.player for s in table] == ["Ann", "Dee", "Bob", "Cid"]
    assert list(table[0].tiebreakers) == list(DEFAULT_TIEBREAKERS)
