"""A replay keeps no snapshot before an order its file says did not wait
for dice (pbem.cycle.run.ExchangeRun._may_defer, speed only).  A hostile
file whose entry claims no deferral for an order that needs dice is still
refused cleanly, by the same words as with the snapshot, in a cold replay
and in a match advanced one exchange at a time.

The game is the duel test game under sealed dice: red's attack (exchange
5) waits for blue's reveal.  The modified program rolls it at once from the
stream its sender knows."""
from __future__ import annotations

from typing import Any

import enginehelp as eh
import pytest

from pbem import cycle
from pbem.cycle import run as run_mod
from pbem.errors import InvalidFile
from pbem.protocol.gamefile import GameFile

ATTACK = 5                    # the exchange in which red attacks


def _start() -> tuple[GameFile, dict[str, Any], dict[str, Any]]:
    sc = eh.duel_scenario()
    red, blue = eh.players()
    gf = cycle.new_game(game_id="g-told-deferral", game="duel", scenario_name="duel/test", scenario=sc, options={},
                        dice="sealed", creator=red, creator_side="red", invited={"blue": blue.public})
    gf = GameFile(gf.exchanges + [cycle.join_exchange(cycle.replay(gf, sc, blue), blue, "blue")])
    return gf, sc, {"red": red, "blue": blue}


def _write(gf: GameFile, sc: dict[str, Any], ids: dict[str, Any], cheat: bool = False) -> GameFile:
    seat = cycle.replay(gf, sc).next_sender()
    assert seat is not None
    m = cycle.replay(gf, sc, ids[seat])
    with pytest.MonkeyPatch.context() as local:
        if cheat:
            # The sender's own stream serves his order: no deferral.
            local.setattr(run_mod.ExchangeRun, "_no_stream", lambda self: self.rng)
        t = cycle.Turn(m, ids[seat])
        while not t.done:
            t.push(eh.first_option(t.pending()))
        ex = t.finish()
    return GameFile(gf.exchanges + [ex])


def _reasons(gf: GameFile, sc: dict[str, Any], ids: dict[str, Any]) -> set[str]:
    """Why blue's program (advancing its match) and a bystander's (a cold
    replay) refuse the last exchange."""
    prefix = GameFile(gf.exchanges[:-1])
    checks = (lambda: cycle.advance(cycle.replay(prefix, sc, ids["blue"]), gf.last, ids["blue"]),
              lambda: cycle.replay(gf, sc))
    reasons = set()
    for check in checks:
        with pytest.raises(InvalidFile) as refused:
            check()
        reasons.add(str(refused.value))
    return reasons


def _attack_at(ex: dict[str, Any]) -> int:
    (k,) = [k for k, e in enumerate(ex["orders"]) if e["order"]["verb"] == "attack"]
    return k


def test_hostile_an_order_needing_dice_listed_as_not_deferred_is_refused(monkeypatch):
    gf, sc, ids = _start()
    while len(gf.exchanges) < ATTACK - 1:
        gf = _write(gf, sc, ids)
    honest = _write(gf, sc, ids)
    assert honest.last["orders"][_attack_at(honest.last)]["deferred"] is True
    forged = _write(gf, sc, ids, cheat=True)
    k = _attack_at(forged.last)
    assert "deferred" not in forged.last["orders"][k]
    reasons = _reasons(forged, sc, ids)
    assert reasons == {f"exchange {ATTACK} by red: order list differs from the replay at entry {k + 1}"}, reasons
    # The same words as a replay that keeps a snapshot before every order.
    monkeypatch.setattr(run_mod.ExchangeRun, "_may_defer", lambda self: True)
    assert _reasons(forged, sc, ids) == reasons
    cycle.replay(honest, sc)                       # the honest exchange verifies


def test_a_match_kept_without_its_last_hash_still_advances():
    # A match kept by a pbem that did not keep the last exchange's hash
    # (or whose last exchange is another object) names it the plain way.
    gf, sc, ids = _start()
    gf = _write(gf, sc, ids)
    prefix = GameFile(gf.exchanges[:-1])
    m = cycle.replay(prefix, sc, ids["blue"])
    assert m.last_hash is not None and m.last_hash[1] == cycle.exchange_hash(prefix.last)
    del m.last_hash
    cycle.advance(m, gf.last, ids["blue"])
    assert m.last_hash == (gf.last, cycle.exchange_hash(gf.last))
    m = cycle.replay(prefix, sc, ids["blue"])
    m.last_hash = (dict(prefix.last), "0" * 64)
    cycle.advance(m, gf.last, ids["blue"])


def test_an_entry_with_a_null_is_compared_the_plain_way():
    # An exchange handed to advance() as a dict may hold a None member (a
    # file cannot): the run's entries are compared with it nulls dropped,
    # as before the orders' bytes were kept from the signature.
    from pbem.cycle.replay import _listed_bytes
    from pbem.protocol.canon import canonical

    listed = [{"side": "red", "by": "player", "order": {"verb": "attack", "how": None}}]
    dropped = [{"side": "red", "by": "player", "order": {"verb": "attack"}}]
    assert _listed_bytes(listed, canonical(listed)) == canonical(dropped)
    assert _listed_bytes(dropped, canonical(dropped)) == canonical(dropped)
