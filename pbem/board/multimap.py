"""Several printed map sheets played as one board.

A game that joins map sheets (a campaign laid out from scenario maps) finds
the same ``CCRR`` id on every sheet, so each sheet's hexes carry its map
prefix: ``"S:4112"`` is hex 4112 of the map under prefix ``S``.  A
:class:`MultiMap` holds one :class:`~pbem.board.hexgrid.HexGrid` per prefix
and answers the same geometry questions a single grid does (``in``,
``check``, ``hexes``, ``neighbors``, ``adjacent``, ``distance``,
``by_distance``, ``within``), over the joined board.

Where the sheets meet
    The grids are joined by *seams*, declared as data:

    * a :class:`Seam` puts one map's row directly below another map's row:
      ``Seam("S", "K", 30, 1)`` says Kiev's row 01 continues Smolensk's row
      30, so a hex of Kiev row 01 touches the Smolensk row-30 hexes it would
      touch if it were Smolensk row 31.  ``shift`` moves the lower map's
      columns (lower column ``c`` lies under upper column ``c + shift``) and
      ``cols`` limits the stretch of upper columns the seam runs along.  Both
      sheets must stagger the same way along the seam (checked);
    * explicit pairs name any further cross-map neighbours one by one.

    :func:`seams_from_table` reads both from a scenario table::

        [map.seams]
        S-K = { rows = [30, 1] }                 # upper-lower = { rows = [upper row, lower row] }
        L-S = { rows = [34, 1], cols = [1, 40], shift = 0 }
        pairs = ["S:5530|K:5601"]

Distance
    Distance is the fewest hex steps along the joined board.  Between two
    hexes of one map it is that map's own grid distance whenever the seams
    cannot shorten it (seams given as rows only, joining the maps without a
    loop: the sheets then lie on one continuous hex lattice); otherwise, and
    between maps, it is a breadth-first count over the joined board, kept per
    origin.  Hexes of maps no seam joins have no distance (ValueError).

The empty prefix is allowed: a :class:`MultiMap` of one grid under ``""``
uses plain ``CCRR`` ids and answers exactly as the grid does.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .hexgrid import HexGrid, parse_hex

SEP = ":"
_LATTICES: dict[str, HexGrid] = {}
_SEARCH_CACHE = 256


def split(h: object) -> tuple[str, str]:
    """``"S:4112"`` -> ("S", "4112"); a plain ``"4112"`` -> ("", "4112").
    ValueError when ``h`` is not a string."""
    if not isinstance(h, str):
        raise ValueError(f"malformed hex id {h!r}: expected MAP:CCRR")
    prefix, sep, local = h.rpartition(SEP)
    return (prefix, local) if sep else ("", h)


def join(prefix: str, local: str) -> str:
    """The board id of hex ``local`` on map ``prefix`` ("" -> plain id)."""
    return f"{prefix}{SEP}{local}" if prefix else local


def map_of(h: str) -> str:
    """The map prefix of a hex id ("S:4112" -> "S"; a plain id -> "")."""
    return split(h)[0]


@dataclass(frozen=True)
class Seam:
    """Map ``lower`` continues map ``upper`` downward: ``lower``'s row
    ``lower_row`` lies just below ``upper``'s row ``upper_row``; lower
    column ``c`` lies under upper column ``c + shift``; ``cols`` (upper
    column numbers, inclusive) limits the stretch, None for all."""

    upper: str
    lower: str
    upper_row: int
    lower_row: int
    cols: tuple[int, int] | None = None
    shift: int = 0

    @property
    def translation(self) -> tuple[int, int]:
        """What a lower hex's (column, row) add to become upper's frame."""
        return self.shift, self.upper_row + 1 - self.lower_row


def _lattice(offset: str) -> HexGrid:
    """The whole 00-99 numbering of an offset: neighbours across a sheet's edge."""
    found = _LATTICES.get(offset)
    if found is None:
        found = _LATTICES[offset] = HexGrid(0, 99, 0, 99, offset)
    return found


