"""Two players, two homes, one game turn played only through the mail.

Anna and Pavel each run ``pbem`` in a subprocess with their own
``PBEM_HOME``.  Nothing passes between them but email: ``pbem mail GAME
--send`` hands each exchange to a real SMTP server on the loopback
interface (aiosmtpd), which delivers it into the recipient's Maildir; a
real IMAP server (dovecot, over TLS) serves that Maildir, and ``pbem
fetch`` collects from it.  No game file path is typed: the game is named
by contact (``--seat blue=pavel``), by id (``join``/``mail``), or not at
all (``play`` plays the one game waiting).  The passwords come from a
``password_command`` (Anna: SMTP and IMAP) and from the keyring (Pavel's
IMAP password, put there by ``pbem password set imap``).
"""
from __future__ import annotations

import email
import json
import re
import socket
from email import policy
from pathlib import Path
from typing import Iterator

import pytest

import imapserver
from clihelp import Player, make_players

pytestmark = pytest.mark.skipif(imapserver.DOVECOT is None, reason=imapserver.SKIP_REASON)

USERS = {"anna": "anna-imap-pw", "pavel": "pavel-imap-pw"}

# One game turn of the duel (tests/duelgame.py), sealed dice: both picks,
# the attack (its roll waits for blue's reveal), the defence, both reveals.
TURN: list[tuple[str, list[str]]] = [
    ("red", ["pick 3"]),            # 3
    ("blue", ["pick 1"]),           # 4
    ("red", ["attack"]),            # 5  waits for blue's dice
    ("blue", ["defend block"]),     # 6  the roll is made here
    ("red", []),                    # 7  red's program reveals its pick
    ("blue", []),                   # 8  blue reveals; round 1 resolved
]


@pytest.fixture
def imap(tmp_path: Path) -> Iterator[imapserver.ImapServer]:
    server = imapserver.start(USERS)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def smtp_to_maildir(imap: imapserver.ImapServer) -> Iterator[tuple[int, list[bytes]]]:
    """An SMTP server that delivers each message into the Maildir of the
    IMAP user its recipient names (pavel@example.org -> pavel), as an MTA
    with a local delivery agent does; it asks Anna for her password."""
    from aiosmtpd.smtp import AuthResult

    delivered: list[bytes] = []

    class Deliver:
        async def handle_DATA(self, server, session, envelope):  # noqa: ANN001
            content = envelope.original_content or envelope.content
            for rcpt in envelope.rcpt_tos:
                imap.deliver(rcpt.split("@")[0], content)
            delivered.append(content)
            return "250 OK delivered"

    def check(server, session, envelope, mechanism, auth_data):  # noqa: ANN001
        ok = (getattr(auth_data, "login", None), getattr(auth_data, "password", None)) in (
            (b"anna", b"anna-smtp-pw"),)
        return AuthResult(success=ok, handled=False)

    ctl = imapserver.start_smtp(Deliver(), authenticator=check, auth_require_tls=False)
    port = ctl.port
    try:
        yield port, delivered
    finally:
        ctl.stop()


def configure(p: Player, imap: imapserver.ImapServer, smtp_port: int) -> None:
    user = p.name.lower()
    secret = p.root / "imap-secret"
    if user == "anna":
        secret.write_text(USERS["anna"] + "\n")
        (p.root / "smtp-secret").write_text("anna-smtp-pw\n")
        smtp_auth = f'username = "anna"\npassword_command = "cat {p.root / "smtp-secret"}"\n'
        imap_auth = f'password_command = ["cat", "{secret}"]\n'
    else:
        smtp_auth = ""
        imap_auth = ""          # the keyring
    (p.home / "smtp.toml").write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {smtp_port}\n'
                                      f'sender = "{user}@example.org"\n{smtp_auth}')
    (p.home / "imap.toml").write_text(imap.imap_toml(user, extra=imap_auth))


