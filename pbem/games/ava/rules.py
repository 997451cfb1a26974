"""A Victory Awaits / Fierce Fight! Smolensk: the sequence of play (AVA 5.0,
FFS 5.0) as a state machine.

The state carries a *stack of frames* (``state["stack"]``).  The frame on
top says where the turn stands: a decision someone owes (``select``,
``move``, ``combat``, a loss or retreat inside a ``battle``...) or an
automatic step (``execute`` draws the next chit, ``endturn`` runs the End
Phase).  After every order :meth:`AvaRules._run` works the automatic steps
until a decision is due, so :meth:`pending` only reads the top frame.

Each frame kind ``K`` has up to three handlers: ``_ask_K`` (the decision
due), ``_do_K`` (an order for it) and ``_auto_K`` (an automatic step:
returns True when it moved on, False when a decision is due).  They live in
the ``seq_*`` modules by phase; the mechanics (movement, combat, retreats,
supply lines, chit quotas, reinforcements, fortresses, victory) are the
mechanics modules', called through their interfaces.

Secret chits (AVA 6.1, FFS 6.1) are the sides' hidden items, kept by the
core's hidden-information service exactly as in A Victory Denied: a
selection carries its chits in its secret part; each sits under a public
handle (``a3.2``) in the cup, mixed by the owner's secret stream before the
first draw; the draw is public and the owner's program turns the handle up.
"""
from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any, TypeVar

from pbem.game import BaseRules, Decision, Event, IllegalOrder, Rng, State, View, team_part
from pbem.games.ava import orders, policies
from pbem.games.ava.model import AXIS, SIDE_NAME, SIDES, SOVIET, Scenario
from pbem.games.ava.profile import Profile
from pbem.games.ava import seating as seatmod
from pbem.games.ava import seq_bid, seq_master, seq_queue
from pbem.games.ava.seq_bid import BidMixin
from pbem.games.ava.seq_combat import CombatMixin
from pbem.games.ava.seq_command import SEALED, CommandMixin
from pbem.games.ava.seq_master import MasterMixin
from pbem.games.ava.seq_ops import OpsMixin
from pbem.games.ava.seq_queue import QueueMixin
from pbem.games.ava.seq_options import OptionsMixin
from pbem.games.ava.seq_reinf import ReinfMixin
from pbem.games.ava.seq_setup import SetupMixin
from pbem.games.ava.seq_supply import SupplyMixin

__all__ = ["SEALED", "AvaRules"]
T = TypeVar("T")
DECISION_MEMO = 8          # recent positions whose pending decision is kept (speed only)


class _NoDice:
    """The set-up settles without randomness; any draw is a bug."""

    def roll(self, sides: int, purpose: str) -> int:
        raise RuntimeError(f"no roll before the game starts ({purpose})")

    def draw(self, items: Any, purpose: str) -> int:
        raise RuntimeError(f"no draw before the game starts ({purpose})")

    def shuffle(self, items: Any, purpose: str) -> list[Any]:
        raise RuntimeError(f"no shuffle before the game starts ({purpose})")

    def secret(self, seat: str) -> None:
        raise RuntimeError("no secret draw before the game starts")


def new_frame(kind: str, **kw: Any) -> dict[str, Any]:
    return {"k": kind, **kw}


