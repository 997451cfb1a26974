"""Step losses: every way an owner may spread a combat result's steps.

Hex-and-counter games with step reduction (A Victory Denied 9.4.2, A
Victory Awaits and Fierce Fight! 10.5) let the owner of the units hit
decide which of them absorb a loss of N steps: a step flips a full-strength
counter, or removes a reduced or one-step one, so each counter can absorb at
most the steps it has left.  When the result asks for more steps than the
stack has, every step is taken and the surplus is ignored.

The game says which counters share the loss and how many steps each has
left (a *pool*: key -> steps; a fortress marker or another pseudo-unit is
just one more key); this module lists the allocations, in a fixed order
(lexicographic by the pool's key order, fewer steps on the first key
first), and says why a proposed one is not among them.  Where the steps
go afterwards (a box, a victory count) is the game's business.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

Pool = Mapping[str, int]
"""Counter -> steps it has left; the order of the keys is the order of the
allocations :func:`allocations` lists."""


def needed(pool: Pool, steps: int) -> int:
    """How many steps the owner must actually allocate: the result's, or
    every step the stack has when that is fewer."""
    if steps < 0:
        raise ValueError(f"negative step loss {steps}")
    return min(steps, sum(pool.values()))


def allocations(pool: Pool, steps: int) -> list[dict[str, int]]:
    """Every allocation of :func:`needed` steps over ``pool``: each maps a
    counter to the steps it loses (counters losing none left out), no
    counter past its own steps.  The order is that of ``itertools.product``
    over ``range(pool[k] + 1)`` filtered by the total, so a game moving
    to this function keeps its options' order (recorded games and
    standing orders that take "the first option" are unaffected)."""
    for k, have in pool.items():
        if have < 0:
            raise ValueError(f"{k} has a negative number of steps ({have})")
    return list(_spread(list(pool.items()), needed(pool, steps)))


def _spread(items: list[tuple[str, int]], left: int) -> Iterator[dict[str, int]]:
    """Allocations of exactly ``left`` steps over ``items`` in product order;
    a branch that can no longer reach the total is cut at once."""
    if not items:
        if left == 0:
            yield {}
        return
    (key, have), rest = items[0], items[1:]
    room = sum(h for _, h in rest)
    for n in range(min(have, left) + 1):
        if left - n > room:
            continue
        for tail in _spread(rest, left - n):
            yield {key: n, **tail} if n else tail


def fault(pool: Pool, steps: int, alloc: Mapping[str, int],
          name: Callable[[str], str] = str) -> str | None:
    """Why ``alloc`` is not one of :func:`allocations`, in one line naming
    counters by ``name``; None when it is."""
    for k, n in alloc.items():
        if k not in pool:
            return f"{name(k)} is not among the units taking the loss"
        if not 0 <= n <= pool[k]:
            return f"{name(k)} has {pool[k]} step(s) left, so it cannot lose {n}"
    need, given = needed(pool, steps), sum(alloc.values())
    if given != need:
        return f"{need} step loss(es) to take, {given} allocated"
    return None


__all__ = ["Pool", "allocations", "fault", "needed"]
