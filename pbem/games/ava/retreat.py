"""Retreat after combat (AVA 10.6; FFS 10.6).

The kernel (:mod:`pbem.board.retreat`) lists every route of the result's
length, carries a route that would end over-stacked on hex by hex
(10.6(5); FFS 10.6.4), and keeps the best by the profile's priorities:

* ``ava`` (10.6(6), notes A10): avoid elimination, then step losses, then
  overstacking, then end as far away as the retreat runs (notes A11),
  then head for the nearest hex with the shortest LOC;
* ``ffs`` (10.6.5, notes #33): avoid elimination, then the fewest hexes in
  enemy ZOC, then stacking, then the full distance, then get closer to a
  hex that can trace a LOC.

Each unit retreats on its own (a stack may split, 10.6(2)); options are
worked out against the board as it stands, so the caller asks again after
each unit has moved.  The friendly LOC is given as a callable
(``loc_distance(hex)`` -> LOC length, None where no LOC can be traced),
which the supply module provides.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from pbem.board import retreat as kretreat
from pbem.game import IllegalOrder
from pbem.games.ava.board import Board
from pbem.games.ava.combat import may_enter
from pbem.games.ava.movement import stacking_refusal

LocDistance = Callable[[str], int | None]
MAX_EXTRA = 6        # 10.6(5): over-stacked extensions searched before a unit is given up
_FAR = 10 ** 6       # no hex with a LOC anywhere


@dataclass(frozen=True)
class RetreatPath:
    """One route (start excluded).  ``steps``: the step losses it costs,
    one per hex entered in enemy ZOC (10.6(4), notes A9); ``extra``: hexes
    beyond the result's length, forced by over-stacking."""

    hexes: tuple[str, ...]
    steps: int
    extra: int


@dataclass(frozen=True)
class RetreatOptions:
    """Per unit, the routes its owner may choose among; an empty tuple
    means the unit is eliminated (10.6(3), (7))."""

    length: int
    paths: dict[str, tuple[RetreatPath, ...]]

    def eliminated(self) -> list[str]:
        return [u for u, p in self.paths.items() if not p]


def fits(b: Board, h: str, uid: str) -> bool:
    """Whether ``uid`` may end its retreat or advance in ``h`` within the
    stacking limit (3.1: checked at the end of a retreat and of an advance)."""
    return stacking_refusal(b, uid, h) is None


def zoc_steps(b: Board, side: str, hexes: Iterable[str]) -> int:
    """Hexes in enemy ZOC a retreat enters; a friendly unit there does not
    help (FFS 10.6.3, notes A9), a fortress hex does (14.2)."""
    return sum(1 for h in hexes if b.in_enemy_zoc(h, side))


def _can_enter(b: Board, uid: str, start: str, surprise: bool) -> Callable[[str, str], bool]:
    any_major = b.profile.retreat_major_river_later_hex == "any"

    def can_enter(a: str, c: str) -> bool:
        if not may_enter(b, uid, a, c):
            return False
        if a != start and not surprise and b.map.river(a, c) == "major":
            # AVA 10.6(3): only unbridged; FFS 10.6.2(4): bridged or not; A47: every later hex
            return not (any_major or not b.map.bridged(a, c))
        return True

    return can_enter


def legal_paths(b: Board, uid: str, length: int, *, surprise: bool = False) -> list[RetreatPath]:
    """Every route the retreat rules allow, before the priorities.  The
    Surprise Attack ignores rivers (15.1, notes A17)."""
    start = b.unit(uid)["hex"]
    if not start:
        raise ValueError(f"{uid} is not on the map")
    if length <= 0:
        return [RetreatPath((), 0, 0)]
    side = b.spec(uid).side
    routes = kretreat.retreat_paths_until(start, length, b.map.neighbors, _can_enter(b, uid, start, surprise),
                                          lambda h: fits(b, h, uid), MAX_EXTRA)
    return [RetreatPath(tuple(p), zoc_steps(b, side, p), len(p) - length) for p in routes]


class _LocNear:
    """For a hex: how far (in hexes) the nearest hex with a LOC is, and the
    shortest LOC among the hexes that near (0 and the hex's own LOC when
    it has one)."""

    def __init__(self, b: Board, loc_distance: LocDistance) -> None:
        self.b, self.loc = b, loc_distance
        self.cache: dict[str, tuple[int, int]] = {}

    def __call__(self, h: str) -> tuple[int, int]:
        found = self.cache.get(h)
        if found is None:
            found = self.cache[h] = self._search(h)
        return found

    def _search(self, h: str) -> tuple[int, int]:
        on_map = self.b.map.on_map
        for ring, hexes in self.b.map.grid.by_distance(h).items():
            lengths = [n for x in hexes if on_map(x) and (n := self.loc(x)) is not None]
            if lengths:
                return ring, min(lengths)
        return _FAR, 0


