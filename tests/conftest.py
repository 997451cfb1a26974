"""Shared fixtures.  ``scripted_dice``: the one scripted stand-in for the
shared random stream (see tests/fakedice.py).

Hypothesis's default profile here: no deadline and no too_slow health
check.  Both time the test or its data generation against the wall clock
(200 ms an example; 1 s for the first examples' data), which a loaded CI
machine (the suite on 2 cores shared with other jobs) can exceed by chance,
failing a test whose property holds.  A test's own ``settings`` start from
this profile; one that names its own ``suppress_health_check`` list names
too_slow in it too."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

from fakedice import ScriptedDice, seeded_urandom as _seeded_urandom

settings.register_profile("pbem", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("pbem")


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


@pytest.fixture
def seeded_urandom(request):
    """os.urandom seeded with the test's module and name for the whole test
    (:func:`fakedice.seeded_urandom`): the games it plays through the engine
    are the same on every run."""
    with _seeded_urandom(f"{request.module.__name__}::{request.node.name}"):
        yield
