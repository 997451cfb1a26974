"""The Command Phase with a Game Controller (AVA 19.3-19.5): the ``queue``
frame in place of the two-seat draw (``execute``/``drawn``).

The queue itself and the Controller's legal choices are
:mod:`pbem.games.ava.controller`'s; this frame asks them, draws, has the
owner of a face-down chit turn it up, opens the interrupt window at the
reveal (19.5, not at the draw), runs revealed commands one at a time and
hands over to the end of the cup.  How pbem plays 19.4 by email (one
command at a time, the Controller deciding between commands) is ruled in
controller.py.

A choice the rules force, or the only one left, is made without asking.
"""
from __future__ import annotations

from typing import Any

from pbem.game import Decision, Event, IllegalOrder, Rng, State
from pbem.games.ava import controller, seating
from pbem.games.ava.model import AXIS
from pbem.games.ava.seqbase import SeqBase

SEALED = "sealed:"
QUEUE_VERB = "queue"           # the Controller's order: {"verb": "queue", "choice": "reveal 2"}
CHOICE_WORDS = (controller.DRAW, controller.REVEAL, controller.HOLD, controller.STOP)
#: the Controller's standing order: simple (controller.simple_policy) | ask
POLICIES: dict[str, tuple[str, ...]] = {"controller": ("simple", "ask")}
DEPTH = 3                      # the standing order's queue: at most this many chits waiting
POLICY_TEXT = {"controller": "AVA 19.4, the Game Controller's draws and reveals: simple (reveal a chit when its "
                             "seat is idle, draw while fewer than three chits wait) | ask"}


def policy_refusal(st: seating.Seating, seat: str, name: str, value: str) -> str | None:
    if seat != seating.controller(st):
        return f"{name} answers the Game Controller's decisions; {seat} is not the Controller"
    if value.strip().lower() not in POLICIES[name]:
        return f"{value!r} is not one of its values: {', '.join(POLICIES[name])}"
    return None


def parse_choice(words: list[str]) -> dict[str, Any] | None:
    """``draw``, ``hold``, ``stop``, ``reveal N`` (N a queue place: a handle
    has letters) as the Controller's order, else None."""
    if not words or words[0].lower() not in CHOICE_WORDS:
        return None
    verb = words[0].lower()
    if verb == controller.REVEAL:
        if len(words) != 2 or not words[1].isdigit():
            return None
        return {"verb": QUEUE_VERB, "choice": f"{verb} {int(words[1])}"}
    if len(words) != 1:
        raise IllegalOrder(f"{verb} takes nothing after it")
    return {"verb": QUEUE_VERB, "choice": verb}


def check_choice_shape(order: dict[str, Any]) -> None:
    choice = order.get("choice")
    if set(order) != {"verb", "choice"} or not isinstance(choice, str) \
            or parse_choice(choice.split()) != order:
        raise IllegalOrder("queue: draw, hold, stop or reveal N")


