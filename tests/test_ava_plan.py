"""Combat plans and forced answers (issue 12 item 4) in A Victory Awaits
and Fierce Fight! Smolensk, through the exchange engine: AVA declares every
attack before the first roll and the attacker plans the order in which they
are resolved (10.2); FFS makes its attacks one at a time, and the attacker
plans them.  Under sealed dice the plan is signed in one exchange and
resolved by the other side's program, the defender's decisions answered by
his standing orders; a planned order that has become illegal is skipped
with the reason in the log; the plan stops at the first decision nothing
answers.  End-combat is forced when no attack is legal."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from enginehelp import new_and_joined, play_until
from pbem import cycle, session
from pbem.game import Decision, IllegalOrder
from pbem.games.ava import bot
from pbem.protocol.gamefile import GameFile
from pbem.protocol.identity import generate
from pbem.scenario import load_toml

ROOT = Path(__file__).resolve().parent.parent
SEATS = ("axis", "soviet")

# The games are played by the scripted players with seeded seeds: the same
# games on every run, so that the combat found and what its battles ask of
# the defender are not down to the dice.
pytestmark = pytest.mark.usefixtures("seeded_urandom")


def _wanted(game: str, rules: Any, state: dict[str, Any], d: Decision, need: int) -> dict[str, Any] | None:
    """The scripted player's plan at ``d`` when it holds at least ``need``
    orders that are not end-combat."""
    if not d.plannable:
        return None
    if game == "ava" and d.kind == "resolve":
        if len(d.options) <= need:
            return None
        return {"verb": "plan", "orders": [rules.parse(o, state, d.seat) for o in d.options[:need]]}
    if game == "ffs" and d.kind == "combat":
        plan = bot._attack_plan(rules, state, d)
        if plan and len(plan["orders"]) > need:
            return plan
    return None


def _at_plan(game: str, policies: bool = True, need: int = 2, tries: int = 4, start: int = 0):
    """A fresh sealed-dice practice game played by the scripted players
    (standing orders on unless ``policies`` is False) up to a decision of
    the attacker, after both sides' first exchanges, where a plan of
    ``need`` orders is on offer; the open Turn there and the plan."""
    sc = load_toml(ROOT / "scenarios" / game / "practice.toml")
    def found(t: Any, d: Decision, ready: bool) -> dict[str, Any] | None:
        # (both sides' standing orders given first, when they have any)
        return _wanted(game, t.m.rules, t.es["game"], d, need) if ready else None

    for k in range(start, start + tries):
        ids = {s: generate(s.title(), f"{s}@example.org") for s in SEATS}
        gf, matches = new_and_joined(game, f"{game}/practice", sc, ids, "axis", "sealed", f"{game}-plan-{k}")
        wanted = {s: m.rules.demo_policies(s) for s, m in matches.items()} if policies else None
        got = play_until(gf, matches, ids, found, limit=150, policies=wanted, policies_once=True)
        if got:
            gf, t, plan = got
            return gf, sc, ids, matches, t, plan
    raise AssertionError(f"no {game} combat with {need} orders to plan")


def _send(gf: GameFile, t: Any, matches: dict[str, Any], ids: dict[str, Any]):
    ex = t.finish()
    for s, m in matches.items():
        cycle.advance(m, ex, ids[s])
    return GameFile(gf.exchanges + [ex]), ex


def _reply(gf: GameFile, sc: dict[str, Any], ids: dict[str, Any]):
    """The seat whose turn it is writes its exchange with the scripted player."""
    side = cycle.replay(gf, sc).next_sender()
    t = cycle.Turn(cycle.replay(gf, sc, ids[side]), ids[side])
    while not t.done:
        t.push(t.m.rules.demo_order(t.es["game"], t.pending()))
    return t.finish(), t, side


@pytest.mark.parametrize("game", ["ava", "ffs"])
def test_a_plan_is_resolved_in_the_defenders_program_with_his_standing_orders(game: str) -> None:
    gf, sc, ids, matches, t, plan = _at_plan(game)
    attacker = t.pending().seat
    defender = next(s for s in SEATS if s != attacker)
    t.push(plan)
    assert t.how == "deferred"
    gf, ex = _send(gf, t, matches, ids)
    assert ex["orders"][-1]["order"]["verb"] == "plan" and ex["orders"][-1]["deferred"]
    assert matches[attacker].next_sender() == defender
    reply, rt, side = _reply(gf, sc, ids)
    assert side == defender
    planned = [e for e in reply["orders"] if e["by"] == "plan"]
    assert len(planned) >= 2 and all(e["side"] == attacker for e in planned)
    assert any(e["by"] == "policy" and e["side"] == defender for e in reply["orders"]), \
        "the defender's losses or retreats were answered by his standing orders"
    assert any(r["purpose"].startswith("combat ") for r in rt.rng.records), "the defender's stream rolled them"
    for s, m in matches.items():
        cycle.advance(m, reply, ids[s])            # the attacker's program agrees
    assert cycle.replay(GameFile(gf.exchanges + [reply]), sc).state_hash() == matches[attacker].state_hash()


@pytest.mark.parametrize("game", ["ava", "ffs"])
def test_a_planned_order_become_illegal_is_skipped_and_the_log_says_why(game: str) -> None:
    gf, sc, ids, matches, t, plan = _at_plan(game)
    first = plan["orders"][0]
    attacker = t.pending().seat
    t.push({"verb": "plan", "orders": [first, first] + plan["orders"][1:]})
    gf, ex = _send(gf, t, matches, ids)
    reply, rt, _ = _reply(gf, sc, ids)
    skipped = [e for e in reply["orders"] if e.get("skipped")]
    assert len(skipped) == 1 and skipped[0]["by"] == "plan" and skipped[0]["side"] == attacker
    why = [ev.text for ev in rt.sink.events if ev.text.startswith("planned order skipped: ")]
    assert len(why) == 1 and first["hex"] in why[0]
    assert ("no attack on" if game == "ava" else "already attacked") in why[0]
    for s, m in matches.items():
        cycle.advance(m, reply, ids[s])
    log = session.turn_log(matches[attacker], matches[attacker].records[-1:])
    assert "planned order skipped" in log


@pytest.mark.parametrize("game", ["ava", "ffs"])
def test_the_plan_stops_at_the_first_decision_no_standing_order_answers(game: str) -> None:
    for k in range(4):
        gf, sc, ids, matches, t, plan = _at_plan(game, policies=False, tries=1, start=10 + k)
        attacker = t.pending().seat
        t.push(plan)
        gf, ex = _send(gf, t, matches, ids)
        reply, rt, side = _reply(gf, sc, ids)
        for s, m in matches.items():
            cycle.advance(m, reply, ids[s])
        stops = [ev.text for ev in rt.sink.events if "plan stops" in ev.text]
        if not stops:
            continue
        assert stops[0].startswith(f"{attacker}'s plan stops: ") and "not made" in stops[0]
        made = [e for e in reply["orders"] if e["by"] == "plan"]
        assert len(made) < len(plan["orders"])
        assert not any(e["by"] == "policy" for e in reply["orders"])    # nobody set any
        return
    raise AssertionError("no plan ever met a decision without a standing order")


def test_only_the_attackers_plannable_decisions_take_a_plan() -> None:
    gf, sc, ids, matches, t, plan = _at_plan("ava")
    with pytest.raises(IllegalOrder, match="a plan holds only"):
        t.push({"verb": "plan", "orders": [{"verb": "policy", "name": "retreat", "value": "first"}]})
    with pytest.raises(IllegalOrder, match="first order"):
        t.push({"verb": "plan", "orders": [{"verb": "resolve", "hex": "0101"}]})
    t.push(plan["orders"][0])                       # one at a time still works


@pytest.mark.parametrize("game", ["ava", "ffs"])
def test_end_combat_is_forced_when_no_attack_is_legal_and_only_then(game: str) -> None:
    gf, sc, ids, matches, t, plan = _at_plan(game)
    d = t.pending()
    assert not d.forced and len(d.options) > 1         # attacks on offer: the attacker decides
    entries = [e for r in matches["axis"].records for e in r.entries]
    ends = [e for e in entries if e["order"].get("verb") == "end-combat"]
    if game == "ava":     # (FFS: the scripted player's plans end its segments so far)
        assert any(e["by"] == "forced" for e in ends), "a Combat Segment with no legal attack ended by itself"
    # the scripted players make every attack on offer: no player ever had to end a segment himself
    assert not [e for e in ends if e["by"] == "player"]
    # forced, and so taken by whichever program met it: with the one option, end-combat
    state = t.es["game"]
    top = state["stack"][-1]
    if game == "ava":
        top = dict(top, stage="declare")
    units = {u: dict(x, attacked=True) for u, x in state["units"].items()}
    bare = dict(state, units=units, stack=state["stack"][:-1] + [top])
    d2 = t.m.rules.pending(bare)
    assert d2.kind == "combat" and d2.forced and d2.options == ("end-combat",)
