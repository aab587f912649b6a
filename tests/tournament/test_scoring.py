"""Scoring a table (listbuilder/tournament/scoring.py): OPR win/draw/loss, armour-hex MVP and TVP."""

from __future__ import annotations

import math

import pytest

from listbuilder.tournament.scoring import (
    GameScore,
    Losses,
    ScoringError,
    armour_hex_bye,
    armour_hex_result,
    opr_result,
)

# Two armour-hex lists, unit key -> cost, as the locked lists price them.
ANN = {"tank-a": {"ip": 4}, "tank-b": {"ip": 3}, "rifles": {"mp": 2, "xp": 1}}
BOB = {"tank-x": {"ip": 5}, "pikes": {"mp": 3, "cp": 1}, "scouts": {"mp": 2, "xp": 2}}


def test_004_victory_condition_tournament_style_fixed_time_hand_computed_example():
    # 004 "Victory Condition", "Tournament style: FIXED TIME". By hand:
    # Ann destroyed tank-x (5 IP: 6 x 5 = 30) and crippled pikes (3 MP + 1 CP: 1 x 4 = 4);
    # her own tank-a (4 IP: 3 x 4 = 12) and rifles (2 MP + 1 XP: 3) remain; tank-b was destroyed.
    # 30 + 4 + 12 + 3 = 49. Bob destroyed tank-b (3 IP: 6 x 3 = 18); his pikes (crippled, but
    # still his: 4) and scouts (4) remain; 18 + 4 + 4 = 26. Ann scored more: +16, so 65.
    result = armour_hex_result(
        ("Ann", "Bob"),
        {"Ann": ANN, "Bob": BOB},
        {
            "Ann": Losses(destroyed=frozenset({"tank-x"}), crippled=frozenset({"pikes"})),
            "Bob": Losses(destroyed=frozenset({"tank-b"})),
        },
    )
    assert result["Ann"] == GameScore(math.sqrt(65), 65.0, "win")
    assert result["Bob"] == GameScore(math.sqrt(26), 26.0, "loss")
    assert round(result["Ann"].points, 3) == 8.062 and round(result["Bob"].points, 3) == 5.099


def test_004_fixed_time_one_s_own_crippled_units_cost_nothing_and_equal_points_give_no_bonus():
    # Both sides cripple one 4-IP tank of the other and destroy nothing: 3 x 4 for the crippled
    # enemy, 3 x (4 + 4) for their own two tanks still on the table = 36 each; no winner, no +16.
    tanks = {"t1": {"ip": 4}, "t2": {"ip": 4}}
    result = armour_hex_result(
        ("A", "B"),
        {"A": tanks, "B": tanks},
        {"A": Losses(crippled=frozenset({"t1"})), "B": Losses(crippled=frozenset({"t2"}))},
    )
    assert result["A"] == result["B"] == GameScore(6.0, 36.0, "draw")


def test_004_fixed_time_a_bye_keeps_every_unit_and_wins():
    assert armour_hex_bye(ANN) == GameScore(math.sqrt(3 * 7 + 3 + 16), 40.0, "win")


@pytest.mark.parametrize(
    ("sides", "field"),
    [
        ({"Ann": Losses(destroyed=frozenset({"tank-a"})), "Bob": Losses()}, "sides.Ann.destroyed"),  # her own unit
        (
            {"Ann": Losses(destroyed=frozenset({"pikes"}), crippled=frozenset({"pikes"})), "Bob": Losses()},
            "sides.Ann.crippled",
        ),
        ({"Ann": Losses()}, "sides"),
    ],
)
def test_an_armour_hex_result_that_does_not_fit_the_lists_names_the_field(sides, field):
    with pytest.raises(ScoringError) as caught:
        armour_hex_result(("Ann", "Bob"), {"Ann": ANN, "Bob": BOB}, sides)
    assert caught.value.field == field


def test_opr_win_draw_loss_and_the_secondary_score():
    result = opr_result(("Ann", "Bob"), {"Ann": "win", "Bob": "loss"}, {"Ann": 12, "Bob": 4})
    assert result == {"Ann": GameScore(3, 12.0, "win"), "Bob": GameScore(0, 4.0, "loss")}
    assert opr_result(("Ann", "Bob"), {"Ann": "draw", "Bob": "draw"}, {"Ann": 0, "Bob": 0})["Bob"].points == 1


@pytest.mark.parametrize(
    ("outcome", "secondary", "field"),
    [
        ({"Ann": "win", "Bob": "win"}, {"Ann": 0, "Bob": 0}, "outcome"),
        ({"Ann": "win", "Cid": "loss"}, {"Ann": 0, "Bob": 0}, "outcome"),
        ({"Ann": "win", "Bob": "loss"}, {"Ann": 0}, "secondary"),
        ({"Ann": "won", "Bob": "loss"}, {"Ann": 0, "Bob": 0}, "outcome"),
    ],
)
def test_an_opr_result_that_cannot_be_true_names_the_field(outcome, secondary, field):
    with pytest.raises(ScoringError) as caught:
        opr_result(("Ann", "Bob"), outcome, secondary)
    assert caught.value.field == field
