"""Orders about the match rather than the game (STORIES.md 7): a short
signed message in each exchange, resignation, and a draw offered and
accepted or declined."""
from __future__ import annotations

import pytest

import enginehelp as eh
from pbem import exchange
from pbem.game import IllegalOrder
from pbem.gamefile import GameFile


def turn_for(gf, sc, ids):
    side = exchange.replay(gf, sc).next_sender()
    return exchange.Turn(exchange.replay(gf, sc, ids[side]), ids[side])


def test_a_message_travels_signed_and_shows_in_the_log() -> None:
    from pbem.render.turnlog import turn_log

    gf, sc, ids = eh.start("sealed")
    t = turn_for(gf, sc, ids)
    t.message = "Good luck, Pavel."
    t.push("pick 2")
    gf = GameFile(gf.exchanges + [t.finish()])
    m = exchange.replay(gf, sc)
    assert gf.exchanges[-1]["message"] == "Good luck, Pavel."
    assert 'Message: "Good luck, Pavel."' in turn_log(m, m.records[-1:])


def test_resigning_ends_the_game_for_both_programs() -> None:
    gf, sc, ids = eh.start("sealed")
    t = turn_for(gf, sc, ids)
    t.push("resign")
    assert t.done
    gf = GameFile(gf.exchanges + [t.finish()])
    m = exchange.replay(gf, sc, ids["blue"])
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
    m = exchange.replay(gf, sc)
    assert m.over() and m.result() == "drawn by agreement"


def test_a_draw_cannot_be_accepted_when_none_was_offered() -> None:
    gf, sc, ids = eh.start("sealed")
    t = turn_for(gf, sc, ids)
    with pytest.raises(IllegalOrder, match="no draw offer"):
        t.push("accept-draw")
