"""Replacement points (§17.3, behind ``rr_procedure``): the RP each side
receives, what one RP (and a Support for armor) rebuilds, where rebuilt
units go, and who never receives a step (17.3.12).  A Basic game has no RP
(R-13)."""
from __future__ import annotations

import copy

import pytest

import vrhelp
from fakedice import ScriptedDice
from pbem.game import IllegalOrder, probe

u = vrhelp.unit
SW = {"rr_procedure": True, "approval_track": True}
GERMANY = {"germany": ["4820", "4821", "4822", "4920", "4921", "4922", "5020", "5021", "5022"]}


def _rules(switches=SW, schedule=None, **kw):
    units = {"g": u("ger", 6), "ga": u("ger", 8, arm="armor"), "ge": u("ger", 7, elite=True),
             "ss": u("ger", 6, branch="ss"), "ghq": vrhelp.hq("ger", 3), "ghq2": vrhelp.hq("ger", 3),
             "h": u("hun", 4), "s": u("sov", 8), "sa": u("sov", 9, arm="armor"), "shq": vrhelp.hq("sov", 3)}
    units |= kw.pop("units", {})
    kw.setdefault("control", {"default": "german"})
    kw.setdefault("markers", {"approval": 7, "foa": 0})
    return vrhelp.rules(units=units, switches=switches,
                        schedule=schedule or {"2": {"rp": {"sov": 2, "hun": 1, "rum": 1}}},
                        countries=GERMANY, cities={"major": ["4820", "5022", "5530"]},
                        supply={"june_cities": ["5530"]}, **kw)


def _rr(r, placed, side="german", turn=2, **kw):
    st = vrhelp.engine_state(r, placed, {"k": "rr", "side": side, "phase": "rr"}, side=side, turn=turn, **kw)
    events: list = []
    r._run(st, ScriptedDice(seed=3), events)
    return st, " ".join(e.text for e in events)


GER = {"ghq": "4820", "g": "4821", "ga": "4820", "s": "5530"}


def test_17_3_2_17_3_3_the_german_receives_the_tracks_rp_and_the_allies_rp_while_allied():
    r = _rules()
    st, text = _rr(r, GER, steps={"g": 1})
    top = st["stack"][-1]
    assert st["approval"]["level"] == 6                    # 17: down one first
    assert top["rp"] == {"ger": 2, "hun": 1, "rum": 1} and "17.3" in text
    st2 = vrhelp.engine_state(r, GER, {"k": "rr", "side": "german", "phase": "rr"}, side="german", turn=2,
                              allies={"hun": "soviet", "rum": "german"})
    r._run(st2, ScriptedDice(seed=3), [])
    assert st2["stack"][-1]["rp"] == {"ger": 2, "rum": 1}          # Hungary changed sides (17.3.3)


def test_17_3_2_no_german_rp_on_the_first_turn_or_after_a_dismissal_and_none_after_a_failed_withdrawal():
    r = _rules(schedule={"1": {"rp": {"hun": 1}}, "2": {"rp": {"hun": 1}}})
    st, text = _rr(r, GER, turn=1, steps={"g": 1})
    assert "Replacement Points: 1 hun (17.3)" in text and "first turn of the game" in text
    st = vrhelp.engine_state(r, GER, {"k": "rr", "side": "german", "phase": "rr"}, side="german", turn=2,
                             steps={"g": 1})
    st["approval"]["no_rp"] = True
    events: list = []
    r._run(st, ScriptedDice(seed=3), events)
    text = " ".join(e.text for e in events)
    assert "Replacement Points: 1 hun (17.3)" in text and "a Dismissal this turn" in text
    st = vrhelp.engine_state(r, GER, {"k": "rr", "side": "german", "phase": "rr"}, side="german", turn=2,
                             steps={"g": 1}, rp_forfeit=True)
    events = []
    r._run(st, ScriptedDice(seed=3), events)
    text = " ".join(e.text for e in events)
    assert "Replacement Points" not in text and "R-58" in text


def test_17_3_1_the_soviet_rp_come_from_the_schedule_and_a_basic_game_has_none():
    r = _rules()
    st, text = _rr(r, {"s": "5530", "g": "4922"}, side="soviet", steps={"sa": 1})
    assert "Soviet Replacement Points: 2 sov (17.3)" in text
    basic = _rules(switches={})
    st, text = _rr(basic, {"s": "5530", "g": "4922"}, side="soviet")
    assert "Replacement Points" not in text


