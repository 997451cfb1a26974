"""Worked examples of the rule notes whose situation is a position file
(tests/data/positions), read through the same contract a game started
with ``pbem new --position`` uses (``start_from``, then
``initial_state``), instead of a state edited by hand.  Moved here from
test_avd_examples (the index, test_avd_examples_index, points here)."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from pbem.game import IllegalOrder
from pbem.games.avd.model import GERMAN, SOVIET
from pbem.games.avd.rules import AvdRules
from fakedice import ScriptedDice
from avd_fixtures import practice_rules

POSITIONS = Path(__file__).resolve().parent / "data" / "positions"


def from_position(name: str) -> tuple[AvdRules, dict]:
    """Practice rules started from position file ``name``, and its state."""
    with open(POSITIONS / name, "rb") as fh:
        position = tomllib.load(fh)
    rules = practice_rules()
    rules.start_from(position)
    return rules, rules.initial_state()


def test_13_3_T33_bomber_attacks_at_8_1_applies_only_step_losses():
    rules, st = from_position("avd-13-3-bomber.toml")
    t = st["units"]["S-45C"]["hex"]
    col = rules.scn.crt.columns.index("8-1")
    roll = next(r for r, row in sorted(rules.scn.crt.rows.items()) if "DR" in row[col] and row[col][0] == "1")
    rng = ScriptedDice(rolls=[(6, roll)])
    st, ev = rules.apply(st, GERMAN, {"verb": "air", "recover": False, "bomber": t}, rng)
    assert rng.log == [f"bomber {t}, German d6"] and any("at 8-1" in e.text for e in ev)
    assert st["units"]["S-45C"]["hex"] == t and st["units"]["S-45C"]["steps"] == 1   # the step, no retreat
    assert st["bomber"] is False


def test_13_2_T33_artillery_uses_3_1_and_a_d6_ignores_attacker_results_and_a_hex_once_a_turn():
    rules, st = from_position("avd-13-2-artillery.toml")
    t = st["units"]["G-26ID"]["hex"]
    assert rules.board(st).terrain(t).shift == 2                         # a city
    d = rules.pending(st)
    assert (d.side, d.kind) == (SOVIET, "art") and f"art {t}" in d.options and f"rocket {t}" in d.options
    # 3-1 with the city's two shifts is 1.5-1, whose first row is an attacker result
    assert rules.scn.crt.rows[1][1] == "A1"
    rng = ScriptedDice(rolls=[(6, 1)])
    st, ev = rules.apply(st, SOVIET, {"verb": "art", "hex": t}, rng)
    assert rng.log == [f"art {t}, Soviet d6"]
    assert any("at 1.5-1: die 1 -> A1" in e.text for e in ev)
    assert st["units"]["S-45C"]["steps"] == 2                          # attacker result ignored
    d = rules.pending(st)
    assert d is None or f"art {t}" not in d.options and f"rocket {t}" not in d.options
    with pytest.raises(IllegalOrder):
        rules.apply(st, SOVIET, {"verb": "rocket", "hex": t}, ScriptedDice(rolls=[(6, 6)]))
