"""Area maps: a graph of areas joined by borders, for area-movement games
(Moscow '41 and its kin).

An area game has no grid: an area touches whichever areas its outline
touches, and a border between two areas may carry features (a river along
it, a road or rail line across it).  :class:`AreaGraph` holds that graph and
answers the questions every area game asks:

* ``neighbors(a)`` and ``feature(a, b, name)`` — who touches whom, across what;
* :meth:`AreaGraph.path_cost` and :meth:`AreaGraph.cheapest` — what a path
  costs when the game prices each step (terrain, weather, a border feature);
* :meth:`AreaGraph.reachable` — every area within an allowance, with a rule
  for areas a mover must stop in (entering an enemy-held area ends a move);
* :meth:`AreaGraph.within` — areas within N steps along permitted areas (a
  command range, an air range);
* :meth:`AreaGraph.traced` — which areas can trace a line to a source through
  permitted areas (a line of communication), where a line may start in an
  area it could not pass through.

Costs are integers (the canonical form forbids floats): a game that needs
half points counts in halves.  Nothing here knows sides, terrain names or
weather; the game passes callables.
"""
from __future__ import annotations

import heapq
from collections import deque
from typing import Any, Callable, Iterable, Mapping, Sequence

Cost = Callable[[str, str], int | None]
"""Price of stepping from area ``a`` into neighbouring area ``b``; ``None``
means the step is forbidden."""


class AreaGraph:
    """An undirected graph of areas.  ``edges`` are ``(a, b, features)``
    triples; features is a mapping such as ``{"river": "Dnieper", "road":
    True}``.  A border listed twice keeps the union of its features."""

    def __init__(self, areas: Iterable[str], edges: Iterable[tuple[str, str, Mapping[str, Any]]]):
        self._areas: tuple[str, ...] = tuple(dict.fromkeys(areas))
        known = set(self._areas)
        self._adj: dict[str, dict[str, dict[str, Any]]] = {a: {} for a in self._areas}
        for a, b, feats in edges:
            if a not in known or b not in known:
                raise ValueError(f"border {a}-{b} names an unknown area")
            if a == b:
                raise ValueError(f"border {a}-{b} joins an area to itself")
            shared = self._adj[a].setdefault(b, {})
            shared.update(feats)
            self._adj[b][a] = shared

    @property
    def areas(self) -> tuple[str, ...]:
        return self._areas

    def __contains__(self, area: object) -> bool:
        return area in self._adj

    def neighbors(self, area: str) -> list[str]:
        """The areas sharing a border with ``area``, in a stable order."""
        return sorted(self._adj[area], key=_natural)

    def adjacent(self, a: str, b: str) -> bool:
        return b in self._adj.get(a, {})

    def feature(self, a: str, b: str, name: str) -> Any:
        """The value of border feature ``name`` between a and b (None when the
        border lacks it).  KeyError when a and b do not touch."""
        return self._adj[a][b].get(name)

    def features(self, a: str, b: str) -> dict[str, Any]:
        return dict(self._adj[a][b])

    def path_cost(self, path: Sequence[str], cost: Cost) -> int | None:
        """Total price of walking ``path`` (its first area is where the mover
        stands and costs nothing); None if two consecutive areas do not touch
        or a step is forbidden."""
        total = 0
        for a, b in zip(path, path[1:]):
            if not self.adjacent(a, b):
                return None
            step = cost(a, b)
            if step is None:
                return None
            total += step
        return total

    def cheapest(self, start: str, goal: str, cost: Cost,
                 can_pass: Callable[[str], bool] = lambda a: True) -> tuple[int, list[str]] | None:
        """The cheapest path from start to goal (Dijkstra), as (cost, path).
        ``can_pass(x)`` false means a path may end in ``x`` but not continue
        through it.  None when the goal cannot be reached."""
        best = self._search(start, cost, can_pass, None)
        if goal not in best:
            return None
        path = [goal]
        while path[-1] != start:
            path.append(best[path[-1]][1])
        return best[goal][0], path[::-1]

    def reachable(self, start: str, allowance: int, cost: Cost,
                  can_pass: Callable[[str], bool] = lambda a: True) -> dict[str, int]:
        """Every area reachable from ``start`` for at most ``allowance``, with
        its cheapest cost (``start`` itself at 0)."""
        return {a: c for a, (c, _) in self._search(start, cost, can_pass, allowance).items()}

    def _search(self, start: str, cost: Cost, can_pass: Callable[[str], bool],
                limit: int | None) -> dict[str, tuple[int, str]]:
        best: dict[str, tuple[int, str]] = {start: (0, start)}
        heap: list[tuple[int, tuple[int, str], str]] = [(0, _natural(start), start)]
        while heap:
            spent, _, here = heapq.heappop(heap)
            if spent > best[here][0]:
                continue
            if here != start and not can_pass(here):
                continue
            for there in self.neighbors(here):
                step = cost(here, there)
                if step is None:
                    continue
                total = spent + step
                if limit is not None and total > limit:
                    continue
                if there not in best or total < best[there][0]:
                    best[there] = (total, here)
                    heapq.heappush(heap, (total, _natural(there), there))
        return best

    def within(self, start: str, steps: int, can_pass: Callable[[str], bool] = lambda a: True) -> dict[str, int]:
        """Areas at most ``steps`` borders from ``start``, each with its
        distance.  A range may end in an area failing ``can_pass`` but not
        run through it (a command range stops at an enemy-held area)."""
        return self.reachable(start, steps, lambda a, b: 1, can_pass)

    def traced(self, sources: Iterable[str], can_enter: Callable[[str], bool],
               can_start: Callable[[str], bool] = lambda a: True) -> set[str]:
        """The areas that can trace a line to one of ``sources``.

        A line runs through areas satisfying ``can_enter`` (a source counts
        only if it does too).  An area that fails ``can_enter`` may still
        trace if it is adjacent to an area on a line and ``can_start`` holds
        for it: a line may begin in an area it could not run through (a
        contested area, for a unit engaged there)."""
        linked: set[str] = set()
        queue: deque[str] = deque()
        for s in sources:
            if s in self._adj and can_enter(s) and s not in linked:
                linked.add(s)
                queue.append(s)
        while queue:
            here = queue.popleft()
            for there in self._adj[here]:
                if there not in linked and can_enter(there):
                    linked.add(there)
                    queue.append(there)
        starts = {a for a in self._areas if a not in linked and can_start(a)
                  and any(n in linked for n in self._adj[a])}
        return linked | starts


def _natural(area: str) -> tuple[int, str]:
    """Sort key putting "9" before "10" and names after numbers."""
    digits = "".join(ch for ch in area if ch.isdigit())
    return (int(digits) if digits and area[0].isdigit() else 10**9, area)
