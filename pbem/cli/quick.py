"""`pbem verify FILE` without click: the command a player (and every
other program of the table) runs most, started in about two thirds of the
time click's import and parsing take (~25 ms of CPU, a quarter of what a
verify spends before its replay).

:data:`main` is what the ``pbem`` script calls.  Given exactly ``verify
FILE`` (nothing click would read otherwise: no option, no completion
request, a FILE click would accept as it is) it runs the command's body,
:func:`verify_command`, itself; the click command :func:`pbem.cli.records.verify`
runs the same body.  Anything else, and a key that must ask for its
passphrase at the terminal, goes to the click group
(:data:`pbem.cli.base.main`), which is also what every other use of
:data:`main` (attributes, ``CliRunner``) reaches.  The one-line error
handling and click's ``echo`` are reproduced here exactly, so that the
output, the streams and the exit status are the same either way.
"""
from __future__ import annotations

import os
import sys

# Speed only: `pbem --help` and `--version` import this module and nothing
# else of pbem's beyond the help text (a quarter of their time went to
# typing, pathlib and re, imported here at the top before): the names below
# are for the type checker; pathlib, re and pbem.errors are imported where
# used.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, Callable, NoReturn

    Echo = Callable[..., None]


def one_line(text: str) -> str:
    """Messages quote names from the files (a side, a player): a line break
    or terminal control character in one must not break the promise of a
    single plain line, so such characters are shown escaped."""
    return "".join(repr(c)[1:-1] if (ord(c) < 32 and c != "\t") or 127 <= ord(c) < 160 or c in _ESCAPED else c
                   for c in text)


