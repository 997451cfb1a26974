"""The Surprise Attack, the Selection Phase, the Command Phase (draw,
reveal, interrupt windows, chit resolution) and the End Phase.

Rulings this module relies on (restated in the RULINGS files):

* AVA 6.3 / FFS 6.3.1: an interrupt chit held in hand is public (like A
  Victory Denied's Guderian box).  The number of a side's face-down handles
  in the cup is public under the hidden-item service, which in FFS tells it
  anyway (Axis Com less one); and so the interrupt window after a draw is
  asked only while one is held.
* AVA 7.3 / A28: the Axis may interrupt any drawn chit, its own and the
  Supply Check included; when both are held at the end of the cup the Axis
  chooses the order.  FFS 7.3.3 (#17): at the end of the cup Guderian may
  be played, not must.
* AVA 18.1 / A29: the Zhukov window opens after the Axis passes.
* Mandatory chits (the Supply Check, a mandatory Reinforcements chit) go
  into the cup face up: everyone knows they are there.
"""
from __future__ import annotations

from typing import Any

from pbem.game import Decision, Event, IllegalOrder, Rng, State
from pbem.games.ava import controller, reinforce
from pbem.games.ava.model import AXIS, SIDE_NAME, SIDES, SOVIET
from pbem.games.ava.seating import CONTROLLER, VARIANT
from pbem.games.ava.seqbase import SeqBase
from pbem.games.ava.seqbase import selection_options as selection_options  # re-exported: seq_master's import

SEALED = "sealed:"         # a cup token "sealed:<handle>": a chit still face down