class QueueMixin(SeqBase):
    """The Controller's queue (19.4) and its interrupt windows (19.5)."""

    def _queue_owners(self, state: State, q: dict[str, Any]) -> dict[int, str | None]:
        """Entry -> the seat that will execute it, where known (a face-down
        chit shows only its side: 19.4(5) ruling)."""
        return {i: (self.chit_seat(state, e["chit"]) if e["chit"] else None) for i, e in enumerate(q["entries"])}

    def queue_text(self, state: State, q: dict[str, Any]) -> str:
        parts = []
        for i, e in enumerate(q["entries"]):
            how = "done" if e["done"] else "running" if e["running"] else "waiting" if e["revealed"] \
                else "face down"
            parts.append(f"{i + 1} {e['chit'] or self.a_chit(state, e['token'])} ({how})")
        return "; ".join(parts) or "empty"

    def multi_answer(self, state: State, d: Decision, policies: dict[str, Any]) -> dict[str, Any] | None:
        """Standing orders in the multiplayer frames: the Controller's
        ``simple``; the interrupt windows' ``never``, ``enemy`` (cancel an
        enemy chit), ``first``."""
        if d.policy == "controller":
            if str(policies.get("controller", "")).strip().lower() != "simple":
                return None
            q = state["stack"][-1]["q"]
            choice = controller.simple_policy(q, len(state["cup"]), self._queue_owners(state, q), depth=DEPTH)
            waiting = len(controller.under_way(q)) + len(controller.face_down(q))
            if choice == controller.DRAW and waiting >= DEPTH and controller.STOP in d.options:
                choice = controller.STOP        # a face-down chit waits too: no deeper queue by email
            return {"verb": QUEUE_VERB, "choice": choice}
        value = str(policies.get("interrupt", "")).strip().lower()
        plays = [o.split()[1] for o in d.options if not o.endswith(" no")]
        chit = d.prompt.split(" ", 1)[0]
        spec = self.scn.chits.get(chit)
        enemy = spec is not None and spec.side not in (self.side_of_seat(d.seat), "common")
        if value == "never" or (value == "enemy" and not enemy):
            return {"verb": d.kind, "chit": None}
        if value in ("first", "enemy") and plays:
            return {"verb": d.kind, "chit": plays[0]}
        return None

    # ----------------------------------------------------- automatic steps
    def _auto_queue(self, state: State, top: dict[str, Any], rng: Rng, events: list[Event]) -> bool:
        q = top["q"]
        if top["revealing"] is not None:
            return False                                    # the owner turns it up
        if q["window"] is not None:
            if self._queue_window(state, top) is not None:
                return False
            controller.close_window(q)
            top["passed"] = []
            return True
        run = controller.running(q)
        if run is not None:                                 # its frames have popped: complete
            controller.finish(q, run)
            self.clear_activation(state)
            events.append(Event(f"{controller.name(q['entries'][run])} is complete"))
            return True
        cup_left = len(state["cup"])
        if controller.finished(q, cup_left):
            self.pop(state, top)
            self.push(state, "endcup")
            return True
        opts, forced = controller.pending_choice(q, cup_left)
        if forced or len(opts) == 1:
            self._queue_choose(state, top, opts[0], rng, events)
            return True
        return False

    def _queue_choose(self, state: State, top: dict[str, Any], choice: str, rng: Rng, events: list[Event]) -> None:
        q = top["q"]
        cup_left = len(state["cup"])
        controller.check_choice(q, cup_left, choice)
        verb, _, arg = choice.partition(" ")
        if verb == controller.DRAW:
            if not state["dealt"]:
                self._deal(state, rng)
            token = state["cup"].pop(rng.draw(state["cup"], f"turn {state['turn']} chit draw"))
            chit = None if token.startswith(SEALED) else token
            i = controller.draw(q, cup_left, token, chit)
            events.append(Event(f"The Controller draws {chit or self.a_chit(state, token)} "
                                f"(queue place {i + 1})"))
        elif verb == controller.REVEAL:
            i = int(arg) - 1
            chit = q["entries"][i]["chit"]
            if chit is None:
                top["revealing"] = i                        # its owner turns it up
            else:
                self._queue_revealed(state, top, i, chit, events)
        elif verb == controller.HOLD:
            controller.hold(q, cup_left)
            events.append(Event("The Controller leaves it face down in the queue (19.4(5))"))
        else:
            i = controller.stop(q, cup_left)
            cid = str(q["entries"][i]["chit"])
            events.append(Event(f"{cid} is executed (queue place {i + 1})"))
            self.play(state, cid, rng, events)

    def _queue_revealed(self, state: State, top: dict[str, Any], i: int, chit: str, events: list[Event]) -> None:
        q = top["q"]
        controller.reveal(q, len(state["cup"]), i, chit)
        top["passed"] = []
        who = self.chit_seat(state, chit)
        events.append(Event(f"Revealed: {chit} (queue place {i + 1})" + (f", {who}'s command" if who else "")))

    # ----------------------------------------------------- interrupt window (19.5)
    def _queue_window(self, state: State, top: dict[str, Any]) -> tuple[str, str, tuple[str, ...]] | None:
        """The next seat that may cancel the chit just revealed, its side and
        what it holds (A46: Manstein with 4PzG's seat, Guderian with
        2PzG's; Axis seats first, then Zhukov, A29)."""
        from pbem.games.ava import chits
        for side, held in chits.interrupters(self.scn, state, state["hand"], state["turn"]):
            for seat, mine in seating.interrupt_holders(self.seating, self.scn, state, held):
                if seat not in top["passed"]:
                    return seat, side, mine
        return None

    # ----------------------------------------------------- decisions
    def _ask_queue(self, state: State, top: dict[str, Any]) -> Decision:
        q = top["q"]
        if top["revealing"] is not None:
            token = q["entries"][top["revealing"]]["token"]
            return Decision(self.token_owner(state, token), "reveal",
                            f"the Controller reveals queue place {top['revealing'] + 1}: turn the chit up", private=True)
        window = self._queue_window(state, top)
        if q["window"] is not None and window is not None:
            seat, side, held = window
            chit = q["entries"][q["window"]]["chit"]
            verb = "interrupt" if side == AXIS else "zhukov"
            return Decision(seat, verb, f"{chit} was revealed: cancel it with {' or '.join(held)}? (19.5)",
                            tuple([f"{verb} no"] + [f"{verb} {c}" for c in held]), policy="interrupt")
        opts, _ = controller.pending_choice(q, len(state["cup"]))
        ctrl = seating.controller(self.seating) or self.seat_of(AXIS)
        return Decision(ctrl, "queue", f"Game Controller (19.4): queue {self.queue_text(state, q)}; "
                        f"{len(state['cup'])} chit(s) in the cup", opts, policy="controller",
                        hint="draw | reveal N (the first face-down place) | hold | stop (run the next command)")

    def _do_queue(self, state: State, top: dict[str, Any], d: Decision, order: dict[str, Any], rng: Rng,
                  events: list[Event]) -> None:
        q = top["q"]
        if d.kind == "reveal":
            i = top["revealing"]
            chit = self.open_token(state, q["entries"][i]["token"], d, order, events)
            top["revealing"] = None
            self._queue_revealed(state, top, i, chit, events)
            return
        if d.kind in ("interrupt", "zhukov"):
            self._queue_interrupt(state, top, d, order, events)
            return
        if order["verb"] != QUEUE_VERB:
            raise IllegalOrder(f"the Controller answers {' | '.join(d.options)}")
        self._queue_choose(state, top, order["choice"], rng, events)

    def _queue_interrupt(self, state: State, top: dict[str, Any], d: Decision, order: dict[str, Any],
                         events: list[Event]) -> None:
        from pbem.games.ava import chits
        if order["verb"] != d.kind:
            raise IllegalOrder(f"answer {d.kind} no or {d.kind} CHIT")
        window = self._queue_window(state, top)
        assert window is not None
        seat, side, held = window
        cid = order.get("chit")
        if cid is None:
            top["passed"].append(seat)
            return
        chits.check_interrupt(self.scn, held, cid)
        state["hand"][side].remove(cid)
        q = top["q"]
        cancelled = q["entries"][q["window"]]["chit"]
        back = controller.cancel(q, cid)
        state["cup"] += back                # 19.5: back to the cup, the cancelled chit now known
        top["passed"] = []
        events.append(Event(f"{cid} cancels {cancelled}; {len(back)} chit(s) go back in the cup (19.5)"))