Criterion = tuple[str, Callable[[list[str]], int]]
"""A retreat priority: what a route does worse when it scores higher (for
the refusal line), and the score, lower is better."""


def _priorities(b: Board, uid: str, loc_distance: LocDistance) -> list[Criterion]:
    steps = int(b.unit(uid)["steps"])
    side = b.spec(uid).side
    start = str(b.unit(uid)["hex"])
    losses: dict[tuple[str, ...], int] = {}
    near = _LocNear(b, loc_distance)

    def zoc(p: list[str]) -> int:
        key = tuple(p)
        if key not in losses:
            losses[key] = zoc_steps(b, side, p)
        return losses[key]

    def elimination(p: list[str]) -> int:
        return 1 if zoc(p) >= steps else 0

    def end(p: list[str]) -> str:
        return p[-1] if p else start

    def nearest(p: list[str]) -> int:
        return near(end(p))[0]

    def shortest(p: list[str]) -> int:
        return near(end(p))[1]

    def shortfall(p: list[str]) -> int:
        # notes A11 / FFS [I]: a retreat ends as many hexes away as it runs when it can
        return len(p) - b.map.distance(start, end(p))

    # Every route is at least the result's length: a longer one was forced on by over-stacking.
    out: list[Criterion] = [
        ("eliminates the unit", elimination),
        ("enters more hexes in enemy ZOC", zoc),
        ("runs on further past over-stacked hexes", len),
        ("ends nearer the start than it could", shortfall),
        ("ends further from a hex with an LOC", nearest)]
    if b.profile.retreat_priority == "ava":
        # 10.6(6): the hex with the shortest LOC among the nearest
        out.append(("ends where the LOC is longer", shortest))
    return out


def best(b: Board, uid: str, length: int, *, loc_distance: LocDistance,
         surprise: bool = False) -> tuple[RetreatPath, ...]:
    """The routes ``uid`` may take after the profile's priorities; empty
    when it is eliminated: no route at all, or every route costs all its
    steps."""
    by_route = {p.hexes: p for p in legal_paths(b, uid, length, surprise=surprise)}
    keys = [score for _, score in _priorities(b, uid, loc_distance)]
    chosen = kretreat.best_paths([list(h) for h in by_route], keys)
    out = tuple(by_route[tuple(p)] for p in chosen)
    if not out or out[0].steps >= int(b.unit(uid)["steps"]):
        return ()
    return out


def options(b: Board, uids: Iterable[str], length: int, *, loc_distance: LocDistance,
            surprise: bool = False) -> RetreatOptions:
    """Each unit's best routes for a retreat of ``length`` hexes."""
    return RetreatOptions(length, {u: best(b, u, length, loc_distance=loc_distance, surprise=surprise)
                                   for u in uids})


def check_path(b: Board, uid: str, hexes: list[str], length: int, *, loc_distance: LocDistance,
               surprise: bool = False) -> RetreatPath:
    """The chosen route if the rules allow it, else IllegalOrder naming a
    better one and the priority the chosen one loses on (10.6)."""
    name = b.spec(uid).name
    chosen = best(b, uid, length, loc_distance=loc_distance, surprise=surprise)
    for p in chosen:
        if p.hexes == tuple(hexes):
            return p
    if not chosen:
        raise IllegalOrder(f"{name} cannot retreat: it is eliminated (10.6)")
    legal = {p.hexes: p for p in legal_paths(b, uid, length, surprise=surprise)}
    better = "-".join(chosen[0].hexes)
    got = legal.get(tuple(hexes))
    if got is None:
        raise IllegalOrder(f"{name}: {'-'.join(hexes) or 'staying put'} is not a legal retreat of "
                           f"{length} (e.g. {better})")
    why = _worse_on(_priorities(b, uid, loc_distance), list(hexes), list(chosen[0].hexes))
    raise IllegalOrder(f"{name}: {'-'.join(hexes)} costs {got.steps} step(s) against {chosen[0].steps} for "
                       f"{better}, and it {why} (10.6)")


def _worse_on(criteria: list[Criterion], route: list[str], best_route: list[str]) -> str:
    """The first priority on which ``route`` scores worse than ``best_route``."""
    for label, score in criteria:
        if score(route) != score(best_route):
            return label
    return "is not among the best routes"


__all__ = ["LocDistance", "RetreatOptions", "RetreatPath", "best", "check_path", "fits",
           "legal_paths", "options", "zoc_steps"]
