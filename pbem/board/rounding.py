"""Scaling strengths by fractions, with the rounding a rulebook asks for.

Board games multiply and divide combat strengths and movement points by
small factors: a forest doubles a defense, being out of supply halves it,
attacking over a bridge in mud divides an attack by three.  Rulebooks
differ on three points, and every function here takes them as arguments
rather than guessing:

Which way fractions go
    ``"up"`` (Victory Roads 1.9.1: a halved 5 is 3), ``"down"`` (A Victory
    Denied: a halved 5 is 2) or ``"half-up"`` (to the nearest whole number,
    a half going up).

When rounding happens
    Once, at the very end.  The factors of a value are multiplied together
    as one fraction before anything is rounded, so a value both doubled and
    halved is unchanged (VR 1.9.2: a forest defender out of supply keeps
    its printed 10) however the factors are listed.

Whether to add first
    Several values that are halved together are added *before* the halving
    (VR 1.9.2: out-of-supply attackers of 3 and 5 give (3 + 5) / 2 = 4, not
    2 + 3).  :func:`scaled_sum` does exactly that; a game that halves unit
    by unit calls :func:`scaled` per unit instead.

Integers in, integers out; no floats.
"""
from __future__ import annotations

from typing import Iterable

ROUNDINGS = ("up", "down", "half-up")
Factor = tuple[int, int]
"""A multiplier as (numerator, denominator): (2, 1) doubles, (1, 2) halves,
(1, 3) divides by three."""


def _round(num: int, den: int, rounding: str) -> int:
    if rounding == "up":
        return -((-num) // den)
    if rounding == "down":
        return num // den
    if rounding == "half-up":
        return (2 * num + den) // (2 * den)
    raise ValueError(f"unknown rounding {rounding!r}: expected one of {', '.join(ROUNDINGS)}")


def product(factors: Iterable[Factor]) -> Factor:
    """All factors multiplied into one fraction (not reduced; the caller
    only divides once).  ValueError for a zero or negative denominator or a
    negative numerator: strengths are never scaled below zero."""
    num, den = 1, 1
    for f in factors:
        n, d = f
        if d <= 0 or n < 0:
            raise ValueError(f"bad strength factor {n}/{d}")
        num, den = num * n, den * d
    return num, den


def scaled(value: int, factors: Iterable[Factor] = (), rounding: str = "up") -> int:
    """``value`` times every factor, rounded once at the end."""
    if value < 0:
        raise ValueError(f"negative strength {value}")
    num, den = product(factors)
    return _round(value * num, den, rounding)


def scaled_sum(values: Iterable[int], factors: Iterable[Factor] = (), rounding: str = "up") -> int:
    """Add ``values`` first, then scale the total (one rounding)."""
    return scaled(sum(values), factors, rounding)


def halve(value: int, rounding: str = "up") -> int:
    """``value`` / 2, rounded as asked (default up, as VR 1.9.1)."""
    return scaled(value, ((1, 2),), rounding)
