"""FFS communication lines (GJ53 3.3, 11, 12.1): TD-16 to TD-18 of the FFS
notes and the enemy-city rule, on the FFS profile."""
from __future__ import annotations

from typing import Any

import avahelp
from pbem.games.ava import supply
from pbem.games.ava.board import Board
from pbem.games.ava.profile import FFS

COLUMN = [f"15{r:02d}" for r in range(1, 21)]
TWO_COLUMNS = {"cols": (15, 16), "rows": (1, 20)}


def board(units: dict[str, dict[str, Any]], placed: dict[str, str], *, turn: int = 1, **kw: Any) -> Board:
    scn = avahelp.scenario(game="ffs", units=units, **kw)
    return Board(scn, FFS, avahelp.state(scn, placed, turn=turn))


def sov() -> dict[str, Any]:
    return avahelp.unit("soviet", "foot", 2, 2, 8)


def ger() -> dict[str, Any]:
    return avahelp.unit("axis", "foot", 3, 3, 8)


def test_ffs_td16_3_3_5_axis_seven_hexes_off_the_railroad_loses_a_step_from_turn_4() -> None:
    units = {"g6": ger(), "g7": ger()}
    kw: dict[str, Any] = {"supply": {"axis": ["1001"]}, "railroads": {"r": [f"10{r:02d}" for r in range(1, 6)]}}
    for turn, losses in ((1, []), (3, []), (4, ["g7"])):
        b = board(units, {"g6": "1011", "g7": "1012"}, turn=turn, **kw)
        assert supply.out_of_loc(b, "axis") == losses
    assert supply.loc(board(units, {}, **kw), "axis")["1011"] == 6


def test_ffs_td17_3_3_1_ezoc_hex_held_by_a_friendly_unit_passes_the_line() -> None:
    # The German in 1605 puts rows 4 and 5 of both columns in ZOC (or occupies them).
    units = {"far": sov(), "f4": sov(), "f5": sov(), "g": ger()}
    kw: dict[str, Any] = {"supply": {"soviet": ["1520"]}, **TWO_COLUMNS}
    assert supply.has_loc(board(units, {"far": "1501", "f4": "1504", "f5": "1505", "g": "1605"}, **kw), "far")
    assert not supply.has_loc(board(units, {"far": "1501", "f5": "1505", "g": "1605"}, **kw), "far")


def test_ffs_td18_12_1_2_rail_placement_never_through_ezoc_even_if_held() -> None:
    units = {"f4": sov(), "f5": sov(), "g": ger(), "s": sov()}
    b = board(units, {"f4": "1504", "f5": "1505", "g": "1605", "s": "1501"}, supply={"soviet": ["1520"]},
              railroads={"line": list(COLUMN)}, **TWO_COLUMNS)
    assert supply.rail_entry_hexes(b, "soviet") == set(COLUMN[5:])
    assert supply.has_loc(b, "s")


def test_ffs_3_3_1_enemy_controlled_city_blocks_the_line_friendly_city_does_not() -> None:
    kw: dict[str, Any] = {"supply": {"soviet": ["1520"]}, "cities": {"city": ["1510", "1610"]}, **TWO_COLUMNS}
    assert not supply.has_loc(board({"s": sov()}, {"s": "1501"}, control={"axis": ["1510", "1610"]}, **kw), "s")
    assert supply.has_loc(board({"s": sov()}, {"s": "1501"}, control={"axis": ["1510"]}, **kw), "s")


def test_ffs_3_3_red_start_line_does_not_bind_soviet_lines() -> None:
    b = board({"s": sov()}, {"s": "1501"}, supply={"soviet": ["1520"]}, cols=(15, 15),
              hexsides={"start_line": ["1510|1511"]})
    assert supply.has_loc(b, "s")
