"""``pbem fetch`` from a folder, a Maildir and an mbox, through the command
line: what is new is verified and kept as ``play`` keeps it; an old file,
a fork, a tampered file, a game the player does not hold are reported and
written nowhere; a mailbox loses nothing and is flagged only when asked."""
from __future__ import annotations

import json
import mailbox
import re
import shutil
from pathlib import Path

from clihelp import Player, make_players, start_game, stem_of


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and "cache" not in p.parts}


def game_id_of(p: Player, path: Path) -> str:
    r = p.run("verify", str(path))
    assert r.stdout.startswith("valid"), r.stdout
    return json.loads(p.run("games", "--json").stdout)[0]["game_id"] if (p.home / "games").is_dir() else ""


def eml_of(sender: Player, path: Path) -> bytes:
    sender.run("mail", str(path))
    return path.with_suffix(".eml").read_bytes()


def test_fetch_from_a_folder_keeps_the_new_and_reports_the_rest(tmp_path: Path) -> None:
    anna, pavel = make_players(tmp_path)
    joined = start_game(anna, pavel, "sealed")           # Pavel's exchange 2, Anna has not got it
    stem = stem_of(joined)
    game = json.loads(pavel.run("games", "--json").stdout)[0]["game_id"]
    downloads = anna.root / "Downloads"
    downloads.mkdir()
    (downloads / f"{stem}-002.eml").write_bytes(eml_of(pavel, joined))
    shutil.copy(pavel.root / "pavel.id.toml", downloads)                     # not a game file: skipped
    (downloads / "orders.toml").write_text('orders = ["pick 3"]\n')          # neither
    (downloads / "notes.txt").write_text("hello")
    shutil.copy(anna.out / f"{stem}-001.toml", downloads)                    # her own, older

    r = anna.run("fetch", str(downloads))
    assert f"stored {game} exchange 2 (from {downloads / f'{stem}-002.eml'})" in r.stdout
    assert f"your move: `pbem play {game}`" in r.stdout
    assert r.stdout.rstrip().endswith("fetch: 1 stored, 1 already held (-v lists them)")
    assert (anna.home / "games" / game / "0002.toml").is_file()
    (entry,) = json.loads(anna.run("games", "--json").stdout)
    assert (entry["acts"], entry["exchange"], entry["seat"]) == ("you", 2, "red")

    # Again: nothing new; -v names the old file and the one already held.
    r = anna.run("fetch", str(downloads), "-v")
    assert f"old: {game} exchange 1" in r.stdout and "old file: exchange 1, you hold 2" in r.stdout
    assert f"held: {game} exchange 2" in r.stdout
    assert "fetch: 0 stored, 2 already held" in r.stdout

    # `play` with no argument plays the one game waiting; from the stored file.
    r = anna.run("play", "--orders", str(anna.orders("3", ["pick 3"])), "--out", str(anna.out))
    assert f"Game {game} waits for you" in r.stdout and f"Written {anna.out / f'{stem}-003.toml'}" in r.stdout

    # A fork: two different exchange 4s from two copies of Pavel's home.
    (tmp_path / "pavel2").mkdir()
    shutil.copytree(pavel.home, tmp_path / "pavel2" / "home")
    pavel2 = Player("Pavel", "blue", tmp_path / "pavel2", pavel.scenarios)
    (pavel2.out).mkdir()
    third = anna.out / f"{stem}-003.toml"
    pavel.run("play", str(third), "--orders", str(pavel.orders("4", ["pick 1"])), "--out", str(pavel.out))
    pavel2.run("play", str(third), "--orders", str(pavel2.orders("4", ["pick 2"])), "--out", str(pavel2.out))
    inbox = anna.root / "inbox"
    inbox.mkdir()
    # A tampered copy first: one digit of the last exchange's signature changed.
    text = (pavel.out / f"{stem}-004.toml").read_text()
    sig = list(re.finditer(r'sig = "([0-9a-f])', text))[-1]
    flipped = "0" if sig.group(1) != "0" else "1"
    (inbox / "c.toml").write_text(text[: sig.start(1)] + flipped + text[sig.end(1):])
    before = snapshot(anna.home)
    r = anna.run("fetch", str(inbox / "c.toml"))
    assert re.search(rf"invalid: {game} exchange 4 \(from .*c\.toml\): .*sign", r.stdout), r.stdout
    assert snapshot(anna.home) == before
    shutil.copy(pavel.out / f"{stem}-004.toml", inbox / "a.toml")
    r = anna.run("fetch", str(inbox / "a.toml"))
    assert f"stored {game} exchange 4" in r.stdout
    shutil.copy(pavel2.out / f"{stem}-004.toml", inbox / "b.toml")
    before = snapshot(anna.home)
    r = anna.run("fetch", str(inbox / "b.toml"))
    assert re.search(rf"fork: {game} exchange 4 \(from .*b\.toml\): fork: exchange 4 of this file", r.stdout), r.stdout
    assert "0 stored" in r.stdout and "1 refused, kept nowhere" in r.stdout
    assert snapshot(anna.home) == before


