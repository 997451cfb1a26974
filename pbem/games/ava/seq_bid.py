"""VP bidding (AVA 17.1, FFS 16.1; rulings A52 and FFS #58), behind the
rule option ``vp_bidding``: the pre-game decides which player plays the
Axis.

* **Sealed, simultaneous.**  Each seat bids in its own order: the bid is
  committed in public (``commit = H(b"pbem/commit/v1" || salt ||
  canonical(bid))``, :func:`pbem.game.sealed_choice`), the bid and its salt
  sealed to the bidder; once both are in, each seat's program opens its own
  (a private decision), and every program checks the opening against the
  commitment: a bid changed after seeing the other's is refused at once.
* **The higher bidder plays the Axis** and wins if the Axis reaches his bid
  (AVA: the Axis VP; FFS #58: the Axis lead over the Soviet total).  A tie
  is broken by a coin flip from the shared stream (a d2: 1 the seat that
  bid first); its winner chooses a side, the Axis playing at the tied bid.
* **Seats.**  The file's seats are named after the sides; until the bids
  are opened each player holds the seat he joined.  When the Axis falls to
  the player who joined as ``soviet``, the game says so
  (:func:`seat_players`) and the core moves the players between the two
  seats after that exchange (keys, dice chains and secret seeds with them).

State: ``state["bid"] = {"commit": {seat: hex}, "open": {seat: bid}, "tie":
seat | None, "axis": seat | None, "value": bid | None}``, seat names as
joined; the frame ``bid`` on top of the stack until the sides are known.
"""
from __future__ import annotations

from typing import Any, Callable

from pbem.game import Decision, Event, IllegalOrder, State, opened_choice, sealed_choice
from pbem.games.ava.model import AXIS, SIDE_NAME, SOVIET

BID_VERB, OPEN_VERB, SIDE_VERB = "bid", "bid-open", "side"
VERBS = (BID_VERB, OPEN_VERB, SIDE_VERB)
MAX_BID = 999
ORDER = (AXIS, SOVIET)          # who bids first (and wins a coin flip of 1)


def initial(state: State) -> None:
    """Put the bidding in front of everything else (17.1: before set-up)."""
    state["bid"] = {"commit": {}, "open": {}, "tie": None, "axis": None, "value": None}
    state["stack"].append({"k": "bid"})


def seat_players(state: State) -> dict[str, str]:
    """Seat -> the seat its player joined as, once the bids gave the Axis
    to the player who joined as the Soviet; {} otherwise."""
    bid = state.get("bid") or {}
    if bid.get("axis") == SOVIET:
        return {AXIS: SOVIET, SOVIET: AXIS}
    return {}


def winning_bid(state: State) -> int | None:
    """The bid the Axis plays to (17.1 / #58), once the bids are open."""
    bid = state.get("bid") or {}
    return int(bid["value"]) if bid.get("value") is not None else None


# ------------------------------------------------------------ orders
def parse(words: list[str]) -> dict[str, Any] | None:
    if not words or words[0].lower() not in (BID_VERB, SIDE_VERB):
        return None
    if len(words) != 2:
        raise IllegalOrder("bid N (your VP bid, sealed) or side axis|soviet")
    if words[0].lower() == SIDE_VERB:
        return {"verb": SIDE_VERB, "side": words[1].lower()}
    try:
        value = int(words[1])
    except ValueError:
        raise IllegalOrder(f"bid: {words[1]!r} is not a number of VP") from None
    return {"verb": BID_VERB, "secret": {"value": value}}


def fill_bid(order: dict[str, Any], new_salt: Callable[[], bytes]) -> dict[str, Any]:
    """The bidder's program commits the bid: a fresh salt, the public
    commitment, the bid and salt in the order's secret part."""
    secret = order.get("secret")
    if order.get("verb") != BID_VERB or "commit" in order or not isinstance(secret, dict) \
            or set(secret) != {"value"}:
        return order
    commitment, sealed = sealed_choice(secret["value"], new_salt())
    return {"verb": BID_VERB, "commit": commitment, "secret": sealed}


def check_shape(order: dict[str, Any]) -> None:
    verb = str(order.get("verb"))
    allowed = {BID_VERB: {"verb", "commit", "secret"}, OPEN_VERB: {"verb", "value", "salt"},
               SIDE_VERB: {"verb", "side"}}[verb]
    if set(order) - allowed:
        raise IllegalOrder(f"{verb}: unknown fields {', '.join(sorted(set(order) - allowed))}")
    if verb == SIDE_VERB and order.get("side") not in (AXIS, SOVIET):
        raise IllegalOrder("side axis or side soviet")


def format_order(order: dict[str, Any]) -> str:
    """A bid never shows its value until it is opened (the notation may
    reach a shared log)."""
    verb = order.get("verb")
    if verb == BID_VERB:
        return "bid (sealed)"
    if verb == OPEN_VERB:
        return f"bid opened: {order.get('value')}"
    return f"side {order.get('side')}"


