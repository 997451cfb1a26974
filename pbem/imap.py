"""The player's IMAP mailbox as a source for ``pbem fetch``.

Configured once in ``$PBEM_HOME/imap.toml``::

    [imap]
    host = "imap.example.org"
    user = "anna"
    folder = "INBOX"                 # default INBOX
    port = 993                       # default: 993 (tls = "ssl"), 143 (tls = "starttls")
    tls = "ssl"                      # or "starttls"; there is no plain-text mode
    # ca_file = "/path/to/ca.pem"    # a private CA; default: the system's
    password_command = "pass show mail/anna"   # or the keyring, or a prompt

Only the standard library's imaplib is used.  The folder is opened
read-only (EXAMINE) unless messages are to be flagged seen; the search asks
the server for unseen messages carrying the ``X-Pbem-Game`` header; each is
read with ``BODY.PEEK[]``, which leaves its flags alone.  Nothing is ever
deleted, moved or expunged: the session ends with LOGOUT, never CLOSE.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from pbem.errors import PbemError, UsageError
from pbem.fsutil import load_config_table
from pbem.inbox import MAX_MESSAGE  # one limit for every mailbox


@dataclass
class ImapConfig:
    host: str
    user: str
    folder: str
    port: int
    tls: str
    ca_file: str | None
    secret: Any
    timeout: float = 30.0

    @property
    def where(self) -> str:
        return f"{self.host}:{self.port}"


def config_path() -> Path:
    from pbem import session

    return session.home() / "imap.toml"


def load_config(path: Path | None = None) -> ImapConfig:
    """The ``[imap]`` table of ``path`` (default ``$PBEM_HOME/imap.toml``);
    one UsageError line for the first problem."""
    from pbem import credentials

    path = Path(path) if path is not None else config_path()
    where = f"IMAP config {path}"
    table = load_config_table(path, "imap", "IMAP config", " (host, user, folder in an [imap] table)")
    known = {"host", "user", "folder", "port", "tls", "ca_file", "password_command", "keyring", "password",
             "timeout"}
    extra = sorted(set(table) - known)
    if extra:
        raise UsageError(f"{where}: unknown setting imap.{extra[0]}")

    def get(name: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        if name not in table:
            if default is ...:
                raise UsageError(f"{where}: [imap] lacks {name}")
            return default
        value = table[name]
        if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
            raise UsageError(f"{where}: imap.{name} has the wrong type")
        return value

    host, user = get("host", str), get("user", str)
    tls = get("tls", str, "ssl")
    if tls not in ("ssl", "starttls"):
        raise UsageError(f"{where}: imap.tls must be \"ssl\" or \"starttls\" (mail passwords never travel in clear)")
    port = get("port", int, 993 if tls == "ssl" else 143)
    if not 0 < port < 65536:
        raise UsageError(f"{where}: imap.port {port} is out of range")
    ca_file = get("ca_file", str, None)
    if ca_file is not None:
        ca_file = str(Path(ca_file).expanduser())
        if not Path(ca_file).is_file():
            raise UsageError(f"{where}: imap.ca_file {ca_file} not found")
    timeout = float(get("timeout", (int, float), 30))
    secret = credentials.from_table(table, kind="imap", host=host, user=user, where=where)
    return ImapConfig(host, user, get("folder", str, "INBOX"), port, tls, ca_file, secret, timeout)


class Mailbox:
    """One IMAP session: ``with Mailbox(cfg, writable) as box: box.items()``."""

    def __init__(self, cfg: ImapConfig, *, writable: bool, include_seen: bool = False) -> None:
        self.cfg = cfg
        self.writable = writable
        self.include_seen = include_seen
        self.conn: Any = None

    def __enter__(self) -> Mailbox:
        import imaplib
        import ssl

        cfg = self.cfg
        password = cfg.secret.get()              # before connecting: a prompt waits for no server
        context = ssl.create_default_context(cafile=cfg.ca_file)
        try:
            if cfg.tls == "ssl":
                self.conn = imaplib.IMAP4_SSL(cfg.host, cfg.port, ssl_context=context, timeout=cfg.timeout)
            else:
                self.conn = imaplib.IMAP4(cfg.host, cfg.port, timeout=cfg.timeout)
                self.conn.starttls(ssl_context=context)
        except (OSError, imaplib.IMAP4.error) as exc:
            self._drop()
            raise PbemError(f"could not reach IMAP server {cfg.where}: {_reason(exc)}") from None
        try:
            self._login(password)
        except imaplib.IMAP4.error as exc:
            self._drop()
            raise PbemError(f"IMAP server {cfg.where} refused the login of {cfg.user}: {_reason(exc)}") from None
        except OSError as exc:
            self._drop()
            raise PbemError(f"IMAP server {cfg.where}: {_reason(exc)}") from None
        try:
            status, data = self.conn.select(_quote(cfg.folder), readonly=not self.writable)
        except (OSError, imaplib.IMAP4.error) as exc:
            self.__exit__(None, None, None)
            raise PbemError(f"IMAP server {cfg.where}: cannot open folder {cfg.folder}: {_reason(exc)}") from None
        if status != "OK":
            self.__exit__(None, None, None)
            raise PbemError(f"IMAP server {cfg.where}: no folder {cfg.folder} ({_text(data)})")
        return self

    def _login(self, password: str) -> None:
        """LOGIN; a temporary failure (RFC 5530 [UNAVAILABLE]: a busy
        server, an authentication service restarting) is tried again after
        a pause, twice at most."""
        import imaplib
        import time

        for pause in (1, 2, None):
            try:
                self.conn.login(self.cfg.user, password)
                return
            except imaplib.IMAP4.error as exc:
                if pause is None or "UNAVAILABLE" not in str(exc):
                    raise
                time.sleep(pause)

    def __exit__(self, *exc: Any) -> None:
        if self.conn is not None:
            try:
                self.conn.logout()       # never CLOSE: it would expunge deleted messages
            except Exception:
                pass
            self.conn = None

    def _drop(self) -> None:
        try:
            if self.conn is not None:
                self.conn.shutdown()
        except Exception:
            pass
        self.conn = None

    def _call(self, *args: Any) -> list[Any]:
        import imaplib

        try:
            status, data = self.conn.uid(*args)
        except (OSError, imaplib.IMAP4.error) as exc:
            raise PbemError(f"IMAP server {self.cfg.where}: {args[0]} failed: {_reason(exc)}") from None
        if status != "OK":
            raise PbemError(f"IMAP server {self.cfg.where}: {args[0]} failed: {_text(data)}")
        return list(data)

    def uids(self) -> list[bytes]:
        from pbem.mail import GAME_HEADER

        criteria = ([] if self.include_seen else ["UNSEEN"]) + ["HEADER", GAME_HEADER, '""']
        data = self._call("SEARCH", *criteria)
        return [u for u in b" ".join(d for d in data if isinstance(d, bytes)).split() if u.isdigit()]

    def items(self) -> Iterator[Any]:
        from pbem.inbox import Item

        for uid in self.uids():
            data = self._call("FETCH", uid, "(RFC822.SIZE)")
            size = _size(data)
            if size is not None and size > MAX_MESSAGE:
                continue
            data = self._call("FETCH", uid, "(BODY.PEEK[])")
            raw = next((part[1] for part in data if isinstance(part, tuple) and len(part) == 2), None)
            if not isinstance(raw, bytes):
                continue
            yield Item(f"imap {self.cfg.user}@{self.cfg.host} {self.cfg.folder} uid {uid.decode()}", raw,
                       self._marker(uid) if self.writable else None, from_mailbox=True)

    def _marker(self, uid: bytes) -> Any:
        def mark() -> None:
            self._call("STORE", uid, "+FLAGS.SILENT", "(\\Seen)")
        return mark


def _quote(folder: str) -> str:
    if folder.isalnum():
        return folder
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _size(data: list[Any]) -> int | None:
    import re

    for d in data:
        text = d if isinstance(d, bytes) else (d[0] if isinstance(d, tuple) else b"")
        got = re.search(rb"RFC822\.SIZE (\d+)", text or b"")
        if got:
            return int(got.group(1))
    return None


def _text(data: Any) -> str:
    parts = [d.decode("utf-8", "replace") if isinstance(d, bytes) else str(d) for d in (data or [])]
    return " ".join(" ".join(parts).split()) or "no reason given"


def _reason(exc: BaseException) -> str:
    import ssl

    if isinstance(exc, ssl.SSLCertVerificationError):
        return f"TLS certificate not trusted ({exc.verify_message})"
    if isinstance(exc, TimeoutError):
        return "timed out"
    if isinstance(exc, OSError) and exc.strerror:
        return " ".join(exc.strerror.split())
    text = exc.args[0] if exc.args else str(exc)
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return " ".join(str(text).split()) or type(exc).__name__
