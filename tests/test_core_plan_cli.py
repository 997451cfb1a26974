"""`pbem play` offers the plan at a decision that may be planned under
sealed dice (issue 12 item 4): "now, and see the result, or add to the
plan"; `plan done` signs it, and the opponent's program resolves it."""
from __future__ import annotations

import re
from pathlib import Path

from clihelp import make_players, play_script, start_game


def _game(tmp_path: Path):
    anna, pavel = make_players(tmp_path)
    return {"red": anna, "blue": pavel}, start_game(anna, pavel, "sealed", ("plannable_attack=true",))


def test_play_offers_the_plan_and_the_opponents_program_resolves_it(tmp_path: Path) -> None:
    ps, joined = _game(tmp_path)
    f4 = play_script(ps, joined, [("red", ["pick 3"]), ("blue", ["policy defense block", "pick 1"])])
    anna = ps["red"]
    r = anna.run("play", str(f4), "--out", str(anna.out), input="attack\np\nplan\nplan done\ny\n")
    assert "n = now, and see the result" in r.stdout
    assert "added to the plan (1): attack" in r.stdout
    assert "the plan: attack" in r.stdout
    assert "Written" in r.stdout
    f5 = Path(re.search(r"Written (\S+\.toml)", r.stdout).group(1))
    log = f5.with_suffix(".txt").read_text()
    assert "signs a plan of 1 order(s): attack" in log
    pavel = ps["blue"]
    r = pavel.run("play", str(f5), "--out", str(pavel.out), input="y\n")
    f6 = Path(re.search(r"Written (\S+\.toml)", r.stdout).group(1))
    assert "(planned)" in f6.with_suffix(".txt").read_text()
    anna.run("verify", str(f6))


def test_now_keeps_the_order_a_plain_one(tmp_path: Path) -> None:
    ps, joined = _game(tmp_path)
    f4 = play_script(ps, joined, [("red", ["pick 3"]), ("blue", ["pick 1"])])
    anna = ps["red"]
    r = anna.run("play", str(f4), "--out", str(anna.out), input="attack\nn\ny\n")
    f5 = Path(re.search(r"Written (\S+\.toml)", r.stdout).group(1))
    assert "signs a plan" not in f5.with_suffix(".txt").read_text()
    assert "attack" in f5.with_suffix(".txt").read_text()


def _anna_attacks(tmp_path: Path, script: str):
    """Red's `pbem play` at his attack, fed ``script``."""
    ps, joined = _game(tmp_path)
    f4 = play_script(ps, joined, [("red", ["pick 3"]), ("blue", ["pick 1"])])
    anna = ps["red"]
    return anna.run("play", str(f4), "--out", str(anna.out), input=script)


def test_an_answer_that_is_neither_now_nor_plan_is_asked_again(tmp_path: Path) -> None:
    # Found in play: an order typed at the now-or-plan question was taken as
    # "now" (the default) and signed an attack the player meant to plan.
    r = _anna_attacks(tmp_path, "attack\nend-combat\np\nplan done\ny\n")
    assert "answer n (now) or p (add to the plan)" in r.stdout
    f5 = Path(re.search(r"Written (\S+\.toml)", r.stdout).group(1))
    assert "signs a plan of 1 order(s): attack" in f5.with_suffix(".txt").read_text()


def test_the_same_order_twice_in_a_plan_is_refused(tmp_path: Path) -> None:
    r = _anna_attacks(tmp_path, "attack\np\nattack\nplan done\ny\n")
    assert "already in the plan (1)" in r.stdout
    f5 = Path(re.search(r"Written (\S+\.toml)", r.stdout).group(1))
    assert "signs a plan of 1 order(s): attack" in f5.with_suffix(".txt").read_text()


def test_p_typed_while_a_plan_is_open_says_how_the_plan_grows(tmp_path: Path) -> None:
    r = _anna_attacks(tmp_path, "attack\np\np\nplan done\ny\n")
    assert "unknown order" not in r.stdout
    assert "the plan is open: each order you give now is added to it" in r.stdout
    assert "Written" in r.stdout
