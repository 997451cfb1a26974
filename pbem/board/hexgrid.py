"""Hex grids numbered the way printed wargame maps are: ``CCRR``.

A hex id is a four-digit string, column then row, each zero-padded to two
digits ("3919" is column 39, row 19).  Printed maps stagger either their
columns (flat-topped hexes, every other column shoved half a hex down) or
their rows (pointy-topped hexes, every other row shoved half a hex right).
Which columns or rows are shoved differs from map to map, so the grid takes
one of the four offset conventions named by Red Blob Games:

``"odd-q"``   flat-topped hexes, odd-numbered columns shoved down
``"even-q"``  flat-topped hexes, even-numbered columns shoved down
``"odd-r"``   pointy-topped hexes, odd-numbered rows shoved right
``"even-r"``  pointy-topped hexes, even-numbered rows shoved right

"Down" means toward higher row numbers and "right" toward higher column
numbers, whatever the compass says on the real map.  The parity is that of
the printed number, not of the position inside the grid, so a map whose
first column is 01 and one whose first column is 10 shove different columns.

Internally every hex is converted to axial coordinates (q, r) with the third
cube coordinate s = -q - r; distance is then the largest of the three
coordinate differences.  Games never see axial coordinates.

A hexside (the edge between two adjacent hexes, where rivers and roads
cross) is named by :func:`side_key`, so that map data can list a river once
whichever way a unit crosses it.
"""
from __future__ import annotations

from itertools import repeat
from typing import Iterator

OFFSETS = ("odd-q", "even-q", "odd-r", "even-r")

# Axial steps in a fixed order.  For flat-topped grids the order reads
# N, NE, SE, S, SW, NW; for pointy-topped grids E, NE, NW, W, SW, SE
# (with row numbers growing down the page).
_FLAT_DIRECTIONS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
_POINTY_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def side_key(a: str, b: str) -> str:
    """The canonical name of the hexside between hexes ``a`` and ``b``:
    both ids sorted and joined by ``|`` ("3919|4019").  It does not check that
    the hexes are adjacent."""
    if a == b:
        raise ValueError(f"no hexside between {a} and itself")
    # sorted((a, b)) by its one comparison, without the list (speed only:
    # rivers and roads are looked up by this key thousands of times a game)
    return f"{b}|{a}" if b < a else f"{a}|{b}"


def parse_hex(h: object) -> tuple[int, int]:
    """``"CCRR"`` -> (column, row).  ValueError if ``h`` is not four digits."""
    if not isinstance(h, str) or len(h) != 4 or not h.isascii() or not h.isdigit():
        raise ValueError(f"malformed hex id {h!r}: expected four digits CCRR")
    return int(h[:2]), int(h[2:])


# The six unit steps of the axial plane in turn round a hexagon: from the
# corner (-d, +d) they walk the ring of radius d.
_RING_SIDES = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


