"""Review of the Advanced game (§9-19) against the rulebook: one test per
deviation found, named after its rule (issue 11, review pass)."""
from __future__ import annotations

import copy

import vrhelp
from fakedice import ScriptedDice
from pbem.games.vr import scenario as scenario_mod

u = vrhelp.unit
SW = {"rr_procedure": True, "approval_track": True, "fortification_classes": True}
GERMANY = {"germany": ["4820", "4821", "4822", "4920", "4921", "4922", "5020", "5021", "5022"]}


def _rules(switches=SW, schedule=None, **kw):
    units = {"g": u("ger", 6), "ge": u("ger", 7, elite=True), "ghq": vrhelp.hq("ger", 3),
             "s": u("sov", 8), "gr": u("ger", 5, start="turn:3")}
    units |= kw.pop("units", {})
    kw.setdefault("control", {"default": "german"})
    kw.setdefault("markers", {"approval": 7, "foa": 0})
    data = vrhelp.mini(units=units, switches=switches,
                       schedule=schedule or {"2": {"rp": {"sov": 2}}, "3": {"rp": {"sov": 2}}},
                       countries=GERMANY, cities={"major": ["4820", "5530"], "minor": ["5022"]},
                       fortifications={"advanced": ["5520"]}, supply={"june_cities": ["5530"]}, **kw)
    data["card"].pop("arrivals", None)          # the practice card's arrival hexes lie off this map (17.1-17.2)
    return vrhelp.rules(scenario_mod.load(data))


def _rr(r, placed, side="german", turn=2, **kw):
    st = vrhelp.engine_state(r, placed, {"k": "rr", "side": side, "phase": "rr"}, side=side, turn=turn, **kw)
    events: list = []
    r._run(st, ScriptedDice(seed=3), events)
    return st, " ".join(e.text for e in events)


def test_17_3_11_rebuilt_elite_arrives_in_a_german_city():
    """17.3.11's exception: a rebuilt Elite division comes next turn in a
    German-held City of Germany, not in an advanced fortification where a
    scheduled reinforcement may arrive (17.2.1)."""
    r = _rules()
    st, _ = _rr(r, {"ghq": "4820", "s": "5530"})
    vrhelp.order(r, st, "german", "rebuild ge", ScriptedDice(seed=3))
    assert st["units"]["ge"]["box"] == "turn:3"
    nxt = vrhelp.engine_state(r, {"ghq": "4820", "s": "5530"}, {"k": "rr", "side": "german", "phase": "rr"},
                              side="german", turn=3)
    nxt["units"]["ge"] = copy.deepcopy(st["units"]["ge"])
    nxt["units"]["gr"]["box"] = "turn:3"
    r._run(nxt, ScriptedDice(seed=3), [])
    d = r.pending(nxt)
    assert d.kind == "place"
    assert "place gr 5520" in d.options                    # 17.2.1: a reinforcement may use the fortification
    elite = sorted(o for o in d.options if o.startswith("place ge "))
    assert elite and all(o.split()[-1] in ("4820", "5022") for o in elite), elite
    assert "place ge 5520" not in d.options


# ------------------------------------------------------------ Stalin (11.5.2, 19.1.2)
ADV = {"to_rules": True, "infantry_modes": True, "advanced_supports": True, "warsaw": True}
STALIN_TABLE = {"stalin": {"name": "Stalin", "side": "soviet", "kind": "red_disk", "role": "stalin",
                           "event": "TEST DATA",
                           "results": ["TEST one", "TEST two", "TEST three", "TEST four", "TEST five", "TEST six"]}}


def _to_rules(supports=None):
    return vrhelp.rules(units={"s": u("sov", 8), "g": u("ger", 4)}, switches=ADV, supports=supports,
                        names={"5020": "Warsaw"}, control={"default": "soviet", "german": ["5020"]},
                        markers={"tos": {"CN": {"hex": "5520", "mode": "offensive"},
                                         "N": {"hex": "5525", "mode": "offensive"}}})


def _redisk(r, box="CN"):
    st = vrhelp.engine_state(r, {"s": "5120", "g": "4820"}, {"k": "tosupport", "side": "soviet",
                                                             "phase": "support", "stage": "redisk", "new": []})
    hs = vrhelp.give_supports(st, "soviet", ["stalin"])
    st["supports"]["soviet"].setdefault("box", {})[hs[0]] = box
    st["stack"][-1]["new"] = hs
    return st


