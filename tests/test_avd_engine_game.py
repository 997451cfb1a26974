"""A whole A Victory Denied practice game through the exchange engine: two
generated players (the scripted demo player, with standing orders) exchange
signed files from the Turn 1 chit selection to the end of the game, in both
dice timings; each side's program verifies every exchange of the other; a
bystander's replay and the end-of-game audit (nothing hidden) agree."""
from __future__ import annotations

import enginehelp

from pathlib import Path

import pytest

from pbem import cycle
from pbem.protocol.gamefile import GameFile
from pbem.protocol.identity import generate
from pbem.scenario import load_toml

PRACTICE = Path(__file__).resolve().parent.parent / "scenarios" / "avd" / "practice.toml"


def play_game(dice: str, limit: int = 3000, stop_after: int | None = None):
    sc = load_toml(PRACTICE)
    ids = {"german": generate("Anna", "anna@example.org"), "soviet": generate("Pavel", "pavel@example.org")}
    gf = cycle.new_game(game_id=f"avd-test-{dice}", game="avd", scenario_name="avd/practice", scenario=sc,
                           options={}, dice=dice, creator=ids["german"], creator_side="german",
                           invited={"soviet": ids["soviet"].public})
    soviet = cycle.replay(gf, sc, ids["soviet"])
    join = cycle.join_exchange(soviet, ids["soviet"], "soviet")
    cycle.advance(soviet, join, ids["soviet"])
    german = cycle.replay(GameFile(gf.exchanges + [join]), sc, ids["german"])
    matches = {"german": german, "soviet": soviet}
    configured: set[str] = set()
    for _ in range(limit):
        side = german.next_sender()
        if side is None or (stop_after is not None and len(german.exchanges) >= stop_after):
            break
        turn = cycle.Turn(matches[side], ids[side])
        if side not in configured:
            for name, value in turn.m.rules.demo_policies(side).items():
                turn.push(f"policy {name} {value}")
            configured.add(side)
        while not turn.done:
            turn.push(turn.m.rules.demo_order(turn.es["game"], turn.pending()))
        ex = turn.finish()
        for s, m in matches.items():
            cycle.advance(m, ex, ids[s])
    else:
        raise AssertionError("the game did not end")
    return GameFile(list(german.exchanges)), sc, ids, matches


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