def _int(v: Any, what: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise ValueError(f"{what} must be an integer, got {v!r}")
    return v


def seams_from_table(table: Mapping[str, Any]) -> tuple[list[Seam], list[tuple[str, str]]]:
    """The seams and explicit pairs of a ``[map.seams]`` table: keys
    ``UPPER-LOWER`` with ``rows = [upper row, lower row]`` (optional
    ``cols = [first, last]``, ``shift``), and ``pairs = ["A:xxxx|B:yyyy"]``."""
    seams: list[Seam] = []
    pairs: list[tuple[str, str]] = []
    for key, value in table.items():
        if key == "pairs":
            for p in value:
                a, sep, b = str(p).partition("|")
                if not sep:
                    raise ValueError(f"seam pair {p!r}: expected A:xxxx|B:yyyy")
                pairs.append((a, b))
            continue
        upper, sep, lower = key.partition("-")
        if not sep or not isinstance(value, Mapping) or "rows" not in value:
            raise ValueError(f"seam {key!r}: expected UPPER-LOWER = {{ rows = [upper row, lower row] }}")
        ra, rb = value["rows"]
        cols = value.get("cols")
        seams.append(Seam(upper, lower, _int(ra, f"seam {key} rows"), _int(rb, f"seam {key} rows"),
                          None if cols is None else (_int(cols[0], f"seam {key} cols"),
                                                     _int(cols[1], f"seam {key} cols")),
                          _int(value.get("shift", 0), f"seam {key} shift")))
    return seams, pairs


class _Search:
    """A breadth-first search from one hex, expanded only as far as asked."""

    __slots__ = ("dist", "frontier", "level", "rings")

    def __init__(self, origin: str) -> None:
        self.dist = {origin: 0}
        self.frontier = [origin]
        self.level = 0
        self.rings: dict[int, tuple[str, ...]] | None = None

    def grow(self, neighbors: Callable[[str], Iterable[str]]) -> bool:
        """One more ring; False when nothing is left to reach."""
        if not self.frontier:
            return False
        self.level += 1
        nxt = []
        dist = self.dist
        for h in self.frontier:
            for n in neighbors(h):
                if n not in dist:
                    dist[n] = self.level
                    nxt.append(n)
        self.frontier = nxt
        return bool(nxt)


class MultiMap:
    """Hex grids under map prefixes, joined by seams (see the module
    docstring).  Every answer uses board ids (``"S:4112"``)."""

    def __init__(self, grids: Mapping[str, HexGrid], seams: Iterable[Seam] = (),
                 pairs: Iterable[tuple[str, str]] = ()) -> None:
        if not grids:
            raise ValueError("a board needs at least one map")
        for p in grids:
            if not isinstance(p, str) or SEP in p or "|" in p or p != p.strip():
                raise ValueError(f"bad map prefix {p!r}")
        self.grids: dict[str, HexGrid] = dict(grids)
        self.seams = tuple(seams)
        self.pairs = tuple(pairs)
        links: dict[str, set[str]] = {}
        for s in self.seams:
            for a, b in self._seam_edges(s):
                links.setdefault(a, set()).add(b)
                links.setdefault(b, set()).add(a)
        for a, b in self.pairs:
            self.check(a)
            self.check(b)
            if a == b:
                raise ValueError(f"seam pair {a}|{b}: a hex is not its own neighbour")
            links.setdefault(a, set()).add(b)
            links.setdefault(b, set()).add(a)
        self._links = {h: tuple(sorted(ns)) for h, ns in links.items()}
        self._lattice_metric = not self.pairs and _one_lattice(self.seams)
        self._neighbors: dict[str, tuple[str, ...]] = {}
        self._searches: dict[str, _Search] = {}

    def __repr__(self) -> str:
        return f"MultiMap({self.grids!r}, seams={list(self.seams)!r}, pairs={list(self.pairs)!r})"

    @property
    def prefixes(self) -> tuple[str, ...]:
        return tuple(self.grids)

    # ----------------------------------------------------------------- ids
    def local(self, h: object) -> tuple[HexGrid, str]:
        """The grid of ``h``'s map and its id there; ValueError for an id
        naming no map of the board."""
        prefix, local = split(h)
        grid = self.grids.get(prefix)
        if grid is None:
            maps = ", ".join(repr(p) for p in self.grids)
            raise ValueError(f"hex {h!r} names no map of this board (maps: {maps})")
        return grid, local

    def col_row(self, h: str) -> tuple[int, int]:
        """(column, row) of ``h`` as printed on its own map."""
        return parse_hex(self.local(h)[1])

    # A picture draws one printed sheet at a time (``grids[prefix]`` and
    # :func:`split`); the single-sheet questions below have one answer only
    # on a board of one map.
    def _sheet(self, what: str) -> HexGrid:
        if len(self.grids) != 1:
            raise ValueError(f"{what}: a board of {len(self.grids)} maps has no single grid; "
                             "draw each map's grid (MultiMap.grids) on its own")
        return next(iter(self.grids.values()))

    def hex_id(self, col: int, row: int) -> str:
        """(column, row) -> board id, on a board of one map."""
        return join(next(iter(self.grids)), self._sheet("hex_id").hex_id(col, row))

    @property
    def first_col(self) -> int:
        return self._sheet("first_col").first_col

    @property
    def last_col(self) -> int:
        return self._sheet("last_col").last_col

    @property
    def first_row(self) -> int:
        return self._sheet("first_row").first_row

    @property
    def last_row(self) -> int:
        return self._sheet("last_row").last_row

    @property
    def offset(self) -> str:
        return self._sheet("offset").offset

    def __contains__(self, h: object) -> bool:
        try:
            grid, local = self.local(h)
        except ValueError:
            return False
        return local in grid

    def check(self, h: object) -> str:
        """Return ``h`` if it is a hex of the board; otherwise ValueError
        saying whether its map is unknown, its id malformed or it is off the
        map."""
        grid, local = self.local(h)
        try:
            grid.check(local)
        except ValueError as exc:
            if local == h:
                raise
            raise ValueError(f"{h}: {exc}") from None
        return h  # type: ignore[return-value]

    def hexes(self) -> list[str]:
        """Every hex, map by map in the order the maps were given, each map
        in its grid's order."""
        return [join(p, h) for p, g in self.grids.items() for h in g.hexes()]

    def __iter__(self) -> Iterator[str]:
        return iter(self.hexes())

    def __len__(self) -> int:
        return sum(len(g) for g in self.grids.values())

    # ------------------------------------------------------------- seams
    def _seam_edges(self, s: Seam) -> set[tuple[str, str]]:
        for p in (s.upper, s.lower):
            if p not in self.grids:
                raise ValueError(f"seam {s.upper}-{s.lower}: no map {p!r}")
        if s.upper == s.lower:
            raise ValueError(f"seam {s.upper}-{s.lower}: a map cannot continue itself")
        up, lo = self.grids[s.upper], self.grids[s.lower]
        name = f"seam {s.upper}-{s.lower}"
        if not up.first_row <= s.upper_row <= up.last_row or s.upper_row >= 99:
            raise ValueError(f"{name}: row {s.upper_row} is not a row of map {s.upper}")
        if not lo.first_row <= s.lower_row <= lo.last_row:
            raise ValueError(f"{name}: row {s.lower_row} is not a row of map {s.lower}")
        if up.flat != lo.flat:
            raise ValueError(f"{name}: one map has flat-topped hexes, the other pointy-topped")
        first, last = s.cols if s.cols is not None else (0, 99)
        edges: set[tuple[str, str]] = set()
        lattice = _lattice(up.offset)
        for c in range(max(first, up.first_col), min(last, up.last_col) + 1):
            under = c - s.shift
            if up.is_shoved(c, s.upper_row + 1) != lo.is_shoved(under, s.lower_row):
                raise ValueError(f"{name}: the maps stagger differently (upper column {c}, lower column {under})")
            a = up.hex_id(c, s.upper_row)
            for n in lattice.neighbors(a):
                nc, nr = parse_hex(n)
                if nr != s.upper_row + 1 or not first <= nc <= last or not 0 <= nc - s.shift <= 99:
                    continue
                b = lo.hex_id(nc - s.shift, s.lower_row)
                if b in lo:
                    edges.add((join(s.upper, a), join(s.lower, b)))
        return edges

    def seam_neighbors(self, h: str) -> list[str]:
        """The hexes of other sheets (or explicit pairs) next to ``h``."""
        return list(self._links.get(h, ()))

    # ------------------------------------------------------------ geometry
    def neighbors(self, h: str) -> list[str]:
        """The board hexes adjacent to ``h``: its own map's (in the grid's
        direction order), then those across a seam (in id order)."""
        found = self._neighbors.get(h)
        if found is None:
            grid, local = self.local(h)
            prefix = split(h)[0]
            own = tuple(join(prefix, n) for n in grid.neighbors(local))
            found = own + tuple(n for n in self._links.get(h, ()) if n not in own)
            self._neighbors[h] = found
        return list(found)

    def adjacent(self, a: str, b: str) -> bool:
        """True if ``a`` and ``b`` share a hexside (on one map, or a seam)."""
        pa, la = split(a)
        pb, lb = split(b)
        grid = self.local(a)[0]
        if pa == pb and grid.adjacent(la, lb):
            return True
        self.local(b)
        return b in self._links.get(a, ())

    def _search(self, h: str) -> _Search:
        found = self._searches.get(h)
        if found is None:
            self.check(h)
            if len(self._searches) >= _SEARCH_CACHE:
                self._searches.clear()
            found = self._searches[h] = _Search(h)
        return found

    def distance(self, a: str, b: str) -> int:
        """The fewest hex steps from ``a`` to ``b`` on the joined board;
        ValueError when no seam joins their maps."""
        pa, la = split(a)
        pb, lb = split(b)
        if pa == pb and self._lattice_metric:
            return self.local(a)[0].distance(la, lb)
        self.check(b)
        search = self._search(a)
        while b not in search.dist:
            if not search.grow(self.neighbors):
                raise ValueError(f"no way from {a} to {b} on this board: no seam joins their maps")
        return search.dist[b]

    def by_distance(self, h: str) -> dict[int, tuple[str, ...]]:
        """Every hex reachable from ``h`` grouped by its distance (``h`` at
        0), each group in id order."""
        search = self._search(h)
        if search.rings is None:
            while search.grow(self.neighbors):
                pass
            rings: dict[int, list[str]] = {}
            for n, d in search.dist.items():
                rings.setdefault(d, []).append(n)
            search.rings = {d: tuple(sorted(rings[d])) for d in sorted(rings)}
        return search.rings

    def within(self, h: str, r: int) -> list[str]:
        """Every board hex at distance 1..``r`` from ``h``, in id order."""
        if r < 0:
            raise ValueError(f"negative range {r}")
        search = self._search(h)
        while search.level < r and search.grow(self.neighbors):
            pass
        return sorted(n for n, d in search.dist.items() if 0 < d <= r)


def _one_lattice(seams: Iterable[Seam]) -> bool:
    """Whether row seams lay the maps on one hex lattice without a loop,
    so that no way through another sheet is shorter than a map's own
    distance: each joined pair of maps is placed one way only, and the maps
    joined form a tree."""
    placed: dict[frozenset[str], tuple[str, tuple[int, int]]] = {}
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    for s in seams:
        key = frozenset((s.upper, s.lower))
        if key in placed:
            if placed[key] != (s.upper, s.translation):
                return False
            continue
        placed[key] = (s.upper, s.translation)
        ru, rl = root(s.upper), root(s.lower)
        if ru == rl:
            return False
        parent[ru] = rl
    return True
