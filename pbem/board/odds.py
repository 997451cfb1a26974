"""Odds-ratio combat tables: columns, shifts, rounding and results.

A Combat Results Table (CRT) is data that each game loads from its scenario
files; this module only knows the arithmetic all the odds-based games share:

* a column label such as ``"1.5-1"`` names the ratio 3:2; ``"10+-1"`` the
  capped 10:1 column; ``"1-2"`` the ratio 1:2;
* the attack-to-defense ratio is rounded *down* to a column, i.e. in the
  defender's favour, using only integer arithmetic (``attack * den >=
  defense * num``), never floats;
* column shifts move left (toward the defender) or right and stop at the
  table edges; which shifts exist, in what order and whether an attack below
  the first column is allowed at all are rules the game applies itself;
* halving and quartering strengths always round down;
* a printed result cell ("3DR2", "A1", "-") parses into a :class:`Result`.
"""
from __future__ import annotations

import functools
import re
from math import gcd
from typing import Iterable, Mapping, Sequence

from pbem.board.frozen import Frozen

_NUMBER = re.compile(r"^(\d+)(?:\.(\d+))?\+?$")


def _fraction(text: str) -> tuple[int, int]:
    m = _NUMBER.match(text.strip())
    if not m:
        raise ValueError(f"bad odds number {text!r}")
    whole, decimals = m.group(1), m.group(2) or ""
    num, den = int(whole + decimals), 10 ** len(decimals)
    return num, den


def parse_column(label: str) -> tuple[int, int]:
    """A CRT column label -> its ratio as a reduced (attack, defense) pair.

    Accepts ``-``, ``:`` or an en dash between the two sides and a trailing
    ``+`` on the highest column: "1.5-1" -> (3, 2), "10+-1" -> (10, 1),
    "1:2" -> (1, 2)."""
    if not isinstance(label, str):
        raise ValueError(f"bad CRT column label {label!r}")
    return _parse_label(label)


@functools.lru_cache(maxsize=256)
def _parse_label(label: str) -> tuple[int, int]:
    # Kept per label: every odds calculation reads the same few columns.
    text = label.strip().replace("\u2013", "-").replace(":", "-")
    parts = text.rsplit("-", 1)
    if len(parts) != 2:
        raise ValueError(f"bad CRT column label {label!r}")
    an, ad = _fraction(parts[0])
    dn, dd = _fraction(parts[1])
    num, den = an * dd, ad * dn
    if num == 0 or den == 0:
        raise ValueError(f"bad CRT column label {label!r}: zero side")
    g = gcd(num, den)
    return num // g, den // g


def ratio_column(attack: int, defense: int, columns: Sequence[str]) -> int | None:
    """Index of the CRT column for ``attack`` against ``defense``: the
    highest column whose ratio the odds reach (rounding down, so in the
    defender's favour), capped at the last column.  ``None`` when the odds
    are below the first column; a defense of 0 gives the last column."""
    if attack < 0 or defense < 0:
        raise ValueError(f"negative combat strength {attack}:{defense}")
    if not columns:
        raise ValueError("a CRT needs at least one column")
    if defense == 0:
        return len(columns) - 1
    found: int | None = None
    for i, (num, den) in enumerate(_ratios(columns)):
        if attack * den >= defense * num:
            found = i
    return found


def _ratios(columns: Sequence[str]) -> Sequence[tuple[int, int]]:
    """parse_column of each label in turn (the first bad one raises), kept
    per table of labels when it is a tuple (speed only: every odds
    calculation asks again)."""
    if type(columns) is tuple:
        try:
            return _table_ratios(columns)
        except TypeError:       # a label that cannot be a key: not kept
            pass
    return [parse_column(label) for label in columns]


