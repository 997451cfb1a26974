"""Retreat routes: exhaustive enumeration, priorities, over-stacking."""
from __future__ import annotations

from itertools import permutations

import pytest
from hypothesis import given, settings, strategies as st

from pbem.board.hexgrid import OFFSETS, HexGrid
from pbem.board.retreat import best_paths, retreat_paths, retreat_paths_until
from pbem.board.supply import distance_to_nearest

FAST = settings(max_examples=120, deadline=None)


@st.composite
def boards(draw, max_side: int = 4):
    g = HexGrid(1, draw(st.integers(1, max_side)), 1, draw(st.integers(1, max_side)),
                draw(st.sampled_from(OFFSETS)))
    hexes = g.hexes()
    blocked = {h for h in hexes if draw(st.integers(0, 4)) == 0}
    closed_sides = {(a, b) for a in hexes for b in g.neighbors(a) if draw(st.integers(0, 5)) == 0}
    start = draw(st.sampled_from(hexes))
    return g, blocked, closed_sides, start

def can_enter_for(blocked, closed_sides):
    return lambda a, b: b not in blocked and (a, b) not in closed_sides


def legal(g, start, path, can_enter) -> bool:
    prev = start
    for h in path:
        if not g.adjacent(prev, h) or not can_enter(prev, h):
            return False
        prev = h
    return True


def brute_paths(g, start, length, can_enter) -> list[tuple[str, ...]]:
    others = [h for h in g.hexes() if h != start]
    return [p for p in permutations(others, length) if legal(g, start, p, can_enter)]


@FAST
@given(boards(), st.integers(0, 3))
def test_retreat_paths_are_exactly_the_legal_simple_paths(board, length):
    g, blocked, closed, start = board
    can_enter = can_enter_for(blocked, closed)
    got = retreat_paths(start, length, g.neighbors, can_enter)
    for p in got:
        assert len(p) == length and len(set(p)) == length and start not in p
        assert legal(g, start, p, can_enter)
    assert sorted(map(tuple, got)) == sorted(brute_paths(g, start, length, can_enter))


@FAST
@given(boards(max_side=3), st.integers(0, 2), st.integers(0, 2), st.data())
def test_retreat_until_extends_only_routes_that_cannot_stop(board, length, extra, data):
    g, blocked, closed, start = board
    can_enter = can_enter_for(blocked, closed)
    full = {h for h in g.hexes() if data.draw(st.booleans())}
    may_end = lambda h: h not in full  # noqa: E731
    got = retreat_paths_until(start, length, g.neighbors, can_enter, may_end, extra)
    expected = []
    for n in range(length, length + extra + 1):
        for p in brute_paths(g, start, n, can_enter):
            last = p[-1] if p else start
            # every hex from the nominal end up to the last one failed may_end
            carried = all(not may_end(h) for h in ((start,) + p)[length:n])
            if may_end(last) and carried:
                expected.append(p)
    assert sorted(map(tuple, got)) == sorted(expected)


@FAST
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 9)),
                min_size=0, max_size=12))
def test_best_paths_keeps_exactly_the_lexicographic_minima(keys):
    paths = [[f"{i:04d}"] for i in range(len(keys))]
    score = {p[0]: k for p, k in zip(paths, keys)}
    priorities = [lambda p, i=i: score[p[0]][i] for i in range(3)]
    got = best_paths(paths, priorities)
    if not keys:
        assert got == []
        return
    low = min(keys)
    assert got == [p for p in paths if score[p[0]] == low]


def test_9_5_3_retreat_prefers_the_hex_closer_to_supply():
    # T12: a German unit in 0505 must retreat 1 hex.  Soviet units stand in
    # three neighbours; the other three are all in Soviet ZOC, so the ZOC
    # count ties and the hex nearer the German supply source (1105) wins.
    g = HexGrid(1, 12, 1, 12, "odd-q")
    soviets = {"0504", "0405", "0605", "0507"}
    zoc = {n for s in soviets for n in g.neighbors(s)}
    free = [n for n in g.neighbors("0505") if n not in soviets]
    assert sorted(free) == ["0406", "0506", "0606"] and set(free) <= zoc
    paths = retreat_paths("0505", 1, g.neighbors, lambda a, b: b not in soviets)
    source = ["1105"]

    def zoc_steps(p):
        return sum(h in zoc for h in p)

    def not_closer(p):
        prev, bad = "0505", 0
        for h in p:
            bad += distance_to_nearest(h, source, g) >= distance_to_nearest(prev, source, g)
            prev = h
        return bad

    best = best_paths(paths, [zoc_steps, not_closer])
    assert best == [["0606"]]
    assert zoc_steps(best[0]) == 1   # 9.5.4: it loses a step entering ZOC


def test_9_5_3_zoc_count_outranks_supply_direction():
    # A path through one ZOC hex loses to a ZOC-free path even if the latter
    # moves away from supply.
    paths = [["a"], ["b"]]
    zoc = {"a"}
    best = best_paths(paths, [lambda p: sum(h in zoc for h in p), lambda p: 0 if p == ["a"] else 1])
    assert best == [["b"]]


def test_9_5_5_overstacked_end_goes_one_hex_further():
    # A line of hexes 0101..0401 (odd-r row 01); 0201 already holds a full
    # stack, so a 1-hex retreat from 0101 carries on to 0301.
    g = HexGrid(1, 4, 1, 1, "odd-r")
    got = retreat_paths_until("0101", 1, g.neighbors, lambda a, b: True, lambda h: h != "0201")
    assert got == [["0201", "0301"]]
    # No extension allowed: no legal retreat at all (the game eliminates).
    assert retreat_paths_until("0101", 1, g.neighbors, lambda a, b: True,
                               lambda h: h != "0201", max_extra=0) == []


def test_9_5_8_no_route_means_no_paths():
    g = HexGrid(1, 3, 1, 3, "even-q")
    assert retreat_paths("0202", 2, g.neighbors, lambda a, b: False) == []
    assert retreat_paths("0202", 0, g.neighbors, lambda a, b: False) == [[]]
    with pytest.raises(ValueError):
        retreat_paths("0202", -1, g.neighbors, lambda a, b: True)
