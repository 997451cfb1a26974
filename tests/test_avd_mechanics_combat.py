"""A Victory Denied rule 9: combat strengths, odds, CRT, losses, PVO units,
retreat and advance.  Worked examples from the rulebook are named after the
rule they illustrate (the rule notes' T-numbers are in the docstrings)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from pbem.board.retreat import retreat_paths
from pbem.games.avd import combat
from pbem.games.avd.board import Board
from pbem.games.avd.model import GERMAN, SOVIET
from avd_fixtures import GRID, scenario, state, unit

MINOR = frozenset({"minor_river"})
MAJOR = frozenset({"major_river"})
BRIDGE = frozenset({"minor_river", "road"})


def board(units, at, **kw):
    flags = {k: kw.pop(k) for k in ("oos", "isolated", "steps", "active", "attacked") if k in kw}
    turn = kw.pop("turn", 2)
    scn = scenario(units, **kw)
    return Board(scn, state(scn, at, turn=turn, **flags))


def col(b, label):
    return b.scn.crt.columns.index(label)


def soviets(*attacks):
    return [unit(f"S{i}", SOVIET, attack=a, formation="red") for i, a in enumerate(attacks)]


# Attackers in distinct hexes around 0505 (its neighbours), defender in 0505.
RING = GRID.neighbors("0505")


def attack_board(attacks, defense, *, terrain=None, sides=None, **kw):
    us = soviets(*attacks)
    g = unit("G", GERMAN, defense=defense, attack=defense)
    at = {u.id: RING[i] for i, u in enumerate(us)}
    at["G"] = "0505"
    return board(us + [g], at, terrain={"0505": terrain} if terrain else None, sides=sides, **kw), \
        [u.id for u in us]


# --------------------------------------------------------------- 1.3 rounding
def test_1_3_halving_and_quartering_round_down():
    """T1: half of 5 is 2, a quarter of 3 is 0."""
    g5 = unit("G5", GERMAN, attack=5)
    g3 = unit("G3", GERMAN, attack=3)
    s = unit("S", SOVIET, defense=4)
    b = board([g5, g3, s], {"G5": RING[0], "G3": RING[1], "S": "0505"},
              oos={"G5": True, "G3": True}, isolated={"G3": True})
    assert combat.attack_strength(b, ["G5"], "0505") == 2
    assert combat.attack_strength(b, ["G3"], "0505") == 0


def test_1_3_stacked_units_summed_before_halving():
    """T2: one 3 across a river gives 1; two 3s stacked across it give 3."""
    s1, s2 = unit("S1", SOVIET, attack=3, formation="red"), unit("S2", SOVIET, attack=3, formation="red")
    g = unit("G", GERMAN, defense=2)
    sides = {(RING[0], "0505"): MINOR}
    b = board([s1, s2, g], {"S1": RING[0], "G": "0505"}, sides=sides)
    assert combat.attack_strength(b, ["S1"], "0505") == 1
    b = board([s1, s2, g], {"S1": RING[0], "S2": RING[0], "G": "0505"}, sides=sides)
    assert combat.attack_strength(b, ["S1", "S2"], "0505") == 3


def test_9_3_1_bridged_river_still_halves_attack():
    b, att = attack_board([5], 1, sides={(RING[0], "0505"): BRIDGE})
    assert combat.attack_strength(b, att, "0505") == 2


def test_10_3_out_of_supply_halves_attack_not_defense_isolation_halves_both():
    g = unit("G", GERMAN, attack=6, defense=6)
    s = unit("S", SOVIET, attack=6, defense=6)
    b = board([g, s], {"G": "0505", "S": RING[0]}, oos={"G": True})
    assert combat.attack_strength(b, ["G"], RING[0]) == 3
    assert combat.defense_strength(b, "0505") == 6
    b = board([g, s], {"G": "0505", "S": RING[0]}, isolated={"G": True})
    assert combat.attack_strength(b, ["G"], RING[0]) == 3
    assert combat.defense_strength(b, "0505") == 3


def test_1_3_different_modifiers_in_one_hex_divided_separately():
    """8 item 13 default: same-hex units are summed per divisor."""
    g1 = unit("G1", GERMAN, attack=3)
    g2 = unit("G2", GERMAN, attack=3)
    s = unit("S", SOVIET, defense=1)
    b = board([g1, g2, s], {"G1": RING[0], "G2": RING[0], "S": "0505"}, oos={"G1": True})
    assert combat.attack_strength(b, ["G1", "G2"], "0505") == 1 + 3


# --------------------------------------------------------------- 9.3.2 ratios
@pytest.mark.parametrize("a,d,label", [(15, 5, "3-1"), (26, 9, "2-1"), (12, 7, "1.5-1"),
                                       (18, 13, "1-1"), (25, 2, "10-1")])
def test_9_3_2_ratio_columns(a, d, label):
    """T3-T7: the rulebook's ratio examples."""
    b, att = attack_board([a], d)
    o = combat.odds(b, att, "0505")
    assert o.legal and o.label == label and (o.attack, o.defense) == (a, d)


