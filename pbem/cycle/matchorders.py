"""Orders about the match rather than the game: standing orders,
resignation, and the draw and abandonment agreements (an agreement ends the
game only once every other seat has consented, each in a signed exchange).
The engine makes them (:func:`pbem.cycle.run.engine_order`); no game sees
them."""
from __future__ import annotations

from typing import Any, Collection, cast

from pbem.protocol.types import EngineState
from pbem.game import IllegalOrder, Order, Rules

AGREEMENTS = ("draw", "abandon")
ENGINE_VERBS = ("policy", "resign") + tuple(f"{v}-{a}" for a in AGREEMENTS for v in ("offer", "accept", "decline"))
_ENDING = {"draw": "drawn by agreement", "abandon": "abandoned by agreement"}


def match_order(es: EngineState, seat: str, order: Order, seats: list[str], rules: Rules,
                kinds: Collection[str]) -> str:
    """Make a match order of ``seat``'s on ``es``; the line the log shows
    for it ("" for a standing order: the order line itself says it, and
    only to its owner, what)."""
    verb = order["verb"]
    if verb == "policy":
        _policy(es, seat, order, rules, kinds)
        return ""
    if verb == "resign":
        es["ended"] = {"how": "resign", "by": seat, "text": f"{seat} resigns"}
        return f"{seat} resigns"
    action, what = verb.split("-", 1)
    return _agreement(es, seat, action, what, seats)


def _policy(es: EngineState, seat: str, order: Order, rules: Rules, kinds: Collection[str]) -> None:
    """A standing order, checked in every program: a kind the game has, a
    value the kind takes, for a decision of this seat.  A kind that answers
    a private decision is sealed: only the owner's program (and the audit)
    reads its value, which it keeps in the seat's hidden part under
    ``standing``; the public state says only that one is set."""
    name = order.get("name")
    if not isinstance(name, str) or name not in kinds:
        raise IllegalOrder(f"no standing order {name!r}; kinds: {', '.join(sorted(kinds)) or 'none'}")
    private = name in rules.private_policies
    if private != bool(order.get("private")):
        raise IllegalOrder(f"standing order {name} must {'' if private else 'not '}be sealed")
    value = (order.get("secret") or {}).get("value") if private else order.get("value")
    known = not private or (es["game"].get("hidden") or {}).get(seat) is not None
    if known:
        if not isinstance(value, str) or not value.strip():
            raise IllegalOrder(f"standing order {name} needs a value (`policy {name} off` clears it)")
        if value != "off":
            why = rules.check_policy(es["game"], seat, name, value)
            if why:
                raise IllegalOrder(f"standing order {name}: {why}")
    pols = dict(es["policies"].get(seat) or {})
    if private:
        if known:
            standing = es["game"]["hidden"][seat].setdefault("standing", {})
            if value == "off":
                standing.pop(name, None)
            else:
                standing[name] = value
        pols[name] = "sealed"
    elif value == "off":
        pols.pop(name, None)
    else:
        pols[name] = value
    es["policies"][seat] = pols


def _agreement(es: EngineState, seat: str, action: str, what: str, seats: list[str]) -> str:
    """A draw or an abandonment: one seat offers, every other seat must
    accept (each in its own signed exchange), any one may decline.  The
    offer's state lives under ``draw_offer`` (the offering seat) and, only
    while some but not all have accepted, ``draw_agreed``; likewise for
    ``abandon_``.  Keys appear only when used, so two-seat games keep the
    state they always had."""
    key, agreed_key = f"{what}_offer", f"{what}_agreed"
    state = cast(dict[str, Any], es)      # the agreement's keys are named after it
    offer = state.get(key)
    if action == "offer":
        if offer:
            raise IllegalOrder(f"{offer} has already offered a {what}: accept or decline it")
        state[key] = seat
        return f"{seat} offers a {what}" if what == "draw" else f"{seat} offers to abandon the game"
    agreed = list(state.get(agreed_key) or [])
    if not offer or offer == seat or seat in agreed:
        raise IllegalOrder(f"there is no {what} offer from another seat for you to answer")
    if action == "decline":
        state[key] = None
        state.pop(agreed_key, None)
        return f"{seat} declines the {what}"
    agreed.append(seat)
    if set(agreed) >= set(seats) - {offer}:
        state[key] = None
        state.pop(agreed_key, None)
        state["ended"] = {"how": what, "by": seat, "text": _ENDING[what]}
        return f"{seat} accepts the {what}"
    state[agreed_key] = agreed
    return f"{seat} accepts the {what}; waiting for {', '.join(s for s in seats if s != offer and s not in agreed)}"


def parse_engine_order(text: str) -> Order | None:
    """``policy NAME VALUE...``, ``resign``, ``offer-draw``, ``accept-draw``,
    ``decline-draw`` (and ``-abandon``); None for anything else (a game
    order)."""
    words = text.split()
    if not words or words[0].lower() not in ENGINE_VERBS:
        return None
    verb = words[0].lower()
    if verb == "policy":
        if len(words) < 2:
            raise IllegalOrder("usage: policy NAME VALUE (or `policy NAME off`)")
        return {"verb": "policy", "name": words[1], "value": " ".join(words[2:])}
    if len(words) > 1:
        raise IllegalOrder(f"{verb} takes no arguments")
    return {"verb": verb}
