"""A range in hexes where some hexes count half: command radius along roads.

Several games measure an HQ's command (and supply) radius in hexes, but
let hexes entered along a road or railroad count only half a hex (Victory
Roads 1.2.2), and stop the path at what blocks it: enemy units, hexes next
to the enemy that no friendly unit holds, unbridged major rivers (VR
1.2.3-1.2.4).  That is a shortest-path search in half-hex units, which the
movement kernel already does: :func:`radius_reach` calls
:func:`pbem.board.movement.reachable` with an allowance of twice the
radius, a step of 1 (half a hex) along a connected line and 2 otherwise.

The origin hex does not count (the radius runs from the HQ's hex,
exclusive, to the target, inclusive).  Because the radius is a whole
number of hexes, "the half hexes add up to at most the radius" and "rounded
up, at most the radius" are the same test, so no rounding question arises.
"""
from __future__ import annotations

from typing import Callable, Iterable

from .movement import reachable


def radius_reach(origin: str, radius: int, neighbors: Callable[[str], Iterable[str]],
                 half_step: Callable[[str, str], bool], can_enter: Callable[[str, str], bool],
                 can_leave: Callable[[str], bool] | None = None) -> dict[str, int]:
    """Every hex within ``radius`` of ``origin``, mapped to its distance in
    half hexes (origin 0).  ``half_step(a, b)``: the step from ``a`` into
    ``b`` counts half (it follows a road or rail hexside); ``can_enter(a,
    b)``: the step is allowed at all.  ``can_leave(h)``: a path may
    continue beyond ``h`` (default yes); a hex failing it is reached but
    is a dead end."""
    if radius < 0:
        raise ValueError(f"negative radius {radius}")

    def cost(a: str, b: str) -> int | None:
        if not can_enter(a, b):
            return None
        return 1 if half_step(a, b) else 2

    stop = None if can_leave is None else (lambda a, b: not can_leave(b))
    return dict(reachable(origin, 2 * radius, neighbors, cost, stop).cost)