@functools.lru_cache(maxsize=32)
def _table_ratios(columns: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    return tuple(parse_column(label) for label in columns)


def shift(index: int, by: int, n_columns: int) -> int:
    """Move ``by`` columns (negative = left, toward the defender), stopping
    at the first and last column."""
    if n_columns < 1:
        raise ValueError("a CRT needs at least one column")
    return max(0, min(n_columns - 1, index + by))


def divide(value: int, divisor: int) -> int:
    """``value`` divided by ``divisor``, rounded down (halving 5 gives 2,
    quartering 3 gives 0)."""
    if divisor <= 0:
        raise ValueError(f"cannot divide a strength by {divisor}")
    return value // divisor


class Result(Frozen):
    """One CRT outcome.  ``attacker_steps`` / ``defender_steps`` are steps
    lost; ``retreat`` is the hexes every surviving defender retreats (losses
    are taken first); ``special`` is "" or a word the game's table uses for a
    cell it handles itself (e.g. "elite").

    A plain class with the methods ``@dataclass(frozen=True)`` would write
    (the same arguments and defaults, repr, equality and hash of the
    fields, FrozenInstanceError on assignment), not the decorator: speed
    only, the decorator compiles them at every cold start
    (tests/test_board_speed_plain_frozen.py)."""

    __match_args__ = ("attacker_steps", "defender_steps", "retreat", "special")
    attacker_steps: int
    defender_steps: int
    retreat: int
    special: str

    def __init__(self, attacker_steps: int = 0, defender_steps: int = 0, retreat: int = 0, special: str = "") -> None:
        object.__setattr__(self, "attacker_steps", attacker_steps)
        object.__setattr__(self, "defender_steps", defender_steps)
        object.__setattr__(self, "retreat", retreat)
        object.__setattr__(self, "special", special)

    def _fields(self) -> tuple[int, int, int, str]:
        return (self.attacker_steps, self.defender_steps, self.retreat, self.special)

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(attacker_steps={self.attacker_steps!r}, "
                f"defender_steps={self.defender_steps!r}, retreat={self.retreat!r}, special={self.special!r})")


    def __str__(self) -> str:
        return format_result(self)


_DEFENDER = re.compile(r"^(\d*)(DR(\d*)|RR|R)?$")


def parse_result(text: str, specials: Iterable[str] = ()) -> Result:
    """A printed CRT cell -> :class:`Result`.

    Vocabulary: ``-`` no effect; ``A1`` attacker loses 1 step; ``3`` the
    defender loses 3 steps; ``DR`` / ``DR2`` defenders retreat 1 / 2 hexes;
    ``3DR2`` both.  ``R`` and ``RR`` (retreat 1 / 2, as some tables print
    them, ``2RR`` with losses) are accepted too; letters in either case, and
    an en or em dash for ``-``.  Attacker and defender
    parts combine with ``/`` or spaces ("A1/1", "A1 DR").  A word listed in
    ``specials`` (case-insensitive) sets ``special``.  ValueError on anything
    else."""
    if not isinstance(text, str):
        raise ValueError(f"bad CRT result {text!r}")
    words = {w.lower() for w in specials}
    tokens = [t for t in re.split(r"[\s/]+", text.strip()) if t]
    if not tokens:
        raise ValueError(f"bad CRT result {text!r}: empty")
    att = dfn = ret = 0
    special = ""
    seen: set[str] = set()

    def once(part: str) -> None:
        if part in seen:
            raise ValueError(f"bad CRT result {text!r}: two {part} parts")
        seen.add(part)

    for tok in tokens:
        if tok in ("-", "\u2013", "\u2014"):
            once("no-effect")
            continue
        if tok.lower() in words:
            once("special")
            special = tok.lower()
            continue
        if tok[0] in "Aa" and tok[1:].isdigit() and tok[1:].isascii():
            once("attacker")
            att = int(tok[1:])
            continue
        # Letters in either case, as the attacker's "a1" already is read.
        m = _DEFENDER.match(tok.upper())
        if not m or not tok.isascii() or tok == "":
            raise ValueError(f"bad CRT result {text!r}: cannot read {tok!r}")
        losses, retreat = m.group(1), m.group(2)
        if losses:
            once("defender losses")
            dfn = int(losses)
        if retreat:
            once("retreat")
            if retreat.startswith("DR"):
                ret = int(m.group(3)) if m.group(3) else 1
            else:
                ret = len(retreat)
            if ret == 0:
                raise ValueError(f"bad CRT result {text!r}: retreat of 0 hexes")
    if "no-effect" in seen and len(seen) > 1:
        raise ValueError(f"bad CRT result {text!r}: '-' mixed with a result")
    return Result(att, dfn, ret, special)


def format_result(result: Result) -> str:
    """The inverse of :func:`parse_result`, in the ``A1 3DR2`` form."""
    parts = []
    if result.attacker_steps:
        parts.append(f"A{result.attacker_steps}")
    dfn = str(result.defender_steps) if result.defender_steps else ""
    if result.retreat:
        dfn += "DR" if result.retreat == 1 else f"DR{result.retreat}"
    if dfn:
        parts.append(dfn)
    if result.special:
        parts.append(result.special)
    return " ".join(parts) or "-"


def crt_lookup(rows: Mapping[int, Sequence[str]], column: int, roll: int) -> str:
    """The cell of a CRT given as ``{roll: [cell per column]}``.  ValueError
    for a roll or column the table does not have."""
    if roll not in rows:
        raise ValueError(f"the CRT has no row for a roll of {roll}")
    row = rows[roll]
    if not 0 <= column < len(row):
        raise ValueError(f"the CRT has no column {column} (it has {len(row)})")
    return row[column]
