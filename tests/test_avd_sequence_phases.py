"""The special-purpose chits' phases: Supply (10), Reinforcement (11, 14),
End of Turn and the Hitler Directive (12.5, 15)."""
from __future__ import annotations


import pytest

from pbem.game import IllegalOrder
from fakedice import ScriptedDice
from avd_fixtures import (clear_map, frame, practice_rules, put)
from avd_fixtures import rp_rules

NO_ASK = {"relocate-voluntary": "none", "disband": "none"}


def _supply_state(rules, turn):
    st = rules.initial_state()
    st["turn"] = turn
    st["stack"] = [frame("endturn"), frame("supply", stage="clear")]
    return st


def _german(rules, n=1):
    return [u for u, s in sorted(rules.scn.units.items())
            if s.side == "german" and s.kind == "combat" and s.setup][:n]


def _soviet_tan(rules, n=1):
    return [u for u, s in sorted(rules.scn.units.items())
            if s.side == "soviet" and s.kind == "combat" and s.setup and s.formation == "tan"][:n]


# ------------------------------------------------------------- supply (10)
def test_10_1_supply_chit_clears_oos_then_soviet_marks_up_to_the_track_number():
    rules = practice_rules()
    st = _supply_state(rules, 2)
    g1, g2 = _german(rules, 2)
    st["units"][g1]["oos"] = True
    rules._run(st, ScriptedDice(), [])
    d = rules.pending(st)
    assert (d.side, d.kind) == ("soviet", "oos")
    assert not st["units"][g1]["oos"]                       # 10.1.1
    n = rules.scn.turns[2].german_oos
    too_many = rules.parse("oos " + " ".join(_german(rules, n + 1)), st, "soviet")
    with pytest.raises(IllegalOrder, match=f"up to {n}"):
        rules.apply(st, "soviet", too_many, ScriptedDice())
    st, _ = rules.apply(st, "soviet", rules.parse(f"oos {g1}", st, "soviet"), ScriptedDice())
    assert st["units"][g1]["oos"]                           # 10.1.2: the same unit may be marked again
    assert rules.pending(st).kind == "relocate"


def _ring(rules, st, german_uid, centre):
    """German unit in ``centre`` with Soviet units on every other neighbour:
    no supply line out (10.2.2)."""
    clear_map(st)
    put(st, german_uid, centre)
    grid = rules.board(st).grid
    nbrs = grid.neighbors(centre)
    for s, h in zip(_soviet_tan(rules, 3), nbrs[::2]):
        put(st, s, h)


def test_10_2_a_surrounded_unit_is_isolated_in_the_supply_phase():
    rules = practice_rules()
    st = _supply_state(rules, 2)
    g = _german(rules)[0]
    _ring(rules, st, g, "2516")
    rules._run(st, ScriptedDice(), [])
    st, _ = rules.apply(st, "soviet", {"verb": "pass"}, ScriptedDice())
    assert st["units"][g]["isolated"] is True


def test_10_1_3_and_10_2_4_turn_1_no_german_oos_and_no_german_isolation():
    rules = practice_rules()
    st = _supply_state(rules, 1)
    g = _german(rules)[0]
    _ring(rules, st, g, "2516")
    rules._run(st, ScriptedDice(), [])
    d = rules.pending(st)
    assert d.kind != "oos"                                   # no OoS marking asked on Turn 1
    assert st["units"][g]["isolated"] is False


def test_10_5_disbanding_sends_tan_units_to_the_reserve_and_isolated_ones_out_of_the_game():
    rules = practice_rules()
    st = _supply_state(rules, 3)
    s1, s2 = _soviet_tan(rules, 2)
    rules._run(st, ScriptedDice(), [])
    st, _ = rules.apply(st, "soviet", {"verb": "pass"}, ScriptedDice())          # no OoS
    while rules.pending(st).kind == "relocate":
        d = rules.pending(st)
        st, _ = rules.apply(st, d.side, rules.standing_answer(st, d, NO_ASK), ScriptedDice())
    d = rules.pending(st)
    assert (d.side, d.kind) == ("soviet", "disband")
    st["units"][s2]["isolated"] = True
    st, _ = rules.apply(st, "soviet", rules.parse(f"disband {s1} {s2}", st, "soviet"), ScriptedDice())
    assert st["units"][s1]["where"] == "reserve"
    assert st["units"][s2]["where"] == "removed"


