"""The rulebook's worked examples (rule notes §6, T01-T29) and derived checks
(D01-D14), each named after its case id and rule number.

Most examples need the publisher's map and charts, which the rulebook text
does not hold; these tests build the smallest map fixture the example's hex
numbers fit (tests/vrhelp.py) and use the PRACTICE charts, which keep the
few CRT cells and the weather cell the examples reveal.  What the
foundation cannot check yet (the procedure around a combat, Supports,
Approval...) is listed in tests/test_vr_examples_index.py with the reason."""
from __future__ import annotations

import pytest

import vrhelp
from pbem.board.crt2d6 import ATTACKER, DEFENDER
from pbem.board.hexgrid import HexGrid
from pbem.board.rounding import halve
from pbem.board.transport import Capacity
from pbem.games.vr import combat, stacking, supply, tables, terrain
from pbem.games.vr.combat import MUD_BRIDGE, OOS, Part
from pbem.games.vr.profile import BASIC, CAMPAIGN, with_switches
from pbem.games.vr.weather import effects, roll_weather

PRACTICE = vrhelp.scenario()
LADDER = PRACTICE.crt.ladder


def col(label: str) -> int:
    return LADDER.labels.index(label)


def label(attack: int, defense: int, shifts: int = 0) -> str | None:
    _, final = combat.odds(LADDER, attack, defense, shifts)
    return None if final is None else LADDER.label(final)


# ------------------------------------------------------------------- odds
@pytest.mark.parametrize("a, d, expected", [(35, 10, "3:1"), (10, 35, "1:4"), (22, 10, "2:1"), (23, 11, "2:1"),
                                            (59, 8, "7:1"), (16, 4, "4:1"), (12, 2, "6:1")])
def test_T01_7_5_5_odds_round_to_the_simple_form_for_the_defender(a, d, expected):
    assert LADDER.label(LADDER.column(a, d)) == expected
    if expected == "7:1":
        assert label(a, d) == "6:1"       # 7.5.8: fought on the last column


def test_T02_7_5_7_imaginary_columns_count_for_shifts():
    assert label(10, 35, shifts=2) == "1:2"
    assert label(10, 35, shifts=1) is None      # 1:3: cancelled (7.5.8)


def test_D03_7_5_8_odds_edges():
    assert label(15, 10) == "1:1"       # no 3:2 column
    assert label(9, 10) == "1:2"
    assert label(4, 10) is None and label(4, 10, shifts=1) == "1:2"
    assert label(70, 10) == "6:1"


# --------------------------------------------------------------- rounding
def test_T28_1_9_2_doubled_and_halved_stays():
    assert combat.strength([Part(10, (OOS,))], [(2, 1)]) == 10      # Forest and OOS
    assert combat.strength([Part(8, (OOS,))], [(2, 1)]) == 8        # City and OOS


def test_D01_1_9_halving_rounds_up_after_adding():
    assert combat.strength([Part(5, (OOS,))]) == 3
    assert combat.strength([Part(3 + 5, (OOS,))]) == 4
    assert combat.strength([Part(3, (OOS,)), Part(5, (OOS,))]) == 4   # added as fractions, rounded once
    assert combat.strength([Part(5, ((2, 1), OOS))]) == 5


def test_D02_3_2_2_mud_attack_over_a_bridge_divided_by_three():
    assert combat.strength([Part(10, (MUD_BRIDGE,))]) == 4


def test_D13_8_2_exploitation_movement_halved_up():
    assert [halve(m) for m in (3, 4, 5)] == [2, 2, 3]


# ---------------------------------------------------------------- weather
def test_T03_3_1_2_march_roll_of_ten_is_mud_and_overcast():
    scn = vrhelp.scenario()
    turn = next(t for t in range(scn.track.first, scn.track.last + 1) if scn.track.dates[t].endswith("03-I"))
    assert roll_weather(scn, turn, 10) == ("mud", "overcast")
    fx = effects("mud", "overcast")
    assert fx.max_mp == 4 and not fx.strategic and not fx.hourra and not fx.airplane_events and fx.minor_is_major


# ---------------------------------------------------------------- terrain
def test_T08_6_1_4_four_mp_go_four_clear_or_two_wood():
    scn = vrhelp.scenario(terrain={"forest": ["5020", "5021"]})
    allowance = 8                                 # 4 MP in half MP
    assert allowance // terrain.entry_cost(scn, "5120", "fair") == 4
    assert allowance // terrain.entry_cost(scn, "5020", "fair") == 2


