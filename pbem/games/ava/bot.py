"""A scripted player for ``pbem demo ava|ffs`` and the engine-level game
tests.  It plays to show the rules at work, not to win: units close on the
nearest enemy, every attack on offer is made (planned at once: AVA the
order in which the declared attacks are resolved, FFS the attacks of the
Combat Segment), and every other decision takes the first legal option.  Each choice is probed against the rules
(:func:`pbem.game.probe`) before it is returned, so the bot never offers
an illegal order.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.game import Decision, IllegalOrder, attack_plan, probe
from pbem.games.ava.model import AXIS, SOVIET

if TYPE_CHECKING:
    from pbem.games.ava.rules import AvaRules

POLICIES = {
    AXIS: {"interrupt": "enemy", "losses": "spread", "retreat": "first", "advance": "all", "withdraw": "none",
           "transfer": "none"},
    SOVIET: {"interrupt": "first", "losses": "concentrate", "retreat": "first", "advance": "all",
             "fortress": "convert", "fortress-build": "none", "standfast": "none",
             "zhukov": "declare", "transfer": "none"},
}
MOVES_PER_SEGMENT = 6      # the bot moves at most this many units an activation (keeps demos short)
_LAST = ("end-move", "end-combat", "pass", "done")


def legal(rules: AvaRules, state: dict[str, Any], seat: str, order: dict[str, Any]) -> bool:
    return probe(rules, state, seat, order) is None


def demo_order(rules: AvaRules, state: dict[str, Any], d: Decision) -> dict[str, Any] | str:
    if d.kind == "move":
        return _move(rules, state, d)
    if d.plannable and d.kind in ("combat", "resolve"):
        plan = (_attack_plan if d.kind == "combat" else _resolve_plan)(rules, state, d)
        if plan:
            return plan
    concrete = [o for o in d.options if "UNIT" not in o and " HEX" not in o and " ID" not in o]
    first = [o for o in concrete if o.split()[0] not in _LAST and not o.endswith(" no")]
    for text in first + [o for o in concrete if o not in first] + list(_LAST):
        try:
            order = rules.parse(text, state, d.seat)
        except IllegalOrder:
            continue
        if legal(rules, state, d.seat, order):
            return order
    raise IllegalOrder(f"demo player: no legal choice for {d.kind}")


def _move(rules: AvaRules, state: dict[str, Any], d: Decision) -> dict[str, Any]:
    """Move the first active unit that can get closer to the enemy; else end."""
    from pbem.games.ava import movement
    b = rules.board(state)
    side = rules.side_of_seat(d.seat)      # a seat of several a side (AVA 19, 20) plays its side
    enemy = [b.unit(u)["hex"] for u in b.on_map(SOVIET if side == AXIS else AXIS)]
    moved = sum(1 for u in b.on_map(side) if state["units"][u]["moved"])
    if not enemy or moved >= MOVES_PER_SEGMENT:
        return {"verb": "end-move"}
    dist = b.map.distance
    for uid in rules.movers(state):
        here = b.unit(uid)["hex"]
        near = min(dist(here, e) for e in enemy)
        try:
            reach = movement.reach(b, uid)
        except IllegalOrder:
            continue
        ends = sorted((h for h in reach if h != here), key=lambda h: (min(dist(h, e) for e in enemy), h))
        for goal in ends[:3]:
            if min(dist(goal, e) for e in enemy) >= near:
                break
            if movement.stacking_refusal(b, uid, goal):
                continue
            order = {"verb": "move", "unit": uid, "path": movement.reach_paths(b, uid).path_to(goal)}
            if legal(rules, state, side, order):
                return order
    return {"verb": "end-move"}


def _attack_plan(rules: AvaRules, state: dict[str, Any], d: Decision) -> dict[str, Any] | None:
    """FFS 10, the attacks one at a time in the attacker's order, planned
    at once: each target on offer, in the listed order, attacked by the
    units no earlier attack of the plan took, while the attack is legal
    now; then end-combat.  An attack an earlier result makes illegal is
    skipped by the engine.  None when there is no attack to plan."""
    return attack_plan(rules, state, d.seat, d.options)


def _resolve_plan(rules: AvaRules, state: dict[str, Any], d: Decision) -> dict[str, Any] | None:
    """AVA 10.2, the declared attacks resolved in the listed order, planned
    at once: all but the last, which starts by itself.  None (one plain
    order does as well) when only two are declared."""
    planned = [rules.parse(text, state, d.seat) for text in d.options[:-1]]
    if len(planned) < 2 or not legal(rules, state, d.seat, planned[0]):
        return None
    return {"verb": "plan", "orders": planned}
