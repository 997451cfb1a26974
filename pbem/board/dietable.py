"""Tables read by a die roll: weather, evacuation, reserve, capitulation.

Besides the combat table, a wargame has many small tables of the form
"roll, add the modifiers, read the line": a weather table (two dice, one
column per month), a naval evacuation table (one die: 1, 2, 3, 4-6), a
reserve table whose last line is "6+", a capitulation table whose first
line is "3 or less".  :class:`DieTable` is one such column.

Row keys, as a transcriber copies them from the printed table:

``"5"``      exactly 5
``"3-5"``    3 to 5 (an en dash works too)
``"6+"``     6 or more (a modified roll may exceed the die)
``"3-"``     3 or less (also ``"<=3"`` and ``"≤3"``)

The rows must cover every value from the lowest to the highest key without
a gap or an overlap; only the first row may be open below and only the last
open above.  A roll outside every row is an error (ValueError), never a
silent default: a table that does not cover a modified roll is a
transcription mistake.  :meth:`DieTable.covers` checks a whole range (2-12
for two dice) when the table is loaded.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Generic, Mapping, TypeVar

T = TypeVar("T")

_KEY = re.compile(r"^(?:(\d+)|(\d+)[-\u2013](\d+)|(\d+)\+|(\d+)-|(?:<=|\u2264)(\d+))$")


def parse_key(key: str) -> tuple[int | None, int | None]:
    """A row key -> (low, high), either end None when open."""
    if not isinstance(key, str):
        raise ValueError(f"bad die table row {key!r}")
    m = _KEY.match(key.strip().replace(" ", ""))
    if not m:
        raise ValueError(f"bad die table row {key!r}: expected 5, 3-5, 6+ or 3-")
    exact, lo, hi, plus, minus, le = m.groups()
    if exact is not None:
        return int(exact), int(exact)
    if lo is not None:
        if int(lo) > int(hi):
            raise ValueError(f"bad die table row {key!r}: empty range")
        return int(lo), int(hi)
    if plus is not None:
        return int(plus), None
    return None, int(minus if minus is not None else le)


@dataclass(frozen=True)
class DieTable(Generic[T]):
    """One column of a die table: rows (low, high, result), lowest first."""

    rows: tuple[tuple[int | None, int | None, T], ...]

    @classmethod
    def parse(cls, rows: Mapping[str, T]) -> "DieTable[T]":
        """From ``{"2-4": "fair", "5+": "mud"}``; ValueError on a gap, an
        overlap or an open end in the middle."""
        parsed = sorted(((*parse_key(k), v) for k, v in rows.items()),
                        key=lambda r: (r[0] if r[0] is not None else -10**9))
        if not parsed:
            raise ValueError("a die table needs at least one row")
        for i, (lo, hi, _) in enumerate(parsed):
            if lo is None and i != 0:
                raise ValueError("only the first row of a die table may be open below")
            if hi is None and i != len(parsed) - 1:
                raise ValueError("only the last row of a die table may be open above")
        for (_, hi, _), (lo, _, _) in zip(parsed, parsed[1:]):
            assert hi is not None and lo is not None
            if lo != hi + 1:
                word = "overlap" if lo <= hi else "gap"
                raise ValueError(f"die table rows {hi} and {lo}: {word}")
        return cls(tuple(parsed))

    def lookup(self, roll: int) -> T:
        """The result for a (modified) roll."""
        for lo, hi, result in self.rows:
            if (lo is None or roll >= lo) and (hi is None or roll <= hi):
                return result
        raise ValueError(f"no row of the table for a roll of {roll}")

    def covers(self, low: int, high: int) -> bool:
        """True when every roll from ``low`` to ``high`` has a row."""
        first, last = self.rows[0], self.rows[-1]
        return ((first[0] is None or first[0] <= low) and (last[1] is None or last[1] >= high))

    def results(self) -> tuple[T, ...]:
        return tuple(r for _, _, r in self.rows)
