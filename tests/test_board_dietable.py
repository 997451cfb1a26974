"""Die-roll tables with ranges and open ends (pbem/board/dietable.py)."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from pbem.board.dietable import DieTable, parse_key


def test_keys():
    assert parse_key("5") == (5, 5)
    assert parse_key("3-5") == (3, 5) and parse_key("3\u20135") == (3, 5)
    assert parse_key("6+") == (6, None)
    assert parse_key("3-") == (None, 3) and parse_key("<=3") == (None, 3) and parse_key("\u22643") == (None, 3)
    for bad in ("", "5-3", "x", "+6", "2--4"):
        with pytest.raises(ValueError):
            parse_key(bad)


def test_naval_evacuation_shape():
    t = DieTable.parse({"1": "lose-stay", "2": "stay", "3": "lose-go", "4-6": "go"})
    assert [t.lookup(r) for r in range(1, 7)] == ["lose-stay", "stay", "lose-go", "go", "go", "go"]
    assert t.covers(1, 6) and not t.covers(1, 7)
    with pytest.raises(ValueError):
        t.lookup(0)


def test_gaps_overlaps_and_open_middles_refused():
    for rows in ({"1-2": 0, "4-6": 1}, {"1-3": 0, "3-6": 1}, {"3-": 0, "4+": 1, "2": 2}, {}):
        with pytest.raises(ValueError):
            DieTable.parse(rows)


@given(st.lists(st.integers(1, 4), min_size=1, max_size=8), st.booleans(), st.booleans(), st.integers(-5, 40))
def test_contiguous_tables_answer_each_roll_once(widths, open_lo, open_hi, roll):
    rows, lo = {}, 2
    for i, w in enumerate(widths):
        hi = lo + w - 1
        if i == 0 and open_lo:
            key = f"{hi}-"
        elif i == len(widths) - 1 and open_hi:
            key = f"{lo}+"
        else:
            key = f"{lo}-{hi}"
        rows[key] = i
        lo = hi + 1
    t = DieTable.parse(rows)
    open_hi = open_hi and not (len(widths) == 1 and open_lo)   # one row carries one open end here
    top = lo - 1
    inside = (open_lo or roll >= 2) and (open_hi or roll <= top)
    if inside:
        i = t.lookup(roll)
        start = 2 + sum(widths[:i])
        end = start + widths[i] - 1
        assert (roll >= start or (i == 0 and open_lo)) and (roll <= end or (i == len(widths) - 1 and open_hi))
    else:
        with pytest.raises(ValueError):
            t.lookup(roll)
