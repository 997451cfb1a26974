"""``pbem fetch`` against a real IMAP server (dovecot on loopback, TLS with
a certificate made for the test): only unseen messages with the pbem
header are read, their flags are left alone unless --mark-seen, nothing is
deleted, and every refusal (a plain password, a wrong one, an untrusted
certificate) is one line."""
from __future__ import annotations

import imaplib
import json
import ssl
from pathlib import Path
from typing import Iterator

import pytest

import imapserver
from clihelp import make_players, start_game

pytestmark = pytest.mark.skipif(imapserver.DOVECOT is None, reason=imapserver.SKIP_REASON)


@pytest.fixture
def imap(tmp_path: Path) -> Iterator[imapserver.ImapServer]:
    server = imapserver.start({"anna": "pw-anna"})
    try:
        yield server
    finally:
        server.stop()


def flags(server: imapserver.ImapServer) -> dict[int, bytes]:
    conn = imaplib.IMAP4_SSL("127.0.0.1", server.port, ssl_context=ssl.create_default_context(cafile=str(server.cert)))
    try:
        conn.login("anna", "pw-anna")
        conn.select("INBOX", readonly=True)
        _, data = conn.uid("FETCH", "1:*", "(FLAGS)")
    finally:
        conn.logout()
    out = {}
    for line in data:
        text = line if isinstance(line, bytes) else line[0]
        uid = int(text.split(b"UID ")[1].split()[0].rstrip(b")"))
        out[uid] = text.split(b"FLAGS (")[1].split(b")")[0]
    return out


def test_fetch_reads_unseen_pbem_mail_and_flags_it_only_when_asked(tmp_path: Path, imap: imapserver.ImapServer) -> None:
    anna, pavel = make_players(tmp_path)
    joined = start_game(anna, pavel, "sealed")
    game = json.loads(pavel.run("games", "--json").stdout)[0]["game_id"]
    pavel.run("mail", str(joined))
    eml = joined.with_suffix(".eml").read_bytes()
    imap.deliver("anna", b"From: bob@example.org\r\nSubject: lunch\r\n\r\nnot a game\r\n")
    imap.deliver("anna", eml)
    (anna.home / "imap.toml").write_text(imap.imap_toml("anna", extra=f'password_command = "echo pw-anna"\n'))

    r = anna.run("fetch")
    assert f"stored {game} exchange 2 (from imap anna@127.0.0.1 INBOX uid 2)" in r.stdout
    assert all(b"\\Seen" not in f for f in flags(imap).values())           # BODY.PEEK, EXAMINE
    r = anna.run("fetch", "--mark-seen")
    assert "0 stored, 1 already held" in r.stdout and "1 flagged seen" in r.stdout
    got = flags(imap)
    assert sorted(got) == [1, 2] and b"\\Seen" in got[2] and b"\\Seen" not in got[1]
    r = anna.run("fetch")                                                   # seen: not searched again
    assert r.stdout.strip() == "fetch: 0 stored"
    assert "1 already held" in anna.run("fetch", "--all").stdout
    assert sorted(flags(imap)) == [1, 2]                                    # nothing deleted
    # `pbem play GAME` plays from the stored file.
    r = anna.run("play", game, "--orders", str(anna.orders("3", ["pick 2"])), "--out", str(anna.out))
    assert "Written" in r.stdout


@pytest.mark.parametrize(("extra", "message"), [
    ('password = "pw-anna"\n', "a plain password is not kept in a file; remove it and use password_command"),
    ('password_command = "echo wrong"\n', "refused the login of anna"),
    ('password_command = "exit 3"\n', "password_command failed (exit status 3)"),
    ('password_command = ["/nonexistent/bin"]\n', "password_command not found"),
])
def test_imap_refusals_are_one_line(tmp_path: Path, imap: imapserver.ImapServer, extra: str, message: str) -> None:
    anna, _ = make_players(tmp_path)
    (anna.home / "imap.toml").write_text(imap.imap_toml("anna", extra=extra))
    r = anna.run("fetch", ok=False)
    assert message in r.stderr
    assert "pw-anna" not in r.stderr


def test_an_untrusted_certificate_is_refused(tmp_path: Path, imap: imapserver.ImapServer) -> None:
    anna, _ = make_players(tmp_path)
    text = imap.imap_toml("anna", extra='password_command = "echo pw-anna"\n')
    (anna.home / "imap.toml").write_text("\n".join(ln for ln in text.splitlines() if not ln.startswith("ca_file")))
    r = anna.run("fetch", ok=False)
    assert f"could not reach IMAP server 127.0.0.1:{imap.port}: TLS certificate not trusted" in r.stderr


def test_starttls_and_a_folder_of_its_own(tmp_path: Path, imap: imapserver.ImapServer) -> None:
    """tls = "starttls" on the plain port; a folder other than INBOX that a
    mail filter sorts pbem mail into."""
    anna, pavel = make_players(tmp_path)
    joined = start_game(anna, pavel, "immediate")
    pavel.run("mail", str(joined))
    conn = imaplib.IMAP4_SSL("127.0.0.1", imap.port, ssl_context=ssl.create_default_context(cafile=str(imap.cert)))
    conn.login("anna", "pw-anna")
    conn.create('"pbem-games"')
    conn.append('"pbem-games"', None, None, joined.with_suffix(".eml").read_bytes())
    conn.logout()
    toml = imap.imap_toml("anna", folder="pbem-games", extra='password_command = "echo pw-anna"\ntls = "starttls"\n')
    (anna.home / "imap.toml").write_text(toml.replace(f"port = {imap.port}", f"port = {imap.starttls_port}"))
    r = anna.run("fetch")
    assert "1 stored" in r.stdout and "pbem-games uid 1" in r.stdout
    r = anna.run("play", "--orders", str(anna.orders("3", ["pick 1"])), "--out", str(anna.out))
    assert "Written" in r.stdout
