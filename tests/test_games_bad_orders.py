"""Whatever a player types, a game answers with IllegalOrder (one line, in
the game's terms) or accepts it: never another exception, which the CLI
could only report as an internal error."""
from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.game import IllegalOrder
from pbem.protocol.stream import FrozenRng, NeedDice
from gamepositions import CASES

ROOT = Path(__file__).resolve().parent.parent
WORDS = ["move", "attack", "with", "stuka", "chits", "retreat", "loss", "advance", "pass", "end-move",
         "end-combat", "guderian", "yes", "no", "reveal", "ti", "si", "activate", "setup", "place", "buy",
         "7Pz", "3919", "4019", "G01", "S07", "12", "-1", "9999", "x", "", ";", "[", "]", "=", "é", "\x00"]


@pytest.mark.parametrize("game_id", sorted(CASES))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.sampled_from(WORDS) | st.text(max_size=6), max_size=6), k=st.integers(0, 10 ** 6))
def test_any_typed_order_is_refused_in_one_line_or_accepted(game_id: str, words: list[str], k: int) -> None:
    rules, states = CASES[game_id]
    state = states[k % len(states)]
    d = rules.pending(state)
    text = " ".join(words)
    try:
        order = rules.parse(text, pickle.loads(pickle.dumps(state)), d.side)
        rules.apply(pickle.loads(pickle.dumps(state)), d.side, order, FrozenRng())
    except (IllegalOrder, NeedDice) as exc:
        assert "\n" not in str(exc)


@pytest.mark.parametrize("game_id", sorted(CASES))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order=st.dictionaries(st.sampled_from(["verb", "unit", "path", "hex", "chits", "units", "secret",
                                              "commitments", "token", "area", "blocks"]),
                             st.one_of(st.text(max_size=5), st.integers(-3, 5000), st.booleans(),
                                       st.lists(st.text(max_size=5), max_size=3)), max_size=4),
       k=st.integers(0, 10 ** 6))
def test_any_order_table_from_a_file_is_refused_in_one_line_or_accepted(game_id: str, order: dict, k: int) -> None:
    rules, states = CASES[game_id]
    state = states[k % len(states)]
    d = rules.pending(state)
    try:
        rules.apply(pickle.loads(pickle.dumps(state)), d.side, order, FrozenRng())
    except (IllegalOrder, NeedDice) as exc:
        assert "\n" not in str(exc)
