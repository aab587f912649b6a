"""Fixed tables: a paired round renumbered so a fixed player sits at their table (tournament/tables.py)."""

from __future__ import annotations

from listbuilder.tournament.pairing import Entrant, Table, pair_round
from listbuilder.tournament.tables import fixed_notes, seat_fixed


def paired(*games, bye=None):
    """The pairing's tables: games top boards first, numbered 1…, then the bye."""
    found = [Table(n, pair) for n, pair in enumerate(games, start=1)]
    return found + ([Table(len(found) + 1, (bye, None))] if bye else [])


def test_without_fixed_players_the_pairings_numbers_stand():
    tables = paired(("a", "b"), ("c", "d"), bye="e")
    assert seat_fixed(tables, {}) == tables


def test_a_fixed_player_sits_at_their_table_and_the_others_fill_the_rest_top_boards_first():
    tables = paired(("a", "b"), ("c", "d"), ("e", "f"), ("g", "h"))
    seated = seat_fixed(tables, {"f": 1})  # the third board's player needs table 1
    assert seated == [Table(1, ("e", "f")), Table(2, ("a", "b")), Table(3, ("c", "d")), Table(4, ("g", "h"))]


def test_a_fixed_table_beyond_the_rounds_tables_leaves_a_gap_and_the_bye_comes_after_it():
    seated = seat_fixed(paired(("a", "b"), ("c", "d"), bye="e"), {"c": 12})
    assert seated == [Table(1, ("a", "b")), Table(12, ("c", "d")), Table(13, ("e", None))]


def test_a_fixed_player_with_a_bye_sits_nowhere():
    assert seat_fixed(paired(("a", "b"), bye="e"), {"e": 5}) == paired(("a", "b"), bye="e")


def test_two_fixed_players_who_meet_play_at_the_lower_table_whichever_is_first_in_the_pairing():
    for game in (("a", "b"), ("b", "a")):
        seated = seat_fixed(paired(("c", "d"), game), {"a": 4, "b": 2})
        assert seated == [Table(1, ("c", "d")), Table(2, game)]
    notes = fixed_notes([Table(2, ("a", "b"))], {"a": 4, "b": 2})
    assert notes == ["a (table 4) and b (table 2) are both fixed and play each other at table 2"]


def test_two_games_wanting_one_table_the_higher_board_has_it():
    seated = seat_fixed(paired(("a", "b"), ("c", "d")), {"d": 1, "a": 1})
    assert seated == [Table(1, ("a", "b")), Table(2, ("c", "d"))]
    assert fixed_notes(seated, {"d": 1, "a": 1}) == ["d is fixed to table 1 but plays at table 2"]


def test_a_round_kept_to_its_fixed_tables_has_no_note():
    assert fixed_notes([Table(3, ("a", "b")), Table(1, ("c", None))], {"a": 3, "c": 9}) == []


def test_a_real_round_seats_every_player_once_at_distinct_tables():
    ranked = [Entrant(f"p{i:02d}", score=float(20 - i)) for i in range(21)]
    fixed = {"p05": 1, "p20": 7, "p00": 30}
    seated = seat_fixed(pair_round(ranked), fixed)
    numbers = [t.number for t in seated]
    assert len(set(numbers)) == len(numbers) == 11
    at = {p: t.number for t in seated for p in t.players if p is not None}
    assert sorted(at) == sorted(e.key for e in ranked)
    assert all(at[p] == n for p, n in fixed.items() if seated[-1].players[0] != p)
