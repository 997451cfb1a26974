"""Moscow '41 Luftwaffe (10.10, 10.12.3-10.12.4, 13.1): worked examples E9
and E10 first, then the activation limits."""
from __future__ import annotations

import copy

import pytest

from pbem.game import IllegalOrder
from fakedice import d6
from m41help import RULES, FakeRng, begin, empty_board, german_everywhere, play, put


def _e10(weather="good"):
    state = empty_board(weather=weather)
    german_everywhere(state, "14")
    state["dl"]["14"] = "soviet"
    tank = put(state, "soviet", "S-5MK", "14", strength=3)
    inf = put(state, "soviet", "S-16A", "14", strength=3)
    hq = put(state, "german", "G-2Pg-HQ", "9")
    a1 = put(state, "german", "G-24PzK", "9")
    a2 = put(state, "german", "G-47PzK", "9")
    fk2 = put(state, "german", "G-2FK", "8")
    fk8 = put(state, "german", "G-8FK", "8")
    begin(state, "german")
    return state, dict(hq=hq, a1=a1, a2=a2, fk2=fk2, fk8=fk8, tank=tank, inf=inf)


def _ti(t, air):
    return {"verb": "ti", "activate": [{"token": t["hq"], "path": []}, {"token": t["fk2"], "path": []},
                                       {"token": t["fk8"], "path": []}],
            "moves": [{"token": t["a1"], "path": ["14"]}, {"token": t["a2"], "path": ["14"]}], "air": air}


def test_10_12_3_E10_three_aa_hits_one_destroyed_one_aborted_four_bombers_strike():
    state, t = _e10()
    air = [{"hq": t["fk2"], "area": "14", "he111": 4}, {"hq": t["fk8"], "area": "14", "stuka": 2}]
    # AA: tank 3 dice DF [5,1,1] = 1, infantry 3 dice SF [6,1,1] = 1, DL 1 die SF [6] = 1
    rng = FakeRng(0, d6(5, 1, 1, 6, 1, 1, 6))
    state, _ = play(state, "german", _ti(t, air), rng)
    d = RULES.pending(state)
    assert (d.side, d.kind, d.policy) == ("german", "aa", "aa")
    aa = [p for p, _ in rng.log if p.startswith("AA")]
    assert len(aa) == 7
    with pytest.raises(IllegalOrder, match="3 hits"):
        RULES.apply(copy.deepcopy(state), "german", RULES.parse("aa destroyed he111 1", state, "german"), rng)
    order = RULES.parse("aa destroyed he111 1 aborted he111 1", state, "german")
    assert RULES.format(order) == "aa destroyed he111 1 aborted he111 1"
    state, _ = RULES.apply(state, "german", order, rng)
    strikes = [p for p, _ in rng.log if p.startswith("airstrike")]
    assert strikes.count("airstrike Pochep, he111") == 2 * 4 and strikes.count("airstrike Pochep, stuka") == 2 * 4
    assert state["air"]["destroyed"]["he111"] == 1 and state["air"]["aborted"]["he111"] == 1
    assert state["air"]["ready"] == {"he111": 4, "stuka": 2}


def test_10_12_3_E10_the_only_other_split_is_three_aborts():
    from pbem.games.m41 import air
    b = {"aa_hits": 3, "bombers": [{"hq": "G01", "he111": 4, "stuka": 0}, {"hq": "G02", "he111": 0, "stuka": 2}]}
    assert air.check_aa_result(b, {"aborted": {"he111": 3}}) == ({"he111": 0, "stuka": 0}, {"he111": 3, "stuka": 0})
    assert air.aa_policy(b, "destroy") == {"verb": "aa", "destroyed": {"he111": 1, "stuka": 0},
                                           "aborted": {"he111": 1, "stuka": 0}}
    assert air.aa_policy(b, "abort stuka")["aborted"] == {"he111": 1, "stuka": 2}
    with pytest.raises(IllegalOrder):
        air.check_aa_result(b, {"destroyed": {"he111": 2}})


def test_10_10_1_E9_2fk_at_four_commits_four_he111_within_four_areas():
    state, t = _e10()
    with pytest.raises(IllegalOrder, match="strength allows 4"):
        play(state, "german", _ti(t, [{"hq": t["fk2"], "area": "14", "he111": 5}]), FakeRng(0))
    with pytest.raises(IllegalOrder, match="Stukas fly only for the G-8FK"):
        play(state, "german", _ti(t, [{"hq": t["fk2"], "area": "14", "stuka": 1}]), FakeRng(0))
    rng = FakeRng(0, d6(*[1] * 7))            # no AA hit
    state, _ = play(state, "german", _ti(t, [{"hq": t["fk2"], "area": "14", "he111": 4}]), rng)
    assert [p for p, _ in rng.log].count("airstrike Pochep, he111") == 16


def test_10_10_rain_lets_an_lw_hq_send_one_bomber():
    state, t = _e10(weather="rain")
    with pytest.raises(IllegalOrder, match="allows 1"):
        play(state, "german", _ti(t, [{"hq": t["fk2"], "area": "14", "he111": 2}]), FakeRng(0))


def test_10_10_lw_hq_is_never_the_only_hq_and_never_exhausted():
    state, t = _e10()
    only = {"verb": "ti", "activate": [{"token": t["fk2"], "path": []}]}
    with pytest.raises(IllegalOrder, match="after a Tactical HQ"):
        play(state, "german", only, FakeRng(0))
    state["hidden"]["german"]["blocks"][t["fk8"]]["strength"] = 0
    with pytest.raises(IllegalOrder, match="exhausted LW HQ"):
        play(state, "german", _ti(t, []), FakeRng(0))


def test_10_14_3_aborted_bombers_back_next_german_impulse_destroyed_next_turn():
    state, t = _e10()
    air = [{"hq": t["fk2"], "area": "14", "he111": 4}, {"hq": t["fk8"], "area": "14", "stuka": 2}]
    state, _ = play(state, "german", _ti(t, air), FakeRng(0, d6(5, 1, 1, 6, 1, 1, 6)))
    state, _ = RULES.apply(state, "german", {"verb": "aa", "policy": "abort"}, FakeRng(0))
    assert state["air"]["aborted"]["he111"] == 3
    RULES._start_impulse(state, FakeRng(0), [])
    assert state["air"]["aborted"]["he111"] == 0 or state["active"] != "german"
    state["air"]["destroyed"]["stuka"] = 1
    state["active"] = "german"
    RULES._start_impulse(state, FakeRng(0), [])
    assert state["air"]["aborted"]["he111"] == 0 and state["air"]["destroyed"]["stuka"] == 1
    from pbem.games.m41 import air as airmod
    airmod.destroyed_return(state)
    assert state["air"]["destroyed"]["stuka"] == 0
