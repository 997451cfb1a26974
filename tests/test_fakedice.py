"""The shared scripted dice (tests/fakedice.py) check what they are asked."""
from __future__ import annotations

import pytest

from fakedice import ScriptedDice, SeededDice, d6
from pbem.game.contract import Rng

pytest_plugins = ["pytester"]


def test_a_scripted_roll_is_given_on_the_die_it_names(scripted_dice):
    dice = scripted_dice([(6, 4), (10, 7, "Soviet d10")])
    assert isinstance(dice, Rng)
    assert dice.roll(6, "combat 1612, German d6") == 4
    assert dice.roll(10, "combat 1612, Soviet d10") == 7
    assert dice.log == ["combat 1612, German d6", "combat 1612, Soviet d10"]
    assert dice.rolled == [("combat 1612, German d6", 4), ("combat 1612, Soviet d10", 7)]


@pytest.mark.parametrize("sides, purpose, why", [
    (7, "combat, German d6", "asked for a d7"),
    (6, "combat, Soviet d6", "script expects 'German'"),
])
def test_another_die_or_purpose_fails_the_test(sides, purpose, why):
    dice = ScriptedDice([(6, 4, "German")])
    with pytest.raises(pytest.fail.Exception, match=why):
        dice.roll(sides, purpose)


def test_a_used_up_script_fails_and_so_does_an_impossible_value():
    dice = ScriptedDice(d6(3))
    dice.roll(6, "x")
    with pytest.raises(pytest.fail.Exception, match="script used up"):
        dice.roll(6, "y")
    with pytest.raises(ValueError, match="a d6 cannot show 9"):
        ScriptedDice([(6, 9)])
    with pytest.raises(TypeError):
        ScriptedDice([5])                       # a bare value does not say its die


def test_the_fixture_fails_a_test_that_leaves_scripted_rolls_unused(pytester):
    pytester.makeconftest("from conftest_under_test import *")
    pytester.syspathinsert(__import__("pathlib").Path(__file__).parent)
    pytester.makepyfile(conftest_under_test=(__import__("pathlib").Path(__file__).parent / "conftest.py").read_text())
    pytester.makepyfile("""
        def test_x(scripted_dice):
            scripted_dice([(6, 1), (6, 2)]).roll(6, "one")
    """)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*scripted rolls never asked for*(6, 2*"])


def test_draws_name_the_item_and_secret_streams_follow_the_contract():
    dice = ScriptedDice(draws=["EI", 1])
    assert dice.draw(["A", "EI"], "elite") == 1
    assert dice.draw([5, 6, 7], "index") == 1
    with pytest.raises(pytest.fail.Exception, match="script used up"):
        dice.draw(["A"], "one more")
    assert ScriptedDice().draw(["A", "B"], "unscripted draws take the first") == 0
    blind = ScriptedDice(blind=("soviet",))
    assert blind.secret("soviet") is None and blind.secret("german").shuffle([3, 1, 2], "as named") == [3, 1, 2]
    seeded = SeededDice(5, d6(6))
    assert seeded.roll(6, "scripted") == 6 and 1 <= seeded.roll(10, "seeded") <= 10
    assert seeded.log[0] == ("scripted", 6)
    assert seeded.secret("german") is seeded.secret("german") is not None
