"""Moscow '41 Road to Leningrad, Shlisselburg and Leningrad (10.9, 13.3),
Kiev (13.2): E8 first, then D28-D32 and D38 of the notes."""
from __future__ import annotations

import pytest

from pbem.game import IllegalOrder
from pbem.games.m41 import mechanics as mx
from fakedice import d6
from m41help import RULES, SC, FakeRng, begin, empty_board, play, put


def _road(box, company, weather="good", strength=4):
    state = empty_board(weather=weather)
    hoepner = put(state, "german", "G-4Pg-HQ", box, strength=strength)
    blocks = [put(state, "german", b, box) for b in company]
    begin(state, "german")
    return state, hoepner, blocks


def test_10_9_E8_snow_two_dice_two_hits_one_companion_one_box():
    state, hoepner, (tt,) = _road("Novgorod", ["G-TT"], weather="snow")
    rng = FakeRng(0, d6(5, 6))
    state, events = play(state, "german", {"verb": "ti", "activate": [{"token": hoepner, "path": []}]}, rng)
    assert [p for p, _ in rng.log] == [f"road to Leningrad, {hoepner}"] * 2
    assert state["tokens"][hoepner]["area"] == "Pushkin" and state["tokens"][tt]["area"] == "Pushkin"
    assert state["hidden"]["german"]["blocks"][hoepner]["strength"] == 3     # reduced at Deactivation ...
    assert not state["tokens"][hoepner]["revealed"]                         # ... and concealed (10.17)


def test_10_9_D32_no_companion_no_advance_but_still_reduced():
    state, hoepner, _ = _road("Luga", [])
    state, _ = play(state, "german", {"verb": "ti", "activate": [{"token": hoepner, "path": []}]}, FakeRng(0, d6(6, 6, 6, 1)))
    assert state["tokens"][hoepner]["area"] == "Luga" and state["hidden"]["german"]["blocks"][hoepner]["strength"] == 3


def test_13_3_1_D30_passing_shlisselburg_cuts_the_western_north_border_at_once():
    state, hoepner, blocks = _road("Pushkin", ["G-TT", "G-41PzK", "G-56PzK"])
    assert set(SC.supply["lightblue"]) <= set(mx.sources(state, SC, "soviet"))
    state, _ = play(state, "german", {"verb": "ti", "activate": [{"token": hoepner, "path": []}]}, FakeRng(0, d6(6, 6, 1, 1)))
    assert state["tokens"][hoepner]["area"] == "Leningrad"
    assert state["discs"]["shlisselburg"] == "german" and state["discs"]["leningrad"] == "soviet"
    assert not set(SC.supply["lightblue"]) & set(mx.sources(state, SC, "soviet"))


def test_13_3_D31_leningrad_falls_in_the_final_phase():
    state, hoepner, blocks = _road("Shlisselburg", ["G-TT"])
    state, _ = play(state, "german", {"verb": "ti", "activate": [{"token": hoepner, "path": []}]}, FakeRng(0, d6(6, 1, 1, 1)))
    vp = mx.vp(state, SC, "german")
    pool = state["pool_count"]["german"]
    RULES._final_phase(state, FakeRng(0), [])
    assert state["discs"]["leningrad"] == "german" and mx.vp(state, SC, "german") == vp + 1
    assert state["pool_count"]["german"] == pool + 2 and hoepner not in state["tokens"]
    assert {"G-4Pg-HQ", "G-TT"} <= set(state["hidden"]["german"]["pool"])
    assert not set(SC.supply["blue"]) & set(mx.sources(state, SC, "soviet"))


def test_10_9_road_advance_only_in_a_tactical_impulse_and_without_artillery():
    state, hoepner, _ = _road("Luga", ["G-TT"])
    with pytest.raises(IllegalOrder, match="no artillery"):
        play(state, "german", {"verb": "ti", "activate": [{"token": hoepner, "path": []}],
                               "artillery": {hoepner: "Novgorod"}}, FakeRng(0))
    with pytest.raises(IllegalOrder):
        play(state, "german", {"verb": "pass", "moves": [{"token": hoepner, "path": ["Novgorod"]}]}, FakeRng(0))


def test_13_2_D28_kiev_falls_when_chernigov_and_romny_are_german():
    state = empty_board()
    for a in SC.special_cities.values():
        state["control"][a] = "german"
    vp = mx.vp(state, SC, "german")
    RULES._final_phase(state, FakeRng(0), [])
    assert state["discs"]["kiev"] == "german" and mx.vp(state, SC, "german") == vp + 1
    assert "G-48PzK" in state["hidden"]["german"]["pool"]
    assert not set(SC.supply["south"]) & set(mx.sources(state, SC, "soviet"))
