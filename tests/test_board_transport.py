"""Transport capacity, rail reach and half-hex radii (pbem/board/transport.py, radius.py)."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from pbem.board.hexgrid import HexGrid, side_key
from pbem.board.radius import radius_reach
from pbem.board.transport import Capacity, rail_reach

RAIL = Capacity(10, {"infantry": 1, "hq": 1, "armor": 2})
GRID = HexGrid(1, 9, 1, 9, "even-q")


def test_prices_and_spending():
    assert RAIL.price(["infantry", "infantry", "armor", "hq"]) == 5
    assert RAIL.spend(3, ["armor"]) == 1
    with pytest.raises(ValueError, match="needs 3"):
        RAIL.spend(2, ["armor", "hq"])
    with pytest.raises(ValueError):
        RAIL.price(["boat"])
    with pytest.raises(ValueError):
        Capacity(-1)


@given(st.lists(st.sampled_from(["infantry", "hq", "armor"]), max_size=8), st.integers(0, 20))
def test_spending_never_goes_below_zero(units, left):
    need = RAIL.price(units)
    if need <= left:
        assert RAIL.spend(left, units) == left - need >= 0
    else:
        with pytest.raises(ValueError):
            RAIL.spend(left, units)


def test_rail_reach_follows_the_line_and_stops_at_a_forbidden_hex():
    line = ["0101", "0201", "0301", "0401", "0501"]
    sides = {side_key(a, b) for a, b in zip(line, line[1:])}
    reach = rail_reach("0101", GRID.neighbors, lambda a, b: side_key(a, b) in sides, lambda h: h != "0401")
    assert reach == {"0201", "0301"}


def test_radius_counts_road_hexes_half():
    road = ["0505", "0605", "0705", "0805"]
    sides = {side_key(a, b) for a, b in zip(road, road[1:])}
    r = radius_reach("0505", 2, GRID.neighbors, lambda a, b: side_key(a, b) in sides, lambda a, b: True)
    assert r["0805"] == 3          # three road hexes, 1.5 hexes
    assert "0905" not in r         # off the road again: 3 + 2 > 4
    assert r["0705"] == 2


@given(st.sampled_from(GRID.hexes()), st.integers(0, 4), st.sets(st.sampled_from(GRID.hexes()), max_size=15))
def test_radius_without_roads_is_hex_distance_and_blocks_only_shrink_it(origin, radius, blocked):
    free = radius_reach(origin, radius, GRID.neighbors, lambda a, b: False, lambda a, b: True)
    assert set(free) == {origin} | set(GRID.within(origin, radius))
    assert all(free[h] == 2 * GRID.distance(origin, h) for h in free)
    cut = radius_reach(origin, radius, GRID.neighbors, lambda a, b: False, lambda a, b: b not in blocked)
    assert set(cut) <= set(free) and all(cut[h] >= free[h] for h in cut)