def test_a_game_turn_only_by_mail_send_and_fetch(tmp_path: Path, imap: imapserver.ImapServer,
                                                 smtp_to_maildir: tuple[int, list[bytes]],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyrings.alt.file.PlaintextKeyring")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "keyring"))
    port, delivered = smtp_to_maildir
    anna, pavel = make_players(tmp_path)
    for p in (anna, pavel):
        configure(p, imap, port)
    r = pavel.run("password", "set", "imap", input=USERS["pavel"] + "\n")
    assert "Stored in the keyring" in r.stdout and "pbem-imap / pavel@127.0.0.1" in r.stdout
    assert USERS["pavel"] not in (pavel.home / "imap.toml").read_text()

    # Anna keeps Pavel as a contact and invites him by that name.
    r = anna.run("contacts", "add", str(pavel.root / "pavel.id.toml"), input="y\n")
    assert re.search(r"Pavel <pavel@example.org>: fingerprint ([0-9A-F]{4} ){4}[0-9A-F]{4}", r.stdout)
    r = anna.run("new", "duel/short", "--seat", "red=me", "--seat", "blue=pavel")
    game = re.search(r"Game (\S+) created", r.stdout).group(1)
    assert "First use" not in r.stdout                    # confirmed when the contact was added
    anna.run("mail", game, "--send")
    r = pavel.run("fetch", "--mark-seen")
    assert f"invitation: {game} exchange 1" in r.stdout and f"pbem join " in r.stdout
    pavel.run("join", game, "--yes")
    pavel.run("mail", game, "--send")

    for n, (side, orders) in enumerate(TURN, start=3):
        sender = anna if side == "red" else pavel
        r = sender.run("fetch", "--mark-seen")
        assert re.search(rf"stored {game} exchange {n - 1} .*your move: `pbem play {game}`", r.stdout), r.stdout
        assert "1 flagged seen" in r.stdout
        listing = json.loads(sender.run("games", "--json").stdout)
        assert [(g["game_id"], g["acts"], g["exchange"]) for g in listing] == [(game, "you", n - 1)]
        r = sender.run("play", "--orders", str(sender.orders(str(n), orders)))
        assert f"Game {game} waits for you" in r.stdout
        r = sender.run("mail", game, "--send")
        assert "Sent to" in r.stdout

    # Round 1 is resolved in both homes, from mail alone.
    r = anna.run("fetch", "--mark-seen")
    assert f"stored {game} exchange 8" in r.stdout
    for p, mine in ((anna, "red"), (pavel, "blue")):
        (entry,) = json.loads(p.run("games", "--json").stdout)
        assert entry["exchange"] == 8 and entry["seat"] == mine and entry["turn"] == "Duel"
        assert entry["acts"] == ("you" if mine == "red" else "them") and entry["phase"] == "pick"
    text = anna.run("games").stdout
    assert f"{game}  duel/short  you: red v Pavel (blue)" in text and "YOUR MOVE" in text

    # One thread: a stable Message-ID per exchange, each replying to the one before.
    mails = [email.message_from_bytes(d, policy=policy.default) for d in delivered]
    assert [m["Message-ID"] for m in mails] == [f"<{game}.{n}@pbem.invalid>" for n in range(1, 9)]
    for n, m in enumerate(mails, start=1):
        assert m["X-Pbem-Game"] == game
        if n > 1:
            assert m["In-Reply-To"] == f"<{game}.{n - 1}@pbem.invalid>"
            assert m["References"].split()[0] == f"<{game}.1@pbem.invalid>"
    assert mails[0]["Subject"] == "[pbem duel] Anna v Pavel, exchange 1: please join, Pavel"
    assert mails[2]["Subject"] == "[pbem duel] Anna v Pavel, exchange 3: your move, Pavel"
    assert mails[0]["From"] == "Anna <anna@example.org>" and mails[0]["To"] == "Pavel <pavel@example.org>"

    # Nothing was deleted from either mailbox: every message is still there, flagged seen.
    for user, count in (("anna", 4), ("pavel", 4)):
        md = imap.maildir(user)
        names = [p.name for sub in ("new", "cur") for p in (md / sub).iterdir()]
        assert len(names) == count, names
    # No game file path was typed: every argument above is a name, an id or an option.
    for p in (anna, pavel):
        typed = [a for run in p.runs for a in run if a.endswith((".toml", ".eml")) and "orders-" not in a]
        assert typed in ([], [str(pavel.root / "pavel.id.toml")]), typed


def test_thread_headers_are_derived_from_game_and_exchange() -> None:
    from pbem import conversation

    assert conversation.thread_headers("avd-3f2a", 1) == ("<avd-3f2a.1@pbem.invalid>", None, None)
    mid, reply, refs = conversation.thread_headers("avd-3f2a", 40)
    assert (mid, reply) == ("<avd-3f2a.40@pbem.invalid>", "<avd-3f2a.39@pbem.invalid>")
    assert refs.split() == ["<avd-3f2a.1@pbem.invalid>"] + [f"<avd-3f2a.{k}@pbem.invalid>" for k in range(31, 40)]
