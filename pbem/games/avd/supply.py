"""Supply lines and Isolation (rule 10.2).

A combat unit is Isolated when no supply line joins it to a friendly supply
source.  The line may be of any length but may not enter a hex holding
enemy units, may not pass through a hex in enemy ZOC unless a friendly
combat unit or HQ stands there, and may not cross an unbridged major river
hexside.  One search outward from the sources answers every unit at once.
"""
from __future__ import annotations

from pbem.board import supply as ksupply
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
        walls = cache["walls"] = frozenset(
            p for a, b in ((k.split("|")) for k in board.scn.map.hexsides)
            for p in ((a, b), (b, a)) if board.unbridged_major(a, b))
    return walls


def supplied_hexes(board: Board, side: str, turn: int | None = None) -> dict[str, int]:
    """Every hex a supply line of ``side`` reaches, with its length.  A hex
    in enemy ZOC with no friendly unit is reached (a line may start there)
    but nothing beyond it is reached through it.  The Minsk Pocket is open
    to German lines (14) and closed to Soviet ones (ruling: the rule grants
    it to the Germans only)."""
    t = board.turn if turn is None else turn
    key = ("supply", side, t)
    if key in board.cache:
        return board.cache[key]
    shared = board.shared
    if shared is not None:
        # The same position is traced again and again while a decision is
        # asked, checked and answered: its owner keeps recent traces.
        recent = shared.setdefault("supply", {})
        skey = (side, t, board.positions)
        if skey in recent:
            board.cache[key] = recent[skey]
            return recent[skey]

    # The same tests as enemy_occupied / in_enemy_zoc / _passable, read off
    # sets made once per trace: the search asks them for every hexside.
    enemy = {h for h in board.occupied_hexes() if board.enemy_occupied(h, side)}
    friendly = {h for h in board.occupied_hexes() if any(board.side_of(u) == side for u in board.units_at(h))}
    zoc = board.zoc(SOVIET if side == GERMAN else GERMAN)
    closed = frozenset() if side == GERMAN else board.scn.map.minsk_pocket

    walls = _unbridged_majors(board)

    def can_enter(a: str, b: str) -> bool:
        return b not in enemy and b not in closed and (a, b) not in walls

    def can_pass(h: str) -> bool:
        return h not in zoc or h in friendly

    def usable(s: str) -> bool:
        return s in board.grid and s not in enemy and can_pass(s)

    out = ksupply.traced(sorted(board.supply_sources(side, t)), board.grid.neighbors, can_enter,
                         can_pass=can_pass, usable=usable)
    board.cache[key] = out
    if shared is not None:
        if len(recent) >= SHARED_LIMIT:
            recent.pop(next(iter(recent)))   # oldest first: dicts keep insertion order
        recent[skey] = out
    return out


def traces_supply(board: Board, side: str, h: str, turn: int | None = None) -> bool:
    """True if a supply line of ``side`` can be traced from hex ``h``."""
    if side not in SIDES:
        raise TypeError(f"traces_supply(board, side, hex, turn): {side!r} is not a side")
    return h in supplied_hexes(board, side, turn)


def isolated_units(board: Board, side: str, turn: int | None = None) -> set[str]:
    """The combat units of ``side`` on the map that trace no supply line
    (10.2.1; HQs are never Isolated; no German unit is on Turn 1, 10.2.4)."""
    t = board.turn if turn is None else turn
    if side == GERMAN and t == 1:
        return set()
    reached = supplied_hexes(board, side, t)
    return {u for u in board.units_of(side)
            if board.is_combat(u) and board.hex_of(u) not in reached}
