"""The campaign's three joined maps (AVA 2.1, 19.1; notes §3.26, §5.4, A41):
a small synthetic campaign of three sheets, Leningrad over Smolensk over
Kiev, each joined below the last along a row seam, every hex id carrying its
map ("S:2730").  Movement, command range, LOC and combat cross the seams;
the 18.2 border hexsides on the Smolensk/Kiev seam block; fortress markers
and Stand Fast removals count per map; the published campaign file fails on
its MISSING values only."""
from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest

from pbem.board.hexgrid import HexGrid
from pbem.board.multimap import MultiMap
from pbem.game import IllegalOrder, ScenarioError
from pbem.games.ava import activation, advance, combat, fortress, movement, retreat, scenario, seating, supply
from pbem.games.ava.board import Board
from pbem.games.ava.model import Scenario
from pbem.games.ava.profile import AVA
from tests import avahelp

U = avahelp.unit
ROOT = Path(__file__).resolve().parents[1]
# 18.2: the black border hexsides on the Smolensk/Kiev seam, xx30 on Smolensk and xx01 on Kiev (notes §5.3).
BORDER_18_2 = [("S:2730", "K:2701"), ("S:2730", "K:2801"), ("S:2830", "K:2801"), ("S:2930", "K:2801"),
               ("S:2930", "K:2901")]
SHEETS = {"L": {"name": "leningrad", "first_col": 24, "last_col": 32, "first_row": 21, "last_row": 30},
          "S": {"name": "smolensk", "first_col": 24, "last_col": 32, "first_row": 1, "last_row": 30},
          "K": {"name": "kiev", "first_col": 24, "last_col": 32, "first_row": 1, "last_row": 10}}
UNITS = {"AX-HQ": U("axis", "hq", 2, 2, 8, type="army"), "g": U("axis", "mech", 6, 4, 12),
         "g2": U("axis", "mech", 6, 4, 12), "s": U("soviet", "foot", 3, 3, 8),
         "s2": U("soviet", "foot", 3, 3, 8)}


def campaign(border: bool = False, **kw: Any) -> dict[str, Any]:
    """avahelp's test map as three sheets: Smolensk row 01 under Leningrad
    row 30, Kiev row 01 under Smolensk row 30 (the §5.4 inference)."""
    kw.setdefault("units", UNITS)
    d = avahelp.mini(**kw)
    m = d["map"]
    for k in ("first_col", "last_col", "first_row", "last_row"):
        del m[k]
    m["maps"] = copy.deepcopy(SHEETS)
    m["seams"] = {"L-S": {"rows": [30, 1]}, "S-K": {"rows": [30, 1]}}
    if border:
        m["hexsides"] = {"border": [f"{a}|{c}" for a, c in BORDER_18_2]}
    return d


def board(scn: Scenario, placed: dict[str, str], **extra: Any) -> Board:
    return Board(scn, AVA, avahelp.state(scn, placed, **extra))


# ------------------------------------------------------------------ the board
def test_a41_5_4_the_campaign_map_is_three_sheets_joined_at_the_seams() -> None:
    scn = scenario.load(campaign())
    grid = scn.map.grid
    assert isinstance(grid, MultiMap) and grid.prefixes == ("L", "S", "K")
    assert set(scn.map.neighbors("S:2730")) == {"S:2729", "S:2630", "S:2830", "K:2601", "K:2701", "K:2801"}
    assert grid.adjacent("L:2830", "S:2801") and not grid.adjacent("L:2830", "K:2801")
    assert scn.map.distance("S:2828", "K:2802") == 4
    # Five Leningrad rows to the seam, thirty Smolensk rows, five Kiev rows.
    assert scn.map.distance("L:2825", "K:2805") == 40


def test_a41_a_campaign_file_writes_every_hex_with_its_map() -> None:
    with pytest.raises(ScenarioError, match="names no map"):
        scenario.load(campaign(terrain={"marsh": ["2805"]}))
    with pytest.raises(ScenarioError, match="off the map"):
        scenario.load(campaign(cities={"city": ["K:2820"]}))
    assert scenario.load(campaign(terrain={"marsh": ["K:2805"]})).map.terrain_of("K:2805") == "marsh"


def test_a41_one_map_scenarios_keep_their_plain_grid() -> None:
    scn = avahelp.scenario()
    assert type(scn.map.grid) is HexGrid and scn.map.neighbors("1010")[0] == "1009"


# ---------------------------------------------------------------- mechanics
def test_9_0_movement_crosses_the_smolensk_kiev_seam() -> None:
    b = board(scenario.load(campaign()), {"g": "S:2828", "s": "K:3210"})
    assert movement.check_move(b, "g", ["S:2828", "S:2829", "S:2830", "K:2801", "K:2802"]) == 8
    reach = movement.reach(b, "g")
    assert reach["K:2802"] == 8 and reach["K:2804"] == 12 and "K:2805" not in reach   # 6 MP