class CommandMixin(SeqBase):
    """Selection, draw, interrupts, chit resolution, End Phase."""

    # ------------------------------------------------- chit schedule (COMMAND)
    def chit_pool(self, state: State, side: str) -> list[str]:
        """The side's chits it may select this turn (6.2, 15.2), interrupts
        included, the mandatory ones (cupped face up by the engine) left out."""
        from pbem.games.ava import chits
        mandatory = set(self.mandatory_chits(state, side))
        return [c for c in chits.available(self.scn, self.profile, state, side, state["turn"],
                                           reserve_okh=self.reserve_okh) if c not in mandatory]

    def mandatory_chits(self, state: State, side: str) -> list[str]:
        from pbem.games.ava import chits
        return list(chits.mandatory(self.scn, self.profile, side, state["turn"]))

    def chit_quota(self, state: State, side: str) -> int:
        """How many of the pool the side selects (at most; exactly where the
        profile says so): the quota less the mandatory chits it counts."""
        from pbem.games.ava import chits
        q = chits.quota(self.scn, self.profile, state, side, state["turn"], reserve_okh=self.reserve_okh)
        counted = sum(1 for c in self.mandatory_chits(state, side)
                      if chits.counts_against_quota(self.scn, self.profile, c))
        return max(0, min(q - counted, len(self.chit_pool(state, side))))

    @property
    def reserve_okh(self) -> bool:
        return bool(self.options.get("reserve_okh", False))

    def kind(self, cid: str) -> str:
        return self.scn.chits[cid].kind

    # ----------------------------------------------------- Surprise Attack
    def _auto_surprise(self, state: State, top: dict[str, Any], rng: Rng, events: list[Event]) -> bool:
        """AVA 15.1 / FFS 15.1: before Turn 1 every Panzergruppe HQ activates
        its own formation (in range); one Combat Segment, no movement,
        rivers ignored."""
        from pbem.games.ava import activation
        self.pop(state, top)
        b = self.board(state)
        hqs = sorted(u for u in b.on_map(AXIS) if b.spec(u).is_hq and b.spec(u).type == "panzergruppe")
        state["active"] = AXIS
        self.set_commander(state, self.seat_of(AXIS))     # A49: the Axis side's seat orders it
        n = 0
        for hq in hqs:
            for u in activation.activated_by(b, hq, surprise=True):
                self.activate(state, u)
                n += 1
        events.append(Event(f"Surprise Attack (15.1): {len(hqs)} Panzergruppe HQ(s) activate {n} unit(s); "
                            "one Combat Segment, no movement, rivers ignored"))
        state["phase"] = "surprise"
        self.push(state, "combat", surprise=True, stage="declare", declared=[])
        return True

    # ----------------------------------------------------- Selection (6)
    def _select_side(self, top: dict[str, Any]) -> str:
        return AXIS if AXIS not in top["done"] else SOVIET

    def _ask_select(self, state: State, top: dict[str, Any]) -> Decision:
        from pbem.games.ava import chits
        if self.seating.mode == VARIANT:
            return self.ask_cup(state, top)
        side = self._select_side(top)
        seat = self.seat_of(side)
        turn = state["turn"]
        if side == SOVIET and chits.extra_due(self.scn, state, turn):
            due = chits.extra_due(self.scn, state, turn)
            opts, hint = selection_options("extra", chits.extra_candidates(self.scn, state), due)
            return Decision(seat, "extra", f"Turn {turn}: choose {due} more Soviet Army chit(s) to make available "
                            "(18.x / FFS 15.2)", tuple(opts), hint=hint)
        pool = self.chit_pool(state, side)
        n = self.chit_quota(state, side)
        opts, hint = selection_options("chits", pool, n)
        exact = self.profile.chit_quota_exact or n == len(pool)
        mand = self.mandatory_chits(state, side)
        prompt = (f"Turn {turn} Selection: choose {'' if exact else 'up to '}{n} chit(s) from "
                  f"{', '.join(pool) or 'none'}" + (f" ({', '.join(mand)} go(es) in anyway)" if mand else "")
                  + "; an interrupt chit is held in hand (6.3)")
        return Decision(seat, "chits", prompt, tuple(opts) or ("chits",), hint=hint or "chits ID ID ...")

    def _do_select(self, state: State, top: dict[str, Any], d: Decision, order: dict[str, Any], rng: Rng,
                   events: list[Event]) -> None:
        from pbem.games.ava import chits
        if self.seating.mode == VARIANT:
            self.do_cup(state, top, d, order, events)
            return
        side = self._select_side(top)
        if d.kind == "extra":
            if order["verb"] != "extra":
                raise IllegalOrder("answer extra CHIT (the Soviet Army chit made available)")
            chits.add_extra(self.scn, state, state["turn"], list(order["chits"]))
            events.append(Event(f"Soviet makes {', '.join(order['chits'])} available"))
            return
        if order["verb"] != "chits":
            raise IllegalOrder(f"expected a chit selection (chits ID ID ...), got {order['verb']}")
        pool = self.chit_pool(state, side)
        hand = list(order.get("hand") or [])
        for c in hand:
            if c not in pool or self.kind(c) != "interrupt":
                raise IllegalOrder(f"{c} is not an interrupt chit the {SIDE_NAME[side]} player may hold now")
        secret = order.get("secret")
        hidden = state["hidden"].get(self.seat_of(side))
        if secret is None and hidden is not None:
            raise IllegalOrder("a chit selection carries its chits in its secret part (chits ID ID ...)")
        count = len(secret["chits"]) if secret is not None else order.get("count")
        quota = self.chit_quota(state, side)
        if not isinstance(count, int) or count + len(hand) > quota:
            raise IllegalOrder(f"the {SIDE_NAME[side]} player selects at most {quota} chit(s) this turn")
        if self.profile.chit_quota_exact and count + len(hand) != quota:
            raise IllegalOrder(f"the {SIDE_NAME[side]} player selects exactly {quota} chit(s) this turn (6.2)")
        if order.get("count") not in (None, count):
            raise IllegalOrder(f"the selection seals {count} chits, not {order['count']}")
        if secret is not None:
            self._check_chosen(state, side, pool, list(secret["chits"]), hand)
        self._cup_selection(state, side, pool, count, secret, hand, events)
        top["done"].append(side)
        if len(top["done"]) == len(SIDES):
            self._close_selection(state, top, events)

    def _check_chosen(self, state: State, side: str, pool: list[str], chosen: list[str], hand: list[str]) -> None:
        from pbem.games.ava import chits
        for c in chosen:
            if c not in pool:
                raise IllegalOrder(f"chit {c} is not available to the {SIDE_NAME[side]} player now")
            if self.kind(c) == "interrupt":
                raise IllegalOrder(f"{c} is an interrupt: it is held in hand, not cupped (6.3)")
        chits.check_selection(self.scn, self.profile, state, side, state["turn"], chosen + hand,
                              reserve_okh=self.reserve_okh)

    def _cup_selection(self, state: State, side: str, pool: list[str], count: int, secret: Any,
                       hand: list[str], events: list[Event]) -> None:
        """k public handles, which say nothing of the chits under them."""
        handles = [f"{side[0]}{state['turn']}.{i}" for i in range(1, count + 1)]
        seat = self.seat_of(side)        # A49: the side's seat selects and keeps them
        hidden = state["hidden"].get(seat)
        if secret is not None and hidden is not None:
            hidden["chits"] = {h: [c, state["turn"]] for h, c in zip(handles, secret["chits"])}
        state["picks"][side] = {"from": [c for c in pool if self.kind(c) != "interrupt"]}
        for h in handles:
            state["sealed"][h] = seat
            state["cup"].append(SEALED + h)
        state["hand"][side] = sorted(hand)
        events.append(Event(f"{SIDE_NAME[side]} puts {count} chit(s) in the cup"
                            + (f", holds {', '.join(hand)} in hand" if hand else "")))

    def _close_selection(self, state: State, top: dict[str, Any], events: list[Event]) -> None:
        self.pop(state, top)
        from pbem.games.ava import chits
        state["cup"] += chits.common(self.scn)
        for side in SIDES:
            state["cup"] += self.mandatory_chits(state, side)
        state["phase"] = "command"
        self.push(state, "queue", q=controller.new_queue(), revealing=None, passed=[]) \
            if self.seating.mode == CONTROLLER else self.push(state, "execute")
        events.append(Event(f"Turn {state['turn']}: {len(state['cup'])} chits in the cup"))

    # ----------------------------------------------------- hidden items
    def hidden_items(self, state: State, seat: str) -> dict[str, Any]:
        mine = (state["hidden"].get(seat) or {}).get("chits") or {}
        return {h: {"chit": c, "turn": t} for h, (c, t) in mine.items()}

    def identity_of(self, seat: str, value: Any) -> str | None:
        """A chit goes into the cup at most once a turn (6.1)."""
        if isinstance(value, dict) and isinstance(value.get("chit"), str) and isinstance(value.get("turn"), int):
            return f"{value['chit']} (turn {value['turn']})"
        return None

    def check_opening(self, state: State, seat: str, handle: str, value: Any) -> str | None:
        """A chit turned up must be one of the seat's face-down handles, a chit
        of this turn it could select when it chose, never an interrupt (held
        in hand, 6.3), and not one already face up this turn."""
        side = self.side_of_seat(seat)
        if state.get("sealed", {}).get(handle) != seat:
            return f"{handle} is not a face-down {SIDE_NAME.get(seat, seat)} chit in the cup"
        if not isinstance(value, dict) or set(value) != {"chit", "turn"}:
            return "not a chit and its turn"
        chit, turn = value["chit"], value["turn"]
        if turn != state["turn"]:
            return f"{chit} was put in the cup on turn {turn!r}, not this turn ({state['turn']})"
        if self.seating.mode == VARIANT:
            return self.hq_opening_refusal(state, seat, chit)
        spec = self.scn.chits.get(chit) if isinstance(chit, str) else None
        if spec is None or spec.side != side:
            return f"{chit!r} is not a {SIDE_NAME.get(side, side)} chit"
        if chit not in (state["picks"].get(side) or {}).get("from", []):
            return f"{chit} could not be selected this turn (6.2)"
        face_up = (set(state["played"]) | {c for c in state["cup"] if not c.startswith(SEALED)}) \
            - set(state["shown"].values())
        if chit in face_up or chit in state["hand"].get(side, []):
            return f"{chit} is already face up or in hand this turn, so it was not cupped"
        return None

    def fill_secrets(self, state: State, side: str, order: dict[str, Any], new_salt: Any) -> dict[str, Any]:
        """A selection goes into the file with how many chits it seals (public)
        and the chits in its secret part, which the core seals and commits."""
        secret = order.get("secret")
        if order.get("verb") not in ("chits", "cup") or not isinstance(secret, dict) or not isinstance(secret.get("chits"), list):
            return order
        return dict(order, count=len(secret["chits"]))

    def private_answer(self, state: State, decision: Decision) -> dict[str, Any]:
        top = state["stack"][-1]
        if state["hidden"].get(decision.seat) is None:
            raise IllegalOrder(f"the {SIDE_NAME.get(decision.seat, decision.seat)} secrets are not held here")
        if decision.kind == "reveal":
            return {"verb": "reveal", "open": [self.reveal_token(top)[len(SEALED):]]}
        raise IllegalOrder(f"{decision.kind} is not a private decision")

    def reveal_token(self, top: dict[str, Any]) -> str:
        """The face-down token the top frame waits to see turned up."""
        if top["k"] == "queue":
            return str(top["q"]["entries"][top["revealing"]]["token"])
        if top["k"] == "mdraw":
            return str(top["draws"][top["at"]]["token"])
        return str(top["token"])

    # ----------------------------------------------------- Command Phase (7)
    def _auto_execute(self, state: State, top: dict[str, Any], rng: Rng, events: list[Event]) -> bool:
        if state["cup"]:
            if not state["dealt"]:
                self._deal(state, rng)
            i = rng.draw(state["cup"], f"turn {state['turn']} chit draw")
            token = state["cup"].pop(i)
            chit = None if token.startswith(SEALED) else token
            self.push(state, "drawn", token=token, chit=chit, passed=[])
            events.append(Event(f"Drawn: {chit}" if chit else f"Drawn: {self.a_chit(state, token)}"))
            return True
        self.pop(state, top)
        self.push(state, "endcup")
        return True

    def token_owner(self, state: State, token: str) -> str:
        """The seat holding a face-down token; a face-up chit's side."""
        if token.startswith(SEALED):
            found: str = state["sealed"][token[len(SEALED):]]
            return found
        side = self.scn.chits[token].side
        return side if side in SIDES else "common"

    def token_side(self, state: State, token: str) -> str:
        """How a token shows to everyone: the side name of its back."""
        side = self.side_of_seat(self.token_owner(state, token))
        return SIDE_NAME.get(side, side)

    def a_chit(self, state: State, token: str) -> str:
        """"an Axis chit", "a Soviet chit": a face-down token as all see it."""
        side = self.token_side(state, token)
        return f"{'an' if side[:1] in 'AEIOU' else 'a'} {side} chit"

    def _deal(self, state: State, rng: Rng) -> None:
        """Before the first draw each side's face-down chits are mixed under
        their handles by its own secret stream: where a handle stands says
        nothing of its chit.  The draw itself is public."""
        state["dealt"] = True
        for seat in self.seat_names():
            handles = [h for h, s in sorted(state["sealed"].items()) if s == seat]
            if len(handles) < 2:
                continue
            srng = rng.secret(seat)
            mine = state["hidden"].get(seat)
            if srng is not None and mine is not None:
                dealt = srng.shuffle([mine["chits"][h] for h in handles], f"{seat} chits face down in the cup")
                mine["chits"].update(zip(handles, dealt))

    def _auto_drawn(self, state: State, top: dict[str, Any], rng: Rng, events: list[Event]) -> bool:
        if top["chit"] is None:
            return False                    # the owner reveals
        if self._window(state, top):
            return False
        self.pop(state, top)
        self.play(state, top["chit"], rng, events)
        return True

    def _window(self, state: State, top: dict[str, Any]) -> tuple[str, tuple[str, ...]] | None:
        """The next side that may cancel the chit just drawn, with what it
        holds (AVA 7.3 then 18.1, A29; FFS 7.3), or None."""
        from pbem.games.ava import chits
        for side, held in chits.interrupters(self.scn, state, state["hand"], state["turn"]):
            if side not in top["passed"]:
                return side, held
        return None

    def _ask_drawn(self, state: State, top: dict[str, Any]) -> Decision:
        if top["chit"] is None:
            owner = self.token_owner(state, top["token"])
            return Decision(owner, "reveal", "reveal the chit drawn from the cup", private=True)
        window = self._window(state, top)
        assert window is not None
        side, held = window
        verb = "interrupt" if side == AXIS else "zhukov"
        return Decision(self.seat_of(side), verb,
                        f"{top['chit']} was drawn: cancel it with {' or '.join(held)}? "
                        + ("(7.3)" if side == AXIS else "(18.1 Zhukov's Command)"),
                        tuple([f"{verb} no"] + [f"{verb} {c}" for c in held]), policy="interrupt")

    def _do_drawn(self, state: State, top: dict[str, Any], d: Decision, order: dict[str, Any], rng: Rng,
                  events: list[Event]) -> None:
        from pbem.games.ava import chits
        if d.kind == "reveal":
            top["chit"] = self.open_token(state, top["token"], d, order, events)
            return
        if order["verb"] != d.kind:
            raise IllegalOrder(f"answer {d.kind} no or {d.kind} CHIT")
        window = self._window(state, top)
        assert window is not None
        side, held = window
        cid = order.get("chit")
        if cid is None:
            top["passed"].append(side)
            return
        chits.check_interrupt(self.scn, held, cid)
        state["hand"][side].remove(cid)
        self.pop(state, top)
        state["cup"].append(top["chit"])       # 7.3: the cancelled chit goes back (now known)
        events.append(Event(f"{cid} cancels {top['chit']}, which goes back in the cup"))
        self.play(state, cid, rng, events)

    def open_token(self, state: State, token: str, d: Decision, order: dict[str, Any],
                   events: list[Event]) -> str:
        """The owner turns up face-down ``token`` (its opening checked by the
        core and :meth:`check_opening`): the chit under it."""
        c = token[len(SEALED):]
        ops = order.get("openings")
        mine = state["hidden"].get(d.seat)
        if ops is None and order.get("open") == [c] and mine is not None and c in mine["chits"]:
            # A caller outside the engine that holds the side's hidden part:
            # the opening the core would give.
            ops = [{"handle": c, "value": self.hidden_items(state, d.seat)[c]}]
        if order.get("open") != [c] or not isinstance(ops, list) or len(ops) != 1 \
                or not isinstance(ops[0], dict) or ops[0].get("handle") != c:
            raise IllegalOrder(f"the chit drawn is {c}: the reveal opens it, and nothing else")
        value = ops[0].get("value")
        why = self.check_opening(state, d.seat, c, value)
        if why:
            raise IllegalOrder(f"revealed chit {c}: {why}")
        assert isinstance(value, dict)
        del state["sealed"][c]
        state["shown"][c] = value["chit"]
        events.append(Event(f"The chit is {value['chit']}"))
        return str(value["chit"])

    # ----------------------------------------------------- chit resolution (7.2)
    def play(self, state: State, cid: str, rng: Rng, events: list[Event]) -> None:
        """7.1: the chit's owner becomes the active player and the chit acts
        (7.2; an HQ off the map does nothing, 13.0)."""
        from pbem.games.ava import chits
        state["played"].append(cid)
        what, arg = chits.effect(self.board(state), cid)
        side = self.scn.chits[cid].side
        state["active"] = side if side in SIDES else None
        self.set_commander(state, self.chit_seat(state, cid))
        if what == "supply":
            events.append(Event("Supply Check (11)"))
            self.push(state, "supply", stage="start")
        elif what == "reinforcement":
            events.append(Event(f"{SIDE_NAME[side]} Reinforcements (12)"))
            self.push(state, "reinf", side=side, stage="start")
        elif what == "army19":
            events.append(Event("19th Army enters (15.3)"))
            self.push(state, "army19", stage="start", hq=arg)
        elif what == "reserve":
            self.start_reserve(state, cid, rng, events)
        elif what == "activate":
            self.activate_hq(state, cid, arg, events)
        else:
            events.append(Event(f"{cid}: {self.name(arg) if arg in self.scn.units else arg} is not on the map; "
                                "no activation (13.0)"))
            state["active"] = None

    def activate_hq(self, state: State, cid: str, hq: str, events: list[Event]) -> None:
        """8.1: an HQ on the map activates itself and every unit in range; an
        HQ off the map does nothing (13.0)."""
        from pbem.games.ava import activation
        b = self.board(state)
        units = activation.activated_by(b, hq)
        for u in units:
            self.activate(state, u)
        events.append(Event(f"{cid}: {self.name(hq)} activates {len(units)} unit(s)"))
        self.push_segments(state)

    def push_segments(self, state: State, surprise: bool = False) -> None:
        self.push(state, "combat", surprise=surprise, stage="declare", declared=[])
        self.push(state, "move", mode="normal")

    def activate(self, state: State, uid: str) -> None:
        u = state["units"][uid]
        u["active"], u["moved"], u["attacked"], u["retreated"] = True, False, False, False

    def clear_activation(self, state: State) -> None:
        for u in state["units"].values():
            u["active"] = u["moved"] = u["attacked"] = u["retreated"] = False
            u.pop("reserve_out", None)
            u.pop("reserve_attack", None)
        state["attacked_hexes"] = []
        state["active"] = None
        if "commander" in state:
            state["commander"] = None

    # ----------------------------------------------------- end of the cup
    def _end_of_cup(self, state: State) -> tuple[list[str], list[str], list[str]]:
        """The held chits at the end of the cup: (forced, optional, the
        Axis's forced interrupts, which he plays in the order he likes, A28)."""
        from pbem.games.ava import chits
        forced, optional = chits.end_of_cup(self.profile, self.scn, state["hand"])
        return forced, optional, [c for c in forced if self.scn.chits[c].side == AXIS]

    def _auto_endcup(self, state: State, top: dict[str, Any], rng: Rng, events: list[Event]) -> bool:
        """AVA 7.3: an unplayed interrupt is played before the End Phase (two:
        the Axis orders them, A28); FFS 7.3.3: it may be.  A Reinforcements
        chit held under Zhukov is played after them (A29)."""
        forced, optional, axis_forced = self._end_of_cup(state)
        if len(axis_forced) > 1 or (not axis_forced and optional):
            return False
        if forced:
            cid = forced[0]
            state["hand"][self.scn.chits[cid].side].remove(cid)
            events.append(Event(f"{cid} is played at the end of the cup (7.3)"))
            self.play(state, cid, rng, events)
            return True
        self.pop(state, top)
        self.push(state, "endturn")
        return True

    def _ask_endcup(self, state: State, top: dict[str, Any]) -> Decision:
        _, optional, axis_forced = self._end_of_cup(state)
        opts = [f"interrupt {c}" for c in axis_forced or optional] + ([] if axis_forced else ["interrupt no"])
        return Decision(self.seat_of(AXIS), "endcup", "the cup is empty: play which held interrupt? (7.3)",
                        tuple(opts), policy="interrupt")

    def _do_endcup(self, state: State, top: dict[str, Any], d: Decision, order: dict[str, Any], rng: Rng,
                   events: list[Event]) -> None:
        _, optional, axis_forced = self._end_of_cup(state)
        if order["verb"] != "interrupt":
            raise IllegalOrder("answer interrupt CHIT" + ("" if axis_forced else " or interrupt no"))
        cid = order.get("chit")
        if cid is None:
            if axis_forced:
                raise IllegalOrder("a held interrupt is played before the End Phase (7.3)")
            state["hand"][AXIS] = [c for c in state["hand"][AXIS] if c not in optional]
            events.append(Event(f"{', '.join(optional)} not played this turn (7.3.3)"))
            return
        if cid not in (axis_forced or optional):
            raise IllegalOrder(f"{cid} is not an interrupt held in hand")
        state["hand"][AXIS].remove(cid)
        self.play(state, cid, rng, events)

    # ----------------------------------------------------- End Phase (5.0(5))
    def _auto_endturn(self, state: State, top: dict[str, Any], rng: Rng, events: list[Event]) -> bool:
        self.pop(state, top)
        state["turn"] += 1
        t = state["turn"]
        reinforce.end_phase(self.scn, state, t)     # 5.0(5), A31: to the Available Box, outside the count
        state.update(cup=[], played=[], sealed={}, shown={}, picks={}, dealt=False,
                     hand={AXIS: [], SOVIET: []}, phase="selection")
        for seat in self.seat_names():
            if state["hidden"].get(seat) is not None:
                state["hidden"][seat]["chits"] = {}
        if "hqcups" in state:
            state["hqcups"] = {}
        events.append(Event(f"End Phase: Turn {t} begins"))
        self.push(state, "select", done=[])
        return True
