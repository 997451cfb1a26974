"""End to end through the command line: two players, two homes, one game.

Anna (red) and Pavel (blue) each run ``pbem`` in a subprocess with their own
``PBEM_HOME``; the only thing that passes between them is the file (or the
email) one side writes and the other plays.  The game is the duel protocol
test game (tests/duelgame.py) on a two-round scenario, so that its end is
fixed: two rounds cannot take 12 hit points, whatever the dice.

The script of a whole game is the same in both dice timings; what differs is
where the attack rolls land (the attacker's own exchange under immediate
timing, the defender's next one under sealed timing).
"""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from clihelp import Player, make_players, start_game, stem_of
from clihelp import smtp_server  # noqa: F401  (a fixture, used by name)


# The whole two-round game, exchange 3 on: (sender, orders).  The duel's
# order of decisions: both picks, the attack (dice), the defence, both
# reveals (each side's program answers its own from its secrets).
SCRIPT: list[tuple[str, list[str]]] = [
    ("red", ["pick 3"]),            # 3
    ("blue", ["pick 1"]),           # 4
    ("red", ["attack"]),            # 5  sealed: waits for blue's dice
    ("blue", ["defend block"]),     # 6  sealed: the roll is made here
    ("red", []),                    # 7  red's program reveals its pick
    ("blue", []),                   # 8  blue reveals; round 1 resolved
    ("red", ["pick 1"]),            # 9
    ("blue", ["pick 3", "attack"]), # 10 blue attacks in round 2
    ("red", ["defend dodge"]),      # 11 (a standing order can answer this)
    ("blue", []),                   # 12 blue reveals; the game ends
]
LAST = 2 + len(SCRIPT)


def deliver_by_eml(sender: Player, receiver: Player, path: Path) -> Path:
    """``pbem mail`` writes the .eml beside the file; the receiver saves it."""
    r = sender.run("mail", str(path))
    eml = path.with_suffix(".eml")
    assert f"Email written: {eml} (to {receiver.name} <{receiver.name.lower()}@example.org>)" in r.stdout
    inbox = receiver.root / f"inbox-{path.stem}.eml"
    inbox.write_bytes(eml.read_bytes())
    return inbox


def deliver_by_smtp(sender: Player, receiver: Player, path: Path, smtp: tuple[object, list]) -> Path:
    ctl, envelopes = smtp
    cfg = sender.root / "smtp.toml"
    cfg.write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {ctl.port}\nsender = "{sender.name.lower()}@example.org"\n')
    before = len(envelopes)
    r = sender.run("mail", str(path), "--send", "--smtp", str(cfg))
    assert f"Sent to {receiver.name} <{receiver.name.lower()}@example.org> via 127.0.0.1:{ctl.port}" in r.stdout
    assert len(envelopes) == before + 1
    env = envelopes[-1]
    assert env.rcpt_tos == [f"{receiver.name.lower()}@example.org"]
    inbox = receiver.root / f"smtp-{path.stem}.eml"
    content = env.original_content or env.content
    inbox.write_bytes(content if isinstance(content, bytes) else content.encode())
    return inbox


@pytest.mark.parametrize("dice", ["sealed", "immediate"])
def test_two_players_play_a_whole_game_by_files_and_mail(tmp_path: Path, dice: str, smtp_server) -> None:
    anna, pavel = make_players(tmp_path)
    players = {"red": anna, "blue": pavel}
    received = start_game(anna, pavel, dice)
    stem = stem_of(received)
    for n, (side, orders) in enumerate(SCRIPT, start=3):
        me = players[side]
        other = pavel if me is anna else anna
        policies = None
        if dice == "immediate" and n == 3:
            # Anna's standing order answers her defence in Pavel's exchange 10.
            policies = {"defense": "dodge"}
        if dice == "immediate" and n == 11:
            orders = []
        if dice == "sealed" and n == 10:
            r = play_round_two_attack_interactively(me, received)
        else:
            r = me.run("play", str(received), "--orders", str(me.orders(str(n), orders, policies)),
                       "--out", str(me.out))
        written = me.out / f"{stem}-{n:03d}.toml"
        assert f"Written {written}" in r.stdout
        # The receiving program verified and showed the opponent's exchange.
        assert f"Exchange {n - 1} - {other.side}" in r.stdout
        assert (me.out / f"{stem}-{n:03d}.txt").read_text().startswith("pbem - Duel")
        if dice == "sealed" and n in (4, 5, 6):
            received = deliver_by_eml(me, other, written)
        elif dice == "immediate" and n == 5:
            received = deliver_by_smtp(me, other, written, smtp_server)
        else:
            received = written
        if dice == "immediate" and n == 10:
            assert "red: defend dodge (standing order)" in r.stdout
        if dice == "sealed" and n == 5:
            assert "red: attack  [waits for blue's dice]" in r.stdout
            assert "roll:" not in r.stdout
    final = received
    assert "The game is over" in r.stdout
    # Both verify the final file.
    for p in (anna, pavel):
        r = p.run("verify", str(final))
        assert re.match(rf"valid: {LAST} exchanges, 2 rolls and draws recomputed; game over: (red wins|blue wins|draw)", r.stdout), r.stdout
    check_log_and_dice(anna, final, dice)
    run_audit(anna, pavel, final, stem)