def test_11_5_2_stalin_is_played_on_the_to_whose_box_drew_it_and_its_die_is_rolled_at_once():
    r = _to_rules(STALIN_TABLE)
    st = _redisk(r)
    d = r.pending(st)
    assert d.kind == "red-disk"
    _, events = r.apply(st, "soviet", r.private_answer(st, d), ScriptedDice([(6, 4, "Stalin")]))
    text = " ".join(e.text for e in events)
    assert "Stalin" in text and "TO CN" in text and "die 4" in text and "TEST four" in text
    assert st["stalin_event"] == {"turn": st["turn"], "to": "CN", "die": 4, "support": "stalin"}


def test_11_5_2_stalins_result_the_rulebook_does_not_print_is_named_missing():
    # a Stalin with no results table, as in the published files, where they are MISSING
    r = _to_rules({"stalin": {k: v for k, v in STALIN_TABLE["stalin"].items() if k != "results"}})
    st = _redisk(r, box="N")
    _, events = r.apply(st, "soviet", r.private_answer(st, r.pending(st)), ScriptedDice([(6, 2, "Stalin")]))
    text = " ".join(e.text for e in events)
    assert "TO N" in text and "die 2" in text and "MISSING" in text


def test_19_1_2_the_stalin_the_german_forces_is_played_on_his_to_and_rolls_its_die():
    r = _to_rules(STALIN_TABLE)
    st = vrhelp.engine_state(r, {"g": "4820", "s": "5120"}, {"k": "tosupport", "side": "soviet", "phase": "support",
                                                            "stage": "play", "new": []}, side="soviet",
                             warsaw={"hex": "5020", "start": 1, "active": False, "stalin": True})
    events = vrhelp.order(r, st, "german", "stalin N", ScriptedDice([(6, 6, "Stalin")]))
    text = " ".join(e.text for e in events)
    assert "TO N" in text and "die 6" in text and "TEST six" in text
    assert st["stalin_event"]["to"] == "N" and st["to_turn"]["stalin"] == "N"


def test_1_5_3_a_basic_stalin_rolls_its_die_when_drawn():
    r = vrhelp.rules(units={"a": u("sov", 4)}, supports=STALIN_TABLE)
    st = vrhelp.engine_state(r, {"a": "5020"}, {"k": "support", "side": "soviet", "phase": "support",
                                                "stage": "redisk", "new": []})
    st["stack"][-1]["new"] = vrhelp.give_supports(st, "soviet", ["stalin"])
    _, events = r.apply(st, "soviet", r.private_answer(st, r.pending(st)), ScriptedDice([(6, 1, "Stalin")]))
    text = " ".join(e.text for e in events)
    assert "die 1" in text and "TEST one" in text and st["stalin_event"]["to"] == ""


# ------------------------------------------------------------ Supports of the enemy turn (11.5.1, 9.2.1)
AA = {"sov_flak": {"name": "Flak (test)", "side": "soviet", "kind": "plain", "to": "TO", "enemy_turn": True,
                   "shift": 1, "event": "TEST DATA"}}


def _german_attack(r, tos):
    st = vrhelp.engine_state(r, {"s": "5225", "g": "5125"}, vrhelp.combat_frame("german"), side="german",
                             tos=tos)
    h, = vrhelp.give_supports(st, "soviet", ["sov_flak"])
    st["supports"]["soviet"].setdefault("box", {})[h] = "N"
    vrhelp.order(r, st, "german", "attack 5225 with g", ScriptedDice(seed=1))
    while r.pending(st).kind != "react":
        d = r.pending(st)
        r.apply(st, d.seat, r.parse(d.options[0], st, d.seat), ScriptedDice(seed=1))
    return st, h


def test_9_2_1_a_to_labelled_support_of_the_enemy_turn_stays_within_its_tos_range():
    from pbem.game import probe
    r = vrhelp.rules(units={"s": u("sov", 8), "g": u("ger", 30)}, switches=ADV, supports=AA,
                     pools={"soviet": {"sov_flak": 1}}, control={"default": "soviet", "german": ["5125"]})
    far = {"N": {"hex": "6030", "mode": "movement"}}          # range 5 (9.1.2)
    st, h = _german_attack(r, far)
    assert r.pending(st).seat == "soviet"
    assert "9.2.1" in probe(r, st, "soviet", r.parse(f"react {h}", st, "soviet"))
    near = {"N": {"hex": "5527", "mode": "offensive"}}
    st, h = _german_attack(r, near)
    vrhelp.order(r, st, "soviet", f"react {h}", ScriptedDice(seed=1))
    assert ["sov_flak", 1] in st["supports"]["soviet"]["played"]


