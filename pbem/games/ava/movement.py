"""Movement (AVA 9, TEC; FFS 9): normal and strategic movement of one unit.

Costs are in half MP (2 = 1 MP), as everywhere in the family's state.  The
rules of a single step live in :func:`step_reason`; the kernel
(:mod:`pbem.board.movement`) turns them into the reach of a unit and the
cost of a path.  Two kinds of step end the move whatever MP remain and may
only be the move's first step: an unbridged major-river crossing and a
mountain division's entry into a mountain hex off the road; both cost the
whole allowance.

The unit's current hex is the start of its move: a move is one order and
the board is rebuilt after it, so a unit never resumes a move half done.
A unit coming onto the map (19th Army, Strategic Reserve) starts off it
and pays for its entry hex first (``entering`` / ``entry``).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pbem.board import movement as kernel
from pbem.game import IllegalOrder
from pbem.games.ava.board import Board
from pbem.games.ava.model import SIDE_NAME, SOVIET, enemy_of
from pbem.games.ava.profile import Profile

NORMAL, STRATEGIC = "normal", "strategic"
MODES = (NORMAL, STRATEGIC)
ROAD = 2            # 9.2: 1 MP a hex along a road, whatever the terrain
STRATEGIC_ROAD = 1  # 9.3: 1/2 MP a road hex
MINOR_RIVER = 2     # 9.2: +1 MP across an unbridged minor river
ZOC = 4             # 9.2: +2 MP to enter an enemy ZOC hex, +2 MP more to leave one
STACK_LIMIT = 2     # 3.1: two units a hex, HQs included; fortress markers do not count


def mp(half: int) -> str:
    """Half MP as players say them: 7 -> "3 1/2"."""
    whole, rest = divmod(half, 2)
    if not rest:
        return str(whole)
    return f"{whole} 1/2" if whole else "1/2"


def reserve_out_halves_mp(profile: Profile) -> bool:
    """A Reserve-activated unit outside every HQ's range moves at half MP
    in FFS (16.2, rounded down to whole MP); AVA 17.2 keeps its MP."""
    return profile.reserve_outside_range == "half_mp_no_attack"


def reserve_out_may_go_strategic(profile: Profile) -> bool:
    """Such a unit may use strategic movement in FFS (16.2 restricts only
    the MP, notes #59), not in AVA (17.2: normal movement only)."""
    return profile.reserve_outside_range != "normal_half_attack"


def allowance(b: Board, uid: str, *, reserve_out_of_range: bool = False) -> int:
    """The unit's MP for the segment in half MP (Reserve units outside every
    HQ's range: :func:`reserve_out_halves_mp`)."""
    full = b.move(uid)
    if reserve_out_of_range and reserve_out_halves_mp(b.profile):
        return (full // 2 // 2) * 2
    return full


def _blocked_side(b: Board, uid: str, a: str, c: str) -> str | None:
    """Why no unit of ``uid``'s side may step from ``a`` into ``c`` at all."""
    m = b.map
    if not m.on_map(c):
        return f"{c} is off the map"
    if m.terrain_of(c) == "lake":
        return f"{c} is a lake"
    if m.has(a, c, "prohibited") or m.has(a, c, "border"):
        return f"{a}-{c} is a prohibited hexside"
    side = b.spec(uid).side
    if side == SOVIET and b.profile.soviet_start_line and m.has(a, c, "start_line"):
        return f"{a}-{c} crosses the red start line, closed to Soviet units (AVA 9.1)"
    if b.enemy_occupied(c, side):
        return f"{c} holds {SIDE_NAME[enemy_of(side)]} units"
    return None


def _terrain_cost(b: Board, uid: str, c: str) -> int | None:
    """The TEC cost of entering ``c`` off the road; a town takes its other
    terrain, a major city its own row; HQs pay the foot rate (2.2)."""
    name = "major_city" if b.map.city_of(c) == "major_city" else b.map.terrain_of(c)
    t = b.scn.terrain[name]
    return t.mp_mech if b.spec(uid).mech else t.mp_foot


@dataclass(frozen=True)
class Mover:
    """One unit's move: who, from where, how, with how many MP.  ``start``
    is "" for a unit that entered from off the map (no whole-move step
    after that); ``no_ezoc``: AVA 18.1's Leningrad Reserve units neither
    enter nor leave enemy ZOC."""

    b: Board
    uid: str
    start: str
    mode: str
    allowance: int
    no_ezoc: bool = False

    @property
    def side(self) -> str:
        return self.b.spec(self.uid).side

    def ezoc(self, h: str) -> bool:
        return self.b.in_enemy_zoc(h, self.side)

    def whole_move(self, a: str, c: str) -> bool:
        """A step that costs every MP and ends the move (TEC "All MP")."""
        m = self.b.map
        if m.river(a, c) == "major" and not m.bridged(a, c):
            return True
        return m.terrain_of(c) == "mountain" and not m.road(a, c)

    def step(self, a: str, c: str) -> tuple[int | None, str]:
        """The half-MP cost of stepping from ``a`` into ``c`` and how it is
        made up; None with the reason when the step is not allowed."""
        why = _blocked_side(self.b, self.uid, a, c)
        if why:
            return None, why
        if self.no_ezoc and (self.ezoc(a) or self.ezoc(c)):
            return None, f"{a}-{c}: a Reserve unit neither enters nor leaves enemy ZOC (18.1)"
        if self.mode == STRATEGIC:
            return self._strategic(a, c)
        return self._normal(a, c)

    def entry(self, h: str) -> tuple[int | None, str]:
        """Entering ``h`` from off the map (15.3, 15.4; notes A25, FFS #23):
        its terrain as if from a road when it is a road hex, else off-road."""
        b, m = self.b, self.b.map
        if not m.on_map(h) or m.terrain_of(h) == "lake":
            return None, f"{h} is no hex to enter the map by"
        if b.enemy_occupied(h, self.side):
            return None, f"{h} holds {SIDE_NAME[enemy_of(self.side)]} units"
        zc = self.ezoc(h)
        if self.mode == STRATEGIC:
            if not m.on_road(h) or zc:
                return None, f"strategic entry needs a road hex out of enemy ZOC ({h}, 9.3)"
            return STRATEGIC_ROAD, f"{mp(STRATEGIC_ROAD)} road"
        if m.on_road(h):
            cost: int | None = ROAD
        elif m.terrain_of(h) == "mountain":
            cost = None
        else:
            cost = _terrain_cost(b, self.uid, h)
        if cost is None:
            return None, f"{h}: no entry ({m.terrain_of(h)})"
        if self.no_ezoc and zc:
            return None, f"{h}: a Reserve unit never enters enemy ZOC (18.1)"
        return (cost + ZOC, f"{mp(cost)} + {mp(ZOC)} entering enemy ZOC") if zc else (cost, mp(cost))

    def _strategic(self, a: str, c: str) -> tuple[int | None, str]:
        # 9.3: road hexsides only (a railroad is no road), never in or into enemy ZOC.
        if not self.b.map.road(a, c):
            return None, f"{a}-{c} leaves the road (strategic movement, 9.3)"
        for h in (a, c):
            if self.ezoc(h):
                return None, f"{h} is in enemy ZOC (strategic movement, 9.3)"
        return STRATEGIC_ROAD, f"{mp(STRATEGIC_ROAD)} road"

    def _normal(self, a: str, c: str) -> tuple[int | None, str]:
        m = self.b.map
        za, zc = self.ezoc(a), self.ezoc(c)
        if m.river(a, c) == "major":
            why = self._major_river_ezoc(a, c, za, zc)
            if why:
                return None, why
        if m.terrain_of(c) == "mountain" and not m.road(a, c) and self.b.spec(self.uid).type != "mountain":
            return None, f"{c} is a mountain hex, entered only along a road (9.2)"
        if self.whole_move(a, c):
            return self._whole(a, c, za, zc)
        return self._priced(a, c, za, zc)

    def _major_river_ezoc(self, a: str, c: str, za: bool, zc: bool) -> str | None:
        p = self.b.profile
        if self.b.map.bridged(a, c) and p.bridge_lifts_major_river_ezoc:
            return None
        barred = (za or zc) if p.major_river_ezoc == "either" else (za and zc)
        if barred:
            where = "either hex" if p.major_river_ezoc == "either" else "both hexes"
            return f"{a}-{c}: no major-river crossing with {where} in enemy ZOC (9.2)"
        return None

    def _whole(self, a: str, c: str, za: bool, zc: bool) -> tuple[int | None, str]:
        what = "unbridged major river" if self.b.map.river(a, c) == "major" else "mountain hex"
        if a != self.start:
            return None, f"{a}-{c}: crossing into the {what} must be the whole move, from the start hex (9.2)"
        if what == "mountain hex" and (za or zc):
            return None, f"{a}-{c}: a mountain division may not enter a mountain hex to or from enemy ZOC (9.2)"
        return self.allowance, f"all MP ({what})"

    def _priced(self, a: str, c: str, za: bool, zc: bool) -> tuple[int | None, str]:
        m = self.b.map
        if m.road(a, c):
            cost, parts = ROAD, [f"{mp(ROAD)} road"]
        else:
            base = _terrain_cost(self.b, self.uid, c)
            if base is None:
                return None, f"{c}: no entry ({m.terrain_of(c)})"
            cost, parts = base, [f"{mp(base)} {m.terrain_of(c).replace('_', ' ')}"]
            if m.river(a, c) == "minor" and not (m.rail(a, c) and self.b.profile.rail_bridge_lifts_minor_river):
                cost += MINOR_RIVER
                parts.append(f"{mp(MINOR_RIVER)} minor river")
        if za:
            cost += ZOC
            parts.append(f"{mp(ZOC)} leaving enemy ZOC")
        if zc:
            cost += ZOC
            parts.append(f"{mp(ZOC)} entering enemy ZOC")
        return cost, " + ".join(parts)


def mover(b: Board, uid: str, mode: str = NORMAL, *, allowance_half: int | None = None,
          reserve_out_of_range: bool = False, no_ezoc: bool = False, entering: bool = False) -> Mover:
    """The :class:`Mover` of ``uid``; IllegalOrder if it is not where the
    move needs it (on the map, or off it when ``entering``) or the mode is
    not open to it.  Options: ``allowance_half`` overrides the MP;
    ``reserve_out_of_range`` (17.2 / FFS 16.2); ``no_ezoc`` (AVA 18.1)."""
    name = b.spec(uid).name
    at = b.unit(uid).get("hex")
    if entering and at:
        raise IllegalOrder(f"{name} is already on the map, in {at}")
    if not entering and not at:
        raise IllegalOrder(f"{name} is not on the map")
    if mode not in MODES:
        raise IllegalOrder(f"{name}: unknown movement mode {mode!r} (normal or strategic)")
    if mode == STRATEGIC and reserve_out_of_range and not reserve_out_may_go_strategic(b.profile):
        raise IllegalOrder(f"{name}: a Reserve unit outside every HQ's range moves normally only (17.2)")
    limit = allowance(b, uid, reserve_out_of_range=reserve_out_of_range) if allowance_half is None else allowance_half
    return Mover(b, uid, at or "", mode, limit, no_ezoc)


def step_cost(b: Board, uid: str, a: str, c: str, mode: str = NORMAL) -> int | None:
    """Half MP for ``uid`` to step from ``a`` into ``c`` in a move begun in
    its current hex; None when the step is not allowed."""
    return mover(b, uid, mode).step(a, c)[0]


def stacking_refusal(b: Board, uid: str, h: str) -> str | None:
    """Why ``uid`` may not end in ``h`` (3.1), or None."""
    others = [u for u in b.units_at(h) if u != uid]
    if len(others) + 1 > STACK_LIMIT:
        return f"it already holds {len(others)} units (limit {STACK_LIMIT})"
    return None


def overstacked(b: Board, side: str) -> list[str]:
    """Hexes holding more of ``side``'s units than the limit (FFS 3.1.3:
    checked when the Movement Segment ends)."""
    return sorted(h for h in b.at if b.side_at(h) == side and len(b.units_at(h)) > STACK_LIMIT)


def _kernel(mv: Mover) -> tuple[kernel.StepCost, kernel.MustStop]:
    def cost(a: str, c: str) -> int | None:
        return mv.step(a, c)[0]

    def stop(a: str, c: str) -> bool:
        return mv.mode == NORMAL and mv.whole_move(a, c)

    return cost, stop


def _search(mv: Mover, entry: str | None, may_end: Callable[[str], bool] | None = None) -> tuple[kernel.Reach, int]:
    """The kernel's search from the unit's hex, or from ``entry`` after
    paying to enter it; the second value is what entering cost."""
    first = 0
    if entry is not None:
        paid = mv.entry(entry)[0]
        if paid is None or paid > mv.allowance:
            return kernel.Reach({}, {}), 0
        first = paid
    cost, stop = _kernel(mv)
    return kernel.reachable(entry or mv.start, mv.allowance - first, mv.b.map.neighbors, cost, stop, may_end), first


def reach(b: Board, uid: str, mode: str = NORMAL, *, entry: str | None = None, allowance_half: int | None = None,
          reserve_out_of_range: bool = False, no_ezoc: bool = False) -> dict[str, int]:
    """Hexes where ``uid``'s move may end (its start included) -> the
    fewest half MP to get there.  ``entry``: the unit is off the map and
    comes in by that hex (19th Army, Strategic Reserve)."""
    mv = mover(b, uid, mode, allowance_half=allowance_half, reserve_out_of_range=reserve_out_of_range,
               no_ezoc=no_ezoc, entering=entry is not None)
    per_move = b.profile.stacking_checked_at == "move"

    def may_end(h: str) -> bool:
        return h == mv.start or not per_move or stacking_refusal(b, uid, h) is None

    found, first = _search(mv, entry, may_end)
    return {h: found.cost[h] + first for h in sorted(found.endable)}


def reach_paths(b: Board, uid: str, mode: str = NORMAL, *, entry: str | None = None,
                allowance_half: int | None = None, reserve_out_of_range: bool = False,
                no_ezoc: bool = False) -> kernel.Reach:
    """The kernel's :class:`Reach` (with ``path_to``) for the search behind
    :func:`reach`, stacking left aside; with ``entry`` its costs leave out
    the price of entering that hex."""
    mv = mover(b, uid, mode, allowance_half=allowance_half, reserve_out_of_range=reserve_out_of_range,
               no_ezoc=no_ezoc, entering=entry is not None)
    return _search(mv, entry)[0]


def check_move(b: Board, uid: str, path: list[str], mode: str = NORMAL, *, entering: bool = False,
               allowance_half: int | None = None, reserve_out_of_range: bool = False,
               no_ezoc: bool = False) -> int:
    """Half MP ``uid`` spends moving along ``path`` (its hex first, or with
    ``entering`` the hex it comes onto the map by); IllegalOrder with one
    line naming the first broken rule."""
    mv = mover(b, uid, mode, allowance_half=allowance_half, reserve_out_of_range=reserve_out_of_range,
               no_ezoc=no_ezoc, entering=entering)
    name = b.spec(uid).name
    if not path or (not entering and path[0] != mv.start):
        raise IllegalOrder(f"{name}: a move starts in its hex {mv.start}")
    total = 0
    if entering:
        paid, why = mv.entry(path[0])
        if paid is None or paid > mv.allowance:
            raise IllegalOrder(f"{name}: {why}" if paid is None else f"{name}: entering {path[0]} costs {mp(paid)} MP")
        total = paid
    for i, (a, c) in enumerate(zip(path, path[1:])):
        if i and mode == NORMAL and mv.whole_move(path[i - 1], a):
            raise IllegalOrder(f"{name}: the move ended in {a} (all MP spent crossing into it)")
        if c not in b.map.grid.neighbors(a):
            raise IllegalOrder(f"{name}: {c} is not adjacent to {a}")
        cost, why = mv.step(a, c)
        if cost is None:
            raise IllegalOrder(f"{name}: {why}")
        if total + cost > mv.allowance:
            raise IllegalOrder(f"{name}: {c} costs {mp(cost)} MP ({why}), {mp(mv.allowance - total)} left")
        total += cost
    end = path[-1]
    if end != mv.start and b.profile.stacking_checked_at == "move":
        refusal = stacking_refusal(b, uid, end)
        if refusal:
            raise IllegalOrder(f"{name}: may not end in {end}: {refusal}")
    return total
