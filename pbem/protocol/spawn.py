"""Speed only: starting pbem's check worker (:mod:`pbem.protocol.worker`),
a fresh, isolated interpreter that reads checks on its standard input and
answers on its standard output.

It imports only :mod:`os` and :mod:`sys` at its top.  Started before this
program's own imports (so that the worker's ~40 ms of start-up overlapped
them), the two start-ups slowed each other: measured, a cold verify took
5-10% longer, so the replay starts it (:func:`start`) when it needs it.

Why a fresh interpreter and not a fork: a forked child shares every page
of the replay's memory, and each page the replay then writes (reference
counts change on every object it reads) is copied first, on the replay's
time (measured: the fork saved less than half of what it should have).
``pbem verify`` forks its worker instead, at its very start, when the
process holds little yet (:mod:`pbem.protocol.early`)."""
from __future__ import annotations

import os
import sys

WORKER = "pbem.protocol.worker"
# The pipe's buffer, where the system lets us set it: the checks of the
# first exchanges wait there while the worker's interpreter starts.
PIPE_SIZE = 1 << 20

Spawned = tuple[int, int, int]      # the worker's pid, the pipe to write checks to, the pipe to read answers from


def start() -> Spawned | None:
    """A running worker, or None where it cannot be started: no
    ``posix_spawn`` (Windows), or no interpreter to run it with (an
    embedded or frozen program)."""
    reap_exited()
    if not hasattr(os, "posix_spawn") or not sys.executable or getattr(sys, "frozen", False):
        return None
    made = pipes(2)        # (the opened sealed parts wait in the second: see CheckWorker.hand_sealed)
    if made is None:
        return None
    (checks_r, checks_w), (answers_r, answers_w) = made
    try:
        pid = os.posix_spawn(sys.executable, command(), os.environ, file_actions=[
            (os.POSIX_SPAWN_DUP2, checks_r, 0), (os.POSIX_SPAWN_DUP2, answers_w, 1),
            (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)])
    except OSError:
        close(checks_w, answers_r)
        return None
    finally:
        close(checks_r, answers_w)
    return pid, checks_w, answers_r


def pipes(count: int) -> list[tuple[int, int]] | None:
    """``count`` new pipes (read end, write end), each widened; None (and
    none left open) where the system refuses one."""
    made: list[tuple[int, int]] = []
    try:
        for _ in range(count):
            made.append(os.pipe())
    except OSError:
        close(*(fd for pair in made for fd in pair))
        return None
    for _, write_end in made:
        widen(write_end)
    return made


def core_free() -> bool:
    """Whether a core looks idle for a worker: the last minute's load
    average at least half a core below the cores there are, or (Linux) no
    more tasks running right now than this one on all but one core (the
    average lags a minute behind a machine that has just become quiet)."""
    cores = os.cpu_count() or 1
    if cores < 2:
        return False        # the worker would only take turns with the replay
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return True
    return load < cores - 0.5 or _running_now() < cores


def _running_now() -> int:
    """How many tasks are running or ready to run now, this one included
    (Linux: /proc/loadavg's fourth field); a large number where unknown."""
    try:
        with open("/proc/loadavg", "rb") as f:
            return int(f.read().split()[3].split(b"/")[0])
    except (OSError, ValueError, IndexError):
        return 1 << 30


def command() -> list[str]:
    """The worker's command: this interpreter, isolated (no site, no
    environment, no working folder), importing the worker from where this
    pbem was imported, and cryptography from where this program has it."""
    import pbem

    roots = [_root(pbem.__file__)]
    crypto = _where("cryptography")
    if crypto is not None and crypto not in roots:
        roots.append(crypto)
    code = f"import sys; sys.path[:0] = {roots!r}; from {WORKER} import serve; serve()"
    return [sys.executable, "-I", "-S", "-c", code]


def _where(package: str) -> str | None:
    """The folder this program would import the top-level ``package`` from
    (found on sys.path, not imported), or None."""
    module = sys.modules.get(package)
    origin = getattr(module, "__file__", None)
    if origin is None:
        from importlib.machinery import PathFinder     # (importlib.util would import contextlib at start-up)

        try:
            spec = PathFinder.find_spec(package)
        except (ImportError, ValueError):
            return None
        origin = spec.origin if spec is not None else None
    return _root(origin) if origin else None


def _root(init_file: str) -> str:
    """The folder that holds the package whose ``__init__.py`` this is."""
    return os.path.dirname(os.path.dirname(os.path.abspath(init_file)))


def pipe_size(fd: int) -> int | None:
    """How many bytes the pipe ``fd`` holds, where the system tells it."""
    try:
        import fcntl

        return int(fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ))
    except (ImportError, AttributeError, OSError):
        return None


def widen(fd: int) -> None:
    """The pipe ``fd`` made to hold ``PIPE_SIZE`` bytes, where the system lets us."""
    try:
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_SIZE)
    except (ImportError, AttributeError, OSError):
        pass        # the default buffer: the first checks wait for the worker


def close(*fds: int | None) -> None:
    for fd in fds:
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass


def write_all(fd: int, data: bytes | bytearray) -> None:
    """Write all of ``data`` to the pipe ``fd``."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


# Workers that had not finished exiting when their answers were all read:
# reaped later, as the subprocess module reaps its finished children (the
# last of a worker's exit, freeing its memory, took ~2 ms of the replay's
# time, waiting for it at the end of every verify).
_EXITING: list[int] = []


def end(pid: int | None, *fds: int | None) -> None:
    """End a worker whose answers are not wanted: killed at once, its pipes
    closed, collected (later if it has not exited yet)."""
    if pid is not None:
        import signal

        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:  # pragma: no cover - already gone
            pass
    close(*fds)
    if pid is not None:
        reap(pid)


def reap(pid: int) -> None:
    """Collect the worker ``pid`` if it has exited, else later (by
    :func:`reap_exited`, which every start of a worker calls first)."""
    _EXITING.append(pid)
    reap_exited()


def reap_exited(wait: bool = False) -> None:
    """Collect every worker :func:`reap` left that has exited since (all of
    them, waiting, with ``wait``)."""
    for pid in list(_EXITING):
        try:
            done, _ = os.waitpid(pid, 0 if wait else os.WNOHANG)
        except ChildProcessError:
            done = pid          # (already collected by someone else)
        if done:
            _EXITING.remove(pid)
