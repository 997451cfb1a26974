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
from pbem.games.ava.model import SOVIET
from pbem.games.ava.seqbase import SeqBase, selection_options

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

    # ----------------------------------------------------- activation (17.5, 17.6)
    def activate_hq(self, state: State, cid: str, hq: str, events: list[Event]) -> None:
        """8.1 with AVA 17.6 (a Panzergruppe HQ's later activations need an
        LOC off the railroads other PzG HQs used this turn) and 17.5 (a
        German HQ activates at most ten mech units: the owner picks)."""
        from pbem.games.ava import activation
        state.pop("reserve_noezoc", None)
        if not self._pzg_eligible(state, hq, events):
            state["active"] = None
            return
        super().activate_hq(state, cid, hq, events)  # type: ignore[misc]
        self._same_hq_again(state, hq, events)
        if self.options.get("mech_limit"):
            active = sorted(u for u, x in state["units"].items() if x["active"])
            if activation.mech_choice(self.board(state), hq, active):
                self.push(state, "mech_pick", hq=hq)

    def _same_hq_again(self, state: State, hq: str, events: list[Event]) -> None:
        """Option reactivate_same_hq false (the literal AVA 8.1 / FFS 8.1.2):
        units this HQ activated earlier this turn stay inactive."""
        rec = state.get("acts") or {}
        if rec.get("turn") != state["turn"]:
            rec = {"turn": state["turn"], "by": {}}
        state["acts"] = rec
        now = sorted(u for u, x in state["units"].items() if x["active"] and u != hq)
        if not self.options.get("reactivate_same_hq", True):
            again = [u for u in now if u in rec["by"].get(hq, [])]
            for u in again:
                state["units"][u]["active"] = False
            if again:
                events.append(Event(f"{len(again)} unit(s) already activated by {self.name(hq)} this turn stay "
                                    "inactive (8.1)"))
        rec["by"][hq] = sorted(set(rec["by"].get(hq, [])) | set(now))

    def _pzg_eligible(self, state: State, hq: str, events: list[Event]) -> bool:
        from pbem.games.ava import supply
        if not self.options.get("pzg_second_activation") or self.scn.units[hq].type != "panzergruppe" \
                or not state["units"][hq]["hex"]:
            return True
        rec = state.get("pzg") or {}
        if rec.get("turn") != state["turn"]:
            rec = {"turn": state["turn"], "count": {}, "lines": []}
        state["pzg"] = rec
        n = rec["count"].get(hq, 0)
        rec["count"][hq] = n + 1
        if n == 0:
            return True
        lines = supply.pzg_second_activation(self.board(state), hq, rec["lines"])
        if lines is None:
            events.append(Event(f"{self.name(hq)} traces no LOC clear of the railroads "
                                f"{', '.join(rec['lines']) or '-'}: no second activation (17.6)"))
            return False
        rec["lines"] = sorted(set(rec["lines"]) | set(lines))
        return True

    def _ask_mech_pick(self, state: State, top: dict[str, Any]) -> Decision:
        from pbem.games.ava import activation
        b = self.board(state)
        active = sorted(u for u, x in state["units"].items() if x["active"])
        offered = activation.mech_choice(b, top["hq"], active)
        words = [self.short(u) for u in offered]
        # every full pick of ten while few (fewer is legal too, and never forced)
        opts, hint = selection_options("pick", words, activation.MECH_LIMIT, "UNIT")
        return Decision(self.seat_of(self.side_of(top["hq"])), "mech",
                        f"{self.name(top['hq'])} activates at most {activation.MECH_LIMIT} mechanized units (17.5): "
                        f"pick them from {', '.join(words)}", tuple(opts),
                        hint=hint or f"pick UNIT ...: up to {activation.MECH_LIMIT} of {' '.join(words)}")

    def _do_mech_pick(self, state: State, top: dict[str, Any], d: Decision, order: dict[str, Any], rng: Rng,
                      events: list[Event]) -> None:
        from pbem.games.ava import activation
        if order["verb"] != "pick":
            raise IllegalOrder(f"answer pick UNIT ... (at most {activation.MECH_LIMIT} mech units, 17.5)")
        b = self.board(state)
        active = sorted(u for u, x in state["units"].items() if x["active"])
        kept = activation.apply_mech_choice(b, top["hq"], active, order["units"])
        for u in set(active) - set(kept):
            state["units"][u]["active"] = False
        self.pop(state, top)
        events.append(Event(f"{self.name(top['hq'])} activates {len(order['units'])} mechanized unit(s) (17.5)"))

    # ----------------------------------------------------- 15.3 option army19_turn3_only (A24)
    def _auto_endturn(self, state: State, top: dict[str, Any], rng: Rng, events: list[Event]) -> bool:
        from pbem.games.ava import reinforce
        done: bool = super()._auto_endturn(state, top, rng, events)  # type: ignore[misc]
        last = self.scn.params.army19_turn
        if self.options.get("army19_turn3_only") and last and state["turn"] > last:
            lost = reinforce.army19_group(self.board(state))
            if lost:
                reinforce.to_box(state, lost, "withdrawn")
                events.append(Event(f"The 19th Army did not enter by Turn {last}: {len(lost)} unit(s) lost (15.3)"))
        return done
