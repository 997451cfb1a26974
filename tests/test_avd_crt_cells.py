"""CRT cells as a scenario file may print them (9.4.1, board/odds.py): a
dash of any kind for no effect, lower-case letters, and losses of two
digits, read on the side they belong to."""
from __future__ import annotations

import pytest

from pbem.board.odds import Result, parse_result


@pytest.mark.parametrize("text", ["-", "\u2013", "\u2014"])
def test_9_4_1_every_dash_is_no_effect(text):
    assert parse_result(text) == Result(0, 0, 0)


@pytest.mark.parametrize("text, expected", [
    ("a1", Result(1, 0, 0)),
    ("dr", Result(0, 0, 1)),
    ("1dr2", Result(0, 1, 2)),
    ("a1/2dr", Result(1, 2, 1)),
    ("rr", Result(0, 0, 2)),
])
def test_9_4_1_lower_case_cells_read_as_upper_case(text, expected):
    assert parse_result(text) == expected == parse_result(text.upper())


@pytest.mark.parametrize("text, expected", [
    ("A12", Result(12, 0, 0)),                 # the attacker loses twelve, not one then two
    ("A10 3DR", Result(10, 3, 1)),
    ("12", Result(0, 12, 0)),                  # a bare number is the defender's
    ("12DR2", Result(0, 12, 2)),
])
def test_9_4_1_two_digit_losses_stay_on_their_side(text, expected):
    assert parse_result(text) == expected


@pytest.mark.parametrize("junk", ["-1", "\u2013 1", "a", "d r", "A1A2", "AA1"])
def test_9_4_1_mixed_or_partial_cells_are_refused(junk):
    with pytest.raises(ValueError):
        parse_result(junk)
