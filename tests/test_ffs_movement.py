"""FFS movement and command range (GJ53 8.2, 9, TEC): TC-04 to TC-07 and
TD-06 to TD-11 of the FFS notes, on the FFS profile.  Costs in half MP."""
from __future__ import annotations

from typing import Any

import pytest

import avahelp
from pbem.board.hexgrid import HexGrid, side_key
from pbem.game import IllegalOrder
from pbem.games.ava import activation, movement
from pbem.games.ava.board import Board
from pbem.games.ava.profile import AVA, FFS, Profile


def board(units: dict[str, dict[str, Any]], placed: dict[str, str], profile: Profile = FFS,
          **kw: Any) -> Board:
    scn = avahelp.scenario(game=profile.game, units=units, **kw)
    return Board(scn, profile, avahelp.state(scn, placed))


def ger(kind: str = "foot", move: int = 10, **kw: Any) -> dict[str, Any]:
    return avahelp.unit("axis", kind, 3, 3, move, **kw)


def sov(kind: str = "foot", **kw: Any) -> dict[str, Any]:
    return avahelp.unit("soviet", kind, 2, 2, 8, **kw)


def wall(row: int) -> list[str]:
    """Every hexside between rows <= ``row`` and the rows below, map-wide."""
    g = HexGrid(10, 20, 1, 30, "odd-q")
    return sorted({side_key(a, c) for a in g.hexes() for c in g.neighbors(a)
                   if int(a[2:]) <= row < int(c[2:])})


# ---------------------------------------------------------------- TC-04 (8.2)
@pytest.mark.parametrize("printed,expected", [(4, ["hq", "at4"]), (5, ["hq", "at4", "at5"]), (3, ["hq"])])
def test_ffs_tc04_8_2_printed_command_range(printed: int, expected: list[str]) -> None:
    units = {"hq": sov("hq", command_range=printed), "at4": sov(), "at5": sov()}
    b = board(units, {"hq": "1510", "at4": "1514", "at5": "1515"})
    assert activation.command_range(b, "hq") == printed
    assert activation.activated_by(b, "hq") == expected


# ---------------------------------------------------------------- TC-05 (9.2 example)
def test_ffs_tc05_9_2_ezoc_to_ezoc_clear_costs_5_and_ends_the_move() -> None:
    b = board({"i": ger("foot", 10), "s": sov()}, {"i": "1510", "s": "1611"})
    assert movement.check_move(b, "i", ["1510", "1511"], "normal") == 10
    reach = movement.reach(b, "i", "normal")
    assert reach["1511"] == 10
    assert all(movement.check_move(b, "i", [*movement.reach_paths(b, "i").path_to(h)], "normal") == c
               for h, c in reach.items())
    with pytest.raises(IllegalOrder, match="0 left"):
        movement.check_move(b, "i", ["1510", "1511", "1512"], "normal")


# ---------------------------------------------------------------- TC-06, TC-07 (9.3 example)
def road_board(placed: dict[str, str]) -> Board:
    return board({"i": ger("foot", 10), "s": sov()}, placed, roads={"r": [f"15{r:02d}" for r in range(10, 22)]})


def test_ffs_tc06_9_3_strategic_ten_road_hexes_for_5_mp() -> None:
    b = road_board({"i": "1510"})
    assert movement.check_move(b, "i", [f"15{r:02d}" for r in range(10, 21)], "strategic") == 10


def test_ffs_tc07_9_3_strategic_stops_before_the_first_ezoc_hex() -> None:
    # The enemy at "B" (1517) puts 1516 in ZOC: the move stops at "C", 1515.
    b = road_board({"i": "1510", "s": "1517"})
    reach = movement.reach(b, "i", "strategic")
    assert max(reach) == "1515" and reach["1515"] == 5
    with pytest.raises(IllegalOrder, match="1516 is in enemy ZOC"):
        movement.check_move(b, "i", [f"15{r:02d}" for r in range(10, 21)], "strategic")


# ---------------------------------------------------------------- TD-06 .. TD-08 (9.2.1)
def test_ffs_td06_9_2_1_mech_clear_light_deep_woods_then_clear() -> None:
    b = board({"m": ger("mech", 12)}, {"m": "1510"}, terrain={"light_woods": ["1511"], "heavy_woods": ["1512"]})
    assert movement.check_move(b, "m", ["1510", "1511", "1512"], "normal") == 10
    assert movement.check_move(b, "m", ["1510", "1511", "1512", "1513"], "normal") == 12


def test_ffs_td07_9_2_1_foot_across_minor_river_into_swamp() -> None:
    b = board({"i": ger("foot", 8)}, {"i": "1510"}, terrain={"marsh": ["1511"]},
              hexsides={"minor_river": ["1510|1511"]})
    assert movement.check_move(b, "i", ["1510", "1511"], "normal") == 6


def test_ffs_td08_9_2_1_road_into_deep_woods_costs_1() -> None:
    b = board({"m": ger("mech", 8)}, {"m": "1510"}, terrain={"heavy_woods": ["1511"]},
              roads={"r": ["1510", "1511"]})
    assert movement.step_cost(b, "m", "1510", "1511") == 2


# ---------------------------------------------------------------- TD-09, TD-10 (9.2.1, 9.2.3)
def test_ffs_td09_9_2_1_unbridged_major_river_only_as_the_first_hex() -> None:
    first = board({"i": ger("foot", 10)}, {"i": "1510"}, hexsides={"major_river": wall(10)})
    assert movement.check_move(first, "i", ["1510", "1511"], "normal") == 10
    with pytest.raises(IllegalOrder, match="ended in 1511"):
        movement.check_move(first, "i", ["1510", "1511", "1512"], "normal")
    second = board({"i": ger("foot", 10)}, {"i": "1509"}, hexsides={"major_river": wall(10)})
    with pytest.raises(IllegalOrder, match="whole move"):
        movement.check_move(second, "i", ["1509", "1510", "1511"], "normal")


@pytest.mark.parametrize("profile,legal", [(FFS, False), (AVA, True)], ids=["ffs", "ava"])
def test_ffs_td10_9_2_3_bridged_major_river_ezoc_to_ezoc(profile: Profile, legal: bool) -> None:
    units = {"i": ger("foot", 20), "f": ger(), "s": sov()}
    # Both banks in the ZOC of the Soviet in 1611; a friendly unit in the far bank changes nothing.
    b = board(units, {"i": "1510", "f": "1511", "s": "1611"}, profile,
              hexsides={"major_river": ["1510|1511"]}, roads={"r": ["1510", "1511"]})
    if legal:
        assert movement.check_move(b, "i", ["1510", "1511"], "normal") == 2 + 4 + 4
    else:
        with pytest.raises(IllegalOrder, match="with both hexes in enemy ZOC"):
            movement.check_move(b, "i", ["1510", "1511"], "normal")


# ---------------------------------------------------------------- TD-11 (9.2.2)
def test_ffs_td11_9_2_2_mech_ezoc_to_ezoc_light_woods_6_deep_woods_7() -> None:
    units = {"m": ger("mech", 12), "s": sov()}
    light = board(units, {"m": "1510", "s": "1611"}, terrain={"light_woods": ["1511"]})
    assert movement.check_move(light, "m", ["1510", "1511"], "normal") == 12
    deep = board(units, {"m": "1510", "s": "1611"}, terrain={"heavy_woods": ["1511"]})
    with pytest.raises(IllegalOrder, match="1511 costs 7 MP .*, 6 left"):
        movement.check_move(deep, "m", ["1510", "1511"], "normal")
