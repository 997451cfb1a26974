"""The Victory Roads engine phase by phase on small maps: the face-down
Support draws, red disks, combining and expending Supports, movement, a
whole battle with every defender decision and its standing order, KGs,
Romanian defence, retreats.  Cases of the rule notes' §6 are named after
their id and rule number."""
from __future__ import annotations

import pytest

import vrhelp
from fakedice import ScriptedDice
from pbem.game import IllegalOrder, probe
from pbem.games.vr import losses, supports

u = vrhelp.unit
PRACTICE_SCN = vrhelp.scenario_mod.load(vrhelp.PRACTICE)


def _duel(**units):
    scn = vrhelp.scenario(units=units, terrain={"forest": ["5026"]})
    return vrhelp.rules(scn)


# ------------------------------------------------------------- Supports
def test_support_draws_are_face_down_handles_filled_by_the_owners_secret_stream():
    r = vrhelp.rules(units={"a": u("sov", 4)})
    st = vrhelp.engine_state(r, {"a": "5020"}, {"k": "support", "side": "soviet", "phase": "support", "stage": "start"})
    dice = ScriptedDice([(6, 6, "Soviet Support")])             # 6 - 2 (card) = 4 draws
    r._run(st, dice, [])
    sup = st["supports"]["soviet"]
    assert len(sup["available"]) == 4
    items = st["hidden"]["soviet"]["items"]
    assert set(items) == set(sup["available"])
    assert len({(v["support"], v["copy"]) for v in items.values()}) == 4
    assert supports.pool_size(r.scn, st["supports"], "soviet") == 16 - 4
    # the opponent's program: the same public state, no secrets
    blind = vrhelp.engine_state(r, {"a": "5020"}, {"k": "support", "side": "soviet", "phase": "support",
                                                  "stage": "start"})
    blind["hidden"]["soviet"] = None
    r._run(blind, ScriptedDice([(6, 6)], blind={"soviet"}), [])
    assert blind["supports"] == st["supports"]


def test_an_opening_must_be_a_copy_the_pool_held_drawn_that_turn_and_not_face_up():
    r = vrhelp.rules(units={"a": u("sov", 4)})
    st = vrhelp.engine_state(r, {"a": "5020"}, vrhelp.combat_frame())
    h, = vrhelp.give_supports(st, "soviet", ["zhukov"])
    ok = st["hidden"]["soviet"]["items"][h]
    assert r.check_opening(st, "soviet", h, ok) is None
    assert "never held" in r.check_opening(st, "soviet", h, dict(ok, copy=2))
    assert "not a soviet Support" in r.check_opening(st, "soviet", h, dict(ok, support="model"))
    assert "drawn on turn" in r.check_opening(st, "soviet", h, dict(ok, turn=5))
    st["supports"]["soviet"]["played"].append(["zhukov", 1])
    assert "face up" in r.check_opening(st, "soviet", h, ok)
    assert "not a face-down" in r.check_opening(st, "soviet", "s-99", ok)
    assert r.identity_of("soviet", ok) == "zhukov#1@1"


def test_1_5_3_red_disk_supports_are_shown_and_played_at_once():
    r = vrhelp.rules(units={"a": u("sov", 4)})
    st = vrhelp.engine_state(r, {"a": "5020"}, {"k": "support", "side": "soviet", "phase": "support",
                                                "stage": "redisk", "new": []})
    hs = vrhelp.give_supports(st, "soviet", ["stalin", "zhukov"])
    st["stack"][-1]["new"] = hs
    d = r.pending(st)
    assert d.private and d.kind == "red-disk"
    answer = r.private_answer(st, d)
    assert answer["open"] == [hs[0]]
    with pytest.raises(IllegalOrder, match="every red-disk"):
        r.apply(st, "soviet", {"verb": "reveal", "open": []}, ScriptedDice())     # a program hiding Stalin
    r.apply(st, "soviet", answer, ScriptedDice([(6, 3, "Stalin")]))       # 11.5.2: its die at once
    assert st["supports"]["soviet"]["played"] == [["stalin", 1]]
    assert st["supports"]["soviet"]["available"] == [hs[1]]


def _battle_at_declare(r, placed, side="soviet", **kw):
    st = vrhelp.engine_state(r, placed, vrhelp.combat_frame(side), side=side, **kw)
    return st


