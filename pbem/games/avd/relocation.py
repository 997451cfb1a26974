"""HQ relocation (12.6) and end-of-turn HQ removal (12.5)."""
from __future__ import annotations

from pbem.games.avd.activation import map_hex
from pbem.games.avd.board import Board
from pbem.games.avd.model import GERMAN
from pbem.games.avd.supply import traces_supply

MIN_RELOCATION = 4     # 12.6 (1)


def relocation_options(board: Board, hq_uid: str, turn: int | None = None,
                       origin: str | None = None) -> list[str]:
    """Where the owner may place a relocated HQ (12.6), by the rule-notes
    default (8 item 18): the path is a notional hex line, each hex nearer
    one chosen friendly supply source; the destination is at least 4 hexes
    from the origin, not in enemy ZOC, traces supply, and is among the
    nearest such hexes to the origin.  Empty: the HQ is eliminated."""
    side = board.side_of(hq_uid)
    start = origin or board.hex_of(hq_uid)
    if start is None:
        raise ValueError(f"{hq_uid} has no hex to relocate from")
    # The answer depends on where the units stand and the turn (supply)
    # alone: kept with the position, since the decision, its check and
    # the answer each ask again.
    key = ("relocation", hq_uid, start, board.turn if turn is None else turn)
    found = board.cache.get(key)
    if found is None:
        found = board.cache[key] = _options(board, hq_uid, side, start, turn)
    return list(found)


def _options(board: Board, hq_uid: str, side: str, start: str, turn: int | None) -> list[str]:
    toward = _toward(board, start, sorted(board.supply_sources(side, turn)))
    # Only the nearest legal hexes count: test ring by ring outward from the
    # origin and stop at the first ring that holds one (map order kept).
    for dist, ring in board.grid.rings(start, MIN_RELOCATION):
        good = [h for h in ring if _fits(board, hq_uid, side, dist, h, toward, turn)]
        if good:
            return good
    return []


def _relocation_ok(board: Board, hq_uid: str, side: str, start: str, h: str, sources: list[str],
                   turn: int | None) -> bool:
    """12.6 (default 18): whether the HQ may be re-placed from ``start`` in
    ``h`` (see :func:`_fits`)."""
    return _fits(board, hq_uid, side, board.distance(start, h), h, _toward(board, start, sources), turn)


def _toward(board: Board, start: str, sources: list[str]) -> list[tuple[int, int, int]]:
    """Each source's axial coordinates and its distance from ``start``,
    asked for every hex tested."""
    ax = board.grid.axial
    return [(*ax(s), board.distance(start, s)) for s in sources]


def _fits(board: Board, hq_uid: str, side: str, dist: int, h: str, toward: list[tuple[int, int, int]],
          turn: int | None) -> bool:
    """12.6 (default 18): ``h`` (``dist`` from the origin) is free of enemy
    units and ZOC (and, for the German, outside the Minsk Pocket), lies on
    a line toward a supply source (``toward``: each with its distance from
    the origin), may hold the HQ and traces supply.  The cheap tests come
    first: all must hold."""
    if board.in_enemy_zoc(h, side) or board.enemy_occupied(h, side):
        return False
    if side == GERMAN and board.in_minsk_pocket(h):
        return False
    # A shortest hex line from the origin to ``h`` whose every hex is nearer
    # source ``s`` than the one before exists exactly when ``h`` lies on a
    # shortest line from the origin to ``s``.  (The hex distance worked out
    # inline from axial coordinates: thousands of pairs a game.)
    qh, rh = board.grid.axial(h)
    for qs, rs, ds in toward:
        dq, dr = qh - qs, rh - rs
        dd = dq + dr
        if dist + (((dq if dq >= 0 else -dq) + (dr if dr >= 0 else -dr) + (dd if dd >= 0 else -dd)) >> 1) == ds:
            break
    else:
        return False
    if board.stacking_ok(h, side, [hq_uid]) is not None:
        return False
    return traces_supply(board, side, h, turn)


def hq_removal(board: Board, side: str) -> list[str]:
    """HQs of ``side`` on the map with no friendly combat unit within their
    Command Range at the end of the turn (12.5)."""
    mine = board.units_of(side)
    specs = board.scn.units     # (each unit's kind read as is_combat and is_hq read it: speed only)
    # Each combat unit's hex as axial coordinates, read once for every HQ,
    # and the plain hex distance of Command Range (7.3.4-7.3.6) worked out inline (speed only: a few
    # thousand pairs a game).
    ax = board.grid.axial
    combat = [ax(map_hex(board, u)) for u in mine if specs[u].kind == "combat"]
    out = []
    for h in mine:
        if specs[h].kind != "hq":
            continue
        at = board.hex_of(h)
        if at is not None:
            qa, ra = ax(at)
            cr = board.spec(h).command_range
            if any((abs(q - qa) + abs(r - ra) + abs(q - qa + r - ra)) >> 1 <= cr for q, r in combat):
                continue
        out.append(h)
    return sorted(out)
