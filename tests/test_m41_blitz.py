"""Moscow '41 Blitz Segment (10.16) and Exploitation Move (10.18): the
derived cases D33-D35 of the notes."""
from __future__ import annotations

import copy

import pytest

from pbem.game import IllegalOrder
from fakedice import d6
from m41help import RULES, FakeRng, begin, empty_board, german_everywhere, play, put
from m41help import cleared_rudnya


def test_10_16_D34_blitz_after_clearing_a_green_area():
    state, gud, tank, target = cleared_rudnya()
    d = RULES.pending(state)
    assert (d.side, d.kind) == ("german", "blitz") and tank in d.prompt
    assert state["control"]["8"] == "german"
    rng = FakeRng(0)
    empty, events = play(copy.deepcopy(state), "german", RULES.parse(f"blitz; move {tank} 2", state, "german"), rng)
    assert empty["control"]["2"] == "german" and empty["tokens"][tank]["area"] == "2"     # AMB-17: no battle
    assert not [e.text for e in events if e.text.startswith("battle in")] and not [p for p, _ in rng.log if " fire " in p]
    assert any(f"{tank} blitzes into" in e.text for e in events)
    fought, events = play(copy.deepcopy(state), "german", RULES.parse(f"blitz; move {tank} 13", state, "german"),
                          FakeRng(0, d6(*[1] * 20)))
    assert any("battle in Roslavl" in e.text for e in events)


def test_10_16_D34_blitz_artillery_only_from_an_adjacent_blitz_hq():
    state, gud, tank, target = cleared_rudnya()
    with pytest.raises(IllegalOrder, match="adjacent activated Blitz HQ"):
        play(state, "german", RULES.parse(f"blitz; move {tank} 13; art {gud} 13", state, "german"), FakeRng(0))


def test_10_16_D35_no_blitz_into_yellow_or_contested_or_twice():
    state, gud, tank, target = cleared_rudnya()
    with pytest.raises(IllegalOrder, match="uncontested Green"):
        play(state, "german", RULES.parse(f"blitz; move {tank} 3", state, "german"), FakeRng(0))       # Orsha, yellow
    with pytest.raises(IllegalOrder, match="not eligible"):
        play(state, "german", RULES.parse(f"blitz; move {gud} 8", state, "german"), FakeRng(0))        # an HQ


def test_10_16_D35_no_blitz_segment_in_bad_weather():
    state, gud, tank, target = cleared_rudnya(weather="snow")
    d = RULES.pending(state)
    assert d is None or d.kind != "blitz"


def _exploit_ready(weather, side):
    state = empty_board(side=side, weather=weather)
    german_everywhere(state, "20", "24", "25", "30")
    if side == "german":
        hq = put(state, "german", "G-2Pg-HQ", "9")
        fast = put(state, "german", "G-24PzK", "9")
        dest = "10"
    else:
        for a in state["control"]:
            state["control"][a] = "soviet" if a not in ("16A", "9A", "4A", "2A", "Rastenburg", "Pskov", "12") else "german"
        hq = put(state, "soviet", "S-Z", "24")
        fast = put(state, "soviet", "S-5MK", "24")
        dest = "29"
    state["initiative"] = side
    begin(state, side)
    state, _ = play(state, side, {"verb": "ti", "activate": [{"token": hq, "path": []}]}, FakeRng(0))
    return state, fast, dest


@pytest.mark.parametrize("weather,side,allowed", [("snow", "german", False), ("snow", "soviet", True),
                                                  ("rain", "soviet", False), ("good", "german", True)])
def test_10_18_D33_exploitation_by_weather(weather, side, allowed):
    state, fast, dest = _exploit_ready(weather, side)
    d = RULES.pending(state)
    assert (d is not None and d.kind == "exploit") == allowed
    if allowed:
        from pbem.games.m41 import mechanics as mx
        lv = mx.logistics_value(state, RULES.sc, side)
        after, _ = play(state, side, RULES.parse(f"exploit lv {lv}; move {fast} {dest}", state, side), FakeRng(0))
        assert after["tokens"][fast]["area"] == dest and after["initiative"] != side


def test_10_18_exploitation_moves_fast_blocks_only_and_never_engages():
    state, fast, dest = _exploit_ready("good", "german")
    from pbem.games.m41 import mechanics as mx
    slow = put(state, "german", "G-5K", "4")

    def lv():
        return mx.logistics_value(state, RULES.sc, "german")
    with pytest.raises(IllegalOrder, match="only Fast blocks"):
        play(state, "german", RULES.parse(f"exploit lv {lv()}; move {slow} 5", state, "german"), FakeRng(0))
    put(state, "soviet", "S-16A", "10", strength=1)
    with pytest.raises(IllegalOrder, match="may not engage"):
        play(state, "german", RULES.parse(f"exploit lv {lv()}; move {fast} 10", state, "german"), FakeRng(0))


def _stuka_cleared():
    """As cleared_rudnya, with the 8th FK sending one Stuka to the battle in Rudnya;
    it survives the AA and misses; the tank clears the area."""
    state = empty_board()
    german_everywhere(state, "8", "13", "2")
    put(state, "soviet", "S-16A", "8", strength=1)
    target = put(state, "soviet", "S-19A", "13", strength=2)
    gud = put(state, "german", "G-2Pg-HQ", "9")
    fk = put(state, "german", "G-8FK", "9")
    tank = put(state, "german", "G-24PzK", "9")
    begin(state, "german")
    order = {"verb": "ti", "activate": [{"token": gud, "path": []}, {"token": fk, "path": []}],
             "moves": [{"token": tank, "path": ["8"]}], "air": [{"hq": fk, "area": "8", "stuka": 1}]}
    state, _ = play(state, "german", order, FakeRng(0, d6(1, 1, 1, 1, 1, 6, 1, 1, 1)))
    return state, fk, tank, target


def test_10_16_stukas_that_survived_follow_the_blitz_into_its_battle():
    state, fk, tank, target = _stuka_cleared()
    d = RULES.pending(state)
    assert (d.side, d.kind) == ("german", "blitz")
    assert state["combat"]["stukas"] == [{"hq": fk, "area": "8", "n": 1}]
    order = RULES.parse(f"blitz; move {tank} 13; air {fk} 13 stuka 1", state, "german")
    after, events = play(copy.deepcopy(state), "german", order, FakeRng(0, d6(*[1] * 40)))
    assert any(e.text.startswith("AA in Roslavl") for e in events)
    assert any(e.text.startswith("stuka bombs") for e in events)


def test_10_16_he111_and_stukas_from_elsewhere_do_not_follow_a_blitz():
    state, fk, tank, target = _stuka_cleared()
    with pytest.raises(IllegalOrder, match="only Stukas follow"):
        play(copy.deepcopy(state), "german",
             RULES.parse(f"blitz; move {tank} 13; air {fk} 13 he111 1", state, "german"), FakeRng(0))
    with pytest.raises(IllegalOrder, match="survived the battle"):
        play(copy.deepcopy(state), "german",
             RULES.parse(f"blitz; move {tank} 13; air {fk} 13 stuka 2", state, "german"), FakeRng(0))
    with pytest.raises(IllegalOrder, match="no Blitz battle"):
        play(copy.deepcopy(state), "german",
             RULES.parse(f"blitz; move {tank} 2; air {fk} 2 stuka 1", state, "german"), FakeRng(0))
