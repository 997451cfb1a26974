"""Moscow '41 rules that no test reached (issue 9, item 18): each is driven
through the real engine (fill_secrets, apply, the battles) and asserts what
the rulebook says, so that breaking the rule fails here.  The river-crossing
die through a real move and battle is in test_m41_play_details.py."""
from __future__ import annotations

import copy

import pytest

from pbem.game import IllegalOrder
from pbem.games.m41 import mechanics as mx
from fakedice import d6
from m41help import (RULES, SC, FakeRng, begin, empty_board, german_everywhere, options_begin, options_board,
                     options_play, options_rules, play, put)


# --- 10.5 / E17: an exhausted HQ has no range, no artillery, no fire ---------------------------------------

def _heart_guderian():
    state = empty_board()
    german_everywhere(state, "14")
    gud = put(state, "german", "G-2Pg-HQ", "9", strength=0)
    here = put(state, "german", "G-DR", "9")
    near = put(state, "german", "G-24PzK", "8")        # Red, one area away: in range of any Guderian with stars
    put(state, "soviet", "S-13A", "14", strength=1)
    begin(state, "german")
    return state, gud, here, near


def test_10_5_E17_an_exhausted_hq_commands_only_its_own_area():
    state, gud, here, near = _heart_guderian()
    play(copy.deepcopy(state), "german", {"verb": "ti", "activate": [{"token": gud, "path": []}],
                                          "moves": [{"token": here, "path": ["3"]}]}, FakeRng(0))
    with pytest.raises(IllegalOrder, match="no activated HQ commands it"):
        play(copy.deepcopy(state), "german", {"verb": "ti", "activate": [{"token": gud, "path": []}],
                                              "moves": [{"token": near, "path": ["2"]}]}, FakeRng(0))


def test_10_5_E17_an_exhausted_hq_fires_no_artillery_and_is_destroyed_at_deactivation():
    state, gud, here, near = _heart_guderian()
    with pytest.raises(IllegalOrder, match="only an activated HQ with stars fires artillery"):
        play(copy.deepcopy(state), "german", {"verb": "ti", "activate": [{"token": gud, "path": []}],
                                              "moves": [{"token": here, "path": ["14"]}],
                                              "artillery": {gud: "14"}}, FakeRng(0))
    after, events = play(copy.deepcopy(state), "german", {"verb": "ti", "activate": [{"token": gud, "path": []}]},
                         FakeRng(0))
    assert gud not in after["tokens"] and after["german_lost"] == 1 and "G-2Pg-HQ" in after["eliminated"]["german"]


def test_10_5_E17_an_exhausted_hq_in_a_battle_rolls_no_dice():
    state = empty_board()
    german_everywhere(state, "14")
    put(state, "soviet", "S-W-HQ", "14", strength=0)
    gud = put(state, "german", "G-2Pg-HQ", "9")
    inf = put(state, "german", "G-5K", "9")
    begin(state, "german")
    rng = FakeRng(0, d6(*[1] * 10))
    play(state, "german", {"verb": "ti", "activate": [{"token": gud, "path": []}],
                           "moves": [{"token": inf, "path": ["14"]}], "skip": ["blitz", "exploit"]}, rng)
    assert not [p for p, _ in rng.log if p.startswith("soviet fire")]


# --- 2.7: Stalin counts for stacking in Moscow ----------------------------------------------------------------

def test_2_7_stalin_takes_one_of_moscows_two_places():
    state = empty_board(side="soviet")
    for a in state["control"]:
        state["control"][a] = "soviet"
    assert SC.terrain[SC.moscow] == "victory" and mx.stacking_limit(SC, SC.moscow) == 2
    put(state, "soviet", "S-16A", SC.moscow)
    second = put(state, "soviet", "S-19A", "38")
    begin(state, "soviet")
    with pytest.raises(IllegalOrder, match="more than 2 soviet"):
        play(copy.deepcopy(state), "soviet", {"verb": "pass", "moves": [{"token": second, "path": [SC.moscow]}]},
             FakeRng(0))
    state["stalin_alive"] = False                           # with Stalin gone there is room for two blocks
    after, _ = play(state, "soviet", {"verb": "pass", "moves": [{"token": second, "path": [SC.moscow]}]}, FakeRng(0))
    assert len(mx.tokens_in(after, SC.moscow, "soviet")) == 2


# --- 7.2.1.1: Snow spares the LV only of a side holding both Moscow and Leningrad -----------------------------

@pytest.mark.parametrize("moscow,leningrad,halved", [("soviet", "soviet", False), ("soviet", "german", True),
                                                     ("german", "soviet", True)])
