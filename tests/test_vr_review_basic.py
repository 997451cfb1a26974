"""Review of the Basic game (rulebook §1-8) against the engine: each test
is a deviation found in the review, named after its rule number, and
states what the rule asks (restated; RULINGS R-2xx where a reading was
needed)."""
from __future__ import annotations

import pytest

import vrhelp
from fakedice import ScriptedDice
from pbem.game import IllegalOrder
from pbem.games.vr import losses

u = vrhelp.unit


def test_7_11_2_german_units_take_the_first_losses_of_a_mixed_attack_but_7_8_2_still_spreads_them():
    scn = vrhelp.scenario(units={"g": u("ger", 4), "h": u("hun", 4), "h2": u("hun", 4)})
    b = vrhelp.board(scn, {"g": "5020", "h": "5020", "h2": "5022"})
    # one loss: the German unit; two: the German can take no second step before the others took one
    assert losses.allocations(b, ["g", "h", "h2"], 1, majors_first=True) == [{"g": 1}]
    assert losses.allocations(b, ["g", "h", "h2"], 2, majors_first=True) == [{"g": 1, "h": 1}, {"g": 1, "h2": 1}]
    # four: one round for all, then the German first again
    assert losses.allocations(b, ["g", "h", "h2"], 4, majors_first=True) == [{"g": 2, "h": 1, "h2": 1}]


def _attacker_wiped_out():
    """A Soviet corps alone attacks two German divisions at 1:2 and rolls 2
    (2/0 on the practice CRT): it is eliminated, its hex is empty."""
    r = vrhelp.rules(units={"a": u("sov", 2, steps=1), "g1": u("ger", 2), "g2": u("ger", 2), "g3": u("ger", 2)})
    st = vrhelp.engine_state(r, {"a": "5020", "g1": "5021", "g2": "5021", "g3": "5021"}, vrhelp.combat_frame())
    dice = ScriptedDice([(6, 1), (6, 1)])
    vrhelp.order(r, st, "soviet", "attack 5021 with a", dice)
    vrhelp.order(r, st, "soviet", "declare none", dice)
    assert st["units"]["a"]["box"] == "eliminated"
    return r, st, dice


def test_7_13_1_the_defender_may_advance_several_units_into_the_emptied_attacking_hex():
    r, st, dice = _attacker_wiped_out()
    d = r.pending(st)
    assert d.kind == "advance" and d.seat == "german"
    vrhelp.order(r, st, "german", "advance g1 g2 5020", dice)
    assert st["units"]["g1"]["hex"] == st["units"]["g2"]["hex"] == "5020"
    d = r.pending(st)                                   # g3 may still follow, one order at a time
    assert d.kind == "advance" and "advance g3 5020" in d.options
    vrhelp.order(r, st, "german", "advance g3 5020", dice)
    assert st["units"]["g3"]["hex"] == "5020"
    assert r.pending(st).kind == "combat"



def test_7_15_1_a_kg_replacing_an_attacking_elite_division_takes_its_place_in_the_battle():
    r = vrhelp.rules(units={"e": u("ger", 4, steps=1, elite=True), "s": u("sov", 4), "s2": u("sov", 2)})
    st = vrhelp.engine_state(r, {"e": "5020", "s": "5021", "s2": "5121"}, vrhelp.combat_frame("german"),
                             side="german")
    dice = ScriptedDice([(6, 3), (6, 4)])               # 1:1, roll 7: 1/1, attacker -, defender DR
    vrhelp.order(r, st, "german", "attack 5021 with e", dice)
    vrhelp.order(r, st, "german", "declare none", dice)
    d = r.pending(st)
    assert d.kind == "kg"
    vrhelp.order(r, st, "german", "kg yes", dice)
    assert st["units"]["kg_inf_1"]["hex"] == "5020"
    f = next(x for x in st["stack"] if x["k"] == "battle")
    assert "kg_inf_1" in f["att"]                       # it replaces the division: the battle's results reach it
    assert st["units"]["kg_inf_1"]["attacked"]
    top = {"side": "german", "mode": "combat"}
    assert "already attacked" in r.attack_check(st, top, "5121", ["kg_inf_1"])    # 7.1.9: not a fresh unit


