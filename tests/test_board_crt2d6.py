"""Two-dice CRTs: the odds ladder with imaginary columns, cells with
coloured tactical results, colour groups (pbem/board/crt2d6.py).

The ladder is Victory Roads' (1:2 .. 6:1, VR 7.5.8); the cell data here is
TEST data built for the properties, not the publisher's table."""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from pbem.board.crt2d6 import (ATTACKER, DEFENDER, ROLLS, Cell, Crt2d6, OddsLadder, Tactical, chance,
                               parse_cell, parse_tactical, position_ratio, simple_position)

VR = ["1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1"]
LADDER = OddsLadder(VR)

strength = st.integers(min_value=1, max_value=400)


def test_two_dice_chances_sum_to_one():
    assert sum(chance(r) for r in ROLLS) == 1
    assert chance(7) == Fraction(1, 6) and chance(2) == chance(12) == Fraction(1, 36)
    assert chance(1) == chance(13) == 0


@pytest.mark.parametrize("a, d, label", [(35, 10, "3:1"), (22, 10, "2:1"), (16, 4, "4:1"), (12, 2, "6:1"),
                                         (9, 10, "1:2"), (15, 10, "1:1")])
def test_rounding_in_the_defenders_favour(a, d, label):
    assert LADDER.label(LADDER.column(a, d)) == label


def test_imaginary_columns_on_both_sides():
    assert LADDER.label(LADDER.column(10, 35)) == "1:4"
    assert LADDER.column(10, 35) == -2
    assert LADDER.label(LADDER.column(59, 8)) == "7:1"
    assert LADDER.final(LADDER.column(59, 8)) == LADDER.labels.index("6:1")
    assert LADDER.final(LADDER.shift(LADDER.column(10, 35), 2)) == 0       # 1:4 +2 = 1:2
    assert LADDER.final(LADDER.shift(LADDER.column(10, 35), 1)) is None    # 1:3: cancelled


def test_attack_zero_and_defense_zero():
    assert LADDER.column(0, 5) is None and LADDER.final(None) is None
    assert LADDER.column(3, 0) == len(VR) - 1


def test_end_columns_must_be_simple():
    with pytest.raises(ValueError):
        OddsLadder(["3:2", "2:1"])
    with pytest.raises(ValueError):
        OddsLadder(["1:1", "1:2"])
    inner = OddsLadder(["1:2", "1:1", "3:2", "2:1", "6:1"])
    assert inner.label(inner.column(15, 10)) == "3:2"
    assert inner.label(inner.column(59, 8)) == "7:1"


@given(strength, strength)
def test_the_ratio_of_the_column_is_reached_and_the_next_is_not(a, d):
    i = LADDER.column(a, d)
    num, den = LADDER.ratio(i)
    assert a * den >= d * num
    n2, d2 = LADDER.ratio(i + 1)
    assert a * d2 < d * n2


@given(strength, strength)
def test_simple_rounding_matches_the_formula(a, d):
    p = simple_position(a, d)
    if a >= d:
        assert position_ratio(p) == (a // d, 1)
    else:
        assert position_ratio(p) == (1, -(-d // a))


@given(strength, strength, strength)
def test_more_attack_never_lowers_the_column(a, d, extra):
    assert LADDER.column(a + extra, d) >= LADDER.column(a, d)
    assert LADDER.column(a, d + extra) <= LADDER.column(a, d)


@given(st.integers(-30, 30), st.integers(-10, 10))
def test_shifts_add_and_final_clamps(i, by):
    j = LADDER.shift(i, by)
    assert j == i + by
    f = LADDER.final(j)
    if j < 0:
        assert f is None
    else:
        assert f == min(j, len(VR) - 1) and LADDER.printed(f)


@given(st.integers(-20, 20))
def test_ladder_ratios_strictly_rise(i):
    assert Fraction(*LADDER.ratio(i)) < Fraction(*LADDER.ratio(i + 1))


def test_cells_parse_and_print():
    c = parse_cell("1/2 E2:red DR2:blue")
    assert c == Cell(1, 2, Tactical("E2", "red"), Tactical("DR2", "blue"))
    assert str(c) == "1/2 E2:red DR2:blue"
    assert parse_cell("0/0 - -").attacker == Tactical("-")
    for bad in ("1/2 E2:red", "x/2 E:red S:red", "1/2 E2:Red S:red", "1/2 E2:red S:red extra", "1-2 E S"):
        with pytest.raises(ValueError):
            parse_cell(bad)
    with pytest.raises(ValueError):
        parse_tactical("Q:red", codes=("E", "S"))
    with pytest.raises(ValueError):
        parse_tactical("E:pink", colours=("red",))


def _table(column: dict[int, str]) -> Crt2d6:
    cells = {lbl: {r: parse_cell(column.get(r, "0/0 -:grey -:grey")) for r in ROLLS} for lbl in VR}
    return Crt2d6(LADDER, cells)


def test_colour_group_own_subcolumn_by_default():
    crt = _table({3: "1/1 D1:red DR2:red", 5: "1/1 E:red S:grey", 6: "1/1 E2:red S:red", 8: "1/1 E3:blue -"})
    col = VR.index("5:1")
    assert crt.colour_group(col, 3, ATTACKER) == ("D1", "E", "E2")
    assert crt.colour_group(col, 3, DEFENDER) == ("DR2", "S")
    assert crt.colour_group(col, 3, DEFENDER, whole_column=True) == ("D1", "DR2", "E", "E2", "S")
    assert crt.colour_group(col, 8, DEFENDER) == ("-",)


def test_crt_needs_every_column_and_row():
    cells = {lbl: {r: parse_cell("0/0 - -") for r in ROLLS} for lbl in VR}
    del cells["6:1"][12]
    with pytest.raises(ValueError):
        Crt2d6(LADDER, cells)
    with pytest.raises(ValueError):
        Crt2d6(LADDER, {lbl: cells[lbl] for lbl in VR[:-1]})
    crt = _table({})
    with pytest.raises(ValueError):
        crt.cell(-1, 7)
    with pytest.raises(ValueError):
        crt.cell(0, 13)


codes = st.sampled_from(["-", "D1", "E", "E2", "E3", "S", "DR", "DR2", "Eng"])
colours = st.sampled_from(["red", "blue", "grey"])


@given(st.dictionaries(st.sampled_from(ROLLS), st.tuples(codes, colours, codes, colours)), st.sampled_from(ROLLS),
       st.sampled_from([ATTACKER, DEFENDER]), st.booleans())
def test_colour_group_holds_the_rolled_result_and_only_its_colour(rows, roll, side, whole):
    crt = _table({r: f"1/1 {a}:{ca} {d}:{cd}" for r, (a, ca, d, cd) in rows.items()})
    col = VR.index("2:1")
    group = crt.colour_group(col, roll, side, whole_column=whole)
    rolled = crt.cell(col, roll).result(side)
    assert rolled.code in group
    assert len(set(group)) == len(group)
    sides = (ATTACKER, DEFENDER) if whole else (side,)
    printed = {crt.cell(col, r).result(s).code for r in ROLLS for s in sides
               if crt.cell(col, r).result(s).colour == rolled.colour}
    assert set(group) == printed
