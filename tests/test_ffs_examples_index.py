"""Where each worked example (TC-01..TC-22) and derived check (TD-01..TD-26)
of the FFS rule notes (rules/ff-smolensk.md section 6) is tested; where the
FFS example is the same as an AVA one (command range, the 9.2/9.3 movement
examples, the mech advance, rail entry) its test lives in a test_ava_* file.  The table is read by the tests below: every function it
names must exist and every case id must appear.

| case  | rule    | test (module::function)                                                                              |
|-------|---------|------------------------------------------------------------------------------------------------------|
| TC-01 | 1.3     | test_ffs_combat::test_tc01_1_3_halving_rounds_down                                                   |
| TC-02 | 1.3     | test_ffs_combat::test_tc02_1_3_quartering_rounds_down                                                |
| TC-03 | 10.3.1  | test_ffs_combat::test_tc03_10_3_1_stacked_units_are_added_before_halving                             |
| TC-04 | 8.2     | test_ava_activation::test_tc01_8_2_range_four_reaches_four_hexes_not_five                            |
| TC-05 | 9.2     | test_ava_movement::test_tc10_9_2_ezoc_to_ezoc_costs_4_more                                           |
| TC-06 | 9.3     | test_ava_movement::test_tc09_9_3_strategic_ten_road_hexes_cost_5_mp                                  |
| TC-07 | 9.3     | test_ava_movement::test_tc09_9_3_strategic_never_into_ezoc                                           |
| TC-08 | 10.3.2  | test_ffs_combat::test_tc08_10_3_2_15_to_5                                                            |
| TC-09 | 10.3.2  | test_ffs_combat::test_tc09_10_3_2_26_to_9                                                            |
| TC-10 | 10.3.2  | test_ffs_combat::test_tc10_10_3_2_12_to_7                                                            |
| TC-11 | 10.3.2  | test_ffs_combat::test_tc11_10_3_2_18_to_13                                                           |
| TC-12 | 10.3.2  | test_ffs_combat::test_tc12_10_3_2_25_to_2                                                            |
| TC-13 | 10.3.3  | test_ffs_combat::test_tc13_10_3_3_light_woods_town_two_shifts                                        |
| TC-14 | 10.3.3  | test_ffs_combat::test_tc14_10_3_3_12_to_1_is_10_to_1_then_shifted                                    |
| TC-15 | 10.4.2  | test_ffs_combat::test_tc15_10_4_2_a1_one_step_among_the_attackers                                    |
| TC-16 | 10.4.2  | test_ffs_retreat::test_tc16_10_4_2_r_on_a_stack_of_two                                               |
| TC-16 | 10.6.2  | test_ffs_retreat::test_tc16_10_6_2_no_legal_hex_eliminates                                           |
| TC-17 | 10.4.2  | test_ffs_combat::test_tc17_10_4_2_3rr_three_steps_then_retreat                                       |
| TC-18 | 10.5    | test_ffs_combat::test_tc18_10_5_two_full_units_two_losses                                            |
| TC-19 | 14.2.5  | test_ffs_combat::test_tc19_14_2_5_fortress_conversion_is_the_defenders_choice                        |
| TC-19 | 14.2.1  | test_ffs_combat::test_tc19_14_2_1_fortress_defence                                                   |
| TC-20 | 16.2    | test_ffs_chits::test_tc20_16_2_reserve_okh_table                                                     |
| TC-21 | 15.5    | test_ffs_victory::test_tc21_15_5_4230_4730_graded_by_when_first_held                                 |
| TC-21 | 15.5    | test_ffs_victory::test_tc21_15_5_4230_awarded_once_at_the_first_value                                |
| TC-22 | 4.0(2)  | test_ffs_examples::test_tc22_4_0_2_a_w_unit_sets_up_in_the_w_zone_two_a_hex_one_on_the_set_up_hex    |
| TD-01 | 10.3.4  | test_ffs_combat::test_td01_10_3_4_deep_woods_cancels_1_5_to_1                                        |
| TD-02 | 10.3.4  | test_ffs_combat::test_td02_10_3_4_below_1_to_1_not_possible                                          |
| TD-03 | 10.3.5  | test_ffs_combat::test_td03_10_3_5_defence_zero_is_10_to_1_whatever_the_terrain                       |
| TD-04 | 10.3.5  | test_ffs_combat::test_td04_10_3_5_lone_one_step_fortress                                             |
| TD-05 | 10.3.1  | test_ffs_combat::test_td05_9_3_divergence_per_hex_halving                                            |
| TD-06 | 9.2.1   | test_ffs_examples::test_td06_9_2_1_mech_clear_light_woods_deep_woods_then_clear_is_six_mp            |
| TD-07 | 9.2.1   | test_ffs_examples::test_td07_9_2_1_foot_across_an_unbridged_minor_river_into_swamp_is_three_mp       |
| TD-08 | 9.2.1   | test_ffs_examples::test_td08_9_2_1_along_a_road_into_deep_woods_is_one_mp                            |
| TD-09 | 9.2.1   | test_ffs_examples::test_td09_9_2_1_an_unbridged_major_river_only_as_the_first_hex_and_it_stops       |
| TD-10 | 9.2.3   | test_ffs_examples::test_td10_9_2_3_a_bridged_major_river_with_both_hexes_in_ezoc_is_closed           |
| TD-10 | 9.2.3   | test_ava_movement::test_tc07_9_2_ffs_only_both_hexes_in_ezoc_bar_the_crossing                        |
| TD-11 | 9.2.2   | test_ffs_examples::test_td11_9_2_2_mech_from_ezoc_into_light_woods_in_ezoc_six_mp_deep_woods_refused |
| TD-12 | 10.6.3  | test_ffs_retreat::test_td12_10_6_3_the_one_ezoc_route_is_forced_and_costs_a_step                     |
| TD-13 | 10.6.2  | test_ffs_retreat::test_td13_10_6_2_any_major_river_on_the_second_hex_eliminates                      |
| TD-14 | 10.7.5  | test_ava_advance::test_td14_10_7_5_ffs_second_hex_must_be_clear_too                                  |
| TD-15 | 10.7.5  | test_ava_advance::test_td15_10_7_5_attack_across_a_river_stops_after_one_hex                         |
| TD-16 | 3.3.5   | test_ffs_examples::test_td16_3_3_5_axis_seven_hexes_off_the_railroad_loses_a_step_from_turn_4        |
| TD-17 | 3.3.1   | test_ffs_examples::test_td17_3_3_1_a_soviet_unit_lifts_the_zoc_block_of_its_hex_for_a_line           |
| TD-18 | 12.1.2  | test_ava_reinforce::test_td18_12_1_2_ffs_rail_line_through_a_friendly_held_ezoc_hex                  |
| TD-19 | 7.3     | test_ffs_chits::test_td19_7_3_guderian_may_cancel_the_supply_chit                                    |
| TD-20 | 7.3.3   | test_ffs_chits::test_td20_7_3_3_guderian_at_the_end_of_the_cup_is_optional                           |
| TD-21 | 13.2    | test_ffs_chits::test_td21_13_2_2a_drawn_with_its_hq_in_the_available_box                             |
| TD-22 | 15.6    | test_ffs_victory::test_td22_15_6_game_ends_after_the_supply_order                                    |
| TD-23 | 15.5(5) | test_ffs_victory::test_td23_15_5_5_axis_loses_3_per_mech_1_per_other                                 |
| TD-24 | 12.3    | test_ffs_combat::test_td24_12_3_where_eliminated_units_go                                            |
| TD-25 | 10.1.4  | test_ffs_combat::test_td25_10_1_4_one_attack_per_hex                                                 |
| TD-26 | 10.6.4  | test_ffs_retreat::test_td26_10_6_4_a_full_hex_sends_the_unit_on                                      |
"""
from __future__ import annotations

import importlib
import re

CASES = [f"TC-{n:02d}" for n in range(1, 23)] + [f"TD-{n:02d}" for n in range(1, 27)]

ROW = re.compile(r"^\|\s*(T[CD])-(\d+)\s*\|[^|]*\|\s*(\w+)::(\w+)\s*\|\s*$")


def _index() -> list[tuple[str, str, str]]:
    return [(f"{m.group(1)}-{int(m.group(2)):02d}", m.group(3), m.group(4))
            for m in (ROW.match(line) for line in (__doc__ or "").splitlines()) if m]


def test_every_case_of_the_notes_is_indexed() -> None:
    assert {c for c, _, _ in _index()} == set(CASES)


def test_every_indexed_test_exists_and_carries_its_case_id() -> None:
    for case, module, fn in _index():
        mod = importlib.import_module(module)
        assert callable(getattr(mod, fn, None)), f"{case}: {module}::{fn} does not exist"
        assert re.match(r"test_t[cd]\d\d_", fn), f"{case}: {fn} is not named after a case"
