"""Lines of communications (AVA 3.3, 11, 12.1, 15.1, 17.4, 17.6): TC-29 and
TC-34 of the AVA notes and the LOC rules around them, with the FFS
differences side by side where the two books part."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

import avahelp
from pbem.games.ava import supply
from pbem.games.ava.board import Board
from pbem.games.ava.profile import AVA, FFS, Profile

FAST = settings(max_examples=60, deadline=None)
COLUMN = [f"15{r:02d}" for r in range(1, 21)]          # 1501 .. 1520, top to bottom
TWO_COLUMNS = {"cols": (15, 16), "rows": (1, 20)}


def board(units: dict[str, dict[str, Any]], placed: dict[str, str], profile: Profile = AVA, *,
          turn: int = 1, **kw: Any) -> Board:
    scn = avahelp.scenario(game=profile.game, units=units, **kw)
    return Board(scn, profile, avahelp.state(scn, placed, turn=turn))


def sov(kind: str = "foot") -> dict[str, Any]:
    return avahelp.unit("soviet", kind, 2, 2, 8)


def ger(kind: str = "foot") -> dict[str, Any]:
    return avahelp.unit("axis", kind, 3, 3, 8)


# ---------------------------------------------------------------- 3.3 the common restrictions
def test_3_3_soviet_loc_any_length_but_not_into_enemy_units() -> None:
    units = {"s": sov(), "g": ger()}
    open_ = board(units, {"s": "1501"}, supply={"soviet": ["1520"]}, cols=(15, 15))
    assert open_.map.on_map("1501") and supply.loc(open_, "soviet")["1501"] == 19
    cut = board(units, {"s": "1501", "g": "1510"}, supply={"soviet": ["1520"]}, cols=(15, 15))
    assert not supply.has_loc(cut, "s")


def test_3_3_ezoc_passed_only_where_a_friendly_unit_stands(profile: Profile = AVA) -> None:
    # The German in 1605 puts 1504, 1505 (and 1604, 1606) in ZOC: every way north crosses row 4 and 5.
    units = {"far": sov(), "f4": sov(), "f5": sov(), "g": ger()}
    kw: dict[str, Any] = {"supply": {"soviet": ["1520"]}, **TWO_COLUMNS}
    held = board(units, {"far": "1501", "f4": "1504", "f5": "1505", "g": "1605"}, profile, **kw)
    assert supply.has_loc(held, "far")
    empty = board(units, {"far": "1501", "f5": "1505", "g": "1605"}, profile, **kw)
    assert not supply.has_loc(empty, "far")
    # A line may end in an enemy-ZOC hex (notes A7): the unit in it has an LOC.
    assert supply.has_loc(empty, "f5") and "1504" in supply.loc(empty, "soviet")


def test_3_3_no_lake_and_mountain_only_along_a_road() -> None:
    units = {"s": sov()}
    kw: dict[str, Any] = {"supply": {"soviet": ["1520"]}, "cols": (15, 15)}
    lake = board(units, {"s": "1501"}, terrain={"lake": ["1510"]}, **kw)
    assert not supply.has_loc(lake, "s")
    mountain = board(units, {"s": "1501"}, terrain={"mountain": ["1510"]}, **kw)
    assert not supply.has_loc(mountain, "s")
    road = board(units, {"s": "1501"}, terrain={"mountain": ["1510"]}, roads={"r": ["1509", "1510", "1511"]}, **kw)
    assert supply.has_loc(road, "s")
    # Along the road into the mountain hex but off it on the far side: no.
    half = board(units, {"s": "1501"}, terrain={"mountain": ["1510"]}, roads={"r": ["1510", "1511"]}, **kw)
    assert not supply.has_loc(half, "s")


def test_3_3_major_river_does_not_block_a_loc() -> None:
    b = board({"s": sov()}, {"s": "1501"}, supply={"soviet": ["1520"]}, cols=(15, 15),
              hexsides={"major_river": ["1510|1511"]})
    assert supply.has_loc(b, "s")


def test_2_1_ava_soviet_loc_never_crosses_the_start_line() -> None:
    kw: dict[str, Any] = {"supply": {"soviet": ["1520"]}, "cols": (15, 15),
                          "hexsides": {"start_line": ["1510|1511"]}}
    assert not supply.has_loc(board({"s": sov()}, {"s": "1501"}, **kw), "s")
    assert supply.has_loc(board({"s": sov()}, {"s": "1501"}, FFS, **kw), "s")


def test_3_3_source_in_enemy_zoc_is_not_passed_unless_held() -> None:
    units = {"s": sov(), "g": ger(), "f": sov()}
    kw: dict[str, Any] = {"supply": {"soviet": ["1520"]}, "cols": (15, 15)}
    b = board(units, {"s": "1501", "g": "1521"}, rows=(1, 21), **kw)
    assert not supply.has_loc(b, "s") and "1520" in supply.loc(b, "soviet")
    held = board(units, {"s": "1501", "g": "1521", "f": "1520"}, rows=(1, 21), **kw)
    assert supply.has_loc(held, "s")


# ---------------------------------------------------------------- 3.3 Axis: railroad, then six hexes
def axis_rail(placed: dict[str, str], profile: Profile = AVA, turn: int = 4, **kw: Any) -> Board:
    units = {"g": ger(), "g7": ger(), "s": sov()}
    return board(units, placed, profile, turn=turn, supply={"axis": ["1001"]},
                 railroads={"north": [f"10{r:02d}" for r in range(1, 6)]}, **kw)


def test_3_3_axis_six_hexes_off_the_railroad_not_seven(profile: Profile = AVA) -> None:
    b = axis_rail({"g": "1011", "g7": "1012"}, profile)
    lines = supply.loc(b, "axis")
    assert lines["1005"] == 0 and lines["1011"] == 6 and "1012" not in lines
    assert supply.out_of_loc(b, "axis") == ["g7"]


def test_3_3_axis_railroad_must_be_uninterrupted() -> None:
    # A Soviet unit on the line at 1003: 1002 (its ZOC) ends the rail leg, 1004-1005 are cut off.
    b = axis_rail({"g": "1007", "s": "1003"})
    lines = supply.loc(b, "axis")
    assert lines.get("1002") == 0 and lines.get("1004", 99) > 0
    assert not supply.has_loc(b, "g")
    assert supply.has_loc(axis_rail({"g": "1007"}), "g")


def test_3_3_axis_railroad_runs_along_railroad_hexsides_only() -> None:
    # Two rail hexes side by side but no railroad hexside between them: not one railroad.
    b = board({"g": ger()}, {"g": "1017"}, supply={"axis": ["1001"]},
              railroads={"a": ["1001", "1002", "1003"], "b": ["1004", "1005", "1006", "1007", "1008",
                                                            "1009", "1010"]}, hexsides={})
    assert b.map.rail("1003", "1004") is False
    assert not supply.has_loc(b, "g")


# ---------------------------------------------------------------- TC-29 (15.1)
def test_tc29_15_1_axis_exempt_before_turn_4_soviets_never() -> None:
    units = {"g": ger(), "s": sov()}
    kw: dict[str, Any] = {"supply": {"axis": ["1001"], "soviet": ["2030"]}}
    for turn, axis_losses in ((2, []), (3, []), (4, ["g"])):
        b = board(units, {"g": "1530", "s": "1501"}, turn=turn, **kw)
        assert supply.out_of_loc(b, "axis") == axis_losses
    cut = board(units, {"g": "1510", "s": "1501"}, turn=1, cols=(15, 15), supply={"soviet": ["1520"]})
    assert supply.out_of_loc(cut, "soviet") == ["s"]
    assert supply.out_of_loc(cut, "axis", turn=9) == ["g"]


# ---------------------------------------------------------------- TC-34 (12.1)
def rail_board(profile: Profile, placed: dict[str, str], **kw: Any) -> Board:
    units = {"f4": sov(), "f5": sov(), "g": ger(), "s": sov()}
    return board(units, placed, profile, supply={"soviet": ["1520"]}, railroads={"line": list(COLUMN)},
                 **TWO_COLUMNS, **kw)


def test_tc34_12_1_rail_entry_never_through_ezoc_even_if_held(profile: Profile = AVA) -> None:
    # 1504 and 1505 are in the German's ZOC, held by Soviet units.
    b = rail_board(profile, {"f4": "1504", "f5": "1505", "g": "1605", "s": "1501"})
    assert supply.rail_entry_hexes(b, "soviet") == set(COLUMN[5:])
    assert supply.has_loc(b, "s")           # the same line serves an ordinary LOC


def test_12_1_rail_entry_needs_a_railroad_hexside_all_the_way() -> None:
    b = board({"s": sov()}, {}, supply={"soviet": ["1520"]}, railroads={"a": ["1520", "1519", "1518"],
                                                                          "b": ["1516", "1515"]})
    assert supply.rail_entry_hexes(b, "soviet") == {"1518", "1519", "1520"}


@pytest.mark.parametrize("profile,blocked", [(AVA, False), (FFS, True)], ids=["ava", "ffs"])
def test_12_1_2_enemy_town_on_the_rail_blocks_placement_in_ffs(profile: Profile, blocked: bool) -> None:
    b = rail_board(profile, {}, cities={"city": ["1510"]}, control={"axis": ["1510"]})
    entry = supply.rail_entry_hexes(b, "soviet")
    assert ("1509" not in entry) is blocked and ("1510" not in entry) is blocked and "1511" in entry


# ---------------------------------------------------------------- FFS 3.3.1: enemy cities
@pytest.mark.parametrize("profile,has", [(AVA, True), (FFS, False)], ids=["ava", "ffs"])
def test_3_3_1_enemy_controlled_towns_block_a_loc_in_ffs(profile: Profile, has: bool) -> None:
    b = board({"s": sov()}, {"s": "1501"}, profile, supply={"soviet": ["1520"]}, **TWO_COLUMNS,
              cities={"city": ["1510", "1610"]}, control={"axis": ["1510", "1610"]})
    assert supply.has_loc(b, "s") is has
    own = board({"s": sov()}, {"s": "1501"}, profile, supply={"soviet": ["1520"]}, **TWO_COLUMNS,
                cities={"city": ["1510", "1610"]})
    assert supply.has_loc(own, "s")


# ---------------------------------------------------------------- 17.4 (optional)
def limited_board(placed: dict[str, str]) -> Board:
    return board({"s": sov()}, placed, supply={"soviet": ["1530"]},
                 roads={"r": [f"15{r}" for r in range(25, 31)]}, railroads={"rr": [f"15{r}" for r in range(20, 26)]})


def test_17_4_soviet_line_by_road_or_railroad_then_twelve_hexes() -> None:
    near = limited_board({"s": "1513"})            # 12 from the road's end at 1525
    assert supply.has_loc(near, "s", limited=True)
    far = limited_board({"s": "1512"})
    assert supply.has_loc(far, "s") and not supply.has_loc(far, "s", limited=True)
    # 1508 is 12 from the railroad's end at 1520, but that railroad reaches the source only by road.
    assert not supply.has_loc(limited_board({"s": "1508"}), "s", limited=True)


# ---------------------------------------------------------------- 17.6 (optional)
def pzg_board(placed: dict[str, str]) -> Board:
    units = {"3pzg": ger("hq"), "4pzg": ger("hq")}
    return board(units, placed, turn=4, supply={"axis": ["1001", "2001"]},
                 railroads={"west": [f"10{r:02d}" for r in range(1, 11)],
                            "east": [f"20{r:02d}" for r in range(1, 11)]})


def test_17_6_second_activation_needs_a_line_off_the_railroads_already_used() -> None:
    b = pzg_board({"3pzg": "1510", "4pzg": "1010"})
    first = supply.pzg_second_activation(b, "3pzg", [])
    assert first in ({"west"}, {"east"})
    other = supply.pzg_second_activation(b, "3pzg", first or ())
    assert other is not None and other.isdisjoint(first or ()) and len(other) == 1
    assert supply.pzg_second_activation(b, "3pzg", ["west", "east"]) is None
    assert supply.pzg_second_activation(b, "4pzg", ["west"]) is None


def test_17_6_an_hq_at_the_source_uses_no_railroad() -> None:
    b = pzg_board({"3pzg": "1002"})
    assert supply.loc_rail_lines(b, "3pzg") == {"west"}
    at_source = pzg_board({"3pzg": "1001"})
    assert supply.loc_rail_lines(at_source, "3pzg", without_lines=["west"]) == frozenset()


# ---------------------------------------------------------------- properties
SMALL = {"cols": (10, 14), "rows": (1, 8)}


@st.composite
def fronts(draw: Any) -> tuple[dict[str, Any], dict[str, str], str]:
    scn0 = avahelp.scenario(**SMALL)
    hexes = scn0.map.grid.hexes()
    side = draw(st.sampled_from(["axis", "soviet"]))
    enemy = "soviet" if side == "axis" else "axis"
    spots = draw(st.lists(st.sampled_from(hexes), min_size=1, max_size=5, unique=True))
    units = {f"e{i}": avahelp.unit(enemy, "foot", 2, 2, 8) for i in range(len(spots))}
    return units, {f"e{i}": h for i, h in enumerate(spots)}, side


def _rails_kw() -> dict[str, Any]:
    return {"supply": {"axis": ["1001"], "soviet": ["1408"]},
            "railroads": {"a": ["1001", "1002", "1003", "1103", "1203", "1303"]}, **SMALL}


@FAST
@given(fronts(), st.sampled_from([AVA, FFS]))
def test_property_loc_grows_when_an_enemy_unit_leaves(front: tuple[dict[str, Any], dict[str, str], str],
                                                      profile: Profile) -> None:
    units, placed, side = front
    before = supply.loc(board(units, placed, profile, **_rails_kw()), side)
    gone = dict(placed)
    gone.pop(sorted(gone)[0])
    after = supply.loc(board(units, gone, profile, **_rails_kw()), side)
    assert set(before) <= set(after)
    assert all(after[h] <= before[h] or before[h] == 0 for h in before)


@FAST
@given(fronts())
def test_property_rail_entry_hexes_have_an_ordinary_loc(front: tuple[dict[str, Any], dict[str, str], str]) -> None:
    units, placed, side = front
    b = board(units, placed, **_rails_kw())
    assert supply.rail_entry_hexes(b, side) <= set(supply.loc(b, side))
