"""combat.Odds and combat.PvoEffect are plain classes (speed only: no
methods compiled at import) that behave as the dataclasses they were:
the same arguments and defaults, repr, equality and unhashability."""
from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from pbem.games.avd import combat


@dataclass
class Odds:
    column: int | None
    label: str
    attack: int
    defense: int
    steps: list[str] = field(default_factory=list)
    legal: bool = True
    reason: str = ""


@dataclass
class PvoEffect:
    options: list[dict[str, int]]
    others_retreat: int


ODDS_ARGS = [((3, "3-1", 6, 2), {}), ((None, "", 1, 4, ["a", "b"], False, "below 1-1"), {}),
             ((0, "1-2", 1, 2), {"reason": "x", "legal": False}), ((1, "1-1", 2, 2), {"steps": ["s"]})]


@pytest.mark.parametrize("args, kwargs", ODDS_ARGS)
def test_odds_as_the_dataclass(args, kwargs):
    mine, theirs = combat.Odds(*args, **kwargs), Odds(*args, **kwargs)
    assert repr(mine) == repr(theirs)
    assert mine == combat.Odds(*args, **kwargs) and not mine != combat.Odds(*args, **kwargs)
    assert mine != theirs and (mine == 3) is False
    assert combat.Odds(*args[:4]).steps == [] and combat.Odds(*args[:4]).steps is not combat.Odds(*args[:4]).steps
    assert vars(mine) == vars(theirs)
    with pytest.raises(TypeError):
        hash(mine)


def test_odds_refuses_what_the_dataclass_refuses():
    for bad in [(), (1, "1-1", 2), (1, "1-1", 2, 2, [], True, "", "extra")]:
        with pytest.raises(TypeError):
            Odds(*bad)
        with pytest.raises(TypeError):
            combat.Odds(*bad)
    with pytest.raises(TypeError):
        combat.Odds(1, "1-1", 2, 2, colour="red")


def test_pvo_effect_as_the_dataclass():
    for args in [([{"P0": 1}], 0), ([{"P0": 1, "P1": 1}], 1), ([], 2)]:
        mine, theirs = combat.PvoEffect(*args), PvoEffect(*args)
        assert repr(mine) == repr(theirs) and vars(mine) == vars(theirs)
        assert mine == combat.PvoEffect(*args) and mine != combat.PvoEffect(args[0], 9) and mine != theirs
        with pytest.raises(TypeError):
            hash(mine)
    assert combat.PvoEffect(others_retreat=1, options=[]) == combat.PvoEffect([], 1)
