"""The Basic rules the first engine left out, through the engine on small
maps: Haltebefehl (6.7), Naval Movement and the evacuation table (6.5),
reinforcements by rail (6.4.5), leaders attached to a unit (5.4.4), the
minor allies' borders (1.7.5), the Approval track with Withdrawal against
the Führer's will (4.7), Abandon equipment (6.3) and Dismissal (15.3), and
the Ju-52 supply Event (4.2.1).  Cases of the rule notes' §6 are named
after their id and rule number."""
from __future__ import annotations

import pytest

import vrhelp
from fakedice import ScriptedDice
from pbem.game import IllegalOrder, probe
from pbem.games.vr import approval, haltebefehl

u = vrhelp.unit
APPROVAL = {"approval_track": True}


def _german_move(r, placed, **kw):
    return vrhelp.engine_state(r, placed, vrhelp.movement_frame("german"), side="german", **kw)


# ------------------------------------------------------------- Haltebefehl
def _halt_map(**kw):
    units = {"g1": u("ger", 4), "g2": u("ger", 4), "g3": u("ger", 4), "g4": u("ger", 4),
             "s1": u("sov", 5), "s2": u("sov", 5), "s3": u("sov", 5), **kw.pop("units", {})}
    return vrhelp.rules(units=units, cities={"major": ["5020", "5024"], "minor": ["5027"]},
                        countries={"germany": ["5024"]}, **kw)


def test_6_7_1_markers_go_on_major_cities_with_a_german_division_at_the_start_of_the_phase():
    r = _halt_map()
    st = _german_move(r, {"g1": "5020", "g2": "5024", "g3": "5027"})
    for text, why in (("halt 5027", "neither a Major City"), ("halt 5022", "neither a Major City")):
        assert why in probe(r, st, "german", r.parse(text, st, "german"))
    vrhelp.order(r, st, "german", "halt 5020", ScriptedDice())
    vrhelp.order(r, st, "german", "halt 5024", ScriptedDice())
    assert st["haltebefehl"] == {"5020": "plain", "5024": "garrison"}        # 6.7.2: the valued side in Germany
    assert "already" in probe(r, st, "german", r.parse("halt 5020", st, "german"))
    vrhelp.order(r, st, "german", "move g3 5028", ScriptedDice())
    assert "before any move" in probe(r, st, "german", r.parse("unhalt 5020", st, "german"))


def test_6_7_3_at_most_ten_markers():
    r = _halt_map()
    st = _german_move(r, {"g1": "5020"})
    st["haltebefehl"] = {f"60{n:02d}": "plain" for n in range(14, 24)}
    assert "10 Haltebefehl markers" in probe(r, st, "german", r.parse("halt 5020", st, "german"))


def test_6_7_6_a_marker_next_to_a_soviet_division_stays_with_one_division_under_it():
    r = _halt_map()
    st = _german_move(r, {"g1": "5020", "g2": "5020", "s1": "5021"}, haltebefehl={"5020": "plain"})
    assert "6.7.6" in probe(r, st, "german", r.parse("unhalt 5020", st, "german"))
    assert "6.7.6" in probe(r, st, "german", r.parse("move g1 g2 5019", st, "german"))
    vrhelp.order(r, st, "german", "move g1 5019", ScriptedDice())        # one division stays: legal
    assert st["haltebefehl"] == {"5020": "plain"}


def test_6_7_9_a_marker_without_values_goes_when_no_german_unit_is_left():
    r = _halt_map()
    st = _german_move(r, {"g1": "5020"}, haltebefehl={"5020": "plain"})
    vrhelp.order(r, st, "german", "move g1 5019", ScriptedDice())
    assert st["haltebefehl"] == {}


def _isolated():
    """5020 under a marker, three Soviet corps around it, no road: no SR."""
    r = _halt_map()
    placed = {"g1": "5020", "s1": "5019", "s2": "5021", "s3": "4920"}
    return r, placed


