"""The capitulation of Germany's allies (§14, behind ``capitulation``)
through the engine: the Ally Capitulation Support from TO S's box at the
end of the Soviet Combat phase (Romania) and Exploitation phase (Hungary),
the side change of 14.3 and the former allies' return in the Soviet R&R
phase.  A Basic game never asks."""
from __future__ import annotations

import vrhelp
from fakedice import ScriptedDice
from pbem.game import probe
from pbem.games.vr import seq_reich

u = vrhelp.unit
SW = {"to_rules": True, "infantry_modes": True, "advanced_supports": True, "capitulation": True}
CAP = {"ally_cap": {"name": "Ally Capitulation", "side": "soviet", "kind": "capitulation",
                    "role": "ally_capitulation", "event": "TEST DATA"}}
ROM = {f"rum_{i}": u("rum", 4 + i) for i in range(1, 9)}


def _rules(switches=SW, **kw):
    units = {"s": u("sov", 12), "g": u("ger", 4), "hun_1": u("hun", 5), "hun_2": u("hun", 3),
             "hun_hq": vrhelp.hq("hun", 3), **ROM}
    return vrhelp.rules(units=units, switches=switches, supports=CAP, pools={"soviet": {"ally_cap": 1}},
                        markers={"tos": {"S": {"hex": "5520", "mode": "offensive"}}} if switches else None,
                        names={"5020": "Iasi", "5120": "Chisinau", "5220": "Galati"},
                        capitals={"hungary": ["4827", "4927"], "romania": ["5620"]},
                        countries={"romania": ["5020", "5120", "5220", "5121", "5122"],
                                   "hungary": ["4827", "4927", "4828"]}, **kw)


def _in_s(st, sids):
    hs = vrhelp.give_supports(st, "soviet", sids)
    for h in hs:
        st["supports"]["soviet"].setdefault("box", {})[h] = "S"
    return hs


def test_T26_14_1_romania_changes_sides_through_the_engine():
    """Turn 5: Ally Capitulation in TO S's box, played at the end of the
    Soviet Combat phase; Iasi and Chisinau captured (-1); four Romanian
    units eliminated; die 4: 4 - 1 = 3 < 4, Romania changes sides."""
    r = _rules()
    placed = {"s": "5320", "g": "4820", "rum_5": "5121", "rum_6": "5122", "rum_7": "5021", "rum_8": "5022"}
    st = vrhelp.engine_state(r, placed, vrhelp.combat_frame(), turn=5, steps={"rum_8": 1})
    st["control"].update({"5020": "soviet", "5120": "soviet"})
    (h,) = _in_s(st, ["ally_cap"])
    dice = ScriptedDice([(6, 4, "Romania"), (6, 1, "removed"), (6, 2, "removed")], seed=1)
    vrhelp.order(r, st, "soviet", "end-combat", dice)
    d = r.pending(st)
    assert d.kind == "capitulate" and d.policy == "capitulate" and "pass" in d.options
    events = vrhelp.order(r, st, "soviet", f"capitulate {h}", dice)
    text = " ".join(e.text for e in events)
    assert "Romania changes sides (14.1)" in text
    assert st["allies"]["rum"] == "soviet"
    assert h not in st["supports"]["soviet"]["available"] and ["ally_cap", 1] not in st["supports"]["soviet"]["played"]
    boxes = {x: st["units"][x]["box"] for x in ("rum_5", "rum_6", "rum_7", "rum_8")}
    # 2D6 = 3 removed, full strength first, the weakest first; the reduced rum_8 waits
    assert sorted(k for k, v in boxes.items() if v == "removed") == ["rum_5", "rum_6", "rum_7"]
    assert boxes["rum_8"] == "ally_box" and st["units"]["rum_8"]["side"] == "soviet"


def test_14_1_no_capitulation_when_the_die_is_not_below_the_eliminated_romanians():
    r = _rules()
    st = vrhelp.engine_state(r, {"s": "5320", "g": "4820", "rum_8": "5121"}, vrhelp.combat_frame())
    for x in ("rum_1", "rum_2"):
        st["units"][x]["box"] = "removed"               # five Romanians eliminated: a 6 is not below
    (h,) = _in_s(st, ["ally_cap"])
    dice = ScriptedDice([(6, 6, "Romania")], seed=1)
    vrhelp.order(r, st, "soviet", "end-combat", dice)
    events = vrhelp.order(r, st, "soviet", f"capitulate {h}", dice)
    assert "no capitulation (14.1)" in " ".join(e.text for e in events)
    assert st["allies"]["rum"] == "german"
    assert h not in st["supports"]["soviet"]["available"]          # back to the pool whatever the die