# ------------------------------------------------------------ Strategic Sites (15.2.1, 15.2.2)
def _site_rules():
    return vrhelp.rules(units={"s": u("sov", 8), "g": u("ger", 8)}, switches={"approval_track": True},
                        markers={"approval": 7, "foa": 0}, sites={"5020": 3},
                        control={"default": "soviet", "german": ["5020", "4920", "4820"]})


def test_15_2_1_a_strategic_site_the_soviet_captures_lowers_approval_by_its_value():
    r = _site_rules()
    st = vrhelp.engine_state(r, {"s": "5120", "g": "4720"}, vrhelp.movement_frame())
    events = vrhelp.order(r, st, "soviet", "move s 5020", ScriptedDice(seed=1))
    assert st["control"]["5020"] == "soviet"
    assert st["approval"]["level"] == 4, " ".join(e.text for e in events)
    assert "15.2.1" in " ".join(e.text for e in events)


def test_15_2_2_a_strategic_site_the_german_takes_back_raises_approval_by_its_value():
    r = _site_rules()
    st = vrhelp.engine_state(r, {"s": "5120", "g": "4720"}, vrhelp.movement_frame())
    vrhelp.order(r, st, "soviet", "move s 5020 5021", ScriptedDice(seed=1))
    assert st["approval"]["level"] == 4
    st2 = vrhelp.engine_state(r, {"s": "5221", "g": "4920"}, vrhelp.movement_frame("german"), side="german",
                              approval=copy.deepcopy(st["approval"]), control=copy.deepcopy(st["control"]))
    events = vrhelp.order(r, st2, "german", "move g 5020", ScriptedDice(seed=1))
    assert st2["control"]["5020"] == "german"
    assert st2["approval"]["level"] == 7, " ".join(e.text for e in events)


# ------------------------------------------------------------ the German draw (11.4, R-02)
def test_11_4_2_r02_the_german_snow_penalty_option_takes_one_draw_in_snow():
    from pbem.games.vr.seq_turn import draws
    sw = {"approval_track": True, "german_draws": "approval"}
    plain = vrhelp.rules(units={"g": u("ger", 4)}, switches=sw, markers={"approval": 7, "foa": 0})
    snowy = vrhelp.rules(units={"g": u("ger", 4)}, switches={**sw, "german_snow_penalty": 1},
                         markers={"approval": 7, "foa": 0})
    n = {}
    for name, r in (("plain", plain), ("snowy", snowy)):
        for w in ("fair", "snow", "mud"):
            st = vrhelp.engine_state(r, {}, vrhelp.movement_frame("german"), side="german", weather=w)
            n[name, w] = draws(r, st, "german", ScriptedDice())
    assert n["plain", "snow"] == n["plain", "fair"] == n["snowy", "fair"] > 0
    assert n["snowy", "snow"] == n["plain", "fair"] - 1                  # R-02, option 1
    assert n["plain", "mud"] == n["snowy", "mud"] == n["plain", "fair"] - 1      # 11.4.2


# ------------------------------------------------------------ withdrawals (§18, Detailed Sequence)
def _w_rules(withdrawals, units=None, schedule_more=None):
    units = {"g1": u("ger", 6, arm="armor"), "h1": u("hun", 9, arm="armor"), "s": u("sov", 8),
             "ghq": vrhelp.hq("ger", 3), "gn": u("ger", 7, arm="armor", start="turn:2"), **(units or {})}
    sched = {"2": {"withdrawals": withdrawals, "rp": {"hun": 1}, **(schedule_more or {})}}
    data = vrhelp.mini(units=units, switches={"withdrawals": True, "rr_procedure": True, "approval_track": True},
                       schedule=sched, markers={"approval": 7, "foa": 0}, countries=GERMANY,
                       cities={"major": ["4820", "5530"]}, control={"default": "german", "soviet": ["5530"]})
    data["card"].pop("arrivals", None)
    return vrhelp.rules(scenario_mod.load(data))


def _german_rr(r, placed, due=(), **kw):
    st = vrhelp.engine_state(r, placed, {"k": "rr", "side": "german", "phase": "rr"}, side="german", turn=2, **kw)
    for uid in due:
        st["units"][uid]["box"] = "turn:2"
    events: list = []
    r._run(st, ScriptedDice(seed=1), events)
    return st, " ".join(e.text for e in events)


