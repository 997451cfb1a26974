"""Two-dice Combat Results Tables with coloured results (the "Roads" system).

Some games (Victory Roads, Liberty Roads) resolve a battle on two six-sided
dice instead of one.  Their table differs from the one-die tables of
:mod:`pbem.board.odds` in three ways, and this module is what they share:

Rows are dice *sums*, 2 to 12
    Eleven rows, not equally likely: a 7 comes up six times in 36, a 2 or a
    12 once (:func:`chance`).  Designers put the ordinary outcomes in the
    middle rows and the dramatic ones at the edges.

Each cell has three parts
    *Losses*, printed ``attacker/defender`` ("1/2": the attacker loses one
    step, the defender two), and one *tactical result* per side: the "A"
    sub-column for the attacker, the "D" sub-column for the defender (codes
    such as ``E2``, ``DR``, ``S``, ``Eng``; their meaning is the game's).
    Each tactical result is printed in a **colour**.  A side that uses an
    Elite bonus may swap its rolled result for any other result of the same
    colour in the same odds column (:meth:`Crt2d6.colour_group`): the colour
    marks results the designer judged equally reachable for good troops.

Odds columns sit on an endless ladder
    Odds are rounded in the defender's favour to the nearest *simple* ratio
    (35:10 is 3:1, 10:35 is 1:4), so the natural rungs are ..., 1:3, 1:2,
    1:1, 2:1, 3:1, ...  The printed table shows a stretch of that ladder
    (1:2 to 6:1 in Victory Roads); the rungs beyond either edge are
    "imaginary" columns that still count while column shifts are applied:
    1:4 shifted two to the right is 1:2, and is fought on the table.
    :class:`OddsLadder` numbers the printed columns 0..n-1 and the
    imaginary ones below and above with the integers beyond, so a shift is
    plain addition and only the *final* column is checked against the
    printed table (:meth:`OddsLadder.final`: below the first printed column
    the combat does not happen; above the last it is fought on the last).

A printed table may add non-simple columns (a 3:2 between 1:1 and 2:1);
the ladder accepts them between its ends, but its two end columns must be
simple ratios so that the imaginary columns beyond continue the 1:n / n:1
pattern.  Everything is integer arithmetic; no floats.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Mapping

from .odds import parse_column

ROLLS = tuple(range(2, 13))
"""The rows of a two-dice table: every sum of two six-sided dice."""

ATTACKER, DEFENDER = "attacker", "defender"


def chance(roll: int) -> Fraction:
    """The probability of rolling ``roll`` as the sum of two six-sided dice
    (7: 6/36; 2 or 12: 1/36; outside 2..12: 0)."""
    if roll not in ROLLS:
        return Fraction(0)
    return Fraction(6 - abs(7 - roll), 36)


# ---------------------------------------------------------------- the ladder
def simple_position(attack: int, defense: int) -> int | None:
    """The highest simple rung that ``attack:defense`` reaches, as a ladder
    position: 0 is 1:1, ``k`` > 0 is (k+1):1, ``-k`` is 1:(k+1).  Rounded in
    the defender's favour: 35:10 -> 2 (3:1), 10:35 -> -3 (1:4), 9:10 -> -1
    (1:2).  ``None`` for an attack of 0 (no ratio reaches any rung); a
    defense of 0 is refused (the caller decides what an undefended hex
    means)."""
    if attack < 0 or defense < 0:
        raise ValueError(f"negative combat strength {attack}:{defense}")
    if defense == 0:
        raise ValueError("odds against a defense of 0 have no rung")
    if attack == 0:
        return None
    if attack >= defense:
        return attack // defense - 1
    # 1:n is reached when attack * n >= defense: the smallest such n.
    return -((defense + attack - 1) // attack - 1)


def position_ratio(position: int) -> tuple[int, int]:
    """The simple ratio at a ladder position (the inverse of the rounding:
    0 -> (1, 1), 5 -> (6, 1), -3 -> (1, 4))."""
    return (position + 1, 1) if position >= 0 else (1, 1 - position)


def ratio_label(ratio: tuple[int, int]) -> str:
    """(3, 1) -> "3:1"; (1, 4) -> "1:4"; (3, 2) -> "3:2"."""
    return f"{ratio[0]}:{ratio[1]}"


def _simple(ratio: tuple[int, int]) -> int | None:
    """The ladder position of a simple ratio, or None if it is not one."""
    a, d = ratio
    if d == 1:
        return a - 1
    if a == 1:
        return 1 - d
    return None


class OddsLadder:
    """The odds columns of a table and the imaginary columns beyond them.

    ``labels`` are the printed columns, weakest first ("1:2", ..., "6:1";
    ``-`` or an en dash also separate the two numbers).  Column indexes:
    0..n-1 are printed; -1, -2, ... the imaginary simple rungs below the
    first (1:3, 1:4 when the first is 1:2); n, n+1, ... those above the
    last (7:1, 8:1 when the last is 6:1).
    """

    def __init__(self, labels: Iterable[str]) -> None:
        self.labels = tuple(labels)
        if not self.labels:
            raise ValueError("an odds ladder needs at least one column")
        self.ratios = tuple(parse_column(lbl) for lbl in self.labels)
        for lo, hi in zip(self.ratios, self.ratios[1:]):
            if Fraction(*lo) >= Fraction(*hi):
                raise ValueError(f"odds columns must rise left to right: {self.labels}")
        first, last = _simple(self.ratios[0]), _simple(self.ratios[-1])
        if first is None or last is None:
            raise ValueError(f"the end columns of {self.labels} must be simple (1:n or n:1) "
                             "for imaginary columns to continue them")
        self._first, self._last = first, last

    def __len__(self) -> int:
        return len(self.labels)

    def __repr__(self) -> str:
        return f"OddsLadder({list(self.labels)!r})"

    def ratio(self, index: int) -> tuple[int, int]:
        """The ratio of any column, printed or imaginary."""
        if 0 <= index < len(self.labels):
            return self.ratios[index]
        if index < 0:
            return position_ratio(self._first + index)
        return position_ratio(self._last + index - (len(self.labels) - 1))

    def label(self, index: int) -> str:
        """A column's label as printed, or ``"1:4"`` style for an imaginary one."""
        if 0 <= index < len(self.labels):
            return self.labels[index]
        return ratio_label(self.ratio(index))

    def printed(self, index: int) -> bool:
        return 0 <= index < len(self.labels)

    def column(self, attack: int, defense: int) -> int | None:
        """The column (printed or imaginary) of ``attack`` against
        ``defense``, rounded in the defender's favour: the strongest column
        whose ratio the odds reach.  ``None`` for an attack of 0.  A defense
        of 0 gives the last printed column."""
        if defense == 0 and attack >= 0:
            return len(self.labels) - 1
        pos = simple_position(attack, defense)
        if pos is None:
            return None
        if pos < self._first:
            return pos - self._first
        found = 0
        for i, (num, den) in enumerate(self.ratios):
            if attack * den >= defense * num:
                found = i
        if found == len(self.labels) - 1 and pos > self._last:
            return found + (pos - self._last)
        return found

    @staticmethod
    def shift(index: int, by: int) -> int:
        """``by`` columns to the right (negative: to the left).  No edge
        stops a shift: imaginary columns count (Victory Roads 7.5.7)."""
        return index + by

    def final(self, index: int | None) -> int | None:
        """The printed column a battle is fought on once every shift is in:
        ``None`` below the first printed column (the combat is cancelled),
        the last printed column for anything above it."""
        if index is None or index < 0:
            return None
        return min(index, len(self.labels) - 1)


