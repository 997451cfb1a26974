"""Email bundles: compose, extract from what mail clients save, send by SMTP.

The SMTP tests run a real server (aiosmtpd) on the loopback interface only.
"""
from __future__ import annotations

import base64
import email
import socket
from collections.abc import Iterator
from email import policy
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, Envelope

import imapserver
from pbem.errors import InvalidFile, PbemError, UsageError
from pbem.mail import (
    SmtpConfig,
    compose_eml,
    extract_game,
    load_smtp_config,
    send,
)

GAME_TOML = (
    '# pbem game file\n'
    '[game]\n'
    'id = "avd-anna-pavel"\n'
    'scenario = "avd/practice"\n'
    'sides = ["german", "soviet"]\n'
    'note = "Pz. Gr. 2 — Guderian"\n'
).encode("utf-8")

ORDERS_TOML = b'[orders]\nmove = ["7Pz 3919 4019 4020"]\n'

LOG = "Exchange 14, German activation\nmove 7Pz 3919 4019 4020 (10 of 10 MP)\nattack 4121 at 3-1\n"


@pytest.fixture
def game_file(tmp_path: Path) -> Path:
    path = tmp_path / "avd-anna-pavel.toml"
    path.write_bytes(GAME_TOML)
    return path


def _compose(game_file: Path, **kw: object) -> bytes:
    args: dict[str, object] = dict(
        sender="Anna <anna@example.org>",
        recipient="pavel@example.ca",
        subject="pbem: avd-anna-pavel exchange 14",
    )
    args.update(kw)
    return compose_eml(game_file, LOG, **args)  # type: ignore[arg-type]


def _text(body: str) -> str:
    """A mail body as text with LF line ends (CRLF is the wire's business)."""
    return body.replace("\r\n", "\n")


def _eml(parts: list[str], *, crlf: bool = False) -> bytes:
    """A hand-written multipart email, the way another mail client saves one."""
    head = (
        "From: Pavel <pavel@example.ca>\n"
        "To: anna@example.org\n"
        "Subject: Re: pbem\n"
        "MIME-Version: 1.0\n"
        'Content-Type: multipart/mixed; boundary="XYZ"\n'
        "\n"
        "--XYZ\n"
        "Content-Type: text/plain; charset=utf-8\n"
        "\n"
        "Your move.\n"
    )
    text = head + "".join(f"--XYZ\n{p}" for p in parts) + "--XYZ--\n"
    if crlf:
        text = text.replace("\n", "\r\n")
    return text.encode("ascii")


def _b64_part(name: str, body: bytes, ctype: str = "application/octet-stream") -> str:
    encoded = base64.encodebytes(body).decode("ascii")
    return (
        f'Content-Type: {ctype}; name="{name}"\n'
        "Content-Transfer-Encoding: base64\n"
        f'Content-Disposition: attachment; filename="{name}"\n'
        "\n"
        f"{encoded}"
    )


# --------------------------------------------------------------------------
# compose / extract
# --------------------------------------------------------------------------

def test_compose_then_extract_round_trip(game_file: Path) -> None:
    eml = _compose(game_file, game_id="avd-anna-pavel")
    msg = email.message_from_bytes(eml, policy=policy.default)

    assert msg["X-Pbem-Game"] == "avd-anna-pavel"
    assert msg["To"] == "pavel@example.ca"
    assert _text(msg.get_body(("plain",)).get_content()) == LOG
    (attachment,) = list(msg.iter_attachments())
    assert attachment.get_content_type() == "application/toml"
    assert extract_game(eml) == ("avd-anna-pavel.toml", GAME_TOML)


def test_compose_ends_lines_in_crlf_and_omits_game_header_by_default(game_file: Path) -> None:
    eml = _compose(game_file)
    assert b"\r\n" in eml
    assert b"\n" not in eml.replace(b"\r\n", b"")
    assert b"X-Pbem-Game" not in eml


def test_compose_keeps_a_non_ascii_log_readable(game_file: Path) -> None:
    log = "Pz. Gr. 2 (Guderian) crosses the Dnepr → 4020\n"
    eml = compose_eml(game_file, log, sender="a@example.org", recipient="b@example.org", subject="x")
    msg = email.message_from_bytes(eml, policy=policy.default)
    assert _text(msg.get_body(("plain",)).get_content()) == log
    assert eml.isascii()  # 7-bit clean: no relay may reject or mangle it


def test_compose_refuses_a_header_with_a_line_break(game_file: Path) -> None:
    with pytest.raises(UsageError):
        _compose(game_file, subject="hi\r\nBcc: someone@example.org")


def test_extract_from_crlf_converted_eml(game_file: Path) -> None:
    eml = _compose(game_file).replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    assert extract_game(eml) == ("avd-anna-pavel.toml", GAME_TOML)
    lf_only = _compose(game_file).replace(b"\r\n", b"\n")
    assert extract_game(lf_only) == ("avd-anna-pavel.toml", GAME_TOML)


