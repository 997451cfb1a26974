"""Odds columns, shifts, rounding and CRT result cells.

The AVD column list is data the game loads from its scenario; it is given
here in the test, as the AVD rule notes derive it from 9.3.2."""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from pbem.board.odds import (Result, crt_lookup, divide, format_result, parse_column,
                             parse_result, ratio_column, shift)

AVD_COLUMNS = ["1-1", "1.5-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1", "9-1", "10-1"]
N = len(AVD_COLUMNS)


def col(label: str) -> int:
    return AVD_COLUMNS.index(label)


# ----------------------------------------------------------- AVD examples
def test_1_3_halving_and_quartering_round_down():
    assert divide(5, 2) == 2
    assert divide(3, 4) == 0


def test_1_3_stacked_units_sum_before_halving():
    # Two 3s stacked and halved together give 3; halved apart they give 1 + 1.
    assert divide(3 + 3, 2) == 3
    assert divide(3, 2) + divide(3, 2) == 2


@pytest.mark.parametrize("attack, defense, label", [
    (15, 5, "3-1"), (26, 9, "2-1"), (12, 7, "1.5-1"), (18, 13, "1-1"), (25, 2, "10-1"),
])
def test_9_3_2_ratio_columns_round_down(attack, defense, label):
    assert ratio_column(attack, defense, AVD_COLUMNS) == col(label)


def test_9_3_2_below_first_column_has_no_column():
    assert ratio_column(4, 5, AVD_COLUMNS) is None
    assert ratio_column(0, 3, AVD_COLUMNS) is None


def test_9_3_3_cap_at_ten_to_one_then_shift():
    # Odds of 12:1 count as 10-1 before shifting; one terrain shift -> 9-1.
    assert shift(ratio_column(36, 3, AVD_COLUMNS), -1, N) == col("9-1")


def test_9_3_6_woods_then_stuka_is_capped():
    # T9: 24 against 2 in woods -> 10-1, woods -> 9-1, Stuka +2 -> 10-1.
    c = ratio_column(24, 2, AVD_COLUMNS)
    c = shift(c, -1, N)
    assert c == col("9-1")
    assert shift(c, 2, N) == col("10-1")


def test_9_3_6_river_halving_example_gives_two_to_one():
    # T10: two units of 3 halved apart (1 + 1) plus a 3 not crossing: 5 vs 2.
    attack = divide(3, 2) + divide(3, 2) + 3
    assert ratio_column(attack, 2, AVD_COLUMNS) == col("2-1")
    # Same attack on a city (2 shifts left) -> 1-1.
    assert shift(col("2-1"), -2, N) == col("1-1")


def test_9_4_3_elite_reinforcement_recomputes_odds():
    # T11: an elite 3 joins the unit not crossing the river: 8 vs 2 -> 4-1.
    assert ratio_column(1 + 1 + 3 + 3, 2, AVD_COLUMNS) == col("4-1")


def test_9_3_5_turn_one_shift_after_stuka():
    # T28: 3-1 -> woods 2-1 -> Stuka 4-1 -> Turn 1 +2 -> 6-1.
    c = shift(col("3-1"), -1, N)
    c = shift(c, 2, N)
    assert shift(c, 2, N) == col("6-1")


def test_7_5_timoshenko_shift_against_city():
    # T29: 3-1 vs a city -> 1.5-1 -> Timoshenko +1 -> 2-1.
    assert shift(shift(col("3-1"), -2, N), 1, N) == col("2-1")
    # 2-1 vs a city -> 1-1; Stuka -2 and Timoshenko +1 net -1, clamped once.
    assert shift(shift(col("2-1"), -2, N), -2 + 1, N) == col("1-1")


def test_9_3_6_terrain_below_first_column_is_detectable():
    # T24: raw 1-1 in woods falls off the table; the game sees it as a
    # negative index before clamping and forbids the attack.
    assert ratio_column(5, 5, AVD_COLUMNS) + (-1) < 0


def test_9_3_7_zero_defense_uses_last_column():
    # T25: an isolated defender of 1 halves to 0 -> 10-1 whatever the odds.
    assert ratio_column(1, divide(1, 2), AVD_COLUMNS) == col("10-1")


