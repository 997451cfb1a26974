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
        return Decision(self.seat_of(side), "move", f"{SIDE_NAME[side]} Movement Segment: units to move: {names}",
                        ("move UNIT HEX ...", "strat UNIT HEX ...", "end-move"),
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
        spent = movement.check_move(b, uid, path, MODES[verb], reserve_out_of_range=bool(u.get("reserve_out")))
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
        try:
            if path[0] in movement.reach(b, uid, mode):
                return dict(order, path=movement.reach_paths(b, uid, mode).path_to(path[0]))
        except IllegalOrder:
            return order
        raise IllegalOrder(f"{self.name(uid)} cannot reach {path[0]} (ask `reach {self.short(uid)}`)")

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
        city = chits.leningrad(self.scn)
        if h in city or not any(n in city for n in self.scn.map.neighbors(h)):
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
        opts = [f"pick {self.short(u)}" for u in pool]
        return Decision(self.seat_of(side), "pick", f"{top['chit']}: activate up to {top['n']} unit(s) (17.2): "
                        "pick UNIT ...", tuple(opts), hint=f"pick UNIT ...: up to {top['n']} of your units on the map")

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
        events.append(Event(f"{top['chit']} activates {', '.join(self.name(u) for u in uids) or 'nobody'}"))
        if uids:
            self.push_segments(state)
        else:
            state["active"] = None
