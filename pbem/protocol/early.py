"""Speed only: the check worker of a ``pbem verify``, forked at the very
start of the command rather than spawned when the replay begins.

A spawned worker (:mod:`pbem.protocol.spawn`) is a fresh interpreter: it
is ready some 40 ms after the replay asks for it, so the replay opens its
first sealed parts itself (importing cryptography for them) and parses the
game file itself.  Forked before the program's own imports, the worker is
a copy of a process that holds little yet (so few of its pages are copied
when either writes them), and it has work while the replay's modules are
imported:

- it parses the game file's bytes (the ones the command read before the
  fork) and writes the parse back, as marshal bytes, which the replay reads
  in a tenth of the parse's time (:func:`parsed`, taken only for the very
  same bytes);
- it checks that the key file's stored public halves are the ones its
  private keys give, so that the replay never imports cryptography itself
  (:func:`key_verdict`);
- then it answers the replay's checks as a spawned worker does
  (:class:`pbem.cycle.worker.CheckWorker` takes it with :func:`take`).

Nothing it says is trusted beyond what the plain way would give: it is this
same program, it works on exact copies, and whatever it does not answer
(it failed, died, or could not be forked) is done here, the plain way.
Only on Linux, and only from a process with no other thread (a fork copies
one thread: another's locks would stay held in the copy)."""
from __future__ import annotations

import marshal
import os
import stat
import sys
from typing import Any

from pbem.protocol import spawn

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pbem.protocol.gamefile import GameFile

# A game file this long (bytes) or longer is worth a forked worker: the
# replay hands a worker its checks from about 64 exchanges on
# (pbem.cycle.background.HASH_FROM), at 1.5-2 KB an exchange.
EARLY_FROM = 96 << 10
READ_AT_MOST = 20 << 20     # (pbem.protocol.gamefile.MAX_FILE_BYTES: a longer file is refused there)
FRAME = 4
KEY = b"k"      # the frame that hands the worker a key to check (pbem.protocol.worker)

# The worker's verdict on a key's stored public halves: good, which one the
# private keys do not give, or that it could not tell.
KEY_GOOD, KEY_SIGN, KEY_SEAL, KEY_UNKNOWN = 0, 1, 2, 3


class Early:
    """The forked worker's pipes, what it was handed, and what it told."""

    __slots__ = ("pid", "checks", "answers", "told", "data", "parse", "key", "taken", "given", "public")

    def __init__(self, pid: int, checks: int, answers: int, told: int, data: bytes) -> None:
        self.pid, self.checks, self.answers, self.told, self.data = pid, checks, answers, told, data
        self.parse: bytes | None = None        # its parse's marshal bytes, once read (b"": none)
        self.key = False                        # whether it was handed a key to check, not yet answered
        self.taken = False                      # whether the replay took it (its checks and answers)
        self.given: list[Any] | None = None     # the exchanges of its parse, as the replay was given them
        self.public: tuple[Any, str | None] | None = None   # its [state] public copy, and that copy's hash


_current: Early | None = None


def fork(data: bytes) -> bool:
    """Fork the worker, handing it the game file's ``data`` to parse; False
    where it is not forked (not Linux, another thread, no core free, a fork
    or a pipe refused)."""
    global _current
    if not _may_fork():
        return False
    spawn.reap_exited()
    pipes = spawn.pipes(3)      # (the parse waits in the third until the replay reads it)
    if pipes is None:
        return False
    (checks_r, checks_w), (answers_r, answers_w), (told_r, told_w) = pipes
    import signal

    # An interrupt is held back until the worker ignores it: one that came
    # between the fork and the worker's first line would run this program's
    # own code in the worker.
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pid = os.fork()
    except OSError:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        spawn.close(checks_r, checks_w, answers_r, answers_w, told_r, told_w)
        return False
    if pid == 0:        # the worker: it never returns into this program, whatever happens
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)    # (an interrupt is the replay's to report)
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
            from pbem.protocol.worker import serve_forked

            serve_forked(checks_r, answers_w, told_w, (checks_w, answers_r, told_r), data)
        finally:
            os._exit(0)
    signal.pthread_sigmask(signal.SIG_SETMASK, held)
    spawn.close(checks_r, answers_w, told_w)
    _current = Early(pid, checks_w, answers_r, told_r, data)
    return True


def fork_for(path: str | os.PathLike[str]) -> bool:
    """Fork the worker now, before the program's own imports (it imports
    what it needs itself meanwhile), with the game file at ``path`` to
    parse, if it is a regular file long enough to want one; whether it did.
    Whatever goes wrong here is met again in its place, the plain way (a
    saved email is not taken: the worker's parse is of other bytes)."""
    if not _may_fork():         # (before reading a file that would not be used)
        return False
    try:
        # (O_NONBLOCK: opening a FIFO to read would wait for a writer)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError):
        return False
    try:
        found = os.fstat(fd)
        size = found.st_size
        if not stat.S_ISREG(found.st_mode) or not EARLY_FROM <= size <= READ_AT_MOST:
            return False
        data = bytearray()
        while len(data) <= size and (chunk := os.read(fd, size + 1 - len(data))):
            data += chunk
    except OSError:
        return False
    finally:
        os.close(fd)
    return fork(bytes(data))