def test_14_ally_capitulation_only_from_the_s_box_and_never_asked_in_basic():
    r = _rules()
    st = vrhelp.engine_state(r, {"s": "5320", "g": "4820"}, vrhelp.combat_frame())
    (h,) = vrhelp.give_supports(st, "soviet", ["ally_cap"])
    st["supports"]["soviet"]["box"] = {h: "S"}
    vrhelp.order(r, st, "soviet", "end-combat", ScriptedDice(seed=1))
    st["supports"]["soviet"]["box"] = {h: "CN"}
    assert "TO S's box" in probe(r, st, "soviet", r.parse(f"capitulate {h}", st, "soviet"))
    basic = _rules(switches=None)
    st = vrhelp.engine_state(basic, {"s": "5320", "g": "4820"}, vrhelp.combat_frame())
    vrhelp.order(basic, st, "soviet", "end-combat", ScriptedDice(seed=1))
    assert r.pending(st).kind != "capitulate"


def test_D06_14_2_hungary_armistice_then_removal_at_the_start_of_the_german_turn():
    """A Budapest hex Soviet-held; the Support at the end of the Soviet
    Exploitation phase; die 6 with both Budapest hexes (+1) and Romania
    Soviet-allied (-1): 6, armistice."""
    r = _rules()
    frame = {"k": "combat", "side": "soviet", "phase": "exploit_combat", "mode": "exploit"}
    st = vrhelp.engine_state(r, {"s": "5320", "g": "4820", "hun_1": "4828"}, frame)
    st["control"].update({"4827": "soviet", "4927": "soviet"})
    st["allies"]["rum"] = "soviet"
    (h,) = _in_s(st, ["ally_cap"])
    dice = ScriptedDice([(6, 6, "Hungary")], seed=1)
    vrhelp.order(r, st, "soviet", "end-combat", dice)
    assert r.pending(st).kind == "capitulate"
    events = vrhelp.order(r, st, "soviet", f"capitulate {h}", dice)
    assert "armistice (14.2)" in " ".join(e.text for e in events) and st["capitulation"]["armistice"]
    assert st["units"]["hun_1"]["hex"] == "4828"                     # still there until the German turn
    st["stack"] = [{"k": "turn", "step": 3, "go": True}, {"k": "pturn", "side": "german", "i": 0, "cur": None}]
    events: list = []
    r._run(st, ScriptedDice(seed=2), events)
    assert st["units"]["hun_1"]["box"] == "removed" and "Hungarian armistice" in " ".join(e.text for e in events)


def test_D06_14_2_a_three_means_hungary_never_capitulates():
    r = _rules()
    frame = {"k": "combat", "side": "soviet", "phase": "exploit_combat", "mode": "exploit"}
    st = vrhelp.engine_state(r, {"s": "5320", "g": "4820"}, frame)
    st["control"].update({"4827": "soviet"})
    hs = _in_s(st, ["ally_cap"])
    dice = ScriptedDice([(6, 3, "Hungary")], seed=1)
    vrhelp.order(r, st, "soviet", "end-combat", dice)
    vrhelp.order(r, st, "soviet", f"capitulate {hs[0]}", dice)
    assert st["capitulation"]["hun_never"] and not seq_reich.may_ask(r, st, "hun")


def test_14_2_hungary_is_not_asked_before_a_budapest_hex_is_soviet():
    r = _rules()
    st = vrhelp.engine_state(r, {"s": "5320", "g": "4820"}, vrhelp.combat_frame())
    _in_s(st, ["ally_cap"])
    assert seq_reich.may_ask(r, st, "rum") and not seq_reich.may_ask(r, st, "hun")


def test_14_3_former_allies_come_back_1d6_plus_3_next_to_a_supplied_soviet_unit_in_their_country():
    r = _rules(supply={"east_edge": ["5221"]})
    frame = {"k": "rr", "side": "soviet", "phase": "rr"}
    st = vrhelp.engine_state(r, {"s": "5221", "g": "4820"}, frame)
    st["allies"]["rum"] = "soviet"
    for x in ("rum_1", "rum_2"):
        st["units"][x].update(box="ally_box", side="soviet")
    events: list = []
    dice = ScriptedDice([(6, 1, "former-ally")], seed=1)
    r._run(st, dice, events)
    d = r.pending(st)
    assert d.kind == "place" and any(o.startswith("place rum_1 ") for o in d.options)
    spots = {o.split()[2] for o in d.options if o.startswith("place rum_")}
    assert spots and all(r.scn.map.country_of(h) == "romania" and r.scn.map.distance(h, "5221") <= 1 for h in spots)
    assert "3 unit(s)" not in " ".join(e.text for e in events) and "2 unit(s) leave" in " ".join(e.text for e in events)


def test_14_3_the_german_may_no_longer_use_rail_in_a_country_that_changed_sides():
    r = _rules(railroads={"r": ["4820", "4920", "5020", "5120", "5220"]})
    st = vrhelp.engine_state(r, {"s": "5530", "g": "4820"}, vrhelp.movement_frame("german"), side="german")
    order = r.parse("rail g 4820 4920 5020 5120", st, "german")
    assert "changed sides" not in (probe(r, st, "german", order) or "")
    st["allies"]["rum"] = "soviet"
    assert "changed sides (14.3)" in probe(r, st, "german", order)
