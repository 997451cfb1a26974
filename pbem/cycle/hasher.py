"""Speed only: a replay's state hashes worked out by a second process.

After every exchange a replay checks the state hash the sender signed
against its own state (PROTOCOL.md): the canonical bytes of the whole
public state, hashed.  On a cold verify of a long game that is about a
seventh of the replay, and none of it is needed to go on replaying: the
answer is only compared.  So, when a core is free, :class:`StateHasher`
starts a worker (:mod:`pbem.protocol.hashworker`, a fresh interpreter
that imports only the canonical form) at the start of the replay.  For
each state the replay writes the state's marshal bytes (a fifth of the
cost of the canonical encoding, and an exact copy: marshal keeps every
type, ``1`` and ``True`` apart) down a pipe; the worker reads each back,
encodes it canonically, hashes it and, at the end, sends every hash back.
The replay compares them when it settles its deferred checks, in file
order (:class:`pbem.cycle.parts.Background`).

Nothing is trusted that could differ from the plain way: the worker runs
this same program's :class:`~pbem.protocol.canon.RecordMemo` on an exact
copy of the state, and any state it could not answer for (it failed,
died, or the encoding refused the state) is worked out again here from the
kept bytes, raising what the plain check would have raised.

Why a fresh interpreter and not a fork: a forked child shares every page
of the replay's memory, and each page the replay then writes (reference
counts change on every object it reads) is copied first, on the
replay's time (measured: the fork saved a third of what it should have).
"""
from __future__ import annotations

import marshal
import os
import sys
from typing import Any

from pbem.protocol.canon import RecordMemo, sha256
from pbem.protocol.hashworker import ANSWER, FRAME

# The pipe's buffer, where the system lets us set it: the states of the
# first exchanges wait there while the worker's interpreter starts.
_PIPE_SIZE = 1 << 20


class StateHasher:
    """A worker process that hashes the states handed to it, in order.

    :meth:`start` starts it (None where it cannot be started);
    :meth:`hand` sends it one state and returns its index;
    :meth:`digests` ends it and gives each state's hash (hex);
    :meth:`close` ends it whatever happened (idempotent)."""

    __slots__ = ("_pid", "_out", "_back", "_kept")

    @staticmethod
    def start() -> StateHasher | None:
        """A running worker, or None where it cannot be started."""
        if not hasattr(os, "posix_spawn"):
            return None
        try:
            states_r, states_w = os.pipe()
        except OSError:
            return None
        try:
            answers_r, answers_w = os.pipe()
        except OSError:
            _close(states_r, states_w)
            return None
        _widen(states_w)
        try:
            pid = os.posix_spawn(sys.executable, _command(), os.environ, file_actions=[
                (os.POSIX_SPAWN_DUP2, states_r, 0), (os.POSIX_SPAWN_DUP2, answers_w, 1),
                (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)])
        except OSError:
            _close(states_r, states_w, answers_r, answers_w)
            return None
        finally:
            _close(states_r, answers_w)
        return StateHasher(pid, states_w, answers_r)

    def __init__(self, pid: int, out: int, back: int) -> None:
        self._pid: int | None = pid
        self._out: int | None = out
        self._back: int | None = back
        self._kept: list[bytes] = []

    def hand(self, state: Any) -> int:
        """Send ``state`` (a copy of it, as it is now) to be hashed; its
        index.  ValueError if marshal cannot write it (the caller then
        hashes it at once)."""
        blob = marshal.dumps(state)
        self._kept.append(blob)
        if self._out is not None:
            try:
                _write_all(self._out, len(blob).to_bytes(FRAME, "big") + blob)
            except OSError:                 # the worker is gone: the rest is done here
                _close(self._out)
                self._out = None
        return len(self._kept) - 1

    def digests(self) -> list[str | Exception]:
        """Every handed state's hash (hex), in order, or what the plain
        hash raised for it; the worker is ended."""
        answers = self._collect()
        out: list[str | Exception] = []
        for i, blob in enumerate(self._kept):
            answer = answers[i * ANSWER:(i + 1) * ANSWER]
            if len(answer) == ANSWER and answer[0] == 1:
                out.append(answer[1:].hex())
                continue
            try:                             # not answered: the plain way, from the kept copy
                out.append(sha256(RecordMemo().canonical(marshal.loads(blob))).hex())
            except Exception as exc:
                out.append(exc)
        self._kept = []
        return out

    def close(self) -> None:
        """End the worker at once and free its pipes (nothing is read)."""
        if self._pid is not None:           # not collected: its answers are not wanted
            import signal

            try:
                os.kill(self._pid, signal.SIGKILL)
            except OSError:  # pragma: no cover - already gone
                pass
        _close(self._out, self._back)
        self._out = self._back = None
        self._reap()

    def _collect(self) -> bytes:
        if self._out is not None:
            _close(self._out)               # end of input: the worker answers, then exits
            self._out = None
        got = bytearray()
        if self._back is not None:
            try:
                while chunk := os.read(self._back, 1 << 16):
                    got += chunk
            except OSError:
                pass
            _close(self._back)
            self._back = None
        self._reap()
        return bytes(got)

    def _reap(self) -> None:
        if self._pid is not None:
            try:
                os.waitpid(self._pid, 0)
            except OSError:  # pragma: no cover - already reaped
                pass
            self._pid = None


def _command() -> list[str]:
    """The worker's command: this interpreter, isolated (no site, no
    environment, no working folder: it needs only the standard library),
    importing the worker from where this pbem was imported."""
    import pbem

    root = os.path.dirname(os.path.dirname(os.path.abspath(pbem.__file__)))
    code = f"import sys; sys.path.insert(0, {root!r}); from pbem.protocol.hashworker import serve; serve()"
    return [sys.executable, "-I", "-S", "-c", code]


def _widen(fd: int) -> None:
    try:
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, _PIPE_SIZE)
    except (ImportError, AttributeError, OSError):
        pass        # the default buffer: the first states wait for the worker


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _close(*fds: int | None) -> None:
    for fd in fds:
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass
