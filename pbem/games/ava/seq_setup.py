"""The set-up (AVA 4.0(2), decision D1 of the notes; FFS 4.0(2), 4.2): the
units a scenario starts in a deployment zone (``start = "zone:NAME"``) are
placed by their owner, the Soviet first, then the Axis, who sees the Soviet
set-up (an open, sequential exchange: nothing here is secret).

Until placed such a unit is in the box ``zone:NAME``.  The ``setup`` frame
takes ``place UNIT HEX`` (again to move a unit already placed) and ``done``,
which checks the zone rules and hands over to the next side.

The kind of a zone is read from its name in ``[map.deployment]``:

* ``..._area``: a Deployment Area (AVA 4.0(2)(a)) / FFS SET UP AREA; with
  ``profile.deployment_area_filled`` (AVA) every hex of it holds a unit of
  the side when the side is done; FFS has no fill rule;
* ``..._hex`` (or any zone of one hex): a Deployment Hex (AVA 4.0(2)(c)),
  an HQ symbol hex, or the printed FFS SET UP HEX (ruling #8): at least one
  unit stands on it when the side is done;
* anything else (``..._range``): a Deployment Range (AVA 4.0(2)(b), the
  hexes within N of the printed hex, transcribed hex by hex) / the zone
  around an FFS SET UP HEX: no fill rule; where a zone ``NAME_hex`` goes
  with ``NAME_range``, that hex holds a unit (FFS #8).

Everywhere at most two units a hex, HQs included (3.1).  An HQ flagged
``with_combat_unit`` (AVA 4.0(2): 2PzG) has a combat unit in its hex.
"""
from __future__ import annotations

from typing import Any

from pbem.game import Decision, Event, IllegalOrder, Rng, State
from pbem.games.ava.model import AXIS, SIDE_NAME, SOVIET
from pbem.games.ava.movement import STACK_LIMIT
from pbem.games.ava.seqbase import SeqBase

ZONE = "zone:"
LIST_LIMIT = 200
SETUP_ORDER = (SOVIET, AXIS)        # 4.0(2): the Soviet sets up first
WITH_UNIT = "with_combat_unit"      # unit flag: an HQ that sets up with one combat unit (AVA 4.0(2), 2PzG)


def zone_kind(name: str, hexes: frozenset[str]) -> str:
    """"area", "hex" or "range" (module docstring)."""
    if name.endswith("_area"):
        return "area"
    if name.endswith("_hex") or len(hexes) == 1:
        return "hex"
    return "range"


def zone_of(spec_start: str) -> str | None:
    return spec_start[len(ZONE):] if spec_start.startswith(ZONE) else None


