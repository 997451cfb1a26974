"""The email classifier of benchmarks/bench.py (issue 12, item 5): why each
email of a scripted game was sent, and which relays a pre-commitment could
have spared.  Checked on the duel test game, whose every exchange is known,
and on records made up to hold each kind of relay."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import enginehelp as eh
import pytest

from pbem.game import Decision

_spec = importlib.util.spec_from_file_location("bench", Path(__file__).resolve().parent.parent / "benchmarks" / "bench.py")
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

STANDING = {"red": {"defense": "block"}, "blue": {"defense": "dodge"}}


def _duel(dice: str, policies: dict[str, dict[str, str]] | None):
    trace: dict[int, Any] = {}
    _, _, _, m = bench.play_scripted("duel", dice, trace=trace, policies=policies,
                                     scenario=("duel/test", eh.duel_scenario(), ("red", "blue")),
                                     choose=lambda rules, state, d: eh.first_option(d))
    return m, bench.classify(m, trace)


def test_a_sealed_attack_roll_answered_by_the_defenders_standing_order_is_a_relay_no_plan_spares():
    # Each round: both pick in secret, the attacker rolls (deferred: sealed),
    # the defender's standing order defends, both programs reveal the picks.
    m, rows = _duel("sealed", STANDING)
    got = [(r["side"], r["cls"], r["stop"]) for r in rows[:10]]
    assert got == [
        ("red", "decision", "pick"), ("blue", "decision", "attack"),
        ("red", "decision", ""),                   # the attack, deferred for dice
        ("blue", "relay-dice", "reveal"),          # blue's program rolls it, defends by standing order
        ("red", "hidden", "reveal"), ("blue", "hidden", "pick"),
        ("red", "return", "pick"),                 # red decided last (the attack)
        ("blue", "decision", ""),                  # pick, then attack, deferred
        ("red", "relay-dice", "reveal"),
        ("blue", "hidden", "pick"),
    ]
    assert not any(r["avoidable"] for r in rows)
    attacks = sum(1 for r in m.records for e in r.entries if e["order"].get("verb") == "attack")
    assert sum(1 for r in rows if r["cls"] == "relay-dice") == attacks
    # every email is one the sealed game cannot do without
    assert bench.sealed_floor(rows) == len(rows) == bench.emails(m)[0]


def test_without_the_standing_order_the_defender_decides_in_the_email_that_rolls():
    _, rows = _duel("sealed", None)
    assert [r["cls"] for r in rows[:6]] == ["decision", "decision", "decision", "decision", "hidden", "hidden"]
    assert not [r for r in rows if r["cls"].startswith("relay")]


def test_immediate_dice_need_no_relay():
    m, rows = _duel("immediate", STANDING)
    assert not [r for r in rows if r["cls"].startswith("relay")]
    assert [r["cls"] for r in rows[:3]] == ["decision", "decision", "decision"]
    assert rows[2]["stop"] == "reveal"            # attack, roll, defence in one email


# --------------------------------------------------- made-up records


def _rec(n: int, side: str, entries=(), deferred: bool = False, rolls=()) -> Any:
    return SimpleNamespace(n=n, side=side, kind="play", entries=list(entries), rolls=list(rolls),
                           secret_rolls={}, deferred={"side": side} if deferred else None)


def _mine(side: str, verb: str = "go") -> dict[str, Any]:
    return {"side": side, "by": "player", "order": {"verb": verb}}


ATTACKS = Decision("x", "combat", "x attacks", plannable=True)
MOVES = Decision("x", "move", "x moves")


def _case(stop: Decision | None, rolls, policies=None, asked: Decision = ATTACKS):
    """X decides (``asked``) and defers; Y's email resolves it (``rolls``)
    and hands back to X at ``stop``; X decides again."""
    records = [_rec(3, "x", [_mine("x")], deferred=True), _rec(4, "y", rolls=rolls), _rec(5, "x", [_mine("x")])]
    m = SimpleNamespace(records=records, es={"policies": policies or {}})
    trace = {3: {"handed": None, "secret": [], "asked": [asked]}, 4: {"handed": stop, "secret": []},
             5: {"handed": Decision("y", "move", "y moves"), "secret": []}}
    return bench.classify(m, trace)


D6 = [{"op": "d6", "result": 3}]
CHIT = [{"op": "draw", "size": 4, "result": 1}]
ONE = [{"op": "draw", "size": 1, "result": 0}]


@pytest.mark.parametrize("stop, rolls, policies, asked, cls, avoidable", [
    (MOVES, CHIT, None, ATTACKS, "relay-draw", False),          # a new chit, then a real choice
    (MOVES, ONE, None, MOVES, "relay-sure", True),              # a cup of one: nothing to hide
    (ATTACKS, D6, None, ATTACKS, "relay-dice", True),           # a longer plan would have gone on
    (ATTACKS, D6, None, MOVES, "relay-dice", False),            # ... but he had no plan to sign
    (ATTACKS, CHIT, None, ATTACKS, "relay-draw", False),        # no plan reaches across a draw
    (Decision("x", "buy", "x buys", policy="buy"), CHIT, None, MOVES, "relay-draw", True),   # no standing order set
    (Decision("x", "buy", "x buys", policy="buy"), CHIT, {"x": {"buy": "ask"}}, MOVES, "relay-draw", False),
    (Decision("x", "reveal", "x shows", private=True, policy="buy"), D6, None, ATTACKS, "relay-dice", False),
])
def test_a_relay_is_avoidable_only_where_a_pre_commitment_would_have_answered(stop, rolls, policies, asked, cls,
                                                                                  avoidable):
    rows = _case(stop, rolls, policies, asked)
    assert [r["cls"] for r in rows] == ["decision", cls, "return"]
    assert rows[1]["avoidable"] is avoidable and rows[2]["avoidable"] is avoidable
    assert bench.sealed_floor(rows) == (1 if avoidable else 3)