def test_1_8_1_multi_type_hex_costs_the_dearest_and_the_defender_picks():
    scn = vrhelp.scenario(terrain={"forest": ["5020"], "swamp": ["5020"]}, cities={"minor": ["5020"]})
    assert terrain.entry_cost(scn, "5020", "fair") == scn.terrain["swamp"].mp
    assert set(terrain.combat_choices(scn, "5020", "fair")) == {"forest", "swamp", "minor_city"}
    assert terrain.combat_terrain(scn, "5020", "fair", "swamp") == "swamp"
    assert set(terrain.combat_choices(scn, "5020", "snow")) == {"forest", "minor_city"}     # 3.2.3
    with pytest.raises(ValueError):
        terrain.combat_terrain(scn, "5020", "fair", None)


# ------------------------------------------------------ Elite, tactical, E
def test_T10_7_9_3_elite_picks_from_the_colour_group():
    crt = PRACTICE.crt
    assert crt.cell(col("6:1"), 3).attacker.code == "D1"
    assert set(combat.elite_choices(crt, col("6:1"), 3, ATTACKER, BASIC)) == {"D1", "E", "E2"}


def test_T11_7_9_5_hourra_adds_an_e_level():
    clear = PRACTICE.terrain["clear"].tactical
    marsh = PRACTICE.terrain["swamp"].tactical
    assert combat.tactical("D1", ATTACKER, terrain_row=clear, hourra=True) == ("D1", "E")
    assert combat.tactical("E3", ATTACKER, terrain_row=marsh, hourra=True) == ("E",)
    assert combat.tactical("E3", ATTACKER, terrain_row=clear, hourra=True) == ("E4",)
    assert combat.tactical("E3", ATTACKER, terrain_row=clear, hourra=True, weather="snow") == ("E3",)   # 3.2.3


def test_T12_7_14_3_armored_exploitation_counts_armor_half():
    assert combat.exploitation_fits(3, armor=6, infantry=0, half_armor=True)
    assert combat.exploitation_fits(3, armor=4, infantry=1, half_armor=True)
    assert not combat.exploitation_fits(3, armor=5, infantry=1, half_armor=True)
    assert not combat.exploitation_fits(3, armor=4, infantry=0, half_armor=False)


def test_3_2_2_mud_turns_the_attackers_results():
    forest = PRACTICE.terrain["forest"].tactical
    assert combat.tactical("D1", ATTACKER, terrain_row=forest, weather="mud") == ("-",)
    assert combat.tactical("E2", ATTACKER, terrain_row=forest, weather="mud") == ("Eng",)
    assert combat.tactical("DR2", DEFENDER, terrain_row=forest, weather="mud") == ("DR",)   # defender: terrain


def test_T17_7_combat_example_1_odds_elite_and_forest():
    forest = PRACTICE.terrain["forest"]
    defense = combat.strength([Part(10, (OOS,))], [forest.defense])
    assert defense == 10 and label(22, defense) == "2:1"
    cell = PRACTICE.crt.cell(col("2:1"), 10)
    assert (cell.attacker_losses, cell.defender_losses) == (1, 2) and cell.defender.code == "DR2"
    assert set(combat.elite_choices(PRACTICE.crt, col("2:1"), 10, ATTACKER, BASIC)) == {"E", "E2"}
    assert combat.tactical("E2", ATTACKER, terrain_row=forest.tactical) == ("E",)
    assert combat.tactical("DR2", DEFENDER, terrain_row=forest.tactical) == ("DR",)
    assert combat.exploitation_fits(1, armor=2, infantry=0, half_armor=True)
    assert not combat.exploitation_fits(1, armor=3, infantry=0, half_armor=True)


def test_T18_7_combat_example_2_haltebefehl_and_hourra():
    city = PRACTICE.terrain["major_city"]
    defense = combat.strength([Part(8, (OOS,))], [city.defense])
    assert defense == 8 and LADDER.label(LADDER.column(59, defense)) == "7:1" and label(59, defense) == "6:1"
    cell = PRACTICE.crt.cell(col("6:1"), 3)
    assert (cell.attacker_losses, cell.defender_losses, cell.attacker.code, cell.defender.code) == (1, 1, "D1", "DR2")
    assert combat.tactical("DR2", DEFENDER, terrain_row=city.tactical, isolated_haltebefehl=True) == ("Eng",)
    assert combat.tactical("D1", ATTACKER, terrain_row=city.tactical, hourra=True) == ("D1", "E")
    eng = PRACTICE.crt.cell(col("6:1"), 6)                      # the Eng re-roll on the same column
    assert (eng.attacker_losses, eng.defender_losses) == (1, 2)
    assert combat.exploitation_fits(1, armor=2, infantry=0, half_armor=True)


