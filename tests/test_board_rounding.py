"""Scaling strengths with one rounding at the end (pbem/board/rounding.py)."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from pbem.board.rounding import halve, scaled, scaled_sum

v = st.integers(min_value=0, max_value=500)
factor = st.tuples(st.integers(1, 4), st.integers(1, 4))


def test_rounding_directions():
    assert halve(5) == 3 and halve(5, "down") == 2 and halve(5, "half-up") == 3
    assert scaled(10, [(1, 3)]) == 4 and scaled(10, [(1, 3)], "down") == 3
    assert scaled(7, [(1, 4)], "half-up") == 2   # 1.75
    with pytest.raises(ValueError):
        scaled(3, [(1, 2)], "sideways")
    with pytest.raises(ValueError):
        scaled(3, [(1, 0)])
    with pytest.raises(ValueError):
        scaled(-1)


@given(v, st.sampled_from(["up", "down", "half-up"]))
def test_doubled_and_halved_is_unchanged_in_any_order(x, rounding):
    assert scaled(x, [(2, 1), (1, 2)], rounding) == x
    assert scaled(x, [(1, 2), (2, 1)], rounding) == x


@given(st.lists(v, min_size=1, max_size=6))
def test_sum_then_halve_never_exceeds_halving_each(values):
    assert scaled_sum(values, [(1, 2)]) <= sum(halve(x) for x in values)


@given(v, st.lists(factor, max_size=4))
def test_up_and_down_bracket_the_exact_value(x, factors):
    up, down = scaled(x, factors, "up"), scaled(x, factors, "down")
    num = den = 1
    for n, d in factors:
        num, den = num * n, den * d
    assert down * den <= x * num <= up * den
    assert up - down in (0, 1)
    assert down <= scaled(x, factors, "half-up") <= up
