"""Soviet fortress construction and Stand Fast removal at the Supply Check
(AVA 11.3, 14.1, 14.3, 16.2).  FFS builds nothing (14.1) and has no Stand
Fast markers: its scenario sets no construction and no markers.

State: ``state["fortress"]`` hex -> steps (1 or 2); ``state["stand_fast"]``
the hexes still carrying a Stand Fast marker; ``state["fortress_placed"]``
markers put on the map by construction so far, and
``state["fortress_placed_maps"]`` the same by map (the countermix limit,
14.3: a marker once lost never returns, so markers ever used = those at the
start + those placed).  The scenario's ``fortress_markers`` is one count
for the whole scenario, or a table map prefix -> count: 14.3 ties the
markers to their map.

LOC is :mod:`supply`'s: the callers pass ``supply.loc(b, "soviet")`` (the hexes a
Soviet LOC reaches).  Hex ids of a campaign carry their map as a prefix
("S:4112"); "one per map" (16.2) reads it.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from pbem.board import multimap
from pbem.game import IllegalOrder
from pbem.games.ava.board import Board
from pbem.games.ava.model import AXIS, SOVIET, Scenario

State = dict[str, Any]


# ------------------------------------------------------------ construction (14.1)
def building(scn: Scenario, turn: int) -> int:
    """Fortress steps the Soviet may build at this turn's Supply Check
    (campaign 2, Leningrad/Kiev 1, Smolensk and FFS none)."""
    p = scn.params
    return p.fortress_steps_per_check if p.fortress_build_from_turn and turn >= p.fortress_build_from_turn else 0


def _limit(scn: Scenario, h: str) -> int | None:
    """The marker count that binds a new marker in ``h``: the scenario's, or
    its map's when the scenario counts by map; None for no count."""
    markers = scn.params.fortress_markers
    if isinstance(markers, Mapping):
        n = markers.get(map_of(h))
        return None if n is None else int(n)
    return markers or None   # a plain 0: no count (notes A18)


def _same_pool(scn: Scenario, h: str, other: str) -> bool:
    """Whether a marker in ``other`` comes from the same countermix as one in ``h``."""
    return not isinstance(scn.params.fortress_markers, Mapping) or map_of(other) == map_of(h)


def markers_left(b: Board, h: str = "") -> int | None:
    """Markers of the countermix not yet used (14.3) for a fortress in
    ``h`` (its map's, when the scenario counts by map), None when the
    scenario gives no count (then only the hex limit binds, notes A18)."""
    total = _limit(b.scn, h)
    if total is None:
        return None
    at_start = sum(1 for f in b.scn.map.fortress if _same_pool(b.scn, h, f))
    if isinstance(b.scn.params.fortress_markers, Mapping):
        placed = int(b.state.get("fortress_placed_maps", {}).get(map_of(h), 0))
    else:
        placed = int(b.state.get("fortress_placed", 0))
    return max(0, total - at_start - placed)


def site_refusal(b: Board, h: str, loc_hexes: Collection[str], forts: dict[str, int] | None = None,
                 placed: int = 0) -> str | None:
    """Why one more fortress step may not go in ``h`` now, or None.  A
    Soviet-controlled major city (14.1(1); notes A18: not "any hex" of
    11.3) with an LOC, no Axis unit in or next to it (14.1(2)), below two
    steps (14.1(6)); a new marker only while fewer hexes than the
    scenario's maximum hold one (Brest's included) and a marker remains
    (``placed``: markers this construction has already put in ``h``'s
    countermix)."""
    forts = dict(b.state.get("fortress", {})) if forts is None else forts
    p = b.scn.params
    if b.map.city_of(h) != "major_city":
        return f"{h} is not a major city (14.1)"
    if b.control(h) != SOVIET or b.side_at(h) == AXIS:
        return f"{h} is not under Soviet control (14.1)"
    if h not in loc_hexes:
        return f"{h} traces no line of communications (14.1)"
    if any(b.side_at(n) == AXIS for n in b.map.neighbors(h)):
        return f"{h} is next to an Axis unit (14.1)"
    steps = int(forts.get(h, 0))
    if steps >= p.fortress_max_steps:
        return f"{h} already holds {steps} fortress steps, the most a hex may (14.1)"
    if steps == 0:
        held = sum(1 for v in forts.values() if v > 0)
        if held >= p.fortress_max_hexes:
            return f"{held} hexes already hold a fortress, the most this scenario allows"
        left = markers_left(b, h)
        if left is not None and left - placed <= 0:
            return "no fortress marker is left in the countermix (14.3)"
    return None


