"""State hashes and signatures checked by a second process (speed only,
issue 7): a replay of a long file hands each state and each signature to a
worker (pbem.cycle.worker, pbem.protocol.worker) and reads the answers
when it settles.  The verdict and its message must be the plain replay's,
which checks each where it meets it: the first failure in file order wins.  The files
here are written by a modified program: a player who signs a state hash
his exchange does not give, and re-links and re-signs what follows so that
nothing else is wrong."""
from __future__ import annotations

import os
from typing import Any

import pytest

import enginehelp as eh
from pbem import cycle
from pbem.cycle import background, parts, write
from pbem.cycle import worker as cw
from pbem.protocol import spawn
from pbem.protocol.gamefile import GameFile, exchange_hash

PLAIN = 10**9        # no file is this long: every check where it is met
KEPT = 1             # every file: every check kept, every state to the worker


@pytest.fixture(scope="module")
def game() -> tuple[GameFile, dict[str, Any], dict[str, Any]]:
    return eh.duel_played(7)


def verdict(gf: GameFile, sc: dict[str, Any], kept_from: int, monkeypatch: Any) -> str:
    return eh.kept_verdict(gf, sc, monkeypatch, kept_from, kept_from)


def both(gf: GameFile, sc: dict[str, Any], monkeypatch: Any, worker_answers: bool = True) -> str:
    """The plain verdict, checked to be the kept one's.  ``worker_answers``:
    the worker must answer every check (the replay's own ways of working
    out a hash or a signature the worker did not answer are broken for the
    kept replay)."""
    plain = verdict(gf, sc, PLAIN, monkeypatch)
    with monkeypatch.context() as patched:
        if worker_answers:
            patched.setattr(cw, "RecordMemo", None)
            patched.setattr(parts.SignatureCheck, "good", None)
            patched.setattr(background, "exchange_hash", None)
        assert verdict(gf, sc, KEPT, patched) == plain
    return plain


lying = eh.lying


def differs(gf: GameFile, at: int) -> str:
    where = f"exchange {at}" + (f" by {gf.exchanges[at - 1]['side']}" if at > 1 else "")
    return f"Verification: {where}: state hash differs from the replay (the exchange does not replay)"


def test_the_honest_game_is_accepted_alike(game, monkeypatch) -> None:
    gf, sc, _ = game
    assert both(gf, sc, monkeypatch).startswith("accepted ")


@pytest.mark.parametrize("at", [1, 2, 5, 8])
def test_a_signed_false_state_is_refused_at_its_exchange(game, monkeypatch, at) -> None:
    """The rest of the file is sound: the worker's answer, read at the end,
    names the exchange that lied."""
    gf, sc, ids = game
    assert both(lying(gf, ids, at, state="ab" * 32), sc, monkeypatch) == differs(gf, at)


def test_the_first_of_two_false_states_is_told(game, monkeypatch) -> None:
    gf, sc, ids = game
    forged = lying(lying(gf, ids, 6, state="cd" * 32), ids, 3, state="ab" * 32)
    assert both(forged, sc, monkeypatch) == differs(gf, 3)


def test_a_false_state_wins_over_a_later_refusal(game, monkeypatch) -> None:
    """Exchange 3 lies about its state; exchange 6 is numbered wrong, which
    the replay finds at once: the kept state check is still what is told."""
    gf, sc, ids = game
    forged = lying(gf, ids, 3, state="ab" * 32)
    forged = GameFile(forged.exchanges[:5] + [dict(forged.exchanges[5], n=9)] + forged.exchanges[6:])  # type: ignore[list-item]
    assert both(forged, sc, monkeypatch) == differs(gf, 3)


def test_an_earlier_bad_signature_wins_over_a_later_false_state(game, monkeypatch) -> None:
    gf, sc, ids = game
    forged = lying(gf, ids, 5, state="ab" * 32)
    forged = GameFile(forged.exchanges[:2] + [dict(forged.exchanges[2], message="hello")] + forged.exchanges[3:])  # type: ignore[list-item]
    side = gf.exchanges[2]["side"]
    assert both(forged, sc, monkeypatch) == (
        f"Verification: exchange 3 by {side}: bad signature: altered after signing, or not signed by {side}'s key")