def test_8_2_command_range_of_four_counts_hexes_across_the_seam() -> None:
    b = board(scenario.load(campaign()), {"AX-HQ": "S:2828", "g": "K:2802", "g2": "K:2803"})
    assert activation.activated_by(b, "AX-HQ") == ["AX-HQ", "g"]          # K:2802 is 4 away, K:2803 5


def test_3_3_a_loc_runs_across_two_seams() -> None:
    b = board(scenario.load(campaign(supply={"soviet": ["K:2805"]})), {"s": "S:2720", "s2": "L:2825"})
    lines = supply.loc(b, "soviet")
    assert lines["S:2730"] == 5 and lines["L:2825"] == b.map.distance("K:2805", "L:2825")
    assert supply.has_loc(b, "s") and supply.has_loc(b, "s2")


def test_10_1_an_attack_across_the_seam() -> None:
    b = board(scenario.load(campaign()), {"g": "S:2830", "s": "K:2801"})
    b.unit("g")["active"] = True
    combat.check_attack(b, ["g"], "K:2801")
    assert combat.odds(b, ["g"], "K:2801").label == "2:1"
    with pytest.raises(IllegalOrder):
        combat.check_attack(b, ["g"], "K:2802")


def test_10_6_10_7_retreat_and_advance_cross_the_seam() -> None:
    scn = scenario.load(campaign(supply={"soviet": ["K:2805"]}))
    b = board(scn, {"g": "S:2828", "s": "S:2830"})
    lines = supply.loc(b, "soviet")
    assert retreat.options(b, ["s"], 2, loc_distance=lines.get).paths["s"][0].hexes == ("K:2801", "K:2802")
    b = board(scn, {"g": "S:2829"})
    b.unit("g")["attacked"] = True
    assert ["S:2830", "K:2801"] in advance.options(b, "g", "S:2830")


def test_12_1_rail_placement_follows_a_railroad_over_the_seam() -> None:
    scn = scenario.load(campaign(supply={"axis": ["L:2828"]},
                                 railroads={"line": ["L:2828", "L:2829", "L:2830", "S:2801", "S:2802"]}))
    assert scn.map.rail("L:2830", "S:2801")
    assert supply.rail_entry_hexes(board(scn, {}), "axis") == {"L:2828", "L:2829", "L:2830", "S:2801", "S:2802"}


def test_18_2_border_hexsides_on_the_seam_block_movement_range_and_loc() -> None:
    open_, closed = (scenario.load(campaign(border, supply={"soviet": ["K:2805"]})) for border in (False, True))
    for a, c in BORDER_18_2:
        for x, y in ((a, c), (c, a)):
            assert movement.step_cost(board(open_, {"g": x}), "g", x, y) == 2
            assert movement.step_cost(board(closed, {"g": x}), "g", x, y) is None
    with pytest.raises(IllegalOrder, match="S:2730-K:2701"):
        movement.check_move(board(closed, {"g": "S:2730"}), "g", ["S:2730", "K:2701"])
    # Around the border: S:2730 -> K:2601 -> K:2701.
    assert activation.range_hexes(board(open_, {"AX-HQ": "S:2730"}), "AX-HQ")["K:2701"] == 1
    assert activation.range_hexes(board(closed, {"AX-HQ": "S:2730"}), "AX-HQ")["K:2701"] == 2
    assert supply.loc(board(open_, {}), "soviet")["S:2730"] == 5
    assert supply.loc(board(closed, {}), "soviet")["S:2730"] == 6


def test_18_2_a_border_hexside_must_join_neighbours() -> None:
    """2801/2830 of 18.2 is Kiev 2801 against Smolensk 2830: Smolensk 2801
    lies at the far (northern) end of its sheet."""
    d = campaign()
    d["map"]["hexsides"] = {"border": ["S:2801|K:2830"]}
    with pytest.raises(ScenarioError, match="not adjacent"):
        scenario.load(d)


CITIES = {"major_city": ["L:2825", "L:2925", "S:2815", "S:2915", "S:3015", "K:2805", "K:2905"]}
FORTS = {"fortress_build_from_turn": 4, "fortress_steps_per_check": 2, "fortress_max_hexes": 6,
         "fortress_markers": {"L": 1, "S": 2, "K": 1}}