@pytest.mark.parametrize("crlf", [False, True])
def test_extract_base64_attachment_typed_octet_stream(crlf: bool) -> None:
    eml = _eml([_b64_part("avd.toml", GAME_TOML)], crlf=crlf)
    assert extract_game(eml) == ("avd.toml", GAME_TOML)


def test_extract_quoted_printable_attachment_typed_text_plain() -> None:
    # Written by hand: '=' is =3D, the em dash is UTF-8 in =XX escapes and the
    # long line is folded with a soft break, as a mail client would do it.
    qp_body = (
        "# pbem game file\n"
        "[game]\n"
        'id =3D "avd-anna-pavel"\n'
        'scenario =3D "avd/practice"\n'
        'sides =3D ["german", =\n'
        '"soviet"]\n'
        'note =3D "Pz. Gr. 2 =E2=80=94 Guderian"\n'
        "\n"  # the line break before a boundary belongs to the boundary
    )
    part = (
        'Content-Type: text/plain; charset=utf-8; name="avd-anna-pavel.toml"\n'
        "Content-Transfer-Encoding: quoted-printable\n"
        'Content-Disposition: attachment; filename="avd-anna-pavel.toml"\n'
        "\n" + qp_body
    )
    assert extract_game(_eml([part])) == ("avd-anna-pavel.toml", GAME_TOML)
    name, body = extract_game(_eml([part], crlf=True))
    assert name == "avd-anna-pavel.toml"
    assert body.replace(b"\r\n", b"\n") == GAME_TOML


@pytest.mark.parametrize(
    "bare",
    [
        GAME_TOML,
        GAME_TOML.replace(b"\n", b"\r\n"),
        GAME_TOML.split(b"\n", 1)[1],  # starts with [game]
        b'format = 1\n[game]\nid = "x"\n',  # starts with a key, not a table
        b"\xef\xbb\xbf" + GAME_TOML,  # with a byte-order mark
    ],
)
def test_extract_bare_toml_file_is_returned_unchanged(bare: bytes) -> None:
    assert extract_game(bare, bare_name="saved.toml") == ("saved.toml", bare)


def test_extract_email_without_game_file_is_refused() -> None:
    part = 'Content-Type: image/png; name="map.png"\nContent-Transfer-Encoding: base64\n\niVBORw0K\n'
    with pytest.raises(InvalidFile, match="^no pbem game file attached to this email$"):
        extract_game(_eml([part]))
    plain = b"From: pavel@example.ca\nSubject: sorry\n\nforgot the file\n"
    with pytest.raises(InvalidFile, match="no pbem game file"):
        extract_game(plain)


def test_extract_picks_the_game_among_several_toml_attachments() -> None:
    eml = _eml([_b64_part("orders.toml", ORDERS_TOML), _b64_part("avd.toml", GAME_TOML)])
    assert extract_game(eml) == ("avd.toml", GAME_TOML)


def test_extract_refuses_two_different_game_files() -> None:
    other = GAME_TOML.replace(b"avd-anna-pavel", b"avd-other")
    eml = _eml([_b64_part("a.toml", GAME_TOML), _b64_part("b.toml", other)])
    with pytest.raises(InvalidFile, match=r"several game files .*a\.toml, b\.toml") as info:
        extract_game(eml)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("sent_as", "saved_as"),
    [
        ("../../avd.toml", "avd.toml"),
        (r"..\\..\\avd.toml", "avd.toml"),  # quoted header: each backslash escaped
        (".toml", "game.toml"),
    ],
)
def test_extract_keeps_only_the_base_name_of_an_attachment(sent_as: str, saved_as: str) -> None:
    assert extract_game(_eml([_b64_part(sent_as, GAME_TOML)])) == (saved_as, GAME_TOML)


def test_extract_finds_game_in_a_forwarded_email(game_file: Path) -> None:
    inner = _compose(game_file).decode("ascii").replace("\r\n", "\n")
    part = "Content-Type: message/rfc822\n\n" + inner
    assert extract_game(_eml([part])) == ("avd-anna-pavel.toml", GAME_TOML)


# --------------------------------------------------------------------------
# SMTP configuration
# --------------------------------------------------------------------------