def play_round_two_attack_interactively(me: Player, received: Path) -> subprocess.CompletedProcess[str]:
    """Pavel's exchange 10 at the keyboard: an illegal order is refused with
    its reason, an option is chosen by number, ``undo`` takes it back, the
    final choice and the attack go in, and he confirms signing."""
    keys = "\n".join(["defend block", "3", "undo", "? hp", "1", "attack", "y"]) + "\n"
    r = me.run("play", str(received), "--out", str(me.out), input=keys)
    assert "refused: expected pick, got defend" in r.stdout
    assert "1. pick 1" in r.stdout and "3. pick 3" in r.stdout
    assert "taken back" in r.stdout
    assert "Your order waits for red's dice" in r.stdout
    return r


def check_log_and_dice(reader: Player, final: Path, dice: str) -> None:
    log = reader.run("log", str(final)).stdout
    for n in range(1, LAST + 1):
        assert f"Exchange {n} - " in log
    assert "Game over:" in log
    if dice == "sealed":
        # Pavel picked 3 at the keyboard, took it back and picked 1.
        assert "blue reveals 1" in log
    rolls = reader.run("dice", str(final)).stdout.splitlines()
    streams = [ln for ln in rolls if ln.startswith("exchange")]
    listed = [ln.strip() for ln in rolls if ln.startswith("  value")]
    assert len(streams) == 2 and len(listed) == 2, rolls
    # Under sealed timing the defender's exchange carries the roll; each
    # stream names the reveals that keyed it.
    first, second = (6, 11) if dice == "sealed" else (5, 10)
    assert re.match(rf"exchange {first} \((blue|red)\): stream {first} keyed by blue [0-9a-f]{{16}}\.\.\., "
                    rf"red [0-9a-f]{{16}}\.\.\.$", streams[0]), streams[0]
    assert re.match(rf"exchange {second} \((blue|red)\): stream {second} keyed by", streams[1])
    assert re.match(r"value +0: round 1, red attack d6: d6 -> [1-6]$", listed[0])
    assert re.match(r"value +0: round 2, blue attack d6: d6 -> [1-6]$", listed[1])
    assert rolls[-1].startswith("2 rolls and draws")
    as_json = json.loads(reader.run("dice", str(final), "--json").stdout)
    assert [s["stream"] for s in as_json] == [first, second] and as_json[0]["rolls"][0]["op"] == "d6"
    # The roll the dice listing recomputes is the one the log reported.
    face = listed[0].rsplit(" ", 1)[1]
    assert f"round 1, red attack d6: d6 -> {face}" in log


def run_audit(anna: Player, pavel: Player, final: Path, stem: str) -> None:
    r = pavel.run("audit", str(final), "--out", str(pavel.out))
    disclosed_b = pavel.out / f"{stem}-{LAST + 1:03d}.toml"
    assert str(disclosed_b) in r.stdout
    # A second audit by the same side before the other discloses is refused.
    r = pavel.run("audit", str(disclosed_b), "--out", str(pavel.out), ok=False)
    assert "waiting for red" in r.stderr
    r = anna.run("audit", str(disclosed_b), "--out", str(anna.out))
    both = anna.out / f"{stem}-{LAST + 2:03d}.toml"
    assert str(both) in r.stdout
    for p in (anna, pavel):
        r = p.run("audit", str(both), "--out", str(p.out))
        assert f"audit: no discrepancy in {LAST + 2} exchanges" in r.stdout


def test_old_file_played_again_is_refused_and_nothing_written(tmp_path: Path) -> None:
    anna, pavel = make_players(tmp_path)
    joined = start_game(anna, pavel, "sealed")
    stem = stem_of(joined)
    anna.run("play", str(joined), "--orders", str(anna.orders("3", ["pick 3"])), "--out", str(anna.out))
    third = anna.out / f"{stem}-003.toml"
    pavel.run("play", str(third), "--orders", str(pavel.orders("4", ["pick 1"])), "--out", str(pavel.out))
    before = {p.name: p.read_bytes() for p in pavel.out.iterdir()}
    # Pavel plays the file Anna's exchange 3 came in again: he already
    # answered it with exchange 4, which is pointed out, not replaced.
    r = pavel.run("play", str(third), "--orders", str(pavel.orders("4b", ["pick 2"])), "--out", str(pavel.out))
    assert "You already answered this file (exchange 4)" in r.stdout
    assert {p.name: p.read_bytes() for p in pavel.out.iterdir()} == before
    # Anna plays her own exchange 3's predecessor again after Pavel's 4 came
    # back to her: that file is old, and nothing is written.
    anna.run("play", str(pavel.out / f"{stem}-004.toml"), "--orders", str(anna.orders("5", ["attack"])),
             "--out", str(anna.out))
    listing = sorted(p.name for p in anna.out.iterdir())
    r = anna.run("play", str(joined), "--orders", str(anna.orders("3c", ["pick 1"])), "--out", str(anna.out), ok=False)
    assert "old file: it holds exchange 2 while you hold 5" in r.stderr
    assert sorted(p.name for p in anna.out.iterdir()) == listing
