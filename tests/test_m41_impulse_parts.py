"""Moscow '41: parts of an order that its impulse does not allow are refused,
naming the rule, instead of being dropped without a word (issue 9, item 5)."""
from __future__ import annotations

import copy

import pytest

from pbem.game import IllegalOrder
from pbem.games.m41 import mechanics as mx
from m41help import RULES, SC, FakeRng, begin, empty_board, german_everywhere, play, put


def _board():
    state = empty_board()
    german_everywhere(state, "14")
    hq = put(state, "german", "G-2Pg-HQ", "9")
    tank = put(state, "german", "G-24PzK", "9")
    put(state, "soviet", "S-13A", "14")
    put(state, "german", "G-5K", "14")          # 14 contested at the start of the impulse
    state["initiative"] = "german"
    begin(state, "german")
    return state, hq, tank


@pytest.mark.parametrize("text,rule", [
    ("si A lv {lv}; move {tank} 3; activate {hq}", r"11\.0"),
    ("si A lv {lv}; move {tank} 3; art {hq} 14", r"11\.0"),
    ("si A lv {lv}; move {tank} 3; reinforce 9A", r"11\.0"),
    ("si A lv {lv}; move {tank} 3; no blitz", r"10\.16"),
    ("pass; move {tank} 3; activate {hq}", r"12\.0"),
    ("pass; move {tank} 3; fight 14", r"12\.0"),
    ("pass; move {tank} 3; art {hq} 14", r"12\.0"),
    ("pass; reinforce 9A", r"12\.0"),
    ("ti; activate {hq}; reinforce 9A", r"5\.0"),
    ("ti; activate {hq}; regen {hq} 1", r"7\.2\.2"),
])
def test_parts_an_impulse_does_not_allow_are_refused_with_the_rule(text, rule):
    state, hq, tank = _board()
    lv = mx.logistics_value(state, SC, "german")
    order = RULES.parse(text.format(lv=lv, hq=hq, tank=tank), state, "german")
    with pytest.raises(IllegalOrder, match=rule):
        play(copy.deepcopy(state), "german", order, FakeRng(0))


def test_the_same_orders_without_the_extra_part_stand():
    state, hq, tank = _board()
    lv = mx.logistics_value(state, SC, "german")
    for text in (f"si A lv {lv}; move {tank} 3", f"pass; move {tank} 3", f"ti; activate {hq}; fight 14"):
        play(copy.deepcopy(state), "german", RULES.parse(text, state, "german"), FakeRng(0))