def test_6_7_5_an_isolated_haltebefehl_cannot_attack_and_its_defender_row_changes():
    r, placed = _isolated()
    st = vrhelp.engine_state(r, placed, vrhelp.combat_frame("german"), side="german",
                             haltebefehl={"5020": "plain"})
    assert haltebefehl.isolated(r.board(st), "5020")
    assert "6.7.5" in probe(r, st, "german", r.parse("attack 5021 with g1", st, "german"))
    # the Soviet attacks it: the defender's DR2 becomes Eng, an S is ignored (6.7.5, R-37)
    st = vrhelp.engine_state(r, placed, vrhelp.combat_frame(), haltebefehl={"5020": "plain"})
    vrhelp.order(r, st, "soviet", "attack 5020 with s1 s2 s3", ScriptedDice())
    f = st["stack"][-1]
    assert f["isolated"]
    f.update(d_pick="DR2", a_pick="-", row="terrain", terrain="major_city")
    assert r.tactical_codes(st, f, "defender") == ("Eng",)
    f["d_pick"] = "S"
    assert r.tactical_codes(st, f, "defender") == ("-",)


def test_6_7_7_units_entering_an_isolated_marker_stop_and_an_overstack_is_eliminated_at_once():
    r, placed = _isolated()
    placed |= {"g2": "5020", "g3": "5020", "g4": "5120"}
    st = _german_move(r, placed, haltebefehl={"5020": "plain"})
    assert "ends there" in probe(r, st, "german", r.parse("move g4 5020 4921", st, "german"))
    vrhelp.order(r, st, "german", "move g4 5020", ScriptedDice())    # a fourth division: allowed in, then culled
    d = r.pending(st)
    assert d.kind == "overstack" and d.seat == "german"
    vrhelp.order(r, st, "german", "eliminate g4", ScriptedDice())
    assert r.pending(st).kind == "move" and st["units"]["g4"]["box"] == "eliminated"


def test_6_7_8_the_garrison_adds_one_defense_and_takes_the_last_step():
    r = _halt_map(units={"t": u("sov", 30, arm="armor")})
    st = vrhelp.engine_state(r, {"g1": "5024", "t": "5025"}, vrhelp.combat_frame(), steps={"g1": 1},
                             haltebefehl={"5024": "garrison"})
    vrhelp.order(r, st, "soviet", "attack 5024 with t", ScriptedDice())
    f = st["stack"][-1]
    f["terrain"] = "clear"
    assert r.strengths(st, f)[1] == 2 + 1                            # g1 reduced (2) + the 0-1-0 garrison
    events: list = []
    r.take_losses(st, f, "german", {"g1": 1}, events, 3)
    assert "5024" not in st["haltebefehl"] and any("garrison" in e.text for e in events)


# ----------------------------------------------------------------- naval
def _ports(**units):
    return vrhelp.rules(units=units, ports={"baltic": ["5020", "5420", "5820"]}, terrain={"sea": ["5120", "5220"]})


def test_T09_6_5_the_last_unit_in_a_port_next_to_the_enemy_rolls_before_sailing():
    r = _ports(inf=u("ger", 4), pz=u("ger", 8, arm="armor"), s=u("sov", 5))
    st = _german_move(r, {"inf": "5020", "pz": "5020", "s": "5021"})
    dice = ScriptedDice([(6, 2, "evacuation")])
    vrhelp.order(r, st, "german", "naval pz 5420", dice)              # 2 points, not the last unit: no roll
    assert st["units"]["pz"]["hex"] == "5420" and st["stack"][-1]["naval"] == 1
    events = vrhelp.order(r, st, "german", "naval inf 5420", dice)    # the last one: rolls 2
    assert any("cancelled" in e.text for e in events)
    assert st["units"]["inf"]["hex"] == "5020" and st["stack"][-1]["naval"] == 0   # the point is spent
    assert st["units"]["inf"]["stuck"] == st["turn"] and not r.may_move(st, "inf", st["stack"][-1])


def test_6_5_3_a_three_costs_a_step_and_the_unit_sails():
    r = _ports(inf=u("ger", 4), s=u("sov", 5))
    st = _german_move(r, {"inf": "5020", "s": "5021"})
    vrhelp.order(r, st, "german", "naval inf 5420", ScriptedDice([(6, 3, "evacuation")]))
    assert st["units"]["inf"]["hex"] == "5420" and st["units"]["inf"]["steps"] == 1


def test_6_5_2_the_port_of_arrival_is_german_never_soviet_and_not_surrounded():
    r = _ports(inf=u("ger", 4), pz=u("ger", 8, arm="armor"), a=u("sov", 5))
    st = _german_move(r, {"inf": "5020", "pz": "5019"})
    assert "not in a port" in probe(r, st, "german", r.parse("naval pz 5420", st, "german"))
    st["soviet_ever"] = ["5820"]
    assert "never held" in probe(r, st, "german", r.parse("naval inf 5820", st, "german"))
    assert "same sea" in probe(r, st, "german", r.parse("naval inf 5021", st, "german"))
    vrhelp.order(r, st, "german", "move pz 5018", ScriptedDice())
    assert "already moved" in probe(r, st, "german", r.parse("naval pz 5420", st, "german"))
    st["stack"][-1]["naval"] = 0
    assert "points" in probe(r, st, "german", r.parse("naval inf 5420", st, "german"))


