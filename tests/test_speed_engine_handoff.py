"""The engine's hand-offs change no answer.  A replay hands the AVD rules
the decision it has just asked for (``apply_decided`` instead of ``apply``
asking again), reuses the decision the run stopped on to say who waits
(``waiting_after``), and answers a standing order on one board per
position: each time, the answer handed over is the one a fresh rules
object gives for a copy of the same position, and the game replays to the
same state hashes as without the hand-offs."""
from __future__ import annotations

import importlib
import pickle

import pytest

from pbem import cycle
from pbem.games.avd.rules import AvdRules
from pbem.protocol.gamefile import GameFile

replay_mod = importlib.import_module("pbem.cycle.replay")


def _fresh(rules: AvdRules) -> AvdRules:
    return AvdRules(rules.scn, rules.options)


def _copy(state):
    return pickle.loads(pickle.dumps(state))


@pytest.fixture(scope="module")
def game():
    from avd_fixtures import play_game

    gf, sc, ids, _ = play_game("sealed", stop_after=80)
    return gf, sc, ids


def test_every_hand_off_is_the_fresh_answer(game, monkeypatch: pytest.MonkeyPatch) -> None:
    gf, sc, ids = game
    counts = {"apply": 0, "waiting": 0, "standing": 0}
    apply_decided = AvdRules.apply_decided
    standing_answer = AvdRules.standing_answer
    waiting_after = replay_mod.waiting_after

    def checked_apply(self, state, side, order, rng, d):
        assert d == _fresh(self).pending(_copy(state))
        counts["apply"] += 1
        return apply_decided(self, state, side, order, rng, d)

    def checked_standing(self, state, decision, policies):
        got = standing_answer(self, state, decision, policies)
        assert got == standing_answer(_fresh(self), _copy(state), decision, policies)
        counts["standing"] += 1
        return got

    def checked_waiting(m, es, how, sender, handed=None):
        if how == "handed" and handed is not None:
            assert handed == _fresh(m.rules).pending(_copy(es["game"]))
            counts["waiting"] += 1
        return waiting_after(m, es, how, sender, handed)

    monkeypatch.setattr(AvdRules, "apply_decided", checked_apply)
    monkeypatch.setattr(AvdRules, "standing_answer", checked_standing)
    monkeypatch.setattr(replay_mod, "waiting_after", checked_waiting)
    m = cycle.replay(gf, sc, ids["german"])
    assert len(m.exchanges) == len(gf.exchanges)
    assert all(counts.values()), counts


def test_without_the_hand_offs_the_same_hashes(game, monkeypatch: pytest.MonkeyPatch) -> None:
    gf, sc, ids = game
    fast = cycle.replay(gf, sc, ids["german"])
    # Every decision asked afresh: no hand-off, no memo, no shared board.
    monkeypatch.setattr(AvdRules, "apply_decided",
                        lambda self, state, side, order, rng, d: apply_plain(self, state, side, order, rng))
    monkeypatch.setattr(replay_mod, "waiting_after",
                        lambda m, es, how, sender, handed=None: plain_waiting(m, es, how, sender))
    slow = cycle.replay(GameFile(list(gf.exchanges)), sc, ids["german"])
    assert [r.waiting for r in slow.records] == [r.waiting for r in fast.records]
    assert slow.state_hash() == fast.state_hash()
    assert [e["state"] for e in gf.exchanges][-1] == slow.state_hash()


def apply_plain(rules: AvdRules, state, side, order, rng):
    """AvdRules.apply as it was: the decision asked again, of a fresh rules
    object (no memo), then the order worked on the real state."""
    d = _fresh(rules).pending(_copy(state))
    why = rules._not_yours(d, side)
    if why:
        from pbem.game import IllegalOrder

        raise IllegalOrder(why)
    from pbem.games.avd import orders

    orders.check_shape(order, rules.scn)
    top = state["stack"][-1]
    events: list = []
    getattr(rules, f"_do_{top['k']}")(state, top, d, order, rng, events)
    rules._run(state, rng, events)
    return state, events


def plain_waiting(m, es, how, sender):
    if how == "open":
        return sender
    if how == "deferred":
        return m.resolver(sender)
    if how == "over":
        return ""
    d = _fresh(m.rules).pending(_copy(es["game"]))
    return d.side if d else ""
