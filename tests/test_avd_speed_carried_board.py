"""The board an apply or a pending leaves for a state serves the next
question on that very state (``AvdRules._left``, speed only), and goes
wherever the scope's board goes: a unit of that state changing place
(``_moved``), or another apply starting on it.  With ``rules.CHECK_BOARDS``
set, a board served again that no longer matches its state fails at once."""
from __future__ import annotations

import pytest

from pbem.games.avd import rules as avd_rules
from avd_fixtures import SeededRng, bot_order, practice_rules


def _played(n: int):
    """The practice game after ``n`` orders of the scripted players."""
    rules = practice_rules()
    st = rules.initial_state()
    rng = SeededRng(7)
    for _ in range(n):
        d = rules.pending(st)
        assert d is not None
        st, _ = rules.apply(st, d.side, bot_order(rules, st, d, rng), rng)
    return rules, st


def test_the_next_question_starts_from_the_board_the_apply_left():
    rules, st = _played(3)
    left = rules._left
    assert left is not None and left[0] is st
    rules.pending(st)
    assert rules._left is not None and rules._left[1] is left[1]


def test_a_change_of_position_drops_the_carried_board():
    rules, st = _played(3)
    assert rules._left is not None
    rules._moved(st)
    assert rules._left is None
    rules.pending(st)
    assert rules._left is not None and rules._left[1].state is st


def test_a_board_carried_past_a_move_made_by_hand_is_caught(monkeypatch):
    monkeypatch.setattr(avd_rules, "CHECK_BOARDS", True)
    rules, st = _played(3)
    uid = next(u for u in sorted(st["units"]) if st["units"][u]["where"] == "map")
    st["units"][uid]["where"], st["units"][uid]["hex"] = "removed", None
    with pytest.raises(AssertionError, match="outlived a move"):
        rules.pending(st)


def test_a_copy_of_the_state_gets_a_board_of_its_own():
    rules, st = _played(3)
    from pbem.game.frozen import fast_copy

    other = fast_copy(st)
    assert rules.pending(other) == rules.pending(st)
    assert rules._left is not None and rules._left[0] is st
