"""A scripted player for ``pbem demo`` and the engine-level game tests.

It plays to show the rules at work, not to win: units close on the nearest
enemy, attacks are made at the best column on offer, and every other
decision takes the first legal option.  Each choice is probed against the
rules before it is returned, so the bot never offers an illegal order.
"""
from __future__ import annotations

from typing import Any

from pbem.game import Decision, IllegalOrder, attack_plan, probe
from pbem.games.avd import movement

POLICIES = {
    "german": {"guderian": "soviet", "losses": "reduce-strongest-first", "retreat": "first",
               "advance": "strongest", "stuka-defense": "always", "relocate": "first",
               "relocate-voluntary": "none", "air": "recover"},
    "soviet": {"losses": "eliminate-weakest-first", "retreat": "first", "advance": "strongest",
               "relocate": "first", "relocate-voluntary": "none", "disband": "none", "oos": "strongest",
               "place": "first", "buy": "first", "stars": "first",
               "elite": "first"},
}

_WANTED = ("attack", "buy", "place", "release", "oos", "art", "rocket", "relocate", "seed", "activate",
           "elite", "withdraw", "stars", "directive", "loss", "retreat", "advance")


def legal(rules: Any, state: dict[str, Any], side: str, order: dict[str, Any]) -> bool:
    """Whether the rules accept ``order``: the contract's one legality probe
    (an order that gets as far as its dice is legal)."""
    return probe(rules, state, side, order) is None


def demo_order(rules: Any, state: dict[str, Any], d: Decision) -> dict[str, Any] | str:
    if d.kind == "move":
        return _move(rules, state, d)
    if d.kind == "combat" and d.plannable:
        plan = _attack_plan(rules, state, d)
        if plan:
            return plan
    if d.kind == "art" and d.plannable:
        art = _art_plan(rules, state, d)
        if art:
            return art
    concrete = [o for o in d.options if "UNIT" not in o and " HEX" not in o]
    wanted = [o for o in concrete if o.split()[0] in _WANTED]
    candidates = wanted + [o for o in concrete if o not in wanted] + ["pass", "done", "end-combat", "end-move"]
    for text in candidates:
        try:
            order = rules.parse(text, state, d.side)
        except IllegalOrder:
            continue
        if legal(rules, state, d.side, order):
            return order
    raise IllegalOrder(f"demo player: no legal choice for {d.kind}")


def _move(rules: Any, state: dict[str, Any], d: Decision) -> dict[str, Any] | str:
    """Move the first unit that can get closer to the enemy; else end."""
    b = rules.board(state)
    top = state["stack"][-1]
    if top["mode"] != "normal":
        for text in d.options:
            if text.split()[0] in ("move", "strat") and "UNIT" not in text:
                order = rules.parse(text, state, d.side)
                if legal(rules, state, d.side, order):
                    return order
        return {"verb": "end-move"}
    enemy_side = "soviet" if d.side == "german" else "german"
    enemy = [b.hex_of(u) for u in b.units_of(enemy_side) if b.is_combat(u)]
    if not enemy:
        return {"verb": "end-move"}
    movers = sorted(u for u in b.units_of(d.side) if state["units"][u]["active"]
                    and not state["units"][u]["moved"] and not b.spec(u).pvo and b.is_combat(u))
    for uid in movers:
        here = b.hex_of(uid)
        near = min(b.distance(here, e) for e in enemy)
        reach = movement.reach(b, uid)
        ends = sorted((h for h in reach.endable if h != here), key=lambda h: (min(b.distance(h, e) for e in enemy), h))
        for goal in ends[:3]:
            if min(b.distance(goal, e) for e in enemy) >= near:
                break
            order = {"verb": "move", "unit": uid, "path": reach.path_to(goal)}
            if legal(rules, state, d.side, order):
                return order
    return {"verb": "end-move"}


def _attack_plan(rules: Any, state: dict[str, Any], d: Decision) -> dict[str, Any] | None:
    """The Combat Segment planned at once (9.2: the attacks in the
    attacker's order): each target on offer, in the listed order, attacked
    by the units no earlier attack of the plan took, while the attack is
    legal now; then end-combat.  An attack that an earlier one's result
    makes illegal is skipped by the engine.  None when there is no attack
    to plan."""
    return attack_plan(rules, state, d.side, d.options)


def _art_plan(rules: Any, state: dict[str, Any], d: Decision) -> dict[str, Any] | None:
    """The ART chit's attacks planned at once (13.2): the artillery attacks
    left on the first targets on offer, then the Rocket if it is ready, then
    pass; what an earlier result makes illegal is skipped."""
    left = int(state["stack"][-1].get("left", 0))
    arts = [o for o in d.options if o.startswith("art ")][:left]
    rockets = [o for o in d.options if o.startswith("rocket ")][:1]
    planned = []
    for text in arts + rockets:
        try:
            planned.append(rules.parse(text, state, d.side))
        except IllegalOrder:
            continue
    if not planned or not legal(rules, state, d.side, planned[0]):
        return None
    return {"verb": "plan", "orders": planned + [{"verb": "pass"}]}