def running() -> bool:
    """Whether a forked worker is there, not yet taken by the replay."""
    return _current is not None and not _current.taken


def data() -> bytes:
    """The bytes the forked worker was handed to parse (b"" if none)."""
    return _current.data if _current is not None else b""


def hand_key(sign_key: bytes, seal_key: bytes, sign_pub: str, seal_pub: str) -> bool:
    """Hand the worker the check that the public halves ``sign_pub`` and
    ``seal_pub`` (hex) are the ones the private keys (raw) give; whether it
    took it (:func:`key_verdict` then gives its answer)."""
    early = _current
    if early is None or early.taken or early.key:
        return False
    try:
        body = marshal.dumps((sign_key, seal_key, sign_pub, seal_pub))
        spawn.write_all(early.checks, KEY + len(body).to_bytes(FRAME, "big") + body)
    except (OSError, ValueError):
        return False
    early.key = True
    return True


def key_pending() -> bool:
    """Whether a key check handed to the worker is still to be settled."""
    return _current is not None and _current.key


def key_verdict() -> int | None:
    """The worker's answer to the key check (``KEY_GOOD``, ``KEY_SIGN``,
    ``KEY_SEAL``), waiting for it if need be; None if it gives none (the
    caller checks the key itself).  The check is settled."""
    early = _current
    if early is None or not early.key:
        return None
    early.key = False
    _read_parse(early)              # (it comes first)
    got = _read_exactly(early, 1)
    return got[0] if got and got[0] in (KEY_GOOD, KEY_SIGN, KEY_SEAL) else None


def parsed(data: bytes) -> GameFile | None:
    """The forked worker's parse of ``data``, waiting for it; None unless
    it parsed these very bytes without error (the caller parses them
    itself, and meets the error in its place)."""
    early = _current
    if early is None:
        return None
    body = _read_parse(early)
    if not body or data != early.data:
        return None
    from pbem.protocol.gamefile import GameFile

    try:
        exchanges, state, public = marshal.loads(body)
    except (ValueError, EOFError, TypeError):
        return None
    early.given, early.public = exchanges, (state.get("public"), public)
    return GameFile(exchanges, state)


def public_digest(text: Any) -> str | None:
    """The hash of the ``[state]`` public copy ``text`` as the forked worker
    worked it out (:func:`pbem.protocol.gamefile.public_digest`; "" if it is
    not JSON), if ``text`` is the very copy of the parse it gave; else None."""
    early = _current
    if early is None or early.public is None or early.public[0] is not text:
        return None
    return early.public[1]


def take() -> tuple[int, int, int, list[Any] | None] | None:
    """The forked worker (its pid, the pipe to write checks to, the pipe to
    read answers from, and the exchanges of its parse as the replay was
    given them, if it was), for the replay to hand its checks; None if
    there is none or it was taken.  It is the caller's from here on (what
    it tells of a key stays to be read)."""
    early = _current
    if early is None or early.taken:
        return None
    _read_parse(early)          # (read now: a worker waiting to write it would answer nothing)
    early.taken = True
    return early.pid, early.checks, early.answers, early.given


def discard() -> None:
    """End the forked worker unless the replay took it (a file too short
    for one, or a command that stopped before its replay)."""
    global _current
    early, _current = _current, None
    if early is None:
        return
    spawn.close(early.told)
    if not early.taken:         # nothing it does is wanted now (it may be parsing a long file)
        spawn.end(early.pid, early.checks, early.answers)


def _may_fork() -> bool:
    """Whether a worker may be forked now (see the module)."""
    return _current is None and sys.platform.startswith("linux") and hasattr(os, "fork") and _one_thread() \
        and spawn.core_free()


def _one_thread() -> bool:
    threading = sys.modules.get("threading")
    return threading is None or threading.active_count() == 1


def _read_parse(early: Early) -> bytes:
    if early.parse is None:
        size = _read_exactly(early, FRAME)
        early.parse = _read_exactly(early, int.from_bytes(size, "big")) if len(size) == FRAME else b""
    return early.parse


def _read_exactly(early: Early, size: int) -> bytes:
    """``size`` bytes of what the worker tells, fewer if it ended."""
    got = bytearray()
    try:
        while len(got) < size and (chunk := os.read(early.told, size - len(got))):
            got += chunk
    except OSError:
        pass
    return bytes(got)