# ----------------------------------------------------------------- the cells
@dataclass(frozen=True)
class Tactical:
    """One tactical result as printed: its code ("E2", "DR", "-" for none)
    and the colour it is printed in ("" when the table gives none)."""

    code: str
    colour: str = ""

    def __str__(self) -> str:
        return f"{self.code}:{self.colour}" if self.colour else self.code


@dataclass(frozen=True)
class Cell:
    """One row of one odds column: the Losses part and the two tactical
    results."""

    attacker_losses: int
    defender_losses: int
    attacker: Tactical
    defender: Tactical

    def result(self, side: str) -> Tactical:
        if side == ATTACKER:
            return self.attacker
        if side == DEFENDER:
            return self.defender
        raise ValueError(f"side must be {ATTACKER!r} or {DEFENDER!r}, not {side!r}")

    def __str__(self) -> str:
        return f"{self.attacker_losses}/{self.defender_losses} {self.attacker} {self.defender}"


_LOSSES = re.compile(r"^(\d+)/(\d+)$")
_CODE = re.compile(r"^(?:-|[A-Za-z][A-Za-z0-9+]*)$")
_COLOUR = re.compile(r"^[a-z][a-z0-9_-]*$")


def parse_tactical(text: str, codes: Iterable[str] | None = None,
                   colours: Iterable[str] | None = None) -> Tactical:
    """``"E2:red"`` -> Tactical("E2", "red"); ``"-"`` -> no result, no
    colour.  ``codes``/``colours``, when given, are the only ones accepted."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"bad tactical result {text!r}")
    code, _, colour = text.strip().partition(":")
    if not _CODE.match(code) or not code.isascii():
        raise ValueError(f"bad tactical result code {code!r}")
    if colour and not _COLOUR.match(colour):
        raise ValueError(f"bad colour {colour!r} in {text!r} (lower-case words)")
    if codes is not None and code not in set(codes):
        raise ValueError(f"unknown tactical result {code!r}")
    if colour and colours is not None and colour not in set(colours):
        raise ValueError(f"unknown colour {colour!r} in {text!r}")
    return Tactical(code, colour)


def parse_cell(text: str, codes: Iterable[str] | None = None,
               colours: Iterable[str] | None = None) -> Cell:
    """A transcribed cell, ``"LOSSES A D"``: ``"1/2 E2:red DR2:blue"``."""
    if not isinstance(text, str):
        raise ValueError(f"bad CRT cell {text!r}")
    parts = text.split()
    if len(parts) != 3:
        raise ValueError(f"bad CRT cell {text!r}: expected 'A/D ATTACKER:colour DEFENDER:colour'")
    m = _LOSSES.match(parts[0])
    if not m or not parts[0].isascii():
        raise ValueError(f"bad losses {parts[0]!r} in CRT cell {text!r}")
    code_list = None if codes is None else tuple(codes)
    colour_list = None if colours is None else tuple(colours)
    return Cell(int(m.group(1)), int(m.group(2)), parse_tactical(parts[1], code_list, colour_list),
                parse_tactical(parts[2], code_list, colour_list))


class Crt2d6:
    """A two-dice table: an :class:`OddsLadder` and, for every printed
    column and every roll 2..12, a :class:`Cell`.

    ``cells[label][roll]`` is given column by column, as a transcriber reads
    the printed table.  Every printed column needs all eleven rows.
    """

    def __init__(self, ladder: OddsLadder, cells: Mapping[str, Mapping[int, Cell]]) -> None:
        self.ladder = ladder
        missing = [lbl for lbl in ladder.labels if lbl not in cells]
        extra = [lbl for lbl in cells if lbl not in ladder.labels]
        if missing or extra:
            raise ValueError(f"CRT columns {missing or ''} missing {extra or ''} unknown".strip())
        self._cells: dict[tuple[int, int], Cell] = {}
        for i, lbl in enumerate(ladder.labels):
            rows = cells[lbl]
            if sorted(rows) != list(ROLLS):
                raise ValueError(f"CRT column {lbl} needs one row for each roll 2..12, has {sorted(rows)}")
            for roll in ROLLS:
                self._cells[(i, roll)] = rows[roll]

    def cell(self, column: int, roll: int) -> Cell:
        """The cell of a printed column; ValueError for an imaginary column
        or a roll outside 2..12 (a modified roll is the game's business)."""
        if not self.ladder.printed(column):
            raise ValueError(f"column {self.ladder.label(column)} is not on the printed table")
        if roll not in ROLLS:
            raise ValueError(f"a two-dice table has no row for {roll}")
        return self._cells[(column, roll)]

    def colour_group(self, column: int, roll: int, side: str, *, whole_column: bool = False) -> tuple[str, ...]:
        """The tactical results ``side`` may pick with an Elite bonus: every
        code printed in the same colour as the rolled one in the same odds
        column, in row order, each once, the rolled one included.  By
        default only ``side``'s own sub-column counts; ``whole_column`` adds
        the other side's sub-column too (a reading some tables need).  A
        result printed without a colour has only itself to choose."""
        rolled = self.cell(column, roll).result(side)
        if not rolled.colour:
            return (rolled.code,)
        sides = (ATTACKER, DEFENDER) if whole_column else (side,)
        out: list[str] = []
        for r in ROLLS:
            for s in sides:
                t = self._cells[(column, r)].result(s)
                if t.colour == rolled.colour and t.code not in out:
                    out.append(t.code)
        return tuple(out)

    def columns(self) -> tuple[str, ...]:
        return self.ladder.labels