def test_9_3_3_cap_at_ten_to_one_before_terrain_shift():
    """T8: 40:2 is treated as 10-1, then woods makes it 9-1 (not 19:1 - 1)."""
    b, att = attack_board([40], 2, terrain="woods")
    assert combat.odds(b, att, "0505").label == "9-1"


def test_9_3_6_example_woods_then_stuka_reaches_ten():
    """T9: 24 against 2 in woods: 10-1, woods 9-1, Stuka to the 10-1 column."""
    g = [unit(f"G{i}", GERMAN, attack=8) for i in range(3)]
    s = unit("S", SOVIET, defense=2)
    b = board(g + [s], {"G0": RING[0], "G1": RING[1], "G2": RING[2], "S": "0505"},
              terrain={"0505": "woods"})
    o = combat.odds(b, ["G0", "G1", "G2"], "0505", stuka=1)
    assert o.attack == 24 and o.label == "10-1"
    assert any("woods: 1 left" in x for x in o.steps) and any("Stuka: 2 right" in x for x in o.steps)
    assert combat.odds(b, ["G0", "G1", "G2"], "0505").label == "9-1"


def _ratio_example(terrain=None):
    """The combat ratio example: KV-I #1 (motorized) and 45th Corps attack
    across river hexsides from two hexes, KV-I #2 from a third without."""
    kv1 = unit("KV1", SOVIET, motorized=True, attack=3, formation="red")
    c45 = unit("C45", SOVIET, attack=3)
    kv2 = unit("KV2", SOVIET, motorized=True, attack=3, formation="red")
    elite = unit("EI", SOVIET, attack=3, formation="red")
    g = unit("G", GERMAN, defense=2, attack=2)
    sides = {(RING[0], "0505"): MAJOR, (RING[1], "0505"): MINOR}
    at = {"KV1": RING[0], "C45": RING[1], "KV2": RING[3], "G": "0505"}
    return [kv1, c45, kv2, elite, g], at, sides, {"0505": terrain} if terrain else None


def test_9_3_2_combat_ratio_example_five_to_two():
    """T10: 1 + 1 + 3 = 5 against 2 is 2-1; in a city, 1-1."""
    units, at, sides, _ = _ratio_example()
    b = board(units, at, sides=sides)
    o = combat.odds(b, ["KV1", "C45", "KV2"], "0505")
    assert (o.attack, o.defense, o.label) == (5, 2, "2-1")
    b = board(units, at, sides=sides, terrain={"0505": "city"})
    assert combat.odds(b, ["KV1", "C45", "KV2"], "0505").label == "1-1"


def test_9_4_3_soviet_ten_elite_joins_and_rerolls_dr():
    """T11: an elite infantry (3) drawn and stacked with KV-I #2 makes 8:2,
    4-1; the re-roll of 3 is DR."""
    units, at, sides, _ = _ratio_example()
    at = dict(at, EI=at["KV2"])
    b = board(units, at, sides=sides)
    o = combat.odds(b, ["KV1", "C45", "KV2", "EI"], "0505")
    assert (o.attack, o.label) == (8, "4-1")
    r = combat.read_crt(b.scn, o.column, 3)
    assert (r.retreat, r.defender_steps, r.attacker_steps) == (1, 0, 0)


def test_9_4_1_results_read_from_the_crt():
    """T19: A1 hits the attacker, DR retreats 1, 3DR2 is 3 steps then 2 hexes."""
    b, _ = attack_board([1], 1)
    assert combat.read_crt(b.scn, "1-1", 1).attacker_steps == 1
    assert combat.read_crt(b.scn, "4-1", 3).retreat == 1
    r = combat.read_crt(b.scn, "10-1", 3)
    assert (r.defender_steps, r.retreat) == (3, 2)