@pytest.mark.parametrize("text, expected", [
    ("-", Result(0, 0, 0)),
    ("A1", Result(1, 0, 0)),
    ("3", Result(0, 3, 0)),
    ("DR", Result(0, 0, 1)),
    ("DR2", Result(0, 0, 2)),
    ("3DR2", Result(0, 3, 2)),
    ("A1/1", Result(1, 1, 0)),
    ("A1 DR", Result(1, 0, 1)),
    ("RR", Result(0, 0, 2)),
    ("2RR", Result(0, 2, 2)),
    ("R", Result(0, 0, 1)),
])
def test_9_4_1_result_cells(text, expected):
    assert parse_result(text) == expected


def test_9_4_1_special_cells_are_named_by_the_game():
    assert parse_result("elite", specials=["elite"]) == Result(0, 0, 0, "elite")
    with pytest.raises(ValueError):
        parse_result("elite")


@pytest.mark.parametrize("junk", ["", " ", "X", "A", "DR0", "A1 A2", "- 3", "3DR2x", "D R", "3 4", "2.5"])
def test_result_junk_is_refused(junk):
    with pytest.raises(ValueError):
        parse_result(junk)


@settings(max_examples=150, deadline=None)
@given(st.builds(Result, st.integers(0, 9), st.integers(0, 9), st.integers(0, 4)))
def test_result_format_round_trips(result):
    assert parse_result(format_result(result)) == result


# ----------------------------------------------------------------- columns
@pytest.mark.parametrize("label, ratio", [
    ("1.5-1", (3, 2)), ("10-1", (10, 1)), ("1-2", (1, 2)), ("10+-1", (10, 1)),
    ("1:1", (1, 1)), ("3:2", (3, 2)), ("1\u20133", (1, 3)), ("2-4", (1, 2)),
])
def test_parse_column(label, ratio):
    assert parse_column(label) == ratio


@pytest.mark.parametrize("junk", ["", "abc", "1.5", "1-0", "0-1", "-1", "1--1", "1.-1"])
def test_parse_column_junk(junk):
    with pytest.raises(ValueError):
        parse_column(junk)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 200), st.integers(1, 60))
def test_ratio_column_is_the_highest_column_the_odds_reach(attack, defense):
    odds = Fraction(attack, defense)
    ratios = [Fraction(*parse_column(c)) for c in AVD_COLUMNS]
    reached = [i for i, r in enumerate(ratios) if odds >= r]
    assert ratio_column(attack, defense, AVD_COLUMNS) == (max(reached) if reached else None)


@settings(max_examples=150, deadline=None)
@given(st.integers(-5, 20), st.integers(-15, 15), st.integers(1, 12))
def test_shift_stays_on_the_table(index, by, n):
    got = shift(index, by, n)
    assert 0 <= got < n
    if 0 <= index + by < n:
        assert got == index + by


def test_divide_refuses_bad_divisor():
    with pytest.raises(ValueError):
        divide(4, 0)


def test_crt_lookup_reads_roll_row_and_column():
    rows = {3: ["-", "DR", "2DR2"], 4: ["A1", "1", "3DR2"]}
    assert crt_lookup(rows, 1, 3) == "DR"
    assert crt_lookup(rows, 2, 4) == "3DR2"
    with pytest.raises(ValueError):
        crt_lookup(rows, 0, 7)
    with pytest.raises(ValueError):
        crt_lookup(rows, 3, 3)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 60), st.integers(0, 30))
def test_ratio_column_of_a_kept_table_is_that_of_its_labels(attack, defense):
    # A tuple of labels is parsed once and kept (speed only); a list is
    # parsed every time: the same column either way, and the plain rule.
    got = ratio_column(attack, defense, tuple(AVD_COLUMNS))
    assert got == ratio_column(attack, defense, AVD_COLUMNS)
    if defense == 0:
        assert got == N - 1
        return
    reached = [i for i, c in enumerate(AVD_COLUMNS) if Fraction(attack, defense) >= Fraction(*parse_column(c))]
    assert got == (reached[-1] if reached else None)


def test_ratio_column_bad_label_still_refused_in_a_kept_table():
    with pytest.raises(ValueError, match="bad"):
        ratio_column(3, 1, ("1-1", "x-1"))
    with pytest.raises(ValueError, match="bad"):
        ratio_column(3, 1, ("1-1", ["2-1"]))
