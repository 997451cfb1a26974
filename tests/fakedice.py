"""The one stand-in for the shared random stream in rules tests.

:class:`ScriptedDice` gives the values a test scripts and checks every
request against the script: each scripted roll names the die it must be
rolled on (and, optionally, words its purpose must contain), so a d6 rolled
as a d7, or the Soviet die rolled where the German one was due, fails the
test at once.  Running out of scripted rolls fails too.  With a ``seed``,
rolls past the script come from a seeded generator on the die asked for (a
test that fixes the first rolls and lets the rest fall as they may).

It satisfies the games' Rng contract (``pbem/game/contract.py``): ``roll``,
``draw``, ``shuffle`` and ``secret(seat)``.  Failures are raised with
``pytest.fail`` (a BaseException), so no ``except Exception`` in the code
under test can swallow them.

Use the ``scripted_dice`` fixture (``tests/conftest.py``), which also fails a
test that leaves scripted rolls unused, or build one directly where a helper
needs it::

    dice = scripted_dice([(10, 9), (6, 3, "German d6")], draws=["EI"])

A test that plays whole exchanges through the engine (the real stream)
and looks for a situation in them plays them under :func:`seeded_urandom`
(the ``seeded_urandom`` fixture), so that the game is the same on every run.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import random
from typing import Any, Iterable, Iterator, Sequence

import pytest

Roll = tuple  # (sides, value) or (sides, value, purpose words)


@contextlib.contextmanager
def seeded_urandom(seed: str) -> Iterator[None]:
    """os.urandom from a generator seeded with ``seed`` while the block runs.

    A game's dice come from its seats' dice-chain seeds (its secret draws
    from their secret seeds), drawn from os.urandom, never from the keys: a
    game the scripted players play in the block is the same game on every
    run (the rules and the scripted players depend on no set order: the
    same under every PYTHONHASHSEED), so whether a situation a test looks
    for comes is not down to the dice."""
    gen = random.Random(seed)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(os, "urandom", gen.randbytes)
        yield


def _entry(item: Any) -> tuple[int, int, str]:
    if not isinstance(item, tuple) or len(item) not in (2, 3):
        raise TypeError(f"a scripted roll is (sides, value) or (sides, value, purpose words), not {item!r}")
    sides, value = item[0], item[1]
    words = item[2] if len(item) == 3 else ""
    if not (isinstance(sides, int) and isinstance(value, int) and 1 <= value <= sides):
        raise ValueError(f"scripted roll {item!r}: a d{sides} cannot show {value}")
    return sides, value, words


class ScriptedDice:
    """Scripted rolls and draws, each request checked (tests only).

    ``rolls``: ``(sides, value)`` or ``(sides, value, words)`` in the order
    the rules must ask for them.  ``draws``: for each draw, the item wanted
    (or an int index where the items are not ints); ``draws=None`` takes the
    first item of every draw.  ``seed``: rolls and draws past the script are
    seeded-random instead of failing.  ``secrets``: seat -> the stream
    ``secret(seat)`` returns (another dice object, or None for a program
    blind to that seat); ``blind``: seats whose secret stream is None; a
    seat in neither gets a seeded stream when ``seed`` is given, else an
    unscripted one (shuffles keep the order, draws take the first item,
    any roll fails).  ``log`` lists the purpose of every roll and draw,
    ``rolled`` each roll's ``(purpose, value)``."""

    def __init__(self, rolls: Iterable[Roll] = (), draws: Sequence[Any] | None = None, *,
                 seed: int | None = None, secrets: dict[str, Any] | None = None,
                 blind: Iterable[str] = ()) -> None:
        self.rolls = [_entry(r) for r in rolls]
        self.draws = None if draws is None else list(draws)
        self.seed = seed
        self.r = random.Random(seed) if seed is not None else None
        self.secrets: dict[str, Any] = dict(secrets or {})
        self.blind = set(blind)
        self.log: list = []
        self.rolled: list[tuple[str, int]] = []

    def _note(self, purpose: str, value: int, roll: bool) -> None:
        self.log.append(purpose)
        if roll:
            self.rolled.append((purpose, value))

    # -- the Rng contract

    def roll(self, sides: int, purpose: str) -> int:
        if self.rolls:
            want, value, words = self.rolls.pop(0)
            if sides != want:
                pytest.fail(f"dice: asked for a d{sides} ({purpose!r}) where the script has a d{want} "
                            f"showing {value}", pytrace=False)
            if words and words.lower() not in purpose.lower():
                pytest.fail(f"dice: roll {purpose!r} where the script expects {words!r}", pytrace=False)
        elif self.r is not None:
            value = self.r.randint(1, sides)
        else:
            pytest.fail(f"dice: unexpected roll, d{sides} for {purpose!r} (script used up)", pytrace=False)
        self._note(purpose, value, True)
        return value

    def draw(self, items: Sequence[Any], purpose: str) -> int:
        if not items:
            pytest.fail(f"dice: draw from nothing for {purpose!r}", pytrace=False)
        if self.draws:
            want = self.draws.pop(0)
            if want in items:
                index = list(items).index(want)
            elif isinstance(want, int) and not isinstance(want, bool) and 0 <= want < len(items):
                index = want
            else:
                pytest.fail(f"dice: draw for {purpose!r} wants {want!r}, not among {list(items)!r}",
                            pytrace=False)
        elif self.draws is None:
            index = 0
        elif self.r is not None:
            index = self.r.randrange(len(items))
        else:
            pytest.fail(f"dice: unexpected draw for {purpose!r} (script used up)", pytrace=False)
        self._note(purpose, index, False)
        return index

    def shuffle(self, items: Sequence[Any], purpose: str) -> list[Any]:
        out = list(items)
        if self.r is not None:
            self.r.shuffle(out)
        return out

    def secret(self, seat: str) -> "ScriptedDice | None":
        if seat in self.blind:
            return None
        if seat not in self.secrets:
            if self.seed is None:       # face-down items stay as named, draws take the first, no rolls
                self.secrets[seat] = ScriptedDice()
                return self.secrets[seat]
            key = int(hashlib.sha256(f"{self.seed}/{seat}".encode()).hexdigest()[:8], 16)
            self.secrets[seat] = SeededDice(key)
        return self.secrets[seat]

    # -- for the fixture

    def unused(self) -> list[tuple[int, int, str]]:
        return list(self.rolls)


class SeededDice(ScriptedDice):
    """Seeded-random rolls and draws on the dice asked for, after the
    scripted ``rolls`` (each checked as in :class:`ScriptedDice`); ``log``
    holds each roll's ``(purpose, value)``."""

    def __init__(self, seed: int = 0, rolls: Iterable[Roll] = (), blind: Iterable[str] = ()) -> None:
        super().__init__(rolls, draws=[], seed=seed, blind=blind)

    def _note(self, purpose: str, value: int, roll: bool) -> None:
        if roll:
            self.log.append((purpose, value))
            self.rolled.append((purpose, value))


def d6(*values: int) -> list[tuple[int, int]]:
    """Scripted d6 rolls: ``d6(5, 6)`` is ``[(6, 5), (6, 6)]``."""
    return [(6, v) for v in values]


def d10(*values: int) -> list[tuple[int, int]]:
    """Scripted d10 rolls (a d10's 0 is 10)."""
    return [(10, v) for v in values]
