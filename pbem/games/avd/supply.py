"""Supply lines and Isolation (rule 10.2).

A combat unit is Isolated when no supply line joins it to a friendly supply
source.  The line may be of any length but may not enter a hex holding
enemy units, may not pass through a hex in enemy ZOC unless a friendly
combat unit or HQ stands there, and may not cross an unbridged major river
hexside.  One search outward from the sources answers every unit at once.
"""
from __future__ import annotations

from typing import Any

from pbem.board import supply as ksupply
from pbem.board.hexgrid import side_key
from pbem.games.avd.board import Board
from pbem.games.avd.model import GERMAN, SIDES, SOVIET

SHARED_LIMIT = 16   # positions whose supply lines a rules object remembers


def _passable(board: Board, side: str, h: str) -> bool:
    """10.2.2: a friendly combat unit or HQ in an enemy-ZOC hex opens it."""
    if not board.in_enemy_zoc(h, side):
        return True
    return any(board.side_of(u) == side for u in board.units_at(h))


def _unbridged_majors(board: Board) -> frozenset[tuple[str, str]]:
    """10.2.2: the hexsides no supply line crosses (a major river with no
    bridge), as ordered hex pairs, made once per map."""
    cache = board.shared if board.shared is not None else board.cache
    walls = cache.get("walls")
    if walls is None:
        # (board.unbridged_major's test on the features it reads, inline:
        # a few hundred hexsides in every cold game; speed only)
        hexsides = board.scn.map.hexsides
        walls = cache["walls"] = frozenset(
            p for a, b in ((k.split("|")) for k in hexsides)
            if "major_river" in (f := hexsides.get(side_key(a, b), ())) and "road" not in f
            for p in ((a, b), (b, a)))
    return walls


class _Steps(dict):  # type: ignore[type-arg]
    """hex -> the neighbours a supply line may step to from it (every
    on-map neighbour but across an unbridged major river), worked out the
    first time a search reaches the hex and kept for the map."""

    def __init__(self, board: Board) -> None:
        super().__init__()
        self.neighbors = board.grid.neighbors
        self.table = board.grid.neighbor_table()
        self.walls = _unbridged_majors(board)
        # The hexes with a wall on one of their sides: every other hex
        # steps to all its neighbours (speed only: a cold game's supply
        # search asks for every hex of the map).
        self.walled = frozenset(a for a, _ in self.walls)

    def __missing__(self, a: str) -> tuple[str, ...]:
        around = self.table.get(a)
        if around is None:      # (not a hex of the grid)
            around = tuple(self.neighbors(a))
        if a not in self.walled:
            out = self[a] = around
            return out
        walls = self.walls
        out = self[a] = tuple([b for b in around if (a, b) not in walls])
        return out


def _steps(board: Board) -> _Steps:
    cache = board.shared if board.shared is not None else board.cache
    steps = cache.get("steps")
    if steps is None:
        steps = cache["steps"] = _Steps(board)
    return steps


def _bits(board: Board) -> ksupply.HexBits:
    """The map's hexes numbered for searches on bits (every hex with the
    steps a line may take from it), made once per map."""
    cache = board.shared if board.shared is not None else board.cache
    bits = cache.get("bits")
    if bits is None:
        # HexBits({h: _steps(board)[h] for h in board.grid.hexes()}), from
        # the grid's shape (speed only)
        bits = cache["bits"] = ksupply.HexBits.of_grid(board.grid, _unbridged_majors(board))
    return bits


def _search(board: Board, side: str, t: int) -> tuple[tuple[str, ...], frozenset[str], frozenset[str], Any]:
    """What decides the supply lines of ``side`` on turn ``t``: the usable
    sources, the hexes no line enters, the hexes a line reaches but does
    not pass, and a key for them that outlives the position."""
    # A line may not enter a hex holding enemy units (or, Soviet, the Minsk
    # Pocket) and goes on through an enemy-ZOC hex only where a friendly
    # unit stands: those sets, the sources and the map decide the search.
    enemy, friendly = board.hexes_with(side)
    zoc = board.zoc(SOVIET if side == GERMAN else GERMAN)
    stops = zoc - friendly
    sources = tuple(s for s in sorted(board.supply_sources(side, t))
                    if s in board.grid and s not in enemy and s not in stops)
    blocked = enemy if side == GERMAN else enemy | board.scn.map.minsk_pocket
    return sources, blocked, stops, (side, sources, enemy, stops)


