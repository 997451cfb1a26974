"""Mail passwords that no file holds.

A mail account's password (SMTP for ``pbem mail --send``, IMAP for ``pbem
fetch``) comes, when it is needed and never sooner, from the first of:

1. ``password_command``: a command whose first line of output is the
   password (``pass show mail/anna``, ``secret-tool lookup ...``), as
   msmtp's ``passwordeval``; a string runs through ``sh -c``, a list runs
   as it is;
2. the system keyring (the ``keyring`` library), under the service
   ``pbem-smtp`` or ``pbem-imap`` and the account ``user@host``
   (``pbem password set smtp`` puts it there); ``keyring = false`` in the
   table skips it;
3. a prompt, when pbem runs at a terminal.

A plain ``password`` in a config file is refused (README, "Mail
passwords", says why), with these three ways named.
"""
from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from typing import Any, Callable

from pbem.errors import PbemError, UsageError

#: How long a password command may take (a GPG agent may ask for a PIN).
COMMAND_TIMEOUT = 120

WAYS = ("password_command = \"...\" (a command that prints it), the system keyring "
        "(`pbem password set {kind}`), or no password setting at all to be asked at the terminal")


def refusal(kind: str, where: str) -> str:
    return (f"{where}: a plain password is not kept in a file; remove it and use "
            + WAYS.format(kind=kind))


@dataclass(frozen=True)
class Secret:
    """Where the password of one account is to be found.  ``kind`` is
    ``smtp`` or ``imap``; ``where`` names the config for messages."""

    kind: str
    host: str
    user: str
    where: str
    command: str | tuple[str, ...] | None = None
    use_keyring: bool = True

    @property
    def service(self) -> str:
        return f"pbem-{self.kind}"

    @property
    def account(self) -> str:
        return f"{self.user}@{self.host}"

    def get(self, prompt: Callable[[str], str | None] | None = None) -> str:
        """The password, from the command, the keyring or the prompt;
        :class:`PbemError` (one line) when none of them gives one."""
        if self.command is not None:
            return run_command(self.command, self.where)
        if self.use_keyring:
            found = keyring_get(self.service, self.account)
            if found:
                return found
        ask = prompt if prompt is not None else _tty_prompt
        got = ask(f"{self.kind.upper()} password for {self.account}")
        if got:
            return got
        raise UsageError(f"no {self.kind.upper()} password for {self.account}: set password_command in "
                         f"{self.where}, store it with `pbem password set {self.kind}`, or run pbem at a "
                         "terminal to be asked")


def from_table(table: dict[str, Any], *, kind: str, host: str, user: str, where: str) -> Secret:
    """The :class:`Secret` a config table describes (``password_command``,
    ``keyring``); a plain ``password`` is refused."""
    if "password" in table:
        raise UsageError(refusal(kind, where))
    command = table.get("password_command")
    if command is not None:
        ok = (isinstance(command, str) and command.strip()) or (
            isinstance(command, list) and command and all(isinstance(c, str) and c for c in command))
        if not ok:
            raise UsageError(f"{where}: password_command must be a command line or a list of words")
        command = command if isinstance(command, str) else tuple(command)
    use = table.get("keyring", True)
    if not isinstance(use, bool):
        raise UsageError(f"{where}: keyring must be true or false")
    return Secret(kind, host, user, where, command, use)


def run_command(command: str | tuple[str, ...], where: str) -> str:
    """The first line a password command prints (its trailing newline
    taken off).  A failure names the command's exit status, never its
    output."""
    args: Any = ["sh", "-c", command] if isinstance(command, str) else list(command)
    try:
        done = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=COMMAND_TIMEOUT, check=False)
    except FileNotFoundError:
        raise UsageError(f"{where}: password_command not found: {args[0]}") from None
    except subprocess.TimeoutExpired:
        raise PbemError(f"{where}: password_command gave no answer in {COMMAND_TIMEOUT} s") from None
    except OSError as exc:
        raise UsageError(f"{where}: cannot run password_command: {exc.strerror or exc}") from None
    if done.returncode != 0:
        raise PbemError(f"{where}: password_command failed (exit status {done.returncode})")
    text = done.stdout.decode("utf-8", errors="replace")
    line = text.split("\n", 1)[0].rstrip("\r")
    if not line:
        raise PbemError(f"{where}: password_command printed no password")
    return line


# ------------------------------------------------------------------ keyring


def _keyring() -> Any:
    try:
        import keyring
    except ImportError:      # pragma: no cover - a dependency, but a stripped install may lack it
        return None
    return keyring


def keyring_get(service: str, account: str) -> str | None:
    """The stored password, or None when the keyring has none or there is
    no usable keyring (a headless machine): then the next way is tried."""
    kr = _keyring()
    if kr is None:
        return None
    try:
        got = kr.get_password(service, account)
    except Exception:       # no backend, a locked or broken keyring: not an answer
        return None
    return got or None


def keyring_set(service: str, account: str, password: str) -> str:
    """Store a password; returns the keyring's name.  One line on failure."""
    kr = _keyring()
    if kr is None:  # pragma: no cover
        raise UsageError("the keyring library is not installed")
    try:
        backend = kr.get_keyring()
        kr.set_password(service, account, password)
    except Exception as exc:
        raise PbemError(f"the system keyring refused the password: {type(exc).__name__}: {exc}") from None
    return f"{type(backend).__module__}.{type(backend).__name__}"


def keyring_delete(service: str, account: str) -> bool:
    kr = _keyring()
    if kr is None:  # pragma: no cover
        return False
    try:
        kr.delete_password(service, account)
    except Exception:
        return False
    return True


def _tty_prompt(label: str) -> str | None:
    if not sys.stdin.isatty() or os.environ.get("PBEM_NO_PROMPT"):
        return None
    import getpass

    try:
        return getpass.getpass(f"{label}: ") or None
    except (EOFError, KeyboardInterrupt):
        return None
