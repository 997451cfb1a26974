"""The commands around play (issue 9 items 11, 12, 14, 16; issue 8 item
5): a rewind offer with dice pending, who must act, messages and files,
the demo's files, the audit in turn."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from clihelp import cli_env, make_players, play_script, smtp_server, start_game  # noqa: F401  (a fixture)

RLO = "\u202e"


def _game(tmp_path: Path, dice: str = "sealed"):
    anna, pavel = make_players(tmp_path)
    joined = start_game(anna, pavel, dice)
    return {"red": anna, "blue": pavel}, joined


def _red_attack_waiting(tmp_path: Path):
    ps, joined = _game(tmp_path)
    f5 = play_script(ps, joined, [("red", ["pick 3"]), ("blue", ["pick 1"]), ("red", ["attack"])])
    return ps, f5


def test_a_rewind_offer_is_shown_first_and_no_dice_of_the_undone_exchanges(tmp_path: Path) -> None:
    ps, f5 = _red_attack_waiting(tmp_path)
    anna, pavel = ps["red"], ps["blue"]
    r = anna.run("rewind", str(f5), "--to", "4", "--out", str(anna.out))
    f6 = next(anna.out.glob("*-006.toml"))
    r = pavel.run("play", str(f6), "--out", str(pavel.out), input="")
    first = r.stdout.splitlines()[0]
    assert first == "red offers a rewind: back to the state after exchange 4, undoing exchange 5.", r.stdout
    assert f"`pbem rewind {f6} --accept` or `pbem rewind {f6} --decline`" in r.stdout
    assert "roll" not in r.stdout and "attacks" not in r.stdout
    assert not list(pavel.out.glob("*-007.toml"))
    # Declined, the game goes on: blue's program resolves red's attack now.
    pavel.run("rewind", str(f6), "--decline", "--out", str(pavel.out))
    f7 = next(pavel.out.glob("*-007.toml"))
    r = pavel.run("play", str(f7), "--orders", str(pavel.orders("8", ["defend block"])), "--out", str(pavel.out))
    assert "red attacks: rolls" in r.stdout


def test_sitrep_verify_and_play_say_whose_program_resolves_pending_dice(tmp_path: Path) -> None:
    ps, f5 = _red_attack_waiting(tmp_path)
    anna, pavel = ps["red"], ps["blue"]
    who = "blue's program first resolves the dice of red's last order"
    assert who in anna.run("verify", str(f5)).stdout
    assert who in pavel.run("sitrep", str(f5)).stdout
    assert f"Nothing to do: {who}" in anna.run("play", str(f5), "--out", str(anna.out)).stdout


def test_a_second_game_against_the_same_opponent_has_its_own_file_names(tmp_path: Path) -> None:
    ps, joined = _game(tmp_path)
    anna, pavel = ps["red"], ps["blue"]
    r = anna.run("new", "duel/short", "--side", "red=me", "--side", f"blue={pavel.root / 'pavel.id.toml'}",
                 "--out", str(anna.out))
    assert "already exists" not in r.stdout
    assert len(list(anna.out.glob("duel-anna-pavel-*-001.toml"))) == 2


def test_join_twice_options_and_messages(tmp_path: Path) -> None:
    anna, pavel = make_players(tmp_path)
    r = anna.run("new", "duel/short", "--side", "red=me", "--side", f"blue={pavel.root / 'pavel.id.toml'}",
                 "--message", f"hello {RLO}evil\x1b[31m", "--out", str(anna.out))
    created = Path(re.search(r"created: (\S+)", r.stdout).group(1))
    r = pavel.run("join", str(created), "--yes", "--out", str(pavel.out))
    assert "Rule options:\n  forced_attack = false\n  plannable_attack = false" in r.stdout   # the test game's
    assert 'Message from red: "hello evil[31m"' in r.stdout
    joined = next(pavel.out.glob("*-002.toml"))
    r = pavel.run("join", str(joined), "--yes", "--out", str(pavel.out), ok=False)
    assert "already joined: you play blue" in r.stderr
    r = anna.run("join", str(joined), "--yes", "--out", str(anna.out), ok=False)
    assert "already joined: you play red" in r.stderr
    r = anna.run("new", "duel/short", "--side", "red=me", "--side", f"blue={pavel.root / 'pavel.id.toml'}",
                 "--message", "x" * 2001, "--out", str(anna.out), ok=False)
    assert "at most 2000" in r.stderr


def test_rule_options_are_shown_as_name_value_lines(tmp_path: Path) -> None:
    anna, pavel = make_players(tmp_path)
    r = anna.run("new", "avd/practice", "--side", "german=me", "--side", f"soviet={pavel.root / 'pavel.id.toml'}",
                 "--option", "strategic_cost=2", "--out", str(anna.out))
    created = Path(re.search(r"created: (\S+)", r.stdout).group(1))
    r = pavel.run("join", str(created), "--yes", "--out", str(pavel.out))
    assert "  strategic_cost = 2\n" in r.stdout and "  minsk_chits_doubled = true\n" in r.stdout


def test_messages_lose_their_control_characters_in_every_output(tmp_path: Path) -> None:
    ps, joined = _game(tmp_path)
    anna, pavel = ps["red"], ps["blue"]
    orders = anna.root / "o.toml"
    orders.write_text(f'orders = ["pick 3"]\nmessage = "look {RLO}gninrom"\n', encoding="utf-8")
    r = anna.run("play", str(joined), "--orders", str(orders), "--out", str(anna.out))
    f3 = next(anna.out.glob("*-003.toml"))
    assert "look gninrom" in r.stdout and RLO not in r.stdout
    assert RLO not in f3.with_suffix(".txt").read_text(encoding="utf-8")
    anna.run("mail", str(f3))
    body = f3.with_suffix(".eml").read_bytes()
    assert b"From: Anna <anna@example.org>" in body
    assert RLO.encode() not in body and b"=E2=80=AE" not in body
    for out in (pavel.run("play", str(f3), "--out", str(pavel.out), input="quit\n", ok=False).stdout,
                pavel.run("log", str(f3)).stdout):
        assert "look gninrom" in out and RLO not in out
    orders.write_text('orders = ["pick 3"]\nmessage = "' + "y" * 2001 + '"\n', encoding="utf-8")
    r = pavel.run("play", str(f3), "--orders", str(orders), "--out", str(pavel.out), ok=False)
    assert "at most 2000" in r.stderr


def test_mail_needs_no_passphrase_and_a_failed_send_can_be_retried(tmp_path: Path, smtp_server) -> None:
    ctl, envelopes = smtp_server
    anna, pavel = make_players(tmp_path)
    (anna.home / "key.toml").unlink()
    (anna.home / "me.id.toml").unlink()
    secret = {"PBEM_PASSPHRASE": "correct horse"}
    (anna.root / "anna.id.toml").unlink()
    anna.run("keygen", "--name", "Anna", "--email", "anna@example.org", "--passphrase", "--out", str(anna.root),
             env=secret)
    anna.run("new", "duel/short", "--side", "red=me", "--side", f"blue={pavel.root / 'pavel.id.toml'}",
             "--out", str(anna.out), env=secret)
    created = next(anna.out.glob("*-001.toml"))
    # No passphrase given, no terminal to ask at: mail still works.
    r = anna.run("mail", str(created))
    assert "Email written" in r.stdout
    cfg = anna.root / "smtp.toml"
    with __import__("socket").socket() as s:
        s.bind(("127.0.0.1", 0))
        dead = s.getsockname()[1]
    cfg.write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {dead}\nsender = "anna@example.org"\n')
    r = anna.run("mail", str(created), "--send", "--smtp", str(cfg), ok=False)
    assert "could not send mail" in r.stderr
    cfg.write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {ctl.port}\nsender = "anna@example.org"\n')
    r = anna.run("mail", str(created), "--send", "--smtp", str(cfg))
    assert "Sent to Pavel <pavel@example.org>" in r.stdout and len(envelopes) == 1


def test_an_email_without_a_game_says_so_and_a_readable_key_is_warned(tmp_path: Path) -> None:
    ps, joined = _game(tmp_path)
    anna = ps["red"]
    eml = anna.root / "note.eml"
    eml.write_text("From: Pavel <pavel@example.org>\nTo: anna@example.org\nSubject: hi\n"
                   "MIME-Version: 1.0\nContent-Type: text/plain\n\nno file, sorry\n")
    r = anna.run("play", str(eml), ok=False)
    assert "no pbem game file attached to this email" in r.stderr
    os.chmod(anna.home / "key.toml", 0o644)
    r = anna.run("sitrep", str(joined))
    assert "warning: your key file" in r.stderr and "chmod 600" in r.stderr


def test_demo_shows_the_set_up_files_and_keeps_them(tmp_path: Path) -> None:
    keep = tmp_path / "demo"
    env = cli_env(tmp_path / "home", tmp_path)
    r = subprocess.run([sys.executable, "-m", "pbem.cli", "demo", "--exchanges", "2", "--keep", str(keep)],
                       env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "--- demo-001.toml ---" in r.stdout and "--- demo-002.toml ---" in r.stdout
    assert r.stdout.index("demo-001.toml") < r.stdout.index("demo-002.toml") < r.stdout.index("demo-003.toml")
    last = keep / "demo-004.toml"
    assert f"Try `pbem verify {last}`, `pbem dice {last}` and `pbem log {last}`" in r.stdout
    assert (keep / "demo-001.toml").is_file() and (keep / "demo-001.txt").is_file()
    for cmd in ("verify", "dice", "log"):
        r = subprocess.run([sys.executable, "-m", "pbem.cli", cmd, str(last)], env=env, capture_output=True,
                           text=True, timeout=120)
        assert r.returncode == 0, r.stderr


def test_audit_in_turn_incomplete_until_all_have_disclosed_and_forfeit(tmp_path: Path) -> None:
    ps, joined = _game(tmp_path)
    anna, pavel = ps["red"], ps["blue"]
    over = play_script(ps, joined, [("red", ["resign"])])
    # Red's exchange ended the game: red discloses first.
    r = pavel.run("audit", str(over), "--out", str(pavel.out), ok=False)
    assert "incomplete: red, blue have not disclosed; waiting for red to disclose" in r.stderr
    r = anna.run("audit", str(over), "--out", str(anna.out))
    f4 = next(anna.out.glob("*-004.toml"))
    assert "Your secrets are disclosed" in r.stdout and "incomplete: blue has not disclosed" in r.stdout
    r = anna.run("audit", str(f4), "--out", str(anna.out), ok=False)
    assert "waiting for blue to disclose" in r.stderr and "--forfeit" in r.stderr
    # Blue discloses: the last disclosure runs the full audit at once.
    r = pavel.run("audit", str(f4), "--out", str(pavel.out))
    assert "audit: no discrepancy in 5 exchanges; red resigns" in r.stdout
    f5 = next(pavel.out.glob("*-005.toml"))
    assert "audit: no discrepancy in 5 exchanges" in anna.run("audit", str(f5), "--out", str(anna.out)).stdout
    # Had blue never disclosed, red could record the forfeit.
    r = pavel.run("audit", str(f4), "--forfeit", "--out", str(tmp_path), ok=False)
    assert "disclose your own secrets first" in r.stderr
    r = anna.run("audit", str(f4), "--forfeit", "--out", str(tmp_path))
    assert "The forfeit of blue's disclosure is recorded" in r.stdout
    assert "blue forfeited in exchange 5" in r.stdout and "cannot be replayed with nothing hidden" in r.stdout