def build_sites(b: Board, turn: int, loc_hexes: Collection[str]) -> list[str]:
    """Hexes where a step may be built at this Supply Check."""
    if not building(b.scn, turn):
        return []
    return sorted(h for h, kind in b.map.cities.items()
                  if kind == "major_city" and site_refusal(b, h, loc_hexes) is None)


def check_build(b: Board, turn: int, steps: Sequence[str], loc_hexes: Collection[str]) -> dict[str, int]:
    """The Soviet's construction: one hex per step, in order (a hex named
    twice gets a +1 marker then flips it).  Returns the fortresses after."""
    n = building(b.scn, turn)
    if len(steps) > n:
        raise IllegalOrder(f"{n} fortress step(s) may be built at this Supply Check, not {len(steps)}")
    forts = {h: int(v) for h, v in b.state.get("fortress", {}).items()}
    new: list[str] = []
    for h in steps:
        why = site_refusal(b, h, loc_hexes, forts, sum(1 for x in new if _same_pool(b.scn, h, x)))
        if why:
            raise IllegalOrder(why)
        if not forts.get(h):
            new.append(h)
        forts[h] = forts.get(h, 0) + 1
    return forts


def build(state: State, before: dict[str, int], after: dict[str, int]) -> None:
    """Write a checked construction (``after`` from :func:`check_build`)."""
    new = [h for h, v in after.items() if v and not before.get(h)]
    state["fortress_placed"] = int(state.get("fortress_placed", 0)) + len(new)
    by_map = dict(state.get("fortress_placed_maps", {}))
    for h in new:
        by_map[map_of(h)] = int(by_map.get(map_of(h), 0)) + 1
    state["fortress_placed_maps"] = by_map
    state["fortress"] = dict(after)


# ------------------------------------------------------------ Stand Fast (16.2)
def map_of(h: str) -> str:
    """The map a hex id belongs to ("S:4112" -> "S"; a single-map id -> "")."""
    return multimap.map_of(h)


def stand_fast_removable(b: Board, turn: int, loc_hexes: Collection[str]) -> list[str]:
    """Stand Fast markers the Soviet may take off now: from the scenario's
    first removal turn (16.2: Turn 6), in a major city he controls that
    traces an LOC."""
    if turn < b.scn.params.stand_fast_removal_from_turn:
        return []
    return sorted(h for h in b.state.get("stand_fast", ())
                  if b.control(h) == SOVIET and b.side_at(h) != AXIS and h in loc_hexes)


def check_stand_fast_removal(b: Board, turn: int, hexes: Sequence[str], loc_hexes: Collection[str]) -> None:
    """At most one marker per map at this Supply Check, each removable.
    Removal is free (notes A19)."""
    ok = stand_fast_removable(b, turn, loc_hexes)
    seen: set[str] = set()
    for h in hexes:
        if h not in ok:
            if turn < b.scn.params.stand_fast_removal_from_turn:
                raise IllegalOrder(f"Stand Fast markers come off from Turn "
                                   f"{b.scn.params.stand_fast_removal_from_turn} (16.2)")
            raise IllegalOrder(f"{h} has no Stand Fast marker the Soviet may remove "
                               "(a major city he controls, with an LOC, 16.2)")
        m = map_of(h)
        if m in seen:
            raise IllegalOrder(f"one Stand Fast marker per map at each Supply Check (16.2): {h}")
        seen.add(m)


def remove_stand_fast(state: State, hexes: Sequence[str]) -> None:
    state["stand_fast"] = sorted(set(state.get("stand_fast", ())) - set(hexes))
