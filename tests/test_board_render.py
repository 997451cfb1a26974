"""The plain-text hex map picture."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from pbem.board.hexgrid import OFFSETS, HexGrid
from pbem.render.hexmap import draw, fit, render


def where(picture: str, text: str) -> tuple[int, int]:
    """(line, column) of ``text`` in the picture."""
    for y, line in enumerate(picture.splitlines()):
        x = line.find(text)
        if x >= 0:
            return y, x
    raise AssertionError(f"{text} not drawn")


@pytest.mark.parametrize("offset, shoved, plain", [("odd-q", "0302", "0202"), ("even-q", "0202", "0302")])
def test_flat_grids_draw_shoved_columns_half_a_hex_lower(offset, shoved, plain):
    g = HexGrid(1, 6, 1, 6, offset)
    pic = render(g, ["0101", "0505"], lambda h: "")
    ys, xs = where(pic, shoved)
    yp, xp = where(pic, plain)
    assert ys == yp + 1
    assert (xs > xp) == (shoved > plain)   # columns left to right in number order
    # Hexes of one column are stacked two lines apart (id, then cell text).
    assert where(pic, shoved[:2] + "03")[0] == ys + 2


@pytest.mark.parametrize("offset, shoved, plain", [("odd-r", "0203", "0202"), ("even-r", "0202", "0203")])
def test_pointy_grids_draw_shoved_rows_half_a_hex_right(offset, shoved, plain):
    g = HexGrid(1, 6, 1, 6, offset)
    pic = render(g, ["0101", "0505"], lambda h: "")
    ys, xs = where(pic, shoved)
    yp, xp = where(pic, plain)
    assert xs == xp + 4          # half of a 7-wide cell plus its gap
    assert abs(ys - yp) == 2


def test_cell_text_sits_under_its_id_and_a_long_stack_becomes_its_top_unit_and_a_count():
    g = HexGrid(1, 6, 1, 6, "odd-q")
    pic, shortened = draw(g, ["0202", "0404"], lambda h: "7Pz+20Pz" if h == "0303" else "w")
    y, x = where(pic, "0303")
    line = pic.splitlines()[y + 1]
    assert "7Pz+1" in line and "20P" not in line and shortened
    assert line.index("7Pz+1") <= x + 4 <= line.index("7Pz+1") + 7
    assert not draw(g, ["0202", "0404"], lambda h: "7Pz")[1]


@pytest.mark.parametrize("text, width, shown", [
    ("7Pz+20Pz", 8, "7Pz+20Pz"), ("7Pz+20Pz+3Pz", 10, "7Pz+20Pz+1"), ("7Pz+20Pz+3Pz", 7, "7Pz+2"),
    ("Timoshenko", 7, "Timoshenko"), ("Timoshenko+7Pz", 7, "Timoshenko+1")])
def test_fit_keeps_whole_names(text, width, shown):
    assert fit(text, width) == shown


def test_a_name_longer_than_the_cell_widens_every_cell_instead_of_being_cut():
    g = HexGrid(1, 6, 1, 6, "odd-r")
    pic = render(g, ["0101", "0303"], lambda h: "Timoshenko+7Pz" if h == "0202" else "w")
    assert "Timoshenko+1" in pic
    y, x = where(pic, "0101")
    assert where(pic, "0201")[1] - x == 13        # 12-wide cells and their gap


def test_window_covers_only_the_given_hexes_bounding_box():
    g = HexGrid(1, 20, 1, 20, "even-r")
    pic = render(g, ["0505", "0708"], lambda h: "")
    assert "0505" in pic and "0708" in pic and "0508" in pic and "0705" in pic
    assert "0405" not in pic and "0809" not in pic and "0504" not in pic


def test_off_grid_places_are_blank():
    g = HexGrid(1, 3, 1, 3, "odd-q")
    pic = render(g, ["0101", "0303"], lambda h: "x")
    assert "0400" not in pic and "0000" not in pic
    assert pic.count("x") == 9


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(OFFSETS), st.integers(1, 12), st.integers(1, 12))
def test_twelve_columns_fit_a_hundred_column_terminal(offset, cols, rows):
    g = HexGrid(1, 30, 1, 30, offset)
    pic = render(g, ["0101", g.hex_id(cols, rows)], lambda h: "7Pz+20Pz")
    assert max(len(line) for line in pic.splitlines()) <= 100
    assert sum(line.count("7Pz+1") for line in pic.splitlines()) == cols * rows


def test_bad_input():
    g = HexGrid(1, 3, 1, 3, "odd-q")
    with pytest.raises(ValueError):
        render(g, [], lambda h: "")
    with pytest.raises(ValueError):
        render(g, ["01x1"], lambda h: "")