def test_9_4_3_elite_fallback_reads_row_nine():
    """T27: the fallback row exists and differs per column; there is no row 10."""
    b, _ = attack_board([1], 1)
    assert str(combat.read_crt(b.scn, "2-1", 9)) == "1"
    assert str(combat.read_crt(b.scn, "4-1", 9)) == "1DR"
    with pytest.raises(ValueError):
        combat.read_crt(b.scn, "2-1", 10)


# -------------------------------------------------------------- 9.3.6 legality
def test_9_3_6_illegal_below_one_to_one_after_terrain_even_with_later_shifts():
    """T24: 1-1 against woods drops below 1-1: no attack, whatever shifts follow."""
    b, att = attack_board([4], 4, terrain="woods")
    for kw in ({}, {"stuka": 1}, {"turn1": True}, {"timoshenko": True}):
        o = combat.odds(b, att, "0505", **kw)
        assert not o.legal and o.column is None and "1-1" in o.reason


def test_9_3_2_odds_below_one_to_one_are_illegal():
    b, att = attack_board([3], 4)
    assert not combat.odds(b, att, "0505").legal


def test_9_3_7_zero_defense_goes_to_last_column_regardless_of_terrain():
    """T25: an isolated defender of 1 defends with 0."""
    b, att = attack_board([1], 1, terrain="city", isolated={"G": True})
    o = combat.odds(b, att, "0505", stuka=-1)
    assert o.defense == 0 and o.label == "10-1" and o.legal


def test_9_3_5_turn_one_with_stuka():
    """T28: raw 3-1 against woods on Turn 1 with a Stuka: 2-1, 4-1, 6-1."""
    g = unit("G", GERMAN, attack=9)
    s = unit("S", SOVIET, defense=3)
    b = board([g, s], {"G": RING[0], "S": "0505"}, terrain={"0505": "woods"})
    assert combat.odds(b, ["G"], "0505", stuka=1, turn1=True).label == "6-1"
    assert combat.odds(b, ["G"], "0505", turn1=True).label == "4-1"


def test_7_5_timoshenko_shift_after_terrain():
    """T29: 3-1 against a city is 1.5-1, Timoshenko makes it 2-1."""
    b, att = attack_board([6], 2, terrain="city")
    assert combat.odds(b, att, "0505", timoshenko=True).label == "2-1"


def test_9_3_6_defensive_stuka_nets_with_timoshenko_and_clamps_once():
    """T29 / 8 item 11: 2-1 against a city is 1-1 and legal; a defensive
    Stuka (-2) with Timoshenko (+1) nets one left, clamped to 1-1."""
    b, att = attack_board([4], 2, terrain="city")
    o = combat.odds(b, att, "0505", stuka=-1, timoshenko=True)
    assert o.legal and o.label == "1-1"
    assert combat.odds(b, att, "0505", timoshenko=True).label == "1.5-1"


def test_13_2_artillery_fixed_column_with_terrain():
    b, _ = attack_board([1], 3, terrain="city")
    o = combat.odds(b, [], "0505", fixed_column="3-1")
    assert o.label == "1.5-1"
    assert combat.odds(b, [], "0505", fixed_column="8-1", turn1=True).label == "8-1"


# ------------------------------------------------------------------ 9.1
def test_9_1_attack_eligibility():
    s = unit("S", SOVIET, attack=6)
    far = unit("F", SOVIET, attack=6, formation="red")
    g = unit("G", GERMAN, defense=2)
    ghq = unit("GHQ", GERMAN, kind="hq", command_range=4)
    at = {"S": RING[0], "F": "0101", "G": "0505", "GHQ": "0909"}
    b = board([s, far, g, ghq], at, active={"S": True, "F": True})
    assert combat.can_attack(b, ["S"], "0505", []) is None
    assert "already attacked" in combat.can_attack(b, ["S"], "0505", ["0505"])
    assert "not adjacent" in combat.can_attack(b, ["S", "F"], "0505", [])
    assert "no German combat units" in combat.can_attack(b, ["S"], "0909", [])
    b = board([s, far, g, ghq], at)
    assert "not activated" in combat.can_attack(b, ["S"], "0505", [])
    b = board([s, far, g, ghq], at, active={"S": True}, attacked={"S": True})
    assert "already attacked" in combat.can_attack(b, ["S"], "0505", [])