def test_T14_5_4_4_supports_of_one_name_or_two_leaders_never_combine():
    r = _duel(a=u("sov", 12, start="5020"), b=u("sov", 6, start="5022"), g=u("ger", 4, start="5021"))
    st = _battle_at_declare(r, {"a": "5020", "b": "5022", "g": "5021"})
    hs = vrhelp.give_supports(st, "soviet", ["artillery_2", "artillery_3", "rybalko", "bogdanov", "zhukov"])
    st["supports"]["soviet"]["available"] = [hs[0], hs[1], hs[4]]     # the leaders went onto a and b (5.4.4)
    st["supports"]["soviet"]["attached"] = {"a": ["rybalko", 1], "b": ["bogdanov", 1]}
    vrhelp.order(r, st, "soviet", "attack 5021 with a b", ScriptedDice())
    assert r.pending(st).kind == "declare"
    order = r.parse(f"declare support {hs[0]} {hs[1]}", st, "soviet")
    assert "cannot be combined" in probe(r, st, "soviet", order)
    assert "two leaders" in probe(r, st, "soviet", r.parse("declare leader a leader b", st, "soviet"))
    assert probe(r, st, "soviet", r.parse(f"declare support {hs[0]} {hs[4]}", st, "soviet")) is None
    assert probe(r, st, "soviet", r.parse(f"declare leader a support {hs[4]}", st, "soviet")) is None


def test_T15_1_5_2_an_air_support_is_expended_under_an_overcast_sky():
    r = vrhelp.rules(units={"g": u("ger", 4)})
    st = vrhelp.engine_state(r, {"g": "5020"}, vrhelp.movement_frame("german"), side="german", sky="overcast")
    h, = vrhelp.give_supports(st, "german", ["luftwaffe"])
    events = vrhelp.order(r, st, "german", f"pay {h}", ScriptedDice())
    assert "expends" in events[0].text
    assert st["supports"]["german"]["played"] == []             # no Event: straight back to the pool
    assert st["supports"]["german"]["available"] == []
    assert st["stack"][-1]["paid"]


def test_5_4_2_no_airplane_event_under_an_overcast_sky():
    r = _duel(a=u("sov", 12), g=u("ger", 4))
    st = _battle_at_declare(r, {"a": "5020", "g": "5021"}, sky="overcast")
    h, = vrhelp.give_supports(st, "soviet", ["air_support"])
    vrhelp.order(r, st, "soviet", "attack 5021 with a", ScriptedDice())
    assert "Overcast" in probe(r, st, "soviet", r.parse(f"declare support {h}", st, "soviet"))


def test_6_2_3_german_strategic_movement_needs_a_support_spent_first():
    r = vrhelp.rules(units={"g": u("ger", 4, move=4), "hq": vrhelp.hq("ger", 6)}, roads={"r": ["5020", "5120"]})
    st = vrhelp.engine_state(r, {"g": "5020", "hq": "5020"}, vrhelp.movement_frame("german"), side="german")
    with pytest.raises(IllegalOrder, match="6.2.3"):
        vrhelp.order(r, st, "german", "strat g 5020 5021", ScriptedDice())


# -------------------------------------------------------------- movement
def test_6_1_8_a_unit_may_always_move_one_hex_and_6_1_7_never_into_the_enemy():
    r = vrhelp.rules(units={"a": u("sov", 4, move=2), "g": u("ger", 4)}, terrain={"forest": ["5021"]})
    st = vrhelp.engine_state(r, {"a": "5020", "g": "5120"}, vrhelp.movement_frame())
    with pytest.raises(IllegalOrder, match="cannot enter 5120"):
        vrhelp.order(r, st, "soviet", "move a 5020 5120", ScriptedDice())
    vrhelp.order(r, st, "soviet", "move a 5020 5021", ScriptedDice())    # forest costs 2 MP, it has 1
    assert st["units"]["a"]["hex"] == "5021"
    with pytest.raises(IllegalOrder, match="already moved"):
        vrhelp.order(r, st, "soviet", "move a 5021 5022", ScriptedDice())


def test_6_1_9_roads_cost_half_and_3_2_2_mud_caps_a_phase_at_two_mp():
    chain = ["5020", "5021", "5022", "5023", "5024", "5025", "5026"]
    r = vrhelp.rules(units={"a": u("sov", 4, move=6)}, roads={"r": chain})
    st = vrhelp.engine_state(r, {"a": "5020"}, vrhelp.movement_frame())
    vrhelp.order(r, st, "soviet", "move a 5026", ScriptedDice())         # 6 road hexes = 3 MP
    assert st["units"]["a"]["hex"] == "5026"
    st = vrhelp.engine_state(r, {"a": "5020"}, vrhelp.movement_frame(), weather="mud")
    with pytest.raises(IllegalOrder, match="cannot reach"):
        vrhelp.order(r, st, "soviet", "move a 5026", ScriptedDice())
    vrhelp.order(r, st, "soviet", "move a 5024", ScriptedDice())         # 2 MP
    assert st["units"]["a"]["hex"] == "5024"