def test_load_smtp_config_reads_the_smtp_table(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        '[smtp]\nhost = "mail.example.org"\nport = 587\nstarttls = true\n'
        'username = "anna"\npassword_command = "echo s3cret"\nsender = "Anna <anna@example.org>"\n'
    )
    config = load_smtp_config(path)
    assert (config.host, config.port, config.username, config.password, config.starttls, config.ssl, config.sender) == (
        "mail.example.org", 587, "anna", None, True, False, "Anna <anna@example.org>")
    assert config.secret.get() == "s3cret"      # run when needed, never kept in the file (tests/test_credentials.py)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (None, "not found"),
        ("[smtp\n", "not valid TOML"),
        ('[mail]\nhost = "h"\n', "no \\[smtp\\] table"),
        ('[smtp]\nhost = "h"\nport = 25\n', "lacks sender"),
        ('[smtp]\nport = 25\nsender = "a@b"\n', "lacks host"),
        ('[smtp]\nhost = "h"\nport = "25"\nsender = "a@b"\n', "smtp.port must be int"),
        ('[smtp]\nhost = "h"\nport = 25\nsender = "a@b"\nssl = true\nstarttls = true\n', "not both"),
        ('[smtp]\nhost = "h"\nport = 25\nsender = "a@b"\nusername = "u"\npassword = "p"\n', "plain password is not kept"),
        ('[smtp]\nhost = "h"\nport = 25\nsender = "a@b"\npassword_command = "echo p"\n', "needs smtp.username"),
    ],
)
def test_load_smtp_config_errors_are_one_line(tmp_path: Path, text: str | None, message: str) -> None:
    path = tmp_path / "config.toml"
    if text is not None:
        path.write_text(text)
    with pytest.raises(UsageError, match=message) as info:
        load_smtp_config(path)
    assert "\n" not in str(info.value)


# --------------------------------------------------------------------------
# SMTP delivery against a real local server
# --------------------------------------------------------------------------

class _Collector:
    """aiosmtpd handler that keeps every envelope it receives."""

    def __init__(self) -> None:
        self.envelopes: list[Envelope] = []

    async def handle_DATA(self, server: object, session: object, envelope: Envelope) -> str:
        self.envelopes.append(envelope)
        return "250 Message accepted for delivery"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _check_password(server: object, session: object, envelope: object, mechanism: str, auth_data: object) -> AuthResult:
    ok = getattr(auth_data, "login", None) == b"anna" and getattr(auth_data, "password", None) == b"s3cret"
    return AuthResult(success=ok, handled=False)


@pytest.fixture
def smtp_server() -> Iterator[tuple[Controller, _Collector]]:
    handler = _Collector()
    controller = imapserver.start_smtp(handler, authenticator=_check_password, auth_require_tls=False)
    try:
        yield controller, handler
    finally:
        controller.stop()


def _config(controller: Controller, **kw: object) -> SmtpConfig:
    return SmtpConfig(host="127.0.0.1", port=controller.port, sender="anna@example.org", **kw)  # type: ignore[arg-type]


def test_send_delivers_the_game_to_the_recipient(
    smtp_server: tuple[Controller, _Collector], game_file: Path
) -> None:
    controller, handler = smtp_server
    eml = _compose(game_file, game_id="avd-anna-pavel")

    send(_config(controller), eml, ["pavel@example.ca"], timeout=5)

    (envelope,) = handler.envelopes
    assert envelope.rcpt_tos == ["pavel@example.ca"]
    assert envelope.mail_from == "anna@example.org"
    assert extract_game(envelope.original_content) == ("avd-anna-pavel.toml", GAME_TOML)


def test_send_logs_in_and_accepts_an_lf_only_eml(
    smtp_server: tuple[Controller, _Collector], game_file: Path
) -> None:
    controller, handler = smtp_server
    eml = _compose(game_file).replace(b"\r\n", b"\n")

    send(_config(controller, username="anna", password="s3cret"), eml, ["pavel@example.ca"], timeout=5)

    (envelope,) = handler.envelopes
    assert extract_game(envelope.original_content)[1] == GAME_TOML


def test_send_with_a_wrong_password_is_one_line(
    smtp_server: tuple[Controller, _Collector], game_file: Path
) -> None:
    controller, handler = smtp_server
    config = _config(controller, username="anna", password="wrong")
    with pytest.raises(PbemError, match=rf"^could not send mail via 127\.0\.0\.1:{controller.port}: 535 ") as info:
        send(config, _compose(game_file), ["pavel@example.ca"], timeout=5)
    assert "\n" not in str(info.value)
    assert handler.envelopes == []


def test_send_to_a_closed_port_is_one_line(game_file: Path) -> None:
    port = _free_port()  # bound then released: nothing listens there now
    config = SmtpConfig(host="127.0.0.1", port=port, sender="anna@example.org")
    with pytest.raises(PbemError, match=rf"^could not send mail via 127\.0\.0\.1:{port}: \S") as info:
        send(config, _compose(game_file), ["pavel@example.ca"], timeout=5)
    assert "\n" not in str(info.value)


def test_send_needs_a_recipient(game_file: Path) -> None:
    config = SmtpConfig(host="127.0.0.1", port=25, sender="anna@example.org")
    with pytest.raises(UsageError):
        send(config, _compose(game_file), [], timeout=5)
