"""Movement search: Dijkstra with prohibited steps, must-stop steps and hexes
a unit may pass through but not end in."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from pbem.board.hexgrid import OFFSETS, HexGrid
from pbem.board.movement import Reach, path_cost, reachable

FAST = settings(max_examples=120, deadline=None)


@st.composite
def boards(draw):
    """A small grid with a random cost (or prohibition) per directed step,
    random must-stop steps and random hexes where a move may not end."""
    g = HexGrid(1, draw(st.integers(1, 4)), 1, draw(st.integers(1, 4)), draw(st.sampled_from(OFFSETS)))
    steps = [(a, b) for a in g.hexes() for b in g.neighbors(a)]
    cost = {e: draw(st.one_of(st.none(), st.integers(0, 4))) for e in steps}
    stop = {e for e in steps if draw(st.integers(0, 4)) == 0}
    no_end = {h for h in g.hexes() if draw(st.integers(0, 3)) == 0}
    start = draw(st.sampled_from(g.hexes()))
    allowance = draw(st.integers(0, 10))
    return g, cost, stop, no_end, start, allowance


def brute_force(g, cost, stop, start, allowance) -> dict[str, int]:
    """Cheapest cost to every hex over all simple paths (exhaustive)."""
    best = {start: 0}

    def walk(h, spent, seen):
        for n in g.neighbors(h):
            c = cost[(h, n)]
            if n in seen or c is None or spent + c > allowance:
                continue
            best[n] = min(best.get(n, allowance + 1), spent + c)
            if (h, n) not in stop:
                walk(n, spent + c, seen | {n})

    walk(start, 0, {start})
    return best


def run(board) -> Reach:
    g, cost, stop, no_end, start, allowance = board
    return reachable(start, allowance, g.neighbors, lambda a, b: cost[(a, b)],
                     lambda a, b: (a, b) in stop, lambda h: h not in no_end)


@FAST
@given(boards())
def test_dijkstra_matches_brute_force(board):
    g, cost, stop, no_end, start, allowance = board
    reach = run(board)
    assert reach.cost == brute_force(g, cost, stop, start, allowance)


@FAST
@given(boards())
def test_every_path_costs_what_reach_reports(board):
    g, cost, stop, no_end, start, allowance = board
    reach = run(board)
    for h, c in reach.cost.items():
        path = reach.path_to(h)
        assert path[0] == start and path[-1] == h
        assert path_cost(path, lambda a, b: cost[(a, b)], lambda a, b: (a, b) in stop,
                         g.neighbors) == c <= allowance
        assert reach.parent[h] == (path[-2] if len(path) > 1 else None)


@FAST
@given(boards())
def test_endable_drops_only_hexes_where_a_move_may_not_end(board):
    g, cost, stop, no_end, start, allowance = board
    reach = run(board)
    assert reach.endable == set(reach.cost) - no_end


def test_must_stop_hex_reached_cheaply_does_not_hide_a_longer_route_through_it():
    # Column 01 of an odd-q map: 0101-0102-0103.  Entering 0102 straight
    # from 0101 crosses a "major river" (must stop, 1 MP); a 3 MP detour via
    # 0202 enters 0102 without stopping, so 0103 is still reachable.
    g = HexGrid(1, 2, 1, 3, "odd-q")
    assert "0202" in g.neighbors("0101") and "0102" in g.neighbors("0202")

    def cost(a, b):
        if b == "0203":
            return None
        return 1 if (a, b) == ("0101", "0102") else (2 if b == "0102" else 1)

    reach = reachable("0101", 4, g.neighbors, cost, lambda a, b: (a, b) == ("0101", "0102"))
    assert reach.cost["0102"] == 1
    assert reach.path_to("0102") == ["0101", "0102"]
    assert reach.cost["0103"] == 4
    assert reach.path_to("0103") == ["0101", "0202", "0102", "0103"]


def test_8_1_2_no_entry_without_enough_mp_left():
    # 8.1.2: a unit may not enter a hex costing more than the MP it has left.
    g = HexGrid(1, 3, 1, 1, "odd-r")
    woods = {"0201": 2, "0301": 2}
    reach = reachable("0101", 3, g.neighbors, lambda a, b: woods.get(b, 1))
    assert reach.cost == {"0101": 0, "0201": 2}


def test_8_2_1_zoc_costs_ride_inside_step_cost():
    # T14 d: a motorized unit leaving an enemy-ZOC hex for a woods hex in
    # enemy ZOC pays 2 (woods) + 2 (leave) + 2 (enter) = 6 MP.  The kernel
    # only adds what the game's step_cost says.
    zoc = {"0101", "0201"}

    def step(a, b):
        return 2 + (2 if a in zoc else 0) + (2 if b in zoc else 0)

    assert path_cost(["0101", "0201"], step) == 6


def test_path_cost_names_the_first_illegal_step():
    g = HexGrid(1, 4, 1, 1, "odd-r")
    with pytest.raises(ValueError, match="0201 -> 0301: prohibited"):
        path_cost(["0101", "0201", "0301"], lambda a, b: None if b == "0301" else 1)
    with pytest.raises(ValueError, match="0201 -> 0301: the move had to stop in 0201"):
        path_cost(["0101", "0201", "0301"], lambda a, b: 1, lambda a, b: b == "0201")
    with pytest.raises(ValueError, match="0101 -> 0301: not adjacent"):
        path_cost(["0101", "0301"], lambda a, b: 1, None, g.neighbors)
    with pytest.raises(ValueError):
        path_cost([], lambda a, b: 1)
    assert path_cost(["0101"], lambda a, b: 1) == 0


def test_path_to_unreached_hex_raises():
    g = HexGrid(1, 3, 1, 1, "odd-r")
    reach = reachable("0101", 1, g.neighbors, lambda a, b: 1)
    with pytest.raises(ValueError):
        reach.path_to("0301")
