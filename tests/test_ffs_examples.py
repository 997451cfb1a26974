"""The worked and derived examples of the FFS rule notes (section 6) that
no mechanics test covered: TC-22 (set-up), TD-06..TD-11 (movement costs
and the major river), TD-16, TD-17 (lines of communication).  Each is
played on a small map with the FFS profile and asserts what the rules
say."""
from __future__ import annotations

from typing import Any

import avahelp
import pytest
from fakedice import ScriptedDice

from pbem.game import IllegalOrder
from pbem.games.ava import FFS_GAME, movement, supply
from pbem.games.ava.board import Board
from pbem.games.ava.profile import FFS

U = avahelp.unit


def board(units: dict[str, dict[str, Any]], placed: dict[str, str], turn: int = 1, **kw: Any) -> Board:
    scn = avahelp.scenario(game="ffs", units=units, **kw)
    return Board(scn, FFS, avahelp.state(scn, placed, turn=turn))


# ------------------------------------------------------------- movement (9.2)
def test_td06_9_2_1_mech_clear_light_woods_deep_woods_then_clear_is_six_mp() -> None:
    b = board({"m": U("axis", "mech", 4, 4, 12)}, {"m": "1510"},
              terrain={"light_woods": ["1511"], "heavy_woods": ["1512"]})
    assert movement.check_move(b, "m", ["1510", "1511", "1512"]) == 10          # 2 + 3 MP
    assert movement.check_move(b, "m", ["1510", "1511", "1512", "1513"]) == 12  # + 1: none left
    with pytest.raises(IllegalOrder):
        movement.check_move(b, "m", ["1510", "1511", "1512", "1513", "1514"])


def test_td07_9_2_1_foot_across_an_unbridged_minor_river_into_swamp_is_three_mp() -> None:
    b = board({"f": U("axis", "foot", 4, 4, 8)}, {"f": "1510"}, terrain={"marsh": ["1511"]},
              hexsides={"minor_river": ["1510|1511"]})
    assert movement.check_move(b, "f", ["1510", "1511"]) == 6


def test_td08_9_2_1_along_a_road_into_deep_woods_is_one_mp() -> None:
    b = board({"f": U("axis", "foot", 4, 4, 8)}, {"f": "1510"}, terrain={"heavy_woods": ["1511"]},
              roads={"r": ["1510", "1511"]})
    assert movement.check_move(b, "f", ["1510", "1511"]) == 2


def test_td09_9_2_1_an_unbridged_major_river_only_as_the_first_hex_and_it_stops() -> None:
    b = board({"f": U("axis", "foot", 4, 4, 8)}, {"f": "1510"}, hexsides={"major_river": ["1511|1512"]})
    assert movement.check_move(b, "f", ["1510", "1511"]) == 2
    with pytest.raises(IllegalOrder):
        movement.check_move(b, "f", ["1510", "1511", "1512"])                 # the second hex of the move
    b2 = board({"f": U("axis", "foot", 4, 4, 8)}, {"f": "1511"}, hexsides={"major_river": ["1511|1512"]})
    movement.check_move(b2, "f", ["1511", "1512"])                             # first hex: legal
    with pytest.raises(IllegalOrder):
        movement.check_move(b2, "f", ["1511", "1512", "1513"])                # ... and it stops there


def test_td10_9_2_3_a_bridged_major_river_with_both_hexes_in_ezoc_is_closed() -> None:
    units = {"f": U("axis", "foot", 4, 4, 8), "g": U("axis", "foot", 4, 4, 8), "s": U("soviet", "foot", 3)}
    b = board(units, {"f": "1511", "g": "1512", "s": "1612"}, hexsides={"major_river": ["1511|1512"]},
              roads={"r": ["1511", "1512"]})
    assert b.in_enemy_zoc("1511", "axis") and b.in_enemy_zoc("1512", "axis")
    with pytest.raises(IllegalOrder, match="1511-1512: no major-river crossing with both hexes in enemy ZOC"):
        movement.check_move(b, "f", ["1511", "1512"])                          # friendly unit there or not


