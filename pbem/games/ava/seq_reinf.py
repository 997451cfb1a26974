"""The Reinforcements chit (AVA 12, 15.4, 17.3; FFS 12, 15.4) and the 19th
Army's entry (AVA 15.3, FFS 15.3(1)), as frames.

``reinf``: the owner names placements one by one (``place UNIT HEX``; the
whole set is checked against the count and stacking each time, and put on
the map at ``done``), then, from the scenario's turn, the Soviet Strategic
Reserve enters from a From Moscow source (``enter`` / ``senter UNIT HEX
...``).  ``army19``: every waiting 19th Army unit enters through the one
eastern-edge source the first entry chose; in FFS (notes #50) the group
then has a Combat Segment, in AVA (A24) it does not.

Rulings: 12.2: placements not made by ``done`` are lost; an entering
unit pays for its entry hex and moves on (movement.check_move entering, A25).
"""
from __future__ import annotations

from typing import Any

from pbem.game import Decision, Event, IllegalOrder, Rng, State
from pbem.games.ava.model import SIDE_NAME, SOVIET
from pbem.games.ava.seqbase import SeqBase

LIST_LIMIT = 200
ENTRY_MODES = {"enter": "normal", "senter": "strategic"}


class ReinfMixin(SeqBase):
    """Reinforcements, the Strategic Reserve and the 19th Army."""

    # ----------------------------------------------------- placements (12)
    def _rail(self, state: State, side: str) -> set[str]:
        from pbem.games.ava import supply
        return supply.rail_entry_hexes(self.board(state), side)

    def placement_options(self, state: State, top: dict[str, Any]) -> list[str]:
        from pbem.games.ava import reinforce
        b = self.board(state)
        side, turn = top["side"], state["turn"]
        placed = dict(top["placed"])
        rail = sorted(self._rail(state, side))
        out = []
        for u in reinforce.pool(b, side) + reinforce.extras(b, side, turn):
            if u in placed:
                continue
            for h in rail:
                try:
                    reinforce.check_placement(b, side, turn, {**placed, u: h}, rail)
                except IllegalOrder:
                    continue
                out.append(f"place {self.short(u)} {h}")
        return out

    def _auto_reinf(self, state: State, top: dict[str, Any], rng: Rng, events: list[Event]) -> bool:
        if top["stage"] == "start":
            top.update(stage="place", placed={}, entries={})
        if top["stage"] == "place" and not self.placement_options(state, top):
            self._finish_placements(state, top, events)
        if top["stage"] == "reserve" and not self._reserve_open(state, top):
            self.pop(state, top)
            state["active"] = None
            return True
        return False

    def _reserve_open(self, state: State, top: dict[str, Any]) -> bool:
        from pbem.games.ava import reinforce
        size = reinforce.strategic_reserve_size(self.scn, state["turn"]) if top["side"] == SOVIET else 0
        return size > len(top["entries"]) and bool(reinforce.pool(self.board(state), SOVIET))

    def _finish_placements(self, state: State, top: dict[str, Any], events: list[Event]) -> None:
        for u, h in sorted(top["placed"].items()):
            self.place(state, u, h)
            state["units"][u].pop("extra", None)
        if top["placed"]:
            events.append(Event(f"{SIDE_NAME[top['side']]} reinforcements placed: "
                                + ", ".join(f"{self.name(u)} {h}" for u, h in sorted(top["placed"].items()))))
        top["stage"] = "reserve"

    def _ask_reinf(self, state: State, top: dict[str, Any]) -> Decision:
        seat = self.seat_of(top["side"])
        if top["stage"] == "place":
            opts = self.placement_options(state, top)
            hint = ""
            if len(opts) > LIST_LIMIT:
                hint = "place UNIT HEX: a unit of the Available Box on a railroad hex linked to a source (12.1)"
                opts = opts[:LIST_LIMIT]
            return Decision(seat, "place", "Reinforcements: place units by rail (12.1); done ends "
                            "(the rest are lost, 12.2)", tuple(opts + ["done"]), hint=hint)
        opts = self._reserve_options(state, top)
        return Decision(seat, "reserve", "Strategic Reserve (15.4): enter UNIT HEX ... from a From Moscow source "
                        "(senter: strategic movement), or done", tuple(opts[:LIST_LIMIT] + ["done"]),
                        hint="the path starts on the From Moscow source hex; more hexes after it move the unit on")

    def _do_reinf(self, state: State, top: dict[str, Any], d: Decision, order: dict[str, Any], rng: Rng,
                  events: list[Event]) -> None:
        from pbem.games.ava import reinforce
        verb = order["verb"]
        b = self.board(state)
        if top["stage"] == "place":
            if verb == "done":
                self._finish_placements(state, top, events)
                return
            if verb != "place":
                raise IllegalOrder("answer place UNIT HEX or done")
            placed = {**top["placed"], order["unit"]: order["hex"]}
            reinforce.check_placement(b, top["side"], state["turn"], placed, self._rail(state, top["side"]))
            top["placed"] = placed
            return
        if verb == "done":
            self.pop(state, top)
            state["active"] = None
            return
        if verb not in ENTRY_MODES:
            raise IllegalOrder("answer enter UNIT HEX ..., senter UNIT HEX ... or done")
        uid, path = order["unit"], list(order["path"])
        entries = {**{u: tuple(e) for u, e in top["entries"].items()}, uid: (ENTRY_MODES[verb], path)}
        reinforce.check_strategic_reserve(b, state["turn"], {uid: (ENTRY_MODES[verb], path)},
                                          placed=list(top["entries"]))
        top["entries"] = {u: list(e) for u, e in entries.items()}
        self._enter(state, uid, path, events, "Strategic Reserve")

    def _reserve_options(self, state: State, top: dict[str, Any]) -> list[str]:
        """Every Strategic Reserve unit entering onto a From Moscow source
        and stopping there (the shortest legal orders; a longer path moves on)."""
        from pbem.games.ava import reinforce
        b = self.board(state)
        out = []
        for u in reinforce.pool(b, SOVIET):
            for h in sorted(reinforce.from_moscow(self.scn)):
                for verb, mode in ENTRY_MODES.items():
                    try:
                        reinforce.check_strategic_reserve(b, state["turn"], {u: (mode, [h])},
                                                          placed=list(top["entries"]))
                    except IllegalOrder:
                        continue
                    out.append(f"{verb} {self.short(u)} {h}")
        return out

    def _enter(self, state: State, uid: str, path: list[str], events: list[Event], what: str) -> None:
        self.place(state, uid, path[0])
        self.move_along(state, uid, path[1:])
        state["units"][uid]["moved"] = True
        events.append(Event(f"{what}: {self.name(uid)} enters {' '.join(path)}"))

    # ----------------------------------------------------- 19th Army (15.3)
    def _auto_army19(self, state: State, top: dict[str, Any], rng: Rng, events: list[Event]) -> bool:
        from pbem.games.ava import reinforce
        if top["stage"] == "start":
            top.update(stage="enter", source=None, entered=[])
        waiting = reinforce.army19_group(self.board(state))
        if waiting and self._army19_can_enter(state, top, waiting):
            return False
        self.pop(state, top)
        if self.profile.army19_combat and top["entered"]:
            for u in top["entered"]:
                self.activate(state, u)
                state["units"][u]["moved"] = True
            self.push(state, "combat", surprise=False, stage="declare", declared=[])
        else:
            state["active"] = None
        return True

    def _army19_sources(self, top: dict[str, Any]) -> list[str]:
        from pbem.games.ava import reinforce
        return [top["source"]] if top["source"] else sorted(reinforce.army19_sources(self.scn))

    def _army19_can_enter(self, state: State, top: dict[str, Any], waiting: list[str]) -> bool:
        return bool(self._army19_options(state, top, waiting[:1]))

    def _army19_options(self, state: State, top: dict[str, Any], units: list[str]) -> list[str]:
        from pbem.games.ava import reinforce
        b = self.board(state)
        out = []
        for u in units:
            for h in self._army19_sources(top):
                for verb, mode in ENTRY_MODES.items():
                    try:
                        reinforce.check_entry(b, u, [h], mode, self._army19_sources(top))
                    except IllegalOrder:
                        continue
                    out.append(f"{verb} {self.short(u)} {h}")
        return out

    def _ask_army19(self, state: State, top: dict[str, Any]) -> Decision:
        from pbem.games.ava import reinforce
        waiting = reinforce.army19_group(self.board(state))
        src = f" through {top['source']}" if top["source"] else " through one eastern-edge Soviet source"
        # asked only while a unit can enter, so "done" (refused then) is not offered
        return Decision(self.seat_of(SOVIET), "army19", f"19th Army (15.3): every unit enters{src}: enter UNIT HEX "
                        "... (senter: strategic)", tuple(self._army19_options(state, top, waiting)),
                        hint="the path starts on the source hex; more hexes after it move the unit on")

    def _do_army19(self, state: State, top: dict[str, Any], d: Decision, order: dict[str, Any], rng: Rng,
                   events: list[Event]) -> None:
        from pbem.games.ava import reinforce
        b = self.board(state)
        waiting = reinforce.army19_group(b)
        verb = order["verb"]
        if verb == "done":
            if self._army19_can_enter(state, top, waiting):
                raise IllegalOrder("the whole 19th Army enters together (15.3): "
                                   + ", ".join(self.short(u) for u in waiting) + " still to enter")
            return
        if verb not in ENTRY_MODES:
            raise IllegalOrder("answer enter UNIT HEX ... or senter UNIT HEX ...")
        uid, path = order["unit"], list(order["path"])
        if uid not in waiting:
            raise IllegalOrder(f"{self.name(uid)} is not a 19th Army unit waiting to enter")
        reinforce.check_entry(b, uid, path, ENTRY_MODES[verb], self._army19_sources(top))
        top["source"] = path[0]
        top["entered"].append(uid)
        self._enter(state, uid, path, events, "19th Army")
