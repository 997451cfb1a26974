"""Every option a decision lists is an order the rules accept (ADDING-A-GAME:
``options`` lists every legal order; a template with a hint only where the
list would be huge).  The practice games are played by the demo player,
straight through the rules, and at each decision every concrete option is
probed: an option that is always refused (the 19th Army's old "done") or a
legal answer left unlisted where it could be (the Reserve's "pass", the
Strategic Reserve's entries) fails here."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from enginehelp import rules_order
from fakedice import SeededDice

from pbem.game import IllegalOrder, probe
from pbem.games.ava import FFS_GAME, GAME
from pbem.scenario import load_toml

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE_WORDS = ("UNIT", "HEX", " ID", "...")
PER_DECISION = 12          # options probed a decision (spread over the list), to keep the walk quick


def _concrete(options: tuple[str, ...]) -> list[str]:
    found = [o for o in options if not any(w in o for w in TEMPLATE_WORDS)]
    step = max(1, len(found) // PER_DECISION)
    return found[::step]


def _walk(game: str, decisions: int) -> dict[str, int]:
    """Play ``decisions`` decisions; return how many of each kind were probed."""
    g = GAME if game == "ava" else FFS_GAME
    rules: Any = g.rules(load_toml(ROOT / "scenarios" / game / "practice.toml"), {})
    state = rules.initial_state()
    dice = SeededDice(7)
    seen: dict[str, int] = {}
    for _ in range(decisions):
        d = rules.pending(state)
        if d is None:
            break
        if d.private:
            order = rules.private_answer(state, d)
        else:
            for text in _concrete(d.options):
                why = probe(rules, state, d.seat, rules.parse(text, state, d.seat))
                assert why is None, f"{d.kind}: listed option {text!r} is refused: {why}"
            seen[d.kind] = seen.get(d.kind, 0) + 1
            order = rules_order(rules, state, d)
        order = rules.fill_secrets(state, d.seat, order, lambda: bytes(16))
        state, _ = rules.apply(state, d.seat, order, dice)
    return seen


@pytest.mark.parametrize("game", ["ava", "ffs"])
def test_every_listed_option_is_legal_through_a_practice_game(game: str) -> None:
    seen = _walk(game, 700)
    assert {"chits", "move", "combat", "loss"} <= set(seen), seen


def test_15_3_the_19th_army_decision_lists_entries_only() -> None:
    """The decision is asked only while a unit can still enter, and "done"
    is refused then (the whole army enters together), so it is not listed."""
    rules: Any = FFS_GAME.rules(load_toml(ROOT / "scenarios" / "ffs" / "practice.toml"), {})
    state = rules.initial_state()
    top = {"k": "army19", "stage": "enter", "source": None, "entered": []}
    waiting = [u for u, s in rules.scn.units.items() if "19A" in s.flags]
    if not waiting:
        pytest.skip("no 19th Army in this practice scenario")
    for u in waiting:
        state["units"][u].update(hex=None, box="track:3")
    state["stack"].append(top)
    state["active"] = "soviet"
    d = rules.pending(state)
    assert d.kind == "army19" and d.options and "done" not in d.options
    assert all(o.split()[0] in ("enter", "senter") for o in d.options)
    with pytest.raises(IllegalOrder, match="enters together"):
        rules.apply(state, d.seat, {"verb": "done"}, SeededDice(1))
