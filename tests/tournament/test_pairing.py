"""Swiss pairing (listbuilder/tournament/pairing.py): close scores meet, no avoidable rematch, byes, seeds, clubs."""

from __future__ import annotations

import random

import pytest

from listbuilder.tournament.pairing import Entrant, Options, PairingError, pair_first_round, pair_round
from tests.tournament.simulation import play_swiss


def keys(n):
    return [f"p{i:03d}" for i in range(n)]


def pairs_of(tables):
    return [t.players for t in tables]


def test_no_rematch_in_20_random_tournaments_of_64_players_and_6_rounds():
    rng = random.Random(28)
    for _ in range(20):

        def check(number, entrants, tables):
            history = {e.key: e.opponents for e in entrants}
            assert sorted(p for t in tables for p in t.players) == sorted(history)
            for a, b in pairs_of(tables):
                assert b not in history[a], f"round {number}: {a} meets {b} again"

        play_swiss(64, 6, rng, check=check)


def test_a_rematch_only_when_no_pairing_avoids_it():
    # Four players who have all met one another: a third round must repeat a game, and does.
    history = {"a": {"b", "c", "d"}, "b": {"a", "c", "d"}, "c": {"a", "b", "d"}, "d": {"a", "b", "c"}}
    ranked = [Entrant(k, 0, opponents=frozenset(v)) for k, v in history.items()]
    assert len(pair_round(ranked)) == 2


def squared_differences(pairs, score):
    return sum((score[a] - score[b]) ** 2 for a, b in pairs)


def all_perfect_matchings(players):
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for more in all_perfect_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *more]


@pytest.mark.parametrize("trial", range(8))
def test_on_12_players_a_brute_force_search_finds_no_pairing_with_smaller_squared_score_differences(trial):
    rng = random.Random(trial)
    played = play_swiss(12, 3, rng)
    score, met = played.score, played.met
    ours = pairs_of(pair_round(played.ranked()))
    assert all(b not in met[a] for a, b in ours)
    best = min(
        squared_differences(m, score) for m in all_perfect_matchings(list(score)) if all(b not in met[a] for a, b in m)
    )
    assert squared_differences(ours, score) == best


def test_close_scores_meet_and_neighbours_in_the_standings_play():
    ranked = [Entrant(k, s) for k, s in zip("abcdef", (6, 6, 3, 3, 0, 0))]
    assert pairs_of(pair_round(ranked)) == [("a", "b"), ("c", "d"), ("e", "f")]


def test_an_odd_field_gives_the_bye_to_the_lowest_ranked_player_without_one():
    ranked = [
        Entrant("a", 6),
        Entrant("b", 3),
        Entrant("c", 3),
        Entrant("d", 0, had_bye=True),
        Entrant("e", 0, had_bye=True),
    ]
    tables = pair_round(ranked)
    assert tables[-1].players == ("c", None) and tables[-1].number == 3


def test_table_numbers_run_from_the_top_of_the_standings():
    ranked = [Entrant(k, s) for k, s in zip("abcd", (9, 6, 3, 0))]
    assert [(t.number, t.players) for t in pair_round(ranked)] == [(1, ("a", "b")), (2, ("c", "d"))]


def test_round_one_random_is_reproducible_from_its_seed():
    entrants = [Entrant(k) for k in keys(16)]
    first = pairs_of(pair_first_round(entrants, seed=7))
    assert pairs_of(pair_first_round(list(reversed(entrants)), seed=7)) == first
    assert pairs_of(pair_first_round(entrants, seed=8)) != first


def test_round_one_by_seed_order_folds_the_top_half_onto_the_bottom_half():
    entrants = [Entrant(k) for k in "abcdef"]
    tables = pair_first_round(entrants, seed_order=list("fedcba"))
    assert pairs_of(tables) == [("f", "c"), ("e", "b"), ("d", "a")]
    odd = pair_first_round(entrants[:5], seed_order=list("abcde"))
    assert odd[-1].players == ("e", None)  # the last seed sits out


def test_a_seed_order_must_name_every_player_once():
    with pytest.raises(PairingError):
        pair_first_round([Entrant("a"), Entrant("b")], seed_order=["a", "a"])


def test_avoid_same_club_pairs_across_clubs_within_a_score_group():
    ranked = [
        Entrant("a", 3, club="Leeds"),
        Entrant("b", 3, club="Leeds"),
        Entrant("c", 3, club="York"),
        Entrant("d", 3, club="York"),
    ]
    assert pairs_of(pair_round(ranked)) == [("a", "b"), ("c", "d")]
    apart = pairs_of(pair_round(ranked, options=Options(avoid_same_club=True)))
    assert all(ranked_club(a, ranked) != ranked_club(b, ranked) for a, b in apart)


def test_avoid_same_club_never_breaks_a_score_group():
    ranked = [
        Entrant("a", 3, club="Leeds"),
        Entrant("b", 3, club="Leeds"),
        Entrant("c", 0, club="York"),
        Entrant("d", 0, club="York"),
    ]
    assert pairs_of(pair_round(ranked, options=Options(avoid_same_club=True))) == [("a", "b"), ("c", "d")]


def ranked_club(key, ranked):
    return next(e.club for e in ranked if e.key == key)


def test_avoid_same_faction_applies_in_round_one():
    entrants = [Entrant(k, faction="orc" if k in "ab" else "elf") for k in "abcd"]
    for seed in range(10):
        tables = pair_first_round(entrants, seed=seed, options=Options(avoid_same_faction_first_round=True))
        factions = {e.key: e.faction for e in entrants}
        assert all(factions[a] != factions[b] for a, b in pairs_of(tables))


def test_every_player_is_seated_once_in_a_large_field():
    rng = random.Random(5)
    played = play_swiss(150, 3, rng)  # over FULL_GRAPH: the windowed graph
    score, met = played.score, played.met
    tables = pair_round(played.ranked())
    seated = [p for t in tables for p in t.players]
    assert sorted(seated) == sorted(score) and all(b not in met[a] for a, b in pairs_of(tables))
