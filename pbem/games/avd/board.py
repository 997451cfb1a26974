"""A read-only view of an A Victory Denied position: the scenario's map and
counters joined with the state's unit positions.

Every mechanic (movement, combat, retreat, supply, command) asks the board
the same questions: who is in a hex, whose ZOC covers it, what terrain and
hexside features lie between two hexes, and whether a stack would be legal.
The board answers them and caches what is costly (the ZOC maps); it never
changes the state.
"""
from __future__ import annotations

import functools
from itertools import chain, compress
from operator import ne
from typing import Any

from pbem.board.hexgrid import HexGrid, side_key
from pbem.games.avd import model
from pbem.games.avd.model import GERMAN, SOVIET, UnitSpec

SIDE_NAME = {GERMAN: "German", SOVIET: "Soviet"}
_NO_FEATURES: frozenset[str] = frozenset()     # a hexside with no river or road


def enemy_of(side: str) -> str:
    return SOVIET if side == GERMAN else GERMAN


@functools.lru_cache(maxsize=8)
def _grid(first_col: int, last_col: int, first_row: int, last_row: int, offset: str) -> HexGrid:
    """One grid per map shape, so its geometry caches outlive each Board."""
    return HexGrid(first_col, last_col, first_row, last_row, offset)


_IDS: dict[int, tuple[Any, dict[tuple[str, str], frozenset[str]]]] = {}


def _ids(units: dict[str, UnitSpec], side: str, which: str) -> frozenset[str]:
    """The units of ``side`` (``which`` "all"), its combat units ("combat"),
    the combat units of any other side ("enemy combat") or of every side
    ("any combat"), worked out once per scenario: every position's ZOC maps
    and unit lists ask, hex by hex."""
    kept = _IDS.get(id(units))
    if kept is None or kept[0] is not units:
        if len(_IDS) >= 8:
            _IDS.clear()
        table = {}
        for sd in (GERMAN, SOVIET):
            table[sd, "all"] = frozenset(u for u, s in units.items() if s.side == sd)
            table[sd, "combat"] = frozenset(u for u, s in units.items() if s.side == sd and s.kind == "combat")
            table[sd, "enemy combat"] = frozenset(u for u, s in units.items() if s.side != sd and s.kind == "combat")
        table["", "any combat"] = frozenset(u for u, s in units.items() if s.kind == "combat")
        kept = _IDS[id(units)] = (units, table)
    found = kept[1].get((side, which))
    if found is None:       # not a side of the game: only "enemy combat" finds any
        found = frozenset(u for u, s in units.items() if which in ("enemy combat", "any combat") and s.kind == "combat")
    return found


