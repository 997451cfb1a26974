"""Movement (AVA 9, TEC): the worked examples of the AVA notes' section 6
(TC-04 to TC-10, TC-33) and the rules around them, on small synthetic maps.

Costs are in half MP (2 = 1 MP).  Grid odd-q: hex 15RR's neighbours down
the column are 15(RR-1) and 15(RR+1); 1611 and 1411 border both 1510 and 1511.
"""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

import avahelp
from pbem.board.hexgrid import HexGrid, side_key
from pbem.game import IllegalOrder
from pbem.games.ava import movement
from pbem.games.ava.board import Board
from pbem.games.ava.profile import AVA, FFS, Profile


def board(units: dict[str, dict[str, Any]], placed: dict[str, str], profile: Profile = AVA,
          **kw: Any) -> Board:
    scn = avahelp.scenario(game=profile.game, units=units, **kw)
    return Board(scn, profile, avahelp.state(scn, placed))


def axis(kind: str = "foot", move: int = 10, **kw: Any) -> dict[str, Any]:
    return avahelp.unit("axis", kind, 3, 3, move, **kw)


def soviet(kind: str = "foot", move: int = 10, **kw: Any) -> dict[str, Any]:
    return avahelp.unit("soviet", kind, 2, 2, move, **kw)


def wall(row: int) -> list[str]:
    """Every hexside between rows <= ``row`` and rows below it across the
    whole test map: a river or line nothing can walk around."""
    g = HexGrid(10, 20, 1, 30, "odd-q")
    return sorted({side_key(a, c) for a in g.hexes() for c in g.neighbors(a)
                   if int(a[2:]) <= row < int(c[2:])})


# ---------------------------------------------------------------- TC-04
def tc04_board(move: int) -> Board:
    return board({"36mot": axis("mech", move), "292r": soviet()}, {"36mot": "1510", "292r": "1516"},
                 terrain={"light_woods": ["1511"]}, cities={"city": ["1512"]},
                 roads={"r": ["1510", "1511", "1512", "1513", "1514", "1614"]},
                 hexsides={"major_river": ["1511|1512"], "minor_river": ["1514|1515"]})


def test_tc04_9_2_road_bridge_then_minor_river_into_ezoc_costs_8_mp() -> None:
    b = tc04_board(16)
    path = ["1510", "1511", "1512", "1513", "1514", "1515"]
    # road 1 (light woods), road 1 over the bridged major river into the town, road 1, road 1,
    # then off the road: clear 1 + minor river 1 + entering enemy ZOC 2.
    assert [movement.step_cost(b, "36mot", a, c) for a, c in zip(path, path[1:])] == [2, 2, 2, 2, 8]
    assert movement.check_move(b, "36mot", path, "normal") == 16


def test_tc04_9_2_a_unit_that_cannot_pay_cannot_enter() -> None:
    b = tc04_board(14)
    with pytest.raises(IllegalOrder, match="1515 costs 4 MP .*, 3 left"):
        movement.check_move(b, "36mot", ["1510", "1511", "1512", "1513", "1514", "1515"], "normal")
    assert "1515" not in movement.reach(b, "36mot", "normal")


# ---------------------------------------------------------------- TC-05, TC-08
def test_tc05_9_2_foot_clear_heavy_woods_light_woods_costs_4_mp() -> None:
    b = board({"291i": axis("foot", 10)}, {"291i": "1510"},
              terrain={"heavy_woods": ["1512"], "light_woods": ["1513"]})
    assert movement.check_move(b, "291i", ["1510", "1511", "1512", "1513"], "normal") == 8


def test_tc08_2_2_hq_moves_as_foot_unit_3_mp() -> None:
    units = {"18a": axis("hq", 10), "mech": axis("mech", 10)}
    b = board(units, {"18a": "1510", "mech": "1710"}, terrain={"light_woods": ["1513", "1713"]})
    assert movement.check_move(b, "18a", ["1510", "1511", "1512", "1513"], "normal") == 6
    assert movement.check_move(b, "mech", ["1710", "1711", "1712", "1713"], "normal") == 8


# ---------------------------------------------------------------- TC-06
def test_tc06_9_2_leaving_ezoc_then_railroad_hex_is_clear() -> None:
    b = board({"21i": axis("foot", 8), "179r": soviet()}, {"21i": "1510", "179r": "1509"},
              railroads={"r": ["1512", "1513"]})
    assert movement.step_cost(b, "21i", "1510", "1511") == 6
    assert movement.check_move(b, "21i", ["1510", "1511", "1512"], "normal") == 8


