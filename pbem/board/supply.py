"""Supply lines: a chain of adjacent hexes between a unit and a source.

Rules phrase supply from the unit's side ("trace a line from the unit to a
supply source that does not enter ..."), but one search from all the sources
outward answers the question for every unit at once, so that is what
:func:`traced` does.

Direction of ``can_enter``
    By default ``can_enter(a, b)`` is asked for the step from ``a`` to ``b``
    *moving away from the source*: ``a`` is the hex nearer the source, ``b``
    the hex nearer the unit.  When the game's test is not symmetric (a
    one-way hexside, "may not enter X" where the unit's own hex matters),
    pass ``reverse=True`` and the kernel asks ``can_enter(b, a)`` instead:
    the same step as the rules describe it, walking from the unit toward
    the source.

Hexes a line may end in but not pass through
    Some rules let the line reach a unit standing in an enemy zone of
    control but not continue through such a hex.  ``can_pass(h)`` says
    whether the search may carry on from ``h``; a hex failing it is still
    reported (the line reaches it) but nothing beyond it is reached through
    it.  Sources are always passable.

Sources
    A source is at length 0 only if ``usable(source)`` holds (default:
    every source), e.g. a game drops an enemy-occupied source or a source
    that stops counting after a given turn.  An unusable source can still be
    reached from another source like any other hex, if ``can_enter``
    allows.

``max_length`` limits the number of steps (hexes entered after the source);
``None`` means unlimited.
"""
from __future__ import annotations

from collections import deque
from itertools import compress
from typing import AbstractSet, Callable, Container, Iterable, Mapping

from .hexgrid import HexGrid

Neighbors = Callable[[str], Iterable[str]]
CanEnter = Callable[[str, str], bool]


def traced(sources: Iterable[str], neighbors: Neighbors, can_enter: CanEnter,
           max_length: int | None = None, *, reverse: bool = False,
           can_pass: Callable[[str], bool] | None = None,
           usable: Callable[[str], bool] | None = None) -> dict[str, int]:
    """Every hex a supply line reaches, mapped to its shortest line length
    in steps (usable sources 0).  See the module docstring for the meaning
    of each callable."""
    if max_length is not None and max_length < 0:
        raise ValueError(f"negative supply line length {max_length}")
    length: dict[str, int] = {}
    queue: deque[str] = deque()
    for s in sources:
        if s not in length and (usable is None or usable(s)):
            length[s] = 0
            queue.append(s)
    while queue:
        a = queue.popleft()
        if length[a] and can_pass is not None and not can_pass(a):
            continue
        if max_length is not None and length[a] >= max_length:
            continue
        for b in neighbors(a):
            if b in length:
                continue
            ok = can_enter(b, a) if reverse else can_enter(a, b)
            if ok:
                length[b] = length[a] + 1
                queue.append(b)
    return length


def traced_sets(sources: Iterable[str], adjacency: Mapping[str, Iterable[str]],
                blocked: Container[str], stops: Container[str]) -> dict[str, int]:
    """:func:`traced` for the common case, several times faster: a step
    ``a -> b`` is allowed when ``b`` is a neighbour of ``a`` in
    ``adjacency`` (which leaves out the hexsides no line crosses) and ``b``
    is not in ``blocked``; a hex in ``stops`` is reached but not passed
    through (``can_pass`` false).  ``sources`` are the usable ones (the
    caller leaves out the others).  The answer, and the order of its keys,
    is that of ``traced(sources, adjacency.__getitem__, can_enter,
    can_pass=...)`` with those tests (``tests/test_speed_supply.py``)."""
    length: dict[str, int] = {}
    queue: deque[str] = deque()
    for s in sources:
        if s not in length:
            length[s] = 0
            queue.append(s)
    popleft, append = queue.popleft, queue.append
    while queue:
        a = popleft()
        la = length[a]
        if la and a in stops:
            continue
        la += 1
        for b in adjacency[a]:
            if b not in length and b not in blocked:
                length[b] = la
                append(b)
    return length


def reached_sets(sources: Iterable[str], adjacency: Mapping[str, Iterable[str]],
                 blocked: AbstractSet[str], stops: AbstractSet[str]) -> set[str]:
    """The hexes :func:`traced_sets` reaches (its keys), without their
    lengths or order, for callers that only ask whether a line reaches a
    hex: the search goes ring by ring with set operations, a few times
    faster than hex by hex (``tests/test_avd_speed_reach.py``)."""
    seen = set(sources)
    passing = set(seen)         # the sources: passed through even in ``stops``
    step = adjacency.__getitem__
    while passing:
        # (difference, not difference_update: that one walks all of ``seen``)
        nxt = set().union(*map(step, passing)).difference(seen).difference(blocked)
        seen.update(nxt)
        passing = nxt.difference(stops)
    return seen


