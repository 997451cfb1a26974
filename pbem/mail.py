"""Email bundles: one exchange travels as one email.

A player's turn ends with a game file (TOML) and a turn log.  :func:`compose_eml`
wraps them as a standard MIME message: the turn log is the readable body and
the game file rides along as an attachment, so any mail client can send it.
:func:`extract_game` does the reverse for the receiver: given whatever the
player saved (the whole ``.eml`` or just the attachment) it hands back the game
file.  :func:`send` delivers a composed message through the player's own SMTP
server, configured in a small TOML file (:func:`load_smtp_config`).

Mail clients re-encode attachments (base64, quoted-printable) and convert line
endings; none of that matters, because signatures cover the canonical form of
the game, never the raw TOML text.

Only the standard library is used here, so this module stays importable by any
tool that just wants to unpack a game from a mailbox.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from email import policy as _policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import Any

from pbem.errors import InvalidFile, PbemError, UsageError

#: Header naming the game an email belongs to, so mail filters can sort games.
GAME_HEADER = "X-Pbem-Game"

#: Name given to a bare game file whose real name the caller did not supply.
DEFAULT_GAME_NAME = "game.toml"

# Headers any real email carries at least one of; a file with none of them is
# not a saved email but (presumably) a bare game file.
_EMAIL_HEADERS = ("from", "mime-version", "content-type")

_GAME_TABLE = re.compile(rb"^[ \t]*\[game\][ \t]*(#.*)?\r?$", re.MULTILINE)


# --------------------------------------------------------------------------
# composing
# --------------------------------------------------------------------------

def address(name: str, email: str) -> str:
    """``Anna Petrova <anna@example.org>``: the display name travels with
    the address (RFC 5322 quoting where the name needs it)."""
    from email.utils import formataddr

    return formataddr((name, email)) if name else email


def bare_address(text: str) -> str:
    """The address alone, for the SMTP envelope."""
    from email.utils import parseaddr

    return parseaddr(text)[1] or text


def compose_eml(
    game_file: Path,
    log_text: str,
    *,
    sender: str,
    recipient: str,
    subject: str,
    game_id: str | None = None,
    thread: tuple[str, str | None, str | None] | None = None,
    picture: tuple[bytes, str, str] | None = None,
) -> bytes:
    """Build the email for one exchange and return it as RFC 5322 bytes.

    The body is the turn log (``text/plain``, UTF-8); with ``picture``
    (PNG bytes, file name, alternative text) it is followed by an HTML
    alternative showing the map picture inline (:func:`_add_picture`).
    The game file is attached as ``application/toml`` under its own file name, base64-encoded
    so that no mail relay can alter a byte of it.  Lines end in CRLF, as on
    the wire, so the result can be saved as an ``.eml`` or handed to
    :func:`send` unchanged.
    """
    game_file = Path(game_file)
    try:
        attachment = game_file.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read game file {game_file}: {_reason(exc)}") from None

    msg = EmailMessage(policy=_policy.SMTP)
    try:
        msg["From"] = sender
        msg["To"] = recipient
        msg["Subject"] = subject
        if game_id is not None:
            msg[GAME_HEADER] = game_id
    except ValueError as exc:  # a header value with a line break in it
        raise UsageError(f"bad mail header: {_one_line(str(exc))}") from None
    msg["Date"] = formatdate(localtime=True)
    # ``thread``: (Message-ID, In-Reply-To, References), stable per exchange (pbem.conversation).
    msg["Message-ID"] = thread[0] if thread else make_msgid(domain="pbem.invalid")
    for name, value in zip(("In-Reply-To", "References"), (thread or ("", None, None))[1:]):
        if value:
            msg[name] = value

    # Non-ASCII logs (unit names, player names) go quoted-printable rather
    # than raw 8-bit, which some relays still refuse.
    body_cte = None if log_text.isascii() else "quoted-printable"
    msg.set_content(log_text, charset="utf-8", cte=body_cte)
    if picture is not None:
        _add_picture(msg, log_text, *picture)
    msg.add_attachment(
        attachment, maintype="application", subtype="toml", filename=game_file.name
    )
    for part in msg.iter_attachments():
        del part["MIME-Version"]  # belongs on the message only (RFC 2045 s. 4)
    return msg.as_bytes()


def _add_picture(msg: EmailMessage, log_text: str, png: bytes, name: str, alt: str) -> None:
    """Make the body multipart/alternative: the turn log as text/plain
    first (text-only readers show it), then an HTML part, multipart/related
    with the map picture (``png``, named ``name``) shown inline by its
    Content-ID above the same log."""
    from html import escape

    cid = make_msgid(domain="pbem.invalid")
    html = (f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{escape(alt)}</title></head><body>\n'
            f'<p><img src="cid:{escape(cid[1:-1])}" alt="{escape(alt)}" style="max-width:100%"></p>\n'
            f'<pre style="font-family:monospace">{escape(log_text)}</pre>\n</body></html>\n')
    msg.add_alternative(html, subtype="html", charset="utf-8", cte="quoted-printable")
    html_part = list(msg.iter_parts())[1]      # the parts just made: text/plain, text/html
    html_part.add_related(png, maintype="image", subtype="png", cid=cid, filename=name, disposition="inline")
    for part in html_part.walk():
        del part["MIME-Version"]  # belongs on the message only (RFC 2045 s. 4)


# --------------------------------------------------------------------------
# extracting
# --------------------------------------------------------------------------

def extract_game(data: bytes, *, bare_name: str = DEFAULT_GAME_NAME) -> tuple[str, bytes]:
    """Return ``(file name, TOML bytes)`` of the game file in ``data``.

    ``data`` is either a saved email (with CRLF or LF line endings, the game
    attached in any transfer encoding and under any content type, as long as
    its name ends in ``.toml``) or the bare game file itself, which is
    returned unchanged under ``bare_name``.

    Raises :class:`~pbem.errors.InvalidFile` when an email carries no game
    file, or several that cannot be told apart.
    """
    from pbem.protocol.gamefile import looks_bare

    if looks_bare(data):
        return bare_name, data
    msg = BytesParser(policy=_policy.default).parsebytes(data)
    if not any(key.lower() in _EMAIL_HEADERS for key in msg.keys()):
        return bare_name, data

    candidates = _toml_attachments(msg)
    if not candidates:
        raise InvalidFile("no pbem game file attached to this email")
    if len(candidates) == 1:
        return candidates[0]
    games = _distinct([c for c in candidates if _GAME_TABLE.search(c[1])])
    if len(games) == 1:
        return games[0]
    names = ", ".join(name for name, _ in (games or candidates))
    raise InvalidFile(
        f"several game files attached to this email ({names}); save the right one and use it directly"
    )


def _toml_attachments(msg: Message) -> list[tuple[str, bytes]]:
    """Every leaf part named ``*.toml`` (or typed TOML), decoded to bytes.

    ``walk`` also descends into forwarded messages, so a game forwarded
    as an attachment is still found.
    """
    found: list[tuple[str, bytes]] = []
    for part in msg.walk():
        if part.is_multipart():
            continue
        name = part.get_filename() or ""
        is_toml = name.lower().endswith(".toml") or part.get_content_type() in (
            "application/toml",
            "text/toml",
            "text/x-toml",
        )
        if not is_toml:
            continue
        payload = part.get_payload(decode=True)
        if isinstance(payload, bytes):
            found.append((_safe_name(name), payload))
    return found


def _safe_name(name: str) -> str:
    """The attachment's base name, never a path: a sender must not be able to
    steer where the receiver's program writes (``../../.bashrc``)."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1].strip()
    if base.startswith(".") or not base.lower().endswith(".toml"):
        return DEFAULT_GAME_NAME
    return base