# ---------------------------------------------------------------- TC-07
def tc07_board(profile: Profile, placed: dict[str, str], **kw: Any) -> Board:
    units = {"251i": axis("foot", 8), "s1": soviet(), "s2": soviet()}
    return board(units, placed, profile, hexsides={"major_river": wall(10)}, **kw)


@pytest.mark.parametrize("profile", [AVA, FFS], ids=["ava", "ffs"])
def test_tc07_9_2_unbridged_major_river_is_the_whole_move(profile: Profile) -> None:
    b = tc07_board(profile, {"251i": "1510"})
    assert movement.check_move(b, "251i", ["1510", "1511"], "normal") == 8
    with pytest.raises(IllegalOrder, match="move ended in 1511"):
        movement.check_move(b, "251i", ["1510", "1511", "1512"], "normal")
    reach = movement.reach(b, "251i", "normal")
    assert reach["1511"] == 8 and reach["1411"] == 8 and not any(int(h[2:]) > 11 for h in reach)


@pytest.mark.parametrize("profile", [AVA, FFS], ids=["ava", "ffs"])
def test_tc07_9_2_no_move_to_the_bank_first(profile: Profile) -> None:
    b = tc07_board(profile, {"251i": "1509"})
    with pytest.raises(IllegalOrder, match="whole move"):
        movement.check_move(b, "251i", ["1509", "1510", "1511"], "normal")
    assert "1511" not in movement.reach(b, "251i", "normal")


def test_tc07_9_2_ava_either_hex_in_ezoc_bars_the_crossing() -> None:
    start_in_zoc = tc07_board(AVA, {"251i": "1510", "s1": "1410"})
    with pytest.raises(IllegalOrder, match="with either hex in enemy ZOC"):
        movement.check_move(start_in_zoc, "251i", ["1510", "1511"], "normal")
    end_in_zoc = tc07_board(AVA, {"251i": "1510", "s1": "1512"})
    with pytest.raises(IllegalOrder, match="major-river"):
        movement.check_move(end_in_zoc, "251i", ["1510", "1511"], "normal")


def test_tc07_9_2_ffs_only_both_hexes_in_ezoc_bar_the_crossing() -> None:
    one = tc07_board(FFS, {"251i": "1510", "s1": "1410"})
    assert movement.check_move(one, "251i", ["1510", "1511"], "normal") == 8
    both = tc07_board(FFS, {"251i": "1510", "s1": "1611"})
    with pytest.raises(IllegalOrder, match="with both hexes in enemy ZOC"):
        movement.check_move(both, "251i", ["1510", "1511"], "normal")


def test_tc07_9_2_ava_bridge_lifts_every_restriction() -> None:
    # A railroad-only bridge (A14): the entered hex's cost, EZOC surcharges, and the move goes on.
    b = tc07_board(AVA, {"251i": "1510", "s1": "1410"}, railroads={"r": ["1510", "1511"]})
    assert movement.check_move(b, "251i", ["1510", "1511", "1512"], "normal") == 2 + 4 + 2


# ---------------------------------------------------------------- TC-09
def tc09_board(placed: dict[str, str], **kw: Any) -> Board:
    road = [f"15{r:02d}" for r in range(10, 22)]
    return board({"217i": axis("foot", 10), "s1": soviet()}, placed,
                 roads={"r": road}, **kw)


def test_tc09_9_3_strategic_ten_road_hexes_cost_5_mp() -> None:
    b = tc09_board({"217i": "1510"}, terrain={"heavy_woods": ["1515"]})
    path = [f"15{r:02d}" for r in range(10, 21)]
    assert movement.check_move(b, "217i", path, "strategic") == 10
    assert movement.reach(b, "217i", "strategic")["1520"] == 10
    assert "1521" not in movement.reach(b, "217i", "strategic")


def test_tc09_9_3_strategic_not_from_ezoc() -> None:
    b = tc09_board({"217i": "1510", "s1": "1410"})
    with pytest.raises(IllegalOrder, match="1510 is in enemy ZOC"):
        movement.check_move(b, "217i", ["1510", "1511"], "strategic")


def test_tc09_9_3_strategic_never_into_ezoc() -> None:
    b = tc09_board({"217i": "1510", "s1": "1516"})
    with pytest.raises(IllegalOrder, match="1515 is in enemy ZOC"):
        movement.check_move(b, "217i", [f"15{r:02d}" for r in range(10, 16)], "strategic")
    assert max(movement.reach(b, "217i", "strategic")) == "1514"


