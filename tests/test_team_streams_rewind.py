"""Sealed dice and rewinds (found while checking team streams, stop 17;
two seats, no team needed).  A rewind once took the game back past dice
already rolled, and the replayed turns got fresh streams: the seat that
would resolve an order deferred in the exchange gone back to knew, when it
offered or accepted, every reveal keying the stream that re-rolls it (its
own next one and the others' latest: a rewind carries no reveal), so it
could agree only when the new die suited it.  Ruling (file feature
``rewind-keeps-dice``): a rewind takes back orders, never dice: it may go
back only as far as the last exchange that rolled or drew.  The duel test
game: red attacks (exchange 5, deferred), blue resolves it in exchange 6."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

import enginehelp as eh
from pbem import cycle
from pbem.cycle import run as run_mod
from pbem.cycle.write import sign
from pbem.cycle.match import Verification
from pbem.errors import UsageError
from pbem.protocol.gamefile import GameFile, exchange_hash
from pbem.protocol.stream import RecordingRng, Stream, stream_key

ATTACK = "round 1, red attack d6"


def _blue_foresees(gf: GameFile, sc: dict, ids: dict, n: int) -> int:
    """The attack die that exchange ``n``, blue's, would roll, worked out by
    blue's program alone: blue's next reveal (from its own chain, as a Turn
    would take it) and red's latest, public."""
    m = cycle.replay(gf, sc, ids["blue"])
    reveal, _ = cycle.Turn._next_reveal(SimpleNamespace(m=m, side="blue"))  # the Turn reads only these
    reveals = {"red": m.seats["red"].last, "blue": reveal}
    return RecordingRng(Stream(stream_key(m.game_id, n, reveals))).roll(6, ATTACK)


def _after_the_attack(monkeypatch: pytest.MonkeyPatch | None = None, features: tuple[str, ...] | None = None):
    if monkeypatch is not None and features is not None:
        monkeypatch.setattr("pbem.cycle.write.FEATURES", features)
    gf, sc, ids = eh.start("sealed")
    # red picks, blue picks, red attacks (deferred), blue resolves it and
    # defends, red's program reveals and red picks again.
    for _ in range(5):
        gf = eh.one_exchange(gf, sc, ids)
    attack = len(gf.exchanges) - 2
    assert gf.exchanges[attack - 1]["orders"][-1].get("deferred") and gf.exchanges[attack - 1]["side"] == "red"
    m = cycle.replay(gf, sc)
    assert any(r["purpose"] == ATTACK for r in m.records[attack].rolls)     # exchange attack + 1 rolled it
    return gf, sc, ids, attack


def _offer(gf: GameFile, sc: dict, ids: dict, to: int) -> GameFile:
    """Blue's offer to go back to ``to``, signed whatever its own program
    would say (a modified program)."""
    m = cycle.replay(gf, sc, ids["blue"])
    ex = {"game_id": m.game_id, "n": len(m.exchanges) + 1, "kind": "rewind-offer", "side": "blue",
          "prev": exchange_hash(m.exchanges[-1]), "to": to, "state": m.state_hash()}
    return GameFile(gf.exchanges + [sign(ex, ids["blue"])])


def test_rewind_keeps_dice_a_new_game_names_the_feature() -> None:
    assert "rewind-keeps-dice" in run_mod.FEATURES
    gf, _, _ = eh.start("sealed")
    assert "rewind-keeps-dice" in gf.header["features"]


def test_a_rewind_past_a_roll_is_refused_before_it_is_signed() -> None:
    gf, sc, ids, attack = _after_the_attack()
    m = cycle.replay(gf, sc, ids["blue"])
    with pytest.raises(UsageError, match=rf"exchange {attack} cannot be rewound to: exchange {attack + 1} "
                                         rf"rolled dice after it, and a rewind never takes dice back; choose {attack + 1}$"):
        cycle.rewind_exchange(m, ids["blue"], attack)
    # Back to the exchange that rolled: its die stays as rolled.
    ok = GameFile(gf.exchanges + [cycle.rewind_exchange(m, ids["blue"], attack + 1)])
    ok = GameFile(ok.exchanges + [cycle.rewind_exchange(cycle.replay(ok, sc, ids["red"]), ids["red"])])
    assert cycle.replay(ok, sc).state_hash() == cycle.replay(GameFile(gf.exchanges[:attack + 1]), sc).state_hash()


def test_hostile_the_seat_that_foresaw_the_reroll_cannot_offer_it() -> None:
    # Blue works out what a re-roll would give before offering; a modified
    # program signs the offer anyway: every program refuses the file.
    gf, sc, ids, attack = _after_the_attack()
    _blue_foresees(gf, sc, ids, len(gf.exchanges) + 3)
    forged = _offer(gf, sc, ids, attack)
    for reader in (None, ids["red"], ids["blue"]):
        with pytest.raises(Verification, match=rf"exchange {len(forged.exchanges)} by blue: a rewind cannot go back to exchange "
                                               rf"{attack}: exchange {attack + 1} rolled dice after it"):
            cycle.replay(forged, sc, reader)


def test_a_rewind_before_any_die_still_works() -> None:
    gf, sc, ids = eh.start("sealed")
    for _ in range(2):           # red picks, blue picks: no die yet
        gf = eh.one_exchange(gf, sc, ids)
    m = cycle.replay(gf, sc, ids["blue"])
    assert not any(r.rolls for r in m.records)
    gf = GameFile(gf.exchanges + [cycle.rewind_exchange(m, ids["blue"], 3)])
    gf = GameFile(gf.exchanges + [cycle.rewind_exchange(cycle.replay(gf, sc, ids["red"]), ids["red"])])
    assert cycle.replay(gf, sc).next_sender() == "blue"


def test_a_file_without_the_feature_replays_its_rewind_past_dice_as_written(monkeypatch) -> None:
    old = tuple(f for f in run_mod.FEATURES if f != "rewind-keeps-dice")
    gf, sc, ids, attack = _after_the_attack(monkeypatch, old)
    gf = _offer(gf, sc, ids, attack)
    gf = GameFile(gf.exchanges + [cycle.rewind_exchange(cycle.replay(gf, sc, ids["red"]), ids["red"])])
    assert cycle.replay(gf, sc).next_sender() == "blue"
