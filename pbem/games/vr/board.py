"""A read-only index of one *Victory Roads* state on the map: who stands
where, what is next to the enemy, who controls what, where rivers are
bridged.

The state keeps units by id (``state["units"][uid]``)::

    {"hex": "5426" | None,     # None: in a box
     "box": None | "eliminated" | "removed" | "pool" | "stavka" | "corps_pile" | "capitulation" | "turn:N",
     "steps": 2,               # steps left (2 full, 1 reduced)
     "side": "german",         # the side it fights for now (Hungarians and Romanians may change, §14)
     "oos": False,             # Out of Supply marker (4.6.1: until its owner's next Supply phase)
     "mode": "reinforced" | "standard" | None,   # Soviet infantry corps (§10)
     "pontoon": "5119|5219" | None,               # an HQ on its Pontoon side: the bridged hexside (4.1.3)
     "exploit": False, "attacked": False, "retreated": False, "no_attack": False}

and the map's changing parts: ``state["control"]`` (hex -> side, every
play-area hex), ``state["soviet_ever"]`` (hexes the Soviets have ever held:
6.4.3, 6.5.2, §13), ``state["haltebefehl"]`` (hex -> "garrison" | "plain",
6.7.2), ``state["bridgeheads"]`` and ``state["bridge_engineers"]`` (hexes,
1.11.6, 6.6), ``state["allies"]`` (nationality -> side, 1.7).

There are **no zones of control** in Victory Roads (design notes): an
enemy unit only makes the empty hexes around it closed to command paths,
supply routes, strategic and rail movement (1.2.3, 4.1.1, 6.2.1, 6.4.3).
:meth:`Board.enemy_adjacent` and :meth:`Board.path_blocked` are that
effect; :meth:`Board.zoc` exists under its usual name for callers that
expect one and says the same thing.
"""
from __future__ import annotations

from functools import cached_property
from typing import Any

from pbem.board.hexgrid import side_key
from pbem.games.vr.model import GERMAN, SIDES, SOVIET, Scenario, UnitSpec, enemy_of
from pbem.games.vr.profile import Profile

State = dict[str, Any]


class Board:
    def __init__(self, scn: Scenario, profile: Profile, state: State) -> None:
        self.scn, self.profile, self.state = scn, profile, state
        self.map = scn.map
        self.at: dict[str, list[str]] = {}
        for uid, u in sorted(state["units"].items()):
            if u.get("hex"):
                self.at.setdefault(u["hex"], []).append(uid)

    # ------------------------------------------------------------- units
    def spec(self, uid: str) -> UnitSpec:
        return self.scn.units[uid]

    def unit(self, uid: str) -> dict[str, Any]:
        u: dict[str, Any] = self.state["units"][uid]
        return u

    def side_of(self, uid: str) -> str:
        """The side a unit fights for now (an ex-ally fights for the Soviets, 1.7.3)."""
        side: str = self.state["units"][uid].get("side") or self.scn.units[uid].home_side
        return side

    def units_at(self, h: str) -> list[str]:
        return self.at.get(h, [])

    def side_at(self, h: str) -> str | None:
        here = self.at.get(h)
        return self.side_of(here[0]) if here else None

    def on_map(self, side: str) -> list[str]:
        return [uid for h in sorted(self.at) for uid in self.at[h] if self.side_of(uid) == side]

    def full(self, uid: str) -> bool:
        return bool(self.state["units"][uid]["steps"] >= self.scn.units[uid].steps)

    def attack(self, uid: str) -> int:
        """Printed attack of the side showing (a Reinforced corps shows its
        front, 1.3.1: the mode is the flip)."""
        s = self.spec(uid)
        return s.attack if self.full(uid) else s.attack_reduced

    def defense(self, uid: str) -> int:
        s = self.spec(uid)
        return s.defense if self.full(uid) else s.defense_reduced

    def move(self, uid: str) -> int:
        """Movement allowance in half MP as printed (OOS halving is the
        movement module's, 4.6.2)."""
        s = self.spec(uid)
        return s.move if self.full(uid) else s.move_reduced

    # ---------------------------------------------- enemy adjacency (no ZOC)
    @cached_property
    def _adjacent(self) -> dict[str, frozenset[str]]:
        """side -> hexes next to at least one of that side's units."""
        out: dict[str, set[str]] = {s: set() for s in SIDES}
        for h, uids in self.at.items():
            for uid in uids:
                out[self.side_of(uid)].update(self.map.neighbors(h))
        return {s: frozenset(v) for s, v in out.items()}

    def enemy_occupied(self, h: str, side: str) -> bool:
        return any(self.side_of(u) != side for u in self.at.get(h, ()))

    def friendly_occupied(self, h: str, side: str) -> bool:
        return any(self.side_of(u) == side for u in self.at.get(h, ()))

    def enemy_adjacent(self, h: str, side: str) -> bool:
        """``h`` is next to a unit of ``side``'s enemy."""
        return h in self._adjacent[enemy_of(side)]

    def zoc(self, h: str, side: str) -> bool:
        """Victory Roads has no zones of control; this is the one effect an
        enemy unit has on the hexes around it (see :meth:`path_blocked`)."""
        return self.path_blocked(h, side)

    def path_blocked(self, h: str, side: str) -> bool:
        """A command path (1.2.3) or supply route (4.1.1) of ``side`` may
        not enter ``h``: an enemy unit is there, or one is next to it and
        no friendly unit holds it."""
        if self.enemy_occupied(h, side):
            return True
        return self.enemy_adjacent(h, side) and not self.friendly_occupied(h, side)

    # ----------------------------------------------------------- bridges
    @cached_property
    def _pontoons(self) -> frozenset[str]:
        out = set()
        for uid, u in self.state["units"].items():
            if u.get("hex") and u.get("pontoon") and u["hex"] in u["pontoon"].split("|"):
                out.add(u["pontoon"])                    # 4.1.3: a hexside of the HQ's own hex
        return frozenset(out)

    def bridged(self, a: str, b: str) -> bool:
        """A bridge on the hexside: drawn on the map, a Pontoon HQ's arrow
        (4.1.3), a Bridgeheads marker or Bridge Engineers on either hex
        (6.6: every hexside of the hex)."""
        if self.map.bridge(a, b) or side_key(a, b) in self._pontoons:
            return True
        for marks in (self.state.get("bridgeheads") or (), self.state.get("bridge_engineers") or ()):
            if a in marks or b in marks:
                return True
        return False

    def river(self, a: str, b: str, weather: str | None = None) -> str | None:
        """The river on a hexside as it counts now: a minor river is a major
        one in Mud (3.2.2)."""
        r = self.map.river(a, b)
        if r == "minor" and (weather or self.state.get("weather")) == "mud":
            return "major"
        return r

    # ------------------------------------------------------------ control
    def control(self, h: str) -> str | None:
        found: str | None = self.state["control"].get(h)
        return found

    def soviet_ever(self, h: str) -> bool:
        return h in (self.state.get("soviet_ever") or ())

    def haltebefehl(self, h: str) -> str | None:
        found: str | None = (self.state.get("haltebefehl") or {}).get(h)
        return found

    def ally_side(self, nationality: str) -> str:
        """The side a nationality fights for (Hungary and Romania start
        German, 1.7.1)."""
        if nationality == "sov":
            return SOVIET
        if nationality == "ger":
            return GERMAN
        side: str = (self.state.get("allies") or {}).get(nationality, GERMAN)
        return side