def _kept(board: Board, kind: str, skey: Any) -> Any:
    """A search of ``kind`` the owner kept for the same sets, or None."""
    shared = board.shared
    if shared is None:
        return None
    return shared.setdefault(kind, {}).get(skey)


def _keep(board: Board, kind: str, skey: Any, out: Any) -> None:
    # The same lines are traced again and again (while a decision is
    # asked, checked and answered, and while units that change none of
    # these sets move): the owner keeps recent traces.
    shared = board.shared
    if shared is not None:
        recent = shared.setdefault(kind, {})
        if len(recent) >= SHARED_LIMIT:
            recent.pop(next(iter(recent)))   # oldest first: dicts keep insertion order
        recent[skey] = out


def _traced(board: Board, side: str, turn: int | None, kind: str, search: Any) -> Any:
    """The answer of ``search`` (board, sources, blocked, stops) for
    ``side``'s lines, kept with the position under ``kind`` and
    by the owner for the sets that decide it."""
    t = board.turn if turn is None else turn
    key = (kind, side, t)
    found = board.cache.get(key)
    if found is not None:
        return found
    sources, blocked, stops, skey = _search(board, side, t)
    out = _kept(board, kind, skey)
    if out is None:
        out = search(board, sources, blocked, stops)
        _keep(board, kind, skey, out)
    board.cache[key] = out
    return out


def _lengths(board: Board, sources: Any, blocked: Any, stops: Any) -> dict[str, int]:
    return ksupply.traced_sets(sources, _steps(board), blocked, stops)


def _reached(board: Board, sources: Any, blocked: Any, stops: Any) -> int:
    # The kernel's reached_sets on bits (speed only: the sources are on the
    # map, so every one has its bit), left as bits: the rules ask hex by
    # hex whether a line reaches it, which one bit answers.
    bits = _bits(board)
    return ksupply.reached_bits(bits.bits(sources), bits, bits.bits(blocked), bits.bits(stops))


def supplied_hexes(board: Board, side: str, turn: int | None = None) -> dict[str, int]:
    """Every hex a supply line of ``side`` reaches, with its length.  A hex
    in enemy ZOC with no friendly unit is reached (a line may start there)
    but nothing beyond it is reached through it.  The Minsk Pocket is open
    to German lines (14) and closed to Soviet ones (ruling: the rule grants
    it to the Germans only)."""
    return _traced(board, side, turn, "supply", _lengths)  # type: ignore[no-any-return]


def reached_hexes(board: Board, side: str, turn: int | None = None) -> frozenset[str]:
    """The hexes of :func:`supplied_hexes`, without the lengths (whether a
    line reaches a hex: all the rules ask), found by a faster search."""
    return _bits(board).hexes_of(_traced(board, side, turn, "reached", _reached))


def traces_supply(board: Board, side: str, h: str, turn: int | None = None) -> bool:
    """True if a supply line of ``side`` can be traced from hex ``h``."""
    if side not in SIDES:
        raise TypeError(f"traces_supply(board, side, hex, turn): {side!r} is not a side")
    # h in reached_hexes, read from the search's bits (a hex off the map
    # has none, and is never reached): no set of the hexes made (speed only)
    reached = _traced(board, side, turn, "reached", _reached)
    i = _bits(board).index.get(h)
    return i is not None and reached >> i & 1 == 1


def isolated_units(board: Board, side: str, turn: int | None = None) -> set[str]:
    """The combat units of ``side`` on the map that trace no supply line
    (10.2.1; HQs are never Isolated; no German unit is on Turn 1, 10.2.4)."""
    t = board.turn if turn is None else turn
    if side == GERMAN and t == 1:
        return set()
    # (not in reached_hexes, read from the bits as traces_supply does: speed only)
    reached = _traced(board, side, t, "reached", _reached)
    index = _bits(board).index
    return {u for u in board.units_of(side)
            if board.is_combat(u) and ((i := index.get(board.hex_of(u) or "")) is None or not reached >> i & 1)}
