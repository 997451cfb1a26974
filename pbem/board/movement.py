"""Where a unit can move with its Movement Points.

The kernel knows nothing of terrain, rivers, roads or zones of control: the
game folds all of them into one ``step_cost(a, b)`` callable giving the MP a
unit spends to go from hex ``a`` into the adjacent hex ``b`` (``None`` when
the step is prohibited).  MP are plain integers in whatever unit the game
chooses; a game with half-MP road movement counts in half MP.

Some steps end the move however many MP remain: crossing an unbridged major
river, for instance, or entering an enemy zone of control in games where that
stops a unit.  The game says which through ``must_stop(a, b)``.  A hex entered
by such a step is a dead end for the search, but the same hex may also be
reachable by another route that does not stop there, and the search keeps
both possibilities apart so that neither hides the other.

Stacking limits apply only where a move ends.  ``may_end(h)`` lets the game
mark hexes a unit may pass through but not stop in; they stay in
``Reach.cost`` (a unit can move through them) but are left out of
``Reach.endable``.
"""
from __future__ import annotations

import heapq
from typing import Callable, Iterable

StepCost = Callable[[str, str], int | None]
MustStop = Callable[[str, str], bool]

# A search state: the hex and whether the unit had to stop on entering it.
_State = tuple[str, bool]


class Reach:
    """The result of :func:`reachable`.

    ``cost[h]`` is the fewest MP needed to enter ``h`` (the start costs 0);
    ``parent[h]`` is the hex before ``h`` on one cheapest path (None for the
    start).  ``endable`` is the subset of ``cost`` where the move may end.
    Use :meth:`path_to` rather than walking ``parent`` by hand: when a
    must-stop step is involved, the cheapest way to a hex and the way that
    lets the unit continue from it can differ.

    A plain class with the methods ``@dataclass`` would write (the same
    arguments, repr without the search's own tables, equality of all five;
    unhashable), not the decorator: speed only, the decorator compiles them
    at every cold start (tests/test_board_speed_plain_reach.py).
    """

    __match_args__ = ("cost", "parent", "endable", "_paths", "_best")
    __hash__ = None     # type: ignore[assignment]      # (mutable and compared by value, as a dataclass)

    def __init__(self, cost: dict[str, int], parent: dict[str, str | None], endable: set[str] | None = None,
                 _paths: dict[_State, _State | None] | None = None, _best: dict[str, _State] | None = None) -> None:
        self.cost = cost
        self.parent = parent
        self.endable: set[str] = set() if endable is None else endable
        self._paths: dict[_State, _State | None] = {} if _paths is None else _paths
        self._best: dict[str, _State] = {} if _best is None else _best

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(cost={self.cost!r}, parent={self.parent!r}, endable={self.endable!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return (self.cost, self.parent, self.endable, self._paths, self._best) == \
                (other.cost, other.parent, other.endable, other._paths, other._best)  # type: ignore[attr-defined]
        return NotImplemented

    def path_to(self, h: str) -> list[str]:
        """A cheapest path from the start to ``h``, both included.
        ValueError if ``h`` was not reached."""
        if h not in self._best:
            raise ValueError(f"hex {h} is out of reach")
        out: list[str] = []
        state: _State | None = self._best[h]
        while state is not None:
            out.append(state[0])
            state = self._paths[state]
        out.reverse()
        return out


def reachable(start: str, allowance: int, neighbors: Callable[[str], Iterable[str]],
              step_cost: StepCost, must_stop: MustStop | None = None,
              may_end: Callable[[str], bool] | None = None) -> Reach:
    """Every hex a unit in ``start`` can enter spending at most ``allowance``
    MP (Dijkstra over non-negative step costs).

    A step costing more than the MP left is not taken: there is no
    "always move one hex" minimum here; a game that has one can add the
    start's neighbours itself.
    """
    if allowance < 0:
        raise ValueError(f"negative movement allowance {allowance}")
    dist: dict[_State, int] = {(start, False): 0}
    back: dict[_State, _State | None] = {(start, False): None}
    done: set[_State] = set()
    queue: list[tuple[int, str, bool]] = [(0, start, False)]
    while queue:
        spent, h, stopped = heapq.heappop(queue)
        state = (h, stopped)
        if state in done:
            continue
        done.add(state)
        if stopped:
            continue
        for n in neighbors(h):
            step = step_cost(h, n)
            if step is None:
                continue
            if step < 0:
                raise ValueError(f"negative step cost {step} from {h} to {n}")
            total = spent + step
            if total > allowance:
                continue
            nstate = (n, bool(must_stop and must_stop(h, n)))
            if total < dist.get(nstate, allowance + 1):
                dist[nstate] = total
                back[nstate] = state
                heapq.heappush(queue, (total, n, nstate[1]))
    return _reach_from(dist, back, may_end)


def _reach_from(dist: dict[_State, int], back: dict[_State, _State | None],
                may_end: Callable[[str], bool] | None) -> Reach:
    best: dict[str, _State] = {}
    for state, spent in dist.items():
        h = state[0]
        # Prefer the cheaper state; on a tie, the one that did not stop.
        if h not in best or (spent, state[1]) < (dist[best[h]], best[h][1]):
            best[h] = state
    cost = {h: dist[s] for h, s in best.items()}
    parent = {h: (None if back[s] is None else back[s][0]) for h, s in best.items()}  # type: ignore[index]
    endable = {h for h in cost if may_end is None or may_end(h)}
    return Reach(cost=cost, parent=parent, endable=endable, _paths=back, _best=best)


def path_cost(path: list[str], step_cost: StepCost, must_stop: MustStop | None = None,
              neighbors: Callable[[str], Iterable[str]] | None = None) -> int:
    """MP spent along ``path`` (start hex first).  ValueError naming the
    first illegal step: a prohibited step, a step after one that ended the
    move, or (when ``neighbors`` is given) a jump to a non-adjacent hex."""
    if not path:
        raise ValueError("empty path")
    total = 0
    stopped_at: str | None = None
    for a, b in zip(path, path[1:]):
        if stopped_at is not None:
            raise ValueError(f"{a} -> {b}: the move had to stop in {stopped_at}")
        if neighbors is not None and b not in set(neighbors(a)):
            raise ValueError(f"{a} -> {b}: not adjacent")
        step = step_cost(a, b)
        if step is None:
            raise ValueError(f"{a} -> {b}: prohibited")
        total += step
        if must_stop is not None and must_stop(a, b):
            stopped_at = b
    return total
