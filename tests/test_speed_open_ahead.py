"""The reader's own sealed parts opened ahead by the check worker (speed
only, issue 7): a long replay hands the worker every sealed part of the
reader's seat, and takes a part's plaintext from it only for the very
bytes it finds in the file, when the worker has opened it by then; it opens
anything else itself.  The verdict, its message and what the reader learns
must be the plain replay's."""
from __future__ import annotations

import base64
import importlib
import io
import marshal
import os
import time
from typing import Any

import pytest

import enginehelp as eh
from pbem import cycle
from pbem.cycle import background, write
from pbem.cycle import worker as cw
from pbem.protocol import spawn
from pbem.protocol import seal
from pbem.protocol.gamefile import GameFile, exchange_hash
from pbem.protocol.worker import OPENED, open_each

PLAIN = 10**9        # no file is this long: nothing kept, no worker
KEPT = 1             # every file: a worker from the first exchange


@pytest.fixture(scope="module")
def game() -> tuple[GameFile, dict[str, Any], dict[str, Any]]:
    return eh.duel_played(7)


def wait_opened(worker: cw.CheckWorker, n: int, blob: bytes) -> bytes | None:
    """What the worker opened for exchange ``n``, once it has written every
    part it opens (waiting for it to start)."""
    deadline = time.monotonic() + 20
    while not worker._open_end:
        worker._read_opened()
        if time.monotonic() > deadline:
            raise AssertionError("the worker never answered")
        time.sleep(0.01)
    return worker.opened(n, blob)


def test_the_reader_s_parts_are_listed_in_order(game) -> None:
    gf, _, ids = game
    for seat, ident in ids.items():
        listed = background.sealed_parts(gf.exchanges, ident.public.sign_pub)
        mine = [ex for ex in gf.exchanges if ex["side"] == seat and "sealed" in ex]
        assert len(mine) >= 4
        assert listed == [(ex["n"], base64.b64decode(ex["sealed"])) for ex in mine]
    one = len(base64.b64decode(gf.exchanges[0]["sealed"])) + 16
    assert len(background.sealed_parts(gf.exchanges, ids["red"].public.sign_pub, limit=2 * one)) == 2
    assert background.sealed_parts(gf.exchanges, "ab" * 32) == []


def test_a_part_that_cannot_be_handed_is_left_to_the_replay(game) -> None:
    """Not base64, or numbered beyond what the answer can carry."""
    gf, _, ids = game
    exchanges = [dict(ex) for ex in gf.exchanges]
    red = [i for i, ex in enumerate(exchanges) if ex["side"] == "red"]
    exchanges[red[1]]["sealed"] = "not base64!"
    exchanges[red[2]]["n"] = 1 << 40
    listed = [n for n, _ in background.sealed_parts(exchanges, ids["red"].public.sign_pub)]
    assert listed == [exchanges[i]["n"] for i in red if i not in red[1:3]]


def test_the_worker_opens_as_seal_does(game) -> None:
    """Red's parts open to what seal.unseal gives; blue's part does not open
    with red's key and is left to the caller; a part the caller finds
    changed is not taken from the worker; the state checks handed after
    are answered as before."""
    gf, sc, ids = game
    red = ids["red"]
    parts = background.sealed_parts(gf.exchanges, red.public.sign_pub)
    blue_ex = next(ex for ex in gf.exchanges if ex["side"] == "blue" and "sealed" in ex)
    blue_part = (blue_ex["n"], base64.b64decode(blue_ex["sealed"]))
    worker = cw.CheckWorker.start()
    assert worker is not None
    worker.hand_sealed(red.seal_key, gf.header["id"], parts + [blue_part])
    m = cycle.replay(gf, sc)
    worker.hand_state(m.public_state())
    first_n, first_blob = parts[0]
    assert wait_opened(worker, first_n, first_blob[:-1] + bytes([first_blob[-1] ^ 1])) is None
    for n, blob in parts:
        assert worker.opened(n, blob) == seal.unseal(red.seal_key, blob, gf.header["id"], n)
    assert worker.opened(*blue_part) is None
    assert [a.digest for a in worker.answers()] == [m.state_hash()]


@pytest.mark.parametrize("read_first", [True, False])
def test_answers_after_parts_not_read_are_still_the_checks(game, read_first) -> None:
    """Whether or not the replay took the opened parts before the end, the
    answers it reads at the end are the checks' alone."""
    gf, sc, ids = game
    red = ids["red"]
    worker = cw.CheckWorker.start()
    assert worker is not None
    worker.hand_sealed(red.seal_key, gf.header["id"], background.sealed_parts(gf.exchanges, red.public.sign_pub))
    m = cycle.replay(gf, sc)
    worker.hand_state(m.public_state())
    worker.hand_state(m.public_state())
    if read_first:
        n, blob = background.sealed_parts(gf.exchanges, red.public.sign_pub)[0]
        assert wait_opened(worker, n, blob) is not None
    assert [a.digest for a in worker.answers()] == [m.state_hash()] * 2


def test_a_list_the_worker_cannot_read_opens_nothing() -> None:
    out = io.BytesIO()
    open_each(b"not marshal", out)
    assert out.getvalue() == bytes(OPENED)