class SetupMixin(SeqBase):
    """The ``setup`` frame: each side places its zoned units."""

    def zoned(self, side: str) -> list[str]:
        return sorted(u for u, s in self.scn.units.items() if s.side == side and zone_of(s.start))

    def unplaced(self, state: State, side: str) -> list[str]:
        return [u for u in self.zoned(side) if not state["units"][u]["hex"]]

    def _auto_setup(self, state: State, top: dict[str, Any], rng: Rng, events: list[Event]) -> bool:
        if self.zoned(top["side"]):
            return False
        self._next_setup_side(state, top)
        return True

    def _next_setup_side(self, state: State, top: dict[str, Any]) -> None:
        i = SETUP_ORDER.index(top["side"])
        if i + 1 < len(SETUP_ORDER):
            top["side"] = SETUP_ORDER[i + 1]
            return
        self.pop(state, top)
        state["phase"] = "surprise" if self.scn.params.surprise_attack else "selection"

    def place_refusal(self, state: State, uid: str, h: str) -> str | None:
        """Why ``uid`` may not be set up in ``h`` now, or None."""
        spec = self.scn.units[uid]
        zone = zone_of(spec.start)
        if zone is None:
            return f"{self.name(uid)} sets up where the scenario puts it, not by choice"
        hexes = self.scn.map.deployment.get(zone, frozenset())
        if h not in hexes:
            return f"{self.name(uid)} sets up in zone {zone} ({len(hexes)} hexes), not in {h} (4.0(2))"
        here = [u for u, x in state["units"].items() if x["hex"] == h and u != uid]
        if any(self.scn.units[u].side != spec.side for u in here):
            return f"{h} holds enemy units"
        if len(here) + 1 > STACK_LIMIT:
            return f"{h} already holds {len(here)} units (at most {STACK_LIMIT}, 4.0(2))"
        return None

    def setup_options(self, state: State, side: str) -> list[str]:
        out = []
        for uid in self.unplaced(state, side):
            zone = zone_of(self.scn.units[uid].start) or ""
            for h in sorted(self.scn.map.deployment.get(zone, ())):
                if self.place_refusal(state, uid, h) is None:
                    out.append(f"place {self.short(uid)} {h}")
        return out

    def setup_refusal(self, state: State, side: str) -> str | None:
        """Why the side's set-up is not finished (the zone rules), or None."""
        left = self.unplaced(state, side)
        if left:
            return f"{len(left)} unit(s) still to set up, e.g. {self.short(left[0])} in zone " \
                   f"{zone_of(self.scn.units[left[0]].start)}"
        occupied = {x["hex"] for u, x in state["units"].items() if x["hex"] and self.scn.units[u].side == side}
        zones = sorted({zone_of(self.scn.units[u].start) or "" for u in self.zoned(side)})
        # FFS #8: a zone around a printed SET UP HEX (NAME_range) has that hex as NAME_hex
        zones = sorted(set(zones) | {f"{z.rsplit('_', 1)[0]}_hex" for z in zones
                                     if f"{z.rsplit('_', 1)[0]}_hex" in self.scn.map.deployment})
        for z in zones:
            hexes = self.scn.map.deployment.get(z, frozenset())
            kind = zone_kind(z, hexes)
            empty = sorted(hexes - occupied)
            if kind == "area" and self.profile.deployment_area_filled and empty:
                return f"Deployment Area {z}: every hex holds a unit, {', '.join(empty[:4])} empty (4.0(2)(a))"
            if kind == "hex" and not hexes & occupied:
                return f"Deployment Hex {z} ({', '.join(sorted(hexes))}) holds no unit (4.0(2)(c))"
        for uid in self.zoned(side):
            if WITH_UNIT in self.scn.units[uid].flags:
                h = state["units"][uid]["hex"]
                if not any(x["hex"] == h and not self.scn.units[u].is_hq for u, x in state["units"].items()):
                    return f"{self.name(uid)} sets up with one combat unit in its hex {h} (4.0(2))"
        return None

    def _ask_setup(self, state: State, top: dict[str, Any]) -> Decision:
        side = top["side"]
        opts = self.setup_options(state, side)
        hint = ""
        if len(opts) > LIST_LIMIT:
            hint = "place UNIT HEX: a unit still to set up, on a hex of its zone (4.0(2))"
            opts = opts[:LIST_LIMIT]
        left = len(self.unplaced(state, side))
        return Decision(self.seat_of(side), "setup",
                        f"{SIDE_NAME[side]} set-up (4.0(2)): {left} unit(s) to place in their zones, at most two a "
                        "hex; place UNIT HEX (again to move one), then done", tuple(opts + ["done"]), hint=hint)

    def _do_setup(self, state: State, top: dict[str, Any], d: Decision, order: dict[str, Any], rng: Rng,
                  events: list[Event]) -> None:
        side, verb = top["side"], order["verb"]
        if verb == "done":
            why = self.setup_refusal(state, side)
            if why:
                raise IllegalOrder(why)
            placed = [f"{self.short(u)} {state['units'][u]['hex']}" for u in self.zoned(side)]
            events.append(Event(f"{SIDE_NAME[side]} set-up: {', '.join(placed)}"))
            self._next_setup_side(state, top)
            return
        if verb != "place":
            raise IllegalOrder("answer place UNIT HEX or done (4.0(2))")
        uid, h = order["unit"], order["hex"]
        if self.scn.units[uid].side != side:
            raise IllegalOrder(f"{self.name(uid)} is not a {SIDE_NAME[side]} unit")
        why = self.place_refusal(state, uid, h)
        if why:
            raise IllegalOrder(why)
        state["units"][uid].update(hex=h, box=None)
