"""The Reinforcement & Replacements phase of the Advanced game: Soviet
infantry corps drawn at random from the pile (10.1, 17.1) through the
Soviet secret stream, under a sealed handle shown by the Soviet program
(like the armored KG, 7.15.1); arrival in Standard Mode on the map or in
the Stavka box."""
from __future__ import annotations

import copy

import vrhelp
from fakedice import ScriptedDice
from pbem.game import probe

u = vrhelp.unit
SW = {"to_rules": True, "infantry_modes": True, "advanced_supports": True, "stavka": True}


def _rules():
    units = {f"c{i}": u("sov", 6, corps=True, start="corps_pile") for i in range(1, 4)}
    units |= {"g": u("ger", 4), "s": u("sov", 8)}
    return vrhelp.rules(units=units, switches=SW, markers={"tos": {"CN": {"hex": "5520", "mode": "offensive"}}},
                        cities={"major": ["5520"]}, control={"default": "soviet"},
                        schedule={"2": {"corps": 1}})


def _rr(r):
    st = vrhelp.engine_state(r, {"g": "4820", "s": "5320"}, {"k": "rr", "side": "soviet", "phase": "rr"}, turn=2)
    for uid in ("c1", "c2", "c3"):
        st["units"][uid]["box"] = "corps_pile"
    return st


def test_10_1_17_1_a_reinforcing_corps_is_drawn_at_random_from_the_pile_under_a_sealed_handle():
    r = _rules()
    st = _rr(r)
    blind = copy.deepcopy(st)
    blind["hidden"]["soviet"] = None                                # the German program
    events: list = []
    r._run(st, ScriptedDice(seed=7), events)
    r._run(blind, ScriptedDice(seed=7, blind=["soviet"]), [])
    d = r.pending(st)
    assert d.kind == "corps-reveal" and d.private and r.pending(blind).kind == "corps-reveal"
    assert st["corps_sealed"] == {"cp-1": "soviet"} == blind["corps_sealed"]
    drawn = st["hidden"]["soviet"]["items"]["cp-1"]["corps"]
    assert drawn in ("c1", "c2", "c3") and "10.1" in " ".join(e.text for e in events)
    order = r.private_answer(st, d)
    shown = {**order, "openings": [{"handle": "cp-1", "value": st["hidden"]["soviet"]["items"]["cp-1"]}]}
    r.apply(st, "soviet", order, ScriptedDice(seed=7))
    r.apply(blind, "soviet", shown, ScriptedDice(seed=7, blind=["soviet"]))
    for s in (st, blind):
        assert s["units"][drawn]["box"] == "arriving" and s["units"][drawn]["steps"] == 1     # Standard Mode
    d = r.pending(st)
    assert d.kind == "place" and any(o.startswith(f"place {drawn} ") for o in d.options) and f"reserve {drawn}" in d.options
    vrhelp.order(r, st, "soviet", f"reserve {drawn}", ScriptedDice(seed=7))
    assert st["units"][drawn]["box"] == "stavka"


def test_10_1_a_program_shows_only_a_corps_of_the_pile_drawn_this_turn():
    r = _rules()
    st = _rr(r)
    r._run(st, ScriptedDice(seed=7), [])
    lie = {"verb": "reveal", "open": ["cp-1"], "openings": [{"handle": "cp-1", "value": {"corps": "s", "turn": 2}}]}
    assert "not a Soviet infantry corps" in probe(r, st, "soviet", lie)
    drawn = st["hidden"]["soviet"]["items"]["cp-1"]["corps"]
    late = {**lie, "openings": [{"handle": "cp-1", "value": {"corps": drawn, "turn": 3}}]}
    assert "drawn on turn" in probe(r, st, "soviet", late)
    st["units"]["c1"]["box"] = st["units"]["c2"]["box"] = st["units"]["c3"]["box"] = "eliminated"
    assert "not in the draw pile" in probe(r, st, "soviet", r.private_answer(st, r.pending(st)))


# ------------------------------------------------------------------ §18
def _w_rules(withdrawals, transformations=None):
    units = {"g1": u("ger", 6, arm="armor"), "g2": u("ger", 3), "g3": u("ger", 8, arm="armor"),
             "g3b": u("ger", 9, arm="armor", start="eliminated"), "s": u("sov", 8)}
    sched = {"2": {"withdrawals": withdrawals, **({"transformations": transformations} if transformations else {})}}
    return vrhelp.rules(units=units, switches={"withdrawals": True}, schedule=sched)


def _german_rr(r, placed, **kw):
    st = vrhelp.engine_state(r, placed, {"k": "rr", "side": "german", "phase": "rr"}, side="german", turn=2, **kw)
    events: list = []
    r._run(st, ScriptedDice(seed=1), events)
    return st, " ".join(e.text for e in events)


def test_18_1_the_german_withdraws_divisions_of_the_arm_and_attack_asked_in_supply():
    r = _w_rules([{"count": 1, "arm": "armor", "min_attack": 6}])
    st, _ = _german_rr(r, {"g1": "4820", "g2": "4822", "g3": "4824", "s": "5530"}, oos=("g3",))
    d = r.pending(st)
    assert d.kind == "withdrawal-pick" and d.options == ("remove g1",)     # g3 is out of supply, g2 infantry
    vrhelp.order(r, st, "german", "remove g1", ScriptedDice(seed=1))
    assert st["units"]["g1"]["box"] == "removed" and not st.get("rp_forfeit")


def test_18_1_2_a_withdrawal_that_cannot_be_met_costs_every_rp_for_the_rest_of_the_game():
    r = _w_rules([{"count": 2, "arm": "armor", "min_attack": 6}])
    st, text = _german_rr(r, {"g1": "4820", "g2": "4822", "s": "5530"})
    vrhelp.order(r, st, "german", "remove g1", ScriptedDice(seed=1))
    assert st["rp_forfeit"] is True


def test_18_2_a_transformation_keeps_the_old_units_status():
    r = _w_rules([], {"g3": "g3b"})
    st, text = _german_rr(r, {"g3": "4824", "s": "5530"}, steps={"g3": 1}, oos=("g3",))
    assert st["units"]["g3b"]["hex"] == "4824" and st["units"]["g3b"]["steps"] == 1 and st["units"]["g3b"]["oos"]
    assert st["units"]["g3"]["box"] == "removed" and "18.2" in text
