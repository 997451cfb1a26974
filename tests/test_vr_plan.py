"""Attack plans in Victory Roads (issue 12 item 4, 7.1.7: battles are
fought in the order the attacker chooses, none declared in advance), through
the exchange engine under sealed dice: the attacker signs several attacks
at once, the defender's program resolves them one after the other with its
own stream, answering both sides' decisions in between by their standing
orders (the attacker's `declare none` included), and both programs agree."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from enginehelp import new_and_joined, play_until
from pbem import cycle
from pbem.protocol.gamefile import GameFile
from pbem.protocol.identity import generate
from pbem.scenario import load_toml

ROOT = Path(__file__).resolve().parent.parent
SEATS = ("german", "soviet")
EXTRA = {"declare": "none", "first-loss": "strongest"}

# The games are played by the scripted players with seeded seeds: the same
# games on every run, so that the combat found and how its plan runs are
# not down to the dice.
pytestmark = pytest.mark.usefixtures("seeded_urandom")


def _at_combat(tries: int = 4):
    """A sealed-dice practice-basic game played by the scripted players,
    every standing order set (`declare none` too), up to a Combat phase
    decision with at least two attacks on offer."""
    sc = load_toml(ROOT / "scenarios" / "vr" / "practice-basic.toml")
    def found(t: Any, d: Any, ready: bool) -> dict[str, Any] | None:
        if ready and d.kind == "combat" and d.plannable and len(d.options) >= 3:
            attacks = _disjoint(t.m.rules, t.es["game"], d)
            if len(attacks) >= 2:
                return {"verb": "plan", "orders": attacks}
        return None

    for k in range(tries):
        ids = {s: generate(s.title(), f"{s}@example.org") for s in SEATS}
        gf, matches = new_and_joined("vr", "vr/practice-basic", sc, ids, "german", "sealed", f"vr-plan-{k}")
        # each side's standing orders, set over its first exchanges (one may
        # answer the decision at hand and end an exchange)
        wanted = {s: {**matches[s].rules.demo_policies(s), **EXTRA} for s in SEATS}
        got = play_until(gf, matches, ids, found, limit=200, policies=wanted)
        if got:
            gf, t, plan = got
            return gf, sc, ids, matches, t, plan
    raise AssertionError("no Victory Roads combat phase with two attacks to plan")


def _disjoint(rules: Any, state: dict[str, Any], d: Any) -> list[dict[str, Any]]:
    """The listed attacks that share no unit (7.1.9: a unit attacks once)."""
    used: set[str] = set()
    out = []
    for text in d.options:
        if not text.startswith("attack "):
            continue
        order = rules.parse(text, state, d.seat)
        if used.isdisjoint(order["units"]):
            used |= set(order["units"])
            out.append(order)
    return out


def test_7_1_7_an_attack_plan_is_resolved_in_the_defenders_program_and_both_programs_agree() -> None:
    gf, sc, ids, matches, t, plan = _at_combat()
    attacker = t.pending().seat
    defender = next(s for s in SEATS if s != attacker)
    t.push(plan)
    assert t.how == "deferred"
    ex = t.finish()
    for s, m in matches.items():
        cycle.advance(m, ex, ids[s])
    gf = GameFile(gf.exchanges + [ex])
    assert matches[attacker].next_sender() == defender
    rt = cycle.Turn(cycle.replay(gf, sc, ids[defender]), ids[defender])
    while not rt.done:
        rt.push(rt.m.rules.demo_order(rt.es["game"], rt.pending()))
    reply = rt.finish()
    planned = [e for e in reply["orders"] if e["by"] == "plan"]
    # (the plan may stop early, at a decision no standing order answers)
    assert planned and all(e["side"] == attacker for e in planned)
    by_policy = {(e["side"], e["order"]["verb"]) for e in reply["orders"] if e["by"] == "policy"}
    assert (attacker, "declare") in by_policy, "the attacker's declarations by his standing order"
    at = [i for i, e in enumerate(reply["orders"]) if e["by"] == "plan"]
    between = reply["orders"][at[0]:at[-1]]
    assert all(e["by"] in ("plan", "policy", "forced", "private") for e in between), \
        "between the planned attacks nobody was asked: standing orders answered both sides"
    # The plan's battles roll on the defender's stream (a later one may wait
    # for the attacker's, once the defender has made a choice of his own).
    assert any(r["purpose"].startswith("battle ") for r in rt.rng.records)
    for s, m in matches.items():
        cycle.advance(m, reply, ids[s])            # the attacker's program agrees
    assert cycle.replay(GameFile(gf.exchanges + [reply]), sc).state_hash() == matches[attacker].state_hash()
