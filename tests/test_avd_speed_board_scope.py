"""While an order and the automatic steps after it run, the rules keep one
board per state and drop it wherever units change place or the turn ends
(``AvdRules._moved``).  With ``rules.CHECK_BOARDS`` set, every board served
again is compared with a fresh one: a move that forgot to drop it fails
here, in whole games of the scripted players (every phase, battles,
retreats, advances, relocations, reinforcements, Minsk, the Hitler
directive), rather than as a wrong answer later."""
from __future__ import annotations

import tomllib

import pytest

from pbem.games.avd import GAME
from pbem.games.avd import rules as avd_rules
from avd_fixtures import PRACTICE, SeededRng, bot_order, play_game


@pytest.fixture
def checked(monkeypatch):
    monkeypatch.setattr(avd_rules, "CHECK_BOARDS", True)


@pytest.mark.parametrize("seed", [3, 5, 11])
def test_no_board_outlives_a_move_in_a_whole_scripted_game(checked, seed):
    with open(PRACTICE, "rb") as fh:
        rules = GAME.rules(tomllib.load(fh), {})
    st = rules.initial_state()
    rng = SeededRng(seed)
    for _ in range(5000):
        d = rules.pending(st)
        if d is None:
            break
        st, _ = rules.apply(st, d.side, bot_order(rules, st, d, rng), rng)
    assert rules.pending(st) is None


def test_no_board_outlives_a_move_through_the_engine(checked):
    play_game("sealed")


def test_the_check_sees_a_move_that_keeps_the_board(checked):
    with open(PRACTICE, "rb") as fh:
        rules = GAME.rules(tomllib.load(fh), {})
    st = rules.initial_state()
    uid = next(u for u in sorted(st["units"]) if st["units"][u]["where"] == "map")
    rules._scope = {}
    try:
        rules.board(st)
        st["units"][uid]["where"], st["units"][uid]["hex"] = "removed", None
        with pytest.raises(AssertionError, match="outlived a move"):
            rules.board(st)
        rules._moved(st)
        assert rules.board(st).hex_of(uid) is None
    finally:
        rules._scope = None
