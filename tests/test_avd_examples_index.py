"""Where each worked example of the rule notes (rules/avd.md section 6) is
tested.  The table is read by the test below: every function it names must
exist, and every T-number from T1 to T33 must appear, so the index cannot
go stale silently.

| T   | rule      | test (module::function)                                                                |
|-----|-----------|----------------------------------------------------------------------------------------|
| T1  | 1.3       | test_avd_mechanics_combat::test_1_3_halving_and_quartering_round_down                   |
| T2  | 1.3       | test_avd_mechanics_combat::test_1_3_stacked_units_summed_before_halving                 |
| T3  | 9.3.2     | test_avd_mechanics_combat::test_9_3_2_ratio_columns                                     |
| T4  | 9.3.2     | test_avd_mechanics_combat::test_9_3_2_ratio_columns                                     |
| T5  | 9.3.2     | test_avd_mechanics_combat::test_9_3_2_ratio_columns                                     |
| T6  | 9.3.2     | test_avd_mechanics_combat::test_9_3_2_ratio_columns                                     |
| T7  | 9.3.2     | test_avd_mechanics_combat::test_9_3_2_ratio_columns                                     |
| T8  | 9.3.3     | test_avd_mechanics_combat::test_9_3_3_cap_at_ten_to_one_before_terrain_shift            |
| T9  | 9.3.6     | test_avd_mechanics_combat::test_9_3_6_example_woods_then_stuka_reaches_ten              |
| T10 | 9.3.2     | test_avd_mechanics_combat::test_9_3_2_combat_ratio_example_five_to_two                  |
| T11 | 9.4.3     | test_avd_mechanics_combat::test_9_4_3_soviet_ten_elite_joins_and_rerolls_dr             |
| T11 | 9.4.3     | test_avd_examples::test_9_4_3_T11_attack_example_ten_draws_the_elite_infantry_and_the_reroll_of_3_is_dr |
| T12 | 9.5.3     | test_avd_mechanics_combat::test_9_5_3_retreat_example_closer_to_supply_and_loses_step   |
| T13 | 9.6       | test_avd_mechanics_combat::test_9_6_advance_example                                     |
| T14 | 8.1, 8.2  | test_avd_mechanics_movement::test_8_1_movement_example_a_minor_river_then_zoc           |
| T14 | 8.2.1     | test_avd_mechanics_movement::test_8_2_1_movement_example_b_leaving_zoc_costs_two_more   |
| T14 | 8.2.1     | test_avd_mechanics_movement::test_8_2_1_movement_example_c_woods_in_zoc_non_motorized   |
| T14 | 8.2.1     | test_avd_mechanics_movement::test_8_2_1_movement_example_d_zoc_to_zoc_woods_motorized_six_mp |
| T14 | 8.3.1     | test_avd_mechanics_movement::test_8_3_1_movement_example_e_half_mp_per_road_hex         |
| T14 | 8.3.1     | test_avd_mechanics_movement::test_8_3_1_movement_example_e_enemy_controlled_victory_hex |
| T15 | 6.1       | test_avd_mechanics_movement::test_6_1_zoc_example_all_six_hexes_including_town_and_across_major_river |
| T16 | 7.3.2     | test_avd_mechanics_command::test_7_3_2_command_example_hq_activation                    |
| T17 | 7.4.2     | test_avd_mechanics_command::test_7_4_2_panzer_chaining_example                          |
| T18 | 7.3.4     | test_avd_mechanics_command::test_7_3_4_command_range_counts_hexes                       |
| T19 | 9.4.1     | test_avd_mechanics_combat::test_9_4_1_results_read_from_the_crt                         |
| T20 | 9.4.2     | test_avd_mechanics_combat::test_9_4_2_two_step_loss_on_two_full_units                   |
| T21 | 9.5.2 a   | test_avd_mechanics_combat::test_9_5_2_pvo_dr_one_step_other_unit_stays                  |
| T21 | 9.5.2 b   | test_avd_mechanics_combat::test_9_5_2_full_pvo_dr2_loses_two_steps_companion_stays      |
| T21 | 9.5.2 c   | test_avd_mechanics_combat::test_9_5_2_two_pvos_dr2_each_lose_one                        |
| T21 | 9.5.2 d   | test_avd_mechanics_combat::test_9_5_2_reduced_pvo_dr2_eliminated_companion_retreats_one |
| T21 | 9.5.2 e   | test_avd_mechanics_combat::test_9_5_2_two_pvos_dr_owner_picks_one                       |
| T22 | 10.2      | test_avd_mechanics_command::test_10_2_isolation_example_pvo_surrounded                  |
| T22 | 10.2.2    | test_avd_mechanics_command::test_10_2_2_friendly_unit_negates_enemy_zoc                 |
| T22 | 10.2.2    | test_avd_mechanics_command::test_10_2_2_isolation_example_bridge_into_german_zoc        |
| T23 | 13.2      | test_avd_examples::test_13_2_T23_art_chit_gives_half_the_d6_rounded_down_attacks        |
| T24 | 9.3.6     | test_avd_mechanics_combat::test_9_3_6_illegal_below_one_to_one_after_terrain_even_with_later_shifts |
| T25 | 9.3.7     | test_avd_mechanics_combat::test_9_3_7_zero_defense_goes_to_last_column_regardless_of_terrain |
| T26 | 9.4.3     | test_avd_examples::test_9_4_3_T26_with_the_minsk_plus_one_a_natural_9_draws_an_elite_unit |
| T27 | 9.4.3     | test_avd_examples::test_9_4_3_T27_a_ten_with_an_empty_elite_cup_is_read_on_row_9        |
| T27 | 9.4.3     | test_avd_examples::test_9_4_3_T27_a_drawn_unit_no_attacker_can_stack_with_goes_back_and_row_9_is_read |
| T28 | 9.3.5     | test_avd_mechanics_combat::test_9_3_5_turn_one_with_stuka                               |
| T28 | 9.3.5     | test_avd_sequence_combat::test_9_3_5_T28_turn_1_german_attacks_shift_two_columns_right  |
| T29 | 7.5       | test_avd_mechanics_combat::test_7_5_timoshenko_shift_after_terrain                      |
| T29 | 9.3.6     | test_avd_mechanics_combat::test_9_3_6_defensive_stuka_nets_with_timoshenko_and_clamps_once |
| T30 | 16.3.1    | test_avd_sequence_victory::test_16_3_1_T30_objective_moscow_doubles_uncaptured_and_six_per_panzer |
| T30 | 16.3.2    | test_avd_sequence_victory::test_16_3_2_T30_hitler_distracted_single_count_and_four_per_panzer |
| T30 | 16.3.1    | test_avd_sequence_victory::test_16_3_1_T30_tie_under_rolled_moscow_is_german_win        |
| T30 | 16.3.1    | test_avd_sequence_victory::test_16_3_1_T30_chosen_moscow_tie_or_german_lead_is_a_draw   |
| T31 | 11.1.1    | test_avd_sequence_phases::test_11_1_1_T31_five_points_buy_an_hq_its_chit_and_two_units  |
| T32 | 2.2.2     | test_avd_examples::test_2_2_2_T32_ss_reich_fights_8_8_and_moves_10_full_and_7_7_reduced |
| T33 | 13.3      | test_position_avd_examples::test_13_3_T33_bomber_attacks_at_8_1_applies_only_step_losses |
| T33 | 13.2      | test_position_avd_examples::test_13_2_T33_artillery_uses_3_1_and_a_d6_ignores_attacker_results_and_a_hex_once_a_turn |
| T33 | 12.6      | test_avd_mechanics_command::test_12_6_relocation_four_hexes_toward_a_source             |
"""
from __future__ import annotations

import importlib
import re

ROW = re.compile(r"^\|\s*T(\d+)\s*\|[^|]*\|\s*(\w+)::(\w+)\s*\|\s*$")


def _index() -> list[tuple[int, str, str]]:
    return [(int(m.group(1)), m.group(2), m.group(3))
            for m in (ROW.match(line) for line in (__doc__ or "").splitlines()) if m]


def test_every_worked_example_T1_to_T33_is_indexed():
    assert {t for t, _, _ in _index()} == set(range(1, 34))


def test_every_indexed_test_exists_and_carries_a_rule_number():
    for t, module, fn in _index():
        mod = importlib.import_module(module)
        assert callable(getattr(mod, fn, None)), f"T{t}: {module}::{fn} does not exist"
        assert re.match(r"test_\d+_\d+", fn), f"T{t}: {fn} is not named after its rule"
