"""Game states at each distinct kind of decision met in a scripted game of
each built-in game (practice scenarios): positions for the tests that throw
orders at the rules (test_games_bad_orders, test_strict_input)."""
from __future__ import annotations

import pickle
from pathlib import Path

from enginehelp import rules_order
from fakedice import SeededDice
from pbem import games
from pbem.scenario import load_toml

ROOT = Path(__file__).resolve().parent.parent


def _rules_and_state(game_id: str, name: str):
    g = games.load(game_id)
    rules = g.rules(load_toml(ROOT / "scenarios" / game_id / f"{name}.toml"), {})
    return rules, rules.initial_state()


def _positions(game_id: str, limit: int = 400, name: str = "practice") -> list[dict]:
    """Game states at each distinct kind of decision met in a scripted game."""
    rules, state = _rules_and_state(game_id, name)
    dice, seen, out = SeededDice(7), set(), []
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
            order = rules_order(rules, state, d)
        if hasattr(rules, "fill_secrets"):
            order = rules.fill_secrets(state, d.side, order, lambda: next(salt).to_bytes(16, "big"))
        state, _ = rules.apply(state, d.side, order, dice)
    return out


CASES = {gid: (_rules_and_state(gid, "practice")[0], _positions(gid)) for gid in ("avd", "m41", "ava", "ffs")}
CASES["vr"] = (_rules_and_state("vr", "practice-basic")[0], _positions("vr", 1500, "practice-basic"))