class AvaRules(OptionsMixin, SetupMixin, CommandMixin, QueueMixin, MasterMixin, OpsMixin, CombatMixin, SupplyMixin,
               ReinfMixin, BidMixin, BaseRules):
    """The rules of one *Fierce Fight!* game (AVA or FFS profile) bound to
    one scenario and its rule options."""

    def __init__(self, scn: Scenario, profile: Profile, options: dict[str, Any] | None = None, *,
                 seating: seatmod.Seating | None = None,
                 master_table: dict[int, tuple[int, int]] | None = None) -> None:
        self.scn, self.profile = scn, profile
        self.options = dict(options or {})
        if seating is not None:
            self.seating = seating
        if master_table is not None:
            self.master_table = master_table
        self._decisions: dict[bytes, Decision | None] = {}
        self.last_turn = scn.track.last_turn
        m = scn.map
        self.scoring_hexes = frozenset(m.cities).union(*m.supply.values(), *m.vp_hexes.values())
        if self.options.get("short_game") and scn.params.short_game_turn:
            self.last_turn = scn.params.short_game_turn
        # A side holds in secret at most the chits it could cup in one turn;
        # every commit of its hidden items has this width.
        most = max([1] + [sum(1 for c in scn.chits.values() if c.side == s) for s in SIDES])
        self.hidden_width = 1
        while self.hidden_width < most:
            self.hidden_width *= 2

    # ================================================================ setup
    def initial_state(self) -> State:
        """AVA 4.0 / FFS 4.0: units where the scenario puts them (a hex, the
        Available Box, a Turn Track space), full strength; control by the
        start line; Brest's fortress, the Stand Fast markers; then the
        Surprise Attack (15.1) before the first Selection Phase."""
        units: dict[str, Any] = {}
        for uid, s in sorted(self.scn.units.items()):
            h: str | None = None
            box: str | None = "available"
            if s.start.startswith("turn:"):
                box = f"track:{int(s.start[5:])}"
            elif s.start.startswith("zone:"):
                box = s.start                       # placed by its owner at the set-up (seq_setup)
            elif s.start != "available":
                h, box = s.start, None
            units[uid] = {"hex": h, "box": box, "steps": s.steps, "active": False, "moved": False,
                          "attacked": False, "retreated": False}
        stack = [new_frame("select", done=[])]
        if self.scn.params.surprise_attack and self.seating.mode != seatmod.VARIANT:   # 20.2: after selection
            stack.append(new_frame("surprise"))
        zoned = any(s.start.startswith("zone:") for s in self.scn.units.values())
        if zoned:
            stack.append(new_frame("setup", side=SOVIET))     # 4.0(2): the Soviet sets up first
        state: State = {
            "turn": 1, "phase": "setup" if zoned else "surprise" if self.scn.params.surprise_attack else "selection",
            "stack": stack, "units": units,
            "control": dict(self.scn.map.initial_control), "fortress": dict(self.scn.map.fortress),
            "stand_fast": sorted(self.scn.map.stand_fast),
            "cup": [], "played": [], "sealed": {}, "shown": {}, "picks": {}, "dealt": False,
            "hand": {AXIS: [], SOVIET: []}, "extra_chits": {},
            "active": None, "attacked_hexes": [],
            "vp_awards": {}, "axis_losses": [],
            "winner": None, "result": [],
            "hidden": {seat: {"chits": {}} for seat in self.seat_names()},
        }
        if self.seating.mode == seatmod.VARIANT:
            # 20.2: each team's split of its HQ chits, known to its seats alone
            for side in SIDES:
                state["hidden"][team_part(side)] = {"turn": 0, "cups": {}}
        # The Surprise Attack's activation draws nothing: settle it now so
        # that the first decision is on top.
        self.run(state, _NoDice(), [])
        if self.options.get("vp_bidding"):
            seq_bid.initial(state)               # 17.1: the bids come before everything
        return state

    # ============================================================ interface
    def scoped(self, fn: Callable[[], T]) -> T:
        """Run a read-only question with one board per state object."""
        if self._scope is not None:
            return fn()
        self._scope = {}
        try:
            return fn()
        finally:
            self._scope = None

    def pending(self, state: State) -> Decision | None:
        if self._scope is not None:
            return self._pending(state)
        # The engine asks about one position several times, each on its own
        # copy: a state that pickles to the same bytes has the same decision.
        key = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        if key in self._decisions:
            return self._decisions[key]
        d = self.scoped(lambda: self._pending(state))
        if len(self._decisions) >= DECISION_MEMO:
            self._decisions.pop(next(iter(self._decisions)))
        self._decisions[key] = d
        return d

    def _pending(self, state: State) -> Decision | None:
        if state.get("winner") or not state["stack"]:
            return None
        top = state["stack"][-1]
        fn = getattr(self, f"_ask_{top['k']}", None)
        if fn is None:
            raise RuntimeError(f"frame {top['k']} has no decision (the sequence stopped on it)")
        d: Decision = fn(state, top)
        return self.address(state, top, d)

    def apply(self, state: State, side: str, order: dict[str, Any], rng: Rng) -> tuple[State, list[Event]]:
        return self.apply_decided(state, side, order, rng, self.pending(state))

    def apply_decided(self, state: State, side: str, order: dict[str, Any], rng: Rng,
                      d: Decision | None) -> tuple[State, list[Event]]:
        why = self.not_yours(d, side)
        if why:
            raise IllegalOrder(why)
        assert d is not None
        self.check_shape(order)
        if order["verb"] == "reveal" and d.kind != "reveal":
            raise IllegalOrder(f"nothing to reveal now: the decision is {d.kind}")
        top = state["stack"][-1]
        events: list[Event] = []
        outer, self._scope = self._scope, None      # the state changes: no shared boards
        try:
            getattr(self, f"_do_{top['k']}")(state, top, d, order, rng, events)
            self.run(state, rng, events)
        finally:
            self._scope = outer
        return state, events

    def fill_secrets(self, state: State, side: str, order: dict[str, Any], new_salt: Any) -> dict[str, Any]:
        """20.2: an HQ cup's chits go to the seat's team (``team_secret``,
        sealed by the core to every seat of the side), not to the seat
        alone; 17.1: a bid is committed (seq_bid)."""
        from pbem.games.ava import seq_bid
        order = seq_bid.fill_bid(order, new_salt)
        filled = super().fill_secrets(state, side, order, new_salt)
        if filled.get("verb") == seq_master.CUP_VERB and self.seating.mode == seatmod.VARIANT \
                and "secret" in filled:
            filled = {k: v for k, v in filled.items() if k != "secret"} | {"team_secret": filled["secret"]}
        return filled

    def private_answer(self, state: State, decision: Decision) -> dict[str, Any]:
        if decision.kind == "bid-open":
            return self.bid_private_answer(state, decision)
        return super().private_answer(state, decision)  # type: ignore[no-any-return]

    def seat_players(self, state: State) -> dict[str, str]:
        """17.1: the bids may give the Axis to the player who joined as the
        Soviet; the core then moves the two players (seq_bid)."""
        return seq_bid.seat_players(state)

    def not_yours(self, d: Decision | None, side: str) -> str | None:
        if d is None:
            return "the game is over"
        if side != d.seat and self.multi:
            return f"it is {d.seat}'s decision ({d.kind}), not {side}'s"
        if side != d.seat:
            return f"it is the {SIDE_NAME.get(d.seat, d.seat)} player's decision ({d.kind}), not the " \
                   f"{SIDE_NAME.get(side, side)}"
        return None

    def parse(self, text: str, state: State, side: str) -> dict[str, Any]:
        mine = seq_queue.parse_choice(text.split()) or seq_master.parse_cup(text.split(), self.scn, side) \
            or (seq_bid.parse(text.split()) if self.options.get("vp_bidding") else None)
        if mine is not None:
            self.check_shape(mine)
            return mine
        return self.route(orders.parse(text, self.scn), state)

    def check_shape(self, order: Any) -> None:
        """The multiplayer orders' shapes (seq_queue, seq_master), the others' (orders)."""
        verb = order.get("verb") if isinstance(order, dict) else None
        if verb in seq_bid.VERBS and self.options.get("vp_bidding"):
            seq_bid.check_shape(order)
        elif verb == seq_queue.QUEUE_VERB:
            seq_queue.check_choice_shape(order)
        elif verb == seq_master.CUP_VERB:
            seq_master.check_cup_shape(order, self.scn)
        else:
            orders.check_shape(order, self.scn)

    def format(self, order: dict[str, Any]) -> str:
        if order.get("verb") in seq_bid.VERBS and self.options.get("vp_bidding"):
            return seq_bid.format_order(order)
        if order.get("verb") == seq_queue.QUEUE_VERB:
            return str(order["choice"])
        if order.get("verb") == seq_master.CUP_VERB:
            return seq_master.format_cup(order)
        return orders.format(order, self.scn)

    def check_policy(self, state: State, seat: str, name: str, value: str) -> str | None:
        if name in seq_queue.POLICIES:
            return seq_queue.policy_refusal(self.seating, seat, name, value)
        return policies.refusal(self, self.side_of_seat(seat), name, value)

    def standing_answer(self, state: State, decision: Decision, policies_: dict[str, Any]) -> dict[str, Any] | None:
        if self.multi and decision.policy in ("controller", "interrupt") \
                and state["stack"][-1]["k"] in ("queue", "mdraw"):
            return self.scoped(lambda: self.multi_answer(state, decision, policies_))
        return self.scoped(lambda: policies.answer(self, state, decision, policies_))

    def demo_order(self, state: State, decision: Decision) -> dict[str, Any] | str:
        from pbem.games.ava import bot
        return bot.demo_order(self, state, decision)

    def demo_policies(self, side: str) -> dict[str, str]:
        from pbem.games.ava import bot
        mine = dict(bot.POLICIES[self.side_of_seat(side)])
        if side == seatmod.controller(self.seating):
            mine["controller"] = "simple"
        return mine

    def query(self, state: State, side: str, text: str) -> str:
        from pbem.games.ava import query
        return query.answer(self, state, side, text)

    def result(self, state: State) -> str | None:
        if not state.get("winner"):
            return None
        return "\n".join(state["result"])

    def view(self, state: State, seat: str | None) -> View:
        from pbem.games.ava import view
        return view.view(self, state, seat)

    # ============================================================ machinery
    def run(self, state: State, rng: Rng, events: list[Event]) -> None:
        """Work automatic frames until a decision is due or the game ends."""
        for _ in range(100000):
            if state.get("winner") or not state["stack"]:
                return
            if self.interject(state):
                continue
            top = state["stack"][-1]
            auto = getattr(self, f"_auto_{top['k']}", None)
            if auto is None or not auto(state, top, rng, events):
                return
        raise RuntimeError("the sequence of play did not settle")
