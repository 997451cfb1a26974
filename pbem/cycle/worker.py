"""Speed only: a replay's kept checks answered by a second process while
the replay goes on (see :mod:`pbem.cycle.background` for which and why).

:class:`CheckWorker` starts a worker (:mod:`pbem.protocol.worker`, a fresh
interpreter that imports only the file format's encoding and cryptography)
at the start of the replay and writes each check down a pipe: a state as
its marshal bytes (a fifth of the cost of the canonical encoding, and an
exact copy: marshal keeps every type, ``1`` and ``True`` apart), an
exchange as its marshal bytes with the key and signature to check, an
order list as the marshal bytes of the replay's and the exchange's.  The
worker answers them all at the end; the reader's sealed parts handed to it
to open (:meth:`CheckWorker.hand_sealed`) it answers at once.

Nothing is trusted that could differ from the plain way: the worker runs
this same program's encoding on exact copies, and verifies as
:class:`~pbem.protocol.identity.PublicIdentity` does.  A check it did not
answer (it failed, died, or the encoding refused a value) says so, and is
worked out by the replay: a state here, from the kept bytes, raising what
the plain check would have raised; anything else by the caller
(:class:`~pbem.cycle.background.Background`), which keeps what it needs.
How the worker is started: :mod:`pbem.protocol.spawn`.
"""
from __future__ import annotations

import marshal
import os
from typing import Any

from pbem.protocol import early, spawn
from pbem.protocol.canon import RecordMemo
from pbem.protocol.worker import (ANSWER, DONE, ENTRIES, ENTRIES_AT, EXCHANGE, EXCHANGE_AT, FRAME, OPEN, OPENED,
                                  REFUSED, SIGNATURE, STATE, hash_state)

# Checks are written in batches of about this many bytes (two or three
# exchanges' worth), not one by one: each write wakes the worker, and a
# wake-up costs both processes more than the copy (speed only).
_BATCH = 16 << 10

class Answer:
    """The worker's answer to one check.  ``good``: the signature is good,
    the order lists are the same (None: not answered).  ``digest``: the
    hash (hex) of a state or an exchange (None: not answered; for a state,
    worked out here instead, or ``error``, what that raised).  ``kept``:
    the order lists handed, read back (for a caller working them out)."""

    __slots__ = ("good", "digest", "error", "kept")

    def __init__(self, good: bool | None = None, digest: str | None = None,
                 error: Exception | None = None, kept: Any = None) -> None:
        self.good, self.digest, self.error, self.kept = good, digest, error, kept