def test_18_1_2_a_withdrawal_that_fails_costs_this_phases_rp_too():
    r = _w_rules([{"count": 1, "arm": "armor", "min_attack": 20}], units={"gi": u("ger", 4)})
    st, text = _german_rr(r, {"ghq": "4820", "gi": "4821", "s": "5530"}, steps={"gi": 1})
    assert st["rp_forfeit"] is True and "18.1.2" in text
    d = r.pending(st)
    assert d is None or d.kind != "replace", d
    assert st["units"]["gi"]["steps"] == 1


def test_18_1_detailed_sequence_german_arrivals_come_before_the_withdrawals():
    """The German R&R phase of the Detailed Sequence: Approval -1, the
    reinforcements arrive (by rail if need be), then the withdrawals."""
    r = _w_rules([{"count": 1, "arm": "armor", "min_attack": 7}])
    st, _ = _german_rr(r, {"g1": "4920", "s": "5530"}, due=("gn",))
    d = r.pending(st)
    assert d.kind == "place" and "place gn 4820" in d.options
    vrhelp.order(r, st, "german", "place gn 4820", ScriptedDice(seed=1))
    while r.pending(st).kind == "rr-rail":
        vrhelp.order(r, st, "german", "done", ScriptedDice(seed=1))
    d = r.pending(st)
    assert d.kind == "withdrawal-pick" and d.options == ("remove gn",)        # g1's Attack 6 is below 7


# ------------------------------------------------------------ the automatic Approval loss (15.2.1)
def test_15_2_1_once_objective_1_is_lost_the_automatic_approval_loss_stops_for_good():
    r = vrhelp.rules(units={"g": u("ger", 4), "s": u("sov", 4)}, switches={"approval_track": True},
                     markers={"approval": 7, "foa": 0}, objectives={"1": ["4820"]}, countries=GERMANY,
                     cities={"minor": ["4820"]}, control={"default": "german", "soviet": ["5530"]})
    st = vrhelp.engine_state(r, {"g": "4920", "s": "5530"}, {"k": "rr", "side": "german", "phase": "rr"},
                             side="german", turn=2)
    r._run(st, ScriptedDice(seed=1), [])
    assert st["approval"]["level"] == 6                             # held: down one
    st = vrhelp.engine_state(r, {"g": "4920", "s": "5530"}, {"k": "rr", "side": "german", "phase": "rr"},
                             side="german", turn=2)
    st["control"]["4820"] = "soviet"
    r._run(st, ScriptedDice(seed=1), [])
    assert st["approval"]["level"] == 7                             # lost: no loss
    again = vrhelp.engine_state(r, {"g": "4920", "s": "5530"}, {"k": "rr", "side": "german", "phase": "rr"},
                                side="german", turn=3, approval=copy.deepcopy(st["approval"]))
    r._run(again, ScriptedDice(seed=1), [])
    assert again["control"]["4820"] == "german" and again["approval"]["level"] == 7     # retaken: still none


# ------------------------------------------------------------ Hourra! and §13's captured hexes
def _to_declare(r, st):
    vrhelp.order(r, st, "soviet", "attack 5021 with c1", ScriptedDice())
    while r.pending(st).kind != "declare":
        d = r.pending(st)
        r.apply(st, d.seat, r.parse(d.options[0], st, d.seat), ScriptedDice())


def test_13_7_6_4_a_fortification_the_soviets_once_captured_no_longer_bars_hourra():
    from pbem.game import probe
    r = vrhelp.rules(units={"c1": u("sov", 6), "g": u("ger", 4)},
                     switches={"to_rules": True, "fortification_classes": True},
                     fortifications={"advanced": ["5021"]}, control={"default": "soviet", "german": ["5021"]},
                     markers={"tos": {"CN": {"hex": "5022", "mode": "offensive"}}})
    st = vrhelp.engine_state(r, {"c1": "5020", "g": "5021"}, vrhelp.combat_frame())
    _to_declare(r, st)
    assert "advanced fortification" in probe(r, st, "soviet", r.parse("declare hourra", st, "soviet"))
    st = vrhelp.engine_state(r, {"c1": "5020", "g": "5021"}, vrhelp.combat_frame())
    st["soviet_ever"] = sorted(st["soviet_ever"] + ["5021"])          # §13: captured once, retaken since
    _to_declare(r, st)
    assert "declare hourra" in r.pending(st).options


