"""Questions (``reach``, ``odds``) for A Victory Denied.  What a seat sees
of the situation is :mod:`pbem.games.avd.view`.
"""
from __future__ import annotations

from typing import Any

from pbem.game import IllegalOrder
from pbem.games.avd import movement, orders
from pbem.games.avd.model import GERMAN


def query(rules, state: dict[str, Any], side: str, text: str) -> str:
    """``reach UNIT``: reachable hexes and their MP cost; ``odds HEX with
    UNIT ... [stuka]``: the column and every shift."""
    words = text.strip().split()
    if not words:
        raise IllegalOrder("ask reach UNIT or odds HEX with UNIT ...")
    verb = words[0].lower()
    scn = rules.scn
    b = rules.board(state)
    if verb == "reach" and len(words) == 2:
        uid = orders.unit(scn, words[1])
        r = movement.reach(b, uid)
        cells = sorted((c, h) for h, c in r.cost.items() if h in r.endable and c > 0)
        lines = [f"{rules.name(uid)} from {b.hex_of(uid)}, allowance {movement.mp(movement.allowance(b, uid))} MP:"]
        lines += [f"  {h}  {movement.mp(c)} MP" for c, h in cells]
        return "\n".join(lines)
    if verb == "odds":
        # The same reading and the same check as the attack order itself
        # (rules.attack_refusal), so the answer is "illegal" exactly when
        # the order would be refused, and says why in the order's words.
        try:
            o = orders.parse("attack " + " ".join(words[1:]), scn)
        except IllegalOrder as exc:
            return f"attack on {words[1] if len(words) > 1 else '?'}: illegal - {exc}"
        why = rules.attack_refusal(state, side, o)
        # the column and its shifts, where there is one to show (units on the map, a hex on it)
        odds = rules.attack_odds(state, o) if o["hex"] in b.grid and all(
            b.on_map(u) and b.grid.adjacent(b.hex_of(u), o["hex"]) for u in o["units"]) else None
        if why is None and odds is not None and odds.legal:
            head = f"attack on {o['hex']}: {odds.label}"
        else:
            head = f"attack on {o['hex']}: illegal - {why or (odds.reason if odds else 'no column')}"
        return "\n".join([head] + [f"  {s}" for s in (odds.steps if odds else [])])
    raise IllegalOrder(f"unknown question {verb!r}: ask reach UNIT or odds HEX with UNIT ...")
