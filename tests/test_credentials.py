"""Mail passwords from a command, the keyring or a prompt; never a file.

The keyring tests register an in-memory backend in this process (and the
command-line tests choose keyrings.alt's file backend by environment), so
no desktop keyring is touched."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

import keyring
import pytest
from keyring.backend import KeyringBackend

from clihelp import make_players, smtp_server  # noqa: F401  (fixture)
from pbem import credentials
from pbem.errors import PbemError, UsageError
from pbem.mail import compose_eml, load_smtp_config, send


class MemoryKeyring(KeyringBackend):
    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.kept: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.kept.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.kept[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        del self.kept[(service, username)]


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    before = keyring.get_keyring()
    kr = MemoryKeyring()
    keyring.set_keyring(kr)
    try:
        yield kr
    finally:
        keyring.set_keyring(before)


def secret(**table: object) -> credentials.Secret:
    return credentials.from_table(table, kind="smtp", host="mail.example.org", user="anna", where="SMTP config x")


def never(label: str) -> str | None:
    return None


def test_a_command_string_runs_in_the_shell_and_a_list_as_it_is(tmp_path: Path) -> None:
    (tmp_path / "pw").write_text("s3cret word\nsecond line\n")
    assert secret(password_command=f"cat '{tmp_path / 'pw'}'").get(never) == "s3cret word"
    assert secret(password_command=["cat", str(tmp_path / "pw")]).get(never) == "s3cret word"


@pytest.mark.parametrize(("table", "error", "message"), [
    ({"password": "x"}, UsageError, "a plain password is not kept in a file; remove it and use password_command"),
    ({"password_command": ""}, UsageError, "must be a command line or a list"),
    ({"password_command": [1]}, UsageError, "must be a command line or a list"),
    ({"keyring": "yes"}, UsageError, "keyring must be true or false"),
])
def test_bad_settings_are_refused_in_one_line(table: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=re.escape(message)) as info:
        secret(**table)
    assert "\n" not in str(info.value)
    assert "the system keyring" in str(info.value) or "password" not in table


@pytest.mark.parametrize(("command", "message"), [
    ("exit 4", "password_command failed (exit status 4)"),
    ("true", "printed no password"),
    (["/no/such/helper"], "password_command not found: /no/such/helper"),
])
def test_a_failing_command_is_one_line_without_its_output(command: object, message: str) -> None:
    with pytest.raises(PbemError, match=re.escape(message)) as info:
        secret(password_command=command).get(never)
    assert "\n" not in str(info.value)


def test_the_keyring_then_the_prompt(memory_keyring: MemoryKeyring) -> None:
    asked: list[str] = []
    assert secret().get(lambda label: asked.append(label) or "typed") == "typed"
    assert asked == ["SMTP password for anna@mail.example.org"]
    memory_keyring.set_password("pbem-smtp", "anna@mail.example.org", "from-keyring")
    assert secret().get(never) == "from-keyring"
    assert secret(keyring=False).get(lambda label: "typed") == "typed"
    with pytest.raises(UsageError, match="no SMTP password for anna@mail.example.org: set password_command"):
        secret(keyring=False).get(never)


def test_smtp_login_with_a_password_command(tmp_path: Path) -> None:
    """aiosmtpd with authentication: the password comes from the command,
    only when sending."""
    from aiosmtpd.smtp import AuthResult

    got: list[bytes] = []

    class Keep:
        async def handle_DATA(self, server, session, envelope):  # noqa: ANN001
            got.append(envelope.original_content)
            return "250 OK"

    def auth(server, session, envelope, mechanism, data):  # noqa: ANN001
        return AuthResult(success=(data.login, data.password) == (b"anna", b"s3cret"), handled=False)

    import imapserver

    ctl = imapserver.start_smtp(Keep(), authenticator=auth, auth_require_tls=False)
    port = ctl.port
    try:
        marker = tmp_path / "ran"
        cfg_path = tmp_path / "smtp.toml"
        cfg_path.write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nusername = "anna"\n'
                            f'sender = "anna@example.org"\npassword_command = "touch {marker}; echo s3cret"\n')
        cfg = load_smtp_config(cfg_path)
        assert not marker.exists()                   # not run at loading
        game = tmp_path / "g.toml"
        game.write_text("[game]\n")
        eml = compose_eml(game, "log", sender="anna@example.org", recipient="pavel@example.org", subject="s")
        send(cfg, eml, ["pavel@example.org"], timeout=5)
        assert marker.exists() and len(got) == 1
        cfg_path.write_text(cfg_path.read_text().replace("echo s3cret", "echo wrong"))
        with pytest.raises(PbemError, match=r"could not send mail via 127\.0\.0\.1:\d+: 535"):
            send(load_smtp_config(cfg_path), eml, ["pavel@example.org"], timeout=5)
    finally:
        ctl.stop()


def test_password_set_and_forget_through_the_keyring(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyrings.alt.file.PlaintextKeyring")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    anna, _ = make_players(tmp_path)
    r = anna.run("password", "set", "smtp", ok=False)
    assert "SMTP config" in r.stderr and "not found" in r.stderr
    (anna.home / "smtp.toml").write_text('[smtp]\nhost = "mail.example.org"\nport = 587\nusername = "anna"\n'
                                         'sender = "anna@example.org"\n')
    r = anna.run("password", "set", "smtp", input="s3cret\n")
    assert "pbem-smtp / anna@mail.example.org" in r.stdout
    assert "s3cret" not in (anna.home / "smtp.toml").read_text()
    assert "pbem_2Dsmtp" in next((tmp_path / "data").rglob("*.cfg")).read_text()     # the keyring's file, not ours
    assert "Removed" in anna.run("password", "forget", "smtp").stdout
    r = anna.run("password", "forget", "smtp", ok=False)
    assert "holds no pbem-smtp password" in r.stderr
    (anna.home / "smtp.toml").write_text('[smtp]\nhost = "h"\nport = 25\nusername = "anna"\npassword = "p"\n'
                                         'sender = "anna@example.org"\n')
    r = anna.run("password", "set", "smtp", input="x\n", ok=False)
    assert "a plain password is not kept in a file" in r.stderr