# ------------------------------------------------------------ TO movement (9.1.4 at all times, R-21)
def test_9_1_4_11_6_2_every_hex_a_to_moves_through_is_a_road_or_railroad_hex_with_a_supply_route():
    from pbem.game import probe
    rail = {"r1": [f"{c}20" for c in range(48, 63)]}
    r = vrhelp.rules(units={"g": u("ger", 4)}, switches={"to_rules": True, "infantry_modes": True,
                                                         "advanced_supports": True},
                     markers={"tos": {"N": {"hex": "5220", "mode": "movement"},
                                      "CN": {"hex": "5420", "mode": "offensive"}}},
                     railroads=rail, supply={"east_edge": ["6220"]}, control={"default": "soviet"},
                     cities={"major": ["5420"]})
    st = vrhelp.engine_state(r, {"g": "4820"}, {"k": "tosupport", "side": "soviet", "phase": "support",
                                                "stage": "start"}, phase="support")
    dice = ScriptedDice([(6, 1), (6, 1)], seed=1)
    r._run(st, dice, [])
    vrhelp.order(r, st, "soviet", "priority CN N", dice)
    while r.pending(st).kind != "to-move":
        d = r.pending(st)
        r.apply(st, d.seat, r.private_answer(st, d) if d.private else r.parse("done", st, d.seat), dice)
    why = probe(r, st, "soviet", r.parse("tomove N 5221 5320", st, "soviet"))
    assert why and "5221" in why and "9.1.4" in why
    vrhelp.order(r, st, "soviet", "tomove N 5320 5420", dice)
    assert st["tos"]["N"]["hex"] == "5420"


# ------------------------------------------------------------ 11.7: an Artillery played, not expended
def test_11_7_only_an_artillery_played_as_its_event_keeps_an_offensive_to_in_its_mode():
    from pbem.games.vr import seq_support, tos
    r = vrhelp.rules(units={"g": u("ger", 4)}, switches={"to_rules": True, "advanced_supports": True},
                     markers={"tos": {"CN": {"hex": "5420", "mode": "offensive"}}}, cities={"major": ["5420"]},
                     control={"default": "soviet"})
    for how, blocked in (("spend", False), ("play", True)):
        st = vrhelp.engine_state(r, {"g": "4820"}, {"k": "tosupport", "side": "soviet", "phase": "support",
                                                    "stage": "mode", "new": []}, phase="support")
        h, = vrhelp.give_supports(st, "soviet", ["artillery_2"])
        st["supports"]["soviet"].setdefault("box", {})[h] = "CN"
        tos.turn_state(st)["priority"] = "CN"
        v = st["hidden"]["soviet"]["items"][h]
        getattr(r, f"{how}_support")(st, "soviet", h, v, [], "test")
        assert (seq_support.flip_refusal(r, st, "CN") is not None) is blocked, how


# ------------------------------------------------------------ 10.1.2: corps arrive in Standard Mode
def test_10_1_2_a_scheduled_infantry_corps_arrives_in_standard_mode():
    r = vrhelp.rules(units={"c": u("sov", 6, corps=True, start="turn:2"), "g": u("ger", 4)},
                     switches={"to_rules": True, "infantry_modes": True}, schedule={"2": {}},
                     cities={"major": ["5530"]}, control={"default": "soviet", "german": ["4820"]})
    st = vrhelp.engine_state(r, {"g": "4820"}, {"k": "rr", "side": "soviet", "phase": "rr"}, turn=2)
    st["units"]["c"]["box"] = "turn:2"
    st["units"]["c"]["steps"] = 2
    r._run(st, ScriptedDice(seed=1), [])
    assert st["units"]["c"]["box"] == "arriving" and st["units"]["c"]["steps"] == 1


# ------------------------------------------------------------ attaching a Soviet leader (5.4.4, 9.2.1, 11.5.3)
LEADER = {"ldr": {"name": "Leader (test)", "side": "soviet", "kind": "leader", "to": "TO", "shift": 1,
                  "event": "TEST DATA"}}


