"""Immediate dice without takebacks (issue 8 item 7): once `pbem play` has
shown a roll, the exchange is journalled in $PBEM_HOME, `undo` cannot go
back past the roll, leaving keeps it, and the next `play` resumes it."""
from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from clihelp import make_players, play_script, start_game


def _to_red_attack(tmp_path: Path):
    anna, pavel = make_players(tmp_path)
    joined = start_game(anna, pavel, "immediate")
    f4 = play_script({"red": anna, "blue": pavel}, joined, [("red", ["pick 3"]), ("blue", ["pick 1"])])
    return anna, pavel, f4


def _journals(p) -> list[Path]:
    return sorted((p.home / "games").rglob("journal-*.toml"))


def test_a_shown_roll_cannot_be_taken_back_by_undo_or_by_leaving(tmp_path: Path) -> None:
    anna, pavel, f4 = _to_red_attack(tmp_path)
    r = anna.run("play", str(f4), "--out", str(anna.out), input="attack\nn\nundo\nquit\n", ok=False)
    face = re.search(r"red attacks: rolls (\d)", r.stdout).group(1)
    assert "refused: cannot undo: your last order led to dice you have seen" in r.stdout
    assert "Not signed: your orders are kept" in r.stdout
    assert "kept for your next `pbem play`" in r.stderr
    assert not list(anna.out.glob("*-005.toml"))
    (kept,) = _journals(anna)
    assert kept.name == "journal-0005.toml"
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o600
    # The next play of the same file resumes it: the same orders, the same dice.
    r = anna.run("play", str(f4), "--out", str(anna.out), input="y\n")
    assert "Resuming the exchange you began: its 1 order given before is pushed again" in r.stdout
    assert f"red attacks: rolls {face}" in r.stdout
    assert "Written" in r.stdout and not _journals(anna)


def test_resumed_orders_come_before_an_orders_file(tmp_path: Path) -> None:
    anna, pavel, f4 = _to_red_attack(tmp_path)
    anna.run("play", str(f4), "--out", str(anna.out), input="attack\nquit\n", ok=False)
    # An orders file cannot replace the attack whose roll was seen: it
    # goes on after it (here there is nothing left to order).
    r = anna.run("play", str(f4), "--orders", str(anna.orders("5", ["attack"])), "--out", str(anna.out), ok=False)
    assert "comes after the exchange ended" in r.stderr
    r = anna.run("play", str(f4), "--orders", str(anna.orders("5b", [])), "--out", str(anna.out))
    assert "Resuming the exchange you began" in r.stdout and "Written" in r.stdout


def test_a_journal_for_another_base_is_ignored(tmp_path: Path) -> None:
    anna, pavel, f4 = _to_red_attack(tmp_path)
    anna.run("play", str(f4), "--out", str(anna.out), input="attack\nquit\n", ok=False)
    (kept,) = _journals(anna)
    kept.write_text(re.sub(r'base = "[0-9a-f]+"', 'base = "' + "0" * 64 + '"', kept.read_text()))
    r = anna.run("play", str(f4), "--out", str(anna.out), input="attack\ny\n")
    assert "Resuming" not in r.stdout and "Written" in r.stdout


def test_sealed_dice_journal_nothing(tmp_path: Path) -> None:
    anna, pavel = make_players(tmp_path)
    joined = start_game(anna, pavel, "sealed")
    f4 = play_script({"red": anna, "blue": pavel}, joined, [("red", ["pick 3"]), ("blue", ["pick 1"])])
    r = anna.run("play", str(f4), "--out", str(anna.out), input="attack\nn\nundo\nquit\n", ok=False)
    assert "taken back" in r.stdout and not _journals(anna)
