"""A whole A Victory Denied practice game through the exchange engine: two
generated players (the scripted demo player, with standing orders) exchange
signed files from the Turn 1 chit selection to the end of the game, in both
dice timings; each side's program verifies every exchange of the other; a
bystander's replay and the end-of-game audit (nothing hidden) agree."""
from __future__ import annotations

import enginehelp


import pytest

from pbem import cycle
from avd_fixtures import play_game


@pytest.mark.parametrize("dice", ["sealed", "immediate"])
def test_practice_game_from_turn_1_to_the_end_through_the_engine(dice: str) -> None:
    gf, sc, ids, matches = play_game(dice)
    german, soviet = matches["german"], matches["soviet"]
    assert german.over() and soviet.over()
    assert german.rules.result(german.state)            # the victory computation is there
    assert german.state_hash() == soviet.state_hash()
    bystander = cycle.replay(gf, sc)                 # no secrets at all
    assert bystander.state_hash() == german.state_hash()
    rolls = sum(len(r.rolls) for r in bystander.records)
    assert rolls > 20                                   # combats, cup draws, VP chits...
    if dice == "sealed":
        # No sender ever saw the result of a roll its own order asked for.
        deferred = [r for r in bystander.records if r.deferred]
        assert deferred and all(not r.rolls or r.entries[0]["by"] != "player" for r in bystander.records
                                if r.rolls and r.opening == 0 and r.side == r.entries[0]["side"])
    # End of game: both disclose; the audit replays with nothing hidden.
    gf = enginehelp.disclose_all(gf, sc, ids)
    audit = cycle.replay(gf, sc, None, audit=True)
    assert audit.state_hash() == german.state_hash()
