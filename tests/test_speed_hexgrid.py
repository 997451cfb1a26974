"""The hex grid's speed-ups change no answer: distance from kept axial
coordinates and hexes grouped by distance agree with a fresh cube-coordinate
computation on every offset convention."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.board.hexgrid import OFFSETS, HexGrid, side_key


def _cube_distance(g: HexGrid, a: str, b: str) -> int:
    """Distance worked out from scratch: the largest cube-coordinate gap."""
    qa, ra = g._axial(*g.col_row(a))
    qb, rb = g._axial(*g.col_row(b))
    dq, dr = qa - qb, ra - rb
    return max(abs(dq), abs(dr), abs(dq + dr))


grids = st.builds(lambda c, r, o: HexGrid(1, c, 1, r, o),
                  st.integers(1, 9), st.integers(1, 9), st.sampled_from(OFFSETS))


@settings(max_examples=40, deadline=None)
@given(grids, st.data())
def test_distance_matches_cube_coordinates_on_and_off_the_grid(g, data):
    a = data.draw(st.sampled_from(g.hexes()))
    b = g.hex_id(data.draw(st.integers(0, 99)), data.draw(st.integers(0, 99)))
    for _ in range(2):                      # the second pass is served from memory
        assert g.distance(a, b) == _cube_distance(g, a, b) == g.distance(b, a)


@settings(max_examples=40, deadline=None)
@given(grids, st.data())
def test_hexes_grouped_by_distance_are_each_ring_in_id_order(g, data):
    h = data.draw(st.sampled_from(g.hexes()))
    rings = g.by_distance(h)
    assert list(rings) == sorted(rings) and rings[0] == (h,)
    for d, ring in rings.items():
        assert list(ring) == [x for x in g.hexes() if _cube_distance(g, h, x) == d]
    assert g.by_distance(h) is rings
    assert sum(len(r) for r in rings.values()) == len(g)


def test_malformed_hex_still_refused_by_distance():
    g = HexGrid(1, 5, 1, 5, "odd-q")
    with pytest.raises(ValueError, match="malformed"):
        g.distance("0101", "1x")


@settings(max_examples=60, deadline=None)
@given(st.text("0123456789", min_size=4, max_size=4), st.text("0123456789", min_size=4, max_size=4))
def test_side_key_is_both_ids_sorted(a, b):
    if a == b:
        with pytest.raises(ValueError):
            side_key(a, b)
    else:
        assert side_key(a, b) == "|".join(sorted((a, b))) == side_key(b, a)