# ------------------------------------------------------------------ 9.4.2
def test_9_4_2_two_step_loss_on_two_full_units():
    """T20: eliminate one unit, or flip both."""
    a, c = unit("A", SOVIET, formation="red"), unit("C", SOVIET)
    b = board([a, c], {"A": "0303", "C": "0303"})
    opts = combat.loss_options(b, ["A", "C"], 2)
    assert sorted(map(sorted, (o.items() for o in opts))) == sorted(
        [[("A", 2)], [("C", 2)], [("A", 1), ("C", 1)]])


def test_9_4_2_more_losses_than_steps_eliminates_all():
    a = unit("A", SOVIET, steps=1)
    b = board([a], {"A": "0303"})
    assert combat.loss_options(b, ["A"], 3) == [{"A": 1}]


def test_9_4_2_eliminated_unit_destinations():
    units = [unit("Gm", GERMAN, motorized=True, formation="2PzG"), unit("Gi", GERMAN),
             unit("Tan", SOVIET), unit("Red", SOVIET, formation="red"),
             unit("Pvo", SOVIET, formation="red", pvo=True), unit("Star", SOVIET, code="*"),
             unit("IsoTan", SOVIET)]
    b = board(units, {u.id: "0101" for u in units}, isolated={"IsoTan": True})
    got = {u.id: combat.eliminated_destination(b, u.id) for u in units}
    assert got == {"Gm": "elim_motorized", "Gi": "removed", "Tan": "reserve", "Red": "elite_cup",
                   "Pvo": "removed", "Star": "removed", "IsoTan": "removed"}


# ------------------------------------------------------------------ 9.5.2 PVO
def _pvo_board(pvo_steps=(2,), with_other=True):
    units, at, steps = [], {}, {}
    for i, s in enumerate(pvo_steps):
        units.append(unit(f"P{i}", SOVIET, pvo=True, formation="red"))
        at[f"P{i}"] = "0303"
        steps[f"P{i}"] = s
    if with_other:
        units.append(unit("T", SOVIET))
        at["T"] = "0303"
    return board(units, at, steps=steps)


def test_9_5_2_pvo_dr_one_step_other_unit_stays():
    """T21a."""
    assert combat.pvo_effect(_pvo_board(), "0303", 1) == combat.PvoEffect([{"P0": 1}], 0)


def test_9_5_2_full_pvo_dr2_loses_two_steps_companion_stays():
    """T21b (8 item 32)."""
    assert combat.pvo_effect(_pvo_board(), "0303", 2) == combat.PvoEffect([{"P0": 2}], 0)


def test_9_5_2_two_pvos_dr2_each_lose_one():
    """T21c."""
    e = combat.pvo_effect(_pvo_board((2, 2), with_other=False), "0303", 2)
    assert e == combat.PvoEffect([{"P0": 1, "P1": 1}], 0)


def test_9_5_2_reduced_pvo_dr2_eliminated_companion_retreats_one():
    """T21d (8 item 33)."""
    assert combat.pvo_effect(_pvo_board((1,)), "0303", 2) == combat.PvoEffect([{"P0": 1}], 1)


def test_9_5_2_two_pvos_dr_owner_picks_one():
    """T21e."""
    e = combat.pvo_effect(_pvo_board((2, 2), with_other=False), "0303", 1)
    assert e.options == [{"P0": 1}, {"P1": 1}] and e.others_retreat == 0


def test_9_5_2_no_pvo_no_effect():
    b = board([unit("T", SOVIET)], {"T": "0303"})
    assert combat.pvo_effect(b, "0303", 2) is None


# ------------------------------------------------------------------ 9.5 retreat
def _retreat_example(**kw):
    """Retreat example: German unit in 0505, three empty neighbours all in
    Soviet ZOC; 0406 (the city) is the one nearer the German source 0109."""
    g = unit("G", GERMAN, **kw)
    sov = [unit(f"S{i}", SOVIET, formation="red") for i in range(4)]
    at = {"G": "0505", "S0": "0605", "S1": "0606", "S2": "0506", "S3": "0304"}
    return [g] + sov, at


