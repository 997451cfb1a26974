"""AVA retreats (10.6): routes, losses in enemy ZOC, over-stacking,
elimination and the priorities.  Test names carry ava.md section 6 case ids."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from pbem.game import IllegalOrder
from pbem.games.ava import retreat
from pbem.games.ava.board import Board
from pbem.games.ava.profile import AVA, FFS
from tests import avahelp
from tests.avahelp import board
from tests.avaretreat import CORRIDOR, example, towards

U = avahelp.unit


def hexes(opts: retreat.RetreatOptions, uid: str) -> list[tuple[str, ...]]:
    return [p.hexes for p in opts.paths[uid]]


def test_tc17_10_6_retreat_example():
    b = example()
    loc = towards(b, "1630")
    opts = retreat.options(b, ["179r"], 2, loc_distance=loc)
    assert hexes(opts, "179r") == [("1624", "1625")]
    assert opts.paths["179r"][0].steps == 0 and not opts.eliminated()
    legal = {p.hexes: p.steps for p in retreat.legal_paths(b, "179r", 2)}
    assert legal[("1524", "1625")] == 1          # a legal route, but its step loss can be avoided
    assert retreat.check_path(b, "179r", ["1624", "1625"], 2, loc_distance=loc).steps == 0
    with pytest.raises(IllegalOrder, match=r"^179th Rifle: 1524-1625 costs 1 step\(s\) against 0 for 1624-1625, "
                       r"and it enters more hexes in enemy ZOC \(10.6\)$"):
        retreat.check_path(b, "179r", ["1524", "1625"], 2, loc_distance=loc)


def test_tc17_10_6_the_nearest_shortest_loc_decides_among_free_routes():
    b = example()
    # every free route ends in 1625, 1723, 1724 or 1725; the LOC is shortest from 1724
    opts = retreat.options(b, ["179r"], 2, loc_distance=lambda h: 1 if h == "1724" else 5)
    assert hexes(opts, "179r") == [("1624", "1724")]


def test_tc17_10_6_a_refusal_names_the_priority_the_route_loses_on():
    b = example()
    loc = lambda h: 1 if h == "1724" else 5
    with pytest.raises(IllegalOrder, match=r"against 0 for 1624-1724, and it ends where the LOC is longer \(10.6\)$"):
        retreat.check_path(b, "179r", ["1624", "1625"], 2, loc_distance=loc)


def test_tc17_10_6_a10_loss_outranks_the_loc():
    b = example()
    opts = retreat.options(b, ["179r"], 2, loc_distance=lambda h: 0 if h == "1525" else 9)
    assert all(p.steps == 0 for p in opts.paths["179r"])    # 1525 needs 1524 (EZOC): not taken


def test_10_6_4_each_ezoc_hex_costs_a_step_and_may_eliminate():
    units = {"d": U("soviet", "foot", 2), "g": U("axis", "foot", 1)}
    # 1523's only way out is 1524, in the ZOC of the Axis unit in 1425 (so are 1424 and 1525)
    walls = {"prohibited": ["1522|1523", "1423|1523", "1424|1523", "1523|1623", "1523|1624"]}
    b = board(units, {"d": "1523", "g": "1425"}, hexsides=walls)
    legal = {p.hexes: p.steps for p in retreat.legal_paths(b, "d", 2)}
    assert legal[("1524", "1525")] == 2 and legal[("1524", "1624")] == 1
    paths = retreat.options(b, ["d"], 2, loc_distance=towards(b, "1530")).paths["d"]
    assert paths and all(p.steps == 1 for p in paths)
    reduced = board(units, {"d": "1523", "g": "1425"}, hexsides=walls, steps={"d": 1})
    assert retreat.options(reduced, ["d"], 2, loc_distance=towards(b, "1530")).eliminated() == ["d"]


def test_10_6_3_surrounded_or_off_map_is_eliminated():
    units = {"d": U("soviet", "foot", 2), "g": U("axis", "foot", 1)}
    b = board(units, {"d": "1001", "g": "1101"}, hexsides={"prohibited": ["1001|1002"]})
    # 1001 is a corner: off the map, a prohibited hexside and an enemy unit leave nothing
    assert retreat.options(b, ["d"], 1, loc_distance=towards(b, "1030")).eliminated() == ["d"]


def test_tc27_10_6_3_major_river_on_the_second_hex_destroys():
    units = {"d": U("soviet", "foot", 2), "g": U("axis", "foot", 1)}
    # d in 1510 on a corridor: 1511 is the only first hex; from it only 1512 across a major river
    sides = {"prohibited": CORRIDOR, "major_river": ["1511|1512"]}
    b = board(units, {"d": "1510", "g": "1010"}, hexsides=sides)
    # the other neighbours of 1511 are walled off, so its only way on crosses the river
    assert retreat.legal_paths(b, "d", 2) == []
    assert retreat.options(b, ["d"], 2, loc_distance=towards(b, "1530")).eliminated() == ["d"]
    assert [p.hexes for p in retreat.legal_paths(b, "d", 1)] == [("1511",)]
    # the same crossing as the first hex is allowed
    first = board(units, {"d": "1511", "g": "1010"},
                  hexsides={"major_river": ["1511|1512"], "prohibited": CORRIDOR[5:] + ["1510|1511"]})
    paths = retreat.legal_paths(first, "d", 2)
    assert paths and {p.hexes[0] for p in paths} == {"1512"}


def test_tc27_10_6_3_bridge_lifts_the_ban_in_ava_not_in_ffs():
    units = {"d": U("soviet", "foot", 2)}
    walls = CORRIDOR
    kw = dict(hexsides={"prohibited": walls, "major_river": ["1511|1512"]}, roads={"r": ["1511", "1512"]})
    assert [p.hexes for p in retreat.legal_paths(board(units, {"d": "1510"}, **kw), "d", 2)] == [("1511", "1512")]
    assert retreat.legal_paths(board(units, {"d": "1510"}, profile=FFS, **kw), "d", 2) == []   # FFS 10.6.2(4)


def test_tc27_a17_surprise_attack_ignores_the_river():
    units = {"d": U("soviet", "foot", 2)}
    walls = CORRIDOR
    b = board(units, {"d": "1510"}, hexsides={"prohibited": walls, "major_river": ["1511|1512"]})
    assert [p.hexes for p in retreat.legal_paths(b, "d", 2, surprise=True)] == [("1511", "1512")]


def test_a47_an_overstacking_extension_is_a_later_hex_too():
    units = {"d": U("soviet", "foot", 2), "f1": U("soviet", "foot", 1), "f2": U("soviet", "foot", 1)}
    walls = CORRIDOR
    b = board(units, {"d": "1510", "f1": "1511", "f2": "1511"},
              hexsides={"prohibited": walls, "major_river": ["1511|1512"]})
    assert retreat.legal_paths(b, "d", 1) == []   # 1511 is full and its one way on crosses the river


def test_10_6_5_overstacking_forces_another_hex():
    units = {"d": U("soviet", "foot", 2), "f1": U("soviet", "foot", 1), "f2": U("soviet", "foot", 1)}
    walls = ["1509|1510", "1410|1510", "1411|1510", "1510|1610", "1510|1611"]
    b = board(units, {"d": "1510", "f1": "1511", "f2": "1511"}, hexsides={"prohibited": walls})
    paths = retreat.options(b, ["d"], 1, loc_distance=towards(b, "1530")).paths["d"]
    assert paths and all(len(p.hexes) == 2 and p.hexes[0] == "1511" and p.extra == 1 for p in paths)


def test_10_6_5_a_free_hex_beats_an_overstacked_one():
    units = {"d": U("soviet", "foot", 2), "f1": U("soviet", "foot", 1), "f2": U("soviet", "foot", 1)}
    b = board(units, {"d": "1510", "f1": "1511", "f2": "1511"})
    loc = lambda h: 0 if h in ("1511", "1512") else 3        # noqa: E731 - the LOC favours the full hex
    paths = retreat.options(b, ["d"], 1, loc_distance=loc).paths["d"]
    assert paths and all(p.extra == 0 and p.hexes != ("1511",) for p in paths)


def test_10_6_2_stacked_units_retreat_on_their_own():
    units = {"p": U("soviet", "foot", 2), "q": U("soviet", "foot", 2, steps=1), "g": U("axis", "foot", 1)}
    b = board(units, {"p": "1510", "q": "1510", "g": "1409"})
    opts = retreat.options(b, ["p", "q"], 1, loc_distance=towards(b, "1530"))
    assert set(opts.paths) == {"p", "q"} and opts.paths["p"] and opts.paths["q"]
    assert hexes(opts, "p") == hexes(opts, "q")


def test_2_1_soviet_never_retreats_across_the_start_line():
    units = {"d": U("soviet", "foot", 2)}
    line = [f"{a}|{b}" for a, b in (("1510", "1511"), ("1410", "1510"), ("1411", "1510"),
                                    ("1510", "1610"), ("1510", "1611"))]
    kw = dict(hexsides={"start_line": line})
    assert [p.hexes for p in retreat.legal_paths(board(units, {"d": "1510"}, **kw), "d", 1)] == [("1509",)]
    assert len(retreat.legal_paths(board(units, {"d": "1510"}, profile=FFS, **kw), "d", 1)) == 6


def test_14_2_a_fortress_hex_costs_no_step():
    units = {"d": U("soviet", "foot", 2), "g": U("axis", "foot", 1)}
    b = board(units, {"d": "1510", "g": "1512"}, fortress={"1511": 1})
    assert retreat.zoc_steps(b, "soviet", ["1511"]) == 0
    assert retreat.zoc_steps(b, "soviet", ["1612"]) == 1


# ------------------------------------------------------------ properties
FAST = settings(max_examples=60, deadline=None)


@st.composite
def positions(draw):
    profile = draw(st.sampled_from([AVA, FFS]))
    scn0 = avahelp.scenario(cols=(10, 14), rows=(1, 5))
    hexes_ = scn0.map.grid.hexes()
    start = draw(st.sampled_from(hexes_))
    others = [h for h in hexes_ if h != start]
    enemy = draw(st.lists(st.sampled_from(others), max_size=4, unique=True))
    friends = draw(st.lists(st.sampled_from([h for h in others if h not in enemy]), max_size=4))
    sides = sorted({f"{min(a, c)}|{max(a, c)}" for a in hexes_ for c in scn0.map.grid.neighbors(a)})
    features = {f: draw(st.lists(st.sampled_from(sides), max_size=5, unique=True))
                for f in ("prohibited", "major_river", "minor_river")}
    units: dict[str, dict[str, Any]] = {"d": U("soviet", "foot", 2)}
    placed = {"d": start}
    for i, h in enumerate(enemy):
        units[f"e{i}"], placed[f"e{i}"] = U("axis", "foot", 1), h
    for i, h in enumerate(friends):
        units[f"f{i}"], placed[f"f{i}"] = U("soviet", "foot", 1), h
    b = board(units, placed, profile=profile, cols=(10, 14), rows=(1, 5), hexsides=features,
              steps={"d": draw(st.integers(1, 2))})
    return b, draw(st.integers(1, 2))


def _step_legal(b: Board, start: str, a: str, c: str) -> bool:
    if not b.map.grid.adjacent(a, c) or b.map.prohibited(a, c) or b.enemy_occupied(c, "soviet"):
        return False
    if a != start and b.map.river(a, c) == "major":
        return b.profile.retreat_major_river_later_hex == "unbridged" and b.map.bridged(a, c)
    return True


@FAST
@given(positions())
def test_property_every_retreat_path_is_legal_and_long_enough(case):
    b, length = case
    start = b.unit("d")["hex"]
    opts = retreat.options(b, ["d"], length, loc_distance=towards(b, "1405"))
    for p in opts.paths["d"]:
        route = (start,) + p.hexes
        assert len(set(route)) == len(route)
        assert all(_step_legal(b, start, a, c) for a, c in zip(route, route[1:]))
        assert len(p.hexes) == length + p.extra and p.extra >= 0
        # every hex from the result's length on but the last is over-stacked, the last is not
        assert all(len(b.units_at(h)) >= 2 for h in p.hexes[length - 1:-1])
        assert len(b.units_at(p.hexes[-1])) < 2
        assert p.steps == sum(1 for h in p.hexes if b.in_enemy_zoc(h, "soviet"))
        assert p.steps < b.unit("d")["steps"]
    legal = retreat.legal_paths(b, "d", length)
    if opts.paths["d"]:
        best = opts.paths["d"][0]
        assert all((best.steps >= b.unit("d")["steps"]) <= (p.steps >= b.unit("d")["steps"]) for p in legal)
        assert best.steps <= min(p.steps for p in legal)
    else:
        assert all(p.steps >= b.unit("d")["steps"] for p in legal)


@pytest.mark.parametrize("profile", [AVA, FFS])
def test_a11_10_6_a_retreat_ends_its_full_length_away(profile):
    b = board({"d": U("soviet", "foot", 2)}, {"d": "1510"}, profile=profile)
    legal = [p.hexes for p in retreat.legal_paths(b, "d", 2)]
    assert ("1611", "1511") in legal                       # a legal route back beside the start
    paths = retreat.options(b, ["d"], 2, loc_distance=lambda h: 0 if h == "1511" else None).paths["d"]
    assert paths and all(b.map.distance("1510", p.hexes[-1]) == 2 for p in paths)
    assert all(b.map.distance("1511", p.hexes[-1]) == 1 for p in paths)