def test_tc09_9_3_strategic_stays_on_the_road_and_not_on_the_railroad() -> None:
    b = tc09_board({"217i": "1510"}, railroads={"rr": ["1510", "1610"]})
    with pytest.raises(IllegalOrder, match="leaves the road"):
        movement.check_move(b, "217i", ["1510", "1511", "1611"], "strategic")
    with pytest.raises(IllegalOrder, match="leaves the road"):
        movement.check_move(b, "217i", ["1510", "1610"], "strategic")


def test_tc09_9_3_strategic_must_start_on_the_road() -> None:
    b = tc09_board({"217i": "1610"})
    with pytest.raises(IllegalOrder, match="leaves the road"):
        movement.check_move(b, "217i", ["1610", "1510", "1511"], "strategic")
    assert movement.reach(b, "217i", "strategic") == {"1610": 0}


# ---------------------------------------------------------------- TC-10
def test_tc10_9_2_ezoc_to_ezoc_costs_4_more() -> None:
    b = board({"u": axis("foot", 10), "s1": soviet()}, {"u": "1510", "s1": "1611"})
    assert movement.check_move(b, "u", ["1510", "1511"], "normal") == 2 + 4 + 4
    with pytest.raises(IllegalOrder):
        movement.check_move(b, "u", ["1510", "1511", "1512"], "normal")


# ---------------------------------------------------------------- TC-33
def test_tc33_2_1_soviet_units_never_cross_the_red_start_line() -> None:
    units = {"s": soviet(), "g": axis()}
    kw: dict[str, Any] = {"hexsides": {"start_line": wall(10)}}
    b = board(units, {"s": "1511", "g": "1810"}, **kw)
    with pytest.raises(IllegalOrder, match="red start line"):
        movement.check_move(b, "s", ["1511", "1510"], "normal")
    assert not any(int(h[2:]) <= 10 for h in movement.reach(b, "s", "normal"))
    assert movement.check_move(b, "g", ["1810", "1811"], "normal") == 2
    ffs = board(units, {"s": "1511", "g": "1710"}, FFS, **kw)
    assert movement.check_move(ffs, "s", ["1511", "1510"], "normal") == 2


# ---------------------------------------------------------------- the rest of 9 and the TEC
def test_9_1_no_entry_into_enemy_units_lakes_or_across_prohibited_hexsides() -> None:
    b = board({"u": axis(), "s": soviet()}, {"u": "1510", "s": "1610"},
              terrain={"lake": ["1410"]}, hexsides={"prohibited": ["1510|1511"]})
    for c in ("1610", "1410", "1511"):
        assert movement.step_cost(b, "u", "1510", c) is None
    with pytest.raises(IllegalOrder, match="prohibited hexside"):
        movement.check_move(b, "u", ["1510", "1511"], "normal")


def test_9_2_minor_river_along_a_road_is_bridged() -> None:
    b = board({"u": axis()}, {"u": "1510"}, roads={"r": ["1510", "1511"]},
              hexsides={"minor_river": ["1510|1511", "1510|1610"]})
    assert movement.step_cost(b, "u", "1510", "1511") == 2
    assert movement.step_cost(b, "u", "1510", "1610") == 4


@pytest.mark.parametrize("profile,cost", [(AVA, 4), (FFS, 2)], ids=["ava", "ffs"])
def test_9_2_railroad_only_bridge_over_a_minor_river(profile: Profile, cost: int) -> None:
    # AVA (notes A14): +1 MP all the same; FFS 9.2.1: a bridged river costs nothing extra.
    b = board({"u": axis()}, {"u": "1510"}, profile, railroads={"r": ["1510", "1511"]},
              hexsides={"minor_river": ["1510|1511"]})
    assert movement.step_cost(b, "u", "1510", "1511") == cost


def test_tec_major_city_costs_1_mp_whatever_else_is_in_the_hex() -> None:
    b = board({"u": axis("mech")}, {"u": "1510"}, terrain={"heavy_woods": ["1511", "1610"]},
              cities={"major_city": ["1511"], "city": ["1610"]})
    assert movement.step_cost(b, "u", "1510", "1511") == 2
    assert movement.step_cost(b, "u", "1510", "1610") == 6      # a town takes its other terrain


def test_9_2_mountain_only_along_a_road() -> None:
    b = board({"u": axis("foot", 10)}, {"u": "1510"}, terrain={"mountain": ["1511", "1610"]},
              roads={"r": ["1510", "1511"]})
    assert movement.step_cost(b, "u", "1510", "1511") == 2
    assert movement.step_cost(b, "u", "1510", "1610") is None