def test_9_5_3_retreat_example_closer_to_supply_and_loses_step():
    """T12."""
    units, at = _retreat_example()
    b = board(units, at, terrain={"0406": "city"}, supply_german={"0109"})
    assert combat.retreat_options(b, ["G"], "0505", 1, GERMAN) == [["0406"]]
    assert combat.zoc_losses(b, "G", ["0406"]) == 1


def test_9_5_3_fewest_zoc_hexes_beats_closer_to_supply():
    units, at = _retreat_example()
    del at["S3"]                       # 0405 is now free of Soviet ZOC
    b = board(units, at, supply_german={"0109"})
    assert combat.retreat_options(b, ["G"], "0505", 1, GERMAN) == [["0405"]]


def test_9_5_4_german_motorized_no_loss_into_zoc_hex_with_german_unit():
    units, at = _retreat_example(motorized=True, formation="2PzG")
    units.append(unit("G2", GERMAN))
    at["G2"] = "0504"
    b = board(units, at, terrain={"0406": "city"}, supply_german={"0109"})
    assert combat.zoc_losses(b, "G", ["0504"]) == 0
    assert combat.retreat_options(b, ["G"], "0505", 1, GERMAN) == [["0504"]]
    # A non-motorized unit still pays there.
    units[0] = unit("G", GERMAN)
    b = board(units, at, terrain={"0406": "city"}, supply_german={"0109"})
    assert combat.zoc_losses(b, "G", ["0504"]) == 1


def test_9_5_3_closer_beats_stacking_then_9_5_5_retreat_goes_on():
    # German unit in 0202, source at 0209 to the south: 0203 is the only
    # neighbour that is closer, and it is full; the retreat carries on.
    g = unit("G", GERMAN)
    f1, f2 = unit("F1", GERMAN), unit("F2", GERMAN)
    b = board([g, f1, f2], {"G": "0202", "F1": "0203", "F2": "0203"}, supply_german={"0209"})
    opts = combat.retreat_options(b, ["G"], "0202", 1, GERMAN)
    assert opts and all(len(p) == 2 and p[0] == "0203" for p in opts)
    assert all(GRID.distance(p[1], "0209") < GRID.distance("0203", "0209") for p in opts)


def test_9_5_6_unbridged_major_river_only_from_start_hex():
    g = unit("G", GERMAN)
    # Retreat of 2 from 0202: 0203 then across the major river 0203|0204 is barred.
    sides = {("0203", "0204"): MAJOR, ("0202", "0203"): MAJOR}
    b = board([g], {"G": "0202"}, sides=sides, supply_german={"0209"})
    for p in combat.retreat_options(b, ["G"], "0202", 2, GERMAN):
        assert p[:2] != ["0203", "0204"]
    # Crossing from the start hex is fine.
    b = board([g], {"G": "0202"}, sides={("0202", "0203"): MAJOR}, supply_german={"0205"})
    assert ["0203", "0204"] in combat.retreat_options(b, ["G"], "0202", 2, GERMAN)


def test_9_5_6_no_major_river_retreat_zoc_to_zoc():
    g = unit("G", GERMAN)
    s = unit("S", SOVIET)
    # Soviet in 0505: 0504 and 0605 are both in its ZOC; only that hexside is open.
    b = board([g, s], {"G": "0504", "S": "0505"}, sides={("0504", "0605"): MAJOR | {"road"}},
              supply_german={"0805"})
    assert all(p[0] != "0605" for p in combat.retreat_options(b, ["G"], "0504", 1, GERMAN))


def test_9_5_8_surrounded_unit_has_no_retreat():
    g = unit("G", GERMAN)
    sov = [unit(f"S{i}", SOVIET, formation="red") for i in range(6)]
    at = {"G": "0505"}
    at.update({f"S{i}": n for i, n in enumerate(GRID.neighbors("0505"))})
    b = board([g] + sov, at, supply_german={"0101"})
    assert combat.retreat_options(b, ["G"], "0505", 1, GERMAN) == []


def test_9_5_8_off_map_retreat_eliminates():
    g = unit("G", GERMAN)
    sov = [unit(f"S{i}", SOVIET, formation="red") for i in range(3)]
    at = {"G": "0101", "S0": "0102", "S1": "0201", "S2": "0202"}
    b = board([g] + sov, at, supply_german={"0909"})
    assert combat.retreat_options(b, ["G"], "0101", 1, GERMAN) == []


