"""Plans (docs/FILE-FORMAT.md, "Forced answers and plans"): a seat answers
a plannable decision with several orders at once; the next program of
another side makes them one after the other for him, each at his next
plannable decision, skipping (and saying why) any the rules now refuse,
and stops at the first decision nothing else answers.  The parts of
:class:`~pbem.cycle.run.ExchangeRun` that do it."""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.cycle import run as run_mod
from pbem.cycle.frozen import freeze, thaw
from pbem.game import Decision, Event, IllegalOrder, Order, Rules, State, probe
from pbem.protocol import gamefile

if TYPE_CHECKING:
    from pbem.cycle.run import ExchangeRun


def sign(run: "ExchangeRun", d: Decision, order: Order) -> str | None:
    """The sender's ``plan``: checked, then (sealed dice) deferred whole,
    to be resolved by the next seat of another side; with immediate dice
    resolved at once."""
    if "plans" not in run.features:
        raise IllegalOrder("this game's file predates plans: give one order at a time")
    if not d.plannable:
        raise IllegalOrder(f"{d.kind} cannot be planned: only one order at a time here")
    planned = order.get("orders")
    if not isinstance(planned, list) or not planned or len(planned) > run_mod.PLAN_LIMIT \
            or not all(isinstance(o, dict) and isinstance(o.get("verb"), str) for o in planned):
        raise IllegalOrder(f"a plan lists 1 to {run_mod.PLAN_LIMIT} orders")
    for o in planned:
        if o["verb"] in run_mod.ENGINE_VERBS or o["verb"] == run_mod.PLAN_VERB or "secret" in o or "open" in o:
            raise IllegalOrder(f"a plan holds only the game's public orders, not {o['verb']}")
    if set(order) - {"verb", "orders"}:
        raise IllegalOrder("a plan has only its orders")
    # The first order must be legal now: a plan that could only be
    # skipped whole would cost its sender an email for nothing.
    why = refusal(run.rules, run.es["game"], d.seat, gamefile.drop_none(planned[0]))
    if why:
        raise IllegalOrder(f"the plan's first order: {why}")
    plan = {"verb": run_mod.PLAN_VERB, "orders": gamefile.drop_none(planned)}
    if run.sealed or run.frozen or run.rng is None:
        run.es["deferred"] = {"side": d.seat, "order": plan, "by": run.sender}
        run.sink.entries.append({"side": d.seat, "by": "player", "order": plan, "deferred": True})
        run.sink.marks.append(len(run.sink.events))
        return "deferred"
    run.sink.entries.append({"side": d.seat, "by": "player", "order": plan})
    run.sink.marks.append(len(run.sink.events))
    run.plan = {"side": d.seat, "orders": list(plan["orders"])}
    return None


def refusal(rules: Rules, state: State, seat: str, order: Order) -> str | None:
    """Why the rules refuse ``order`` from ``seat`` now, or None if they
    accept it up to its first roll: :func:`pbem.game.probe`, the check every
    scripted player makes (``state`` is not changed)."""
    return probe(rules, state, seat, order)


def answers(run: "ExchangeRun", d: Decision) -> bool:
    """Whether the plan answers ``d``; if not, the plan stops here (its
    remaining orders are dropped, and the log says so)."""
    plan = run.plan
    assert plan is not None
    if d.seat == plan["side"] and d.plannable and plan["orders"] and not run.frozen and run.rng is not None:
        return True
    if plan["orders"]:
        left = len(plan["orders"])
        run.sink.events.append(Event(
            f"{plan['side']}'s plan stops: {d.seat} must decide {d.kind}; "
            f"{left} planned order{'s' if left > 1 else ''} not made"))
    run.plan = None
    return False


def step(run: "ExchangeRun", d: Decision) -> None:
    """The plan's next order, made for its owner; one that the rules now
    refuse is skipped, listed as such, with the reason in the log."""
    assert run.plan is not None
    order = run.plan["orders"].pop(0)
    seat = d.seat
    saved = freeze(run.es["game"]) if run.careful or _listed_skipped(run) else None
    assert run.rng is not None
    try:
        run_mod._apply(run.rules, run.es, seat, order, run.rng, run.sink, "plan", run.seeds, d)
    except IllegalOrder as exc:
        if saved is None:       # a forged file: the careful run says why (run_mod.Careful)
            raise run_mod.Careful() from exc
        run.es["game"] = thaw(saved)
        run.sink.entries.append({"side": seat, "by": "plan", "order": run_mod.public_order(order), "skipped": True})
        run.sink.events.append(Event(f"planned order skipped: {run._text(order)}: {exc}"))
        run.sink.marks.append(len(run.sink.events))


def _listed_skipped(run: "ExchangeRun") -> bool:
    """Whether the file lists the entry this step makes as skipped (a
    replay's; live play lists nothing): only then can the rules refuse it in
    a file that replays, so only then need the state be kept (speed only)."""
    listed, k = run.listed, len(run.sink.entries)
    entry = listed[k] if listed is not None and k < len(listed) else None
    return listed is None or (isinstance(entry, dict) and entry.get("skipped") is True)
