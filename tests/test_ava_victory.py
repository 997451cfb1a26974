"""AVA victory (pbem/games/ava/victory.py, AVA 16, 17.1, 18.2)."""
from __future__ import annotations

from typing import Any

import pytest

from pbem.games.ava import victory
from pbem.games.ava.board import Board
from pbem.games.ava.profile import AVA
from pbem.games.ava.scenario import load
from tests import avahelp

U = avahelp.unit
CITIES = ["1010", "1210", "1410", "1610"]


def scn_dict(**victory_kw: Any) -> dict[str, Any]:
    units = {f"gm{i}": U("axis", "mech", 6, 4, 12) for i in range(5)}
    units.update({f"sm{i}": U("soviet", "mech", 4, 3, 12) for i in range(6)})
    units["gi"] = U("axis", "foot", 3, 3, 8)
    units["rm"] = U("axis", "mech", 4, 3, 12, nationality="rum")
    units["si"] = U("soviet", "foot", 3, 3, 8)
    d = avahelp.mini(units=units, cities={"major_city": CITIES}, supply={"soviet": ["2010", "2015", "2020"],
                                                                         "axis": ["1001"]},
                     source_tags={"from_moscow": ["2010"]}, stand_fast={"hexes": ["1010", "1610"]},
                     vp_hexes={"breakthrough": ["1820", "1822"]},
                     params={"short_game_turn": 6})
    d["victory"] = {"threshold": 85, "short_threshold": 60, **victory_kw}
    return d


def board(placed: dict[str, str], *, axis_hexes: tuple[str, ...] = (), eliminated: tuple[str, ...] = (),
          steps: dict[str, int] | None = None, **vkw: Any) -> Board:
    scn = load(scn_dict(**vkw))
    s = avahelp.state(scn, placed, turn=9, steps=steps)
    for h in axis_hexes:
        s["control"][h] = "axis"
    for uid in eliminated:
        s["units"][uid]["box"] = "eliminated"
    return Board(scn, AVA, s)


def loc(*hexes: str):
    ok = set(hexes)
    return lambda side, h: h in ok


def tc32_board(**kw: Any) -> Board:
    """TC-32: Axis holds 1010 (Stand Fast) and 1210 with LOC, 1410 without;
    Soviet source 2015 with LOC; 3 full German mech on the map; 4 Soviet mech
    eliminated."""
    placed = {"gm0": "1111", "gm1": "1112", "gm2": "1113", "gi": "1114", **kw.pop("placed", {})}
    return board(placed, axis_hexes=("1010", "1210", "1410", "2015", *kw.pop("more", ())),
                 eliminated=("sm0", "sm1", "sm2", "sm3"), **kw)


def test_tc32_16_1_vp_breakdown() -> None:
    b = tc32_board()
    got = victory.vp(b, loc("1010", "1210", "2015"))
    assert got == {"axis:cities": 25, "axis:stand_fast": 5, "axis:breakthrough": 10, "axis:from_moscow": 0,
                   "axis:german_mech": 3, "axis:soviet_mech_eliminated": 4, "axis:hexes": 0}
    assert victory.totals(got)["axis"] == 47


def test_tc32_16_3_a_second_soviet_source_adds_nothing() -> None:
    b = tc32_board(more=("2020",))
    assert victory.totals(victory.vp(b, loc("1010", "1210", "2015", "2020")))["axis"] == 47


def test_tc32_16_3_a_from_moscow_source_makes_it_20() -> None:
    b = tc32_board(more=("2010",))
    got = victory.vp(b, loc("1010", "1210", "2015", "2010"))
    assert got["axis:breakthrough"] + got["axis:from_moscow"] == 20
    assert victory.totals(got)["axis"] == 57


def test_a20_out_of_communication_sources_score_5_and_5() -> None:
    b = board({}, axis_hexes=("2010",))
    got = victory.vp(b, loc())
    assert (got["axis:breakthrough"], got["axis:from_moscow"]) == (5, 5)


def test_16_2_stand_fast_out_of_communication_scores_2() -> None:
    b = board({}, axis_hexes=("1610",))
    got = victory.vp(b, loc())
    assert (got["axis:cities"], got["axis:stand_fast"]) == (5, 2)


def test_16_2_a_removed_stand_fast_marker_scores_nothing() -> None:
    b = board({}, axis_hexes=("1610",))
    b.state["stand_fast"] = ["1010"]
    assert victory.vp(b, loc("1610"))["axis:stand_fast"] == 0


def test_tc32_16_1_reduced_or_boxed_german_mech_and_romanians_score_nothing() -> None:
    b = board({"gm0": "1111", "gm1": "1112", "rm": "1113"}, steps={"gm1": 1})
    assert victory.vp(b, loc())["axis:german_mech"] == 1          # gm1 reduced, gm2-4 in the box, rm Romanian


def test_tc28_16_1_every_soviet_mech_in_the_eliminated_box_counts() -> None:
    """TC-28: a Soviet tank eliminated by a supply check is in the Eliminated
    box too and scores; foot units in the box do not."""
    b = board({}, eliminated=("sm5", "si"))
    assert victory.vp(b, loc())["axis:soviet_mech_eliminated"] == 1


def test_18_2_breakthrough_hexes_only_in_the_full_game() -> None:
    b = board({}, axis_hexes=("1820", "1822"))
    assert victory.vp(b, loc("1820"))["axis:hexes"] == 15
    assert victory.vp(b, loc("1820"), short=True)["axis:hexes"] == 0


def test_16_1_vp_schedule_comes_from_the_scenario() -> None:
    b = board({}, axis_hexes=("1210",), points={"city": [7, 3]})
    assert victory.vp(b, loc("1210"))["axis:cities"] == 7


@pytest.mark.parametrize("short,vp,winner", [(False, 85, "axis"), (False, 84, "soviet"),
                                             (True, 60, "axis"), (True, 59, "soviet")])
def test_18_2_thresholds(short: bool, vp: int, winner: str) -> None:
    scn = load(scn_dict())
    got, line = victory.outcome(scn, AVA, {"axis:cities": vp}, short=short)
    assert got == winner
    assert str(vp) in line


def test_17_1_bid_replaces_the_threshold() -> None:
    scn = load(scn_dict())
    assert victory.outcome(scn, AVA, {"axis:cities": 70}, bid=70)[0] == "axis"
    assert victory.outcome(scn, AVA, {"axis:cities": 69}, bid=70)[0] == "soviet"


def test_tc31_16_4_the_game_ends_after_the_last_turns_supply_check() -> None:
    """TC-31: Supply Check of Turn 9 (6 in the short game): the game is over."""
    scn = load(scn_dict())
    assert not victory.ends_after_supply(scn, 8)
    assert victory.ends_after_supply(scn, 9)
    assert victory.ends_after_supply(scn, 6, short=True)
    assert not victory.ends_after_supply(scn, 5, short=True)


def test_18_2_withdrawn_units_do_not_count() -> None:
    b = board({"gm0": "1111"})
    b.state["units"]["gm1"]["box"] = "withdrawn"
    assert victory.vp(b, loc())["axis:german_mech"] == 1
