"""Where each worked example (TC-01..TC-23) and derived check (TC-24..TC-35)
of the AVA rule notes (rules/ava.md section 6) is tested.  The table is
read by the tests below: every function it names must exist and every case
id must appear, so the index cannot go stale silently.

| case  | rule    | test (module::function)                                                                 |
|-------|---------|-----------------------------------------------------------------------------------------|
| TC-01 | 8.2     | test_ava_activation::test_tc01_8_2_range_four_reaches_four_hexes_not_five               |
| TC-01 | 8.2     | test_ava_activation::test_tc01_8_2_range_is_counted_around_a_prohibited_hexside         |
| TC-02 | 8.2     | test_ava_activation::test_tc02_8_2_activation_example_27th_army                         |
| TC-03 | 8.2     | test_ava_activation::test_tc03_8_2_18th_army_activates_all_five_and_itself              |
| TC-04 | 9.2     | test_ava_movement::test_tc04_9_2_road_bridge_then_minor_river_into_ezoc_costs_8_mp      |
| TC-05 | 9.2     | test_ava_movement::test_tc05_9_2_foot_clear_heavy_woods_light_woods_costs_4_mp          |
| TC-06 | 9.2     | test_ava_movement::test_tc06_9_2_leaving_ezoc_then_railroad_hex_is_clear                |
| TC-07 | 9.2     | test_ava_movement::test_tc07_9_2_unbridged_major_river_is_the_whole_move                |
| TC-07 | 9.2     | test_ava_movement::test_tc07_9_2_ava_either_hex_in_ezoc_bars_the_crossing               |
| TC-08 | 2.2     | test_ava_movement::test_tc08_2_2_hq_moves_as_foot_unit_3_mp                             |
| TC-09 | 9.3     | test_ava_movement::test_tc09_9_3_strategic_ten_road_hexes_cost_5_mp                     |
| TC-10 | 9.2     | test_ava_movement::test_tc10_9_2_ezoc_to_ezoc_costs_4_more                              |
| TC-11 | 10.3    | test_ava_combat::test_tc11_10_3_ratio_rounding                                          |
| TC-12 | 10.3    | test_ava_combat::test_tc12_10_3_shifts_city_in_light_woods                              |
| TC-13 | 10.3    | test_ava_combat::test_tc13_10_3_combat_ratio_example                                    |
| TC-13 | 10.3    | test_ava_combat::test_tc13_10_3_combat_ratio_example_with_the_hq                        |
| TC-14 | 10.4    | test_ava_combat::test_tc14_10_4_attack_example_4_to_1_roll_4_is_rr                      |
| TC-15 | 10.4    | test_ava_combat::test_tc15_10_4_results                                                 |
| TC-16 | 10.5    | test_ava_combat::test_tc16_10_5_two_full_units_two_losses                               |
| TC-17 | 10.6    | test_ava_retreat::test_tc17_10_6_retreat_example                                        |
| TC-18 | 10.7    | test_ava_advance::test_tc18_10_7_advance_example                                        |
| TC-19 | 14.2    | test_ava_combat::test_tc19_14_2_fortress_conversion_is_mandatory                        |
| TC-20 | 17.2    | test_ava_chits::test_tc20_17_2_reserve_okh_campaign_table                               |
| TC-20 | 18.1    | test_ava_chits::test_tc20_18_1_reserve_leningrad_table                                  |
| TC-21 | 19.4    | test_ava_controller::test_tc21_19_4_example_one                                         |
| TC-22 | 19.4    | test_ava_controller::test_tc22_19_4_example_two                                         |
| TC-23 | 19.5    | test_ava_controller::test_tc23_19_5_interrupt_cancels_the_chit_and_later_face_down_ones |
| TC-24 | 1.2     | test_ava_combat::test_tc24_1_2_halving_keeps_halves_to_the_end                          |
| TC-24 | 10.3    | test_ava_combat::test_tc24_10_3_bridge_does_not_lift_the_halving                        |
| TC-25 | 10.3    | test_ava_combat::test_tc25_10_3_below_1_to_1_after_shifts_is_cancelled                  |
| TC-26 | 10.7    | test_ava_advance::test_tc26_10_7_limiting_first_hex_stops_a_mech_advance                |
| TC-27 | 10.6    | test_ava_retreat::test_tc27_10_6_3_major_river_on_the_second_hex_destroys               |
| TC-28 | 10.8    | test_ava_combat::test_tc28_10_8_where_eliminated_units_go                               |
| TC-29 | 15.1    | test_ava_supply::test_tc29_15_1_axis_exempt_before_turn_4_soviets_never                 |
| TC-30 | 7.3     | test_ava_chits::test_tc30_7_3_axis_may_answer_any_drawn_chit_with_a_held_interrupt      |
| TC-30 | 7.3     | test_ava_chits::test_tc30_7_3_cup_empty_with_an_interrupt_held_it_is_played             |
| TC-31 | 16.4    | test_ava_victory::test_tc31_16_4_the_game_ends_after_the_last_turns_supply_check        |
| TC-31 | 16.4    | test_ava_chits::test_tc31_16_4_the_supply_check_may_be_interrupted                      |
| TC-32 | 16.1    | test_ava_victory::test_tc32_16_1_vp_breakdown                                           |
| TC-32 | 16.3    | test_ava_victory::test_tc32_16_3_a_from_moscow_source_makes_it_20                       |
| TC-33 | 2.1     | test_ava_movement::test_tc33_2_1_soviet_units_never_cross_the_red_start_line            |
| TC-34 | 12.1    | test_ava_supply::test_tc34_12_1_rail_entry_never_through_ezoc_even_if_held              |
| TC-34 | 12.1    | test_ava_reinforce::test_tc34_12_1_rail_line_through_a_friendly_held_ezoc_hex           |
| TC-35 | 14.1    | test_ava_fortress::test_tc35_14_1_two_steps_a_check_in_a_major_city_with_loc            |
| TC-35 | 14.1    | test_ava_fortress::test_tc35_14_1_a_seventh_fortress_hex_is_refused_brest_counted_a18   |
"""
from __future__ import annotations

import importlib
import re

CASES = [f"TC-{n:02d}" for n in range(1, 36)]

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
