"""Combat arithmetic of *Victory Roads* (§7), pure functions on numbers and
tables: strengths with one rounding (1.9), odds and imaginary columns
(7.5), the Elite choice from a colour group (7.9.3), the tactical-result
pipeline (7.9, 3.2, 6.7.5; RULINGS R-37), "Hourra!" (7.9.5) and the
Exploitation marker count (7.14).

The combat procedure (who decides what, in which order, with the dice) is
the rules engine's; everything here is a question with one answer.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Sequence

from pbem.board.crt2d6 import ATTACKER, Crt2d6, OddsLadder
from pbem.board.rounding import Factor
from pbem.games.vr.profile import Profile

OOS: Factor = (1, 2)             # 4.6.2: halved, rounded up
MUD_BRIDGE: Factor = (1, 3)      # 3.2.2: divided by three, rounded up
E_LEVELS = {"E": 1, "E2": 2, "E3": 3, "E4": 4}
E_CODE = {v: k for k, v in E_LEVELS.items()}


@dataclass(frozen=True)
class Part:
    """Units whose strengths are scaled alike: their printed total and the
    factors that apply to them alone (out of supply, over a bridge in Mud)."""

    value: int
    factors: tuple[Factor, ...] = ()


def strength(parts: Iterable[Part], common: Sequence[Factor] = ()) -> int:
    """A side's modified total: each part's value times its own factors,
    added as exact fractions, times the factors common to the side (the
    defender's terrain, an attack across a river by every attacker), then
    rounded up **once** (1.9.1-1.9.2: halved values are added before
    halving, and a value both doubled and halved is unchanged)."""
    total = Fraction(0)
    for p in parts:
        if p.value < 0:
            raise ValueError(f"negative strength {p.value}")
        f = Fraction(p.value)
        for n, d in p.factors:
            f *= Fraction(n, d)
        total += f
    for n, d in common:
        total *= Fraction(n, d)
    return -((-total.numerator) // total.denominator)


def odds(ladder: OddsLadder, attack: int, defense: int, shifts: int = 0) -> tuple[int | None, int | None]:
    """(initial column, final printed column): the ratio rounded for the
    defender (7.5.5), the attacker's shifts counted through imaginary
    columns (7.5.6-7.5.7), then below 1:2 cancelled (None) and above the
    last column fought on it (7.5.8)."""
    first = ladder.column(attack, defense)
    if first is None:
        return None, None
    return first, ladder.final(ladder.shift(first, shifts))


def elite_choices(crt: Crt2d6, column: int, roll: int, side: str, profile: Profile) -> tuple[str, ...]:
    """The tactical results a side using its Elite bonus may pick (7.9.3):
    those of the rolled result's colour in the same column (R-36: its own
    sub-column unless the profile reads the whole column)."""
    return crt.colour_group(column, roll, side, whole_column=profile.elite_group == "whole")


HALTEBEFEHL_ROW = {"S": "-", "DR": "Eng", "DR2": "Eng", "DR3": "Eng"}   # 6.7.5


def tactical(code: str, side: str, *, terrain_row: dict[str, str], weather: str = "fair",
             isolated_haltebefehl: bool = False, hourra: bool = False, no_exploit: bool = False) -> tuple[str, ...]:
    """One side's final tactical result(s) after the R-37 pipeline, from the
    result it rolled or picked with its Elite bonus:

    1. defender under an isolated Haltebefehl: the Haltebefehl row in place
       of the terrain row (6.7.5);
    2. attacker in Mud: no terrain; D1 ignored; E/E2/E3 become Eng, whose
       losses only the attacker takes (3.2.2);
    3. otherwise the terrain row (``terrain_row``: the defender's chosen
       type, or the river row the defender chose for the attacker, 7.9.4);
    4. Snow: E3 becomes E2 (3.2.3);
    5. "Hourra!": one more E level, or an E beside a result that has none
       (7.9.5: D1 becomes D1+E, an E3 the marsh ignored still yields E);
    6. no E at all where the fortification classes forbid it (13.2-13.3).

    The result is a tuple of codes ("D1", "E") with "-" only when nothing
    is left."""
    if isolated_haltebefehl and side != ATTACKER:
        code = HALTEBEFEHL_ROW.get(code, code)
    elif side == ATTACKER and weather == "mud":
        code = "-" if code == "D1" else "Eng" if code in ("E", "E2", "E3") else code
    else:
        code = terrain_row.get(code, code)
    if weather == "snow" and code == "E3":
        code = "E2"
    codes = [code] if code != "-" else []
    if hourra and side == ATTACKER:
        level = E_LEVELS.get(code)
        if level is not None:
            codes = [E_CODE[level + 1]]
        else:
            codes.append("E")
    if no_exploit:
        codes = [c for c in codes if c not in E_LEVELS]
    return tuple(codes) or ("-",)


def exploitation_fits(level: int, armor: int, infantry: int, half_armor: bool) -> bool:
    """Whether ``armor`` armored and ``infantry`` other units may all take
    Exploitation markers under an E result of ``level`` (7.14.2-7.14.3:
    with Armored Exploitation or Hourra! an armored division counts half)."""
    if min(level, armor, infantry) < 0:
        raise ValueError("negative count")
    halves = armor * (1 if half_armor else 2) + infantry * 2
    return halves <= 2 * level


def autonomous(major_steps: int, minor_steps: int, profile: Profile) -> bool:
    """Whether an attack with a minor ally's units is its autonomous attack
    of the phase (7.11.3; R-01): by the rule, the major ally contributes
    fewer than half the steps; by the example's reading, not more steps
    than the minor ally."""
    if minor_steps <= 0:
        return False
    if profile.autonomous_threshold == "majority":
        return major_steps <= minor_steps
    return 2 * major_steps < major_steps + minor_steps