def test_a_false_state_wins_over_a_later_bad_signature(game, monkeypatch) -> None:
    gf, sc, ids = game
    forged = lying(gf, ids, 3, state="ab" * 32)
    forged = GameFile(forged.exchanges[:6] + [dict(forged.exchanges[6], message="hello")] + forged.exchanges[7:])  # type: ignore[list-item]
    assert both(forged, sc, monkeypatch) == differs(gf, 3)


def test_a_dead_worker_changes_nothing(game, monkeypatch) -> None:
    """A worker that exits at once (or is killed) answers nothing: every
    state is hashed by the replay itself, from its kept copy."""
    gf, sc, ids = game
    monkeypatch.setattr(spawn, "command", lambda: [os.sys.executable, "-I", "-S", "-c", "pass"])
    assert both(gf, sc, monkeypatch, worker_answers=False).startswith("accepted ")
    assert both(lying(gf, ids, 4, state="ab" * 32), sc, monkeypatch, worker_answers=False) == differs(gf, 4)


def test_a_state_marshal_cannot_copy_is_checked_at_once(game, monkeypatch) -> None:
    gf, sc, ids = game

    def refuse(self: Any, state: Any) -> int:
        raise ValueError("unmarshallable object")

    monkeypatch.setattr(cw.CheckWorker, "hand_state", refuse)
    assert both(lying(gf, ids, 4, state="ab" * 32), sc, monkeypatch) == differs(gf, 4)


def test_the_worker_s_hashes_are_the_plain_ones(game, monkeypatch) -> None:
    """Handed the same states, the worker answers what Match.state_hash does."""
    gf, sc, _ = game
    monkeypatch.setattr(cw, "RecordMemo", None)    # no answer worked out here
    worker = cw.CheckWorker.start()
    assert worker is not None
    expected = []
    for n in range(1, len(gf.exchanges) + 1):
        m = cycle.replay(GameFile(gf.exchanges[:n]), sc)
        worker.hand_state(m.public_state())
        expected.append(m.state_hash())
    assert [answer.digest for answer in worker.answers()] == expected
    assert expected == [ex["state"] for ex in gf.exchanges]


def test_no_worker_is_left_behind(game, monkeypatch) -> None:
    """After an accepted file and after a refused one, the worker has exited
    and been reaped (no process of ours is left)."""
    gf, sc, ids = game
    started: list[cw.CheckWorker] = []
    real = cw.CheckWorker.start

    def start() -> cw.CheckWorker | None:
        worker = real()
        assert worker is not None
        started.append(worker)
        return worker

    monkeypatch.setattr(cw.CheckWorker, "start", staticmethod(start))
    verdict(gf, sc, KEPT, monkeypatch)
    forged = GameFile(gf.exchanges[:4] + [dict(gf.exchanges[4], n=9)] + gf.exchanges[5:])  # type: ignore[list-item]
    verdict(forged, sc, KEPT, monkeypatch)
    assert len(started) == 2
    for worker in started:
        pid = worker._pid
        assert pid is None
    spawn.reap_exited(wait=True)    # (a worker still exiting when its answers were read is collected later)
    assert spawn._EXITING == []
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def test_the_worker_is_used_only_for_a_long_file_with_a_free_core(monkeypatch) -> None:
    monkeypatch.setattr(background, "BACKGROUND_FROM", 16)
    monkeypatch.setattr(background, "HASH_FROM", 32)
    monkeypatch.setattr(background, "core_free", lambda: True)
    checks = background.Background.for_file(31)
    assert checks is not None and checks._worker is None
    checks = background.Background.for_file(32)
    assert checks is not None and checks._worker is not None
    assert checks.settle() is None and checks._worker is None
    monkeypatch.setattr(background, "core_free", lambda: False)
    assert background.Background.for_file(500) is None


