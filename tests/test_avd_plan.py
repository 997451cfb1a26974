"""Attack plans (issue 12 item 4) through the engine, on A Victory Denied's
Combat Segment (9.2: the attacks one at a time, in the attacker's order):
the plan is signed in one exchange and resolved by the next program of the
other side; a planned order that has become illegal is skipped with the
reason in the log; the plan stops at the first decision no standing order
answers.  Every trust claim has its hostile program, caught live."""
from __future__ import annotations

from typing import Any

import pytest

import avd_fixtures as fx
from pbem import cycle
from pbem.cycle import run as run_mod
from pbem.errors import InvalidFile
from pbem.game import IllegalOrder
from pbem.protocol.gamefile import GameFile


_at_combat, _send, _reply = fx.at_combat, fx.send, fx.reply


def test_a_plan_is_signed_once_and_resolved_by_the_other_sides_program():
    gf, sc, ids, matches, t, plan = _at_combat()
    t.push(plan)
    assert t.how == "deferred"
    gf, ex = _send(gf, matches, ids, t)
    assert ex["orders"][-1]["order"]["verb"] == "plan" and ex["orders"][-1]["deferred"]
    for s, m in matches.items():
        cycle.advance(m, ex, ids[s])
    assert matches["german"].next_sender() == "soviet"
    reply, rt = _reply(gf, sc, ids, matches)
    planned = [e for e in reply["orders"] if e["by"] == "plan"]
    assert len(planned) >= 2 and planned[0]["side"] == "german"
    assert rt.rng.records, "the Soviet's stream rolled the planned attacks"
    for s, m in matches.items():
        cycle.advance(m, reply, ids[s])            # the German's program agrees
    assert cycle.replay(GameFile(gf.exchanges + [reply]), sc).exchanges


def test_a_planned_order_become_illegal_is_skipped_and_the_log_says_why():
    gf, sc, ids, matches, t, plan = _at_combat()
    first = plan["orders"][0]
    t.push({"verb": "plan", "orders": [first, first, {"verb": "end-combat"}]})
    gf, ex = _send(gf, matches, ids, t)
    for s, m in matches.items():
        cycle.advance(m, ex, ids[s])
    reply, rt = _reply(gf, sc, ids, matches)
    skipped = [e for e in reply["orders"] if e.get("skipped")]
    assert len(skipped) == 1 and skipped[0]["by"] == "plan"
    assert any(ev.text.startswith("planned order skipped: attack ") and len(ev.text.split(": ")) >= 3
               for ev in rt.sink.events)          # the order, then why
    for s, m in matches.items():
        cycle.advance(m, reply, ids[s])
    from pbem import session
    log = session.turn_log(matches["german"], matches["german"].records[-1:])
    assert "planned order skipped" in log


def test_a_plan_run_out_gives_the_turn_back_to_its_owner():
    gf, sc, ids, matches, t, plan = _at_combat()
    t.push({"verb": "plan", "orders": plan["orders"][:1]})
    gf, ex = _send(gf, matches, ids, t)
    for s, m in matches.items():
        cycle.advance(m, ex, ids[s])
    reply, _ = _reply(gf, sc, ids, matches)
    assert [e["by"] for e in reply["orders"] if e["side"] == "soviet"] in ([], ["policy"] * len(
        [e for e in reply["orders"] if e["side"] == "soviet"]))
    for s, m in matches.items():
        cycle.advance(m, reply, ids[s])
    m = matches["german"]
    if m.pending().kind == "combat":                 # the second attack is still on offer
        assert m.next_sender() == "german"


def test_the_plan_stops_at_a_decision_no_standing_order_answers():
    seen = False
    for k in range(6):
        gf, sc, ids, matches, t, plan = _at_combat(policies=False)
        t.push(plan)
        gf, ex = _send(gf, matches, ids, t)
        for s, m in matches.items():
            cycle.advance(m, ex, ids[s])
        reply, rt = _reply(gf, sc, ids, matches)
        for s, m in matches.items():
            cycle.advance(m, reply, ids[s])
        stops = [ev.text for ev in rt.sink.events if "plan stops" in ev.text]
        if stops:
            seen = True
            assert "not made" in stops[0]
            break
    assert seen, "no plan ever met a decision without a standing order"