def test_17_3_6_one_rp_flips_a_reduced_german_division_and_17_3_4_the_rest_is_lost():
    r = _rules()
    st, _ = _rr(r, GER, steps={"g": 1})
    d = r.pending(st)
    assert d.kind == "replace" and "rebuild g" in d.options and d.policy == "replace"
    vrhelp.order(r, st, "german", "rebuild g", ScriptedDice(seed=3))
    assert st["units"]["g"]["steps"] == 2 and st["stack"][-1]["rp"]["ger"] == 1
    assert "already" not in (probe(r, st, "german", r.parse("rebuild g", st, "german")) or "already")
    assert "full strength" in probe(r, st, "german", r.parse("rebuild g", st, "german"))
    events = vrhelp.order(r, st, "german", "done", ScriptedDice(seed=3))
    assert "lost (17.3.4)" in " ".join(e.text for e in events)
    assert all(f.get("k") != "rr" for f in st["stack"])


def test_17_3_12_no_step_next_to_the_enemy_out_of_supply_for_ss_units_or_in_an_advanced_fortification():
    r = _rules(switches={**SW, "to_rules": True, "fortification_classes": True},
               fortifications={"advanced": ["5020"]})
    st, _ = _rr(r, {**GER, "ss": "4920", "g": "4921", "h": "5020", "s": "5021"}, steps={"ss": 1, "g": 1, "h": 1})
    top = st["stack"][-1]
    assert "next to the enemy" in replace_refusal(r, st, top, "g")
    assert "SS unit" in replace_refusal(r, st, top, "ss")
    assert "advanced fortification" in replace_refusal(r, st, top, "h")
    st["units"]["s"]["hex"] = "5530"
    st["units"]["g"]["oos"] = True
    assert "out of supply" in replace_refusal(r, st, top, "g")


def replace_refusal(r, st, top, uid, h=None):
    from pbem.games.vr import replace
    return replace.refusal(r, st, top, uid, h) or ""


def test_17_3_11_an_eliminated_division_comes_back_reduced_with_a_supplied_hq_of_its_nationality():
    r = _rules()
    st, _ = _rr(r, {"ghq": "4820", "s": "5530"})
    assert "rebuild g 4820" in r.pending(st).options
    assert "supplied ger HQ" in probe(r, st, "german", r.parse("rebuild g 5022", st, "german"))
    assert "supplied hun HQ" in probe(r, st, "german", r.parse("rebuild h 4820", st, "german"))  # nationality
    vrhelp.order(r, st, "german", "rebuild g 4820", ScriptedDice(seed=3))
    assert st["units"]["g"]["hex"] == "4820" and st["units"]["g"]["steps"] == 1 and st["units"]["g"]["box"] is None
    assert "SS unit" in probe(r, st, "german", r.parse("rebuild ss 4820", st, "german"))


def test_17_3_11_a_rebuilt_elite_division_arrives_next_turn_as_a_reinforcement():
    r = _rules()
    st, _ = _rr(r, {"ghq": "4820", "s": "5530"})
    assert "name no hex" in probe(r, st, "german", r.parse("rebuild ge 4820", st, "german"))
    vrhelp.order(r, st, "german", "rebuild ge", ScriptedDice(seed=3))
    assert st["units"]["ge"]["box"] == "turn:3" and st["units"]["ge"]["steps"] == 1 and st["units"]["ge"]["hex"] is None


def test_17_3_7_an_armored_german_division_costs_one_rp_and_one_support():
    r = _rules()
    st, _ = _rr(r, GER, steps={"ga": 1})
    assert "one RP and one Support" in probe(r, st, "german", r.parse("rebuild ga", st, "german"))
    h = vrhelp.give_supports(st, "german", ["luftwaffe"])[0] if "luftwaffe" in r.scn.supports else \
        vrhelp.give_supports(st, "german", [next(s for s, x in r.scn.supports.items() if x.side == "german"
                                                 and x.kind != "end_of_reich")])[0]
    assert f"rebuild ga with {h}" in r.pending(st).options
    events = vrhelp.order(r, st, "german", f"rebuild ga with {h}", ScriptedDice(seed=3))
    assert st["units"]["ga"]["steps"] == 2 and h not in st["supports"]["german"]["available"]
    assert "expends" in " ".join(e.text for e in events)


def test_17_3_5_an_eliminated_hq_is_rebuilt_in_a_major_city_of_its_nationality():
    r = _rules()
    st, _ = _rr(r, {"ghq": "4820", "s": "5530"})
    assert "rebuild ghq2 5022" in r.pending(st).options
    assert "Major City of its nationality" in probe(r, st, "german", r.parse("rebuild ghq2 4820", st, "german"))
    vrhelp.order(r, st, "german", "rebuild ghq2 5022", ScriptedDice(seed=3))
    assert st["units"]["ghq2"]["hex"] == "5022"


