"""A Victory Denied rules 7 (command), 10.2 (isolation) and 12 (HQ
relocation and removal)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from pbem.game import IllegalOrder
from pbem.games.avd import activation, relocation, supply
from pbem.games.avd.board import Board
from pbem.games.avd.model import GERMAN, SOVIET
from avd_fixtures import GRID, scenario, state, unit

MAJOR = frozenset({"major_river"})


def board(units, at, turn=2, **kw):
    scn = scenario(units, **kw)
    return Board(scn, state(scn, at, turn=turn))


def hq(uid, side, cr, **kw):
    return unit(uid, side, kind="hq", command_range=cr, **kw)


def at_distance(origin, d):
    return sorted(x for x in GRID.hexes() if GRID.distance(origin, x) == d)


# ------------------------------------------------------------ 7.2 / 7.3
def test_7_3_2_command_example_hq_activation():
    """T16: 22nd Army (CR 4) wakes 20th Army two hexes away, not 13th Army
    five away; units in range of either active HQ wake (ZOC does not
    matter); 63rd Corps, out of range, does not."""
    origin = "0505"
    a20 = at_distance(origin, 2)[0]
    a13 = at_distance(origin, 5)[0]
    # A unit in range of 20th Army only (distance 3 from it, 5 from 22nd Army).
    only20 = next(x for x in GRID.hexes() if GRID.distance(x, a20) <= 3 and GRID.distance(x, origin) == 5)
    far = next(x for x in GRID.hexes() if GRID.distance(x, a20) > 3 and GRID.distance(x, origin) > 4
               and GRID.distance(x, a13) > 3)
    near = at_distance(origin, 1)
    units = [hq("A22", SOVIET, 4), hq("A20", SOVIET, 3), hq("A13", SOVIET, 4),
             unit("C20", SOVIET), unit("M23", SOVIET, motorized=True), unit("C45", SOVIET),
             unit("C63", SOVIET), unit("G", GERMAN)]
    at = {"A22": origin, "A20": a20, "A13": a13, "C20": near[0], "M23": near[3], "C45": only20,
          "C63": far, "G": GRID.neighbors(near[3])[0] if GRID.neighbors(near[3])[0] != origin else GRID.neighbors(near[3])[1]}
    b = board(units, at)
    assert b.in_enemy_zoc(near[3], SOVIET)
    hqs, combat = activation.hq_activation(b, "A22")
    assert hqs == {"A22", "A20"}
    assert combat == {"C20", "M23", "C45"}


def test_7_2_2_hq_activation_is_one_level_only():
    """HQs woken by the drawn HQ do not wake HQs in their own range."""
    units = [hq("H1", SOVIET, 2), hq("H2", SOVIET, 2), hq("H3", SOVIET, 2)]
    b = board(units, {"H1": "0101", "H2": "0103", "H3": "0105"})
    assert activation.hq_activation(b, "H1")[0] == {"H1", "H2"}


def test_7_3_4_command_range_counts_hexes():
    """T18: CR 4 reaches distance 4 (three hexes between), not 5."""
    units = [hq("H", SOVIET, 4), unit("U4", SOVIET), unit("U5", SOVIET, formation="red")]
    b = board(units, {"H": "0101", "U4": "0105", "U5": "0106"})
    assert activation.hq_activation(b, "H")[1] == {"U4"}


def test_7_3_3_german_hq_skips_panzer_group_motorized_units():
    units = [hq("H9", GERMAN, 4), unit("Inf", GERMAN, formation="9A"),
             unit("Pz", GERMAN, motorized=True, formation="3PzG", corps="LVII"),
             unit("PzInf", GERMAN, formation="3PzG"),
             unit("Mot9", GERMAN, motorized=True, formation="9A")]
    b = board(units, {"H9": "0505", "Inf": "0504", "Pz": "0506", "PzInf": "0405", "Mot9": "0605"})
    assert activation.hq_activation(b, "H9")[1] == {"Inf", "PzInf", "Mot9"}


def test_7_4_2_panzer_chaining_example():
    """T17: XXXIX wakes all four by chaining; LVII's two clusters are more
    than 3 hexes apart, so one seed wakes one cluster only."""
    def pz(uid, corps):
        return unit(uid, GERMAN, motorized=True, formation="3PzG", corps=corps)
    units = [pz("900L", "XXXIX"), pz("14M", "XXXIX"), pz("19Pz", "XXXIX"), pz("18M", "XXXIX"),
             pz("20Pz", "LVII"), pz("14Mb", "LVII"), pz("12Pz", "LVII"), pz("20M", "LVII"), pz("7Pz", "LVII")]
    at = {"900L": "0101", "14M": "0104", "19Pz": "0107", "18M": "0304",
          "20Pz": "0901", "14Mb": "0903", "12Pz": "0907", "20M": "0909", "7Pz": "0808"}
    b = board(units, at)
    assert GRID.distance("0101", "0107") > 3             # 900 Lehr reaches 19 Pz only by chaining
    assert activation.panzer_chain(b, "XXXIX", "900L") == {"900L", "14M", "19Pz", "18M"}
    assert activation.panzer_chain(b, "LVII", "20Pz") == {"20Pz", "14Mb"}
    assert activation.panzer_chain(b, "LVII", "7Pz") == {"12Pz", "20M", "7Pz"}
    assert activation.panzer_corps(b, "3PzG") == ["XXXIX", "LVII"]
    both = activation.panzer_group_activation(b, "3PzG", {"XXXIX": "18M", "LVII": "12Pz"})
    assert both == {"900L", "14M", "19Pz", "18M", "12Pz", "20M", "7Pz"}
    with pytest.raises(IllegalOrder):
        activation.panzer_chain(b, "LVII", "18M")


# ------------------------------------------------------------ 10.2 isolation
def test_10_2_isolation_example_pvo_surrounded():
    """T22: a PVO whose every neighbour is German-occupied or in German ZOC."""
    p = "0606"
    n = GRID.neighbors(p)
    units = [unit("PVO", SOVIET, pvo=True, formation="red")] + [unit(f"G{i}", GERMAN) for i in range(3)]
    b = board(units, {"PVO": p, "G0": n[0], "G1": n[2], "G2": n[4]}, turn=4, supply_soviet_t4={"0101"})
    assert supply.isolated_units(b, SOVIET) == {"PVO"}


def test_10_2_2_friendly_unit_negates_enemy_zoc():
    """T22: the elite infantry traces through the German-ZOC hex held by
    32nd Corps; without it, the elite would be Isolated."""
    p = "0606"
    n = GRID.neighbors(p)
    units = [unit("E", SOVIET, formation="red"), unit("C32", SOVIET), unit("C51", SOVIET)] + \
        [unit(f"G{i}", GERMAN) for i in range(3)]
    at = {"E": p, "C32": n[1], "C51": "0303", "G0": n[0], "G1": n[2], "G2": n[4]}
    b = board(units, at, turn=4, supply_soviet_t4={"0101"})
    assert supply.isolated_units(b, SOVIET) == set()
    del at["C32"]
    b = board(units, at, turn=4, supply_soviet_t4={"0101"})
    assert supply.isolated_units(b, SOVIET) == {"E"}


def _river_board(extra_soviet: bool, turn: int = 4):
    """A major river between columns 04 and 05 bridged only at 0405|0505;
    the German in 0406 puts 0405 (across the bridge) in its ZOC."""
    sides = {}
    for a in GRID.hexes():
        for c in GRID.neighbors(a):
            if a[:2] == "04" and c[:2] == "05":
                sides[(a, c)] = MAJOR
    sides[("0405", "0505")] = MAJOR | {"road"}
    units = [unit("C62", SOVIET), unit("R", SOVIET, formation="red"), unit("G", GERMAN)]
    at = {"C62": "0505", "G": "0406"}
    if extra_soviet:
        at["R"] = "0405"
    return board(units, at, turn=turn, sides=sides, supply_soviet_t4={"0101"})


def test_10_2_2_isolation_example_bridge_into_german_zoc():
    """T22: 62nd Corps' only line crosses the bridge into a German-ZOC hex
    with no Soviet unit: Isolated.  A Soviet unit there opens the line."""
    assert supply.isolated_units(_river_board(False), SOVIET) == {"C62"}
    assert supply.isolated_units(_river_board(True), SOVIET) == set()


def test_10_2_2_source_1517_ignored_after_turn_4():
    b = _river_board(True, turn=5)
    assert supply.isolated_units(b, SOVIET) == {"C62", "R"}


def test_10_2_4_no_german_isolation_on_turn_1():
    units = [unit("G", GERMAN)]
    assert supply.isolated_units(board(units, {"G": "0505"}, turn=1), GERMAN) == set()
    assert supply.isolated_units(board(units, {"G": "0505"}, turn=2), GERMAN) == {"G"}


def test_14_germans_trace_through_minsk_pocket():
    pocket = {h for h in GRID.hexes() if h[:2] in ("03", "04", "05")}
    units = [unit("G", GERMAN), unit("S", SOVIET)]
    b = board(units, {"G": "0808", "S": "0707"}, supply_german={"0101"}, supply_soviet={"0101"},
              minsk=pocket)
    assert supply.isolated_units(b, GERMAN) == set()
    assert supply.isolated_units(b, SOVIET) == {"S"}


def test_10_2_2_enemy_occupied_hexes_block_lines():
    # A German line of units across the map blocks a Soviet line.
    wall = [h for h in GRID.hexes() if h[2:] == "05"]
    units = [unit(f"G{i}", GERMAN) for i in range(len(wall))] + [unit("S", SOVIET)]
    at = {f"G{i}": h for i, h in enumerate(wall)}
    at["S"] = "0509"
    b = board(units, at, supply_soviet={"0101"})
    assert supply.isolated_units(b, SOVIET) == {"S"}
    assert not supply.traces_supply(b, SOVIET, "0509")
    assert supply.traces_supply(b, SOVIET, "0102")


@settings(max_examples=25, deadline=None)
@given(enemies=st.sets(st.sampled_from(GRID.hexes()), max_size=12))
def test_10_2_2_every_supplied_hex_has_a_legal_line(enemies):
    """Property: each hex the search reaches has a neighbour reached one
    step shorter, and lines never enter enemy hexes."""
    enemies = enemies - {"0101", "0909"}
    units = [unit(f"G{i}", GERMAN) for i in range(len(enemies))] + [unit("S", SOVIET)]
    at = {f"G{i}": h for i, h in enumerate(sorted(enemies))}
    at["S"] = "0909"
    b = board(units, at, supply_soviet={"0101"})
    reached = supply.supplied_hexes(b, SOVIET)
    zoc = b.zoc(GERMAN)
    for h, n in reached.items():
        assert h not in enemies
        if n:
            prev = [x for x in GRID.neighbors(h) if reached.get(x) == n - 1]
            assert any(x not in zoc or b.units_at(x) and b.occupant_side(x) == SOVIET or x == "0101"
                       for x in prev)


# ------------------------------------------------------------ 12.5 / 12.6
def test_12_6_relocation_four_hexes_toward_a_source():
    b = board([hq("H", GERMAN, 4)], {"H": "0909"}, supply_german={"0101"})
    opts = relocation.relocation_options(b, "H")
    assert opts
    for h in opts:
        assert GRID.distance("0909", h) == 4
        assert GRID.distance(h, "0101") == GRID.distance("0909", "0101") - 4


def test_12_6_relocation_not_into_enemy_zoc_and_must_trace_supply():
    base = board([hq("H", GERMAN, 4)], {"H": "0909"}, supply_german={"0101"})
    opts = relocation.relocation_options(base, "H")
    blocked = opts[0]
    s_hex = GRID.neighbors(blocked)[0]
    b = board([hq("H", GERMAN, 4), unit("S", SOVIET)], {"H": "0909", "S": s_hex}, supply_german={"0101"})
    new = relocation.relocation_options(b, "H")
    assert blocked not in new
    assert all(not b.in_enemy_zoc(h, GERMAN) for h in new)


def test_12_6_relocation_impossible_eliminates():
    b = board([hq("H", GERMAN, 4)], {"H": "0202"}, supply_german={"0101"})
    assert relocation.relocation_options(b, "H") == []


def test_12_5_hq_without_units_in_range_is_removed():
    units = [hq("H1", SOVIET, 3), hq("H2", SOVIET, 3), unit("U", SOVIET), unit("G", GERMAN)]
    b = board(units, {"H1": "0101", "H2": "0909", "U": "0104", "G": "0908"})
    assert relocation.hq_removal(b, SOVIET) == ["H2"]