def test_4_6_4_an_out_of_supply_unit_moves_towards_supply_unless_elite():
    r = vrhelp.rules(units={"a": u("sov", 4, move=8), "e": u("sov", 4, move=8, elite=True)},
                     supply={"east_edge": ["6020"]}, roads={"r": ["6020", "6120"]})
    st = vrhelp.engine_state(r, {"a": "5520", "e": "5522"}, vrhelp.movement_frame(), oos=("a", "e"))
    with pytest.raises(IllegalOrder, match="4.6.4"):
        vrhelp.order(r, st, "soviet", "move a 5520 5420", ScriptedDice())
    vrhelp.order(r, st, "soviet", "move a 5520 5620", ScriptedDice())
    vrhelp.order(r, st, "soviet", "move e 5522 5422", ScriptedDice())


# ---------------------------------------------------------------- battles
def _t17():
    """Combat example 1's shape: 22 attack factors (14th Infantry not across
    the river, Feldherrnhalle Elite armor, another armor, an Elite
    infantry) on two Soviet corps in Forest, Out of Supply (10 x 2 / 2)."""
    units = {"14id": u("ger", 4), "fhh": u("ger", 8, arm="armor", elite=True), "pz": u("ger", 4, arm="armor"),
             "gd": u("ger", 6, elite=True), "c1": u("sov", 5), "c2": u("sov", 5)}
    r = vrhelp.rules(units=units, terrain={"forest": ["5026"]})
    placed = {"14id": "5025", "fhh": "4926", "pz": "4926", "gd": "5126", "c1": "5026", "c2": "5026"}
    st = vrhelp.engine_state(r, placed, vrhelp.combat_frame("german"), side="german", oos=("c1", "c2"))
    return r, st


def test_T17_7_8_1_combat_example_1_the_defender_picks_the_first_loss():
    r, st = _t17()
    dice = ScriptedDice([(6, 4, "battle 5026"), (6, 6, "battle 5026")])
    vrhelp.order(r, st, "german", "attack 5026 with 14id fhh pz gd", dice)
    f = st["stack"][-1]
    assert r.strengths(st, f) == (22, 10) and "2:1" in r.odds_text(st, f)
    vrhelp.order(r, st, "german", "declare elite fhh armored", dice)
    d = r.pending(st)
    assert d.seat == "soviet" and d.kind == "first-loss"
    assert set(d.options) == {"first fhh", "first gd", "first pz"}      # any Elite, or an armor
    vrhelp.order(r, st, "soviet", "first fhh", dice)
    assert st["units"]["fhh"]["steps"] == 1
    d = r.pending(st)                                # the Soviet's own 2 losses: one each (7.8.2)
    if d.kind == "losses":
        vrhelp.order(r, st, "soviet", d.options[0], dice)
    d = r.pending(st)
    assert d.kind == "elite-result" and set(d.options) == {"result E", "result E2"}
    vrhelp.order(r, st, "german", "result E2", dice)
    assert f["a_final"] == ["E"]                      # Forest: E2 -> E
    while r.pending(st).kind == "retreat":           # DR2 -> DR in Forest
        vrhelp.order(r, st, "soviet", r.pending(st).options[0], dice)
    d = r.pending(st)
    assert d.kind == "advance"
    vrhelp.order(r, st, "german", "advance 14id", dice)
    d = r.pending(st)
    assert d.kind == "exploit"
    with pytest.raises(IllegalOrder, match="7.14"):
        vrhelp.order(r, st, "german", "exploit fhh pz gd", dice)
    vrhelp.order(r, st, "german", "exploit fhh pz", dice)    # E with Armored Exploitation: two armor (T12)
    assert st["units"]["fhh"]["exploit"] and st["units"]["pz"]["exploit"]
    assert r.pending(st).kind == "combat"


def test_7_6_2_the_defenders_decisions_answer_from_standing_orders():
    r, st = _t17()
    vrhelp.order(r, st, "german", "attack 5026 with 14id fhh pz gd", ScriptedDice([(6, 4), (6, 6)]))
    vrhelp.order(r, st, "german", "declare elite fhh armored", ScriptedDice([(6, 4), (6, 6)]))
    d = r.pending(st)
    assert r.standing_answer(st, d, {"first-loss": "strongest"}) == {"verb": "first", "unit": "fhh"}
    assert r.standing_answer(st, d, {"first-loss": "ask"}) is None