def test_14_3_fortress_markers_are_counted_per_map() -> None:
    scn = scenario.load(campaign(cities=CITIES, params=FORTS, fortress={"S:2815": 1}))
    b = board(scn, {})
    loc = set(CITIES["major_city"])
    assert {m: fortress.markers_left(b, h) for m, h in (("L", "L:2825"), ("S", "S:2915"), ("K", "K:2805"))} \
        == {"L": 1, "S": 1, "K": 1}                                    # Smolensk's Brest-like start marker
    with pytest.raises(IllegalOrder, match="no fortress marker is left"):
        fortress.check_build(b, 4, ["L:2825", "L:2925"], loc)
    after = fortress.check_build(b, 4, ["L:2825", "K:2805"], loc)
    fortress.build(b.state, dict(b.state["fortress"]), after)
    assert b.state["fortress_placed_maps"] == {"L": 1, "K": 1}
    b = Board(scn, AVA, b.state)
    assert [fortress.markers_left(b, h) for h in ("L:2925", "S:2915", "K:2905")] == [0, 1, 0]
    with pytest.raises(IllegalOrder, match="no fortress marker is left"):
        fortress.check_build(b, 5, ["K:2905"], loc)
    assert fortress.check_build(b, 5, ["S:2915", "L:2825"], loc)["S:2915"] == 1


def test_16_2_one_stand_fast_marker_per_map_at_a_supply_check() -> None:
    scn = scenario.load(campaign(cities=CITIES, stand_fast={"hexes": ["L:2825", "S:2815", "S:2915", "K:2805"]}))
    b = board(scn, {}, turn=6)
    loc = set(CITIES["major_city"])
    assert fortress.stand_fast_removable(b, 6, loc) == ["K:2805", "L:2825", "S:2815", "S:2915"]
    fortress.check_stand_fast_removal(b, 6, ["L:2825", "S:2815", "K:2805"], loc)
    with pytest.raises(IllegalOrder, match="one Stand Fast marker per map"):
        fortress.check_stand_fast_removal(b, 6, ["S:2815", "S:2915"], loc)


def test_a49_sectors_are_read_from_the_maps_names() -> None:
    data = campaign()
    data["map"]["maps"]["K"]["name"] = "ukraine"
    st = seating.Seating("controller", (), {}, seating._prefixes(data))
    assert [seating.sector_of(st, h) for h in ("L:2825", "S:4112", "K:3507", "3507")] \
        == ["leningrad", "smolensk", "ukraine", None]


# ------------------------------------------------------- the published file
def _campaign_toml() -> dict[str, Any]:
    return tomllib.loads((ROOT / "scenarios/ava/campaign.toml").read_text())


PLACEHOLDER = {"first_col": 1, "last_col": 60, "first_row": 1, "last_row": 30, "steps": 2, "attack": 2,
               "defense": 2, "move": 8, "attack_reduced": 1, "defense_reduced": 1, "move_reduced": 8,
               "formation": "", "start": "available", "type": "rifle", "turn": 4, "hq": "",
               "fortress_markers": 6, "extra_army_chit_turns": [4, 5, 6, 7, 8, 9]}


def _filled(node: Any, table: str = "", key: str = "") -> Any:
    """A copy with every MISSING replaced by a placeholder of its kind and
    every ``missing = true`` dropped."""
    if isinstance(node, dict):
        return {k: _filled(v, table or k, k) for k, v in node.items() if not (k == "missing" and v is True)}
    if isinstance(node, list):
        if key == "rows" and table == "map":
            return [30 if v == scenario.MISSING else v for v in node]   # L-S: a Leningrad row
        if table == "map":
            return [v for v in node if v != scenario.MISSING]          # hex lists: the known part
        fill = "-" if table == "crt" else (1 if key == "soviet_chits" else 0)
        return [fill if v == scenario.MISSING else v for v in node]
    if node == scenario.MISSING:
        if key == "kind":
            return "foot" if table == "units" else "reinforcement"
        if key == "name":
            return "placeholder"
        return copy.deepcopy(PLACEHOLDER[key])
    return node


def test_a41_the_campaign_file_fails_on_its_gaps_only() -> None:
    data = _campaign_toml()
    assert scenario.gaps(data)
    with pytest.raises(ScenarioError, match="missing value"):
        scenario.load(data)
    filled = _filled(data)
    assert scenario.gaps(filled) == []
    scn = scenario.load(filled)
    grid = scn.map.grid
    assert isinstance(grid, MultiMap) and grid.prefixes == ("L", "S", "K")
    assert grid.adjacent("S:2730", "K:2701") and grid.adjacent("L:3030", "S:3001")
    assert scn.map.city_of("K:3507") == "major_city" and scn.map.fortress == {"S:0927": 1}
    assert not [p for p in scenario.problems(scn) if "not on the map" in p or "not a land hex" in p]
    assert seating._prefixes(data) == {"L": "leningrad", "S": "smolensk", "K": "kiev"}