def test_the_worker_verifies_as_the_identity_does(game, monkeypatch) -> None:
    """Each exchange's signature, the same with one bit of the message
    flipped, and the same under the other seat's key: the worker's
    verdicts are PublicIdentity.verify's."""
    from pbem.protocol.gamefile import signing_bytes

    gf, _, ids = game
    worker = cw.CheckWorker.start()
    assert worker is not None
    expected = []
    for ex in gf.exchanges:
        signed, sig = signing_bytes(ex), bytes.fromhex(ex["sig"])
        for seat, ident in ids.items():
            for message in (signed, signed[:-1] + bytes([signed[-1] ^ 1])):
                worker.hand_signature(ident.public.sign_pub_raw, sig, message)
                expected.append(ident.public.verify(message, sig))
    assert [answer.good for answer in worker.answers()] == expected
    assert expected.count(True) == len(gf.exchanges)


def test_the_other_seat_s_key_is_named(game, monkeypatch) -> None:
    """Exchange 4 re-signed by the seat that did not send it."""
    gf, sc, ids = game
    forged, message = eh.signed_by_other(gf, ids, 4)
    assert both(forged, sc, monkeypatch) == message


def test_the_worker_hashes_exchanges_as_the_file_does(game, monkeypatch) -> None:
    """Each exchange handed whole: its hash is the next one's ``prev``, and
    its signature is checked on the bytes it signs."""
    gf, _, ids = game
    worker = cw.CheckWorker.start()
    assert worker is not None
    for ex in gf.exchanges:
        worker.hand_exchange(ids[ex["side"]].public.sign_pub_raw, bytes.fromhex(ex["sig"]), ex)
    answers = worker.answers()
    assert [a.digest for a in answers] == [exchange_hash(ex) for ex in gf.exchanges]
    assert [a.digest for a in answers[:-1]] == [ex["prev"] for ex in gf.exchanges[1:]]
    assert all(a.good for a in answers)


@pytest.mark.parametrize("at", [2, 3, 6, 9])
def test_a_signed_broken_link_is_refused_at_its_exchange(game, monkeypatch, at) -> None:
    """Exchange ``at`` names a ``prev`` that is not the hash of the one
    before (and is signed so), the rest re-linked: found by the worker."""
    gf, sc, ids = game
    forged = lying(gf, ids, at, prev="ab" * 32)
    assert both(forged, sc, monkeypatch) == (
        f"Verification: exchange {at} by {gf.exchanges[at - 1]['side']}: does not follow exchange {at - 1} "
        "(chain link broken: history edited or reordered)")


@pytest.mark.parametrize("at", [3, 5, 8])
def test_a_signed_order_list_the_replay_does_not_give_is_refused(game, monkeypatch, at) -> None:
    """Exchange ``at`` lists its order with a field the rules never write."""
    gf, sc, ids = game
    listed = [dict(gf.exchanges[at - 1]["orders"][0], note="mine")]
    forged = lying(gf, ids, at, orders=listed)
    assert both(forged, sc, monkeypatch) == (
        f"Verification: exchange {at} by {gf.exchanges[at - 1]['side']}: order list differs from the replay at entry 1")


def test_a_false_link_and_a_false_state_later_tell_the_link(game, monkeypatch) -> None:
    gf, sc, ids = game
    forged = lying(lying(gf, ids, 7, state="cd" * 32), ids, 4, prev="ab" * 32)
    assert "exchange 4 by " in both(forged, sc, monkeypatch)
    assert "does not follow exchange 3" in both(forged, sc, monkeypatch)


def test_the_worker_compares_order_lists_as_the_replay_does(game) -> None:
    """The lists of each exchange against themselves, nulls dropped from
    the listed side, and against a list with one field more."""
    gf, _, _ = game
    worker = cw.CheckWorker.start()
    assert worker is not None
    expected = []
    for ex in gf.exchanges:
        listed = ex.get("orders", [])
        worker.hand_entries(listed, listed)
        worker.hand_entries(listed, [dict(e, gone=None) for e in listed])
        worker.hand_entries(listed, [dict(e, note="x") for e in listed])
        expected += [True, True, not listed]
    answers = worker.answers()
    assert [a.good for a in answers] == expected
    assert [a.kept for a in answers if not a.good] == [(ex["orders"], [dict(e, note="x") for e in ex["orders"]])
                                                       for ex in gf.exchanges if ex.get("orders")]

