"""The interactive prompt of `pbem play` (issue 9 items 7-9, 14):
standing orders at the prompt, "Sign and write?" answered n, numbered
choices, help."""
from __future__ import annotations

from pathlib import Path

from clihelp import make_players, play_script, start_game


def _game(tmp_path: Path, dice: str = "sealed", options: tuple[str, ...] = ()):
    anna, pavel = make_players(tmp_path)
    joined = start_game(anna, pavel, dice, options)
    return {"red": anna, "blue": pavel}, joined


def test_policy_name_alone_shows_the_kind_and_its_setting_and_sends_nothing(tmp_path: Path) -> None:
    ps, joined = _game(tmp_path)
    anna = ps["red"]
    r = anna.run("play", str(joined), "--out", str(anna.out),
                 input="policy defense\npolicy defense dodge\npolicy defense\npolicy nosuch x\nsitrep\npick 2\ny\n")
    assert "defense: block | dodge: answer every defend decision" in r.stdout
    assert "now: not set" in r.stdout
    assert "standing order defense = dodge set: your opponent's program will read this" in r.stdout
    assert "now: dodge" in r.stdout
    assert "refused: no standing order 'nosuch'" in r.stdout
    assert "Your standing orders: defense = dodge" in r.stdout


def test_a_standing_order_that_answers_the_pending_decision_says_so_and_keeps_the_input_in_step(tmp_path: Path) -> None:
    ps, joined = _game(tmp_path)
    f5 = play_script(ps, joined, [("red", ["pick 3"]), ("blue", ["pick 1"]), ("red", ["attack"])])
    pavel = ps["blue"]
    # Pavel sets a standing order while his defence is pending, then types
    # the choice he meant for it: the order answered it already, the "2" is
    # refused at the order prompt (not taken for the y/n question), and his
    # next line signs.
    r = pavel.run("play", str(f5), "--out", str(pavel.out), input="policy defense block\n2\nsign\n")
    assert "(your standing order answered: defend block)" in r.stdout
    assert "It answered the decision that was pending, which completes this exchange" in r.stdout
    assert "refused: the exchange is complete: nothing more can be ordered in it" in r.stdout
    assert "Sign and write this exchange?" not in r.stdout
    assert "Written" in r.stdout
    # The opponent's sitrep says only that a standing order is set.
    f6 = next(pavel.out.glob("*-006.toml"))
    anna = ps["red"]
    r = anna.run("play", str(f6), "--out", str(anna.out), input="quit\n", ok=False)
    assert "blue: policy set (1 standing order)" in r.stdout
    assert "defense = block" not in r.stdout
    r = anna.run("sitrep", str(f6))
    assert "blue: policy set (1 standing order)" in r.stdout and "defense = block" not in r.stdout
    r = pavel.run("sitrep", str(f6))
    assert "Your standing orders: defense = block" in r.stdout


def test_sign_answered_n_goes_back_to_the_orders_with_the_moves_kept(tmp_path: Path) -> None:
    ps, joined = _game(tmp_path)
    anna = ps["red"]
    r = anna.run("play", str(joined), "--out", str(anna.out), input="pick 3\nn\nsitrep\nundo\n2\nyes\n")
    assert "Not signed: your orders are kept" in r.stdout
    assert "The exchange is complete: `sign` signs and writes it" in r.stdout
    assert "taken back" in r.stdout
    assert r.stdout.count("Sign and write this exchange?") == 2
    written = next(anna.out.glob("*-003.toml"))
    # The pick that went in is the second one (pick 2): blue's next play
    # shows nothing of it, but red's own reveal in exchange 7 will; here the
    # file simply verifies.
    anna.run("verify", str(written))


def test_a_line_that_is_not_y_or_n_at_the_sign_question_is_refused(tmp_path: Path) -> None:
    ps, joined = _game(tmp_path)
    anna = ps["red"]
    r = anna.run("play", str(joined), "--out", str(anna.out), input="pick 3\n2\ny\n")
    assert "refused: '2' is not an answer to this question" in r.stdout
    assert "Written" in r.stdout


def test_numbered_choices_out_of_range_and_help(tmp_path: Path) -> None:
    ps, joined = _game(tmp_path)
    anna = ps["red"]
    r = anna.run("play", str(joined), "--out", str(anna.out), input="1000\n0\nhelp\nmessage " + "x" * 2001 + "\nquit\n",
                 ok=False)
    assert "refused: there is no choice 1000: choose 1 to 3" in r.stdout
    assert "refused: there is no choice 0: choose 1 to 3" in r.stdout
    # Help names the commands, never another game's question.
    assert "policy NAME [VALUE]" in r.stdout and "reach 7Pz" not in r.stdout
    assert "refused: message: the message has 2001 characters; at most 2000" in r.stdout


def test_a_decision_a_standing_order_could_answer_names_it_until_one_is_set(tmp_path: Path) -> None:
    ps, joined = _game(tmp_path)
    f5 = play_script(ps, joined, [("red", ["pick 3"]), ("blue", ["pick 1"]), ("red", ["attack"])])
    pavel = ps["blue"]
    r = pavel.run("play", str(f5), "--out", str(pavel.out), input="quit\n", ok=False)
    assert "(to answer this without being asked: policy defense VALUE - block | dodge: answer every defend decision)" in r.stdout


def test_after_a_standing_order_completes_the_exchange_y_signs_and_another_is_refused_with_the_way_out(
        tmp_path: Path) -> None:
    ps, joined = _game(tmp_path)
    f5 = play_script(ps, joined, [("red", ["pick 3"]), ("blue", ["pick 1"]), ("red", ["attack"])])
    pavel = ps["blue"]
    r = pavel.run("play", str(f5), "--out", str(pavel.out), input="policy defense block\npolicy defense dodge\ny\n")
    assert "without being asked" in r.stdout.split("(your standing order answered")[0]
    assert "refused: this exchange is complete, so this standing order goes in your next one; or `undo`" in r.stdout
    assert "Written" in r.stdout


def test_a_standing_order_typed_at_the_sign_question_says_where_it_can_go(tmp_path: Path) -> None:
    # Found in play: a player who had just answered a retreat typed the
    # standing order for the next ones at the sign question and was told
    # only that it was no answer.
    ps, joined = _game(tmp_path)
    anna = ps["red"]
    r = anna.run("play", str(joined), "--out", str(anna.out), input="pick 3\npolicy defense block\ny\n")
    assert "the exchange is complete: set the standing order in your next one" in r.stdout
    assert "Written" in r.stdout


def test_a_numbered_pattern_says_to_fill_it_in(tmp_path: Path) -> None:
    # Found in play: choosing "1. move UNIT HEX ..." answered "no unit
    # called 'UNIT'"; a listed option that is no order is a pattern.
    ps, joined = _game(tmp_path, options=("pattern_option=true",))
    anna = ps["red"]
    r = anna.run("play", str(joined), "--out", str(anna.out), input="1\n2\ny\n")
    assert "refused: choice 1 is a pattern, not an order: type it with your own names in place of the " \
           "capitals: pick N" in r.stdout
    assert "Written" in r.stdout