def test_11_1_1_T31_five_points_buy_an_hq_its_chit_and_two_units():
    rules = rp_rules(5)
    st = rules.initial_state()
    st["turn"] = 2
    st["stack"] = [frame("endturn"), frame("reinf", stage="buy")]
    rules._run(st, ScriptedDice(), [])
    assert rules.pending(st).kind == "buy"
    hq = "S-24A-HQ"
    hexes = rules._placement_hexes(st, hq)
    assert hexes and all(st["vp"][h] is not None for h in hexes)     # a Victory Hex holding its chit
    st, _ = rules.apply(st, "soviet", rules.parse(f"buy {hq} {hexes[0]} chit", st, "soviet"), ScriptedDice())
    assert st["stack"][-1]["rp"] == 2
    assert "S-24A" in st["cup"]                                      # the chit went straight in
    units = [u for u, x in sorted(st["units"].items()) if x["where"] == "reserve"
             and rules.scn.units[u].kind == "combat"]
    where = rules._placement_hexes(st, units[0])
    st, _ = rules.apply(st, "soviet", rules.parse(f"buy {units[0]} {where[0]}", st, "soviet"), ScriptedDice())
    with pytest.raises(IllegalOrder, match="costs 2 RP, 1 left"):
        rules.apply(st, "soviet", rules.parse(f"buy S-28A-HQ {hexes[-1]}", st, "soviet"), ScriptedDice())
    where = [h for h in rules._placement_hexes(st, units[1])]
    st, _ = rules.apply(st, "soviet", rules.parse(f"buy {units[1]} {where[0]}", st, "soviet"), ScriptedDice())
    assert rules.pending(st).kind != "buy"                           # 5 = 2 + 1 + 1 + 1 spent
    assert [st["units"][u]["where"] for u in (hq, units[0], units[1])] == ["map"] * 3


def test_11_1_1_an_hq_may_not_be_placed_outside_a_victory_hex():
    rules = rp_rules(5)
    st = rules.initial_state()
    st["turn"] = 2
    st["stack"] = [frame("endturn"), frame("reinf", stage="buy")]
    rules._run(st, ScriptedDice(), [])
    plain = next(h for h in rules.board(st).grid.hexes() if h not in rules.scn.map.victory
                 and not rules.board(st).units_at(h))
    with pytest.raises(IllegalOrder, match="cannot be placed"):
        rules.apply(st, "soviet", rules.parse(f"buy S-24A-HQ {plain}", st, "soviet"), ScriptedDice())


def test_14_turn_4_releases_every_german_and_eliminates_soviet_pocket_units():
    rules = practice_rules()
    st = rules.initial_state()
    st["turn"] = 4
    st["stack"] = [frame("endturn"), frame("reinf", stage="minsk")]
    gm = [u for u, x in st["units"].items() if x["where"] == "minsk" and rules.scn.units[u].side == "german"]
    sm = [u for u, x in st["units"].items() if x["where"] == "minsk" and rules.scn.units[u].side == "soviet"]
    rng = ScriptedDice()
    rules._run(st, rng, [])
    assert all(st["units"][u]["where"] == "removed" for u in sm)
    assert rng.log == []                                             # no Minsk Escape roll on Turn 4
    d = rules.pending(st)
    hqs = [u for u in gm if rules.scn.units[u].kind == "hq"]
    if hqs:                                                          # a 9th Army chit per released HQ
        assert (d.kind, d.private) == ("add9a", True)
        st, _ = rules.apply(st, "german", rules.private_answer(st, d), rng)
        d = rules.pending(st)
    assert (d.side, d.kind) == ("german", "move")
    assert sorted(st["stack"][-1]["entering"]) == sorted(gm)


def test_14_release_rolls_on_the_escape_table_with_the_turn_modifier():
    rules = practice_rules()
    st = rules.initial_state()
    st["turn"] = 3
    st["stack"] = [frame("endturn"), frame("reinf", stage="minsk")]
    rules._run(st, ScriptedDice(), [])
    d = rules.pending(st)
    assert (d.side, d.kind) == ("german", "release")
    unit = next(u for u, x in sorted(st["units"].items()) if x["where"] == "minsk"
                and rules.scn.units[u].side == "german" and rules.scn.units[u].kind == "combat")
    table = rules.scn.minsk_escape
    # value 1; die 1 with the Turn 3 modifier
    mod = table["drm"]["3"]
    expected = int(table["rows"][str(1 + mod)][0].rstrip("V"))
    st, ev = rules.apply(st, "german", rules.parse(f"release {unit}", st, "german"), ScriptedDice(rolls=[(6, 1)]))
    assert any("Minsk escape: value 1" in e.text for e in ev)
    assert st["minsk_drm"] is (expected > 0)
    reinf = next(f for f in st["stack"] if f["k"] == "reinf")
    assert reinf["escapes"] == expected


def test_11_3_from_turn_4_a_d6_moves_star_units_to_the_reserve():
    rules = practice_rules()
    st = rules.initial_state()
    st["turn"] = 4
    st["stack"] = [frame("endturn"), frame("reinf", stage="stars")]
    stars = [u for u, x in st["units"].items() if x["where"] == "stars"]
    rules._run(st, ScriptedDice(rolls=[(6, 2)]), [])
    d = rules.pending(st)
    assert (d.side, d.kind) == ("soviet", "stars")                  # fewer than waiting: Soviet chooses
    st, _ = rules.apply(st, "soviet", rules.parse(d.options[0], st, "soviet"), ScriptedDice(rolls=[(6, 1)]))
    assert sum(st["units"][u]["where"] == "reserve" for u in stars) == 2


