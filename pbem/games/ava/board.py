"""A read-only picture of one state on the map: who stands where, zones of
control, control of cities and fortresses.

The state keeps units by id (``state["units"][uid]``)::

    {"hex": "1523" | None,   # None: in a box
     "box": None | "available" | "eliminated" | "withdrawn" | "track:7",
     "steps": 2,             # steps left (2 full, 1 reduced on a 2-step counter)
     "active": bool, "moved": bool, "attacked": bool,
     "retreated": bool}      # retreated earlier this Combat Segment (defends at 0)

and the map's changing parts as ``state["control"]`` (city hex -> side),
``state["fortress"]`` (hex -> steps) and ``state["stand_fast"]`` (hexes).
:class:`Board` indexes those once; mechanics modules take a Board rather
than walk the state themselves.
"""
from __future__ import annotations

from functools import cached_property
from typing import Any

from pbem.games.ava.model import AXIS, SIDES, SOVIET, Scenario, UnitSpec, enemy_of
from pbem.games.ava.profile import Profile

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

    def units_at(self, h: str) -> list[str]:
        return self.at.get(h, [])

    def side_at(self, h: str) -> str | None:
        here = self.at.get(h)
        return self.scn.units[here[0]].side if here else None

    def on_map(self, side: str) -> list[str]:
        return [uid for h in sorted(self.at) for uid in self.at[h] if self.scn.units[uid].side == side]

    def full(self, uid: str) -> bool:
        return bool(self.state["units"][uid]["steps"] >= self.scn.units[uid].steps)

    def attack(self, uid: str) -> int:
        s = self.spec(uid)
        return s.attack if self.full(uid) else s.attack_reduced

    def defense(self, uid: str) -> int:
        s = self.spec(uid)
        return s.defense if self.full(uid) else s.defense_reduced

    def move(self, uid: str) -> int:
        """Movement allowance in half MP."""
        s = self.spec(uid)
        return s.move if self.full(uid) else s.move_reduced

    # ------------------------------------------------------- zones of control
    @cached_property
    def _zoc(self) -> dict[str, frozenset[str]]:
        """side -> hexes in that side's ZOC.  Every unit, HQs included,
        projects one into the six hexes around it (AVA 3.2, 13.0), and so does
        a fortress marker (ruling A18), but not
        across a prohibited hexside or into a lake/all-sea hex."""
        out: dict[str, set[str]] = {s: set() for s in SIDES}
        sources = {h: self.scn.units[uids[0]].side for h, uids in self.at.items()}
        for h, steps in self.state.get("fortress", {}).items():
            # A18: a fortress is treated as a combat unit, so a lone one
            # projects a (Soviet) ZOC like any unit.
            if steps > 0:
                sources.setdefault(h, SOVIET)
        for h, side in sources.items():
            for n in self.map.neighbors(h):
                if not self.map.prohibited(h, n):
                    out[side].add(n)
        return {s: frozenset(v) for s, v in out.items()}

    def in_enemy_zoc(self, h: str, side: str) -> bool:
        """Whether ``side``'s unit in ``h`` would stand in an enemy ZOC.  A
        fortress of the side ignores enemy ZOC (AVA 14.2)."""
        if side == SOVIET and self.fortress(h):
            return False
        return h in self._zoc[enemy_of(side)]

    # ----------------------------------------------------- map's changing parts
    def control(self, h: str) -> str | None:
        found: str | None = self.state["control"].get(h)
        return found

    def fortress(self, h: str) -> int:
        return int(self.state.get("fortress", {}).get(h, 0))

    def enemy_occupied(self, h: str, side: str) -> bool:
        """An enemy unit in ``h``; a Soviet fortress counts as one for the Axis."""
        other = self.side_at(h)
        if other is not None:
            return other != side
        return side == AXIS and self.fortress(h) > 0
