"""Moscow '41 play details (issue 9, item 13): the Logistics Value is
computed by the player's own program, never typed (7.2.1); a tie question
whose answer changes nothing is not asked (10.14.1); the turn log says what
happened where the program chose (rebuilds, reinforcements sent to another
box, the river-crossing die) without naming a hidden block; area names are
not doubled; the hints give Moscow '41 examples."""
from __future__ import annotations

import copy

import pytest

from pbem.game import IllegalOrder
from pbem.games.m41 import mechanics as mx
from fakedice import d6
from m41help import RULES, SC, FakeRng, begin, empty_board, german_everywhere, play, put, salts


# --- 7.2.1: the LV is computed, never typed ---------------------------------------------------------

def _si_board():
    state = empty_board()
    german_everywhere(state)
    tank = put(state, "german", "G-24PzK", "9")
    put(state, "german", "G-2Pg-HQ", "9")
    state["initiative"] = "german"
    begin(state, "german")
    return state, tank


def test_7_2_1_an_si_order_without_lv_gets_the_computed_value_from_its_own_program():
    state, tank = _si_board()
    order = RULES.parse(f"si A; move {tank} 3", state, "german")
    assert "lv" not in order and RULES.format(order) == f"si A; move {tank} 3"
    filled = RULES.fill_secrets(state, "german", order, salts("si"))
    assert filled["lv"] == mx.logistics_value(state, SC, "german")
    after, events = RULES.apply(copy.deepcopy(state), "german", filled, FakeRng(0))
    assert any(f"LV {filled['lv']}" in e.text for e in events)
    blind = copy.deepcopy(state)                       # the opponent's program checks the stated value's bounds
    blind["hidden"]["german"] = None
    RULES.apply(copy.deepcopy(blind), "german", {k: v for k, v in filled.items() if k != "secret"}, FakeRng(0))
    with pytest.raises(IllegalOrder, match="Logistics Value"):
        RULES.apply(copy.deepcopy(blind), "german", {"verb": "si", "option": "A",
                                                     "moves": [{"token": tank, "path": ["3"]}]}, FakeRng(0))


def test_7_2_1_decision_templates_ask_for_no_lv():
    state, tank = _si_board()
    d = RULES.pending(state)
    assert not [o for o in d.options if " lv " in f" {o} "]
    assert "G05" in d.hint and "7Pz" not in d.hint
    with pytest.raises(IllegalOrder, match="si A; move"):
        RULES.parse("si A lv", state, "german")


# --- 10.14.1: no tie question whose answer changes nothing -------------------------------------------

def _tied_battle(soviets, hits):
    """A battle in 14 with the German attacking; ``hits`` hits land on the
    Soviet blocks ``soviets`` (block, strength), all revealed."""
    state = empty_board()
    german_everywhere(state, "14")
    put(state, "german", "G-24PzK", "14", revealed=True)
    toks = [put(state, "soviet", b, "14", strength=s, revealed=True) for b, s in soviets]
    state["active"] = "german"
    state["combat"] = {"queue": [], "newly": [], "artillery": {}}
    b = mx.open_battle(state, SC, "14", [])
    state["combat"]["battle"] = b
    b["absorb"] = 0
    b["hits"] = {"side": "soviet", "n": hits}
    return state, b, toks


def test_10_14_1_no_question_when_every_tied_block_dies_anyway():
    state, b, toks = _tied_battle([("S-16A", 2), ("S-19A", 2)], 4)
    assert mx._apply_hits(state, SC, b, [], None) is None            # not asked
    assert not [t for t in toks if t in state["tokens"]]


def test_10_14_1_the_question_is_asked_when_the_pick_decides_who_survives():
    state, b, toks = _tied_battle([("S-16A", 2), ("S-19A", 2)], 3)
    assert mx._apply_hits(state, SC, b, [], None) == "soviet" and sorted(b["tie"]) == sorted(toks)


def test_10_14_1_an_idle_first_question_is_skipped_the_deciding_one_is_asked():
    # two 2s and a 1 take four hits: the first pick between the 2s changes nothing (both end at 1),
    # then three 1s share two hits: which one survives is the owner's choice
    state, b, toks = _tied_battle([("S-16A", 2), ("S-19A", 2), ("S-13A", 1)], 4)
    assert mx._apply_hits(state, SC, b, [], None) == "soviet"
    assert sorted(b["tie"]) == sorted(toks) and b["hits"]["n"] == 2