def test_6_1_10_an_hq_may_end_next_to_the_enemy_where_it_then_traces_a_supply_route():
    """The HQ's own presence makes its hex friendly-occupied, so an SR may
    be traced from it (4.1.1); only an SR that cannot be traced refuses."""
    r = vrhelp.rules(units={"hq": vrhelp.hq("sov", 4), "s": u("sov", 4), "g": u("ger", 4)},
                     roads={"r": ["5020", "5021", "5022", "5023"]}, supply={"east_edge": ["5023"]})
    st = vrhelp.engine_state(r, {"hq": "5020", "s": "5022", "g": "4922"}, vrhelp.movement_frame())
    vrhelp.order(r, st, "soviet", "move hq 5020 5021", ScriptedDice())
    assert st["units"]["hq"]["hex"] == "5021"
    st = vrhelp.engine_state(r, {"hq": "5020", "g": "4922"}, vrhelp.movement_frame())     # 5022 empty: blocked
    with pytest.raises(IllegalOrder, match="6.1.10"):
        vrhelp.order(r, st, "soviet", "move hq 5020 5021", ScriptedDice())


def test_4_4_2_and_6_5_2_only_baltic_ports_supply_the_german_and_carry_naval_moves():
    from pbem.games.vr import moves, supply
    scn = vrhelp.scenario(units={"g": u("ger", 4)}, ports={"baltic": ["5020", "5030"], "black": ["6020", "6030"]})
    b = vrhelp.board(scn, {"g": "6020"})
    src = supply.sources(b, "german")
    assert {"5020", "5030"} <= src and not {"6020", "6030"} & src
    assert "Baltic" in (moves.naval_refusal(b, "g", "6030", 3, []) or "")
    b = vrhelp.board(scn, {"g": "5020"})
    assert moves.naval_refusal(b, "g", "5030", 3, []) is None


def _mud_eng(options=None):
    """Three Soviet corps attack at 1:2 in Mud and roll 9 (1/1, A "E"):
    the E becomes Eng, whose re-roll of 2 (2/0) only the attacker takes."""
    from pbem.games.vr.rules import VrRules
    scn = vrhelp.scenario(units={"a1": u("sov", 3), "a2": u("sov", 3), "a3": u("sov", 3), "g": u("ger", 16)})
    r = VrRules(scn, options)
    st = vrhelp.engine_state(r, {"a1": "5020", "a2": "5020", "a3": "5020", "g": "5021"}, vrhelp.combat_frame(),
                             weather="mud")
    dice = ScriptedDice([(6, 4), (6, 5), (6, 1), (6, 1)], seed=1)
    vrhelp.order(r, st, "soviet", "attack 5021 with a1 a2 a3", dice)
    vrhelp.order(r, st, "soviet", "declare none", dice)
    vrhelp.order(r, st, "soviet", "loss a1 1", dice)
    while r.pending(st).kind != "losses":
        d = r.pending(st)
        vrhelp.order(r, st, d.seat, d.options[0], dice)
    return r, st


def test_R_39_option_eng_losses_attrition_spreads_the_eng_losses_as_7_8_2_does():
    r, st = _mud_eng()
    assert "loss a2 2" in r.pending(st).options                     # the ruling: placed freely (7.9.6)
    r, st = _mud_eng({"eng_losses": "attrition"})
    opts = r.pending(st).options
    assert opts and all(" 2" not in o for o in opts)               # the option: one each first (7.8.2)


def test_6_2_1_a_strategic_move_is_made_entirely_inside_a_command_radius_its_start_hex_too():
    r = vrhelp.rules(units={"a": u("sov", 4, move=4), "hq": vrhelp.hq("sov", 2)}, supply={"east_edge": ["5025"]})
    st = vrhelp.engine_state(r, {"a": "5022", "hq": "5025"}, vrhelp.movement_frame())
    with pytest.raises(IllegalOrder, match="6.2.1"):
        vrhelp.order(r, st, "soviet", "strat a 5022 5023 5024", ScriptedDice())
    st = vrhelp.engine_state(r, {"a": "5023", "hq": "5025"}, vrhelp.movement_frame())
    vrhelp.order(r, st, "soviet", "strat a 5023 5024", ScriptedDice())
    assert st["units"]["a"]["hex"] == "5024"


