"""Most of A Victory Denied's option lists are listed only when read
(``Decision.lazy``, speed only), from the state the decision was asked
of, which apply then changes in place.  With ``contract.CHECK_LAZY`` set, a
list read once that state has changed is refused: here whole games of the
scripted players, through the rules and through the exchange engine in
both dice timings, read every list they read in time, and the check does
see one read too late."""
from __future__ import annotations

import tomllib

import pytest

from pbem.game import contract
from pbem.games.avd import GAME
from avd_fixtures import PRACTICE, SeededRng, bot_order, play_game


@pytest.fixture
def checked(monkeypatch):
    monkeypatch.setattr(contract, "CHECK_LAZY", True)


def _rules():
    with open(PRACTICE, "rb") as fh:
        return GAME.rules(tomllib.load(fh), {})


@pytest.mark.parametrize("seed", [3, 5, 11])
def test_every_list_is_read_before_its_state_changes_in_a_whole_scripted_game(checked, seed):
    rules = _rules()
    st = rules.initial_state()
    rng = SeededRng(seed)
    lazy = 0
    for _ in range(5000):
        d = rules.pending(st)
        if d is None:
            break
        lazy += _unread(d)
        st, _ = rules.apply(st, d.side, bot_order(rules, st, d, rng), rng)
    assert rules.pending(st) is None
    assert lazy > 150          # the check did see many lazy lists


@pytest.mark.parametrize("dice", ["sealed", "immediate"])
def test_every_list_is_read_before_its_state_changes_through_the_engine(checked, dice):
    play_game(dice)


def _unread(d) -> bool:
    return d.__dict__["_options"] is None


def test_the_check_refuses_a_list_read_after_an_order(checked):
    rules = _rules()
    st = rules.initial_state()
    rng = SeededRng(1)
    d = rules.pending(st)
    while not _unread(d):
        st, _ = rules.apply(st, d.side, bot_order(rules, st, d, rng), rng)
        d = rules.pending(st)
    # The order is chosen from a decision of its own: d stays unread.
    st, _ = rules.apply(st, d.side, bot_order(rules, st, rules.pending(st), rng), rng)
    with pytest.raises(AssertionError, match=f"{d.kind} decision were read after its state changed"):
        d.options
