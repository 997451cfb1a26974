"""The hex grid's neighbours from per-parity (column, row) steps are the
axial directions' neighbours, in the same order, on every offset
convention, for hexes on the grid, at its edges and off it."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.board.hexgrid import OFFSETS, HexGrid


def _axial_neighbors(g: HexGrid, h: str) -> list[str]:
    """Each axial direction in turn, kept when it lands on the grid."""
    q, r = g._axial(*g.col_row(h))
    out = []
    for dq, dr in g._directions:
        col, row = g._offset(q + dq, r + dr)
        if g.first_col <= col <= g.last_col and g.first_row <= row <= g.last_row:
            out.append(g.hex_id(col, row))
    return out


grids = st.builds(lambda c0, nc, r0, nr, o: HexGrid(c0, min(c0 + nc, 99), r0, min(r0 + nr, 99), o),
                  st.integers(0, 99), st.integers(0, 12), st.integers(0, 99), st.integers(0, 12),
                  st.sampled_from(OFFSETS))


@settings(max_examples=80, deadline=None)
@given(grids, st.data())
def test_neighbors_are_the_axial_directions_in_order(g, data):
    on = data.draw(st.sampled_from(g.hexes()))
    anywhere = g.hex_id(data.draw(st.integers(0, 99)), data.draw(st.integers(0, 99)))
    for h in (on, anywhere):
        for _ in range(2):                  # the second ask is served from memory
            assert g.neighbors(h) == _axial_neighbors(g, h)


def test_every_hex_of_a_map_sized_grid():
    for offset in OFFSETS:
        g = HexGrid(15, 40, 1, 32, offset)
        assert all(g.neighbors(h) == _axial_neighbors(g, h) for h in g.hexes())


@settings(max_examples=40, deadline=None)
@given(grids)
def test_neighbor_table_is_every_hex_s_neighbours(g):
    table = g.neighbor_table()
    assert list(table) == g.hexes()
    assert all(list(ns) == _axial_neighbors(g, h) == g.neighbors(h) for h, ns in table.items())
    assert g.neighbor_table() is table


def test_neighbor_table_of_a_map_sized_grid():
    for offset in OFFSETS:
        g = HexGrid(15, 40, 1, 32, offset)
        assert all(list(ns) == _axial_neighbors(g, h) for h, ns in g.neighbor_table().items())
