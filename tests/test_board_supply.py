"""Supply lines traced from the sources outward."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from pbem.board.hexgrid import OFFSETS, HexGrid, side_key
from pbem.board.supply import distance_to_nearest, in_supply, traced

FAST = settings(max_examples=120, deadline=None)


def avd_line(g: HexGrid, enemies: set[str], friends: set[str], rivers: set[str] = frozenset()):
    """10.2.2 as a can_enter test: a supply line never enters an enemy unit's
    hex, enters an enemy-ZOC hex only where a friendly unit stands, and never
    crosses an unbridged major river hexside."""
    zoc = {n for e in enemies for n in g.neighbors(e)}

    def can_enter(a: str, b: str) -> bool:
        if b in enemies or side_key(a, b) in rivers:
            return False
        return b not in zoc or b in friends
    return can_enter


def fixpoint(hexes, sources, neighbors, can_enter, max_length=None, can_pass=None):
    """Shortest line lengths by repeated relaxation (Bellman-Ford style),
    independent of the kernel's breadth-first search."""
    length = {s: 0 for s in sources}
    changed = True
    while changed:
        changed = False
        for a in list(length):
            if length[a] and can_pass is not None and not can_pass(a):
                continue
            for b in neighbors(a):
                d = length[a] + 1
                if max_length is not None and d > max_length:
                    continue
                if can_enter(a, b) and d < length.get(b, 10**9):
                    length[b] = d
                    changed = True
    return length


@st.composite
def boards(draw):
    g = HexGrid(1, draw(st.integers(1, 6)), 1, draw(st.integers(1, 6)), draw(st.sampled_from(OFFSETS)))
    hexes = g.hexes()
    enemies = {h for h in hexes if draw(st.integers(0, 6)) == 0}
    friends = {h for h in hexes if h not in enemies and draw(st.integers(0, 3)) == 0}
    sources = [h for h in hexes if h not in enemies and draw(st.integers(0, 8)) == 0]
    return g, enemies, friends, sources


@FAST
@given(boards())
def test_traced_iff_a_line_exists_and_lengths_are_shortest(board):
    g, enemies, friends, sources = board
    can_enter = avd_line(g, enemies, friends)
    got = traced(sources, g.neighbors, can_enter)
    assert got == fixpoint(g.hexes(), sources, g.neighbors, can_enter)
    zoc = {n for e in enemies for n in g.neighbors(e)}
    for h in got:
        assert h not in enemies or h in sources
        assert h in sources or h not in zoc or h in friends
    for h in g.hexes():
        assert in_supply(h, sources, g.neighbors, can_enter) == (h in got)


@FAST
@given(boards(), st.integers(0, 4))
def test_max_length_cuts_the_line(board, max_length):
    g, enemies, friends, sources = board
    can_enter = avd_line(g, enemies, friends)
    got = traced(sources, g.neighbors, can_enter, max_length)
    full = traced(sources, g.neighbors, can_enter)
    assert got == {h: d for h, d in full.items() if d <= max_length}


@FAST
@given(boards(), st.data())
def test_reverse_asks_can_enter_in_the_unit_to_source_direction(board, data):
    g, enemies, friends, sources = board
    one_way = {(a, b) for a in g.hexes() for b in g.neighbors(a) if data.draw(st.booleans())}
    can_enter = lambda a, b: (a, b) not in one_way  # noqa: E731
    got = traced(sources, g.neighbors, can_enter, reverse=True)
    assert got == fixpoint(g.hexes(), sources, g.neighbors, lambda a, b: can_enter(b, a))


@FAST
@given(boards())
def test_can_pass_hexes_end_a_line_but_do_not_carry_it(board):
    # AVA 3.3-style: a line may reach an enemy-ZOC hex but not pass through
    # one unless a friendly unit is there.
    g, enemies, friends, sources = board
    zoc = {n for e in enemies for n in g.neighbors(e)}
    can_enter = lambda a, b: b not in enemies  # noqa: E731
    can_pass = lambda h: h not in zoc or h in friends  # noqa: E731
    got = traced(sources, g.neighbors, can_enter, can_pass=can_pass)
    assert got == fixpoint(g.hexes(), sources, g.neighbors, can_enter, can_pass=can_pass)


def test_unusable_sources_are_not_seeded():
    # 10.2.2: the 1517 source stops counting after Turn 4.
    g = HexGrid(1, 3, 1, 1, "odd-r")
    got = traced(["0101"], g.neighbors, lambda a, b: True, usable=lambda s: s != "0101")
    assert got == {}
    got = traced(["0101", "0301"], g.neighbors, lambda a, b: True, usable=lambda s: s != "0101")
    assert got == {"0301": 0, "0201": 1, "0101": 2}


# The T22 isolation picture, rebuilt on an odd-q map.  A Soviet source in
# 0101; German units around 0505 and guarding a river island at 0909.
G = HexGrid(1, 12, 1, 12, "odd-q")
SOURCE = ["0101"]
GERMANS = {"0504", "0606", "0406", "0708"}
# The island 0909: every hexside an unbridged major river except 0809|0909,
# which is bridged (so it is not in the blocking set).
ISLAND_RIVERS = {side_key("0909", n) for n in G.neighbors("0909") if n != "0809"}


def test_10_2_2_unit_ringed_by_zoc_is_isolated():
    # Every neighbour of 0505 holds a German unit or lies in German ZOC.
    zoc = {n for e in GERMANS for n in G.neighbors(e)}
    assert all(n in GERMANS or n in zoc for n in G.neighbors("0505"))
    line = avd_line(G, GERMANS, {"0505"}, ISLAND_RIVERS)
    assert not in_supply("0505", SOURCE, G.neighbors, line)


def test_10_2_2_friendly_unit_opens_a_zoc_hex():
    # A Soviet unit in the ZOC hex 0506 lets the line through to 0505.
    line = avd_line(G, GERMANS, {"0505", "0506"}, ISLAND_RIVERS)
    assert in_supply("0505", SOURCE, G.neighbors, line)
    assert in_supply("0506", SOURCE, G.neighbors, line)


def test_10_2_2_bridge_into_empty_zoc_hex_isolates():
    # The island's only way out is the bridge into 0809, in German ZOC.
    line = avd_line(G, GERMANS, {"0909"}, ISLAND_RIVERS)
    assert not in_supply("0909", SOURCE, G.neighbors, line)
    line = avd_line(G, GERMANS, {"0909", "0809"}, ISLAND_RIVERS)
    assert in_supply("0909", SOURCE, G.neighbors, line)
    # Without the rivers the island would be supplied another way.
    assert in_supply("0909", SOURCE, G.neighbors, avd_line(G, GERMANS, {"0909"}))


def test_distance_to_nearest():
    assert distance_to_nearest("0505", ["0101", "0508"], G) == 3
    with pytest.raises(ValueError):
        distance_to_nearest("0505", [], G)