def test_9_5_7_retreat_may_overrun_lone_enemy_hq():
    g = unit("G", GERMAN)
    hq = unit("SHQ", SOVIET, kind="hq", command_range=4)
    b = board([g, hq], {"G": "0202", "SHQ": "0203"}, supply_german={"0209"})
    assert combat.retreat_options(b, ["G"], "0202", 1, GERMAN) == [["0203"]]


@settings(max_examples=30, deadline=None)
@given(enemies=st.sets(st.sampled_from([h for h in GRID.hexes() if h != "0505"]), max_size=8),
       friends=st.sets(st.sampled_from(GRID.neighbors("0505") + ["0404", "0606"]), max_size=3),
       length=st.integers(1, 2), source=st.sampled_from(["0101", "0109", "0901", "0909"]))
def test_9_5_3_retreat_options_are_legal_and_all_best_listed(enemies, friends, length, source):
    friends = friends - enemies
    units = [unit("G", GERMAN)] + [unit(f"F{i}", GERMAN) for i in range(len(friends))]
    units += [unit(f"S{i}", SOVIET, formation="red") for i in range(len(enemies))]
    at = {"G": "0505"}
    at.update({f"F{i}": h for i, h in enumerate(sorted(friends))})
    at.update({f"S{i}": h for i, h in enumerate(sorted(enemies))})
    b = board(units, at, supply_german={source})
    opts = combat.retreat_options(b, ["G"], "0505", length, GERMAN)
    enemy_zoc = b.zoc(SOVIET)

    def key(p):
        losses = sum(1 for x in p if x in enemy_zoc)
        d = GRID.distance("0505", source)
        closer = True
        for x in p:
            closer &= GRID.distance(x, source) < d
            d = GRID.distance(x, source)
        return losses, not closer

    for p in opts:
        assert len(p) >= length and len(set(p)) == len(p) and "0505" not in p
        chain = ["0505"] + p
        assert all(GRID.adjacent(x, y) for x, y in zip(chain, chain[1:]))
        assert not any(x in at.values() and x not in friends for x in p)   # no enemy hexes
        assert b.stacking_ok(p[-1], GERMAN, ["G"]) is None
    # Every exact-length path that is best on the rules' keys and may stop is offered.
    free = lambda a, c: c not in set(at.values()) - friends
    allp = retreat_paths("0505", length, GRID.neighbors, free)
    if allp:
        best = min(key(p) for p in allp)
        tops = [p for p in allp if key(p) == best]
        if all(b.stacking_ok(p[-1], GERMAN, ["G"]) is None for p in tops):
            assert sorted(opts) == sorted(tops)


# ------------------------------------------------------------------ 9.6 advance
def test_9_6_advance_example():
    """T13: non-motorized units advance only into the attacked hex; KV-I #2
    (no river crossing) may go on anywhere but across the major river or
    into the German hex; KV-I #1 crossed the major river and must stop."""
    units, at, sides, _ = _ratio_example()
    at = dict(at, EI=at["KV2"])
    del at["G"]
    g2 = unit("G2", GERMAN)
    nbrs = GRID.neighbors("0505")
    german_hex, river_hex = nbrs[4], nbrs[5]
    at["G2"] = german_hex
    sides = dict(sides)
    sides[("0505", river_hex)] = MAJOR
    b = board(units + [g2], at, sides=sides)
    opts = combat.advance_options(b, ["KV1", "C45", "KV2", "EI"], "0505")
    assert opts["EI"] == [["0505"]] and opts["C45"] == [["0505"]]
    assert opts["KV1"] == [["0505"]]
    seconds = {tuple(p) for p in opts["KV2"] if len(p) == 2}
    # RING[0] (KV-I #1's hex) also lies across a major river from 0505.
    assert seconds == {("0505", n) for n in nbrs if n not in (german_hex, river_hex, RING[0])}
    assert ["0505"] in opts["KV2"]


def test_9_6_6_pvo_never_advances():
    p = unit("P", SOVIET, pvo=True, formation="red")
    b = board([p], {"P": RING[0]})
    assert combat.advance_options(b, ["P"], "0505") == {"P": []}
