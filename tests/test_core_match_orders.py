"""Orders about the match rather than the game (STORIES.md 7): a short
signed message in each exchange, resignation, and a draw offered and
accepted or declined."""
from __future__ import annotations

import pytest

import enginehelp as eh
from pbem import cycle
from pbem.cycle import run as run_mod
from pbem.game import IllegalOrder
from pbem.protocol.gamefile import GameFile


def turn_for(gf, sc, ids):
    side = cycle.replay(gf, sc).next_sender()
    return cycle.Turn(cycle.replay(gf, sc, ids[side]), ids[side])


def test_a_message_travels_signed_and_shows_in_the_log() -> None:
    from pbem.session import turn_log

    gf, sc, ids = eh.start("sealed")
    t = turn_for(gf, sc, ids)
    t.message = "Good luck, Pavel."
    t.push("pick 2")
    gf = GameFile(gf.exchanges + [t.finish()])
    m = cycle.replay(gf, sc)
    assert gf.exchanges[-1]["message"] == "Good luck, Pavel."
    assert 'Message: "Good luck, Pavel."' in turn_log(m, m.records[-1:])


def test_resigning_ends_the_game_for_both_programs() -> None:
    gf, sc, ids = eh.start("sealed")
    t = turn_for(gf, sc, ids)
    t.push("resign")
    assert t.done
    gf = GameFile(gf.exchanges + [t.finish()])
    m = cycle.replay(gf, sc, ids["blue"])
    assert m.over() and m.result() == "red resigns" and m.next_sender() is None


def test_a_draw_offered_then_accepted_ends_the_game() -> None:
    gf, sc, ids = eh.start("sealed")
    t = turn_for(gf, sc, ids)
    t.push("offer-draw")
    t.push("pick 1")
    gf = GameFile(gf.exchanges + [t.finish()])
    t = turn_for(gf, sc, ids)
    assert t.side == "blue"
    t.push("accept-draw")
    gf = GameFile(gf.exchanges + [t.finish()])
    m = cycle.replay(gf, sc)
    assert m.over() and m.result() == "drawn by agreement"


def test_a_draw_cannot_be_accepted_when_none_was_offered() -> None:
    gf, sc, ids = eh.start("sealed")
    t = turn_for(gf, sc, ids)
    with pytest.raises(IllegalOrder, match="no draw offer"):
        t.push("accept-draw")


def test_a_rewind_offered_out_of_turn_and_accepted_restores_the_earlier_state(monkeypatch) -> None:
    """STORIES.md 4: a misclick sent; both sign a rewind.  The history stays,
    the log shows it, and the replayed turn gets fresh dice."""
    # A file from before rewind-keeps-dice: its rewinds may take dice back (tests/test_team_streams_rewind.py).
    monkeypatch.setattr("pbem.cycle.write.FEATURES", tuple(f for f in run_mod.FEATURES if f != "rewind-keeps-dice"))
    from pbem.session import turn_log

    gf, sc, ids = eh.start("immediate")
    for _ in range(3):                       # red picks, blue picks, red attacks (rolls at once)
        gf = eh.one_exchange(gf, sc, ids)
    before_attack = cycle.replay(GameFile(gf.exchanges[:4]), sc)
    m = cycle.replay(gf, sc, ids["red"])
    assert m.next_sender() == "blue"
    # Red regrets exchange 5 and offers, out of turn, to go back to after 4.
    gf = GameFile(gf.exchanges + [cycle.rewind_exchange(m, ids["red"], 4)])
    m = cycle.replay(gf, sc, ids["blue"])
    assert m.next_sender() == "blue" and m.rewind_offer == {"by": "red", "to": 4, "agreed": []}
    gf = GameFile(gf.exchanges + [cycle.rewind_exchange(m, ids["blue"])])
    m = cycle.replay(gf, sc)
    assert m.state_hash() == before_attack.state_hash()
    assert m.next_sender() == "red"
    log = turn_log(m, m.records[-2:])
    assert "offers to take the game back to after exchange 4" in log and "the game goes back" in log
    gf = eh.one_exchange(gf, sc, ids)        # red attacks again: a new stream, new dice
    m = cycle.replay(gf, sc)
    assert m.records[-1].rolls and m.records[-1].rolls[0]["purpose"] == m.records[4].rolls[0]["purpose"]


def test_a_rewind_nobody_offered_is_refused() -> None:
    gf, sc, ids = eh.start("immediate")
    gf = eh.one_exchange(gf, sc, ids)
    gf = eh.one_exchange(gf, sc, ids)
    m = cycle.replay(gf, sc, ids["red"])
    with pytest.raises(Exception, match="no rewind offer"):
        cycle.rewind_exchange(m, ids["red"])
    forged = cycle.sign({"game_id": gf.game_id, "n": len(gf.exchanges) + 1, "kind": "rewind", "side": "red",
                            "prev": cycle.exchange_hash(gf.exchanges[-1]), "to": 3,
                            "state": m.state_hash()}, ids["red"])
    with pytest.raises(Exception, match="answers a rewind offer that is not open to red"):
        cycle.replay(GameFile(gf.exchanges + [forged]), sc)
