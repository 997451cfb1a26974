"""Fortifications and the defence of the Reich (§13, behind
``fortification_classes``): movement, the basic fortification's hexsides,
no E and the restricted Soviet advance, and the capture that ends it all.
A Basic game keeps none of it (R-13)."""
from __future__ import annotations

import vrhelp
from fakedice import ScriptedDice
from pbem.game import probe
from pbem.games.vr import endreich, moves, supports

u = vrhelp.unit
FORTS = {"to_rules": True, "fortification_classes": True}


def _rules(switches=FORTS, **kw):
    return vrhelp.rules(units={"s": u("sov", 12), "g": u("ger", 4)}, switches=switches,
                        markers={"tos": {"CN": {"hex": "6030", "mode": "offensive"}}} if switches else None,
                        fortifications={"advanced": ["5021"], "basic": ["5121"]},
                        hexsides={"fortified": ["5121|5221"]}, **kw)


def test_13_2_3_soviet_units_pay_four_mp_into_an_advanced_fortification_roads_ignored():
    r = _rules(roads={"r": ["5020", "5021"]})
    st = vrhelp.engine_state(r, {"s": "5020"}, vrhelp.movement_frame())
    b = r.board(st)
    assert moves.step_cost(b, "s", "5020", "5021") == 8
    st["soviet_ever"].append("5021")                   # 13: captured once, the hex loses it for good
    assert moves.step_cost(r.board(st), "s", "5020", "5021") == 1
    basic = vrhelp.rules(units={"s": u("sov", 12)}, fortifications={"advanced": ["5021"]}, roads={"r": ["5020", "5021"]})
    st = vrhelp.engine_state(basic, {"s": "5020"}, vrhelp.movement_frame())
    assert moves.step_cost(basic.board(st), "s", "5020", "5021") == 1


def test_13_1_1_a_basic_fortification_counts_only_against_attacks_across_its_fortified_hexsides():
    r = _rules()
    st = vrhelp.engine_state(r, {"s": "5221", "g": "5121"}, vrhelp.combat_frame())
    f = {"hex": "5121", "att": ["s"]}
    assert r.dropped_types(st, f) == ()                  # 5221|5121 is fortified
    st["units"]["s"]["hex"] = "5120"
    assert r.dropped_types(st, f) == ("basic_fortification",)


def test_13_2_5_the_soviet_advances_into_an_advanced_fortification_only_on_s_or_dr():
    r = _rules()
    st = vrhelp.engine_state(r, {"s": "5020", "g": "5021"}, vrhelp.combat_frame())
    vrhelp.order(r, st, "soviet", "attack 5021 with s", ScriptedDice(seed=1))
    f = st["stack"][-1]
    st["units"]["g"].update(hex=None, box="eliminated")
    f.update(d_pick="-", a_pick="-", terrain="clear", row="terrain")
    assert r.attacker_advance_options(st, f) == []
    f["d_pick"] = "DR"
    assert r.attacker_advance_options(st, f) == ["advance s"]
    f["d_pick"] = "-"
    st["soviet_ever"].append("5021")
    assert r.attacker_advance_options(st, f) == ["advance s"]


# ------------------------------------------------------------------ §16
EOR = {"approval_track": True, "end_of_reich": True}
TRACK = {"added": {str(i): n for i, n in enumerate([3, 3, 3, 2, 2, 1, 0])},
         "dismissal_draws": {str(i): n for i, n in enumerate([1, 1, 1, 2, 2, 2, 3])},
         "dismissal_chosen": {str(i): n for i, n in enumerate([0, 0, 0, 0, 0, 1, 1])}}
EOR_SUPPORTS = {f"eor_{k}": {"name": f"End of Reich {k}", "side": "german", "kind": "end_of_reich", "shift": 1,
                             "event": "TEST DATA"} for k in "abcd"}
OBJECTIVES = {"1": ["4820", "4920"], "2": ["5828"], "3": ["4822", "4922"], "4": ["5020"], "5": ["4824"],
              "6": ["4826"]}


def _eor_rules(switches=EOR, **kw):
    units = {"s": u("sov", 12), "g": u("ger", 4), "g1": u("ger", 1, steps=2, attack_reduced=1),
             "g2": u("ger", 6, steps=2), "ss": u("ger", 4, branch="ss"), "ghq": vrhelp.hq("ger", 3)}
    markers = {"approval": 3, "foa": 2, "max_satisfaction": 8, "dismissals": 3, "end_of_reich": 5}
    return vrhelp.rules(units=units, switches=switches, markers=markers, supports=EOR_SUPPORTS, end_of_reich=TRACK,
                        objectives=OBJECTIVES, countries={"germany": ["4820", "4920", "4822", "4922", "4826",
                                                                      "4821", "4921"]},
                        cities={"major": ["4820", "4826"], "minor": ["4920", "4822", "4922"]}, **kw)


def _german_exploit_end(r, st, dice):
    st["stack"] = [{"k": "turn", "step": 3, "go": True},
                   {"k": "pturn", "side": "german", "i": 7, "cur": "exploit_combat"}]
    events: list = []
    r._run(st, dice, events)
    return " ".join(e.text for e in events)