def test_7_13_2_an_attacker_that_retreated_in_the_battle_does_not_advance():
    """R-202: the advance goes from the hexes the attack came from; a unit
    its own S or DR moved away (7.10) has left them.  (The practice CRT has
    no attacker retreat: this table's 6:1 roll 7 gives 0/3 DR to both.)"""
    data = vrhelp.mini(units={"a": u("sov", 20), "b": u("sov", 20), "g": u("ger", 2, steps=1)})
    data["crt"]["cells"]["6:1"][7] = "0/3 DR:blue DR:blue"
    r = vrhelp.rules(vrhelp.scenario_mod.load(data))
    st = vrhelp.engine_state(r, {"a": "5020", "b": "5022", "g": "5021"}, vrhelp.combat_frame())
    dice = ScriptedDice([(6, 3), (6, 4)])
    vrhelp.order(r, st, "soviet", "attack 5021 with a b", dice)
    vrhelp.order(r, st, "soviet", "declare none", dice)
    while r.pending(st).kind == "retreat":
        d = r.pending(st)
        vrhelp.order(r, st, d.seat, next(o for o in d.options if not o.endswith("5021")), dice)
    assert st["units"]["a"]["hex"] not in ("5020", "5021") and st["units"]["b"]["hex"] not in ("5022", "5021")
    d = r.pending(st)
    assert d.kind != "advance" or not [o for o in d.options if o.startswith("advance")]


def test_4_1_3_a_pontoon_bridges_a_hexside_of_the_hq_s_own_hex_only():
    """A Pontoon HQ forced out of its hex (a retreat, 7.10) no longer
    bridges the hexside it left; it stays on its Pontoon side until its
    next Supply phase (4.1.4)."""
    scn = vrhelp.scenario(units={"hq": vrhelp.hq("sov", 4)}, hexsides={"major_river": ["5020|5021"]})
    b = vrhelp.board(scn, {"hq": "5020"})
    b.state["units"]["hq"]["pontoon"] = "5020|5021"
    assert vrhelp.Board(scn, b.profile, b.state).bridged("5020", "5021")
    b.state["units"]["hq"]["hex"] = "5019"
    assert not vrhelp.Board(scn, b.profile, b.state).bridged("5020", "5021")


def test_1_9_2_an_out_of_supply_unit_moving_strategically_keeps_its_printed_mp():
    """Halved (4.6.2) and doubled (6.2.2): unchanged, not 3 -> 2 -> 4 MP."""
    from pbem.games.vr import moves
    scn = vrhelp.scenario(units={"a": u("sov", 4, move=6)})
    b = vrhelp.board(scn, {"a": "5020"})
    b.state["units"]["a"]["oos"] = True
    assert moves.allowance(b, "a", "normal") == 4             # 3 MP halved: 2
    assert moves.allowance(b, "a", "strategic") == 6          # halved and doubled: 3
    b.state["units"]["a"]["oos"] = False
    assert moves.allowance(b, "a", "strategic") == 12
    b.state["units"]["a"]["oos"] = True
    b.state["halved"] = True                                  # two halvings, one cancelled by the doubling
    assert moves.allowance(b, "a", "strategic") == 4


def test_6_1_10_an_hq_does_not_sail_to_a_port_where_it_cannot_trace_a_supply_route():
    r = vrhelp.rules(units={"hq": vrhelp.hq("ger", 4)}, ports={"baltic": ["5020", "5420"]})
    st = vrhelp.engine_state(r, {"hq": "5020"}, vrhelp.movement_frame("german"), side="german")
    for n in r.scn.map.neighbors("5420")[:4]:
        st["control"][n] = "soviet"                     # 4.4.2: no longer a source; no road leaves it
    with pytest.raises(IllegalOrder, match="6.1.10"):
        vrhelp.order(r, st, "german", "naval hq 5420", ScriptedDice())


def test_4_1_1_a_supply_route_is_not_traced_into_an_empty_source_next_to_the_enemy():
    from pbem.games.vr import supply
    scn = vrhelp.scenario(units={"hq": vrhelp.hq("sov", 4), "s": u("sov", 4), "g": u("ger", 4)},
                          roads={"r": ["5020", "5021", "5022", "5023"]}, supply={"east_edge": ["5023"]})
    b = vrhelp.board(scn, {"hq": "5020", "g": "5124"})
    assert not supply.hq_supplied(b, "hq")               # the source hex is entered last: blocked like any other
    b = vrhelp.board(scn, {"hq": "5020", "g": "5124", "s": "5023"})
    assert supply.hq_supplied(b, "hq")                   # held by a friendly unit: open