# --------------------------------------------------------- rail in R&R
def test_6_4_5_german_reinforcements_go_on_by_rail_with_the_points_left():
    data = vrhelp.mini(units={"new": u("ger", 4), "s": u("sov", 5)}, cities={"major": ["5020"]},
                       countries={"germany": ["5020"]}, railroads={"r": ["5020", "5120", "5220", "5320"]})
    data["card"]["arrivals"] = {}                        # 17.2.1: a German city in Germany
    r = vrhelp.rules(vrhelp.scenario_mod.load(data))
    st = vrhelp.engine_state(r, {"s": "5830"}, {"k": "rr", "side": "german", "phase": "rr"}, side="german",
                             rail_left={"turn": 1, "left": 1})
    st["units"]["new"].update(hex=None, box="arriving")
    r._run(st, ScriptedDice(seed=1), [])
    d = r.pending(st)
    assert d.kind == "place"
    vrhelp.order(r, st, "german", "place new 5020", ScriptedDice())
    d = r.pending(st)
    assert d.kind == "rr-rail" and "rail new 5320" in d.options
    vrhelp.order(r, st, "german", "rail new 5320", ScriptedDice(seed=1))
    assert st["units"]["new"]["hex"] == "5320" and st["rail_left"]["left"] == 0
    assert r.pending(st) is None or r.pending(st).kind != "rr-rail"


# ------------------------------------------------------------- leaders
def test_5_4_4_a_leader_is_attached_to_one_unit_and_goes_back_with_it():
    r = vrhelp.rules(units={"a": u("sov", 12), "b": u("sov", 6), "g": u("ger", 4)})
    st = vrhelp.engine_state(r, {"a": "5020", "b": "5022", "g": "5021"},
                             {"k": "support", "side": "soviet", "phase": "support", "stage": "events"})
    h1, h2, h3 = vrhelp.give_supports(st, "soviet", ["rybalko", "bogdanov", "zhukov"])
    d = r.pending(st)
    assert d.kind == "events"
    assert "not a leader" in probe(r, st, "soviet", r.parse(f"attach {h3} a", st, "soviet"))
    vrhelp.order(r, st, "soviet", f"attach {h1} a", ScriptedDice())
    assert st["supports"]["soviet"]["attached"] == {"a": ["rybalko", 1]}
    assert "one leader a unit" in probe(r, st, "soviet", r.parse(f"attach {h2} a", st, "soviet"))
    events: list = []
    r.eliminate(st, "a", events)
    assert st["supports"]["soviet"]["attached"] == {} and "back to its pool" in events[0].text


def test_5_4_4_an_attached_leader_leads_its_units_attack_and_leaves_at_the_next_support_phase():
    r = vrhelp.rules(units={"a": u("sov", 12), "g": u("ger", 4)})
    st = vrhelp.engine_state(r, {"a": "5020", "g": "5021"}, vrhelp.combat_frame())
    st["supports"]["soviet"]["attached"] = {"a": ["rybalko", 1]}
    vrhelp.order(r, st, "soviet", "attack 5021 with a", ScriptedDice())
    assert "declare leader a" in r.pending(st).options
    f = st["stack"][-1]
    vrhelp.order(r, st, "soviet", "declare leader a", ScriptedDice(seed=3))
    assert f["shift"] == 1
    st2 = vrhelp.engine_state(r, {"a": "5020"}, {"k": "support", "side": "soviet", "phase": "support",
                                                 "stage": "start"})
    st2["supports"]["soviet"]["attached"] = {"a": ["rybalko", 1]}
    r._run(st2, ScriptedDice([(6, 1, "Soviet Support")]), [])
    assert st2["supports"]["soviet"]["attached"] == {}               # 5.2.1: played last turn, back now


