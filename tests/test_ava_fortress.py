"""Fortress construction and Stand Fast removal (pbem/games/ava/fortress.py,
AVA 14.1, 14.3, 16.2)."""
from __future__ import annotations

from typing import Any

import pytest

from pbem.game import IllegalOrder
from pbem.games.ava import fortress
from pbem.games.ava.board import Board
from pbem.games.ava.profile import AVA
from pbem.games.ava.scenario import load
from tests import avahelp

U = avahelp.unit
CITIES = ["1010", "1210", "1410", "1610", "1810", "2010", "1020", "1220"]
CAMPAIGN = {"fortress_build_from_turn": 4, "fortress_steps_per_check": 2, "fortress_max_hexes": 6}


def setup(placed: dict[str, str] | None = None, turn: int = 4, forts: dict[str, int] | None = None,
          **params: Any):
    p = dict(CAMPAIGN)
    p.update(params)
    d = avahelp.mini(units={"g": U("axis", "mech", 6, 4, 12), "s": U("soviet", "foot", 3, 3, 8)},
                     cities={"major_city": CITIES, "city": ["1515"]}, params=p,
                     fortress=forts or {}, stand_fast={"hexes": ["1010", "1210", "S:4112", "S:3510"]})
    scn = load(d)
    s = avahelp.state(scn, placed or {}, turn=turn)
    return scn, s


LOC = set(CITIES) | {"1515"}


def b_of(scn, s) -> Board:
    return Board(scn, AVA, s)


def test_tc35_14_1_two_steps_a_check_in_a_major_city_with_loc() -> None:
    """TC-35: campaign from Turn 4, 2 steps per Supply Check."""
    scn, s = setup()
    b = b_of(scn, s)
    assert fortress.building(scn, 3) == 0 and fortress.building(scn, 4) == 2
    after = fortress.check_build(b, 4, ["1010", "1210"], LOC)
    assert after == {"1010": 1, "1210": 1}
    with pytest.raises(IllegalOrder, match="2 fortress step"):
        fortress.check_build(b, 4, ["1010", "1210", "1410"], LOC)


def test_tc35_14_1_a_third_step_in_one_hex_is_refused() -> None:
    scn, s = setup(forts={"1010": 1})
    b = b_of(scn, s)
    assert fortress.check_build(b, 4, ["1010"], LOC) == {"1010": 2}
    with pytest.raises(IllegalOrder, match="already holds 2 fortress steps"):
        fortress.check_build(b, 4, ["1010", "1010"], LOC)


def test_tc35_14_1_a_seventh_fortress_hex_is_refused_brest_counted_a18() -> None:
    six = {h: 1 for h in CITIES[:6]}
    scn, s = setup(forts=six)
    b = b_of(scn, s)
    with pytest.raises(IllegalOrder, match="6 hexes already hold a fortress"):
        fortress.check_build(b, 4, ["1020"], LOC)
    assert fortress.check_build(b, 4, ["1010"], LOC)["1010"] == 2        # growing one is fine


def test_14_1_site_conditions_a18() -> None:
    scn, s = setup()
    b = b_of(scn, s)
    assert fortress.site_refusal(b, "1515", LOC) == "1515 is not a major city (14.1)"
    assert "traces no line of communications" in str(fortress.site_refusal(b, "1410", LOC - {"1410"}))
    s["control"]["1810"] = "axis"
    assert "not under Soviet control" in str(fortress.site_refusal(b_of(scn, s), "1810", LOC))


def test_14_1_2_not_next_to_an_enemy_unit() -> None:
    scn, s = setup({"g": "1611"})
    b = b_of(scn, s)
    assert "1611" in b.map.neighbors("1610")
    assert fortress.site_refusal(b, "1610", LOC) == "1610 is next to an Axis unit (14.1)"
    assert "1610" not in fortress.build_sites(b, 4, LOC)
    assert "1010" in fortress.build_sites(b, 4, LOC)


def test_14_1_7_reduced_fortress_rebuilt_and_destroyed_one_rebuilt_if_a_marker_remains() -> None:
    scn, s = setup(forts={"1010": 1}, fortress_markers=2)
    b = b_of(scn, s)
    assert fortress.markers_left(b) == 1
    after = fortress.check_build(b, 4, ["1010", "1210"], LOC)
    fortress.build(s, s["fortress"], after)
    assert s["fortress_placed"] == 1 and fortress.markers_left(b_of(scn, s)) == 0
    s["fortress"].pop("1210")                           # destroyed in combat: its marker is gone (14.3)
    with pytest.raises(IllegalOrder, match="no fortress marker is left"):
        fortress.check_build(b_of(scn, s), 5, ["1210"], LOC)


def test_14_3_marker_limit_counts_markers_placed_in_the_same_check() -> None:
    scn, s = setup(fortress_markers=1)
    b = b_of(scn, s)
    with pytest.raises(IllegalOrder, match="no fortress marker is left"):
        fortress.check_build(b, 4, ["1010", "1210"], LOC)
    assert fortress.check_build(b, 4, ["1010", "1010"], LOC) == {"1010": 2}


def test_18_1_leningrad_one_step_three_hexes() -> None:
    scn, s = setup(forts={"1010": 1, "1210": 1, "1410": 2}, fortress_steps_per_check=1, fortress_max_hexes=3)
    b = b_of(scn, s)
    with pytest.raises(IllegalOrder, match="1 fortress step"):
        fortress.check_build(b, 4, ["1010", "1210"], LOC)
    with pytest.raises(IllegalOrder, match="3 hexes already"):
        fortress.check_build(b, 4, ["1610"], LOC)


def test_18_2_smolensk_builds_nothing() -> None:
    scn, s = setup(fortress_build_from_turn=0, fortress_steps_per_check=0, fortress_max_hexes=0)
    b = b_of(scn, s)
    assert fortress.building(scn, 6) == 0 and fortress.build_sites(b, 6, LOC) == []
    with pytest.raises(IllegalOrder, match="0 fortress step"):
        fortress.check_build(b, 6, ["1010"], LOC)


# ------------------------------------------------------------ Stand Fast (16.2)
def test_16_2_stand_fast_removal_from_turn_6_one_per_map() -> None:
    scn, s = setup(turn=6)
    s["control"].update({"S:4112": "soviet", "S:3510": "soviet"})
    b = b_of(scn, s)
    loc = LOC | {"S:4112", "S:3510"}
    assert fortress.stand_fast_removable(b, 5, loc) == []
    assert fortress.stand_fast_removable(b, 6, loc) == ["1010", "1210", "S:3510", "S:4112"]
    fortress.check_stand_fast_removal(b, 6, ["1010", "S:4112"], loc)
    with pytest.raises(IllegalOrder, match="one Stand Fast marker per map"):
        fortress.check_stand_fast_removal(b, 6, ["1010", "1210"], loc)
    with pytest.raises(IllegalOrder, match="from Turn 6"):
        fortress.check_stand_fast_removal(b, 5, ["1010"], loc)


def test_16_2_stand_fast_needs_soviet_control_and_loc() -> None:
    scn, s = setup(turn=6)
    s["control"]["1210"] = "axis"
    b = b_of(scn, s)
    with pytest.raises(IllegalOrder, match="no Stand Fast marker the Soviet may remove"):
        fortress.check_stand_fast_removal(b, 6, ["1210"], LOC)
    with pytest.raises(IllegalOrder, match="no Stand Fast marker"):
        fortress.check_stand_fast_removal(b, 6, ["1010"], LOC - {"1010"})
    fortress.remove_stand_fast(s, ["1010"])
    assert s["stand_fast"] == ["1210", "S:3510", "S:4112"]