def _with_side(occupied: Any, mine: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    """Board.hexes_with of the (hex, units) pairs ``occupied``, ``mine``
    the units of the side."""
    other: set[str] = set()
    own: set[str] = set()
    for h, uids in occupied:
        if len(uids) == 1:      # (most hexes: one test instead of two, speed only)
            (own if uids[0] in mine else other).add(h)
            continue
        if not mine.issuperset(uids):
            other.add(h)
        if not mine.isdisjoint(uids):
            own.add(h)
    return frozenset(other), frozenset(own)


def _flipped(was: frozenset[str], changed: frozenset[str], now: Any) -> frozenset[str]:
    """The set ``was`` with the hexes of ``changed`` in it exactly when they
    are in ``now`` (the hexes of ``changed`` that belong): ``was`` itself
    when none of them changes (speed only: most moves change a set or two
    of a position's)."""
    flips = [h for h in changed if (h in now) != (h in was)]
    return was.symmetric_difference(flips) if flips else was


POSITIONS_KEPT = 2      # positions whose index a rules object keeps (speed only)


class _Before:
    """The position a new one was made from by moving a few units (the
    index kept before it): the sets worked out for it, which the new
    position's own follow from by looking again at the hexes where units
    came or went alone (speed only: most new positions move one unit)."""

    __slots__ = ("with_side", "zoc", "combat_at", "hexes", "now", "_changed")

    def __init__(self, ix: "_Index", hexes: tuple[Any, ...], now: tuple[Any, ...]) -> None:
        # (its dicts, not the index: an index refers to no older one; an
        # entry, once made, stays the answer for that position)
        self.with_side = ix.with_side
        self.zoc = ix.zoc
        self.combat_at = ix.combat_at
        self.hexes, self.now = hexes, now
        self._changed: frozenset[str] | None = None

    def changed(self) -> frozenset[str]:
        """The hexes some unit left or entered: every other hex holds the
        same units in both positions (the unit ids are the same)."""
        if self._changed is None:
            # (the pairs that differ picked out without a Python loop: speed only)
            moved = compress(zip(self.hexes, self.now), map(ne, self.hexes, self.now))
            self._changed = frozenset(h for pair in moved for h in pair if h)
        return self._changed


class _Index:
    """What follows from where the units stand alone (the occupants of
    each hex, each side's units, ZOCs, supply lines), shared by every board
    of one position."""

    __slots__ = ("by_hex", "side_units", "zoc", "with_side", "combat_at", "positions", "cache", "before")

    def __init__(self, uids: tuple[str, ...], hexes: tuple[Any, ...]) -> None:
        by_hex: dict[str, list[str]] = {}
        # (the units on the map, those with a hex, picked out without a
        # Python loop: speed only, every new position)
        for uid, h in compress(zip(uids, hexes), hexes):
            if h in by_hex:
                by_hex[h].append(uid)
            else:
                by_hex[h] = [uid]
        self.by_hex = by_hex
        self.side_units: dict[str, list[str]] = {}
        self.zoc: dict[str, frozenset[str]] = {}
        self.with_side: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
        self.combat_at: dict[str, frozenset[str]] = {}     # side -> the hexes holding its combat units
        self.before: _Before | None = None
        self.positions: tuple[Any, ...] | None = None
        self.cache: dict[Any, Any] = {}


class Board:
    """The map, the counters and where they stand.  ``state`` is the game
    state (see :data:`model.STATE_SHAPE`); only units with ``where == "map"``
    are on the board, as they stood when the board was made."""

    def __init__(self, scn: model.Scenario, state: dict[str, Any],
                 shared: dict[Any, Any] | None = None) -> None:
        self.scn = scn
        self.state = state
        m = scn.map
        self.grid = _grid(m.first_col, m.last_col, m.first_row, m.last_row, m.offset)
        self.turn: int = int(state.get("turn", 1))
        # Where every unit stands now (the index is worked out from this
        # when first asked for, or found among the owner's).
        units = state["units"]
        # (Two flat tuples, the ids and each unit's hex if it is on the map,
        # else None: all the index reads; no pair per unit to build, hash
        # and compare.)
        try:
            self._at = (tuple(units), tuple([u["hex"] if u["where"] == "map" else None for u in units.values()]))
        except KeyError:
            self._at = (tuple(units), tuple([u.get("hex") if u.get("where") == "map" else None
                                             for u in units.values()]))
        # Results that depend only on where the units stand, kept across
        # boards by their owner (the rules).
        self.shared = shared

    def __getattr__(self, name: str) -> Any:
        if name == "_ix":
            ix = self._ix = self._index()
            return ix
        if name == "_combat":
            combat = self._combat = _ids(self.scn.units, "", "any combat")
            return combat
        raise AttributeError(name)

    def _index(self) -> _Index:
        shared = self.shared
        if shared is None:
            return _Index(*self._at)
        # The few latest positions, most recent first, found by comparing
        # (speed only): a board is nearly always made for the position of
        # the one before it or a new one, so hashing the hundreds of items
        # of every position to look it up in a table buys nothing, and a
        # comparison that fails stops at the first unit that moved.
        kept = shared.get("positions")
        if kept is None:
            kept = shared["positions"] = []
        at = self._at
        for i, (seen, ix) in enumerate(kept):
            if seen[1] == at[1] and seen[0] == at[0]:     # (the hexes differ first)
                if i:
                    kept.insert(0, kept.pop(i))
                return ix  # type: ignore[no-any-return]
        ix = _Index(*at)
        if kept and kept[0][0][0] == at[0]:
            ix.before = _Before(kept[0][1], kept[0][0][1], at[1])
        kept.insert(0, (at, ix))
        del kept[POSITIONS_KEPT:]
        return ix

    @property
    def cache(self) -> dict[Any, Any]:
        """Results other mechanics derive from this position (supply lines),
        valid for every board of the same position."""
        return self._ix.cache  # type: ignore[no-any-return]

    @property
    def positions(self) -> tuple[Any, ...]:
        """Which units stand in which hex: everything ZOCs, stacking and
        supply lines depend on, as a key for results that outlive a board."""
        ix = self._ix
        if ix.positions is None:
            ix.positions = tuple(sorted((h, tuple(sorted(us))) for h, us in ix.by_hex.items()))
        return ix.positions  # type: ignore[no-any-return]

    # ------------------------------------------------------------ counters
    def spec(self, uid: str) -> UnitSpec:
        try:
            return self.scn.units[uid]
        except KeyError:
            raise KeyError(f"no unit {uid!r} in this scenario") from None

    def unit(self, uid: str) -> dict[str, Any]:
        return self.state["units"][uid]

    def name(self, uid: str) -> str:
        return self.spec(uid).name or uid

    def side_of(self, uid: str) -> str:
        try:                # asked tens of thousands of times a game
            return self.scn.units[uid].side
        except KeyError:
            return self.spec(uid).side      # raises, naming the unit

    def hex_of(self, uid: str) -> str | None:
        u = self.state["units"][uid]     # (not through unit(): asked tens of thousands of times a game)
        try:        # (subscripts, no get() calls: speed only; a unit lacking a key is read below)
            return u["hex"] if u["where"] == "map" else None  # type: ignore[no-any-return]
        except KeyError:
            return u.get("hex") if u.get("where") == "map" else None

    def on_map(self, uid: str) -> bool:
        u = self.state["units"][uid]
        try:        # (as hex_of: speed only)
            return u["where"] == "map" and u["hex"] is not None
        except KeyError:
            return u.get("where") == "map" and u.get("hex") is not None

    def is_combat(self, uid: str) -> bool:
        # (a set of the scenario's combat units first: asked tens of
        # thousands of times a game)
        if uid in self._combat:
            return True
        return self.spec(uid).kind == "combat"      # False, or KeyError naming an unknown unit

    def is_hq(self, uid: str) -> bool:
        try:
            return self.scn.units[uid].kind == "hq"
        except KeyError:
            return self.spec(uid).kind == "hq"

    def steps(self, uid: str) -> int:
        return int(self.unit(uid).get("steps", self.spec(uid).steps))

    def is_full(self, uid: str) -> bool:
        return self._full(uid, self.spec(uid))

    def _full(self, uid: str, s: UnitSpec) -> bool:
        """is_full with the unit's spec already read (what steps reads
        again: speed only, thousands of strengths a game)."""
        return int(self.state["units"][uid].get("steps", s.steps)) >= s.steps

    def attack(self, uid: str) -> int:
        """Printed attack of the side now showing (full or reduced)."""
        s = self.spec(uid)
        return s.attack if self._full(uid, s) else s.reduced_attack

    def defense(self, uid: str) -> int:
        s = self.spec(uid)
        return s.defense if self._full(uid, s) else s.reduced_defense

    def oos(self, uid: str) -> bool:
        return bool(self.unit(uid).get("oos"))

    def isolated(self, uid: str) -> bool:
        return bool(self.unit(uid).get("isolated"))

    def units_of(self, side: str) -> list[str]:
        """Every unit of ``side`` on the map."""
        ix = self._ix
        found = ix.side_units.get(side)
        if found is None:
            mine = _ids(self.scn.units, side, "all")
            # (the units hex by hex, those of the side kept, without a Python
            # loop: speed only)
            found = ix.side_units[side] = list(filter(mine.__contains__, chain.from_iterable(ix.by_hex.values())))
        return list(found)

    # ---------------------------------------------------------------- hexes
    def occupied_hexes(self) -> list[str]:
        """The hexes holding any unit."""
        return list(self._ix.by_hex)

    def hexes_and_units(self) -> Any:
        """(hex, units in it) for every occupied hex (read only)."""
        return self._ix.by_hex.items()

    def units_at(self, h: str) -> list[str]:
        return list(self._ix.by_hex.get(h, ()))

    def combat_hexes_not_of(self, side: str) -> frozenset[str]:
        """The hexes holding a combat unit of another side than ``side``
        (kept with the position: every combat decision looks at each
        neighbour of each attacker)."""
        if side in (GERMAN, SOVIET):    # (every unit is of one of the two: the other's, kept)
            return self._combat_at(SOVIET if side == GERMAN else GERMAN)
        cache = self._ix.cache
        key = ("combat hexes not of", side)
        found = cache.get(key)
        if found is None:
            enemy = _ids(self.scn.units, side, "enemy combat")
            found = cache[key] = frozenset(h for h, uids in self._ix.by_hex.items() if not enemy.isdisjoint(uids))
        return found  # type: ignore[no-any-return]

    def combat_units_at(self, h: str) -> list[str]:
        # (the index and the scenario's combat units read directly: asked
        # tens of thousands of times a game; is_combat for the others, which
        # fails on a unit the scenario lacks)
        combat = self._combat
        return [u for u in self._ix.by_hex.get(h, ()) if u in combat or self.is_combat(u)]

    def hq_at(self, h: str) -> str | None:
        for u in self.units_at(h):
            if self.is_hq(u):
                return u
        return None

    def occupant_side(self, h: str) -> str | None:
        """The side whose units are in ``h`` (5.2: never both)."""
        uids = self.units_at(h)
        return self.side_of(uids[0]) if uids else None

    def enemy_occupied(self, h: str, side: str) -> bool:
        # (the kept sets read directly: asked thousands of times a game)
        found = self._ix.with_side.get(side)
        if found is None:
            found = self.hexes_with(side)
        return h in found[0]

    def hexes_with(self, side: str) -> tuple[frozenset[str], frozenset[str]]:
        """(the hexes holding a unit of another side than ``side``, those
        holding a unit of ``side``), kept with the position: movement,
        placement and every supply search ask hex by hex."""
        ix = self._ix
        found = ix.with_side.get(side)
        if found is None:
            mine = _ids(self.scn.units, side, "all")
            before = ix.before
            was = before.with_side.get(side) if before is not None else None
            if before is None or was is None:
                found = _with_side(ix.by_hex.items(), mine)
            else:
                # The position before's sets, but for the hexes units came
                # to or left, looked at again (speed only).
                changed = before.changed()
                by_hex = ix.by_hex
                now = _with_side([(h, by_hex[h]) for h in changed if h in by_hex], mine)
                found = (_flipped(was[0], changed, now[0]), _flipped(was[1], changed, now[1]))
            ix.with_side[side] = found
        return found

    def lone_enemy_hq(self, h: str, side: str) -> str | None:
        """The enemy HQ alone in ``h`` (an overrun target, 12.1), if any."""
        uids = self.units_at(h)
        if len(uids) == 1 and self.side_of(uids[0]) != side and self.is_hq(uids[0]):
            return uids[0]
        return None

    def terrain(self, h: str) -> model.Terrain:
        name = self.scn.map.terrain.get(h, "clear")
        try:
            return self.scn.terrain[name]
        except KeyError:
            raise KeyError(f"hex {h}: terrain {name!r} is not in the terrain chart") from None

    def hexside(self, a: str, b: str) -> frozenset[str]:
        return self.scn.map.hexsides.get(side_key(a, b), _NO_FEATURES)

    def is_river(self, a: str, b: str) -> bool:
        f = self.hexside(a, b)
        return "minor_river" in f or "major_river" in f

    def is_major(self, a: str, b: str) -> bool:
        return "major_river" in self.hexside(a, b)

    def is_minor(self, a: str, b: str) -> bool:
        return "minor_river" in self.hexside(a, b)

    def is_road(self, a: str, b: str) -> bool:
        return "road" in self.hexside(a, b)

    def bridged(self, a: str, b: str) -> bool:
        """2.1.3: a road crossing a river hexside is a bridge."""
        return self.is_river(a, b) and self.is_road(a, b)

    def unbridged_major(self, a: str, b: str) -> bool:
        return self.is_major(a, b) and not self.is_road(a, b)

    def road_hex(self, h: str) -> bool:
        return any(self.is_road(h, n) for n in self.grid.neighbors(h))

    def in_minsk_pocket(self, h: str) -> bool:
        return h in self.scn.map.minsk_pocket

    @property
    def victory_hexes(self) -> dict[str, str]:
        return self.scn.map.victory

    def has_vp_chit(self, h: str) -> bool:
        return self.state.get("vp", {}).get(h) is not None

    def enemy_controlled_vh(self, h: str, side: str) -> bool:
        """8.3.1: a Victory Hex is German-controlled when it has no VP chit
        and Soviet-controlled while its chit is on it."""
        if h not in self.victory_hexes:
            return False
        return not self.has_vp_chit(h) if side == SOVIET else self.has_vp_chit(h)

    # ------------------------------------------------------------------ ZOC
    def zoc(self, side: str) -> frozenset[str]:
        """Hexes in the ZOC of ``side``'s combat units (6.1: all six
        neighbours whatever the terrain or hexside; HQs have none)."""
        zocs = self._ix.zoc
        found = zocs.get(side)
        if found is None:
            found = self._zoc_after(side)
            if found is None:
                out: set[str] = set()
                neighbors = self.grid.neighbors
                for h in self._combat_at(side):
                    out.update(neighbors(h))
                found = frozenset(out)
            zocs[side] = found
        return found

    def _combat_at(self, side: str) -> frozenset[str]:
        """The hexes holding a combat unit of ``side`` (kept with the
        position; from the one before where it has them)."""
        ix = self._ix
        found = ix.combat_at.get(side)
        if found is None:
            combat = _ids(self.scn.units, side, "combat")
            by_hex = ix.by_hex
            before = ix.before
            was = before.combat_at.get(side) if before is not None else None
            if before is None or was is None:
                found = frozenset(h for h, uids in by_hex.items() if not combat.isdisjoint(uids))
            else:
                changed = before.changed()
                found = _flipped(was, changed, {h for h in changed if h in by_hex and not combat.isdisjoint(by_hex[h])})
            ix.combat_at[side] = found
        return found

    def _zoc_after(self, side: str) -> frozenset[str] | None:
        """:meth:`zoc` from the position before's, when it has it (else
        None): the neighbours of the hexes that now hold a combat unit of
        ``side`` and did not are added; those of the hexes that no longer
        hold one are taken out unless a hex that still does is next to them
        (speed only).  Only with every hex concerned on the grid, where
        being neighbours goes both ways (the grid's neighbour table)."""
        before = self._ix.before
        if before is None:
            return None
        was_zoc = before.zoc.get(side)
        was = before.combat_at.get(side)
        if was_zoc is None or was is None:
            return None
        now = self._combat_at(side)
        if now == was:
            return was_zoc
        table = self.grid.neighbor_table()
        if not all(h in table for h in before.changed()) or not all(h in table for h in now):
            return None
        out = set(was_zoc)
        for h in now - was:
            out.update(table[h])
        for h in was - now:
            for n in table[h]:
                if now.isdisjoint(table[n]):
                    out.discard(n)
        return frozenset(out)

    def in_enemy_zoc(self, h: str, side: str) -> bool:
        enemy = SOVIET if side == GERMAN else GERMAN        # enemy_of, inline
        # (the kept ZOC read directly: asked thousands of times a game)
        found = self._ix.zoc.get(enemy)
        if found is None:
            found = self.zoc(enemy)
        return h in found

    # ------------------------------------------------------------- stacking
    def stacking_ok(self, h: str, side: str, adding: list[str]) -> str | None:
        """None if ``adding`` may end in ``h``, else the reason (5.1-5.3).
        Units of ``adding`` already in ``h`` are not counted twice; a lone
        enemy HQ does not count, since entering it overruns it (12.1)."""
        at = self._ix.by_hex.get(h)
        if not at and len(adding) == 1:
            return None         # one unit alone in a hex is always a legal stack (most placements)
        if self._fits(at, side, adding):
            return None
        return self._stacking_refusal(h, side, adding)

    def _fits(self, at: list[str] | None, side: str, adding: list[str]) -> bool:
        """True when :meth:`stacking_ok` finds nothing to refuse without an
        enemy in the hex: the units there (but those of ``adding``) and
        ``adding`` all of ``side``, at most two combat units, one HQ and
        (Soviet) one tan combat unit among them.  False when unsure: the
        full check then decides (speed only: each unit's spec read straight
        from the scenario, thousands of stacks a game)."""
        specs = self.scn.units
        combat = hqs = tan = 0
        here = [u for u in at if u not in adding] if at else []
        for u in [*here, *adding]:
            s = specs.get(u)
            if s is None or s.side != side:
                return False        # (an unknown unit, or an enemy: maybe an overrun)
            if s.kind == "combat":
                combat += 1
                if s.formation != "red":
                    tan += 1
            elif s.kind == "hq":
                hqs += 1
        return combat <= 2 and hqs <= 1 and (tan <= 1 or side != SOVIET)

    def _stacking_refusal(self, h: str, side: str, adding: list[str]) -> str | None:
        """:meth:`stacking_ok` in full (each rule in turn, with its reason)."""
        at = self._ix.by_hex.get(h)
        here = [u for u in at or () if u not in adding]
        if any(self.side_of(u) != side for u in here):
            if not (self.lone_enemy_hq(h, side) and any(self.is_combat(u) for u in adding)):
                return f"{h} holds enemy units"
            here = []
        # (each unit's kind read once: asked thousands of times a game)
        combat: list[str] = []
        hqs = 0
        for u in here + list(adding):
            kind = self.spec(u).kind
            if kind == "combat":
                combat.append(u)
            elif kind == "hq":
                hqs += 1
        if len(combat) > 2:
            return f"{h} would hold {len(combat)} combat units (limit 2)"
        if hqs > 1:
            return f"{h} would hold two HQs"
        if side == SOVIET:
            tan = [u for u in combat if self.spec(u).formation != "red"]
            if len(tan) > 1:
                return f"{h} would stack two tan Soviet units ({', '.join(self.name(u) for u in tan)})"
        return None

    # --------------------------------------------------------------- supply
    def supply_sources(self, side: str, turn: int | None = None) -> frozenset[str]:
        """Friendly supply sources; the Soviet source of 10.2.2 (1517 on the
        real map) counts only through Turn 4."""
        t = self.turn if turn is None else turn
        m = self.scn.map
        if side == GERMAN:
            return m.supply_german
        if t <= 4:
            return m.supply_soviet | m.supply_soviet_until_turn4
        return m.supply_soviet

    def distance(self, a: str, b: str) -> int:
        return self.grid.distance(a, b)
