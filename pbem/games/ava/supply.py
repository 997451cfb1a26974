"""Lines of communications (AVA 3.3, 11, 12.1; FFS 3.3, 11, 12.1).

One search from every friendly source outward answers, for each hex, whether
a unit standing there has an LOC (the kernel's
:func:`pbem.board.supply.traced`).  The rules of a step:

* never into an enemy-occupied hex, a lake, across a prohibited hexside;
* into or out of a mountain hex only along a road;
* into an enemy-ZOC hex, but on through it only if a friendly unit stands
  there (notes A7: the source hex follows the same rule);
* FFS 3.3.1 (``profile.loc_blocked_by_enemy_city``): never into a city or
  town hex the enemy controls;
* AVA 2.1 (``profile.soviet_start_line``): a Soviet line never crosses the
  red start line.

A Soviet line has any length.  An Axis line runs from an Axis source along
railroad hexsides as far as it likes, then at most six hexes more (7+ = no
LOC).  With optional AVA 17.4 a Soviet line runs along roads only or
railroads only, after at most twelve hexes from the unit.

The number :func:`loc` maps each hex to is the length of the line's last
leg: for the Axis (and limited Soviet) the hexes off the rail/road network,
for the Soviet the whole line.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from weakref import WeakKeyDictionary

from pbem.board.hexgrid import side_key
from pbem.board.supply import traced
from pbem.games.ava.board import Board
from pbem.games.ava.model import AXIS, SOVIET, enemy_of

AXIS_OFF_RAIL = 6          # 3.3: six hexes beyond the last eligible railroad hex
SOVIET_LIMITED_OFF = 12    # 17.4: twelve hexes to a road or railroad hex

Step = Callable[[str, str], bool]
LocKey = tuple[str, bool, frozenset[str]]

# A Board pictures one state and is rebuilt after every change, so the lines
# of a board never go stale; the engine asks for them unit by unit.
_CACHE: WeakKeyDictionary[Board, dict[LocKey, dict[str, int]]] = WeakKeyDictionary()


def _step(b: Board, side: str) -> Step:
    """Whether a line of ``side`` may run from ``a`` into the adjacent ``c``."""
    m, p = b.map, b.profile

    def ok(a: str, c: str) -> bool:
        if m.prohibited(a, c) or m.has(a, c, "border") or b.enemy_occupied(c, side):
            return False
        if "mountain" in (m.terrain_of(a), m.terrain_of(c)) and not m.road(a, c):
            return False
        if p.loc_blocked_by_enemy_city and m.city_of(c) and b.control(c) == enemy_of(side):
            return False
        return not (side == SOVIET and p.soviet_start_line and m.has(a, c, "start_line"))

    return ok


def _passable(b: Board, side: str) -> Callable[[str], bool]:
    def ok(h: str) -> bool:
        return not b.in_enemy_zoc(h, side) or b.side_at(h) == side
    return ok


def _source_ok(b: Board, side: str) -> Callable[[str], bool]:
    """A source counts only where a line could stand: on the map, no lake,
    no enemy unit, (FFS) no enemy-controlled city."""
    def ok(h: str) -> bool:
        if not b.map.on_map(h) or b.map.terrain_of(h) == "lake" or b.enemy_occupied(h, side):
            return False
        return not (b.profile.loc_blocked_by_enemy_city and b.map.city_of(h) and b.control(h) == enemy_of(side))
    return ok


def _trace(b: Board, side: str, sources: Iterable[str], step: Step, max_length: int | None) -> dict[str, int]:
    """traced() with the pass-through rule applied to the starting hexes too
    (the kernel always passes its sources): a source that may not be passed
    is reached, at 0, but leads nowhere."""
    passable = _passable(b, side)
    usable = _source_ok(b, side)
    start = [s for s in sources if usable(s)]
    found = traced([s for s in start if passable(s)], b.map.neighbors, step, max_length, can_pass=passable)
    for s in start:
        found[s] = 0
    return found


def _along(b: Board, side: str, sides: frozenset[str]) -> Step:
    base = _step(b, side)
    return lambda a, c: side_key(a, c) in sides and base(a, c)


def _network_legs(b: Board, side: str, sources: Iterable[str], sides: frozenset[str],
                  off: int) -> tuple[dict[str, int], dict[str, int]]:
    """The two legs of a line along a network: the hexes reached along
    ``sides`` (railroad or road hexsides) from the sources, each at its
    distance along it, and the hexes within ``off`` more hexes of a
    passable network hex, each at its distance from the network."""
    network = _trace(b, side, sources, _along(b, side, sides), None)
    passable = _passable(b, side)
    return network, _trace(b, side, [h for h in network if passable(h)], _step(b, side), off)


def _network_then(b: Board, side: str, sources: Iterable[str], sides: frozenset[str], off: int) -> dict[str, int]:
    """Along ``sides`` from the sources as far as the line goes, then up to
    ``off`` hexes anywhere: hex -> hexes off the network (0 on it)."""
    network, found = _network_legs(b, side, sources, sides, off)
    for h in network:
        found[h] = 0
    return found


def _rail_sides(b: Board, without_lines: Iterable[str]) -> frozenset[str]:
    """Railroad hexsides, less those only the named lines run along (17.6)."""
    banned = set(without_lines)
    if not banned:
        return b.map.rail_sides
    kept: set[str] = set()
    for name, chain in b.map.rail_lines.items():
        if name not in banned:
            kept.update(side_key(x, y) for x, y in zip(chain, chain[1:]))
    return frozenset(kept)


def loc(b: Board, side: str, *, limited: bool = False, without_lines: Iterable[str] = ()) -> dict[str, int]:
    """Hexes where a unit of ``side`` has an LOC -> length of the line's
    last leg (module docstring).  ``limited``: optional AVA 17.4 for the
    Soviet; ``without_lines``: Axis rail lines the line may not use (17.6)."""
    return dict(_loc(b, side, limited, frozenset(without_lines)))


def _loc(b: Board, side: str, limited: bool, without_lines: frozenset[str]) -> dict[str, int]:
    per_board = _CACHE.setdefault(b, {})
    key = (side, limited, without_lines)
    if key not in per_board:
        per_board[key] = _uncached_loc(b, side, limited, without_lines)
    return per_board[key]


def _uncached_loc(b: Board, side: str, limited: bool, without_lines: frozenset[str]) -> dict[str, int]:
    sources = sorted(b.map.supply.get(side, ()))
    if side == AXIS:
        return _network_then(b, side, sources, _rail_sides(b, without_lines), AXIS_OFF_RAIL)
    if limited:
        road = _network_then(b, side, sources, b.map.road_sides, SOVIET_LIMITED_OFF)
        rail = _network_then(b, side, sources, b.map.rail_sides, SOVIET_LIMITED_OFF)
        return {h: min(road.get(h, 99), rail.get(h, 99)) for h in road.keys() | rail.keys()}
    return _trace(b, side, sources, _step(b, side), None)


def has_loc(b: Board, uid: str, *, limited: bool = False) -> bool:
    """Whether ``uid`` (on the map) traces an LOC now."""
    h = b.unit(uid).get("hex")
    return bool(h) and h in _loc(b, b.spec(uid).side, limited, frozenset())


def supply_exempt(b: Board, side: str, turn: int | None = None) -> bool:
    """AVA 15.1 / FFS 15.1(4): the Axis skips Supply Checks before the
    scenario's first Axis supply turn."""
    now = b.state["turn"] if turn is None else turn
    return side == AXIS and now < b.scn.params.axis_supply_from_turn