def test_td11_9_2_2_mech_from_ezoc_into_light_woods_in_ezoc_six_mp_deep_woods_refused() -> None:
    units = {"m": U("axis", "mech", 4, 4, 12), "s": U("soviet", "foot", 3)}
    b = board(units, {"m": "1511", "s": "1612"}, terrain={"light_woods": ["1512"]})
    assert movement.check_move(b, "m", ["1511", "1512"]) == 12                # 2 + 2 + 2
    b = board(units, {"m": "1511", "s": "1612"}, terrain={"heavy_woods": ["1512"]})
    with pytest.raises(IllegalOrder):
        movement.check_move(b, "m", ["1511", "1512"])                          # 3 + 4 = 7


# ------------------------------------------------------------- lines of communication (3.3)
def test_td16_3_3_5_axis_seven_hexes_off_the_railroad_loses_a_step_from_turn_4() -> None:
    units = {"near": U("axis", "foot", 3), "far": U("axis", "foot", 3)}
    rail = {"r": [f"10{r:02d}" for r in range(1, 11)]}
    for turn, lost in ((3, []), (4, ["far"])):
        b = board(units, {"near": "1610", "far": "1710"}, turn=turn, railroads=rail, supply={"axis": ["1001"]})
        assert supply.out_of_loc(b, "axis") == lost


def test_td17_3_3_1_a_soviet_unit_lifts_the_zoc_block_of_its_hex_for_a_line() -> None:
    corridor = [f"15{r:02d}" for r in range(10, 31)]
    grid = avahelp.scenario().map
    lakes = sorted({n for h in corridor for n in grid.neighbors(h)} - set(corridor) - {"1620"})
    blocked = [h for h in corridor if h in grid.neighbors("1620")]
    units = {"g": U("axis", "foot", 3), "s": U("soviet", "foot", 3)}
    units.update({f"h{i}": U("soviet", "foot", 3) for i in range(len(blocked))})
    kw = dict(terrain={"lake": lakes}, supply={"soviet": ["1530"]})
    empty = board(units, {"g": "1620", "s": "1510"}, **kw)
    assert "1510" not in supply.loc(empty, "soviet")
    held = board(units, {"g": "1620", "s": "1510", **{f"h{i}": h for i, h in enumerate(blocked)}}, **kw)
    assert "1510" in supply.loc(held, "soviet")


# ------------------------------------------------------------- set-up (4.0(2))
def test_tc22_4_0_2_a_w_unit_sets_up_in_the_w_zone_two_a_hex_one_on_the_set_up_hex() -> None:
    units = {"w1": U("soviet", "foot", 3, start="zone:W_range"), "w2": U("soviet", "foot", 3, start="zone:W_range"),
             "w3": U("soviet", "foot", 3, start="zone:W_range")}
    data = avahelp.mini(game="ffs", units=units, chits={"supply": {"side": "common", "kind": "supply"}},
                        deployment={"W_range": ["1515", "1516", "1517"], "W_hex": ["1516"]},
                        params={"surprise_attack": False})
    rules = FFS_GAME.rules(data, {})
    st = rules.initial_state()

    def play(text: str) -> None:
        d = rules.pending(st)
        rules.apply(st, d.seat, rules.parse(text, st, d.seat), ScriptedDice())

    with pytest.raises(IllegalOrder, match="zone W_range"):
        play("place w1 1518")
    for t in ("place w1 1515", "place w2 1515"):
        play(t)
    with pytest.raises(IllegalOrder, match="already holds 2 units"):
        play("place w3 1515")
    play("place w3 1517")
    with pytest.raises(IllegalOrder, match="W_hex .1516. holds no unit"):
        play("done")                                     # no fill rule in FFS, but the set-up hex is held
    play("place w3 1516")
    play("done")
    assert rules.pending(st).kind == "chits"
