"""HexGrid.axial, which the 12.6 relocation search reads to work hex
distances out inline, gives the distances HexGrid.distance gives."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.board.hexgrid import OFFSETS, HexGrid


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(OFFSETS), st.integers(1, 9), st.integers(1, 9), st.data())
def test_the_cube_distance_of_axial_coordinates_is_the_hex_distance(offset, cols, rows, data):
    g = HexGrid(1, cols, 1, rows, offset)
    a, b = data.draw(st.sampled_from(g.hexes())), data.draw(st.sampled_from(g.hexes()))
    (qa, ra), (qb, rb) = g.axial(a), g.axial(b)
    dq, dr = qa - qb, ra - rb
    assert (abs(dq) + abs(dr) + abs(dq + dr)) // 2 == g.distance(a, b)
    assert g.axial(a) == (qa, ra)          # kept: asked again, the same
