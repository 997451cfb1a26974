"""Hex grid geometry on all four offset conventions."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from pbem.board.hexgrid import OFFSETS, HexGrid, side_key

FAST = settings(max_examples=150, deadline=None)


@st.composite
def grids(draw, max_side: int = 9) -> HexGrid:
    c0 = draw(st.integers(0, 20))
    r0 = draw(st.integers(0, 20))
    return HexGrid(c0, c0 + draw(st.integers(0, max_side - 1)),
                   r0, r0 + draw(st.integers(0, max_side - 1)), draw(st.sampled_from(OFFSETS)))


@st.composite
def grid_and_hexes(draw, n: int):
    g = draw(grids())
    hs = g.hexes()
    return g, [draw(st.sampled_from(hs)) for _ in range(n)]


def printed_neighbors(g: HexGrid, h: str) -> set[str]:
    """Neighbours by the offset tables printed maps follow, written out
    independently of the kernel's cube arithmetic."""
    c, r = g.col_row(h)
    if g.offset.endswith("-q"):
        down = (c % 2 == 1) == (g.offset == "odd-q")   # this column is shoved down
        side_rows = (r, r + 1) if down else (r - 1, r)
        cand = [(c, r - 1), (c, r + 1)] + [(c + dc, rr) for dc in (-1, 1) for rr in side_rows]
    else:
        right = (r % 2 == 1) == (g.offset == "odd-r")  # this row is shoved right
        side_cols = (c, c + 1) if right else (c - 1, c)
        cand = [(c - 1, r), (c + 1, r)] + [(cc, r + dr) for dr in (-1, 1) for cc in side_cols]
    out = set()
    for cc, rr in cand:
        if 0 <= cc <= 99 and 0 <= rr <= 99:
            hid = g.hex_id(cc, rr)
            if hid in g:
                out.add(hid)
    return out


@FAST
@given(grid_and_hexes(2))
def test_distance_symmetric_and_zero_iff_equal(gh):
    g, (a, b) = gh
    assert g.distance(a, b) == g.distance(b, a)
    assert (g.distance(a, b) == 0) == (a == b)
    assert g.distance(a, b) >= 0


@FAST
@given(grid_and_hexes(3))
def test_distance_triangle_inequality(gh):
    g, (a, b, c) = gh
    assert g.distance(a, c) <= g.distance(a, b) + g.distance(b, c)


@FAST
@given(grid_and_hexes(1))
def test_neighbors_are_exactly_the_hexes_at_distance_one(gh):
    g, (h,) = gh
    ns = g.neighbors(h)
    assert len(ns) == len(set(ns)) <= 6
    assert set(ns) == {x for x in g.hexes() if g.distance(h, x) == 1}
    assert all(g.adjacent(h, n) for n in ns)


@FAST
@given(grid_and_hexes(1))
def test_neighbors_follow_the_printed_offset_tables(gh):
    g, (h,) = gh
    assert set(g.neighbors(h)) == printed_neighbors(g, h)


@FAST
@given(grid_and_hexes(2))
def test_distance_equals_fewest_steps_on_the_map(gh):
    g, (a, b) = gh
    frontier, seen, steps = {a}, {a}, 0
    while b not in frontier:
        frontier = {n for h in frontier for n in printed_neighbors(g, h)} - seen
        seen |= frontier
        steps += 1
    assert g.distance(a, b) == steps


@FAST
@given(grid_and_hexes(1), st.integers(0, 4))
def test_within_is_every_hex_in_range_but_the_centre(gh, r):
    g, (h,) = gh
    got = g.within(h, r)
    assert got == sorted(x for x in g.hexes() if 0 < g.distance(h, x) <= r)


@FAST
@given(grids())
def test_ids_round_trip_and_hexes_in_id_order(g):
    hs = g.hexes()
    assert hs == sorted(hs) and len(hs) == len(g)
    for h in hs:
        assert h in g
        assert g.hex_id(*g.col_row(h)) == h


def test_ava_5_4_odd_columns_shoved_down():
    # AVA 5.4 (inferred from the 10.6 example): 1524-1625 and 1624-1625 are
    # single steps on a map whose odd columns sit half a hex lower.
    g = HexGrid(1, 60, 1, 40, "odd-q")
    assert g.adjacent("1524", "1625")
    assert g.adjacent("1624", "1625")
    assert not g.adjacent("1526", "1624")
    # 1523 is the common neighbour of 1524 and 1624 besides 1625.
    common = set(g.neighbors("1524")) & set(g.neighbors("1624"))
    assert common == {"1523", "1625"}


def test_7_3_4_command_range_counts_hex_distance():
    # 7.3.4: a range of 4 reaches hexes 4 steps away, not 5.
    g = HexGrid(1, 40, 1, 40, "odd-q")
    assert g.distance("1010", "1410") == 4
    assert "1410" in g.within("1010", 4)
    assert "1510" not in g.within("1010", 4)


def test_edge_hexes_have_fewer_neighbors():
    g = HexGrid(1, 5, 1, 5, "even-q")
    assert len(g.neighbors("0303")) == 6
    assert len(g.neighbors("0101")) < 6


@pytest.mark.parametrize("bad", ["", "123", "12345", "ab12", "12 3", None, 1234, "１２３４"])
def test_malformed_ids_raise_value_error(bad):
    g = HexGrid(1, 10, 1, 10, "odd-r")
    with pytest.raises(ValueError):
        g.col_row(bad)
    with pytest.raises(ValueError):
        g.check(bad)
    assert bad not in g


def test_off_map_ids_are_well_formed_but_not_on_the_grid():
    g = HexGrid(1, 10, 1, 10, "odd-r")
    assert "1111" not in g
    with pytest.raises(ValueError, match="off the map"):
        g.check("1111")
    assert g.check("1010") == "1010"


def test_bad_grid_arguments():
    with pytest.raises(ValueError):
        HexGrid(1, 10, 1, 10, "odd")
    with pytest.raises(ValueError):
        HexGrid(5, 4, 1, 10, "odd-q")
    with pytest.raises(ValueError):
        HexGrid(1, 100, 1, 10, "odd-q")


def test_side_key_is_order_free():
    assert side_key("3919", "4019") == side_key("4019", "3919") == "3919|4019"
    with pytest.raises(ValueError):
        side_key("3919", "3919")