def _bid_value(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_BID:
        raise IllegalOrder(f"a VP bid is a whole number from 0 to {MAX_BID}, not {value!r}")
    return value


# ------------------------------------------------------------ the frame
class BidMixin:
    """The ``bid`` frame (17.1): commit, open, coin flip, side."""

    def _ask_bid(self, state: State, top: dict[str, Any]) -> Decision:
        bid = state["bid"]
        for seat in ORDER:
            if seat not in bid["commit"]:
                return Decision(seat, "bid", f"VP bid (17.1), sealed: the higher bid plays the Axis and wins if "
                                "the Axis reaches it; until the bids are opened you are the "
                                f"'{seat}' seat only by name", (f"{BID_VERB} {self._bid_hint()}",),
                                hint="bid N")
        for seat in reversed(ORDER):       # the last to commit opens at once, in the same exchange
            if seat not in bid["open"]:
                return Decision(seat, "bid-open", "open your sealed VP bid (17.1)", private=True)
        chooser = bid["tie"]
        return Decision(chooser, "bid-side", f"tied bids of {bid['open'][AXIS]} VP: the coin flip is yours "
                        "(A52): play the Axis at that bid, or the Soviet", (f"{SIDE_VERB} {AXIS}", f"{SIDE_VERB} {SOVIET}"))

    def _bid_hint(self) -> int:
        victory = self.scn.victory                                      # type: ignore[attr-defined]
        return int(victory.threshold or 0) if self.profile.victory == "threshold" else 40   # type: ignore[attr-defined]

    def _do_bid(self, state: State, top: dict[str, Any], d: Decision, order: dict[str, Any], rng: Any,
                events: list[Event]) -> None:
        bid = state["bid"]
        seat = d.seat
        mine = state["hidden"].get(seat)
        if d.kind == "bid":
            if order.get("verb") != BID_VERB:
                raise IllegalOrder("your VP bid: bid N (17.1)")
            commitment, secret = order.get("commit"), order.get("secret")
            if not isinstance(commitment, str) or len(commitment) != 64:
                raise IllegalOrder("a bid goes into the file as its commitment")
            if mine is not None:
                if not isinstance(secret, dict) or set(secret) != {"value", "salt"}:
                    raise IllegalOrder("a bid carries its value and salt in its secret part")
                _bid_value(secret["value"])
                opened_choice(commitment, secret, f"{seat}'s bid")
                mine["bid"] = secret
            bid["commit"][seat] = commitment
            events.append(Event(f"{SIDE_NAME[seat]} seat bids (sealed)"))
            return
        if d.kind == "bid-open":
            if order.get("verb") != OPEN_VERB:
                raise IllegalOrder("the bid is opened by its owner's program")
            value = _bid_value(opened_choice(bid["commit"][seat], {k: order.get(k) for k in ("value", "salt")},
                                             f"{seat}'s bid"))
            bid["open"][seat] = value
            if mine is not None:
                mine.pop("bid", None)
            events.append(Event(f"{SIDE_NAME[seat]} seat's bid: {value} VP"))
            if len(bid["open"]) == len(ORDER):
                self._settle_bids(state, top, rng, events)
            return
        if order.get("verb") != SIDE_VERB:
            raise IllegalOrder("side axis or side soviet (A52)")
        other = SOVIET if seat == AXIS else AXIS
        self._bid_done(state, top, seat if order["side"] == AXIS else other, bid["open"][seat], events)

    def _settle_bids(self, state: State, top: dict[str, Any], rng: Any, events: list[Event]) -> None:
        opened = state["bid"]["open"]
        a, s = opened[AXIS], opened[SOVIET]
        if a != s:
            self._bid_done(state, top, AXIS if a > s else SOVIET, max(a, s), events)
            return
        flip = rng.roll(2, "17.1 tied VP bids: coin flip (1: the first bidder)")
        winner = ORDER[flip - 1]
        state["bid"]["tie"] = winner
        events.append(Event(f"tied bids: the coin flip (a d2 from the shared stream: {flip}) goes to the player "
                            f"who joined as {SIDE_NAME[winner]}, who chooses a side (A52)"))

    def _bid_done(self, state: State, top: dict[str, Any], axis_player: str, value: int,
                  events: list[Event]) -> None:
        state["bid"].update(axis=axis_player, value=value)
        assert state["stack"][-1] is top
        state["stack"].pop()
        moved = " (the players change seats)" if axis_player == SOVIET else ""
        events.append(Event(f"the player who joined as {SIDE_NAME[axis_player]} plays the Axis, to a bid of "
                            f"{value} VP{moved}"))

    def bid_private_answer(self, state: State, decision: Decision) -> dict[str, Any]:
        mine = state["hidden"].get(decision.seat)
        if mine is None or "bid" not in mine:
            raise IllegalOrder("the sealed bid is not held here")
        return {"verb": OPEN_VERB, "value": mine["bid"]["value"], "salt": mine["bid"]["salt"]}
