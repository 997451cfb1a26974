"""Contacts: an opponent's identity kept by name, its fingerprint shown and
confirmed at first sight, a changed key refused with both fingerprints
until accepted."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from clihelp import Player, make_players


def second_key(tmp_path: Path, p: Player) -> Player:
    """The same person (name and email) with a new key, in another home."""
    other = Player(p.name, p.side, tmp_path / f"{p.name.lower()}-new", p.scenarios)
    other.out.mkdir(parents=True)
    other.run("keygen", "--name", p.name, "--email", f"{p.name.lower()}@example.org", "--no-passphrase",
              "--out", str(other.root))
    return other


def test_contacts_add_name_in_new_and_a_changed_key(tmp_path: Path) -> None:
    anna, pavel = make_players(tmp_path)
    card = pavel.root / "pavel.id.toml"
    r = anna.run("contacts", "add", str(card), input="n\n", ok=False)
    assert "fingerprint" in r.stdout and "not kept; nothing written" in r.stderr
    assert not (anna.home / "contacts" / "pavel.id.toml").exists()
    r = anna.run("contacts", "add", str(card), input="y\n")
    fp = re.search(r"fingerprint ((?:[0-9A-F]{4} ?){5})", r.stdout).group(1).strip()
    assert f"Contact pavel: Pavel <pavel@example.org>, fingerprint {fp}" in r.stdout
    assert "(already kept)" in anna.run("contacts", "add", str(card), "--yes").stdout
    assert f"pavel            Pavel <pavel@example.org>  {fp}" in anna.run("contacts", "list").stdout

    r = anna.run("new", "duel/short", "--seat", "red=me", "--seat", "blue=pavel", "--out", str(anna.out))
    assert "Pavel <pavel@example.org> (blue)" in r.stdout and "First use" not in r.stdout
    r = anna.run("new", "duel/short", "--seat", "red=me", "--seat", "blue=olga", "--out", str(anna.out), ok=False)
    assert "no contact 'olga'" in r.stderr

    # Pavel's key changes: refused everywhere with both fingerprints.
    new = second_key(tmp_path, pavel)
    new_card = new.root / "pavel.id.toml"
    new_fp = re.search(r"fingerprint = \"([^\"]+)\"", new_card.read_text()).group(1)
    before = sorted(p.name for p in anna.out.iterdir())
    for args in (["contacts", "add", str(new_card), "--yes"],
                 ["new", "duel/short", "--seat", "red=me", "--seat", f"blue={new_card}", "--out", str(anna.out)]):
        r = anna.run(*args, ok=False)
        assert f"pavel's key changed: you keep {fp}, " in r.stderr and new_fp in r.stderr
        assert "pbem contacts accept pavel FILE" in r.stderr
    assert sorted(p.name for p in anna.out.iterdir()) == before
    # An invitation from the new key is refused at join too (Pavel is Olga's... here Anna's contact).
    r = new.run("new", "duel/short", "--seat", "red=me", "--seat", f"blue={anna.root / 'anna.id.toml'}",
                "--out", str(new.out))
    created = Path(re.search(r"created: (\S+)", r.stdout).group(1))
    r = anna.run("join", str(created), "--yes", "--out", str(anna.out), ok=False)
    assert "pavel's key changed" in r.stderr

    # Accepted after checking: the old key kept aside, the new one used.
    r = anna.run("contacts", "accept", "pavel", str(new_card), input="y\n")
    assert f"kept key {fp}, new key {new_fp}" in r.stdout
    assert len(list((anna.home / "contacts" / "replaced").iterdir())) == 1
    anna.run("join", str(created), "--yes", "--out", str(anna.out))
    r = anna.run("contacts", "accept", "pavel", str(new_card), "--yes", ok=False)
    assert "nothing to accept" in r.stderr
    shutil.copy(card, tmp_path / "old.id.toml")
    r = anna.run("contacts", "add", str(tmp_path / "old.id.toml"), "--yes", ok=False)
    assert "pavel's key changed" in r.stderr