def _distinct(items: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """Drop attachments whose bytes repeat an earlier one (a mail client that
    attached the same file twice is not an ambiguity)."""
    seen: set[bytes] = set()
    out = []
    for name, body in items:
        if body not in seen:
            seen.add(body)
            out.append((name, body))
    return out


# --------------------------------------------------------------------------
# SMTP
# --------------------------------------------------------------------------

@dataclass(kw_only=True)
class SmtpConfig:
    """How to reach the player's outgoing mail server.

    ``ssl`` opens an implicit-TLS connection (usually port 465); ``starttls``
    upgrades a plain connection (usually port 587).  With a ``username``
    the password is ``password`` when a caller gives one, else it comes
    from ``secret`` when sending (:mod:`pbem.credentials`: a command, the
    keyring or a prompt; never a config file).
    """

    host: str
    port: int
    username: str | None = None
    password: str | None = None
    starttls: bool = False
    ssl: bool = False
    sender: str
    secret: Any = None


def load_smtp_config(path: Path) -> SmtpConfig:
    """Read the ``[smtp]`` table of a TOML config file.

    Example::

        [smtp]
        host = "mail.example.org"
        port = 587
        starttls = true
        username = "anna"
        password_command = "pass show mail/anna"   # or the keyring, or a prompt
        sender = "Anna <anna@example.org>"

    Raises :class:`~pbem.errors.UsageError` naming the first problem.
    """
    from pbem.fsutil import load_config_table

    path = Path(path)
    table = load_config_table(path, "smtp", "SMTP config file")

    def field(name: str, kind: type, required: bool, default: Any = None) -> Any:
        if name not in table:
            if required:
                raise UsageError(f"SMTP config {path}: [smtp] lacks {name}")
            return default
        value = table[name]
        # bool is an int in Python; a port of `true` is still a mistake.
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise UsageError(f"SMTP config {path}: smtp.{name} must be {kind.__name__}")
        return value

    config = SmtpConfig(
        host=field("host", str, True),
        port=field("port", int, True),
        username=field("username", str, False),
        password=None,
        starttls=field("starttls", bool, False, False),
        ssl=field("ssl", bool, False, False),
        sender=field("sender", str, True),
    )
    if not 0 < config.port < 65536:
        raise UsageError(f"SMTP config {path}: smtp.port {config.port} is out of range")
    if config.ssl and config.starttls:
        raise UsageError(f"SMTP config {path}: choose ssl or starttls, not both")
    if config.username is not None:
        from pbem import credentials

        config.secret = credentials.from_table(table, kind="smtp", host=config.host, user=config.username,
                                               where=f"SMTP config {path}")
    elif "password" in table or "password_command" in table:
        raise UsageError(f"SMTP config {path}: a password setting needs smtp.username")
    return config


def send(config: SmtpConfig, eml: bytes, recipients: list[str], timeout: float = 30) -> None:
    """Hand ``eml`` to the SMTP server for delivery to ``recipients``.

    Every network, TLS or server refusal becomes one
    :class:`~pbem.errors.PbemError` line naming the server.
    """
    import smtplib      # only when sending: composing a mail needs neither it nor ssl

    if not recipients:
        raise UsageError("no recipient to send the mail to")
    where = f"{config.host}:{config.port}"
    # SMTP wants CRLF; a hand-saved .eml may have lost it.
    wire = re.sub(rb"\r?\n", b"\r\n", eml)
    if config.username is not None and config.password is None and config.secret is not None:
        from dataclasses import replace

        config = replace(config, password=config.secret.get())     # asked for now, kept nowhere
    try:
        refused = _deliver(config, wire, recipients, timeout)
    except (OSError, smtplib.SMTPException) as exc:
        raise PbemError(f"could not send mail via {where}: {_reason(exc)}") from None
    except UnicodeEncodeError:
        # smtplib speaks ASCII commands unless the server offers SMTPUTF8.
        raise PbemError(
            f"could not send mail via {where}: an address is not plain ASCII"
        ) from None
    if refused:
        who = ", ".join(f"{addr} ({_reason_code(*resp)})" for addr, resp in refused.items())
        raise PbemError(f"mail sent via {where}, but the server refused: {who}")


def _deliver(
    config: SmtpConfig, wire: bytes, recipients: list[str], timeout: float
) -> dict[str, tuple[int, bytes]]:
    """One SMTP session; returns the recipients the server refused."""
    import smtplib
    import ssl as _ssl

    context = _ssl.create_default_context()
    smtp: smtplib.SMTP
    if config.ssl:
        smtp = smtplib.SMTP_SSL(config.host, config.port, timeout=timeout, context=context)
    else:
        smtp = smtplib.SMTP(config.host, config.port, timeout=timeout)
    with smtp:
        if config.starttls and not config.ssl:
            smtp.starttls(context=context)
        if config.username is not None and config.password is not None:
            smtp.login(config.username, config.password)
        return smtp.sendmail(config.sender, recipients, wire)


# --------------------------------------------------------------------------
# one-line reasons
# --------------------------------------------------------------------------

def _reason(exc: BaseException) -> str:
    """A short, single-line explanation of a network or SMTP failure."""
    import smtplib

    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return "every recipient refused: " + ", ".join(
            f"{addr} ({_reason_code(*resp)})" for addr, resp in exc.recipients.items()
        )
    if isinstance(exc, smtplib.SMTPSenderRefused):
        return f"sender {exc.sender} refused ({_reason_code(exc.smtp_code, exc.smtp_error)})"
    if isinstance(exc, smtplib.SMTPResponseException):
        return _reason_code(exc.smtp_code, exc.smtp_error)
    if isinstance(exc, TimeoutError):
        return "timed out"
    if isinstance(exc, OSError) and exc.strerror:
        return _one_line(exc.strerror)
    return _one_line(str(exc)) or type(exc).__name__


def _reason_code(code: int, text: bytes | str) -> str:
    """``550 mailbox unavailable`` from an SMTP reply code and text."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    return _one_line(f"{code} {text}")


def _one_line(text: str) -> str:
    """Collapse runs of whitespace (including line breaks) to one space."""
    return " ".join(text.split())