# Line separators and the direction controls (the right-to-left override...)
# are shown escaped too (repr() spells each as \uXXXX).
_ESCAPED = "\u2028\u2029\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def quiet_broken_pipe() -> NoReturn:
    """The reader of our output went away (``pbem demo | head``): stop
    quietly, as Unix tools do, with the status a shell gives a tool killed
    by SIGPIPE.  Standard output is pointed at /dev/null first so that the
    interpreter's last flush cannot complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
    sys.exit(141)


def run_guarded(body: Callable[[], Any], echo: Echo, passthrough: tuple[type[BaseException], ...] = ()) -> Any:
    """``body()``, every PbemError (and any stray exception) turned into one
    line on stderr and an exit status; ``passthrough`` exceptions (click's
    own, in the click group) and SystemExit go on."""
    from pbem.errors import PbemError

    through: tuple[type[BaseException], ...] = (SystemExit, *passthrough)
    try:
        return body()
    except PbemError as exc:
        echo(f"pbem: {one_line(str(exc))}", err=True)
        sys.exit(exc.exit_code)
    except through:  # type: ignore[misc]  # mypy takes no tuple of unknown length here
        raise
    except KeyboardInterrupt:
        echo("pbem: interrupted; nothing written", err=True)
        sys.exit(130)
    except BrokenPipeError:
        quiet_broken_pipe()
    except RecursionError:   # a last guard: input nesting is bounded where it is read
        echo("pbem: input nested too deeply to read", err=True)
        sys.exit(1)
    except Exception as exc:  # never a traceback for the user
        echo(f"pbem: internal error: {type(exc).__name__}: {one_line(str(exc))}", err=True)
        sys.exit(3)


# ------------------------------------------------------------------ the body


def load_me(required: bool, ask: Callable[[], str | None], echo: Echo) -> Any:
    """The player's private key (None if ``required`` is false and there is
    none), asking for its passphrase with ``ask``; a key file others can
    read is reported."""
    from pbem import session
    from pbem.protocol import early

    if not required and not session.key_path().exists():
        return None
    me = session.load_me(ask, early.hand_key if early.running() else None)
    if not early.key_pending():
        warn_if_readable(session.key_path(), echo)     # a key that does not load is reported as such, alone
    return me


def settle_key(me: Any, echo: Echo) -> None:
    """Settle the check of the key's public halves that :func:`load_me`
    left to the forked worker, if it did (:mod:`pbem.protocol.early`):
    before anything else the command does is reported, as the plain way
    reports it at once."""
    from pbem import session
    from pbem.protocol import early, keyfile

    if me is not None and early.key_pending():
        keyfile.check_halves(me, session.key_path(), early.key_verdict())
        warn_if_readable(session.key_path(), echo)


def warn_if_readable(path: Any, echo: Echo) -> None:
    """A private key file others can read is reported (not refused: the
    player may have reasons, but should know)."""
    import stat

    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    if stat.S_ISREG(mode) and mode & 0o077:
        echo(f"pbem: warning: your key file {path} can be read by others (mode {stat.S_IMODE(mode):04o}); "
             f"`chmod 600 {path}` makes it yours alone", err=True)


def open_with_progress(file: Path, me: Any, scenario: str | None = None, audit: bool = False,
                       cached: bool = False, snapshots: bool = True) -> Any:
    from pbem import session

    gf = session.load_game(file, cached=cached and not audit)
    if len(gf.exchanges) < 200 or not sys.stderr.isatty():
        return session.open_game(file, me, scenario=scenario, audit=audit, gf=gf, cached=cached,
                                 snapshots=snapshots)
    from rich.progress import Progress

    with Progress(transient=True) as bar:
        task = bar.add_task("verifying", total=len(gf.exchanges))
        return session.open_game(file, me, scenario=scenario, audit=audit, gf=gf, cached=cached,
                                 snapshots=snapshots, progress=lambda i, n: bar.update(task, completed=i))


def verify_command(file: Path, scenario_override: str | None, ask: Callable[[], str | None], echo: Echo,
                   fork: bool = False) -> None:
    """`pbem verify`: replay the whole game cold; one line if valid.
    ``fork``: start the check worker at once (speed only:
    :func:`pbem.protocol.early.fork_for`)."""
    if not fork:
        return _verify(file, scenario_override, ask, echo)
    from pbem import prefetch
    from pbem.protocol import early

    early.fork_for(file)
    try:
        _verify(file, scenario_override, ask, echo)
    finally:
        early.discard()
        prefetch.forget()


def _verify(file: Path, scenario_override: str | None, ask: Callable[[], str | None], echo: Echo) -> None:
    from pbem import prefetch
    from pbem.protocol import early

    me = load_me(False, ask, echo)
    named = early.running() and scenario_override is None and prefetch.hint(early.data())
    if named:       # speed only: work the replay would do anyway, while the worker parses
        prefetch.warm(*named)
    try:
        loaded = open_with_progress(file, me, scenario_override, snapshots=False)
    except BaseException:
        settle_key(me, echo)        # a key that does not load is what is reported
        raise
    settle_key(me, echo)
    m = loaded.match
    # The count `pbem dice` lists: the shared streams' values and the secret
    # draws this program knows (its own seat's, or every seat's after the audit).
    rolls = sum(len(r.rolls) + sum(map(len, r.secret_rolls.values())) for r in m.records)
    echo(f"valid: {len(m.exchanges)} exchanges, {rolls} rolls and draws recomputed; {m.who_acts()}")
    program = loaded.gf.header.get("program")
    if program:     # a file from before 0.3.0 names none: its output stays as it was
        echo(f"started by {program}")


# ------------------------------------------------------------------ echo


# click's pattern for what it strips from output that is not a terminal
# (compiled on first use: `pbem --help` imports this module too).
_ANSI = r"\033\[[0-?]*[ -/]*[@-~]"


def echo(message: str, err: bool = False) -> None:
    """``click.echo(message, err=err)`` for a text line, on the plain
    streams :func:`_plain_streams` admits: the line and a newline, ANSI
    codes stripped when the stream is no terminal, flushed."""
    stream = sys.stderr if err else sys.stdout
    out = message + "\n"
    try:
        tty = stream.isatty()
    except Exception:
        tty = False
    if not tty and "\033" in out:     # every code starts with ESC: no ESC, nothing to strip (speed only)
        import re

        out = re.sub(_ANSI, "", out)
    stream.write(out)
    stream.flush()


def _plain_streams() -> bool:
    """Standard output and error as the interpreter made them, in an
    encoding click takes as it is (not ASCII): click's echo then writes to
    them directly, as :func:`echo` does."""
    import io

    for stream in (sys.stdout, sys.stderr):
        if type(stream) is not io.TextIOWrapper or stream.errors is None:
            return False
        encoding = (stream.encoding or "ascii").lower().replace("_", "-")
        if encoding in ("ascii", "us-ascii", "646", "ansi-x3.4-1968"):
            return False
    return True


# ------------------------------------------------------------------ entry


class _NeedsClick(Exception):
    """The quick path met what only click can do (ask at the terminal)."""


def _ask_at_terminal() -> str | None:
    # As base._ask_passphrase: no terminal, no question; else click asks.
    if not sys.stdin.isatty():
        return None
    raise _NeedsClick


def _quick_file(args: list[str]) -> str | None:
    """FILE when ``args`` is exactly ``verify FILE`` and click would give
    the command ``Path(FILE)`` as it is (no option, and FILE missing or
    readable: click refuses an unreadable one itself)."""
    if len(args) != 2 or args[0] != "verify" or not args[1] or args[1].startswith("-"):
        return None
    if os.name == "nt":
        return None     # click expands wildcards in arguments there, and writes to the console its own way
    if any(name.startswith("_") and name.endswith("_COMPLETE") for name in os.environ):
        return None     # a shell asking click for completions
    try:
        os.stat(args[1])
    except (OSError, ValueError):
        return args[1]
    return args[1] if os.access(args[1], os.R_OK) else None


def quick_verify(args: list[str]) -> bool:
    """Run ``pbem verify FILE`` without click when ``args`` allow; False
    (nothing done, nothing printed) when click must."""
    name = _quick_file(args)
    if name is None or not _plain_streams():
        return False
    from pbem.protocol import early

    early.fork_for(name)        # speed only: before any more of this program is imported
    from pathlib import Path

    file = Path(name)
    # Speed only: no cyclic garbage collection in this short-lived command
    # (the replay turns it off for itself already).  Before the replay it
    # only walked what stays alive: the modules being imported and the game
    # file's tables as they are parsed (a tenth of the instructions spent
    # before the replay).  Back on if click takes over.
    import gc

    gc.disable()
    try:
        run_guarded(lambda: verify_command(file, None, _ask_at_terminal, echo, fork=True), echo, (_NeedsClick,))
    except _NeedsClick:
        gc.enable()
        return False
    except SystemExit as done:
        _end_now(done)
    except (OSError, EOFError, KeyboardInterrupt) as exc:
        _as_click_main(exc)
    _end_now(SystemExit(0))


def _end_now(done: SystemExit) -> NoReturn:
    """End the process with ``done``'s status, skipping the interpreter's
    teardown (speed only: freeing every module and object of the replay
    took 5-10 ms on a quiet machine).  Nothing of this command needs it:
    its lines are written and flushed by :func:`echo`, it writes no file
    but through an atomic rename (the scenario cache, already in place),
    and pbem registers no exit handler.  A status other than a number, or
    streams that will not flush, take the usual way."""
    code = done.code
    if code is None or type(code) is int:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):
            raise done from None
        os._exit(code or 0)
    raise done


def _as_click_main(exc: BaseException) -> NoReturn:
    """What click's main does with what escapes the command's guard (a
    broken pipe or an interrupt while the guard itself writes)."""
    import errno

    import click
    from click.core import _echo_aborted
    from click.utils import _PacifyFlushWrapper

    if isinstance(exc, OSError):
        if exc.errno != errno.EPIPE:
            raise exc
        sys.stdout = _PacifyFlushWrapper(sys.stdout)  # type: ignore[assignment]
        sys.stderr = _PacifyFlushWrapper(sys.stderr)  # type: ignore[assignment]
        sys.exit(1)
    click.echo(file=sys.stderr)     # the blank line that closes the terminal's ^C
    _echo_aborted()
    sys.exit(1)


# ------------------------------------------------------------------ --help, --version


def help_width(max_width: int | None) -> int:
    """The width click gives help text: the terminal's columns (``$COLUMNS``
    first, 80 when neither says), at most ``max_width`` (80), less 2, at
    least 50.  Worked out here as shutil does, without importing shutil (and
    the compression modules it imports) at each `pbem --help`."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return max(min(columns or 80, max_width or 80) - 2, 50)


