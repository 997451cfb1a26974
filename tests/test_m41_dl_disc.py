"""Moscow '41: disbanding Defensive Lines (4.1) and the scenarios' limits on
spending the Initiative Disc (Beyond the Dnieper: once; Last Gasp: once a
month)."""
from __future__ import annotations

import copy

import pytest

from pbem.game import IllegalOrder
from pbem.games.m41 import GAME
from m41help import PRACTICE, RULES, SC, FakeRng, begin, empty_board, german_everywhere, play, put


def test_4_1_disband_a_dl_to_build_another_with_an_empty_pool():
    state = empty_board(side="soviet")
    for a in state["control"]:
        state["control"][a] = "soviet"
    state["dl"]["17"] = "soviet"
    state["dl_pool"]["soviet"] = 0
    inf = put(state, "soviet", "S-16A", "22")
    begin(state, "soviet")
    with pytest.raises(IllegalOrder, match="no Defensive Line left"):
        play(state, "soviet", RULES.parse(f"pass; dl {inf}", state, "soviet"), FakeRng(0))
    order = RULES.parse(f"pass; disband 17; dl {inf}", state, "soviet")
    assert RULES.format(order) == f"pass; disband 17; dl {inf}"
    after, _ = play(state, "soviet", order, FakeRng(0))
    assert "17" not in after["dl"] and after["dl"]["22"] == "soviet" and after["dl_pool"]["soviet"] == 0
    with pytest.raises(IllegalOrder, match="no soviet Defensive Line"):
        play(state, "soviet", RULES.parse("pass; disband 22", state, "soviet"), FakeRng(0))


def _limited(per):
    data = copy.deepcopy(PRACTICE)
    data["sequence"]["disc_limit"] = {"uses": 1, "per": per}
    return GAME.rules(data, {})


@pytest.mark.parametrize("per", ["game", "turn"])
def test_scenario_special_rule_initiative_disc_once(per):
    from pbem.games.m41 import mechanics as mx
    rules = _limited(per)
    state = empty_board()
    german_everywhere(state)
    put(state, "german", "G-24PzK", "9")
    begin(state, "german")
    state["initiative"] = "german"
    state["disc_uses"]["german"] = 1
    state["disc_turn"] = {"german": 1, "soviet": 0}
    lv = mx.logistics_value(state, SC, "german")
    with pytest.raises(IllegalOrder, match="1 time"):
        rules.apply(copy.deepcopy(state), "german", {"verb": "si", "option": "A", "lv": lv}, FakeRng(0))
    state["disc_turn"]["german"] = 0        # a new month
    if per == "turn":
        rules.apply(copy.deepcopy(state), "german", {"verb": "si", "option": "A", "lv": lv}, FakeRng(0))
    else:
        with pytest.raises(IllegalOrder):
            rules.apply(copy.deepcopy(state), "german", {"verb": "si", "option": "A", "lv": lv}, FakeRng(0))
