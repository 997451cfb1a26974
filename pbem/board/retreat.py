"""Retreat after combat: every legal route, then the rules' preferences.

A retreat is not movement: no MP are spent, but the defender must cover an
exact number of hexes, never doubling back over a hex it already left.  The
kernel enumerates every such route with the game's ``can_enter(prev, next)``
test (enemy units, prohibited hexsides, map edge...) and then narrows them
with the game's ordered priorities, each a number to minimise, for example:

1. hexes entered in enemy ZOC (each costs a step),
2. hexes not closer to a friendly supply source,
3. an over-stacked final hex.

Whatever ties remain are the owner's choice.  Paths are returned WITHOUT the
start hex.  A unit with no route at all is the game's business (usually it
is eliminated).
"""
from __future__ import annotations

from typing import Callable, Iterable, Sequence

Neighbors = Callable[[str], Iterable[str]]
CanEnter = Callable[[str, str], bool]


def retreat_paths(start: str, length: int, neighbors: Neighbors,
                  can_enter: CanEnter) -> list[list[str]]:
    """All simple paths entering exactly ``length`` hexes from ``start``
    (start excluded, never re-entered), each step passing ``can_enter``.
    ``length`` 0 gives the one empty path."""
    if length < 0:
        raise ValueError(f"negative retreat length {length}")
    out: list[list[str]] = []
    path: list[str] = []
    on_path = {start}

    def extend(here: str) -> None:
        if len(path) == length:
            out.append(list(path))
            return
        for n in neighbors(here):
            if n in on_path or not can_enter(here, n):
                continue
            path.append(n)
            on_path.add(n)
            extend(n)
            on_path.discard(n)
            path.pop()

    extend(start)
    return out


def retreat_paths_until(start: str, length: int, neighbors: Neighbors, can_enter: CanEnter,
                        may_end: Callable[[str], bool], max_extra: int = 3) -> list[list[str]]:
    """Retreat routes for rules where a retreat that would end over-stacked
    goes on one more hex, and again, until it may stop (AVD 9.5.5).

    Returns paths of ``length`` to ``length + max_extra`` hexes whose last
    hex passes ``may_end``; a route is carried on only when its current last
    hex fails ``may_end``.  Routes that cannot stop within ``max_extra``
    extra hexes are dropped."""
    if max_extra < 0:
        raise ValueError(f"negative max_extra {max_extra}")
    out: list[list[str]] = []
    pending = retreat_paths(start, length, neighbors, can_enter)
    for extra in range(max_extra + 1):
        carried: list[list[str]] = []
        for p in pending:
            last = p[-1] if p else start
            if may_end(last):
                out.append(p)
            elif extra < max_extra:
                carried.extend(_one_more(start, p, neighbors, can_enter))
        pending = carried
    return out


def _one_more(start: str, path: list[str], neighbors: Neighbors,
              can_enter: CanEnter) -> list[list[str]]:
    here = path[-1] if path else start
    used = set(path) | {start}
    return [path + [n] for n in neighbors(here) if n not in used and can_enter(here, n)]


def best_paths(paths: Iterable[list[str]],
               priorities: Sequence[Callable[[list[str]], int]]) -> list[list[str]]:
    """The paths whose tuple of priority values (first priority most
    important, lower better) is smallest; all tied paths are kept, in their
    original order, for the owner to choose among.  Each priority must be
    a pure function of the path."""
    # One priority at a time, each asked only of the paths tied on the ones
    # before (speed only: a later priority often has one path left to
    # rank): the paths left after the last are those whose whole tuple is
    # the smallest, as comparing the tuples finds them.
    kept = list(paths)
    for priority in priorities:
        if len(kept) < 2:
            break
        scores = [priority(path) for path in kept]
        low = min(scores)
        kept = [path for score, path in zip(scores, kept) if score == low]
    return kept