def test_only_a_plannable_decision_takes_a_plan():
    gf, sc, ids, matches, t, plan = _at_combat()
    with pytest.raises(IllegalOrder, match="a plan holds only"):
        t.push({"verb": "plan", "orders": [{"verb": "policy", "name": "retreat", "value": "first"}]})
    with pytest.raises(IllegalOrder, match="first order"):
        t.push({"verb": "plan", "orders": [{"verb": "attack", "hex": "0101", "units": plan["orders"][0]["units"]}]})
    t.push(plan["orders"][0])                           # a plain attack: one at a time still works
    while not t.done and t.pending().kind != "combat":
        t.push(t.m.rules.demo_order(t.es["game"], t.pending()))


def test_hostile_a_sender_resolving_his_own_plan_on_his_own_stream_is_caught_live(monkeypatch):
    # He knows every reveal keying his exchange's stream: a plan resolved in
    # it would roll dice he could foresee (and send only when they suit him).
    gf, sc, ids, matches, t, plan = _at_combat()
    with monkeypatch.context() as mp:
        mp.setattr(t.run, "sealed", False)
        t.push(plan)
        assert t.rng.records and any(e["by"] == "plan" for e in t.sink.entries)
        while not t.done:
            t.push(t.m.rules.demo_order(t.es["game"], t.pending()))
        forged = t.finish()
    with pytest.raises(InvalidFile):
        cycle.advance(matches["soviet"], forged, ids["soviet"])


def _drops_after_first(t: Any) -> None:
    real = run_mod.ExchangeRun._plan_answers
    made = []

    def answers(self: Any, d: Any) -> bool:
        if made:
            self.plan = None
            return False
        ok = real(self, d)
        if ok:
            made.append(d)
        return ok
    t.run._plan_answers = answers.__get__(t.run)
    t._simulate = lambda: None


def _skips_a_legal_order(t: Any) -> None:
    def step(self: Any, d: Any) -> None:
        order = self.plan["orders"].pop(0)
        self.sink.entries.append({"side": d.seat, "by": "plan", "order": order, "skipped": True})
        self.sink.marks.append(len(self.sink.events))
    t.run._plan_step = step.__get__(t.run)


@pytest.mark.parametrize("cheat", [_drops_after_first, _skips_a_legal_order], ids=["stops-early", "skips-legal"])
def test_hostile_a_resolver_that_cuts_the_plan_short_is_caught_live(cheat):
    gf, sc, ids, matches, t, plan = _at_combat()
    t.push(plan)
    gf, ex = _send(gf, matches, ids, t)
    for s, m in matches.items():
        cycle.advance(m, ex, ids[s])
    # The Soviet's modified program resolves the German's plan its own way.
    m = cycle.replay(gf, sc, ids["soviet"])
    rt = cycle.Turn.__new__(cycle.Turn)
    real_init = cycle.Turn.__init__

    def init(self: Any, *a: Any, **kw: Any) -> None:
        real_run = run_mod.ExchangeRun.run
        first = [True]

        def run(run_self: Any, next_entry: Any) -> str:
            if first[0]:
                first[0] = False
                holder = type("H", (), {"run": run_self, "_simulate": None})()
                cheat(holder)
            return real_run(run_self, next_entry)
        run_mod.ExchangeRun.run = run
        try:
            real_init(self, *a, **kw)
        finally:
            run_mod.ExchangeRun.run = real_run
    init(rt, m, ids["soviet"])
    while not rt.done:
        rt.push(m.rules.demo_order(rt.es["game"], rt.pending()))
    forged = rt.finish()
    with pytest.raises(InvalidFile):
        cycle.advance(matches["german"], forged, ids["german"])


def test_immediate_dice_resolve_a_plan_at_once():
    gf, sc, ids, matches, t, plan = _at_combat("immediate")
    t.push(plan)
    assert any(e["by"] == "plan" for e in t.sink.entries) and t.rng.records
    while not t.done:
        t.push(t.m.rules.demo_order(t.es["game"], t.pending()))
    ex = t.finish()
    cycle.advance(matches["soviet"], ex, ids["soviet"])