def program_name() -> str:
    """The name click's usage line and ``--version`` give the program, as
    click works it out from how Python was started (its
    ``_detect_program_name``): the script's name, or ``python -m ...``."""
    main_module = sys.modules.get("__main__")
    package = getattr(main_module, "__package__", None)
    if package in (None, ""):
        return os.path.basename(sys.argv[0])
    name = os.path.splitext(os.path.basename(sys.argv[0]))[0]
    module = str(package) if name == "__main__" else f"{package}.{name}"
    return f"python -m {module.lstrip('.')}"


def quick_help(args: list[str]) -> bool:
    """Print what click prints for ``pbem --help`` or ``pbem --version``
    without importing click, when ``args`` are exactly that and the program
    is called ``pbem``; False (nothing printed) when click must.  The help
    is click's own text, kept by width in :mod:`pbem.cli.helptext`
    (tests/test_cli_quick_help.py checks it against click's)."""
    if args not in (["--help"], ["--version"]) or os.name == "nt" or not _plain_streams():
        return False
    if any(name.startswith("_") and name.endswith("_COMPLETE") for name in os.environ):
        return False    # a shell asking click for completions
    if program_name() != "pbem":
        return False    # the usage line names the program: the help is kept for `pbem` only
    if args == ["--version"]:
        from pbem import __version__

        text = f"pbem, version {__version__}"
    else:
        from pbem.cli.helptext import HELP

        text = HELP[help_width(None)]
    try:
        echo(text)
    except (OSError, KeyboardInterrupt) as exc:
        _as_click_main(exc)
    sys.exit(0)


# ------------------------------------------------------------------ the entry point


class Main:
    """The ``pbem`` entry point: ``pbem verify FILE``, ``pbem --help`` and
    ``pbem --version`` quick (see the module and :func:`quick_help`),
    everything else the click group, to which every attribute is passed
    (``main.main(args=...)``, ``main.name``...)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not args and not kwargs and (quick_help(sys.argv[1:]) or quick_verify(sys.argv[1:])):
            return None     # pragma: no cover - each exits
        return _group()(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(_group(), name)


def _group() -> Any:
    from pbem.cli.base import main as group

    return group


main = Main()
