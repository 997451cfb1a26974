"""Questions that change nothing: ``reach UNIT [strat]``, ``odds HEX with
UNIT ...``, ``loc UNIT``.  What a seat sees of the situation is
:mod:`pbem.games.ava.view`."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.game import IllegalOrder
from pbem.games.ava import orders

if TYPE_CHECKING:
    from pbem.games.ava.rules import AvaRules

HELP = "ask reach UNIT [strat], odds HEX with UNIT ..., or loc UNIT"


def answer(rules: AvaRules, state: dict[str, Any], seat: str, text: str) -> str:
    words = text.strip().split()
    if not words:
        raise IllegalOrder(HELP)
    verb = words[0].lower()
    if verb == "reach" and len(words) in (2, 3):
        return _reach(rules, state, words[1], strategic=len(words) == 3 and words[2].lower().startswith("strat"))
    if verb == "odds" and len(words) >= 4:
        return _odds(rules, state, seat, words[1:])
    if verb == "loc" and len(words) == 2:
        return _loc(rules, state, words[1])
    raise IllegalOrder(f"unknown question {text.strip()!r}: {HELP}")


def _reach(rules: AvaRules, state: dict[str, Any], word: str, strategic: bool) -> str:
    from pbem.games.ava import movement
    uid = orders.unit(rules.scn, word)
    b = rules.board(state)
    mode = "strategic" if strategic else "normal"
    out = bool(state["units"][uid].get("reserve_out"))
    found = movement.reach(b, uid, mode, reserve_out_of_range=out, no_ezoc=rules.no_ezoc(state, uid))
    here = b.unit(uid)["hex"]
    lines = [f"{rules.name(uid)} from {here}, {mode} movement, allowance {movement.mp(movement.allowance(b, uid, reserve_out_of_range=out))} MP:"]
    lines += [f"  {h}  {movement.mp(c)} MP" for c, h in sorted((c, h) for h, c in found.items() if h != here)]
    return "\n".join(lines)


def _odds(rules: AvaRules, state: dict[str, Any], seat: str, words: list[str]) -> str:
    """The same reading and check as the attack order itself, so the answer
    says "illegal" exactly when the order would be refused."""
    from pbem.games.ava import combat
    try:
        order = orders.parse("attack " + " ".join(words), rules.scn)
    except IllegalOrder as exc:
        return f"attack on {words[0]}: illegal - {exc}"
    d = rules.pending(state)
    why = rules.not_yours(d, seat)
    top = state["stack"][-1] if state.get("stack") else {}
    if why is None and (d is None or d.kind != "combat"):
        why = f"no attack now: the decision is {d.kind if d else 'none'}"
    surprise = bool(top.get("surprise"))
    why = why or rules.attack_refusal(state, order, surprise)
    b = rules.board(state)
    try:
        o = combat.odds(b, order["units"], order["hex"], surprise=surprise, halved=rules.halved(state, order["units"]))
    except (IllegalOrder, KeyError, TypeError):
        o = None
    head = f"attack on {order['hex']}: " + (f"illegal - {why}" if why else (o.label if o else "no column"))
    return "\n".join([head] + [f"  {n}" for n in (o.notes if o else ())])


def _loc(rules: AvaRules, state: dict[str, Any], word: str) -> str:
    from pbem.games.ava import supply
    uid = orders.unit(rules.scn, word)
    b = rules.board(state)
    h = b.unit(uid)["hex"]
    if not h:
        return f"{rules.name(uid)} is not on the map"
    lines = supply.loc(b, b.spec(uid).side, limited=rules.loc_limited)
    if h in lines:
        return f"{rules.name(uid)} in {h} traces an LOC (last leg {lines[h]} hex(es))"
    return f"{rules.name(uid)} in {h} traces no LOC: it loses a step at the next Supply Check (11.1)"
