"""The ``pbem`` command: parse, call the library, print.  No rules here.

Every failure the user can cause ends in one line on stderr and a non-zero
exit (1 for an invalid file or illegal order, 2 for a usage error); nothing
is written unless the whole command succeeded.
"""
from __future__ import annotations

import sys
from typing import Any

import click

from pbem.errors import PbemError, UsageError

DICE_HELP = (
    "Dice timing.  sealed (default): rolls your orders ask for are keyed by your "
    "opponent's next reveal, so you sign without knowing the result and his program "
    "resolves them - fair even against a player who modifies the program.  immediate: "
    "results at once, still verifiable and not re-rollable, but a player running a "
    "modified program could foresee the dice before ordering: for friendly games only."
)


class Cli(click.Group):
    """Turns every PbemError (and any stray exception) into one line."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except PbemError as exc:
            click.echo(f"pbem: {_one_line(str(exc))}", err=True)
            sys.exit(exc.exit_code)
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort, SystemExit):
            raise
        except KeyboardInterrupt:
            click.echo("pbem: interrupted; nothing written", err=True)
            sys.exit(130)
        except BrokenPipeError:
            _quiet_broken_pipe()
        except RecursionError:   # a last guard: input nesting is bounded where it is read
            click.echo("pbem: input nested too deeply to read", err=True)
            sys.exit(1)
        except Exception as exc:  # never a traceback for the user
            click.echo(f"pbem: internal error: {type(exc).__name__}: {_one_line(str(exc))}", err=True)
            sys.exit(3)


def _quiet_broken_pipe() -> None:
    """The reader of our output went away (``pbem demo | head``): stop
    quietly, as Unix tools do, with the status a shell gives a tool killed
    by SIGPIPE.  Standard output is pointed at /dev/null first so that the
    interpreter's last flush cannot complain."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
    sys.exit(141)


def _one_line(text: str) -> str:
    """Messages quote names from the files (a side, a player): a line break
    or terminal control character in one must not break the promise of a
    single plain line, so such characters are shown escaped."""
    return "".join(repr(c)[1:-1] if (ord(c) < 32 and c != "\t") or 127 <= ord(c) < 160 or c in _ESCAPED else c
                   for c in text)


# Line separators and the direction controls (the right-to-left override...)
# are shown escaped too (repr() spells each as \uXXXX).
_ESCAPED = "\u2028\u2029\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def _message(text: str, where: str = "--message") -> str:
    """A note to the opponent as typed: control characters taken out, at
    most the file format's limit (``schema.MESSAGE_LIMIT``, UsageError
    otherwise)."""
    from pbem.protocol.schema import MESSAGE_LIMIT as MAX_MESSAGE
    from pbem.session import clean_text

    text = clean_text(text).strip()
    if len(text) > MAX_MESSAGE:
        raise UsageError(f"{where}: the message has {len(text)} characters; at most {MAX_MESSAGE}")
    return text


@click.group(cls=Cli)
@click.version_option(package_name="pbem")
def main() -> None:
    """Play-by-email adjudicator for operational wargames of the Russo-German
    war: signed game files, dice neither player can bias, hidden information
    kept hidden, every rule enforced."""


def _console() -> Any:
    from rich.console import Console

    return Console()


def _ask_passphrase() -> str | None:
    if not sys.stdin.isatty():
        return None
    return click.prompt("Passphrase", hide_input=True, default="", show_default=False) or None


def _me(required: bool = True) -> Any:
    from pbem import session

    if not required and not session.key_path().exists():
        return None
    me = session.load_me(_ask_passphrase)
    _warn_if_readable(session.key_path())     # a key that does not load is reported as such, alone
    return me


def _warn_if_readable(path: Any) -> None:
    """A private key file others can read is reported (not refused: the
    player may have reasons, but should know)."""
    import os
    import stat

    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    if stat.S_ISREG(mode) and mode & 0o077:
        click.echo(f"pbem: warning: your key file {path} can be read by others (mode {stat.S_IMODE(mode):04o}); "
                   f"`chmod 600 {path}` makes it yours alone", err=True)


# ------------------------------------------------------------------ identity


def _parse_kv(items: tuple[str, ...], what: str) -> dict[str, str]:
    out = {}
    for item in items:
        if "=" not in item:
            raise UsageError(f"{what} takes NAME=VALUE, got {item!r}")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def _option_value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text
