"""Supply in *Victory Roads* (§4, 1.2): sources, Supply Routes (SR) for
HQs, the Command Radius (CR) for units, and who is Out of Supply.

Supply Route (4.1.1)
    A chain of hexes joined by road or railroad hexsides from an HQ to a
    source, of any length, that never enters a hex held by the enemy nor an
    empty hex next to the enemy (:meth:`Board.path_blocked`).  One search
    from every source outward answers it for every HQ at once
    (:func:`pbem.board.supply.traced`).

Command Radius (1.2)
    Hexes from the HQ (not counted) to the unit; a step along a road or
    rail hexside counts half (:func:`pbem.board.radius.radius_reach`).  The
    path is blocked like an SR and may not cross a Major River without a
    bridge (in Mud every river is Major, 3.2.2).

Sources (4.3-4.5)
    Soviet: the cities it held at the start of June III (a fixed set on the
    map, R-23) and road/rail hexes on the eastern map edge.  German: cities
    in Germany the German controls, Baltic ports it controls until the
    Soviets control four hexes around them; units in an advanced
    fortification are always supplied.  Hungarian and Romanian units while
    allied to Germany: also their capital, if it has an SR to a German
    source.  An ex-ally is Soviet for supply (1.7.3, R-10).
"""
from __future__ import annotations

from pbem.board.radius import radius_reach
from pbem.board.supply import traced
from pbem.games.vr.board import Board
from pbem.games.vr.model import GERMAN, SOVIET


def sources(board: Board, side: str) -> frozenset[str]:
    """The supply source hexes of ``side`` now (capitals not included)."""
    m = board.map
    if side == SOVIET:
        return m.june_cities | m.east_edge
    out = {h for h in m.cities if m.country_of(h) == "germany" and board.control(h) == GERMAN}
    for port, sea in m.ports.items():
        if sea != "baltic" or board.control(port) != GERMAN:        # 4.4.2: Baltic ports only
            continue
        held = sum(1 for n in m.neighbors(port) if board.control(n) == SOVIET)
        if held < 4:
            out.add(port)
    return frozenset(out)


def route_hexes(board: Board, side: str, from_hexes: frozenset[str] | None = None) -> frozenset[str]:
    """Every hex an SR of ``side`` reaches from its sources (or from
    ``from_hexes``): joined by road/rail hexsides, never into a blocked hex."""
    start = sources(board, side) if from_hexes is None else from_hexes
    m = board.map

    def ok(a: str, b: str) -> bool:
        return m.connected(a, b) and not m.impassable(a, b) and not board.path_blocked(b, side)

    # 4.1.1: the source is the last hex an SR enters, blocked as any other
    found = traced(sorted(start), m.neighbors, ok, usable=lambda h: not board.path_blocked(h, side))
    return frozenset(found)


def hq_supplied(board: Board, uid: str) -> bool:
    """4.1.1: the HQ stands on a source or an SR joins it to one."""
    h = board.unit(uid)["hex"]
    side = board.side_of(uid)
    return h in sources(board, side) or h in route_hexes(board, side)


def command_reach(board: Board, uid: str, weather: str | None = None) -> dict[str, int]:
    """The hexes inside HQ ``uid``'s Command Radius, in half hexes (1.2)."""
    h = board.unit(uid)["hex"]
    side = board.side_of(uid)
    m = board.map

    def can_enter(a: str, b: str) -> bool:
        if m.impassable(a, b) or board.path_blocked(b, side):
            return False
        return not (board.river(a, b, weather) == "major" and not board.bridged(a, b))

    return radius_reach(h, board.spec(uid).command_radius, m.neighbors, m.connected, can_enter)


def _serves(board: Board, hq: str, uid: str) -> bool:
    """An HQ commands its own nationality; a German HQ also Germany's allies
    while they are allied (4.2.1); everything Soviet-allied is Soviet."""
    hq_side, side = board.side_of(hq), board.side_of(uid)
    if hq_side != side:
        return False
    if side == SOVIET:
        return True
    nat_hq, nat = board.spec(hq).nationality, board.spec(uid).nationality
    return nat == nat_hq or nat_hq == "ger"


def unit_supply(board: Board, side: str, weather: str | None = None) -> dict[str, bool]:
    """Every ``side`` unit on the map -> in supply (4.2), HQs included
    (4.1).  An HQ that cannot trace an SR supplies nobody."""
    out: dict[str, bool] = {}
    units = board.on_map(side)
    src = sources(board, side)
    routes = route_hexes(board, side)
    hqs = [u for u in units if board.spec(u).is_hq]
    live = [u for u in hqs if board.unit(u)["hex"] in src or board.unit(u)["hex"] in routes]
    reach = {u: command_reach(board, u, weather) for u in live}
    capital_ok: dict[str, bool] = {}
    for uid in units:
        h = board.unit(uid)["hex"]
        spec = board.spec(uid)
        if spec.is_hq:
            out[uid] = uid in live
            continue
        ok = h in src
        if not ok and side == GERMAN and board.map.fortifications.get(h) == "advanced":
            ok = True                                   # 4.4.3
        if not ok and side == GERMAN and h in (board.state.get("airlift") or ()):
            ok = True                                   # 4.2.1: the Ju-52 exception
        if not ok and side == GERMAN and spec.nationality in ("hun", "rum"):
            country = "hungary" if spec.nationality == "hun" else "romania"
            cap = board.map.capitals.get(country, frozenset())
            if country not in capital_ok:
                capital_ok[country] = any(c in routes and board.control(c) == GERMAN for c in cap)
            ok = capital_ok[country] and h in cap       # 4.5: the capital is a source for them
        if not ok:
            ok = any(h in reach[hq] for hq in live if _serves(board, hq, uid))
        out[uid] = ok
    return out