class CheckWorker:
    """A worker process that answers the checks handed to it, in order.

    :meth:`start` starts it (None where it cannot be started);
    :meth:`hand_state` and :meth:`hand_signature` send it one check and
    return its index; :meth:`answers` ends it and gives each check's
    answer; :meth:`close` ends it whatever happened (idempotent)."""

    __slots__ = ("_pid", "_out", "_back", "_states", "_lists", "_shared", "_count", "_sealed", "_opened",
                 "_open_end", "_wait", "_got", "_batch")

    @staticmethod
    def start() -> CheckWorker | None:
        """A running worker, or None where it cannot be started: the one
        forked at the start of this command if there is one (ready by now:
        :mod:`pbem.protocol.early`), else a new one (see
        :func:`pbem.protocol.spawn.start`)."""
        forked = early.take()
        if forked is not None:
            pid, out, back, shared = forked
            return CheckWorker(pid, out, back, wait=True, shared=shared)
        spawned = spawn.start()
        return CheckWorker(*spawned) if spawned is not None else None

    def __init__(self, pid: int, out: int, back: int, wait: bool = False, shared: list[Any] | None = None) -> None:
        self._pid: int | None = pid
        self._out: int | None = out
        self._back: int | None = back
        self._states: dict[int, bytes] = {}     # index -> the state's marshal bytes
        self._lists: dict[int, Any] = {}        # index -> the order lists' marshal bytes (or the replay's, and the file's)
        # The exchanges the worker parsed itself, as the replay has them (the
        # forked worker's parse, which the replay took), or None.
        self._shared: list[Any] | None = shared
        self._count = 0
        self._sealed: dict[int, bytes] = {}     # exchange number -> the sealed part handed to be opened
        self._opened: dict[int, bytes] = {}     # what the worker has opened so far (and not taken)
        self._open_end = True                   # whether every opened part has been read (none handed yet)
        # Whether the replay waits for a part the worker will open, rather
        # than open it itself: for a worker already running (forked at the
        # start of the command), whose answer comes sooner than the replay's
        # own opening would (its first would import cryptography).
        self._wait = wait
        self._got = bytearray()                 # what was read of its answers before the end
        self._batch = bytearray()               # checks not written yet

    def hand_state(self, state: Any) -> int:
        """Send ``state`` (a copy of it, as it is now) to be hashed; its
        index.  ValueError if marshal cannot write it (the caller then
        hashes it at once)."""
        blob = marshal.dumps(state)
        self._states[self._count] = blob
        return self._send(STATE, blob)

    def hand_signature(self, public_key: bytes, signature: bytes, message: bytes) -> int:
        """Send an Ed25519 check (a 32-byte key, a 64-byte signature); its index."""
        return self._send(SIGNATURE, public_key + signature + message)

    def hand_exchange(self, public_key: bytes, signature: bytes, exchange: Any) -> int:
        """Send an exchange whose hash is wanted and whose signature is to be
        checked; its index.  ValueError if marshal cannot write it."""
        n = self._number(exchange)
        if n is not None:
            return self._send(EXCHANGE_AT, public_key + signature + n)
        return self._send(EXCHANGE, public_key + signature + marshal.dumps(exchange))

    def hand_entries(self, entries: Any, listed: Any, exchange: Any = None) -> int:
        """Send two order lists to compare, the replay's and ``exchange``'s
        (``listed``); their index.  ValueError if marshal cannot write them."""
        n = self._number(exchange) if exchange is not None and exchange.get("orders") is listed else None
        if n is not None:
            blob = marshal.dumps(entries)
            self._lists[self._count] = (blob, listed)
            return self._send(ENTRIES_AT, blob + n)
        blob = marshal.dumps((entries, listed))
        self._lists[self._count] = blob
        return self._send(ENTRIES, blob)

    def _number(self, exchange: Any) -> bytes | None:
        """``exchange``'s number (4 bytes) if it is the very exchange the
        worker parsed under it (speed only: the worker reads its own copy,
        of the same bytes, rather than one sent down the pipe)."""
        shared = self._shared
        if shared is None:
            return None
        n = exchange.get("n")
        if type(n) is int and 0 < n <= len(shared) and shared[n - 1] is exchange:
            return n.to_bytes(4, "big")
        return None

    def hand_sealed(self, key: bytes, game_id: str, parts: list[tuple[int, bytes]]) -> None:
        """Have the reader's sealed ``parts`` (exchange number, sealed part)
        opened with its raw X25519 ``key`` ahead of the replay (not a
        check: :meth:`opened` gives them).  Only those whose plaintexts fit in the answers' pipe are
        handed: the worker writes them at once, and one blocked on a full
        pipe would stop answering."""
        if self._out is None or self._back is None:
            return
        parts = _fitting(parts, spawn.pipe_size(self._back) or 0)
        if not parts:
            return
        self._sealed, self._open_end = dict(parts), False
        self._send_frame(OPEN, marshal.dumps((key, game_id, parts)))
        self.flush()
        os.set_blocking(self._back, self._wait)

    def opened(self, n: int, blob: bytes) -> bytes | None:
        """The plaintext of exchange ``n``'s sealed part ``blob`` if the
        worker has opened it by now (or, for a worker the replay waits for,
        once it has); None (the caller opens it) if not yet, not handed, or
        it did not open."""
        if self._sealed.get(n) != blob:
            return None
        while n not in self._opened and not self._open_end and self._read_opened():
            pass
        return self._opened.pop(n, None)

    def _read_opened(self) -> bool:
        """Read what the worker has written of the opened parts; False when
        nothing more is there (or will be)."""
        try:
            chunk = os.read(self._back, 1 << 16)    # type: ignore[arg-type]
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            chunk = b""
        if not chunk:           # the worker is gone: the replay opens the rest
            self._open_end = True
            return False
        self._got += chunk
        self._take_opened()
        return True

    def _take_opened(self) -> None:
        """Move each whole opened part at the head of what was read into
        :attr:`_opened`, up to the end of the openings."""
        got, at = self._got, 0
        while not self._open_end and len(got) - at >= OPENED:
            n, status = int.from_bytes(got[at:at + 4], "big"), got[at + 4]
            length = int.from_bytes(got[at + 5:at + OPENED], "big")
            if n == 0:
                self._open_end = True
            elif len(got) - at - OPENED < length:
                break
            elif status == DONE:
                self._opened[n] = bytes(got[at + OPENED:at + OPENED + length])
            at += OPENED + length
        del got[:at]

    def answers(self) -> list[Answer]:
        """Every handed check's answer, in order; the worker is ended."""
        got = self._collect()
        memo = None
        out: list[Answer] = []
        for i in range(self._count):
            raw = got[i * ANSWER:(i + 1) * ANSWER]
            status = raw[0] if len(raw) == ANSWER else None
            answer = Answer(True if status == DONE else False if status == REFUSED else None,
                            raw[2:].hex() if status is not None and raw[1] else None)
            if i in self._states and answer.digest is None:      # the plain way, from the kept copy
                memo = memo or RecordMemo()
                answer.digest, answer.error = _hash_here(self._states[i], memo)
            elif i in self._lists and answer.good is not True:
                kept = self._lists[i]
                answer.kept = (marshal.loads(kept[0]), kept[1]) if isinstance(kept, tuple) else marshal.loads(kept)
            out.append(answer)
        self._states, self._lists, self._count = {}, {}, 0
        return out

    def close(self) -> None:
        """End the worker at once and free its pipes (nothing is read)."""
        spawn.end(self._pid, self._out, self._back)    # (not collected: its answers are not wanted)
        self._pid = self._out = self._back = None

    def _send(self, tag: bytes, body: bytes) -> int:
        self._send_frame(tag, body)
        self._count += 1
        return self._count - 1

    def _send_frame(self, tag: bytes, body: bytes) -> None:
        if self._out is not None:
            self._batch += tag + len(body).to_bytes(FRAME, "big") + body
            if len(self._batch) >= _BATCH:
                self.flush()

    def flush(self) -> None:
        """Write the checks handed so far (they are written in batches)."""
        if self._out is not None and self._batch:
            try:
                spawn.write_all(self._out, self._batch)
            except OSError:                 # the worker is gone: the rest is done here
                spawn.close(self._out)
                self._out = None
        self._batch = bytearray()

    def _collect(self) -> bytes:
        self.flush()
        if self._out is not None:
            spawn.close(self._out)               # end of input: the worker answers, then exits
            self._out = None
        got = self._got
        if self._back is not None:
            try:
                os.set_blocking(self._back, True)
                while chunk := os.read(self._back, 1 << 16):
                    got += chunk
            except OSError:
                pass
            spawn.close(self._back)
            self._back = None
        self._reap()
        self._take_opened()         # the opened parts come first: not answers
        answered = bytes(got) if self._open_end else b""     # (a worker that died opening answered nothing)
        self._got = bytearray()
        return answered

    def _reap(self) -> None:
        if self._pid is not None:
            spawn.reap(self._pid)       # (its answers are all read: it need not be waited for)
            self._pid = None


def _fitting(parts: list[tuple[int, bytes]], room: int) -> list[tuple[int, bytes]]:
    """The first of ``parts`` whose opened plaintexts (each shorter than
    its sealed part) fit in ``room`` bytes of the answers' pipe."""
    room -= OPENED          # (the end)
    out = []
    for n, blob in parts:
        room -= OPENED + len(blob)
        if room < 0:
            break
        out.append((n, blob))
    return out


def _hash_here(blob: bytes, memo: RecordMemo) -> tuple[str | None, Exception | None]:
    """A state's hash worked out here, from its kept copy, or what that raised."""
    try:
        return hash_state(blob, memo).hex(), None
    except Exception as exc:
        return None, exc
