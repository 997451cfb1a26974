"""Moscow '41 owner-chosen set-up (scenarios 2 and 3, 5.5-5.6): areas chosen
within the scenario's limits, DLs placed by choice, blocks picked by the
owner, face-up blocks and contested start areas; Hoepner's artillery and the
Road out of play in those scenarios.  Run on the practice map with
set-up entries shaped like the Typhoon and Last Gasp ones."""
from __future__ import annotations

import copy

import pytest

from pbem.game import IllegalOrder, public
from pbem.games.m41 import GAME
from pbem.games.m41.rules import _group_key
from m41help import PRACTICE, FakeRng, empty_board, put, salts, shown


def _data():
    data = copy.deepcopy(PRACTICE)
    pl = data["placements"]
    pl[4] = {"side": "soviet", "choose": "adjacent", "of": "22", "colour": "blue", "type": "infantry"}
    pl[11] = {"side": "soviet", "choose": "frontline", "colour": "white", "type": "infantry"}
    pl[21] = {"side": "german", "choose": "near", "of": "9", "colour": "red", "type": "tank", "pick": True}
    pl[29] = {"side": "german", "choose": "list", "areas": ["17"], "colour": "lightblue", "type": "infantry",
              "strength": 2, "face_up": True}
    data["dl"].append({"side": "german", "choose": "frontline"})
    data["sequence"]["contested_start"] = ["17"]
    return data


def _push(rules, state, side, order):
    """The set-up order, then the owner's program shows the face-up blocks (a private reveal)."""
    order = rules.fill_secrets(state, side, order, salts(f"setup-{side}"))
    state, events = rules.apply(copy.deepcopy(state), side, order, FakeRng(0))
    d = rules.pending(state)
    if d is not None and d.private and d.kind == "reveal":
        state, more = rules.apply(copy.deepcopy(state), d.side, shown(state, d.side, rules.private_answer(state, d)),
                                  FakeRng(0))
        events += more
    return state, events


def _slot_token(state, index):
    """The token of the set-up group holding placement ``index`` (each group here has one)."""
    key = _group_key(_data()["placements"][index])
    return next(t for t, k in state["setup_group"].items() if k == key)


def test_5_6_owner_chosen_areas_picked_blocks_face_up_and_contested_start():
    rules = GAME.rules(_data(), {})
    state = rules.initial_state()
    s_adj, s_front = _slot_token(state, 4), _slot_token(state, 11)
    g_pick, g_face = _slot_token(state, 21), _slot_token(state, 29)
    assert state["tokens"][s_adj]["area"] == ""                      # not placed before its owner's set-up
    with pytest.raises(IllegalOrder, match="must say where"):
        _push(rules, state, "soviet", {"verb": "setup", "place": {s_front: "11"}})
    with pytest.raises(IllegalOrder, match="not adjacent to 22"):
        _push(rules, state, "soviet", rules.parse(f"setup; place {s_adj} 13; place {s_front} 11", state, "soviet"))
    with pytest.raises(IllegalOrder, match="front-line"):
        _push(rules, state, "soviet", rules.parse(f"setup; place {s_adj} 27; place {s_front} 36", state, "soviet"))
    state, _ = _push(rules, state, "soviet", rules.parse(f"setup; place {s_adj} 27; place {s_front} 11",
                                                         state, "soviet"))
    assert (state["tokens"][s_adj]["area"], state["tokens"][s_front]["area"]) == ("27", "11")
    with pytest.raises(IllegalOrder, match="places 1 Defensive Lines"):
        _push(rules, state, "german", rules.parse(f"setup; place {g_pick} 9; place {g_face} 17", state, "german"))
    with pytest.raises(IllegalOrder, match="cannot be picked"):
        _push(rules, state, "german", rules.parse(f"setup; place {g_pick} 9; place {g_face} 17; dl 8; "
                                                  f"pick {g_pick} G-39PzK", state, "german"))
    order = rules.parse(f"setup; place {g_pick} 14; place {g_face} 17; dl 8; pick {g_pick} G-47PzK", state, "german")
    state, _ = _push(rules, state, "german", order)
    assert state["hidden"]["german"]["blocks"][g_pick]["block"] == "G-47PzK"
    assert not state["tokens"][g_pick]["revealed"] and state["tokens"][g_pick]["area"] == "14"
    face = state["tokens"][g_face]
    assert face["revealed"] and face["area"] == "17" and face["strength"] == 2 and face["block"] in ("G-7K", "G-9K")
    assert state["control"]["17"] == "soviet" and state["dl"]["8"] == "german" and state["dl"]["17"] == "soviet"
    assert state["phase"] == "impulse" and "17" in state["contested_at_start"]