class HexBits:
    """The hexes of an adjacency (``hex -> neighbours``) numbered, so that a
    set of them is a Python int with one bit per hex, and the adjacency as
    a few (index offset, hexes with a neighbour at that offset) pairs: one
    search step from every hex of a ring at once is then a few shifts
    (speed only, for :func:`reached_bits`).  On a grid listed column by
    column the offsets are the six directions (eight: the diagonal ones
    differ between odd and even columns or rows), whatever the map size."""

    def __init__(self, adjacency: Mapping[str, Iterable[str]]) -> None:
        """Every neighbour must have its own entry in ``adjacency``."""
        self.hexes = tuple(adjacency)
        self.index = index = {h: i for i, h in enumerate(self.hexes)}
        # offset -> "1" for each hex with a neighbour at that offset (as bits():
        # one digit per hex, made an int at the end)
        moves: dict[int, bytearray] = {}
        for i, steps in enumerate(adjacency.values()):
            for b in steps:
                d = index[b] - i
                digits = moves.get(d)
                if digits is None:
                    digits = moves[d] = bytearray(b"0") * len(self.hexes)
                digits[i] = 49          # "1"
        self.moves = tuple((d, int(digits[::-1], 2)) for d, digits in moves.items())

    @classmethod
    def of_grid(cls, grid: HexGrid, walls: AbstractSet[tuple[str, str]]) -> HexBits:
        """``HexBits({h: grid.neighbor_table()[h] but the neighbours b with
        (h, b) in walls, for each h in grid.hexes()})``, made from the
        grid's step masks, a wall taking its hex's bit out of one step
        (speed only: no loop per hex and neighbour, once per cold game;
        tests/test_speed_hexbits_grid.py).  ``walls`` are ordered pairs of
        hexes; those that are not neighbours on the grid change nothing."""
        out = cls.__new__(cls)
        out.hexes = tuple(grid.hexes())
        out.index = index = {h: i for i, h in enumerate(out.hexes)}
        moves = grid.step_masks()
        for a, b in walls:
            i, j = index.get(a), index.get(b)
            if i is None or j is None:
                continue
            has = moves.get(j - i)
            # (bit i set: a has a neighbour that far on, which is b, the
            # only hex there)
            if has is not None and has >> i & 1:
                moves[j - i] = has & ~(1 << i)
        out.moves = tuple(moves.items())
        return out

    def bits(self, hexes: Iterable[str]) -> int:
        """The set ``hexes`` as bits (hexes not in the adjacency left out:
        no search reaches them)."""
        digits = bytearray(b"0") * len(self.hexes)
        index = self.index
        for h in hexes:
            i = index.get(h)
            if i is not None:
                digits[i] = 49          # "1"
        # (base 2 reads the highest bit first: the digits reversed)
        return int(b"0" + digits[::-1], 2)

    def hexes_of(self, bits: int) -> frozenset[str]:
        """The hexes of the set ``bits``."""
        # bin() lists the bits highest first: reversed, one flag per hex.
        flags = bin(bits)[:1:-1].encode("ascii").translate(_DIGIT_TO_FLAG)
        return frozenset(compress(self.hexes, flags))


_DIGIT_TO_FLAG = bytes.maketrans(b"01", b"\0\1")


def reached_bits(sources: int, adjacency: HexBits, blocked: int, stops: int) -> int:
    """:func:`reached_sets` on sets given as bits of ``adjacency``: the
    same hexes, ring by ring, each ring's step a few shifts
    (``tests/test_avd_speed_reach.py``)."""
    seen = passing = sources     # the sources: passed through even in ``stops``
    moves = adjacency.moves
    while passing:
        nxt = 0
        for d, has in moves:
            m = passing & has       # the hexes of the ring with a neighbour at index offset d
            if m:
                nxt |= m << d if d >= 0 else m >> -d
        nxt &= ~(seen | blocked)
        seen |= nxt
        passing = nxt & ~stops
    return seen


def in_supply(h: str, sources: Iterable[str], neighbors: Neighbors, can_enter: CanEnter,
              max_length: int | None = None, *, reverse: bool = False,
              can_pass: Callable[[str], bool] | None = None,
              usable: Callable[[str], bool] | None = None) -> bool:
    """True if a supply line reaches ``h`` (same arguments as :func:`traced`)."""
    return h in traced(sources, neighbors, can_enter, max_length, reverse=reverse,
                       can_pass=can_pass, usable=usable)


def distance_to_nearest(h: str, targets: Iterable[str], grid: HexGrid) -> int:
    """Plain hex distance from ``h`` to the nearest of ``targets`` (for rules
    such as "each hex entered is closer to a friendly supply source")."""
    dists = [grid.distance(h, t) for t in targets]
    if not dists:
        raise ValueError("no targets to measure a distance to")
    return min(dists)
