"""The Warsaw uprising (§19, behind ``warsaw``; the campaign): the trigger
(19.1.1, Q-24), the two columns and the storming with its forced advance
and the Stalin Support passed to the German (19.1.2, Q-13), the roll at
the end of the German Exploitation phase with its table (notes §4.11,
R-59, R-96).  A game without the switch never starts it (R-13)."""
from __future__ import annotations

import vrhelp
from fakedice import ScriptedDice
from pbem.game import probe
from pbem.games.vr import supports, warsaw

u = vrhelp.unit
SW = {"to_rules": True, "advanced_supports": True, "warsaw": True}
WARSAW = "5020"


def _rules(switches=SW):
    units = {"g": u("ger", 2, steps=2), "g2": u("ger", 2), "s": u("sov", 30), "s2": u("sov", 8)}
    return vrhelp.rules(units=units, switches=switches, names={WARSAW: "Warsaw"},
                        markers={"tos": {"CN": {"hex": "5520", "mode": "offensive"},
                                         "N": {"hex": "5525", "mode": "offensive"}}} if switches else None,
                        control={"default": "soviet", "german": [WARSAW]})


def test_19_1_1_a_soviet_unit_within_two_hexes_of_german_held_warsaw_starts_the_uprising():
    r = _rules()
    st = vrhelp.engine_state(r, {"g": WARSAW, "s": "5420"}, vrhelp.movement_frame(), turn=3)
    assert warsaw.city(r) == WARSAW
    vrhelp.order(r, st, "soviet", "move s 5320", ScriptedDice(seed=1))
    assert st.get("warsaw") is None                          # three hexes away
    st["units"]["s2"].update(hex="5120", box=None)           # already within two hexes
    events = vrhelp.order(r, st, "soviet", "end-move", ScriptedDice(seed=1))
    assert st["warsaw"] == {"hex": WARSAW, "start": 3, "active": True, "stalin": False}
    assert "19.1.1" in " ".join(e.text for e in events)


def test_19_1_1_no_uprising_without_a_german_unit_in_the_city_nor_without_the_rule():
    r = _rules()
    st = vrhelp.engine_state(r, {"s": "5120"}, vrhelp.movement_frame())
    vrhelp.order(r, st, "soviet", "end-move", ScriptedDice(seed=1))
    assert st.get("warsaw") is None
    basic = _rules(switches={})
    st = vrhelp.engine_state(basic, {"g": WARSAW, "s": "5120"}, vrhelp.movement_frame())
    vrhelp.order(basic, st, "soviet", "end-move", ScriptedDice(seed=1))
    assert st.get("warsaw") is None


def _battle(r, st):
    vrhelp.order(r, st, "soviet", f"attack {WARSAW} with s", ScriptedDice(seed=1))
    r._run(st, ScriptedDice(seed=1), [])
    f = st["stack"][-1]
    vrhelp.order(r, st, "soviet", "declare none", ScriptedDice(seed=1))
    return f


def test_19_1_2_a_soviet_attack_on_warsaw_in_revolt_gets_two_columns():
    r = _rules()
    st = vrhelp.engine_state(r, {"g": WARSAW, "s": "5120"}, vrhelp.combat_frame(),
                             warsaw={"hex": WARSAW, "start": 1, "active": True, "stalin": False})
    f = _battle(r, st)
    assert f["shift"] == 2
    st["warsaw"]["active"] = False
    st2 = vrhelp.engine_state(r, {"g": WARSAW, "s": "5120"}, vrhelp.combat_frame(),
                              warsaw={"hex": WARSAW, "start": 1, "active": False, "stalin": False})
    assert _battle(r, st2)["shift"] == 0