class HexGrid:
    """A rectangular map of hexes, columns ``first_col..last_col`` and rows
    ``first_row..last_row`` inclusive, staggered by ``offset``.

    The grid answers geometry only (neighbours, distance, ranges).  What a
    hex or hexside contains is the game's business.
    """

    def __init__(self, first_col: int, last_col: int, first_row: int, last_row: int,
                 offset: str) -> None:
        if offset not in OFFSETS:
            raise ValueError(f"unknown hex offset {offset!r}: expected one of {', '.join(OFFSETS)}")
        for name, value in (("first_col", first_col), ("last_col", last_col),
                            ("first_row", first_row), ("last_row", last_row)):
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 99:
                raise ValueError(f"{name} must be an integer 0..99, got {value!r}")
        if first_col > last_col or first_row > last_row:
            raise ValueError("empty hex grid: first column/row after last")
        self.first_col, self.last_col = first_col, last_col
        self.first_row, self.last_row = first_row, last_row
        self.offset = offset
        self.flat = offset.endswith("-q")
        # Which parity (0 even, 1 odd) of the staggered coordinate is shoved.
        self._shoved = 1 if offset.startswith("odd") else 0
        self._directions = _FLAT_DIRECTIONS if self.flat else _POINTY_DIRECTIONS

    def __repr__(self) -> str:
        return (f"HexGrid({self.first_col}, {self.last_col}, {self.first_row}, "
                f"{self.last_row}, {self.offset!r})")

    # ----------------------------------------------------------------- ids
    def hex_id(self, col: int, row: int) -> str:
        """(column, row) -> ``"CCRR"``; ValueError outside 0..99.  The hex
        need not be on this grid (use ``in`` for that)."""
        if not (isinstance(col, int) and isinstance(row, int) and 0 <= col <= 99 and 0 <= row <= 99):
            raise ValueError(f"no hex id for column {col!r}, row {row!r}")
        return f"{col:02d}{row:02d}"

    def col_row(self, h: str) -> tuple[int, int]:
        """``"CCRR"`` -> (column, row); ValueError if malformed."""
        return parse_hex(h)

    def __contains__(self, h: object) -> bool:
        """True if ``h`` is a well-formed id of a hex on this grid (a
        malformed id is simply not on the grid)."""
        # Rules ask this for every step of every path they check: the hexes
        # found on the grid are remembered (at most the grid's hexes).
        known = self.__dict__.get("_on_grid_ids")
        if known is None:
            # (every id of the grid at once, from its list: speed only, a
            # cold game asks for most of them, each parsed otherwise)
            known = self.__dict__["_on_grid_ids"] = set(self._all_hexes())
        if type(h) is str and h in known:
            return True
        try:
            col, row = parse_hex(h)
        except ValueError:
            return False
        if self._on_grid(col, row):
            known.add(h)
            return True
        return False

    def check(self, h: object) -> str:
        """Return ``h`` if it is a hex of this grid; otherwise ValueError
        saying whether it is malformed or off the map."""
        col, row = parse_hex(h)
        if not self._on_grid(col, row):
            raise ValueError(f"hex {h} is off the map")
        return h  # type: ignore[return-value]

    def _on_grid(self, col: int, row: int) -> bool:
        return self.first_col <= col <= self.last_col and self.first_row <= row <= self.last_row

    def hexes(self) -> list[str]:
        """Every hex of the grid in id order (column-major)."""
        return list(self._all_hexes())

    def _all_hexes(self) -> tuple[str, ...]:
        found = self.__dict__.get("_hexes_cache")
        if found is None:
            # (formatted directly: __init__ checked the bounds 0..99 that
            # hex_id checks hex by hex; speed only)
            found = self.__dict__["_hexes_cache"] = tuple([
                f"{c:02d}{r:02d}" for c in range(self.first_col, self.last_col + 1)
                for r in range(self.first_row, self.last_row + 1)])
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self.hexes())

    def __len__(self) -> int:
        return (self.last_col - self.first_col + 1) * (self.last_row - self.first_row + 1)

    def is_shoved(self, col: int, row: int) -> bool:
        """True for hexes in a column shoved down (flat-topped grids) or a
        row shoved right (pointy-topped grids).  Used by the map picture."""
        return ((col if self.flat else row) & 1) == self._shoved

    # ------------------------------------------------- axial conversions
    def _axial(self, col: int, row: int) -> tuple[int, int]:
        if self.flat:
            # Shoved columns sit half a hex lower, so their row numbers run
            # one behind the unshoved neighbours' on the NE/NW diagonals.
            lift = (col + (col & 1)) // 2 if self._shoved == 0 else (col - (col & 1)) // 2
            return col, row - lift
        lift = (row + (row & 1)) // 2 if self._shoved == 0 else (row - (row & 1)) // 2
        return col - lift, row

    def _offset(self, q: int, r: int) -> tuple[int, int]:
        if self.flat:
            col = q
            lift = (col + (col & 1)) // 2 if self._shoved == 0 else (col - (col & 1)) // 2
            return col, r + lift
        row = r
        lift = (row + (row & 1)) // 2 if self._shoved == 0 else (row - (row & 1)) // 2
        return q + lift, row

    def _axial_of(self, h: str) -> tuple[int, int]:
        return self._axial(*parse_hex(h))

    def _id_if_on_grid(self, q: int, r: int) -> str | None:
        col, row = self._offset(q, r)
        if self._on_grid(col, row):
            return f"{col:02d}{row:02d}"
        return None

    # ------------------------------------------------------------ geometry
    def neighbors(self, h: str) -> list[str]:
        """The on-grid hexes adjacent to ``h``, in a fixed direction order
        (flat: N, NE, SE, S, SW, NW; pointy: E, NE, NW, W, SW, SE).  Hexes
        on the map edge have fewer than six."""
        cache = self.__dict__.get("_neighbor_cache")
        if cache is None:       # (not setdefault: that makes an empty dict every call)
            cache = self.__dict__["_neighbor_cache"] = {}
        found = cache.get(h)
        if found is None:
            # Searches ask for the same hex's neighbours many thousand times.
            found = cache[h] = self._neighbors_of(h)
        return list(found)

    def neighbor_table(self) -> dict[str, tuple[str, ...]]:
        """Every hex of the grid -> its :meth:`neighbors` (as a tuple, in
        the same order), worked out together by position in the grid's
        hex list and kept (speed only: a search over the whole map asks
        for every hex; tests/test_speed_hexgrid_steps.py)."""
        table = self.__dict__.get("_neighbor_table")
        if table is None:
            table = self.__dict__["_neighbor_table"] = self._table_by_lines()
        return table  # type: ignore[no-any-return]

    def _table_by_lines(self) -> dict[str, tuple[str, ...]]:
        """:meth:`neighbor_table` worked out a line of hexes at a time (a
        column of a flat-topped grid, a row of a pointy-topped one: every
        hex of a line has the same parity, so the same steps): for each
        step in turn, the neighbouring line's ids shifted along the line,
        None where the step leaves the grid; each hex's neighbours are then
        its entries in the step order, the Nones left out (speed only: no
        Python loop per hex and step, the map's hexes once per cold game)."""
        ids, steps = self._all_hexes(), self._parity_steps()
        cols, rows = self.last_col - self.first_col + 1, self.last_row - self.first_row + 1
        if self.flat:
            lines = [ids[c * rows:(c + 1) * rows] for c in range(cols)]
            first = self.first_col
        else:
            lines = [ids[r::rows] for r in range(rows)]
            first = self.first_row
        size = len(lines[0])
        table: dict[str, tuple[str, ...]] = {}
        for i, line in enumerate(lines):
            shifted: list[tuple[str | None, ...]] = []
            for dc, dr in steps[(first + i) & 1]:
                across, along = (dc, dr) if self.flat else (dr, dc)     # (to the next line, along the line)
                off: tuple[str | None, ...] = (None,) * min(abs(along), size)
                if not 0 <= i + across < len(lines) or abs(along) >= size:
                    shifted.append((None,) * size)
                    continue
                other = lines[i + across]
                shifted.append(other[along:] + off if along >= 0 else off + other[:along])
            # (hex ids are never empty: filter(None) leaves out only the Nones)
            table.update(zip(line, map(tuple, map(filter, repeat(None), zip(*shifted)))))
        if not self.flat:
            table = {h: table[h] for h in ids}      # in the grid's id order (hexes()), as before
        return table

    def step_masks(self) -> dict[int, int]:
        """For each difference of position in :meth:`hexes` between a hex
        and a neighbour, the hexes with a neighbour that far on, as bits
        (bit i: the i-th hex): what :meth:`neighbor_table` says, in the
        form of pbem.board.supply.HexBits.  A step's difference is
        ``dc * rows + dr`` (the ids go column by column); the hexes taking
        it are those of its parity whose step stays on the grid: the
        columns that may take it times the rows that may (speed only: no
        loop per hex)."""
        steps = self._parity_steps()
        cols, rows = self.last_col - self.first_col + 1, self.last_row - self.first_row + 1
        out: dict[int, int] = {}
        for parity in (0, 1):
            for dc, dr in steps[parity]:
                across = sum(1 << (ci * rows) for ci in range(cols) if 0 <= ci + dc < cols
                             and (not self.flat or (self.first_col + ci) & 1 == parity))
                along = sum(1 << ri for ri in range(rows) if 0 <= ri + dr < rows
                            and (self.flat or (self.first_row + ri) & 1 == parity))
                # (the product sets bit ci * rows + ri for each pair: no carries, ri < rows)
                if across and along:
                    d = dc * rows + dr
                    out[d] = out.get(d, 0) | across * along
        return out

    def _neighbors_of(self, h: str) -> tuple[str, ...]:
        """:meth:`neighbors` worked out: the printed (column, row) steps of
        ``h``'s parity, each the axial direction of the same place in the
        order (speed only: a cold game's supply search asks for every hex
        of the map, and one addition per neighbour beats the axial
        round trip; tests/test_speed_hexgrid_steps.py checks them against it)."""
        col, row = parse_hex(h)
        steps = self._parity_steps()[(col if self.flat else row) & 1]
        c0, c1, r0, r1 = self.first_col, self.last_col, self.first_row, self.last_row
        # The ids from the grid's list, column by column (no formatting).
        ids, rows = self._all_hexes(), r1 - r0 + 1
        return tuple([ids[(c - c0) * rows + r - r0] for dc, dr in steps
                      if c0 <= (c := col + dc) <= c1 and r0 <= (r := row + dr) <= r1])

    def _parity_steps(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """For an even and an odd staggered coordinate (the column of a
        flat-topped grid, the row of a pointy-topped one), the (column,
        row) step to each axial direction in turn: a step's size depends
        on that parity alone, so it is measured once from a hex of each."""
        found = self.__dict__.get("_parity_steps_cache")
        if found is None:
            out = []
            for parity in (0, 1):
                col = row = 50 + parity         # any hex of that parity, far from 0
                q, r = self._axial(col, row)
                out.append(tuple((c - col, rr - row) for c, rr in
                                 (self._offset(q + dq, r + dr) for dq, dr in self._directions)))
            found = self.__dict__["_parity_steps_cache"] = tuple(out)
        return found  # type: ignore[no-any-return]

    def distance(self, a: str, b: str) -> int:
        """Hex distance: the number of hex steps from ``a`` to ``b`` on an
        unbounded grid (a Command Range of 4 reaches distance 4)."""
        # Searches ask this hundreds of thousands of times a game, so each
        # hex's axial coordinates are worked out once and kept.
        axial = self.__dict__.get("_axial_cache")
        if axial is None:
            axial = self.__dict__["_axial_cache"] = self._axial_table()
        try:
            qa, ra = axial[a]
        except KeyError:
            qa, ra = axial[a] = self._axial_of(a)
        try:
            qb, rb = axial[b]
        except KeyError:
            qb, rb = axial[b] = self._axial_of(b)
        dq = qa - qb
        dr = ra - rb
        ds = dq + dr
        # Cube distance: half the sum of the three coordinate differences.
        return ((dq if dq >= 0 else -dq) + (dr if dr >= 0 else -dr) + (ds if ds >= 0 else -ds)) >> 1

    def axial(self, h: str) -> tuple[int, int]:
        """``h``'s axial coordinates (q, r), kept per hex as :meth:`distance`
        keeps them: a search measuring one hex against many precomputes the
        others' and works the cube distance out inline."""
        axial = self.__dict__.get("_axial_cache")
        if axial is None:
            axial = self.__dict__["_axial_cache"] = self._axial_table()
        found = axial.get(h)
        if found is None:
            found = axial[h] = self._axial_of(h)
        return found  # type: ignore[no-any-return]

    def _axial_table(self) -> dict[str, tuple[int, int]]:
        """Every hex of the grid -> its axial coordinates, as _axial_of
        works them out, from the grid's columns and rows without parsing
        an id (speed only: a cold game measures from most hexes; ids off
        the grid are worked out when asked)."""
        rows = range(self.first_row, self.last_row + 1)
        axial = self._axial
        return dict(zip(self._all_hexes(), [axial(c, r) for c in range(self.first_col, self.last_col + 1)
                                            for r in rows]))

    def by_distance(self, h: str) -> dict[int, tuple[str, ...]]:
        """Every hex of the grid grouped by its distance from ``h`` (``h``
        itself at 0), each group in id order.  Kept per ``h``: searches that
        go ring by ring outward ask for the same origins again and again."""
        cache = self.__dict__.setdefault("_rings_cache", {})
        found = cache.get(h)
        if found is None:
            rings: dict[int, list[str]] = {}
            for n in self._all_hexes():
                rings.setdefault(self.distance(h, n), []).append(n)
            found = {d: tuple(rings[d]) for d in sorted(rings)}
            if len(cache) >= 1024:
                cache.clear()
            cache[h] = found
        return found

    def rings(self, h: str, start: int = 0) -> Iterator[tuple[int, tuple[str, ...]]]:
        """The rings of :meth:`by_distance` from distance ``start`` outward,
        one at a time (each in id order, an empty one skipped): a search
        that stops at the first ring holding what it wants works out only
        the rings it reads.  Kept per ``h`` and distance."""
        cache = self.__dict__.setdefault("_ring_cache", {})
        q0, r0 = self._axial_of(h)
        # No hex of the grid lies farther than this from ``h``: one column
        # or one row is at most one hex step, and ``h`` (on the grid or
        # off it) is no farther from the grid than from its corners.
        corners = [self.hex_id(c, r) for c in (self.first_col, self.last_col)
                   for r in (self.first_row, self.last_row)]
        far = max(self.distance(h, c) for c in corners) \
            + (self.last_col - self.first_col) + (self.last_row - self.first_row) + 1
        for d in range(max(start, 0), far + 1):
            found = cache.get((h, d))
            if found is None:
                if d == 0:
                    found = (h,) if h in self else ()
                else:
                    # Walk the ring's six sides, d steps each (6d hexes).
                    out = []
                    q, r = q0 - d, r0 + d
                    for sq, sr in _RING_SIDES:
                        for _ in range(d):
                            n = self._id_if_on_grid(q, r)
                            if n is not None:
                                out.append(n)
                            q, r = q + sq, r + sr
                    found = tuple(sorted(out))
                if len(cache) >= 4096:
                    cache.clear()
                cache[(h, d)] = found
            if found:
                yield d, found

    def adjacent(self, a: str, b: str) -> bool:
        """True if ``a`` and ``b`` share a hexside."""
        return self.distance(a, b) == 1

    def within(self, h: str, r: int) -> list[str]:
        """Every on-grid hex at distance 1..``r`` from ``h``, in id order."""
        if r < 0:
            raise ValueError(f"negative range {r}")
        q0, r0 = self._axial_of(h)
        out = []
        for dq in range(-r, r + 1):
            for dr in range(max(-r, -dq - r), min(r, -dq + r) + 1):
                if dq == 0 and dr == 0:
                    continue
                n = self._id_if_on_grid(q0 + dq, r0 + dr)
                if n is not None:
                    out.append(n)
        return sorted(out)
