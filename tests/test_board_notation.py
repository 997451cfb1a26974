"""The kernel's order-notation words (pbem/board/notation.py): unit spellings,
hexes, chits, yes/no answers and "each thing once", with a game's choices
passed in."""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from pbem.board import notation
from pbem.board.notation import Notation


class Refused(Exception):
    """Stands for a game's refusal class (the contract's IllegalOrder)."""


FOUR = Notation(Refused, re.compile(r"^\d{4}$"), "four digits, e.g. 3919")
WIDE = Notation(Refused, re.compile(r"^(?:[A-Z]:)?\d{4}$"), "four digits or S:4112",
                yes=("yes", "y", "play"), no=("no", "n", "keep"))
UNITS = [("AX-3PzG", "3rd Panzer Group"), ("G-7Pz", "7 Pz"), ("S-7Pz", "7 Pz"), ("S-19A", None)]


def refusal(call: Callable[..., object], *args: Any) -> str:
    with pytest.raises(Refused) as exc:
        call(*args)
    return str(exc.value)


def test_squash_drops_spaces_dots_underscores_and_case() -> None:
    assert notation.squash(" 7. Pz_Div ") == "7pzdiv"


def test_spellings_cover_id_squashed_id_and_printed_name() -> None:
    spell = notation.spellings(UNITS)
    assert spell["ax-3pzg"] == ["AX-3PzG"]
    assert spell["3rdpanzergroup"] == ["AX-3PzG"]
    assert spell["7pz"] == ["G-7Pz", "S-7Pz"]        # a shared printed name lists both, in the order given
    assert spell["s-19a"] == ["S-19A"]               # no printed name: the id stands for it
    assert "3pzg" not in spell and "19a" not in spell


def test_spellings_after_dash_add_the_id_tail() -> None:
    spell = notation.spellings(UNITS, after_dash=True)
    assert spell["3pzg"] == ["AX-3PzG"]
    assert spell["19a"] == ["S-19A"]
    assert spell["7pz"] == ["G-7Pz", "S-7Pz"]


def test_unit_by_any_spelling_and_refusals() -> None:
    spell = notation.spellings(UNITS)
    assert FOUR.unit(spell, "ax-3pzg") == "AX-3PzG"
    assert FOUR.unit(spell, "3rd Panzer Group") == "AX-3PzG"
    assert FOUR.unit(spell, "s-7pz") == "S-7Pz"
    assert refusal(FOUR.unit, spell, "7Pz") == "'7Pz' could be G-7Pz, S-7Pz: use the id"
    assert refusal(FOUR.unit, spell, "9Pz") == "no unit called '9Pz'"


def test_unit_exact_id_wins_among_shared_spellings() -> None:
    spell = notation.spellings([("7Pz", "7 Pz"), ("G-7Pz", "7 Pz")])
    assert FOUR.unit(spell, "7PZ") == "7Pz"


def test_hexid_follows_the_game_pattern_and_hint() -> None:
    assert FOUR.hexid("3919") == "3919"
    assert WIDE.hexid("S:4112") == "S:4112"
    assert refusal(FOUR.hexid, "S:4112") == "'S:4112' is not a hex (four digits, e.g. 3919)"
    assert refusal(WIDE.hexid, "412") == "'412' is not a hex (four digits or S:4112)"


def test_chit_any_case_and_the_refusal_lists_them() -> None:
    chits = {"supply": 1, "AX-2PzG": 2}
    assert FOUR.chit(chits, "ax-2pzg") == "AX-2PzG"
    assert refusal(FOUR.chit, chits, "zhukov") == "no chit called 'zhukov'; chits: AX-2PzG, supply"


def test_yesno_default_words_and_a_games_own() -> None:
    assert FOUR.yesno("Y") is True and FOUR.yesno("no") is False
    assert refusal(FOUR.yesno, "play") == "expected yes or no, got 'play'"
    assert WIDE.yesno("PLAY") is True and WIDE.yesno("keep") is False
    assert refusal(WIDE.yesno, "maybe") == "expected yes or no, got 'maybe'"


def test_once_refuses_the_first_repeat_as_shown() -> None:
    FOUR.once(["a", "b"], "unit")
    assert refusal(FOUR.once, ["a", "b", "b", "a"], "chit") == "b is named twice: name each chit once"
    assert refusal(FOUR.once, ["x", "x"], "unit", str.upper) == "X is named twice: name each unit once"