def test_7_15_a_kg_replaces_an_eliminated_elite_division_and_takes_the_losses_still_owed():
    units = {"t1": u("sov", 20, arm="armor"), "t2": u("sov", 20, arm="armor"), "pz": u("ger", 8, arm="armor",
                                                                                      elite=True)}
    r = vrhelp.rules(units=units)
    st = vrhelp.engine_state(r, {"t1": "5020", "t2": "5022", "pz": "5021"}, vrhelp.combat_frame(), steps={"pz": 1})
    st["kg_pool"] = ["kg_pz_1"]                      # the draw can only give the two-step armored KG
    dice = ScriptedDice([(6, 5), (6, 5)])            # 6:1, roll 10: 0/3
    vrhelp.order(r, st, "soviet", "attack 5021 with t1 t2", dice)
    vrhelp.order(r, st, "soviet", "declare none", dice)
    vrhelp.order(r, st, "german", "elite none", dice)
    d = r.pending(st)
    assert d.kind == "kg" and d.seat == "german"
    vrhelp.order(r, st, "german", "kg yes", dice)
    d = r.pending(st)
    assert d.private and d.kind == "kg-reveal"
    r.apply(st, "german", r.private_answer(st, d), dice)
    assert st["units"]["kg_pz_1"]["box"] == "removed"    # the 2 losses still owed eliminate the KG (T18)
    assert st["kg_pool"] == []


def test_D11_7_12_1_a_romanian_only_stack_under_three_steps_spares_a_soviet_loss():
    r = vrhelp.rules(units={"a": u("sov", 3), "rum": u("rum", 2)})
    st = vrhelp.engine_state(r, {"a": "5020", "rum": "5021"}, vrhelp.combat_frame())
    dice = ScriptedDice([(6, 1), (6, 1)])            # 3 against 2 halved (OOS): 3:1, roll 2: 2/1
    vrhelp.order(r, st, "soviet", "attack 5021 with a", dice)
    vrhelp.order(r, st, "soviet", "declare none", dice)
    assert st["units"]["a"]["steps"] == 1            # 2 losses less one


def _rout(placed):
    r = vrhelp.rules(units={"a": u("sov", 30), "r1": u("rum", 1), "r2": u("rum", 1), "g": u("ger", 1)},
                     terrain={"forest": ["5021"]})
    st = vrhelp.engine_state(r, placed, vrhelp.combat_frame())
    dice = ScriptedDice([(6, 3), (6, 4)])            # 6:1, roll 7: 0/2 E3 DR2
    vrhelp.order(r, st, "soviet", "attack 5021 with a", dice)
    vrhelp.order(r, st, "soviet", "declare none", dice)
    d = r.pending(st)
    if d.kind == "losses":                           # two steps, one on each of two units (7.8.2)
        vrhelp.order(r, st, "german", next(o for o in d.options if "g 1" not in o), dice)
    return r, st, dice


def test_D12_7_12_2_romanians_under_dr2_before_terrain_are_eliminated():
    r, st, dice = _rout({"a": "5020", "r1": "5021", "r2": "5021", "g": "5021"})
    d = r.pending(st)
    assert d.kind == "survivor" and d.seat == "german"      # all but one, the German's pick
    vrhelp.order(r, st, "german", "survivor r1", dice)
    assert st["units"]["r2"]["box"] == "eliminated" and st["units"]["r1"]["steps"] == 1
    r, st, dice = _rout({"a": "5020", "r1": "5021", "r2": "5021"})
    assert st["units"]["r1"]["box"] == st["units"]["r2"]["box"] == "eliminated"     # Forest's DR does not save them


# ---------------------------------------------------------------- retreat
def test_7_10_5_axis_retreats_take_the_best_priority_class():
    r = vrhelp.rules(units={"a": u("sov", 6), "g": u("ger", 4)})
    b = vrhelp.board(r.scn, {"a": "5221", "g": "5121"})
    paths = losses.retreat_options(b, "g", 1)
    assert paths and all(losses.direction(b, "5121", p[0]) in ("NW", "SW", "S") for p in paths)
    two = losses.retreat_options(b, "g", 2)
    assert all(b.map.distance("5121", p[-1]) == 2 for p in two)


def test_T29_design_notes_a_card_goal_of_places_held_is_checked_at_the_end():
    from pbem.games.vr import victory
    r = vrhelp.rules(PRACTICE_SCN)
    st = r.initial_state()
    assert victory.check(r, st)[0] == "german"
    for h in r.scn.card.victory["soviet_controls"]:
        st["control"][h] = "soviet"
    winner, lines = victory.check(r, st)
    assert winner == "soviet" and "Soviet victory" in lines[-1]


def test_the_last_turn_ends_the_game_with_its_result():
    r = vrhelp.rules(PRACTICE_SCN)
    st = r.initial_state()
    st["turn"] = r.scn.track.last
    events: list = []
    r.end_of_turn(st, events)
    assert st["winner"] == "german" and r.pending(st) is None and r.result(st)
