"""Shared fixtures.  ``scripted_dice``: the one scripted stand-in for the
shared random stream (see tests/fakedice.py)."""
from __future__ import annotations

import pytest

from fakedice import ScriptedDice


@pytest.fixture
def scripted_dice():
    """A factory of :class:`fakedice.ScriptedDice`; at the end of the test
    every scripted roll must have been asked for::

        def test_x(scripted_dice):
            dice = scripted_dice([(10, 9), (6, 3, "German d6")], draws=["EI"])
    """
    made: list[ScriptedDice] = []

    def make(*args, **kw) -> ScriptedDice:
        dice = ScriptedDice(*args, **kw)
        made.append(dice)
        return dice

    yield make
    left = [(i, d.unused()) for i, d in enumerate(made) if d.unused()]
    if left:
        pytest.fail(f"scripted rolls never asked for: {left}", pytrace=False)