def test_9_2_mountain_division_enters_with_all_mp_and_no_ezoc() -> None:
    units = {"mt": axis("foot", 10, type="mountain"), "s": soviet()}
    b = board(units, {"mt": "1510"}, terrain={"mountain": ["1511"]})
    assert movement.check_move(b, "mt", ["1510", "1511"], "normal") == 10
    with pytest.raises(IllegalOrder):
        movement.check_move(b, "mt", ["1510", "1511", "1512"], "normal")
    moved_first = board(units, {"mt": "1509"}, terrain={"mountain": ["1511"]})
    assert "1511" not in movement.reach(moved_first, "mt", "normal")
    zoc = board(units, {"mt": "1510", "s": "1512"}, terrain={"mountain": ["1511"]})
    with pytest.raises(IllegalOrder, match="mountain"):
        movement.check_move(zoc, "mt", ["1510", "1511"], "normal")


def test_3_1_ava_stacking_checked_at_the_end_of_each_move() -> None:
    units = {"u": axis(), "a": axis(), "c": axis()}
    b = board(units, {"u": "1510", "a": "1511", "c": "1511"})
    with pytest.raises(IllegalOrder, match="may not end in 1511"):
        movement.check_move(b, "u", ["1510", "1511"], "normal")
    assert movement.check_move(b, "u", ["1510", "1511", "1512"], "normal") == 4
    reach = movement.reach(b, "u", "normal")
    assert "1511" not in reach and "1512" in reach


def test_3_1_3_ffs_stacking_checked_when_the_segment_ends() -> None:
    units = {"u": axis(), "a": axis(), "c": axis()}
    b = board(units, {"u": "1510", "a": "1511", "c": "1511"}, FFS)
    assert movement.check_move(b, "u", ["1510", "1511"], "normal") == 2
    assert "1511" in movement.reach(b, "u", "normal")
    moved = board(units, {"u": "1511", "a": "1511", "c": "1511"}, FFS)
    assert movement.overstacked(moved, "axis") == ["1511"]


def test_17_2_ava_reserve_unit_out_of_range_moves_normally_only() -> None:
    b = tc09_board({"217i": "1510"})
    with pytest.raises(IllegalOrder, match="17.2"):
        movement.check_move(b, "217i", ["1510", "1511"], "strategic", reserve_out_of_range=True)
    assert movement.check_move(b, "217i", ["1510", "1511"], "normal", reserve_out_of_range=True) == 2
    assert movement.allowance(b, "217i", reserve_out_of_range=True) == 10


def test_16_2_ffs_reserve_unit_out_of_range_has_half_mp_rounded_down() -> None:
    b = board({"u": axis("foot", 10)}, {"u": "1510"}, FFS)
    assert movement.allowance(b, "u", reserve_out_of_range=True) == 4      # 5 MP -> 2 MP
    with pytest.raises(IllegalOrder, match="0 left"):
        movement.check_move(b, "u", ["1510", "1511", "1512", "1513"], "normal", reserve_out_of_range=True)


def test_15_3_entry_from_off_the_map_pays_the_entry_hex() -> None:
    # 19th Army / Strategic Reserve (notes A25): normal or strategic movement from the entry hex.
    units = {"r": soviet("foot", 6), "g": axis()}
    road = [f"20{r:02d}" for r in range(10, 16)]
    b = board(units, {"g": "1512"}, roads={"r": road}, terrain={"heavy_woods": ["2009"]})
    assert movement.check_move(b, "r", ["2010", "2011", "2012"], "normal", entering=True) == 6
    assert movement.check_move(b, "r", road, "strategic", entering=True) == 6
    assert movement.reach(b, "r", "strategic", entry="2010")["2015"] == 6
    # Heavy woods 2 MP, then one clear neighbour (the map edge is column 20).
    assert movement.reach(b, "r", "normal", entry="2009") == {"2009": 4, "2010": 6, "1909": 6, "2008": 6, "1908": 6}
    with pytest.raises(IllegalOrder, match="strategic entry"):
        movement.check_move(b, "r", ["2009", "2010"], "strategic", entering=True)
    with pytest.raises(IllegalOrder, match="not on the map"):
        movement.check_move(b, "r", ["2010"], "normal")
    with pytest.raises(IllegalOrder, match="already on the map"):
        movement.check_move(b, "g", ["1512"], "normal", entering=True)


def test_15_3_an_entering_unit_never_crosses_an_unbridged_major_river() -> None:
    b = board({"r": soviet("foot", 10)}, {}, hexsides={"major_river": wall(10)})
    with pytest.raises(IllegalOrder, match="whole move"):
        movement.check_move(b, "r", ["2010", "2011"], "normal", entering=True)