def test_T19_8_3_exploitation_attack_twelve_against_two():
    assert label(12, 2) == "6:1"
    assert PRACTICE.crt.cell(col("6:1"), 7).defender_losses >= 1    # the last KG step goes


def test_T24_11_5_2_surprise_attack_odds():
    fort = PRACTICE.terrain["basic_fortification"]
    attack = combat.strength([Part(32)], [PRACTICE.hexside["major_river"].attack])
    defense = combat.strength([Part(2)], [fort.defense])
    assert (attack, defense) == (16, 4) and label(attack, defense) == "4:1"


def test_T16_7_11_romanian_attack_is_autonomous_and_odds():
    assert label(23, 11) == "2:1"
    cell = PRACTICE.crt.cell(col("2:1"), 7)
    assert (cell.attacker_losses, cell.defender_losses, cell.attacker.code, cell.defender.code) == (1, 1, "E", "S")
    assert combat.autonomous(major_steps=2, minor_steps=6, profile=BASIC)
    assert not combat.autonomous(major_steps=2, minor_steps=2, profile=BASIC)          # R-01 default
    assert combat.autonomous(2, 2, with_switches(BASIC, {"autonomous_threshold": "majority"}))
    g = HexGrid(60, 63, 58, 62, "even-q")
    assert {"6260", "6160", "6261"} <= set(g.neighbors("6161"))    # the corrected retreat hexes (notes 8.1.8)


# --------------------------------------------------------------- stacking
def test_T13_1_11_stacking():
    scn = vrhelp.scenario(units={
        "d1": vrhelp.unit("ger", 4), "d2": vrhelp.unit("ger", 4), "d3": vrhelp.unit("ger", 4),
        "h1": vrhelp.hq("ger", 3), "h2": vrhelp.hq("ger", 3), "hun": vrhelp.unit("hun", 2), "rum": vrhelp.unit("rum", 2),
        **{f"s{i}": vrhelp.unit("sov", 5) for i in range(7)}})
    u = scn.units
    assert stacking.problems([u["d1"], u["d2"]], "german", BASIC, kg=1) == []
    assert stacking.problems([u["d1"], u["d2"], u["d3"]], "german", BASIC, kg=1)
    assert stacking.problems([u["d1"], u["d2"], u["h1"]], "german", BASIC, kg=1) == []
    assert stacking.problems([u["d1"], u["h1"], u["h2"]], "german", BASIC)
    assert stacking.problems([u["hun"], u["rum"]], "german", BASIC)
    six = [u[f"s{i}"] for i in range(6)]
    assert stacking.problems(six, "soviet", BASIC, bridgehead=True) == []
    assert stacking.problems(six + [u["s6"]], "soviet", BASIC, bridgehead=True)
    assert stacking.problems(six, "soviet", BASIC)


# ----------------------------------------------------------------- supply
def _t05():
    units = {"hq1": vrhelp.hq("sov", 6), **{f"s{h}": vrhelp.unit("sov", 5) for h in ("5818", "5719", "5619", "5721")},
             **{f"g{h}": vrhelp.unit("ger", 5) for h in ("5919", "5620", "5722", "5819")}}
    scn = vrhelp.scenario(units=units, cities={"minor": ["6115"]}, names={"6115": "Velikie Luki"},
                          railroads={"rail": ["6015", "6115"]}, supply={"june_cities": ["6115"]})
    placed = {"hq1": "6015", **{k: k[1:] for k in units if k != "hq1"}}
    return vrhelp.board(scn, placed)


def test_T05_4_2_unit_supply_and_blocked_command_paths():
    b = _t05()
    assert supply.hq_supplied(b, "hq1")
    reach = supply.command_reach(b, "hq1")
    assert {"5917", "5817", "5818", "5719", "5619"} <= set(reach)
    assert "5918" not in reach and "5721" not in reach
    got = supply.unit_supply(b, "soviet")
    assert got == {"hq1": True, "s5818": True, "s5719": True, "s5619": True, "s5721": False}


