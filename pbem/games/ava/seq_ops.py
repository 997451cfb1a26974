"""The Movement Segment (AVA 9 / FFS 9) of an activation, city control as
units enter hexes (3.4), and the Reserve/OKH activation (optional 17.2).

Movement legality is :mod:`pbem.games.ava.movement`'s: this module only
asks it and moves the counter.
"""
from __future__ import annotations

from typing import Any

from pbem.game import Decision, Event, IllegalOrder, Rng, State
from pbem.games.ava.model import AXIS, SIDE_NAME
from pbem.games.ava.seqbase import SeqBase

MODES = {"move": "normal", "strat": "strategic"}


class OpsMixin(SeqBase):
    """Movement and the changes entering a hex makes."""

    # ----------------------------------------------------- Movement Segment
    def movers(self, state: State) -> list[str]:
        side = state["active"]
        b = self.board(state)
        return [u for u in b.on_map(side) if state["units"][u]["active"] and not state["units"][u]["moved"]]

    def _ask_move(self, state: State, top: dict[str, Any]) -> Decision:
        side = state["active"]
        names = ", ".join(self.short(u) for u in self.movers(state)) or "none"
        transfers = tuple(f"transfer {self.short(u)}" for u in self.transferable(state))
        return Decision(self.seat_of(side), "move", f"{SIDE_NAME[side]} Movement Segment: units to move: {names}"
                        + ("; transfer HQ: to the next turn's Reinforcements (17.3)" if transfers else ""),
                        ("move UNIT HEX ...", "strat UNIT HEX ...") + transfers + ("end-move",),
                        hint="reach UNIT lists the hexes a unit may end in")

    def _do_move(self, state: State, top: dict[str, Any], d: Decision, order: dict[str, Any], rng: Rng,
                 events: list[Event]) -> None:
        from pbem.games.ava import movement
        verb = order["verb"]
        if verb in ("end-move", "pass", "done"):
            over = movement.overstacked(self.board(state), state["active"]) \
                if self.profile.stacking_checked_at == "segment" else []
            if over:
                raise IllegalOrder(f"{', '.join(over)} hold(s) more than two units: the segment may not end so (3.1.3)")
            self.pop(state, top)
            events.append(Event("End of movement"))
            return
        if verb == "transfer":
            self.transfer_hq(state, order["unit"], self.activating_hq(state), events)
            return
        if verb not in MODES:
            raise IllegalOrder("expected move UNIT HEX ..., strat UNIT HEX ... or end-move")
        uid, path = order["unit"], list(order["path"])
        b = self.board(state)
        u = state["units"][uid]
        name = self.name(uid)
        if self.side_of(uid) != state["active"] or not u["hex"]:
            raise IllegalOrder(f"{name} is not one of your units on the map")
        if not u["active"]:
            raise IllegalOrder(f"{name} is not activated")
        if u["moved"]:
            raise IllegalOrder(f"{name} has already moved this activation (9.1)")
        if path[0] != u["hex"]:
            path = [u["hex"]] + path
        if len(path) < 2:
            raise IllegalOrder(f"{name}: a move enters at least one hex (to stay, leave it out)")
        spent = movement.check_move(b, uid, path, MODES[verb], reserve_out_of_range=bool(u.get("reserve_out")),
                                    no_ezoc=self.no_ezoc(state, uid))
        self.move_along(state, uid, path[1:])
        u["moved"] = True
        events.append(Event(f"{name} moves {' '.join(path)} ({spent / 2:g} MP"
                            + (", strategic)" if verb == "strat" else ")"), {"unit": uid, "path": path}))

    def route(self, order: dict[str, Any], state: State) -> dict[str, Any]:
        """``move 7Pz 4020`` naming a destination that is not adjacent: the
        cheapest legal path there, so a player need not spell every hex."""
        from pbem.games.ava import movement
        path = order.get("path") or []
        uid = order.get("unit")
        if order.get("verb") not in MODES or len(path) != 1 or not isinstance(uid, str) \
                or uid not in state.get("units", {}):
            return order
        start = state["units"][uid]["hex"]
        grid = self.scn.map.grid
        if start is None or path[0] == start or path[0] not in grid or grid.adjacent(start, path[0]):
            return order
        b = self.board(state)
        mode = MODES[order["verb"]]
        out = bool(state["units"][uid].get("reserve_out"))
        limits: dict[str, Any] = {"reserve_out_of_range": out, "no_ezoc": self.no_ezoc(state, uid)}
        try:
            if path[0] in movement.reach(b, uid, mode, **limits):
                return dict(order, path=movement.reach_paths(b, uid, mode, **limits).path_to(path[0]))
        except IllegalOrder:
            return order
        raise IllegalOrder(f"{self.name(uid)} cannot reach {path[0]} (ask `reach {self.short(uid)}`)")

    def no_ezoc(self, state: State, uid: str) -> bool:
        """AVA 18.1 (A39): a Leningrad Reserve unit neither enters nor leaves
        enemy ZOC while this Reserve activation lasts."""
        return state["units"][uid].get("reserve_attack") is not None and uid in state.get("reserve_noezoc", [])

    # ----------------------------------------------------- HQ transfer (17.3 / 16.3)
    def activating_hq(self, state: State) -> str:
        """The HQ whose chit activated the units now active ('' for none:
        Reserve/OKH units carry their Reserve limits)."""
        return next((u for u, x in sorted(state["units"].items()) if x["active"] and x["hex"]
                     and self.scn.units[u].is_hq and x.get("reserve_attack") is None), "")

    def transferable(self, state: State) -> list[str]:
        """AVA 17.3: other HQs of the active side in range of the activating
        HQ, with an LOC (option hq_transfer)."""
        from pbem.games.ava import activation
        hq = self.activating_hq(state)
        if not self.options.get("hq_transfer") or self.profile.hq_transfer != "in_range" or not hq:
            return []
        b = self.board(state)
        reach = activation.range_hexes(b, hq)
        return [u for u in b.on_map(self.side_of(hq)) if u != hq and b.spec(u).is_hq
                and self._transfer_refusal(state, u, hq, b.unit(u)["hex"] in reach) is None]

    def _transfer_refusal(self, state: State, uid: str, hq: str, in_range: bool) -> str | None:
        from pbem.games.ava import reinforce, supply
        b = self.board(state)
        try:
            reinforce.check_hq_transfer(b, uid, supply.has_loc(b, uid, limited=self.limited(uid)),
                                        in_range=in_range, activated=hq)
        except IllegalOrder as exc:
            return str(exc)
        return None

    def limited(self, uid: str) -> bool:
        """AVA 17.4 for a Soviet unit's LOC."""
        return self.loc_limited and self.side_of(uid) == "soviet"

    def transfer_hq(self, state: State, uid: str, hq: str, events: list[Event]) -> None:
        """Off the map to the next turn's space; it comes back with its
        side's Reinforcements outside the count (17.3, A31)."""
        from pbem.games.ava import activation, reinforce
        if not self.options.get("hq_transfer"):
            raise IllegalOrder("HQ transfer is an optional rule this game does not use (17.3)")
        side = self.side_of(uid)
        if side != state["active"] and self.profile.hq_transfer == "in_range":
            raise IllegalOrder(f"{self.name(uid)} is not one of your HQs")
        in_range = bool(hq) and state["units"][uid]["hex"] in activation.range_hexes(self.board(state), hq)
        why = self._transfer_refusal(state, uid, hq, in_range)
        if why:
            raise IllegalOrder(why)
        box = f"track:{state['turn'] + 1}"
        reinforce.to_box(state, [uid], box)
        state["units"][uid]["extra"] = True
        events.append(Event(f"{self.name(uid)} transfers to Turn {state['turn'] + 1} (HQ transfer)"))

    # ----------------------------------------------------- entering hexes
    def move_along(self, state: State, uid: str, hexes: list[str]) -> None:
        """The unit enters each hex in turn (movement, retreat, advance)."""
        for h in hexes:
            state["units"][uid]["hex"] = h
            self.entered(state, uid, h)

    def place(self, state: State, uid: str, h: str) -> None:
        u = state["units"][uid]
        u["hex"], u["box"] = h, None
        self.entered(state, uid, h)

    def entered(self, state: State, uid: str, h: str) -> None:
        """3.4: a city hex belongs to the side whose unit last entered it; so
        does any other hex that scores, supply sources included (A36)."""
        if h in self.scoring_hexes:
            state["control"][h] = self.side_of(uid)
        self.zhukov_offer(state, uid, h)

    # ----------------------------------------------------- Zhukov's Command (18.1)
    @property
    def zhukov_on(self) -> bool:
        """18.1 in the Leningrad scenario; option zhukov_in_campaign (A29)
        wherever the map has Leningrad."""
        from pbem.games.ava import chits
        if self.scn.params.zhukov:
            return True
        return bool(self.options.get("zhukov_in_campaign")) and bool(chits.leningrad(self.scn))

    def zhukov_offer(self, state: State, uid: str, h: str) -> None:
        """An Axis unit entered ``h``: the Soviet may declare (18.1)."""
        from pbem.games.ava import chits
        if not self.zhukov_on or "zhukov" in state or self.side_of(uid) != AXIS:
            return
        if not chits.next_to_leningrad(self.scn, h):
            return
        if not any(f["k"] == "zhukov" for f in state.get("stack", [])):
            state["interject"] = "zhukov"      # asked at the next safe point (seq_options)

    # ----------------------------------------------------- Reserve / OKH (17.2)
    def start_reserve(self, state: State, cid: str, rng: Rng, events: list[Event]) -> None:
        """AVA 17.2 / FFS 16.2: a d6 on the scenario's table says how many of
        his units the owner activates directly (an HQ only itself)."""
        from pbem.games.ava import chits
        kind = self.scn.chits[cid].kind
        roll = rng.roll(6, f"{cid}: units activated, {SIDE_NAME[self.side_of_chit(cid)]} d6")
        n = chits.reserve_units(self.scn, roll)
        events.append(Event(f"{cid}: d6 {roll} -> {n} unit(s) may be activated (17.2)"))
        self.push(state, "reserve_pick", chit_kind=kind, n=n, chit=cid)

    def side_of_chit(self, cid: str) -> str:
        return self.scn.chits[cid].side

    def _ask_reserve_pick(self, state: State, top: dict[str, Any]) -> Decision:
        side = state["active"]
        b = self.board(state)
        pool = [u for u in b.on_map(side) if top["chit_kind"] != "okh" or b.spec(u).nationality == "ger"]
        opts = [f"pick {self.short(u)}" for u in pool if top["n"] > 0] + ["pass"]
        return Decision(self.seat_of(side), "pick", f"{top['chit']}: activate up to {top['n']} unit(s) (17.2): "
                        "pick UNIT ... or pass", tuple(opts),
                        hint=f"pick UNIT ...: up to {top['n']} of your units on the map")

    def _do_reserve_pick(self, state: State, top: dict[str, Any], d: Decision, order: dict[str, Any], rng: Rng,
                         events: list[Event]) -> None:
        from pbem.games.ava import activation, chits
        if order["verb"] not in ("pick", "pass"):
            raise IllegalOrder("answer pick UNIT ... (or pass)")
        uids = list(order.get("units") or [])
        b = self.board(state)
        chits.check_reserve_pick(b, top["chit_kind"], state["active"], uids, top["n"])
        self.pop(state, top)
        for u in uids:
            lim = chits.reserve_limits(self.scn, self.profile, top["chit_kind"],
                                       activation.in_command_range(b, u, exclude=u))
            self.activate(state, u)
            state["units"][u].update(reserve_out=not lim.strategic or lim.mp_half, reserve_attack=lim.attack)
        state["reserve_noezoc"] = sorted(u for u in uids if not chits.reserve_limits(
            self.scn, self.profile, top["chit_kind"], True).ezoc)
        events.append(Event(f"{top['chit']} activates {', '.join(self.name(u) for u in uids) or 'nobody'}"))
        if uids:
            self.push_segments(state)
        else:
            state["active"] = None