def test_18_1_leningrad_reserve_neither_enters_nor_leaves_ezoc() -> None:
    units = {"r": soviet("foot", 10), "g": axis()}
    b = board(units, {"r": "1510", "g": "1512"})
    with pytest.raises(IllegalOrder, match="18.1"):
        movement.check_move(b, "r", ["1510", "1511"], "normal", no_ezoc=True)
    assert movement.check_move(b, "r", ["1510", "1511"], "normal") == 6
    stuck = board(units, {"r": "1511", "g": "1512"})
    assert movement.reach(stuck, "r", "normal", no_ezoc=True) == {"1511": 0}


def test_mp_reads_half_points() -> None:
    assert [movement.mp(h) for h in (0, 1, 2, 7)] == ["0", "1/2", "1", "3 1/2"]


# ---------------------------------------------------------------- properties
FAST = settings(max_examples=100, deadline=None)
SMALL = {"cols": (10, 13), "rows": (1, 4)}
SMALL_GRID = HexGrid(10, 13, 1, 4, "odd-q")
SMALL_SIDES = sorted({side_key(a, c) for a in SMALL_GRID.hexes() for c in SMALL_GRID.neighbors(a)})


@st.composite
def positions(draw: Any) -> tuple[dict[str, Any], dict[str, str], Profile, str, dict[str, Any]]:
    hexes = SMALL_GRID.hexes()
    terrain: dict[str, list[str]] = {}
    for h in hexes:
        t = draw(st.sampled_from(["plains", "plains", "light_woods", "heavy_woods", "marsh", "lake", "mountain"]))
        if t != "plains":
            terrain.setdefault(t, []).append(h)
    rivers: dict[str, list[str]] = {}
    for k in SMALL_SIDES:
        f = draw(st.sampled_from(["", "", "", "minor_river", "major_river", "start_line"]))
        if f:
            rivers.setdefault(f, []).append(k)
    road = [draw(st.sampled_from(hexes))]
    for _ in range(draw(st.integers(0, 6))):
        nxt = [n for n in SMALL_GRID.neighbors(road[-1]) if n not in road]
        if not nxt:
            break
        road.append(draw(st.sampled_from(nxt)))
    side = draw(st.sampled_from(["axis", "soviet"]))
    other = "soviet" if side == "axis" else "axis"
    start = draw(st.sampled_from([h for h in hexes if h not in terrain.get("lake", [])]))
    enemies = draw(st.lists(st.sampled_from([h for h in hexes if h != start]), max_size=2, unique=True))
    kind = draw(st.sampled_from(["mech", "foot", "hq"]))
    units = {"u": avahelp.unit(side, kind, 3, 3, draw(st.integers(2, 10)),
                               type=draw(st.sampled_from([kind, "mountain"])))}
    placed = {"u": start}
    for i, h in enumerate(enemies):
        units[f"e{i}"] = avahelp.unit(other, "foot", 2, 2, 8)
        placed[f"e{i}"] = h
    roads = {"r": road} if len(road) > 1 else {}
    kw: dict[str, Any] = {"terrain": terrain, "hexsides": rivers, "roads": roads, **SMALL}
    profile = draw(st.sampled_from([AVA, FFS]))
    mode = draw(st.sampled_from(["normal", "strategic"]))
    return units, placed, profile, mode, kw


def _cheapest_by_check_move(b: Board, mode: str) -> dict[str, int]:
    """Every simple path check_move accepts, extended hex by hex: the
    cheapest cost per end hex (no kernel search involved)."""
    best: dict[str, int] = {}

    def walk(path: list[str]) -> None:
        try:
            cost = movement.check_move(b, "u", path, mode)
        except IllegalOrder:
            return
        best[path[-1]] = min(best.get(path[-1], cost), cost)
        for n in b.map.neighbors(path[-1]):
            if n not in path:
                walk(path + [n])

    walk([b.unit("u")["hex"]])
    return best


@FAST
@given(positions())
def test_property_reach_is_the_cheapest_path_check_move_accepts(pos: Any) -> None:
    units, placed, profile, mode, kw = pos
    b = board(units, placed, profile, **kw)
    assert movement.reach(b, "u", mode) == _cheapest_by_check_move(b, mode)


@FAST
@given(positions())
def test_property_reach_grows_when_an_enemy_unit_leaves(pos: Any) -> None:
    units, placed, profile, mode, kw = pos
    before = movement.reach(board(units, placed, profile, **kw), "u", mode)
    fewer = {k: v for k, v in placed.items() if k != "e0"}
    after = movement.reach(board(units, fewer, profile, **kw), "u", mode)
    assert all(h in after and after[h] <= c for h, c in before.items())
