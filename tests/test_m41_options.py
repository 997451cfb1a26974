"""Moscow '41 optional rules wired as rule options (14.1, 14.3, 14.8)."""
from __future__ import annotations

import copy

from pbem.games.m41 import GAME
from pbem.games.m41 import mechanics as mx
from test_m41_rules import PRACTICE, RULES, SC, FakeRng, begin, empty_board, german_everywhere, play, put


def test_14_options_are_listed():
    assert {"or14_1_ignore_army_colour", "or14_3_moscow_source", "or14_8_crusader"} <= set(GAME.options())


def test_14_1_any_tactical_hq_commands_any_combat_block():
    rules = GAME.rules(PRACTICE, {"or14_1_ignore_army_colour": True})
    state = empty_board()
    german_everywhere(state)
    hoth = put(state, "german", "G-3Pg-HQ", "12")
    red = put(state, "german", "G-24PzK", "13")
    state["tokens"][hoth].update(block="G-3Pg-HQ", strength=4, revealed=True)
    assert not RULES._commanded(state, "german", red, [hoth])      # green Hoth, red tank: not his
    assert rules._commanded(state, "german", red, [hoth])


def test_14_3_moscow_is_a_soviet_source_only_with_the_option():
    state = empty_board()
    base = mx.sources(state, SC, "soviet").count(SC.moscow)
    state["options"] = {"or14_3_moscow_source": True}
    assert mx.sources(state, SC, "soviet").count(SC.moscow) == base + 1
    state["control"][SC.moscow] = "german"               # lost: no longer a source
    assert mx.sources(state, SC, "soviet").count(SC.moscow) == base


def test_14_8_crusader_removes_the_luftwaffe_in_november():
    rules = GAME.rules(PRACTICE, {"or14_8_crusader": True})
    state = empty_board()
    fk = put(state, "german", "G-2FK", "9")
    state["turn"] = 5
    rules._final_phase(state, FakeRng(0), [])
    assert fk not in state["tokens"] and state["air"]["ready"] == {"he111": 0, "stuka": 0}
    assert state["german_lost"] == 0
