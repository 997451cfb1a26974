"""A rewind takes back orders, never dice, and that includes a seat's
secret draws (found by the trust review of stop 17, closed in stop 18).

A secret draw (Moscow '41's blocks from a side's pool, the face-down chit
and Support draws of the other games) comes from the seat's secret stream,
derived from the exchange's shared stream (PROTOCOL.md).  A rewind gives the
replayed exchanges new numbers and new reveals, so a draw taken back comes
out afresh.  The drawing seat alone knows what it drew: it could offer a
rewind, on any pretext, whenever its draw disappointed it, and its
opponent could not tell.  So with ``rewind-keeps-dice`` a rewind may go
back no further than the last exchange where any seat drew in secret,
which every program knows, with or without the seat's seed: the game asks
for the secret stream at the same point in every program (only the owner's
gets one)."""
from __future__ import annotations

import pytest

import m41help as h
from pbem import cycle
from pbem.cycle.match import Verification
from pbem.cycle.write import sign
from pbem.errors import UsageError
from pbem.protocol.gamefile import GameFile, exchange_hash


def _after_a_secret_draw(dice: str) -> tuple[GameFile, dict, int, str]:
    """A Moscow '41 game just after an exchange past the set-up in which a
    seat drew in secret and nobody rolled, followed by one exchange that
    neither rolled nor drew: the file, the keys, the exchange that drew and
    the seat that drew.  Reinforcement blocks are drawn in a Logistics Phase
    or a Strategic Impulse of Option B (5, 11.0 B), neither of which fights
    a battle, so such an exchange comes in the first turns of every game
    (and the test's seeded dice make it the same game on every run)."""
    gf, ids = h.start(dice)
    for _ in range(60):
        if cycle.replay(gf, h.PRACTICE).next_sender() is None:
            break
        gf, _ = h.one_exchange(gf, h.PRACTICE, ids)
        n = len(gf.exchanges)
        if n <= 6:             # the set-up draws (5.3) are before any rewind may go
            continue
        for side, key in ids.items():
            recs = cycle.replay(gf, h.PRACTICE, key).records
            drew, then = recs[n - 2], recs[n - 1]
            if drew.secret_rolls.get(side) and not drew.rolls and not (then.rolls or then.drew_secret):
                return gf, ids, n - 1, side
    pytest.fail("no exchange with a secret draw and no roll, then a quiet one, in this game")


def _offer(gf: GameFile, key, to: int) -> GameFile:
    """An offer to go back to ``to``, signed whatever the program would say
    (a modified program)."""
    m = cycle.replay(gf, h.PRACTICE, key)
    ex = {"game_id": m.game_id, "n": len(m.exchanges) + 1, "kind": "rewind-offer", "side": m.me,
          "prev": exchange_hash(m.exchanges[-1]), "to": to, "state": m.state_hash()}
    return GameFile(gf.exchanges + [sign(ex, key)])


@pytest.mark.parametrize("dice", ["immediate", "sealed"])
def test_a_rewind_past_a_secret_draw_is_refused_in_every_program(dice: str, seeded_urandom: None) -> None:
    gf, ids, drew, side = _after_a_secret_draw(dice)
    for key in ids.values():      # the seat that drew, and the one that knows nothing of it
        m = cycle.replay(gf, h.PRACTICE, key)
        assert m.last_rolled() == drew
        with pytest.raises(UsageError, match=rf"^exchange {drew - 1} cannot be rewound to: exchange {drew} drew "
                                             rf"in secret after it, and a rewind never takes dice back"):
            cycle.rewind_exchange(m, key, drew - 1)


@pytest.mark.parametrize("dice", ["immediate", "sealed"])
def test_hostile_the_seat_that_disliked_its_draw_cannot_offer_it_back(dice: str, seeded_urandom: None) -> None:
    gf, ids, drew, side = _after_a_secret_draw(dice)
    forged = _offer(gf, ids[side], drew - 1)
    for reader in (None, *ids.values()):
        with pytest.raises(Verification, match=rf"a rewind cannot go back to exchange {drew - 1}: "
                                               rf"exchange {drew} drew in secret after it"):
            cycle.replay(forged, h.PRACTICE, reader)


def test_back_to_the_exchange_that_drew_keeps_its_draw(seeded_urandom: None) -> None:
    gf, ids, drew, side = _after_a_secret_draw("immediate")
    other = next(s for s in ids if s != side)
    gf = GameFile(gf.exchanges + [cycle.rewind_exchange(cycle.replay(gf, h.PRACTICE, ids[side]), ids[side], drew)])
    gf = GameFile(gf.exchanges + [cycle.rewind_exchange(cycle.replay(gf, h.PRACTICE, ids[other]), ids[other])])
    before = cycle.replay(GameFile(gf.exchanges[:drew]), h.PRACTICE, ids[side])
    after = cycle.replay(gf, h.PRACTICE, ids[side])
    assert after.state["hidden"][side] == before.state["hidden"][side]
    assert after.state_hash() == before.state_hash()
