"""Step losses and retreats of one battle side, as lists of legal choices.

Attrition (7.8): the first step goes to an Elite unit when the side used
its Elite bonus, to an armored unit under Armored Exploitation (the
opposing player picks when both apply, 7.8.1); then every unit loses one
step before any loses a second (7.8.2); HQs only when nothing else is left;
in a mixed attack the German or Soviet units first (7.11.2); in an
exploitation attack a Soviet armored corps first (8.3.2, R-45).  Tactical
losses (7.9.6) are free, but an HQ still comes last (R-63).

Retreat (7.10): exactly N hexes from the start (R-17), never into an enemy
unit, an impassable hexside or a closed hex; each hex entered is judged by
the priority classes of 7.10.5-7.10.6 (R-15, R-16) and the best sequence
of classes wins, so a greedy first step never forces an avoidable
elimination; a retreat that ends overstacked goes on (7.10.10).
"""
from __future__ import annotations

from typing import Callable

from pbem.board.retreat import retreat_paths_until
from pbem.games.vr import stacking
from pbem.games.vr.board import Board
from pbem.games.vr.model import GERMAN

Alloc = dict[str, int]


def allocations(b: Board, units: list[str], n: int, *, first: set[str] | None = None,
                spread: bool = True, majors_first: bool = False) -> list[Alloc]:
    """Every distinct way ``units`` can take ``n`` step losses (more than
    they hold: all of them).  Each allocation maps a unit to its losses."""
    steps = {u: b.unit(u)["steps"] for u in units}
    total = sum(steps.values())
    if n >= total:
        return [dict(steps)] if total else [{}]
    found: dict[tuple[tuple[str, int], ...], Alloc] = {}

    def walk(taken: Alloc, left: int) -> None:
        if left == 0:
            key = tuple(sorted((u, k) for u, k in taken.items() if k))
            found.setdefault(key, {u: k for u, k in key})
            return
        alive = [u for u in units if taken.get(u, 0) < steps[u]]
        pool = [u for u in alive if not b.spec(u).is_hq] or alive        # 7.8.2: HQs last
        if spread:
            least = min(taken.get(u, 0) for u in pool)
            pool = [u for u in pool if taken.get(u, 0) == least]
        if majors_first:
            # 7.11.2: German (or Soviet) units first *within* 7.8.2's rounds:
            # a German unit takes a second step only after every unit took one
            pool = [u for u in pool if b.spec(u).nationality not in ("hun", "rum")] or pool
        if first and left == n and pool_has(pool, first):
            pool = [u for u in pool if u in first]
        for u in pool:
            taken[u] = taken.get(u, 0) + 1
            walk(taken, left - 1)
            taken[u] -= 1

    walk({}, n)
    return [found[k] for k in sorted(found)]


def pool_has(pool: list[str], wanted: set[str]) -> bool:
    return any(u in wanted for u in pool)


# ------------------------------------------------------------------ retreat
DIRECTIONS = {GERMAN: ("NW", "SW", "S"), "soviet": ("N", "NE", "SE")}


def direction(b: Board, a: str, c: str) -> str:
    """R-16: the compass direction of the hexside from ``a`` to ``c`` on
    the flat-topped grid."""
    ca, ra = b.map.grid.col_row(a)
    cc, rc = b.map.grid.col_row(c)
    shoved = 1 if b.map.grid.offset.startswith("odd") else 0
    ya = 2 * ra + (1 if ca % 2 == shoved else 0)
    yc = 2 * rc + (1 if cc % 2 == shoved else 0)
    if cc == ca:
        return "N" if rc < ra else "S"
    ew = "E" if cc > ca else "W"
    return ("N" if yc < ya else "S") + ew


def _enemy_distance(b: Board, side: str, h: str) -> int:
    enemy = [x for x in b.at if b.enemy_occupied(x, side)]
    return min((b.map.distance(h, e) for e in enemy), default=99)


def retreat_class(b: Board, uid: str, a: str, c: str) -> int:
    """The priority class of the step a -> c (7.10.5-7.10.6): 1 towards
    the side's retreat directions and away from the enemy, 2 towards them,
    3 away in another direction, 9 none of these (R-15, R-16)."""
    side = b.side_of(uid)
    away = _enemy_distance(b, side, c) > _enemy_distance(b, side, a)
    good = direction(b, a, c) in DIRECTIONS[side]
    return 1 if good and away else 2 if good else 3 if away else 9


def retreat_options(b: Board, uid: str, length: int, closed: Callable[[str], bool] | None = None,
                    stop: Callable[[str], bool] | None = None) -> list[list[str]]:
    """The best legal retreat paths of ``uid`` (start excluded), in the
    priority order of 7.10.5-7.10.6; empty: the unit is eliminated.
    ``stop``: hexes a retreat ends in as soon as it enters them (an
    isolated Haltebefehl for German units, 6.7.7)."""
    if stop is not None:
        out = []
        for n in range(1, length + 1):
            for p in retreat_options(b, uid, n, closed, None):
                if any(stop(h) for h in p[:-1]):
                    continue
                if n == length or stop(p[-1]):
                    out.append(p)
        return out
    from pbem.games.vr.moves import minor_border_closed
    start = b.unit(uid)["hex"]
    side = b.side_of(uid)
    if b.move(uid) <= 0:
        return []                                      # 7.10.13

    def can_enter(a: str, c: str) -> bool:
        if not b.map.on_map(c) or b.map.impassable(a, c) or b.enemy_occupied(c, side):
            return False
        if closed is not None and closed(c):
            return False
        if minor_border_closed(b, uid, c):
            return False                               # 1.7.5
        return b.scn.terrain[b.map.terrain_of(c)[0]].mp is not None or any(
            b.scn.terrain[t].mp is not None for t in b.map.types(c))

    def may_end(h: str) -> bool:
        if b.map.distance(start, h) < length:
            return False
        here = [b.spec(u) for u in b.units_at(h) if u != uid and b.side_of(u) == side] + [b.spec(uid)]
        return not stacking.problems(here, side, b.profile)

    paths = [p for p in retreat_paths_until(start, length, b.map.neighbors, can_enter, may_end)
             if b.map.distance(start, p[length - 1]) == length]
    scored = []
    for p in paths:
        classes = []
        prev = start
        for c in p:
            classes.append(retreat_class(b, uid, prev, c))
            prev = c
        if 9 not in classes:
            scored.append((classes, p))
    if not scored:
        return []
    best = min(c for c, _ in scored)
    return [p for c, p in scored if c == best]