def test_unknown_game_stranger_and_bad_sources_are_reported(tmp_path: Path) -> None:
    anna, pavel = make_players(tmp_path)
    joined = start_game(anna, pavel, "sealed")
    olga = Player("Olga", "red", tmp_path / "olga", anna.scenarios)
    olga.out.mkdir(parents=True)
    olga.run("keygen", "--name", "Olga", "--email", "olga@example.org", "--no-passphrase", "--out", str(olga.root))
    # Olga holds nothing of this game: not invited, so nothing is kept.
    before = snapshot(olga.home)
    r = olga.run("fetch", str(joined))
    assert "unknown: " in r.stdout and "does not invite you; nothing written" in r.stdout
    assert snapshot(olga.home) == before
    # An invitation is put aside for `pbem join GAME`.
    r = olga.run("new", "duel/short", "--seat", "red=me", "--seat", f"blue={pavel.root / 'pavel.id.toml'}",
                 "--out", str(olga.out))
    assert "First use of Pavel's key (blue): fingerprint" in r.stdout
    created = Path(re.search(r"created: (\S+)", r.stdout).group(1))
    game = re.search(r"Game (\S+) created", r.stdout).group(1)
    r = pavel.run("fetch", str(created))
    assert f"invitation: {game} exchange 1" in r.stdout and "invitation from Olga (red)" in r.stdout
    r = pavel.run("join", game, "--yes", "--out", str(pavel.out))
    assert "Joined as blue" in r.stdout
    # Bad sources and settings: one line, nothing written.
    r = pavel.run("fetch", str(tmp_path / "nowhere"), ok=False)
    assert "no such folder, Maildir, mbox or file" in r.stderr
    r = pavel.run("fetch", ok=False)
    assert "nothing to fetch from" in r.stderr
    (pavel.home / "imap.toml").write_text('[imap]\nhost = "127.0.0.1"\nuser = "p"\ntls = "none"\n')
    r = pavel.run("fetch", ok=False)
    assert "imap.tls must be" in r.stderr
    r = pavel.run("play", "nosuchgame", ok=False)
    assert "no game 'nosuchgame'" in r.stderr


def test_maildir_and_mbox_lose_nothing_and_are_flagged_only_when_asked(tmp_path: Path) -> None:
    anna, pavel = make_players(tmp_path)
    joined = start_game(anna, pavel, "sealed")
    game = json.loads(pavel.run("games", "--json").stdout)[0]["game_id"]
    eml = eml_of(pavel, joined)
    md = anna.root / "Maildir"
    box = mailbox.Maildir(str(md), create=True)
    box.add(eml)
    box.add(b"From: someone@example.org\r\nSubject: lunch\r\n\r\nNot a game.\r\n")
    box.close()
    names = sorted(p.name for p in (md / "new").iterdir())
    r = anna.run("fetch", str(md))
    assert f"stored {game} exchange 2" in r.stdout and "flagged" not in r.stdout
    assert sorted(p.name for p in (md / "new").iterdir()) == names and not list((md / "cur").iterdir())
    r = anna.run("fetch", str(md), "--mark-seen")
    assert "0 stored, 1 already held" in r.stdout and "1 flagged seen" in r.stdout
    (seen,) = list((md / "cur").iterdir())
    assert seen.name.endswith(":2,S") and seen.read_bytes() == eml
    assert len(list((md / "new").iterdir())) == 1          # the other mail untouched
    r = anna.run("fetch", str(md))                          # seen messages are not read again
    assert r.stdout.strip() == "fetch: 0 stored"
    assert "1 already held" in anna.run("fetch", str(md), "--all").stdout

    # An mbox is only read.
    mbox_path = pavel.root / "mail.mbox"
    mb = mailbox.mbox(str(mbox_path))
    mb.add(eml_of(anna, anna.out / f"{stem_of(joined)}-001.toml"))
    mb.add(eml)
    mb.close()
    content = mbox_path.read_bytes()
    r = pavel.run("fetch", str(mbox_path), "--mark-seen", "-v")
    assert "0 stored, 2 already held" in r.stdout
    assert mbox_path.read_bytes() == content
