"""Properties of the exchange cycle over many random games (hypothesis):
whatever the players choose, in either dice timing and with or without
standing orders, each player's program, a bystander and the audit agree on
every state; under sealed timing no sender ever drew from a stream for an
order of its own."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import enginehelp as eh
from pbem import cycle
from pbem.protocol.gamefile import GameFile


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dice=st.sampled_from(["sealed", "immediate"]), choices=st.lists(st.integers(0, 2), min_size=60, max_size=60),
       policy=st.sampled_from([None, "block", "dodge"]))
def test_every_program_agrees_on_every_exchange(dice: str, choices: list[int], policy: str | None) -> None:
    sc = eh.duel_scenario()
    sc["duel"]["rounds"] = 3
    gf, sc, ids = eh.start(dice, sc)
    views = {s: cycle.replay(gf, sc, ids[s]) for s in ids}
    pick = iter(choices)
    for _ in range(40):
        side = views["red"].next_sender()
        if side is None:
            break
        turn = cycle.Turn(views[side], ids[side])
        if policy and side == "blue" and not views["blue"].es["policies"]["blue"]:
            turn.push(f"policy defense {policy}")
        while not turn.done:
            opts = turn.pending().options
            turn.push(opts[next(pick, 0) % len(opts)])
        ex = turn.finish()
        for s, view in views.items():
            cycle.advance(view, ex, ids[s])
        assert views["red"].state_hash() == views["blue"].state_hash()
    gf = GameFile(list(views["red"].exchanges))
    bystander = cycle.replay(gf, sc)
    assert bystander.state_hash() == views["red"].state_hash()
    if dice == "sealed":
        for rec in bystander.records:
            # The duel's only roll is an attack, always a player's own order:
            # it must wait for the opponent's exchange, whose opening resolves it.
            attacks = [e for e in rec.entries if e["order"].get("verb") == "attack"]
            assert all(e.get("deferred") for e in attacks)
            if rec.rolls:
                assert rec.opening > 0
    if bystander.over():
        gf = eh.disclose_all(gf, sc, ids)
        assert cycle.replay(gf, sc, None, audit=True).state_hash() == bystander.state_hash()