def test_the_worker_writes_each_part_as_it_opens_it(game) -> None:
    """Each part is written (and flushed) as soon as it is open, then the
    end: the replay, which needs them in order, can take the first while
    the worker opens the rest."""
    gf, _, ids = game
    red = ids["red"]
    parts = background.sealed_parts(gf.exchanges, red.public.sign_pub)
    flushed: list[bytes] = []

    class Out(io.BytesIO):
        def flush(self) -> None:
            flushed.append(self.getvalue())

    out = Out()
    open_each(marshal.dumps((red.seal_key, gf.header["id"], parts)), out)
    assert len(flushed) == len(parts) + 1
    for (n, blob), seen in zip(parts, flushed):
        assert seen.endswith(seal.unseal(red.seal_key, blob, gf.header["id"], n))
    assert flushed[-1].endswith(bytes(OPENED))


def replayed_as(gf: GameFile, sc: dict[str, Any], me: Any, kept_from: int, monkeypatch: Any) -> tuple[str, Any]:
    """The verdict of ``me``'s replay, and the secrets it learned."""
    learned: list[Any] = []
    real = cycle.replay

    def keep(*args: Any, **kw: Any) -> Any:
        m = real(*args, **kw)
        learned.append((m.my_secrets, m.my_seeds, m.secret_seeds))
        return m

    with monkeypatch.context() as patched:
        patched.setattr(cycle, "replay", keep)
        told = eh.kept_verdict(gf, sc, patched, kept_from, kept_from, me)
    return told, learned[0] if learned else None


def opened_ahead(monkeypatch: Any) -> list[int]:
    """Count, from now on, the parts the replay took from the worker."""
    taken: list[int] = []
    real = cw.CheckWorker.opened

    def opened(self: cw.CheckWorker, n: int, blob: bytes) -> bytes | None:
        plain = real(self, n, blob)
        if plain is not None:
            taken.append(n)
        return plain

    monkeypatch.setattr(cw.CheckWorker, "opened", opened)
    return taken


def slow_replay(monkeypatch: Any) -> None:
    """Each exchange's replay waits a little, so the worker is seen to
    answer before the end."""
    replay_mod = importlib.import_module("pbem.cycle.replay")    # (pbem.cycle.replay is also the function)
    real = replay_mod.advance

    def advance(*args: Any, **kw: Any) -> None:
        time.sleep(0.02)
        real(*args, **kw)

    monkeypatch.setattr(replay_mod, "advance", advance)


@pytest.mark.parametrize("seat", ["red", "blue"])
def test_a_replay_with_parts_opened_ahead_is_the_plain_one(game, monkeypatch, seat) -> None:
    gf, sc, ids = game
    plain = replayed_as(gf, sc, ids[seat], PLAIN, monkeypatch)
    slow_replay(monkeypatch)
    taken = opened_ahead(monkeypatch)
    assert replayed_as(gf, sc, ids[seat], KEPT, monkeypatch) == plain
    assert plain[0].startswith("accepted ") and plain[1][0]
    assert taken and set(taken) <= {ex["n"] for ex in gf.exchanges if ex["side"] == seat}


def resealed(gf: GameFile, ids: dict[str, Any], at: int, blob: bytes) -> GameFile:
    """Exchange ``at``'s sealed part replaced and the exchange signed again
    by its sender; what follows re-linked and re-signed by its senders."""
    exchanges = [dict(ex) for ex in gf.exchanges]
    exchanges[at - 1]["sealed"] = base64.b64encode(blob).decode()
    for i in range(at - 1, len(exchanges)):
        if i >= at:
            exchanges[i]["prev"] = exchange_hash(exchanges[i - 1])  # type: ignore[arg-type]
        exchanges[i] = write.sign(exchanges[i], ids[exchanges[i]["side"]])  # type: ignore[arg-type]
    return GameFile(exchanges)  # type: ignore[arg-type]


@pytest.mark.parametrize("how", ["altered", "other-key"])
def test_a_part_that_does_not_open_is_told_as_the_plain_replay_tells_it(game, monkeypatch, how) -> None:
    """A sealed part of red's, altered or sealed to blue's key, in a file
    signed throughout: red's replay refuses it in the plain replay's words,
    worker or not, and the worker's answer for it is not taken."""
    gf, sc, ids = game
    at = max(ex["n"] for ex in gf.exchanges if ex["side"] == "red" and "sealed" in ex)
    blob = base64.b64decode(gf.exchanges[at - 1]["sealed"])
    if how == "altered":
        blob = blob[:-1] + bytes([blob[-1] ^ 1])
    else:
        plain = seal.unseal(ids["red"].seal_key, blob, gf.header["id"], at)
        blob = seal.seal(bytes.fromhex(ids["blue"].public.seal_pub), plain, gf.header["id"], at)
    forged = resealed(gf, ids, at, blob)
    told = replayed_as(forged, sc, ids["red"], PLAIN, monkeypatch)[0]
    assert told == f"InvalidFile: sealed part of exchange {at} does not open with this key"
    slow_replay(monkeypatch)
    taken = opened_ahead(monkeypatch)
    assert replayed_as(forged, sc, ids["red"], KEPT, monkeypatch)[0] == told
    assert taken and at not in taken


def test_a_dead_worker_opens_nothing_and_changes_nothing(game, monkeypatch) -> None:
    gf, sc, ids = game
    plain = replayed_as(gf, sc, ids["red"], PLAIN, monkeypatch)
    monkeypatch.setattr(spawn, "command", lambda: [os.sys.executable, "-I", "-S", "-c", "pass"])
    taken = opened_ahead(monkeypatch)
    assert replayed_as(gf, sc, ids["red"], KEPT, monkeypatch) == plain
    assert taken == []