# --- the turn log: rebuilds, reinforcements sent to a box, the river die -------------------------------

def _events_text(events):
    return "\n".join(e.text for e in events)


def _hidden_ids(state, side):
    return {e["block"] for e in state["hidden"][side]["blocks"].values()} | set(state["hidden"][side]["pool"])


def test_7_2_2_the_owners_log_confirms_his_rebuild_without_naming_a_block():
    state = empty_board()
    german_everywhere(state)
    hq = put(state, "german", "G-2Pg-HQ", "9", strength=2)
    inf = put(state, "german", "G-5K", "8", strength=1)
    state["phase"], state["logistics_queue"] = "logistics", ["german"]
    after, events = play(state, "german", RULES.parse(f"logistics activate; regen {hq} 1; replace {inf} 1", state,
                                                      "german"), FakeRng(0))
    text = _events_text(events)
    # 7.1 H5: the log says points were spent in secret, the same words whatever was rebuilt, no token
    assert "german: regeneration and replacement points spent in secret (7.2.2)" in text
    assert hq not in text and inf not in text
    assert after["hidden"]["german"]["blocks"][hq]["strength"] == 3
    assert after["hidden"]["german"]["blocks"][inf]["strength"] == 2
    assert not [b for b in _hidden_ids(state, "german") if b in text]       # the turn log goes to the opponent


def test_5_0_a_drawn_l_block_sent_to_hoepners_box_says_why():
    state = empty_board()
    german_everywhere(state)
    put(state, "german", "G-4Pg-HQ", "Pskov")
    state["hidden"]["german"]["pool"] = ["G-41PzK"]
    state["pool_count"]["german"] = 1
    state["initiative"] = "german"
    begin(state, "german")
    after, events = play(state, "german", RULES.parse("si B; draw 1", state, "german"), FakeRng(0))
    assert "joins Hoepner in Pskov: a drawn 'L' block enters his box" in _events_text(events)
    assert "G-41PzK" not in _events_text(events)


def _river_battle(weather="good"):
    """Guderian in 9 sends the 24th Panzer Corps across the 9-14 river into
    Soviet-held 14 (Green): a new battle."""
    state = empty_board(weather=weather)
    german_everywhere(state, "14")
    assert SC.graph.feature("9", "14", "river")
    gud = put(state, "german", "G-2Pg-HQ", "9")
    tank = put(state, "german", "G-24PzK", "9")
    put(state, "soviet", "S-13A", "14", strength=3)
    begin(state, "german")
    rng = FakeRng(0, d6(*[1] * 20))
    order = {"verb": "ti", "activate": [{"token": gud, "path": []}], "moves": [{"token": tank, "path": ["14"]}],
             "skip": ["blitz", "exploit"]}
    after, events = play(state, "german", order, rng)
    return after, events, rng, tank


def test_10_12_5_1_river_crossing_rolls_one_die_through_a_real_move_and_battle_and_the_log_names_it():
    after, events, rng, tank = _river_battle()
    german_dice = [p for p, _ in rng.log if p.startswith("german fire")]
    assert len(german_dice) == 1                                       # a 4-dot tank, one die
    assert f"{tank} engaged across a river into newly contested" in _events_text(events)
    assert "(10.12.5.1)" in _events_text(events)
    assert [p for p, _ in rng.log if " fire " in p][0].startswith("soviet")     # and no Tank Attack


def test_10_12_5_1_frozen_rivers_in_snow_no_penalty_and_no_mention():
    after, events, rng, tank = _river_battle(weather="snow")
    assert len([p for p, _ in rng.log if p.startswith("german fire")]) == 2     # halved in Snow (8), not 1
    assert "across a river" not in _events_text(events)


# --- names, hints ---------------------------------------------------------------------------------------

def test_a_box_is_named_once_in_the_sitrep():
    from m41help import view_text
    state = empty_board()
    put(state, "german", "G-4Pg-HQ", "Pskov")
    put(state, "german", "G-5K", "22")
    text = view_text(state, None, width=300)
    assert "Pskov Pskov" not in text and "Pskov" in text and f"22 {SC.area_name('22')}" in text