# ------------------------------------------------------------ the Soviet
ADV = {"to_rules": True, "infantry_modes": True, "advanced_supports": True, "stavka": True, "rr_procedure": True}


def _soviet_rules():
    units = {f"c{i}": u("sov", 6, corps=True, start="corps_pile") for i in range(1, 3)}
    return _rules(switches=ADV, units=units, control={"default": "soviet"},
                  markers={"tos": {"CN": {"hex": "5530", "mode": "offensive"},
                                   "N": {"hex": "6020", "mode": "offensive"}}})


def _soviet_rr(r, placed, **kw):
    st = vrhelp.engine_state(r, placed, {"k": "rr", "side": "soviet", "phase": "rr"}, turn=2, **kw)
    for c in ("c1", "c2"):
        st["units"][c]["box"] = "corps_pile"
    r._run(st, ScriptedDice(seed=3), [])
    return st


def test_17_3_8_one_soviet_rp_draws_an_infantry_corps_from_the_pile_in_standard_mode():
    r = _soviet_rules()
    st = _soviet_rr(r, {"s": "5530", "g": "4820"})
    d = r.pending(st)
    assert d.kind == "replace" and "rebuild corps" in d.options
    assert "rebuild corps" in probe(r, st, "soviet", r.parse("rebuild s", st, "soviet")) or \
        "pile" in probe(r, st, "soviet", r.parse("rebuild s", st, "soviet"))
    vrhelp.order(r, st, "soviet", "rebuild corps", ScriptedDice(seed=3))
    d = r.pending(st)
    assert d.kind == "corps-reveal" and st["stack"][-1]["rp"]["sov"] == 1
    r.apply(st, "soviet", r.private_answer(st, d), ScriptedDice(seed=3))
    drawn = [c for c in ("c1", "c2") if st["units"][c]["box"] == "arriving"]
    assert len(drawn) == 1 and st["units"][drawn[0]]["steps"] == 1            # Standard Mode
    assert r.pending(st).kind == "place"


def test_17_3_9_an_eliminated_soviet_armored_corps_goes_to_the_stavka_box_for_one_rp_and_one_support():
    r = _soviet_rules()
    st = _soviet_rr(r, {"s": "5530", "g": "4820"})
    h = vrhelp.give_supports(st, "soviet", ["katyushas"])[0]
    st["supports"]["soviet"].setdefault("box", {})[h] = "N"
    assert "Stavka box, not on a hex" in probe(r, st, "soviet", r.parse(f"rebuild sa 5530 with {h}", st, "soviet"))
    vrhelp.order(r, st, "soviet", f"rebuild sa with {h}", ScriptedDice(seed=3))
    assert st["units"]["sa"]["box"] == "stavka" and st["units"]["sa"]["steps"] == 2


def test_17_3_10_a_reduced_soviet_armored_corps_flips_with_a_support_from_the_box_of_a_to_in_range():
    r = _soviet_rules()
    st = _soviet_rr(r, {"s": "5530", "shq": "5530", "sa": "5529", "g": "4820"}, steps={"sa": 1})
    far, near = vrhelp.give_supports(st, "soviet", ["katyushas", "air_support"])
    st["supports"]["soviet"].setdefault("box", {}).update({far: "N", near: "CN"})
    assert "17.3.10" in probe(r, st, "soviet", r.parse(f"rebuild sa with {far}", st, "soviet"))
    assert f"rebuild sa with {near}" in r.pending(st).options
    vrhelp.order(r, st, "soviet", f"rebuild sa with {near}", ScriptedDice(seed=3))
    assert st["units"]["sa"]["steps"] == 2
    st2 = copy.deepcopy(st)
    st2["units"]["sa"]["steps"] = 1
    st2["tos"]["CN"]["hex"] = "6020"
    st2["tos"]["N"]["hex"] = "6020"
    assert "outside every TO" in replace_refusal(r, st2, st2["stack"][-1], "sa")


def test_17_3_a_rebuild_order_reads_and_prints_back():
    r = _rules()
    for text in ("rebuild corps", "rebuild g 4921", "rebuild ga with g-3", "rebuild ghq2 4820 with g-1"):
        assert r.format(r.parse(text, {}, "german")) == text
    with pytest.raises(IllegalOrder):
        r.parse("rebuild g 4921 using g-3", {}, "german")
