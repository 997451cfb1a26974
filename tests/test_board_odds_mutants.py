"""Odds-table kernel edges the mutation check (benchmarks/mutation.py)
found untested: a negative strength on either side is refused, a table
needs a column before any shift, and a bare Result is "no effect"."""
from __future__ import annotations

import pytest

from pbem.board.odds import Result, crt_lookup, parse_result, ratio_column, shift

COLUMNS = ("1-1", "2-1", "3-1")


@pytest.mark.parametrize("attack, defense", [(-1, 3), (3, -1), (-2, 3), (3, -2), (-1, -1)])
def test_a_negative_strength_on_either_side_is_refused(attack, defense):
    with pytest.raises(ValueError, match="negative combat strength"):
        ratio_column(attack, defense, COLUMNS)


def test_zero_strengths_are_not_negative():
    assert ratio_column(0, 3, COLUMNS) is None          # below the first column
    assert ratio_column(3, 0, COLUMNS) == 2              # a defense of 0: the last column


def test_a_shift_on_a_table_without_columns_is_refused():
    with pytest.raises(ValueError, match="at least one column"):
        shift(0, 1, 0)
    assert shift(0, 5, 1) == 0 and shift(0, -5, 1) == 0  # one column: nowhere to go


def test_a_result_with_nothing_given_is_no_effect():
    assert Result() == parse_result("-") == Result(0, 0, 0, "")
    assert str(Result()) == "-"


@pytest.mark.parametrize("cell", ["A\u0661", "\u0661DR", "\u0662", "DR\u0662"])
def test_a_cell_with_non_ascii_digits_is_refused(cell):
    # Arabic-Indic digits pass str.isdigit() and int(): a printed CRT never has them
    with pytest.raises(ValueError, match="bad CRT result"):
        parse_result(cell)


def test_a_negative_column_is_not_read_from_the_end_of_the_row():
    rows = {1: ("A1", "-", "DR")}
    assert crt_lookup(rows, 0, 1) == "A1"
    with pytest.raises(ValueError, match="no column -1"):
        crt_lookup(rows, -1, 1)
