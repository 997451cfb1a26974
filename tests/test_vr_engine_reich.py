"""Fortifications and the defence of the Reich (§13, behind
``fortification_classes``): movement, the basic fortification's hexsides,
no E and the restricted Soviet advance, and the capture that ends it all.
A Basic game keeps none of it (R-13)."""
from __future__ import annotations

import vrhelp
from fakedice import ScriptedDice
from pbem.games.vr import moves

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