def _t04():
    north = {(c, r) for c in range(48, 63) for r in range(14, 19)}
    g = HexGrid(48, 62, 14, 30, "even-q")
    major = set()
    for a in g.hexes():
        for b in g.neighbors(a):
            ca, ra = int(a[:2]), int(a[2:])
            cb, rb = int(b[:2]), int(b[2:])
            east_a, east_b = ca >= 54, cb >= 54
            if (((ca, ra) in north) != ((cb, rb) in north) and ca <= 53 and cb <= 53) or \
                    (east_a != east_b and ra <= 18 and rb <= 18):
                major.add("|".join(sorted((a, b))))
    units = {"hq1": vrhelp.hq("sov", 3), "hq2": vrhelp.hq("sov", 4), "s5119": vrhelp.unit("sov", 5),
             "g5118": vrhelp.unit("ger", 5)}
    scn = vrhelp.scenario(units=units, hexsides={"major_river": sorted(major)},
                          supply={"east_edge": ["5018", "5316"]})
    b = vrhelp.board(scn, {"hq1": "5018", "hq2": "5316", "s5119": "5119", "g5118": "5118"})
    b.state["units"]["hq1"]["pontoon"] = "5018|5119"
    return b


def test_T04_1_2_command_radius_blocked_by_enemy_and_river():
    b = _t04()
    reach2 = supply.command_reach(b, "hq2")
    assert not {"5017", "5117", "5217", "5417"} & set(reach2)
    assert "5119" not in reach2
    assert "5119" in supply.command_reach(b, "hq1")
    assert supply.unit_supply(b, "soviet")["s5119"]
    b.state["units"]["hq1"]["pontoon"] = None                 # without the Pontoon: cut off
    assert not supply.unit_supply(vrhelp.Board(b.scn, BASIC, b.state), "soviet")["s5119"]


# ------------------------------------------------ tables the text gives exactly
def test_T09_6_5_3_naval_evacuation():
    naval = Capacity(BASIC.naval_capacity, {"infantry": 1, "hq": 1, "armor": 2})
    left = naval.spend(3, ["armor"])                 # the Panzer: not the last unit, no roll
    left = naval.spend(left, ["infantry"])           # the infantry pays, then rolls 2
    assert left == 0 and tables.EVACUATION.lookup(2) == (False, False)


def test_D09_6_4_2_rail_capacity():
    assert Capacity(5, {"infantry": 1, "hq": 1, "armor": 2}).price(["infantry", "infantry", "armor", "hq"]) == 5


def test_T21_11_3_3_drawing_supports_standard_case():
    assert tables.to_draws(7) == 3
    assert tables.to_draws(8, priority=True) == 6
    assert tables.to_draws(5, minor_city=True, no_rail=True) == 0 and tables.to_draws(4, minor_city=True, no_rail=True) == 0


def test_T22_11_3_2_large_offensive_draws():
    assert tables.to_draws(10, priority=True, large_offensive=True) == 9


def test_T23_11_3_3_mud_penalty():
    assert tables.to_draws(12, weather="mud") == 3


def test_D04_11_3_3_to_draw():
    assert tables.to_draws(12, priority=True, large_offensive=True, weather="snow") == 9
    assert tables.to_draws(5, weather="mud") == 0


def test_D05_11_6_to_movement():
    assert tables.to_move(rail_only=True, supports=2, weather="snow") == 5
    assert tables.to_move(weather="mud") == 1


def test_T25_12_1_1_stavka_table():
    assert tables.stavka("priority", 5) == 4
    assert tables.stavka("normal", 6) == 3
    assert tables.stavka("secondary", 3) == 1


def test_D07_12_1_1_stavka_with_bonuses():
    assert tables.stavka("priority", 4, supports=1, large_offensive=True) == 5


def test_T26_14_1_romanian_capitulation():
    assert tables.romania_capitulates(4, {"iasi", "chisinau"}, eliminated_romanians=4)
    assert not tables.romania_capitulates(4, {"iasi"}, eliminated_romanians=4)


def test_D06_14_2_hungarian_capitulation():
    assert tables.hungary_result(6, both_budapest=True, romania_soviet=True) == "armistice"
    assert tables.hungary_result(6, both_budapest=True, romania_soviet=False) == "switch"
    assert tables.hungary_result(3, both_budapest=False, romania_soviet=False) == "never"


def test_D08_15_3_dismissal_resets():
    assert [tables.dismissal_reset(n) for n in range(1, 7)] == [10, 9, 8, 7, 7, 7]


def test_8_2_13_basic_is_the_advanced_engine_switched_off():
    from dataclasses import replace
    from pbem.games.vr.profile import ADVANCED_RULES
    assert all(not getattr(BASIC, r) for r in ADVANCED_RULES)
    assert all(getattr(CAMPAIGN, r) for r in ADVANCED_RULES)
    assert replace(CAMPAIGN, name="basic", german_draws="scenario", **{r: False for r in ADVANCED_RULES}) == BASIC
