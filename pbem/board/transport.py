"""Rail and sea transport paid from a capacity per turn.

Operational games move units by rail or by sea outside their own movement
points: the side has a number of *capacity points* each turn (Victory
Roads 6.4: the scenario's Rail Capacity; 6.5: three Naval Capacity points),
each unit moved costs points by its class (infantry and HQ 1, armor 2, the
same when reduced), and what is not spent is lost at the end of the turn.
:class:`Capacity` is that bookkeeping as data.

Where a transported unit may go is a separate question, answered with the
kernel's searches: a rail move of unlimited length along railroad hexsides
is :func:`pbem.board.supply.traced` from the unit's hex with a
``can_enter`` that follows the rail lines and refuses the hexes the rules
forbid (:func:`rail_reach` wraps it); a sea move joins any two ports the
rules allow and needs no search.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping

from .supply import traced


@dataclass(frozen=True)
class Capacity:
    """Points per turn and the price of each unit class."""

    per_turn: int
    cost: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.per_turn < 0:
            raise ValueError(f"negative transport capacity {self.per_turn}")
        for k, v in self.cost.items():
            if v <= 0:
                raise ValueError(f"transport cost of {k} must be positive, got {v}")

    def price(self, classes: Iterable[str]) -> int:
        """Points to move units of these classes (one entry per unit)."""
        total = 0
        for c in classes:
            if c not in self.cost:
                raise ValueError(f"no transport cost for a {c} unit")
            total += self.cost[c]
        return total

    def spend(self, left: int, classes: Iterable[str]) -> int:
        """The points left after moving these units; ValueError (saying how
        many are short) when ``left`` does not pay for them."""
        need = self.price(classes)
        if need > left:
            raise ValueError(f"transport needs {need} point(s), {left} left")
        return left - need


def rail_reach(start: str, neighbors: Callable[[str], Iterable[str]],
               along: Callable[[str, str], bool], may_enter: Callable[[str], bool]) -> set[str]:
    """Every hex a rail move from ``start`` can reach at any distance:
    each step follows a railroad hexside (``along(a, b)``) into a hex the
    rules allow (``may_enter(b)``).  ``start`` itself is not included."""
    found = traced([start], neighbors, lambda a, b: along(a, b) and may_enter(b))
    return {h for h in found if h != start}