def test_5_6_contested_start_area_needs_a_german_block():
    data = _data()
    data["sequence"]["contested_start"] = ["17", "18"]
    rules = GAME.rules(data, {})
    state = rules.initial_state()
    s_adj, s_front = _slot_token(state, 4), _slot_token(state, 11)
    g_pick, g_face = _slot_token(state, 21), _slot_token(state, 29)
    state, _ = _push(rules, state, "soviet", rules.parse(f"setup; place {s_adj} 27; place {s_front} 11",
                                                         state, "soviet"))
    with pytest.raises(IllegalOrder, match="Yelnia starts contested"):
        _push(rules, state, "german", rules.parse(f"setup; place {g_pick} 9; place {g_face} 17; dl 8", state, "german"))


def test_5_6_a_blind_program_replays_the_set_up_from_the_public_order():
    rules = GAME.rules(_data(), {})
    state = rules.initial_state()
    s_adj, s_front = _slot_token(state, 4), _slot_token(state, 11)
    order = rules.fill_secrets(state, "soviet", rules.parse(f"setup; place {s_adj} 27; place {s_front} 11",
                                                            state, "soviet"), salts("blind"))
    full, _ = rules.apply(copy.deepcopy(state), "soviet", order, FakeRng(0))
    blind_order = {k: v for k, v in order.items() if k != "secret"}
    blind, _ = rules.apply(copy.deepcopy(state), "soviet", blind_order, FakeRng(0))
    assert public(blind) == public(full)


# --- scenario flags: the Road out of play ------------------------------------------------------

def _no_road():
    data = copy.deepcopy(PRACTICE)
    data["sequence"]["road_in_play"] = False
    return GAME.rules(data, {})


def test_5_5_road_out_of_play_hoepner_is_not_activated_on_it_and_leningrad_never_falls():
    rules = _no_road()
    state = empty_board()
    hoep = put(state, "german", "G-4Pg-HQ", "Shlisselburg")
    put(state, "german", "G-TT", "Shlisselburg")
    state["phase"] = "impulse"
    rules._start_impulse(state, FakeRng(0), [])
    with pytest.raises(IllegalOrder, match="Hoepner on his Road"):
        rules.apply(copy.deepcopy(state), "german", rules.fill_secrets(
            state, "german", {"verb": "ti", "activate": [{"token": hoep, "path": []}]}, salts("r")), FakeRng(0))
    state["control"]["Leningrad"] = "german"
    rules._final_phase(state, FakeRng(0), [])
    assert state["discs"]["leningrad"] == "soviet"


def test_5_5_road_out_of_play_l_blocks_reinforce_into_staging_areas():
    rules = _no_road()
    state = empty_board()
    state["hidden"]["german"]["pool"] = ["G-41PzK"]
    state["pool_count"]["german"] = 1
    state["phase"] = "impulse"
    rules._start_impulse(state, FakeRng(0), [])
    from pbem.games.m41 import mechanics as mx
    lv = mx.logistics_value(state, rules.sc, "german")
    order = rules.fill_secrets(state, "german", rules.parse(f"si B lv {lv}; draw 1", state, "german"), salts("l"))
    after, _ = rules.apply(copy.deepcopy(state), "german", order, FakeRng(0))
    tok = after["reinforcing"]["tokens"][0]
    assert after["hidden"]["german"]["blocks"][tok]["block"] == "G-41PzK"
    assert "9A" in rules.pending(after).options[1]                     # any Staging Area, not the Road
    after, _ = rules.apply(after, "german", rules.parse(f"reinforce {tok} 9A", after, "german"), FakeRng(0))
    assert after["tokens"][tok]["area"] == "9A"


def test_5_6_last_gasp_file_marks_choices_face_up_blocks_and_contested_start():
    import tomllib
    from m41help import ROOT
    d = tomllib.loads((ROOT / "scenarios/m41/lastgasp.toml").read_text())
    assert d["sequence"]["contested_start"] == ["4", "15", "17", "31"]
    face = [p["area"] for p in d["placements"] if p.get("face_up")]
    assert face == ["4", "15", "17", "31"]
    assert sum(1 for p in d["placements"] if p.get("choose") == "controlled" and p["side"] == "soviet") == 13
    assert sum(1 for p in d["placements"] if p.get("pick") and p["side"] == "german") == 8
    t = tomllib.loads((ROOT / "scenarios/m41/typhoon.toml").read_text())
    assert sum(1 for p in t["placements"] if p.get("choose") == "adjacent" and p.get("of") == "45") == 5
    assert sum(1 for x in t["dl"] if x.get("choose")) == 15
    assert t["sequence"]["hoepner_artillery"] is True and t["sequence"]["road_in_play"] is False
