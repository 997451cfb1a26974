"""The Advanced rules built so far, each behind its profile switch: TO
markers and their Operation Ranges (§9) with the TO-range clauses of §1-8
(6.1.11, 6.2.4, 7.6.4 "Hourra!", 7.7.9, 7.8.4, 7.10.14) and the Soviet
infantry corps' modes (§10, 1.3.1, 1.3.3).  A Basic game keeps them off,
not "always out of range" (notes §8.2 item 13, R-13)."""
from __future__ import annotations

import vrhelp
from fakedice import ScriptedDice
from pbem.game import probe
from pbem.games.vr import tos

u = vrhelp.unit
ADVANCED = {"to_rules": True, "infantry_modes": True}


def _rules(to_hex: str = "6030", mode: str = "offensive", **kw):
    units = {"c1": u("sov", 6, move=8, corps=True), "c2": u("sov", 6, move=8, corps=True),
             "t1": u("sov", 12, arm="armor"), "g": u("ger", 4), **kw.pop("units", {})}
    return vrhelp.rules(units=units, switches=ADVANCED, markers={"tos": {"N": {"hex": to_hex, "mode": mode}}}, **kw)


def test_9_1_2_operation_ranges_nine_offensive_five_movement():
    r = _rules("5020")
    st = r.initial_state()
    assert tos.in_range(r, st, "5029") and not tos.in_range(r, st, "5030")
    st["tos"]["N"]["mode"] = "movement"
    assert tos.in_range(r, st, "5025") and not tos.in_range(r, st, "5026")


def test_D14_6_1_11_a_reinforced_corps_spending_three_mp_outside_every_range_goes_to_standard():
    r = _rules()
    st = vrhelp.engine_state(r, {"c1": "5020", "c2": "5120"}, vrhelp.movement_frame())
    assert tos.reinforced(r, st, "c1")
    vrhelp.order(r, st, "soviet", "move c1 5021 5022 5023", ScriptedDice())     # 3 MP
    assert st["units"]["c1"]["steps"] == 1 and not tos.reinforced(r, st, "c1")
    vrhelp.order(r, st, "soviet", "move c2 5121 5122", ScriptedDice())          # 2 MP: stays Reinforced
    assert tos.reinforced(r, st, "c2")


def test_D14_6_2_4_four_strategic_mp_keep_a_reinforced_corps():
    r = _rules(units={"hq": vrhelp.hq("sov", 8)}, supply={"east_edge": ["5020"]})
    st = vrhelp.engine_state(r, {"c1": "5021", "hq": "5020"}, vrhelp.movement_frame())
    vrhelp.order(r, st, "soviet", "strat c1 5022 5023 5024 5025", ScriptedDice())   # 4 MP strategically
    assert tos.reinforced(r, st, "c1")


def test_6_1_11_in_range_nothing_flips_and_in_basic_the_clause_is_off():
    r = _rules("5023")
    st = vrhelp.engine_state(r, {"c1": "5020"}, vrhelp.movement_frame())
    vrhelp.order(r, st, "soviet", "move c1 5021 5022 5023", ScriptedDice())
    assert tos.reinforced(r, st, "c1")
    basic = vrhelp.rules(units={"c1": u("sov", 6, move=8, corps=True)})
    st = vrhelp.engine_state(basic, {"c1": "5020"}, vrhelp.movement_frame())
    vrhelp.order(basic, st, "soviet", "move c1 5021 5022 5023", ScriptedDice())
    assert st["units"]["c1"]["steps"] == 2 and not tos.outside_every_range(basic, st, "5023")   # off


def test_7_6_4_hourra_within_a_tos_range_never_in_mud_nor_in_basic():
    r = _rules("5022")
    st = vrhelp.engine_state(r, {"c1": "5020", "g": "5021"}, vrhelp.combat_frame())
    vrhelp.order(r, st, "soviet", "attack 5021 with c1", ScriptedDice())
    assert "declare hourra" in r.pending(st).options
    st["weather"] = "mud"
    assert "Mud" in probe(r, st, "soviet", r.parse("declare hourra", st, "soviet"))
    far = _rules("6030")
    st = vrhelp.engine_state(far, {"c1": "5020", "g": "5021"}, vrhelp.combat_frame())
    vrhelp.order(far, st, "soviet", "attack 5021 with c1", ScriptedDice())
    assert "Operation Range" in probe(far, st, "soviet", far.parse("declare hourra", st, "soviet"))
    basic = vrhelp.rules(units={"c1": u("sov", 6), "g": u("ger", 4)})
    st = vrhelp.engine_state(basic, {"c1": "5020", "g": "5021"}, vrhelp.combat_frame())
    vrhelp.order(basic, st, "soviet", "attack 5021 with c1", ScriptedDice())
    assert "declare hourra" not in basic.pending(st).options
    assert "R-13" in probe(basic, st, "soviet", basic.parse("declare hourra", st, "soviet"))


def test_T11_7_9_5_hourra_adds_an_e_and_costs_the_attacker_a_step():
    r = _rules("5022")
    st = vrhelp.engine_state(r, {"c1": "5020", "c2": "5020", "g": "5021"}, vrhelp.combat_frame())
    vrhelp.order(r, st, "soviet", "attack 5021 with c1 c2", ScriptedDice())
    f = st["stack"][-1]
    vrhelp.order(r, st, "soviet", "declare hourra", ScriptedDice(seed=2))
    assert f.get("hourra")
    f.update(a_pick="D1", row="terrain", terrain="clear")
    assert r.tactical_codes(st, f, "attacker") == ("D1", "E")


def test_T18_7_7_9_and_7_8_4_outside_every_range_corps_flip_and_armor_pays_one_more():
    """Combat example 2's counterfactual: the same attack outside every TO
    range."""
    r = _rules("6030", terrain={"forest": ["5021"]})
    st = vrhelp.engine_state(r, {"c1": "5020", "t1": "5022", "g": "5021"}, vrhelp.combat_frame())
    vrhelp.order(r, st, "soviet", "attack 5021 with c1 t1", ScriptedDice())
    f = st["stack"][-1]
    events = vrhelp.order(r, st, "soviet", "declare none", ScriptedDice(seed=5))
    text = " ".join(e.text for e in events)
    assert "7.7.9" in text and st["units"]["c1"]["steps"] <= 1          # flipped before attrition
    assert f.get("armor_extra") == ["t1"] and "7.8.4" in text


def test_1_3_3_an_eliminated_corps_goes_back_to_the_draw_pile():
    r = _rules()
    st = vrhelp.engine_state(r, {"c1": "5020"}, vrhelp.movement_frame())
    r.eliminate(st, "c1", [])
    assert st["units"]["c1"]["box"] == "corps_pile"
