"""Index of the Moscow '41 worked examples (E1-E18) and derived checks
(D1-D46) of moscow41.md section 6: each id names the test that checks it.
The test below fails when a named test disappears or is renamed, so the
index cannot go stale."""
from __future__ import annotations

import importlib

import pytest

INDEX: dict[str, tuple[str, str]] = {
    "E1": ("test_m41_rules", "test_1_7_E1_practice_start_vp_and_sudden_death"),
    "E2": ("test_m41_rules", "test_3_1_E2_halving_rounds_down_but_keeps_one_die"),
    "E3": ("test_m41_examples", "test_4_2_6_E3_guderian_commands_red_and_white_in_range_other_colours_only_in_his_area"),
    "E4": ("test_m41_examples", "test_7_2_1_E4_german_lv_at_campaign_start_counts_hoepner_on_the_road"),
    "E5": ("test_m41_rules", "test_7_2_2_E5_leader_activation_in_snow"),
    "E6": ("test_m41_rules", "test_9_3_E6_isolation_check"),
    "E7": ("test_m41_rules", "test_10_3_E7_disengaged_guderian_commands_within_two_areas"),
    "E8": ("test_m41_road", "test_10_9_E8_snow_two_dice_two_hits_one_companion_one_box"),
    "E9": ("test_m41_luftwaffe", "test_10_10_1_E9_2fk_at_four_commits_four_he111_within_four_areas"),
    "E10": ("test_m41_luftwaffe", "test_10_12_3_E10_three_aa_hits_one_destroyed_one_aborted_four_bombers_strike"),
    "E11": ("test_m41_rules", "test_10_14_1_E11_three_hits_are_absorbed_by_terrain_city_and_dl"),
    "E12": ("test_m41_rules", "test_11_E12_strategic_impulse_moves_at_most_lv_blocks"),
    "E13": ("test_m41_options", "test_14_4_E13_four_rail_two_moves_one_dl_make_seven_actions"),
    "E14": ("test_m41_rules", "test_2_7_E14_fifth_block_in_a_green_area_is_illegal"),
    "E15": ("test_m41_examples", "test_7_2_1_E15_each_scenario_file_gives_its_published_lv"),
    "E16": ("test_m41_rules", "test_campaign_order_of_battle_counts_E16"),
    "E17": ("test_m41_rules", "test_10_17_E17_exhausted_hq_is_destroyed_at_deactivation"),
    "E18": ("test_m41_rules", "test_10_1_E18_hq_may_not_be_revealed_among_enemy_units"),
    "D1": ("test_m41_derived", "test_D1_slow_green_then_yellow_costs_three"),
    "D2": ("test_m41_rules", "test_10_8_D2_slow_block_cannot_go_yellow_to_yellow"),
    "D3": ("test_m41_derived", "test_D3_fast_yellow_yellow_green_costs_five"),
    "D4": ("test_m41_derived", "test_D4_D5_disengaging_costs_one_more_and_must_enter_a_friendly_uncontested_area"),
    "D5": ("test_m41_derived", "test_D4_D5_disengaging_costs_one_more_and_must_enter_a_friendly_uncontested_area"),
    "D6": ("test_m41_derived", "test_D6_D7_D8_weather_costs"),
    "D7": ("test_m41_derived", "test_D6_D7_D8_weather_costs"),
    "D8": ("test_m41_derived", "test_D6_D7_D8_weather_costs"),
    "D9": ("test_m41_derived", "test_D9_D10_D11_attacking_dice_by_weather"),
    "D10": ("test_m41_derived", "test_D9_D10_D11_attacking_dice_by_weather"),
    "D11": ("test_m41_derived", "test_D11_rain_artillery_and_ranges_are_one"),
    "D12": ("test_m41_options", "test_14_5_D12_german_four_dots_in_snow_and_blizzard"),
    "D13": ("test_m41_derived", "test_D13_D14_D15_river_crossing_costs_dice_only_when_newly_contested_and_not_frozen"),
    "D14": ("test_m41_derived", "test_D13_D14_D15_river_crossing_costs_dice_only_when_newly_contested_and_not_frozen"),
    "D15": ("test_m41_derived", "test_D13_D14_D15_river_crossing_costs_dice_only_when_newly_contested_and_not_frozen"),
    "D16": ("test_m41_derived", "test_D16_to_D19_absorb_bonus"),
    "D17": ("test_m41_derived", "test_D16_to_D19_absorb_bonus"),
    "D18": ("test_m41_derived", "test_D16_to_D19_absorb_bonus"),
    "D19": ("test_m41_derived", "test_D16_to_D19_absorb_bonus"),
    "D20": ("test_m41_derived", "test_D20_hits_go_to_absorb_then_dl_then_strongest_then_owner_picks_among_ties"),
    "D21": ("test_m41_derived", "test_D21_tank_attack_attacker_fires_first"),
    "D22": ("test_m41_derived", "test_D22_artillery_that_removes_the_dl_opens_a_tank_attack"),
    "D23": ("test_m41_derived", "test_D23_no_tank_attack_when_every_attacking_tank_crossed_a_river_into_a_new_battle"),
    "D24": ("test_m41_derived", "test_D24_four_aa_hits_on_three_bombers"),
    "D25": ("test_m41_rules", "test_8_1_D25_weather_first_roll_changes_on_one"),
    "D26": ("test_m41_derived", "test_D26_elimination_bonus_per_ten"),
    "D27": ("test_m41_derived", "test_D27_snow_does_not_halve_for_the_holder_of_moscow_and_leningrad"),
    "D28": ("test_m41_road", "test_13_2_D28_kiev_falls_when_chernigov_and_romny_are_german"),
    "D29": ("test_m41_derived", "test_D29_kiev_stays_soviet_with_only_one_special_city"),
    "D30": ("test_m41_road", "test_13_3_1_D30_passing_shlisselburg_cuts_the_western_north_border_at_once"),
    "D31": ("test_m41_road", "test_13_3_D31_leningrad_falls_in_the_final_phase"),
    "D32": ("test_m41_road", "test_10_9_D32_no_companion_no_advance_but_still_reduced"),
    "D33": ("test_m41_blitz", "test_10_18_D33_exploitation_by_weather"),
    "D34": ("test_m41_blitz", "test_10_16_D34_blitz_after_clearing_a_green_area"),
    "D35": ("test_m41_blitz", "test_10_16_D35_no_blitz_into_yellow_or_contested_or_twice"),
    "D36": ("test_m41_derived", "test_D36_illegal_dl_builds"),
    "D37": ("test_m41_derived", "test_D37_soviet_reinforcements_refused_in_contested_doubled_or_unsupplied_cities"),
    "D38": ("test_m41_derived", "test_D38_an_l_block_drawn_joins_hoepners_box_whatever_area_was_named"),
    "D39": ("test_m41_derived", "test_D39_an_lw_hq_alone_is_no_tactical_impulse"),
    "D40": ("test_m41_rules", "test_12_D40_pass_may_not_engage"),
    "D41": ("test_m41_rules", "test_6_D41_two_consecutive_passes_end_the_turn"),
    "D42": ("test_m41_derived", "test_D42_deactivation_steps"),
    "D43": ("test_m41_derived", "test_D43_D44_sudden_death_and_marginal_victory"),
    "D44": ("test_m41_derived", "test_D43_D44_sudden_death_and_marginal_victory"),
    "D45": ("test_m41_derived", "test_D45_a_supply_line_may_start_in_a_contested_area_but_not_cross_one"),
    "D46": ("test_m41_derived", "test_D46_isolated_blocks_defend_but_do_not_attack"),
}


def test_index_covers_every_worked_example_and_derived_check():
    assert set(INDEX) == {f"E{i}" for i in range(1, 19)} | {f"D{i}" for i in range(1, 47)}


@pytest.mark.parametrize("ident", sorted(INDEX, key=lambda k: (k[0], int(k[1:]))))
def test_indexed_test_exists_and_carries_its_id(ident):
    module, name = INDEX[ident]
    fn = getattr(importlib.import_module(module), name, None)
    assert callable(fn), f"{ident}: {module}.{name} is gone"
    n = int(ident[1:])
    tags = {ident} | ({f"D{a}_to_D{b}" for a in range(1, 47) for b in range(a, 47) if a <= n <= b}
                      if ident.startswith("D") else set())
    assert any(f"_{t}_" in f"{name}_" for t in tags), f"{name} does not name {ident}"
