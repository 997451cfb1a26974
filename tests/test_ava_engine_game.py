"""Whole practice games of A Victory Awaits and Fierce Fight! Smolensk
through the exchange engine: two generated players (the scripted demo
player with its standing orders) exchange signed files from the Surprise
Attack to the result, in both dice timings; each side's program verifies
every exchange of the other, a bystander's replay agrees, and so does the
end-of-game audit with nothing hidden."""
from __future__ import annotations


import enginehelp
import pytest

from pbem import cycle


@pytest.mark.parametrize("dice", ["sealed", "immediate"])
@pytest.mark.parametrize("game", ["ava", "ffs"])
def test_practice_game_from_the_surprise_attack_to_the_result(game: str, dice: str) -> None:
    gf, sc, ids, matches = enginehelp.play_ava(game, dice)
    axis, soviet = matches["axis"], matches["soviet"]
    assert axis.over() and soviet.over()
    assert "Game ends after the Turn" in axis.rules.result(axis.state)
    assert axis.state["turn"] == axis.rules.last_turn
    assert axis.state_hash() == soviet.state_hash()
    bystander = cycle.replay(gf, sc)                 # no secrets at all
    assert bystander.state_hash() == axis.state_hash()
    assert sum(len(r.rolls) for r in bystander.records) > 50     # draws, combats, deals
    if dice == "sealed":
        assert any(r.deferred for r in bystander.records)
    gf = enginehelp.disclose_all(gf, sc, ids)
    audit = cycle.replay(gf, sc, None, audit=True)
    assert audit.state_hash() == axis.state_hash()