def test_19_1_2_warsaw_stormed_the_soviet_must_advance_and_the_german_gets_stalin():
    r = _rules()
    st = vrhelp.engine_state(r, {"g": WARSAW, "s": "5120"}, vrhelp.combat_frame(),
                             warsaw={"hex": WARSAW, "start": 1, "active": True, "stalin": False})
    st["supports"]["soviet"]["played"].append(["stalin", 1])
    f = _battle(r, st)
    st["units"]["g"].update(hex=None, box="eliminated")          # the battle emptied the city
    f.update(step="aadvance", d_pick="DR", a_pick="-", terrain="clear", row="terrain")
    events: list = []
    r._run(st, ScriptedDice(seed=1), events)
    d = r.pending(st)
    assert d.kind == "advance" and "pass" not in d.options
    assert "must advance" in probe(r, st, "soviet", {"verb": "pass"})
    assert st["warsaw"]["active"] is False and st["warsaw"]["stalin"] is True
    assert ("stalin", 1) not in supports.copies(r.scn, st["supports"], "soviet")
    assert ["stalin", 1] not in st["supports"]["soviet"]["played"]
    vrhelp.order(r, st, "soviet", "advance s", ScriptedDice(seed=1))
    assert st["units"]["s"]["hex"] == WARSAW


def test_19_1_2_after_warsaw_fell_the_german_names_stalins_to_each_soviet_support_phase():
    r = _rules()
    st = vrhelp.engine_state(r, {"g": "4820", "s": "5120"}, {"k": "tosupport", "side": "soviet", "phase": "support",
                                                            "stage": "play", "new": []}, side="soviet",
                             warsaw={"hex": WARSAW, "start": 1, "active": False, "stalin": True})
    d = r.pending(st)
    assert d.seat == "german" and d.kind == "stalin-to" and d.policy == "stalin-to" and "stalin CN" in d.options
    vrhelp.order(r, st, "german", "stalin CN", ScriptedDice(seed=1))
    assert st["to_turn"]["stalin"] == "CN" and r.pending(st).kind == "tosupport"


def _exploit_end(r, placed, start, rolls, **kw):
    st = vrhelp.engine_state(r, placed, {"k": "combat", "side": "german", "phase": "exploit_combat",
                                         "mode": "exploit"}, side="german", turn=4,
                             warsaw={"hex": WARSAW, "start": start, "active": True, "stalin": False}, **kw)
    events: list = []
    vrhelp.order(r, st, "german", "end-combat", ScriptedDice([(6, v, "Warsaw") for v in rolls], seed=1))
    return st, " ".join(e.text for e in events)


def test_4_11_a_five_costs_a_german_step_in_warsaw_and_a_six_ends_the_uprising():
    r = _rules()
    st, _ = _exploit_end(r, {"g": WARSAW, "s": "5530"}, start=2, rolls=[3])     # 3 + 2 turns = 5
    assert st["units"]["g"]["steps"] == 1 and st["warsaw"]["active"]
    st, _ = _exploit_end(r, {"g": WARSAW, "s": "5530"}, start=2, rolls=[4])     # 6: over
    assert st["warsaw"]["active"] is False and st["units"]["g"]["steps"] == 2
    st, _ = _exploit_end(r, {"g": WARSAW, "s": "5530"}, start=4, rolls=[4])     # 4 + 0: nothing
    assert st["warsaw"]["active"] and st["units"]["g"]["steps"] == 2


def test_4_11_the_german_picks_the_unit_and_the_markers_go_when_no_german_is_left():
    r = _rules()
    st, _ = _exploit_end(r, {"g": WARSAW, "g2": WARSAW, "s": "5530"}, start=2, rolls=[3], steps={"g": 1})
    d = r.pending(st)
    assert d.kind == "warsaw-loss" and d.seat == "german" and d.policy == "losses"
    vrhelp.order(r, st, "german", "loss g 1", ScriptedDice(seed=1))
    assert st["units"]["g"]["box"] == "eliminated" and st["warsaw"]["active"]
    st, _ = _exploit_end(r, {"g2": WARSAW, "s": "5530"}, start=2, rolls=[3], steps={"g2": 1})
    assert st["units"]["g2"]["box"] == "eliminated" and st["warsaw"]["active"] is False