def _attach_state(r, box_to, used=0):
    from pbem.games.vr import tos
    st = vrhelp.engine_state(r, {"s": "5120", "g": "4820"}, {"k": "tosupport", "side": "soviet",
                                                             "phase": "support", "stage": "play", "new": []},
                             phase="support")
    t = tos.turn_state(st)
    t.update(priority="CN", secondary="N")
    t["used"] = {box_to: used}
    h, = vrhelp.give_supports(st, "soviet", ["ldr"])
    st["supports"]["soviet"].setdefault("box", {})[h] = box_to
    return st, h


def test_11_5_3_9_2_1_attaching_a_leader_counts_against_its_box_and_stays_within_its_tos_range():
    from pbem.game import probe
    r = vrhelp.rules(units={"s": u("sov", 8), "g": u("ger", 4)}, switches=ADV, supports=LEADER,
                     pools={"soviet": {"ldr": 1}}, control={"default": "soviet", "german": ["4820"]},
                     markers={"tos": {"CN": {"hex": "5520", "mode": "offensive"},
                                      "N": {"hex": "5125", "mode": "offensive"},
                                      "S": {"hex": "6030", "mode": "movement"}}})
    st, h = _attach_state(r, "N", used=2)
    assert "11.5.3" in (probe(r, st, "soviet", r.parse(f"attach {h} s", st, "soviet")) or "")
    st, h = _attach_state(r, "S")
    assert "9.2.1" in (probe(r, st, "soviet", r.parse(f"attach {h} s", st, "soviet")) or "")
    st, h = _attach_state(r, "N", used=1)
    vrhelp.order(r, st, "soviet", f"attach {h} s", ScriptedDice(seed=1))
    assert st["supports"]["soviet"]["attached"]["s"] == ["ldr", 1] and st["to_turn"]["used"]["N"] == 2


# ------------------------------------------------------------ 12.3.1: a TO that drew any Support does not move
def test_12_3_1_a_to_that_drew_supports_this_turn_and_then_switched_to_movement_mode_stays_in_the_stavka_phase():
    from pbem.game import probe
    rail = {"r1": [f"{c}20" for c in range(48, 63)]}
    r = vrhelp.rules(units={"g": u("ger", 4)}, switches={**ADV, "stavka": True},
                     markers={"tos": {"N": {"hex": "5220", "mode": "movement"},
                                      "CN": {"hex": "5420", "mode": "offensive"},
                                      "S": {"hex": "5820", "mode": "offensive"}}},
                     railroads=rail, supply={"east_edge": ["6220"]}, control={"default": "soviet"},
                     cities={"major": ["5420"], "minor": ["5820"]})
    st = vrhelp.engine_state(r, {"g": "4820"}, {"k": "tosupport", "side": "soviet", "phase": "support",
                                                "stage": "start"}, phase="support")
    dice = ScriptedDice([(6, 4), (6, 4), (6, 1), (6, 1)], seed=1)      # CN: 8 -> 4 + 2; S: 2 -> 1
    r._run(st, dice, [])
    vrhelp.order(r, st, "soviet", "priority CN N", dice)
    while r.pending(st).kind != "to-mode":
        d = r.pending(st)
        ans = r.private_answer(st, d) if d.private else r.parse("done", st, d.seat)
        r.apply(st, d.seat, ans, dice)
    vrhelp.order(r, st, "soviet", "flip CN", dice)
    assert st["tos"]["CN"]["mode"] == "movement"
    assert st["tos"]["S"]["mode"] == "offensive"
    vrhelp.order(r, st, "soviet", "flip S", dice)
    stk = vrhelp.engine_state(r, {"g": "4820"}, {"k": "stavka", "side": "soviet", "phase": "stavka"},
                              phase="stavka", tos=copy.deepcopy(st["tos"]), to_turn=copy.deepcopy(st["to_turn"]))
    r._run(stk, ScriptedDice(), [])
    assert "12.3.1" in (probe(r, stk, "soviet", r.parse("appeal CN move", stk, "soviet")) or "")
    assert probe(r, stk, "soviet", r.parse("appeal S move", stk, "soviet")) is None     # S drew nothing (1 - 2)


def test_11_5_2_the_sitrep_shows_this_turns_stalin_roll():
    r = _to_rules(STALIN_TABLE)
    st = _redisk(r)
    r.apply(st, "soviet", r.private_answer(st, r.pending(st)), ScriptedDice([(6, 5, "Stalin")]))
    text = "\n".join(line for b in r.view(st, "german").blocks if hasattr(b, "lines") for line in b.lines)
    assert "Stalin" in text and "TO CN" in text and "die 5" in text and "TEST five" in text