# ----------------------------------------------------------- 1.7.5
def test_1_7_5_hungarians_and_romanians_stay_out_of_each_others_country():
    r = vrhelp.rules(units={"h": u("hun", 3), "m": u("rum", 3)},
                     countries={"hungary": ["5020", "5021"], "romania": ["5120", "5121"]})
    st = _german_move(r, {"h": "5020", "m": "5121"})
    assert probe(r, st, "german", r.parse("move h 5120", st, "german"))
    assert probe(r, st, "german", r.parse("move m 5021", st, "german"))
    st["allies"]["rum"] = "soviet"                       # once one of them changed sides the border opens
    assert probe(r, st, "german", r.parse("move h 5120", st, "german")) is None


# ------------------------------------------------ the Approval track (§15)
def _approval_rules(level, foa, **kw):
    units = {"g1": u("ger", 4), "g2": u("ger", 4), "hq": vrhelp.hq("ger", 4), "s": u("sov", 5),
             "pz1": u("ger", 8, arm="armor"), "pz2": u("ger", 8, arm="armor"), **kw.pop("units", {})}
    return vrhelp.rules(units=units, switches=APPROVAL, markers={"approval": level, "foa": foa}, **kw)


def test_4_7_withdrawal_and_6_3_abandon_need_the_approval_track():
    r = vrhelp.rules(units={"hq": vrhelp.hq("ger", 4)})
    st = _german_move(r, {"hq": "5020"})
    hs = vrhelp.give_supports(st, "german", ["luftwaffe", "model"])
    assert "Approval track" in probe(r, st, "german", r.parse(f"abandon hq {hs[0]} {hs[1]}", st, "german"))
    st = vrhelp.engine_state(r, {"hq": "5020"}, {"k": "supply", "side": "german", "phase": "supply",
                                                 "stage": "units"}, side="german")
    r._run(st, ScriptedDice(), [])
    assert r.pending(st) is None or r.pending(st).kind != "withdraw"


def test_T06_4_7_withdrawal_against_the_fuhrers_will():
    r = _approval_rules(3, 0)
    st = vrhelp.engine_state(r, {"g1": "5024", "g2": "5030", "s": "5025", "hq": "5020"},
                             {"k": "supply", "side": "german", "phase": "supply", "stage": "units"}, side="german")
    st["approval"] = approval.new_state(r)
    r._run(st, ScriptedDice(), [])
    d = r.pending(st)
    assert d.kind == "withdraw" and d.seat == "german"
    vrhelp.order(r, st, "german", "withdraw 5023", ScriptedDice())
    assert "cannot make a Withdrawal move" in probe(r, st, "german", r.parse("move g2 5029", st, "german"))
    assert "best retreat" in probe(r, st, "german", r.parse("move g1 5124", st, "german"))
    vrhelp.order(r, st, "german", "move g1 4924 4823", ScriptedDice())   # north-west and away, twice (7.10.5)
    vrhelp.order(r, st, "german", "done", ScriptedDice())
    a = st["approval"]
    assert (a["foa"], a["level"], a["dismissals"]) == (1, 2, 0)         # FoA box 1 (value 1): 3 -> 2
    assert st["units"]["g1"]["no_attack"] and st["units"]["g1"]["hex"] == "4823"


def test_T07_6_3_abandon_equipment_then_a_dismissal_for_the_next_movement_phase():
    r = _approval_rules(2, 1, roads={"r": ["5020", "5021", "5022", "5023", "5024"]}, cities={"minor": ["5020"]},
                        countries={"germany": ["5020"]})
    st = _german_move(r, {"g1": "5022", "s": "5122", "hq": "5020", "g2": "5021"})
    st["approval"] = approval.new_state(r)
    hs = vrhelp.give_supports(st, "german", ["luftwaffe", "model", "heinrici"])
    assert "6.2.3" in probe(r, st, "german", r.parse("strat g1 4923", st, "german"))
    vrhelp.order(r, st, "german", f"abandon hq {hs[0]} {hs[1]}", ScriptedDice())
    top = st["stack"][-1]
    assert "g1" in top["abandon_units"]
    assert "6.3" in probe(r, st, "german", r.parse("move hq 5019", st, "german"))
    vrhelp.order(r, st, "german", "strat g1 4923", ScriptedDice())      # from next to the enemy, no 6.2.3 Support
    assert st["units"]["g1"]["hex"] == "4923" and not top["paid"]
    events = vrhelp.order(r, st, "german", "end-move", ScriptedDice())
    a = st["approval"]
    assert a["foa"] == 2 and a["dismissals"] == 1 and a["level"] == 10        # 2 - 2 = 0: Dismissal, reset 10
    assert st["supports"]["german"]["available"] == []                        # heinrici lost to the pool
    assert any("Dismissal" in e.text for e in events) and a["moves"]
    # the next German Movement phase: halved, no Strategic Movement (15.3.1)
    st["stack"] = [{"k": "turn", "step": 3, "go": True}, {"k": "pturn", "side": "german", "i": 3, "cur": None}]
    r._run(st, ScriptedDice(), [])
    assert st["stack"][-1]["k"] == "movement" and st["halved"] and not a["moves"]
    assert "15.3.1" in probe(r, st, "german", r.parse("strat g2 4921", st, "german"))