# ------------------------------------------------------ end of turn (15)
def test_15_turn_6_directive_roll_sets_objective_moscow():
    rules = practice_rules()
    st = rules.initial_state()
    st["turn"] = 6
    st["stack"] = [frame("endturn")]
    face = next(f for f, r in rules.scn.hitler_directive.items() if r == "moscow")
    rules._run(st, ScriptedDice(rolls=[(6, face)]), [])
    assert st["directive"] == "moscow"
    assert st["turn"] == 7
    assert rules.pending(st).kind == "chits"


def test_15_3_guderians_choice_lets_the_german_pick_and_15_2_distracted_removes_four_panzers():
    rules = practice_rules()
    st = rules.initial_state()
    st["turn"] = 6
    st["stack"] = [frame("endturn")]
    face = next(f for f, r in rules.scn.hitler_directive.items() if r == "choice")
    rules._run(st, ScriptedDice(rolls=[(6, face)]), [])
    d = rules.pending(st)
    assert (d.side, d.kind) == ("german", "directive")
    st, _ = rules.apply(st, "german", rules.parse("directive distracted", st, "german"), ScriptedDice())
    assert st["directive"] == "choice_distracted"
    assert st["turn"] == 7
    d = rules.pending(st)
    assert (d.side, d.kind) == ("german", "withdraw")
    st, _ = rules.apply(st, "german", rules.parse(d.options[0], st, "german"), ScriptedDice())
    gone = [u for u, x in st["units"].items() if x["where"] == "hitler_removed"]
    assert len(gone) == 4 and all(rules.scn.units[u].motorized for u in gone)
    assert not any(x["where"] == "elim_motorized" for x in st["units"].values())   # not eliminated


def test_15_2_hitler_distracted_ends_the_game_after_turn_8():
    rules = practice_rules()
    st = rules.initial_state()
    st["turn"] = 8
    st["directive"] = "distracted"
    st["stack"] = [frame("endturn")]
    rules._run(st, ScriptedDice(), [])
    assert st["winner"] in ("german", "soviet", "draw")
    assert "Hitler Distracted" in rules.result(st)


def test_12_5_hq_with_no_combat_unit_in_range_is_removed_at_the_end_of_turn():
    rules = practice_rules()
    st = rules.initial_state()
    clear_map(st)
    put(st, "S-21A-HQ", "2017")
    st["turn"] = 2
    st["stack"] = [frame("endturn")]
    rules._run(st, ScriptedDice(), [])
    assert st["units"]["S-21A-HQ"]["where"] == "removed"


def test_11_2_timoshenko_must_enter_on_turn_1_and_its_chit_then_goes_in_the_cup():
    rules = practice_rules()
    st = rules.initial_state()
    st["stack"] = [frame("endturn"), frame("reinf", stage="start")]
    waiting = sorted(u for u, x in st["units"].items() if x["where"] == "timoshenko")
    rules._run(st, ScriptedDice(), [])
    d = rules.pending(st)
    assert (d.side, d.kind) == ("soviet", "move")
    with pytest.raises(IllegalOrder, match="must enter"):
        rules.apply(st, "soviet", {"verb": "end-move"}, ScriptedDice())
    entry = set(rules.scn.map.timoshenko_entry)
    for _ in waiting:
        d = rules.pending(st)
        first = next(o for o in d.options if o.split()[0] in ("move", "strat") and "UNIT" not in o)
        assert first.split()[-1] in entry
        st, _ = rules.apply(st, "soviet", rules.parse(first, st, "soviet"), ScriptedDice())
    assert all(st["units"][u]["where"] == "map" for u in waiting)
    st, _ = rules.apply(st, "soviet", {"verb": "end-move"}, ScriptedDice())
    assert rules.pending(st).kind == "combat"                    # 11.2: a full activation
    st, _ = rules.apply(st, "soviet", {"verb": "end-combat"}, ScriptedDice())
    tchit = next(c for c, s in rules.scn.chits.items() if s.kind == "timoshenko")
    assert tchit in st["cup"]


def test_11_1_2_german_reinforcements_enter_then_a_9th_army_chit_goes_in_the_cup():
    rules = practice_rules()
    st = rules.initial_state()
    st["stack"] = [frame("endturn"), frame("reinf", stage="german")]
    arriving = sorted(u for u, x in st["units"].items() if x["where"] == "turn_track"
                      and x["arrives"] == 1 and rules.scn.units[u].side == "german")
    rules._run(st, ScriptedDice(), [])
    d = rules.pending(st)
    assert (d.side, d.kind) == ("german", "move") and arriving
    first = next(o for o in d.options if o.split()[0] in ("move", "strat") and "UNIT" not in o)
    st, _ = rules.apply(st, "german", rules.parse(first, st, "german"), ScriptedDice())
    st, _ = rules.apply(st, "german", {"verb": "end-move"}, ScriptedDice())
    d = rules.pending(st)
    assert (d.kind, d.private) == ("add9a", True)
    st, _ = rules.apply(st, "german", rules.private_answer(st, d), ScriptedDice())
    assert sum(rules.scn.chits[c].kind == "9A" for c in st["cup"] if c in rules.scn.chits) == 1


def test_rule_option_minsk_chits_single_under_moscow():
    from pbem.games.avd import victory
    assert "= 19" in " ".join(victory.score("moscow", 0, 7, 5, 0, minsk_doubled=False)[1])
