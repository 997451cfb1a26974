"""The kernel's odds.Result and notation.Notation are plain classes (speed
only: no methods compiled at import) that behave as the frozen dataclasses
they were: the same arguments and defaults, repr, equality, hash, and
FrozenInstanceError on assignment."""
from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import FrozenInstanceError, dataclass

import pytest

from pbem.board.notation import NO, YES, Notation
from pbem.board.odds import Result, parse_result


@dataclass(frozen=True)
class WasResult:
    attacker_steps: int = 0
    defender_steps: int = 0
    retreat: int = 0
    special: str = ""


@dataclass(frozen=True)
class WasNotation:
    refusal: Callable[[str], Exception]
    hex_pattern: re.Pattern[str]
    hex_hint: str
    yes: Collection[str] = YES
    no: Collection[str] = NO


def _same(mine: object, theirs: object, name: str) -> None:
    assert repr(mine).replace(type(mine).__name__ + "(", name + "(", 1) == repr(theirs)
    assert vars(mine) == vars(theirs)
    fields = tuple(vars(theirs).values())
    assert hash(mine) == hash(fields) == hash(theirs)
    assert mine == type(mine)(*fields) and not mine != type(mine)(*fields) and mine != theirs
    assert (mine == fields) is False
    for attr in vars(theirs):
        with pytest.raises(FrozenInstanceError):
            setattr(mine, attr, 1)
        with pytest.raises(FrozenInstanceError):
            delattr(mine, attr)
    with pytest.raises(FrozenInstanceError):
        mine.extra = 1      # type: ignore[attr-defined]


@pytest.mark.parametrize("args, kwargs", [((), {}), ((1,), {}), ((0, 2, 1), {}), ((1, 1, 2, "elite"), {}),
                                          ((), {"special": "x", "retreat": 3})])
def test_result_as_the_frozen_dataclass(args, kwargs):
    _same(Result(*args, **kwargs), WasResult(*args, **kwargs), "WasResult")
    assert str(Result(0, 3, 2)) == str(parse_result("3DR2"))
    with pytest.raises(TypeError):
        Result(1, 2, 3, "", 5)
    with pytest.raises(TypeError):
        Result(colour=1)


def test_notation_as_the_frozen_dataclass():
    pattern = re.compile(r"\d{4}")
    for extra in [(), (("ja",),), (("ja",), ("nein",))]:
        _same(Notation(ValueError, pattern, "four digits", *extra),
              WasNotation(ValueError, pattern, "four digits", *extra), "WasNotation")
    with pytest.raises(TypeError):
        Notation(ValueError, pattern)