def test_T27_16_1_objective_one_lost_the_marker_goes_to_four_and_two_end_of_reich_supports_join_the_pool():
    """Memel's End of Reich half: the marker stands at 5 (Ploesti lost);
    at the end of the German Exploitation phase Strategic Objective 1 (the
    German cities) is lost too: the marker goes to 4 and two End-of-Reich
    Supports join the German pool at random, face down; from now on a
    Dismissal gives no chosen Support."""
    r = _eor_rules()
    st = vrhelp.engine_state(r, {"s": "5020", "g": "4826"}, vrhelp.combat_frame("german"), side="german")
    st["control"].update({h: "german" for hs in OBJECTIVES.values() for h in hs})
    st["control"].update({"5020": "soviet", "4920": "soviet"})
    before = supports.pool_size(r.scn, st["supports"], "german")
    text = _german_exploit_end(r, st, ScriptedDice(seed=4))
    assert st["eor"]["square"] == 4 and "5 -> 4" in text and "16.1.3" in text
    added = st["supports"]["german"]["eor"]
    assert len(added) == 2 and supports.pool_size(r.scn, st["supports"], "german") == before + 2
    ids = {st["hidden"]["german"]["items"][h]["eor"] for h in added}
    assert len(ids) == 2 and ids <= set(EOR_SUPPORTS)
    assert endreich.dismissal_draws(r, st) == (2, 0)              # no chosen Support at 4
    assert endreich.mobilization(r, st)


def test_T27_16_1_3_the_marker_never_moves_back_and_a_square_adds_its_supports_once():
    r = _eor_rules()
    st = vrhelp.engine_state(r, {"s": "5020", "g": "4826"}, vrhelp.combat_frame("german"), side="german")
    st["control"].update({h: "german" for hs in OBJECTIVES.values() for h in hs})
    st["control"]["5020"] = "soviet"
    _german_exploit_end(r, st, ScriptedDice(seed=4))
    assert st["eor"]["square"] == 5 and not st["supports"]["german"].get("eor")     # already on 5
    st["control"]["5020"] = "german"                                      # Ploesti retaken
    _german_exploit_end(r, st, ScriptedDice(seed=4))
    assert st["eor"]["square"] == 5


def test_T27_16_2_the_dismissal_draw_at_five_is_two_one_of_them_picked_in_secret():
    """After the Memel Dismissal the German Support phase reads the End of
    Reich track at 5: two Supports, one picked in secret (R-52)."""
    r = _eor_rules()
    frame = {"k": "support", "side": "german", "phase": "support", "stage": "start"}
    st = vrhelp.engine_state(r, {"s": "5020", "g": "4826"}, frame, side="german")
    st["approval"]["eor_draw"] = True
    events: list = []
    dice = ScriptedDice(seed=5)
    r._run(st, dice, events)
    d = r.pending(st)
    assert d.kind == "eor-pick"
    assert "German Support" in probe(r, st, "german", r.parse("pick stalin", st, "german"))
    order = r.parse("pick heinrici", st, "german")
    assert r.format(order) == "pick"                                # the public copy never names it
    r.apply(st, "german", order, dice)
    avail = st["supports"]["german"]["available"]
    assert len(avail) == 2
    assert st["hidden"]["german"]["items"][avail[0]]["support"] == "heinrici"


def test_16_1_1_all_six_objectives_held_add_one_german_draw():
    r = _eor_rules()
    st = r.initial_state()
    st["control"].update({h: "german" for hs in OBJECTIVES.values() for h in hs})
    assert endreich.objectives_held(r, st) == 6 and endreich.draw_bonus(r, st) == 1
    st["control"]["4822"] = "soviet"                                # objective 3 needs two of its cities
    assert endreich.objectives_held(r, st) == 5 and endreich.draw_bonus(r, st) == 0


def test_16_2_1_last_mobilization_brings_two_reduced_infantry_divisions_of_attack_0_or_1():
    r = _eor_rules()
    frame = {"k": "rr", "side": "german", "phase": "rr"}
    st = vrhelp.engine_state(r, {"s": "5020", "g": "4826"}, frame, side="german")
    st["eor"]["square"] = 4
    st["control"].update({"4820": "german", "4920": "german"})
    events: list = []
    r._run(st, ScriptedDice(seed=3), events)
    d = r.pending(st)
    assert d.kind == "mobilize" and d.options == ("mobilize g1",)      # g2 (reduced Attack 3) is not eligible
    vrhelp.order(r, st, "german", "mobilize g1", ScriptedDice(seed=3))
    assert st["units"]["g1"]["steps"] == 1


# ------------------------------------------------------------------ §17
def test_17_2_1_german_reinforcements_arrive_in_a_german_city_or_an_advanced_fortification():
    from pbem.games.vr import rr
    r = _eor_rules(fortifications={"advanced": ["5022"], "basic": ["5024"]})
    st = vrhelp.engine_state(r, {"s": "5030"}, vrhelp.combat_frame())
    spots = rr.german_arrival_hexes(r, st)
    assert "5022" in spots and "5024" not in spots and "4820" in spots and "5020" not in spots
    st["soviet_ever"].append("5022")                                 # captured once: lost for good
    assert "5022" not in rr.german_arrival_hexes(r, st)


def test_17_3_12_no_replacements_in_an_advanced_fortification_nor_for_ss_units():
    from pbem.games.vr import rr
    r = _eor_rules(fortifications={"advanced": ["5022"]}, switches={**EOR, "to_rules": True,
                                                                     "fortification_classes": True})
    st = vrhelp.engine_state(r, {"s": "5030", "g": "5022", "ss": "4820"}, vrhelp.combat_frame())
    assert "advanced fortification" in rr.replacement_refusal(r, st, "g")
    assert "SS" in rr.replacement_refusal(r, st, "ss")
