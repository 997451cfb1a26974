"""Scenario special rules and optional rules that reach into several
phases: Zhukov's Command (AVA 18.1), and the optional rules of AVA 17 /
FFS 16 that are rule options of the game (see ``OPTIONS`` in
:mod:`pbem.games.ava`).

:class:`OptionsMixin` comes first in :class:`pbem.games.ava.rules.AvaRules`,
so its few overrides of the Selection Phase wrap the command module's.

Zhukov's Command (AVA 18.1, notes A29):

* an Axis unit entering a hex next to Leningrad (by any means) lets the
  Soviet declare it; the ``zhukov`` frame is pushed at the next safe point
  (``state["interject"]``) and asks the Soviet, with a standing order;
* from the next turn on the Soviet may name his Reinforcements chit in his
  selection to hold it in hand (public, like the Axis interrupts);
* its window after a draw opens only when the Axis passed
  (chits.interrupters); a chit played from the hand opens no window, so
  Manstein is never cancelled by it; a held chit left at the end of the cup
  is played after the Axis ones (chits.end_of_cup).
"""
from __future__ import annotations

import dataclasses
from typing import Any

from pbem.game import Decision, Event, IllegalOrder, Rng, State
from pbem.games.ava.model import AXIS, SOVIET
from pbem.games.ava.seqbase import SeqBase

INTERJECT = "interject"


class OptionsMixin(SeqBase):
    """Zhukov's Command and the optional rules' frames."""

    # ----------------------------------------------------- Zhukov (18.1)
    def _ask_zhukov(self, state: State, top: dict[str, Any]) -> Decision:
        return Decision(self.seat_of(SOVIET), "declare", "an Axis unit has entered a hex next to Leningrad: "
                        "declare Zhukov's Command (18.1)? From the next turn the Soviet Reinforcements chit may be "
                        "held in hand", ("declare yes", "declare no"), policy="zhukov")

    def _do_zhukov(self, state: State, top: dict[str, Any], d: Decision, order: dict[str, Any], rng: Rng,
                   events: list[Event]) -> None:
        if order["verb"] != "declare":
            raise IllegalOrder("answer declare yes or declare no (18.1)")
        self.pop(state, top)
        if order["yes"]:
            state["zhukov"] = state["turn"]
            events.append(Event(f"Soviet declares Zhukov's Command on Turn {state['turn']} (18.1)"))

    def zhukov_holdable(self, state: State, side: str) -> list[str]:
        """The Soviet Reinforcements chit(s) he may hold in hand this turn."""
        from pbem.games.ava import chits
        if side != SOVIET or not chits.zhukov_active(state, state["turn"]):
            return []
        return [c for c in chits.mandatory(self.scn, self.profile, side, state["turn"])
                if self.scn.chits[c].kind == "reinforcement"]

    def mandatory_chits(self, state: State, side: str) -> list[str]:
        held = state.get("zhukov_hold") or []
        return [c for c in super().mandatory_chits(state, side) if c not in held]  # type: ignore[misc]

    def _ask_select(self, state: State, top: dict[str, Any]) -> Decision:
        d: Decision = super()._ask_select(state, top)  # type: ignore[misc]
        hold = self.zhukov_holdable(state, d.seat) if d.kind == "chits" else []
        if not hold:
            return d
        opts = tuple(d.options) + tuple(f"{o} {hold[0]}" for o in d.options)
        return dataclasses.replace(d, options=opts, prompt=d.prompt + f"; Zhukov's Command (18.1): name {hold[0]} "
                                   "to hold it in hand instead of cupping it")

    def _do_select(self, state: State, top: dict[str, Any], d: Decision, order: dict[str, Any], rng: Rng,
                   events: list[Event]) -> None:
        hand = list(order.get("hand") or [])
        hold = [c for c in hand if c in self.zhukov_holdable(state, d.seat)]
        if d.kind == "chits" and hold:
            order = dict(order, hand=[c for c in hand if c not in hold])
            state["zhukov_hold"] = hold
        try:
            super()._do_select(state, top, d, order, rng, events)  # type: ignore[misc]
        finally:
            state.pop("zhukov_hold", None)
        if hold:
            state["hand"][SOVIET] = sorted(state["hand"][SOVIET] + hold)
            events.append(Event(f"Soviet holds {', '.join(hold)} in hand (18.1 Zhukov's Command)"))

    # ----------------------------------------------------- interjections
    def interject(self, state: State) -> bool:
        """Push a decision that arose in the middle of another (18.1)."""
        kind = state.pop(INTERJECT, None)
        if kind is None:
            return False
        self.push(state, kind)
        return True
