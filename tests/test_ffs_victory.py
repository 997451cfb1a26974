"""FFS victory (pbem/games/ava/victory.py, Fierce Fight! Smolensk 15.5,
15.6, 16.1)."""
from __future__ import annotations

from typing import Any

import pytest

from pbem.games.ava import victory
from pbem.games.ava.board import Board
from pbem.games.ava.profile import FFS
from pbem.games.ava.scenario import load
from tests import avahelp

U = avahelp.unit
VITEBSK, SMOLENSK, GOMEL = "1010", "1210", "1410"
TIMED = [{"hex": VITEBSK, "turn": 4, "vp": 10}, {"hex": SMOLENSK, "turn": 5, "vp": 10},
         {"hex": GOMEL, "turn": 6, "vp": 10}]


def scn_dict() -> dict[str, Any]:
    units = {f"gm{i}": U("axis", "mech", 6, 4, 12) for i in range(4)}
    units.update({f"gi{i}": U("axis", "foot", 3, 3, 8) for i in range(4)})
    units["ghq"] = U("axis", "hq", 2, 2, 8)
    d = avahelp.mini(game="ffs", units=units, cities={"major_city": [VITEBSK, SMOLENSK, GOMEL, "1610"]},
                     supply={"soviet": ["2004", "2007", "2013"], "axis": ["1001"]},
                     source_tags={"from_moscow": ["2004", "2007", "2013"], "east_edge": ["2004", "2007", "2013"]},
                     vp_hexes={"breakthrough": ["1830", "1730"], "moscow_pair": ["2004", "2007"]},
                     params={"short_game_turn": 6})
    d["victory"] = {"points": {"timed": TIMED}}
    return d


def board(turn: int = 9, axis: tuple[str, ...] = (), **state_kw: Any) -> Board:
    scn = load(scn_dict())
    s = avahelp.state(scn, {}, turn=turn, **state_kw)
    for h in axis:
        s["control"][h] = "axis"
    return Board(scn, FFS, s)


def loc(*hexes: str, soviet: tuple[str, ...] = ()):
    return lambda side, h: h in (hexes if side == "axis" else soviet)


def test_15_5_both_sides_score_their_major_cities() -> None:
    b = board(axis=(VITEBSK, SMOLENSK))
    got = victory.vp(b, loc(VITEBSK, soviet=(GOMEL,)))
    assert got["axis:cities"] == 15                     # 10 with LOC + 5 without
    assert got["soviet:cities"] == 15                   # Gomel 10 + 1610 5


def test_15_5_3_timed_city_bonus_at_that_turns_supply_order() -> None:
    b = board(turn=4, axis=(VITEBSK, SMOLENSK))
    got = victory.timed_awards(b, 4, loc(VITEBSK, SMOLENSK))
    assert got == {f"timed:{VITEBSK}": 10}              # Smolensk counts only on Turn 5
    victory.record(b.state, got)
    assert victory.timed_awards(b, 4, loc(VITEBSK)) == {}          # once
    assert victory.vp(b, loc())["axis:timed"] == 10
    assert victory.timed_awards(b, 5, loc(SMOLENSK)) == {f"timed:{SMOLENSK}": 10}


def test_15_5_3_timed_bonus_needs_control_and_loc() -> None:
    b = board(turn=6, axis=(GOMEL,))
    assert victory.timed_awards(b, 6, loc()) == {}
    assert victory.timed_awards(board(turn=6), 6, loc(GOMEL)) == {}


@pytest.mark.parametrize("held,want", [(("2013",), 15), (("2004",), 30), (("2004", "2007", "2013"), 30), ((), 0)])
def test_15_5_east_edge_breakthrough_capped_at_30(held: tuple[str, ...], want: int) -> None:
    b = board(axis=held)
    assert victory.vp(b, loc(*held))["axis:east_edge"] == want


def test_15_5_east_edge_needs_loc_8_53() -> None:
    b = board(axis=("2004",))
    assert victory.vp(b, loc())["axis:east_edge"] == 0


@pytest.mark.parametrize("turn,after,want", [(3, False, 20), (7, True, 20), (8, False, 15), (8, True, 10),
                                             (9, False, 5), (9, True, 5)])
def test_tc21_15_5_4230_4730_graded_by_when_first_held(turn: int, after: bool, want: int) -> None:
    """TC-21: Turns 1-7 20, Turn 8 before its Supply Order 15, after 10, Turn 9 5."""
    b = board(turn=turn, axis=("1830",))
    assert victory.hex_award(b, turn, after, loc("1830")) == {"hexes": want}


def test_tc21_15_5_4230_awarded_once_at_the_first_value() -> None:
    b = board(turn=5, axis=("1730",))
    victory.record(b.state, victory.hex_award(b, 5, False, loc("1730")))
    assert victory.hex_award(b, 9, True, loc("1730")) == {}
    assert victory.vp(b, loc())["axis:hexes"] == 20
    assert victory.hex_award(board(turn=5, axis=("1730",)), 5, False, loc()) == {}   # without LOC


def test_td23_15_5_5_axis_loses_3_per_mech_1_per_other() -> None:
    """TD-23: 2 mech and 3 non-mech lost to combat or supply, 2 mech
    withdrawn on Turn 6: -9, the withdrawn ones not counted."""
    b = board()
    for uid in ("gm0", "gm1", "gi0", "gi1", "gi2"):
        victory.note_loss(b.state, b.scn, uid)
    for uid in ("gm2", "gm3"):
        b.state["units"][uid]["box"] = "withdrawn"
    assert victory.vp(b, loc())["axis:losses"] == -9


def test_8_65_an_axis_hq_lost_twice_costs_twice() -> None:
    b = board()
    victory.note_loss(b.state, b.scn, "ghq")
    victory.note_loss(b.state, b.scn, "ghq")
    assert victory.vp(b, loc())["axis:losses"] == -2


@pytest.mark.parametrize("axis,soviet,winner", [(30, 20, "axis"), (20, 30, "soviet"), (25, 25, None)])
def test_15_6_1_short_game_higher_total_wins_tie_is_a_draw(axis: int, soviet: int, winner: str | None) -> None:
    scn = load(scn_dict())
    got, line = victory.outcome(scn, FFS, {"axis:cities": axis, "soviet:cities": soviet}, short=True)
    assert got == winner
    assert ("Draw" in line) == (winner is None)


@pytest.mark.parametrize("axis,soviet,winner", [(60, 20, "axis"), (59, 20, "soviet"), (20, 20, "soviet")])
def test_15_6_2_full_game_axis_must_lead_by_40_8_56(axis: int, soviet: int, winner: str) -> None:
    scn = load(scn_dict())
    assert victory.outcome(scn, FFS, {"axis:cities": axis, "soviet:cities": soviet})[0] == winner


def test_16_1_bid_is_compared_with_the_axis_lead_8_58() -> None:
    scn = load(scn_dict())
    assert victory.outcome(scn, FFS, {"axis:cities": 40, "soviet:cities": 20}, bid=20)[0] == "axis"
    assert victory.outcome(scn, FFS, {"axis:cities": 40, "soviet:cities": 20}, bid=21)[0] == "soviet"


def test_td22_15_6_game_ends_after_the_supply_order() -> None:
    """TD-22: Turn 9 (Turn 6 short): the game ends when the Supply Order is done."""
    scn = load(scn_dict())
    assert victory.ends_after_supply(scn, 9) and not victory.ends_after_supply(scn, 8)
    assert victory.ends_after_supply(scn, 6, short=True)