def test_7_2_1_1_snow_halves_unless_both_moscow_and_leningrad_are_held(moscow, leningrad, halved):
    state = empty_board(side="soviet", weather="snow")
    for a in state["control"]:
        state["control"][a] = "soviet"
    state["control"][SC.moscow] = moscow
    state["discs"]["leningrad"] = leningrad
    state["initiative"] = "soviet"
    put(state, "soviet", "S-W-HQ", "38", strength=2)
    tank = put(state, "soviet", "S-5MK", "24")
    state["stalin_alive"] = True
    begin(state, "soviet")
    raw = state["leaders"]["soviet"] + 1 + mx.vp(state, SC, "soviet") + state["german_lost"] // 10
    filled = RULES.fill_secrets(state, "soviet", RULES.parse(f"si A; move {tank} 29", state, "soviet"),
                                lambda: b"\x03" * 16)
    assert filled["lv"] == (raw // 2 if halved else raw)
    after, events = RULES.apply(copy.deepcopy(state), "soviet", filled, FakeRng(0))
    assert any(f"LV {filled['lv']}" in e.text for e in events)


# --- E11: a Defensive Line rolls one single-fire die ----------------------------------------------------------

def test_10_12_3_E11_a_defensive_line_rolls_one_die_in_the_battle():
    state = empty_board()
    german_everywhere(state, "22")
    state["dl"]["22"] = "soviet"
    put(state, "soviet", "S-W-HQ", "22", strength=0)
    gud = put(state, "german", "G-2Pg-HQ", "17")
    t1, t2 = put(state, "german", "G-24PzK", "17"), put(state, "german", "G-47PzK", "23")
    state["control"]["23"] = "german"
    begin(state, "german")
    rng = FakeRng(0, d6(*[5] + [1] * 10))          # a 5 misses on single fire (hits on 6 only)
    after, events = play(state, "german", {"verb": "ti", "activate": [{"token": gud, "path": []}],
                                           "moves": [{"token": t1, "path": ["22"]}, {"token": t2, "path": ["22"]}],
                                           "skip": ["blitz", "exploit"]}, rng)
    soviet = [p for p, _ in rng.log if p.startswith("soviet fire")]
    assert soviet == ["soviet fire Vyazma, DL"]                        # one die, and the heart HQ none
    assert {after["tokens"][t1]["strength"], after["tokens"][t2]["strength"]} == {4}   # 5 is no hit for SF


# --- 10.13: a City below the cap ------------------------------------------------------------------------------

@pytest.mark.parametrize("dl,absorb", [(False, 1), (True, 2)])
def test_10_13_a_defender_city_on_green_absorbs_one_below_the_cap(dl, absorb):
    state = empty_board()
    german_everywhere(state, "13")
    assert "13" in SC.cities and SC.terrain["13"] == "green"
    if dl:
        state["dl"]["13"] = "soviet"
    put(state, "soviet", "S-16A", "13", strength=3)
    gud = put(state, "german", "G-2Pg-HQ", "8")
    inf = put(state, "german", "G-5K", "8")
    begin(state, "german")
    rng = FakeRng(0, d6(*[1] * 10 + [6] * 10))
    after, events = play(state, "german", {"verb": "ti", "activate": [{"token": gud, "path": []}],
                                           "moves": [{"token": inf, "path": ["13"]}], "skip": ["blitz", "exploit"]},
                         rng)
    assert any(e.text.startswith(f"battle in {SC.area_name('13')}: german attacks, absorb {absorb}") for e in events)


# --- OR 14.4 for the Soviet side ------------------------------------------------------------------------------

def test_14_4_soviet_rail_move_any_distance_through_friendly_uncontested_areas_never_a_staging_area():
    rules = options_rules("or14_4_rail")
    state = options_board(rules, side="soviet")
    for a in state["control"]:
        state["control"][a] = "soviet"
    for a in ("16A", "9A", "4A", "2A", "13"):
        state["control"][a] = "german"
    tank = put(state, "soviet", "S-5MK", "40")
    options_begin(rules, state, "soviet")
    reach = mx.rail_reach(state, SC, "soviet", "40")
    assert "1" in reach and not set(SC.staging) & reach and "13" not in reach
    after, events = options_play(rules, copy.deepcopy(state), "soviet",
                          rules.parse(f"pass; rail {tank} 1", state, "soviet"), FakeRng(0))
    assert after["tokens"][tank]["area"] == "1" and any("by rail" in e.text for e in events)
    for dest in ("13", "9A"):
        with pytest.raises(IllegalOrder, match="no rail line"):
            options_play(rules, copy.deepcopy(state), "soviet", rules.parse(f"pass; rail {tank} {dest}", state, "soviet"),
                  FakeRng(0))
    state["control"]["9A"] = "soviet"                               # even Soviet-held, never a Staging Area
    with pytest.raises(IllegalOrder, match="no rail line"):
        options_play(rules, copy.deepcopy(state), "soviet", rules.parse(f"pass; rail {tank} 9A", state, "soviet"),
              FakeRng(0))
    other = put(state, "soviet", "S-16A", "38")
    with pytest.raises(IllegalOrder, match="one block act"):                # 12.0: a Pass moves one block
        options_play(rules, copy.deepcopy(state), "soviet", rules.parse(f"pass; rail {tank} 1; move {other} 37", state,
                                                                 "soviet"), FakeRng(0))
