"""Whatever a player types, a game answers with IllegalOrder (one line, in
the game's terms) or accepts it: never another exception, which the CLI
could only report as an internal error."""
from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import games
from pbem.game import IllegalOrder
from pbem.protocol.stream import FrozenRng, NeedDice
from pbem.scenario import load_toml

ROOT = Path(__file__).resolve().parent.parent
WORDS = ["move", "attack", "with", "stuka", "chits", "retreat", "loss", "advance", "pass", "end-move",
         "end-combat", "guderian", "yes", "no", "reveal", "ti", "si", "activate", "setup", "place", "buy",
         "7Pz", "3919", "4019", "G01", "S07", "12", "-1", "9999", "x", "", ";", "[", "]", "=", "é", "\x00"]


def _rules_and_state(game_id: str, name: str):
    g = games.load(game_id)
    rules = g.rules(load_toml(ROOT / "scenarios" / game_id / f"{name}.toml"), {})
    return rules, rules.initial_state()


class _Dice:
    """Deterministic dice for building test positions (tests only)."""

    def __init__(self, seed: int) -> None:
        import random

        self.r = random.Random(seed)

    def roll(self, sides, purpose):
        return self.r.randint(1, sides)

    def secret(self, seat):
        return self

    def draw(self, items, purpose):
        return self.r.randrange(len(items))

    def shuffle(self, items, purpose):
        out = list(items)
        self.r.shuffle(out)
        return out


def _positions(game_id: str, limit: int = 400) -> list[dict]:
    """Game states at each distinct kind of decision met in a scripted game."""
    rules, state = _rules_and_state(game_id, "practice")
    dice, seen, out = _Dice(7), set(), []
    salt = iter(range(1, 10 ** 6))
    for _ in range(limit):
        d = rules.pending(state)
        if d is None:
            break
        if d.kind not in seen:
            seen.add(d.kind)
            out.append(pickle.loads(pickle.dumps(state)))
        if d.private:
            order = rules.private_answer(state, d)
        else:
            order = rules.demo_order(state, d)
            if isinstance(order, str):
                order = rules.parse(order, state, d.side)
        if hasattr(rules, "fill_secrets"):
            order = rules.fill_secrets(state, d.side, order, lambda: next(salt).to_bytes(16, "big"))
        state, _ = rules.apply(state, d.side, order, dice)
    return out


CASES = {gid: (_rules_and_state(gid, "practice")[0], _positions(gid)) for gid in ("avd", "m41")}


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
