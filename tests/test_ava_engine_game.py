"""Whole practice games of A Victory Awaits and Fierce Fight! Smolensk
through the exchange engine: two generated players (the scripted demo
player with its standing orders) exchange signed files from the Surprise
Attack to the result, in both dice timings; each side's program verifies
every exchange of the other, a bystander's replay agrees, and so does the
end-of-game audit with nothing hidden."""
from __future__ import annotations

from pathlib import Path

import enginehelp
import pytest

from pbem import cycle
from pbem.protocol.gamefile import GameFile
from pbem.protocol.identity import generate
from pbem.scenario import load_toml

ROOT = Path(__file__).resolve().parent.parent


def practice(game: str) -> dict:
    return load_toml(ROOT / "scenarios" / game / "practice.toml")


def play_game(game: str, dice: str, limit: int = 4000, stop_after: int | None = None):
    sc = practice(game)
    ids = {"axis": generate("Anna", "anna@example.org"), "soviet": generate("Pavel", "pavel@example.org")}
    gf = cycle.new_game(game_id=f"{game}-test-{dice}", game=game, scenario_name=f"{game}/practice", scenario=sc,
                        options={}, dice=dice, creator=ids["axis"], creator_side="axis",
                        invited={"soviet": ids["soviet"].public})
    soviet = cycle.replay(gf, sc, ids["soviet"])
    join = cycle.join_exchange(soviet, ids["soviet"], "soviet")
    cycle.advance(soviet, join, ids["soviet"])
    axis = cycle.replay(GameFile(gf.exchanges + [join]), sc, ids["axis"])
    matches = {"axis": axis, "soviet": soviet}
    configured: set[str] = set()
    for _ in range(limit):
        side = axis.next_sender()
        if side is None or (stop_after is not None and len(axis.exchanges) >= stop_after):
            break
        turn = cycle.Turn(matches[side], ids[side])
        if side not in configured:
            for name, value in turn.m.rules.demo_policies(side).items():
                if not turn.done:               # a standing order may answer the decision at hand
                    turn.push(f"policy {name} {value}")
            configured.add(side)
        while not turn.done:
            turn.push(turn.m.rules.demo_order(turn.es["game"], turn.pending()))
        ex = turn.finish()
        for s, m in matches.items():
            cycle.advance(m, ex, ids[s])
    else:
        raise AssertionError("the game did not end")
    return GameFile(list(axis.exchanges)), sc, ids, matches


@pytest.mark.parametrize("dice", ["sealed", "immediate"])
@pytest.mark.parametrize("game", ["ava", "ffs"])
def test_practice_game_from_the_surprise_attack_to_the_result(game: str, dice: str) -> None:
    gf, sc, ids, matches = play_game(game, dice)
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