def test_D10_15_2_2_an_armored_attack_with_two_german_armored_divisions_raises_approval():
    r = _approval_rules(5, 0, units={"kg": u("ger", 5, arm="armor", kind="kg")})
    for attackers, gain in (("pz1 pz2", 1), ("pz1 kg", 0)):
        placed = {"pz1": "5020", "pz2": "5022", "kg": "5022", "s": "5021"}
        st = vrhelp.engine_state(r, placed, vrhelp.combat_frame("german"), side="german")
        st["approval"] = approval.new_state(r)
        vrhelp.order(r, st, "german", f"attack 5021 with {attackers}", ScriptedDice())
        vrhelp.order(r, st, "german", "declare armored", ScriptedDice(seed=1))
        assert st["approval"]["level"] == 5 + gain


def test_15_2_1_a_german_hq_eliminated_costs_one_and_each_german_rr_phase_one():
    r = _approval_rules(5, 0)
    st = vrhelp.engine_state(r, {"hq": "5020"}, {"k": "rr", "side": "german", "phase": "rr"}, side="german")
    st["approval"] = approval.new_state(r)
    r._run(st, ScriptedDice(seed=1), [])
    assert st["approval"]["level"] == 4
    r.eliminate(st, "hq", [])
    assert st["approval"]["level"] == 3


def test_15_3_2_the_memel_loss_beyond_zero_is_taken_after_the_reset():
    r = _approval_rules(3, 2)
    st = _german_move(r, {"g1": "5020"})
    st["approval"] = approval.new_state(r) | {"dismissals": 3, "max": 8}
    approval.change(r, st, -4, [], "Memel captured without a Haltebefehl (-3) and a Baltic port (-1)")
    assert (st["approval"]["level"], st["approval"]["max"], st["approval"]["dismissals"]) == (6, 7, 4)
    approval.change(r, st, 5, [], "test")
    assert st["approval"]["level"] == 7                                 # never above Maximum Satisfaction


# ----------------------------------------------------------------- Ju-52
def test_4_2_1_the_ju52_event_keeps_one_hex_in_supply():
    r = vrhelp.rules(units={"g": u("ger", 4), "s": u("sov", 5)})
    st = vrhelp.engine_state(r, {"g": "5020", "s": "5025"}, {"k": "supply", "side": "german", "phase": "supply",
                                                             "stage": "hq"}, side="german")
    h, = vrhelp.give_supports(st, "german", ["ju52"])
    r._run(st, ScriptedDice(), [])
    d = r.pending(st)
    assert d.kind == "pontoon" and "airlift" in d.hint
    st["sky"] = "overcast"
    assert "Overcast" in probe(r, st, "german", r.parse(f"airlift {h} 5020", st, "german"))
    st["sky"] = "clear"
    events = vrhelp.order(r, st, "german", f"airlift {h} 5020", ScriptedDice())
    assert st["airlift"] == ["5020"] and not st["units"]["g"]["oos"]          # no HQ, no source: yet supplied
    assert any("plays Ju-52" in e.text for e in events)


def test_15_3_1_a_dismissal_sends_every_available_german_support_back_to_the_pool():
    r = _approval_rules(1, 0)
    st = _german_move(r, {"g1": "5020"})
    st["approval"] = approval.new_state(r)
    vrhelp.give_supports(st, "german", ["luftwaffe", "model"])
    approval.change(r, st, -1, [], "test")
    a = st["approval"]
    assert (a["level"], a["max"], a["moves"], a["no_rp"], a["flipped"]) == (10, None, True, True, True)
    assert st["supports"]["german"]["available"] == [] and st["hidden"]["german"]["items"] == {}
    with pytest.raises(IllegalOrder):
        vrhelp.order(r, st, "german", "move g1 5020", ScriptedDice())