def out_of_loc(b: Board, side: str, turn: int | None = None, *, limited: bool = False) -> list[str]:
    """Units of ``side`` on the map that lose a step at this Supply Check
    (11.1); ``turn`` defaults to the state's.  Fortress markers are not units."""
    if supply_exempt(b, side, turn):
        return []
    ok = _loc(b, side, limited and side == SOVIET, frozenset())
    return [uid for uid in b.on_map(side) if b.unit(uid)["hex"] not in ok]


def rail_entry_hexes(b: Board, side: str) -> set[str]:
    """12.1: railroad hexes where ``side``'s reinforcements may be placed: a
    line along railroad hexsides only back to a friendly source, every hex
    of it (source and placement hex included) clear of enemy ZOC even where
    a friendly unit stands.  Stacking is the caller's (placement)."""
    base = _step(b, side)

    def clear(h: str) -> bool:
        return not b.in_enemy_zoc(h, side)

    def step(a: str, c: str) -> bool:
        return b.map.rail(a, c) and clear(c) and base(a, c)

    usable = _source_ok(b, side)
    sources = [s for s in sorted(b.map.supply.get(side, ())) if usable(s) and clear(s)]
    found = traced(sources, b.map.neighbors, step)
    return {h for h in found if b.map.on_rail(h)}


# ------------------------------------------------------------ optional 17.6
def _back(b: Board, lengths: dict[str, int], end: str, step: Step, stop: Callable[[str], bool]) -> list[str]:
    """One shortest line found by :func:`_trace`, walked back from ``end``
    until ``stop``: each hex before is one shorter, passable (or a start)
    and may step into the next."""
    passable = _passable(b, AXIS)
    chain = [end]
    while not stop(chain[-1]):
        h = chain[-1]
        chain.append(next(n for n in b.map.neighbors(h) if lengths.get(n) == lengths[h] - 1
                          and (lengths[n] == 0 or passable(n)) and step(n, h)))
    return chain


def loc_rail_lines(b: Board, uid: str, *, without_lines: Iterable[str] = ()) -> frozenset[str] | None:
    """The railroad lines an Axis LOC of ``uid`` runs along, avoiding
    ``without_lines``; None when there is no such LOC.  The line named is a
    shortest one: fewest hexes off the rail, then fewest along it."""
    h = b.unit(uid).get("hex")
    if not h:
        return None
    banned = set(without_lines)
    sides = _rail_sides(b, banned)
    network, off = _network_legs(b, AXIS, sorted(b.map.supply.get(AXIS, ())), sides, AXIS_OFF_RAIL)
    if h not in network and h not in off:
        return None
    rail_end = h if h in network else _back(b, off, h, _step(b, AXIS), lambda x: off[x] == 0)[-1]
    chain = _back(b, network, rail_end, _along(b, AXIS, sides), lambda x: network[x] == 0)
    used = {side_key(x, y) for x, y in zip(chain, chain[1:])}
    return frozenset(name for name, line in b.map.rail_lines.items() if name not in banned
                     and any(side_key(x, y) in used for x, y in zip(line, line[1:])))


def pzg_second_activation(b: Board, hq_uid: str, used_lines: Iterable[str]) -> frozenset[str] | None:
    """AVA 17.6: a Panzergruppe HQ may take its second activation of the
    turn only with an LOC that avoids the rail lines other PzG HQs used
    earlier this turn.  Returns the lines this LOC uses (for the caller to
    add to the turn's record), or None: not eligible."""
    return loc_rail_lines(b, hq_uid, without_lines=used_lines)
