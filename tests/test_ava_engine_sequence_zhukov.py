"""Zhukov's Command (AVA 18.1, notes A29) through the sequence of play:
the Soviet's declaration when an Axis unit enters a hex next to Leningrad,
the Reinforcements chit held in hand from the next turn, its window after
the Axis one, Manstein never cancelled by it, the end of the cup."""
from __future__ import annotations

from typing import Any

import avahelp
import pytest
from fakedice import ScriptedDice

from pbem.game import IllegalOrder
from pbem.games.ava import GAME

U = avahelp.unit
CHITS = {"supply": {"side": "common", "kind": "supply"},
         "ax-4PzG": {"side": "axis", "kind": "hq", "hq": "4PzG"},
         "Manstein": {"side": "axis", "kind": "interrupt", "hq": "4PzG"},
         "su-8A": {"side": "soviet", "kind": "hq", "hq": "8A"},
         "su-Reinf": {"side": "soviet", "kind": "reinforcement"}}


def build(**options: Any) -> tuple[Any, dict[str, Any]]:
    units = {
        "4PzG": U("axis", "hq", 1, 2, 8, steps=1, type="panzergruppe", start="1513", formation="4PzG"),
        "1Pz": U("axis", "mech", 8, 6, 12, start="1516", formation="4PzG"),
        "8A": U("soviet", "hq", 1, 2, 6, steps=1, type="army", start="1524"),
        "s1": U("soviet", "foot", 3, 4, 6, start="1525"),
    }
    data = avahelp.mini(units=units, chits=CHITS, supply={"axis": ["1001"], "soviet": ["2030"]},
                        names={"1520": "Leningrad"}, cities={"major_city": ["1520"]},
                        params={"zhukov": True, "surprise_attack": False, "reinforcements_from_turn": 1})
    rules = GAME.rules(data, options)
    return rules, rules.initial_state()


def play(rules: Any, st: dict[str, Any], text: str, dice: Any = None) -> list[str]:
    d = rules.pending(st)
    order = rules.fill_secrets(st, d.seat, rules.parse(text, st, d.seat), lambda: bytes(16))
    _, events = rules.apply(st, d.seat, order, dice or ScriptedDice())
    return [e.text for e in events]


def reveal(rules: Any, st: dict[str, Any]) -> list[str]:
    d = rules.pending(st)
    _, events = rules.apply(st, d.seat, rules.private_answer(st, d), ScriptedDice())
    return [e.text for e in events]


def test_18_1_an_axis_unit_next_to_leningrad_lets_the_soviet_declare() -> None:
    rules, st = build()
    play(rules, st, "chits ax-4PzG")
    play(rules, st, "chits su-8A", ScriptedDice(draws=["sealed:a1.1"]))
    reveal(rules, st)
    assert rules.pending(st).kind == "move"
    play(rules, st, "move 1Pz 1517 1518")          # 1518 is two hexes from Leningrad: nothing
    assert "zhukov" not in st and rules.pending(st).kind == "move"
    rules2, st2 = build()
    play(rules2, st2, "chits ax-4PzG")
    play(rules2, st2, "chits su-8A", ScriptedDice(draws=["sealed:a1.1"]))
    reveal(rules2, st2)
    play(rules2, st2, "move 1Pz 1517 1518 1519")    # 1519 is next to 1520
    d = rules2.pending(st2)
    assert (d.seat, d.kind, d.policy) == ("soviet", "declare", "zhukov")
    assert d.options == ("declare yes", "declare no")
    assert rules2.standing_answer(st2, d, {"zhukov": "declare"}) == {"verb": "declare", "yes": True}
    events = play(rules2, st2, "declare yes")
    assert "Soviet declares Zhukov's Command on Turn 1 (18.1)" in events
    assert st2["zhukov"] == 1 and rules2.pending(st2).kind == "move"      # the Axis move goes on


def _at_selection(turn: int, declared: int) -> tuple[Any, dict[str, Any]]:
    rules, st = build()
    st["turn"], st["zhukov"] = turn, declared
    return rules, st


def test_18_1_the_reinforcements_chit_is_held_only_in_the_turns_after_the_declaration() -> None:
    rules, st = _at_selection(2, 2)
    play(rules, st, "chits ax-4PzG")
    with pytest.raises(IllegalOrder, match="not an interrupt chit the Soviet player may hold now"):
        play(rules, st, "chits su-8A su-Reinf")
    rules, st = _at_selection(3, 2)
    play(rules, st, "chits ax-4PzG")
    d = rules.pending(st)
    assert "chits su-8A su-Reinf" in d.options and "Zhukov" in d.prompt
    events = play(rules, st, "chits su-8A su-Reinf", ScriptedDice(draws=["supply"]))
    assert "Soviet holds su-Reinf in hand (18.1 Zhukov's Command)" in events
    assert st["hand"]["soviet"] == ["su-Reinf"] and "su-Reinf" not in st["cup"]


def _holding_both() -> tuple[Any, dict[str, Any]]:
    rules, st = _at_selection(3, 1)
    play(rules, st, "chits ax-4PzG Manstein")
    play(rules, st, "chits su-8A su-Reinf", ScriptedDice(draws=["supply"]))
    return rules, st


def test_18_1_a29_the_zhukov_window_opens_after_the_axis_passes() -> None:
    rules, st = _holding_both()
    d = rules.pending(st)
    assert (d.seat, d.kind) == ("axis", "interrupt")
    play(rules, st, "interrupt no")
    d = rules.pending(st)
    assert (d.seat, d.kind, d.options) == ("soviet", "zhukov", ("zhukov no", "zhukov su-Reinf"))
    events = play(rules, st, "zhukov su-Reinf")
    assert "su-Reinf cancels supply, which goes back in the cup" in events
    assert "supply" in st["cup"] and st["hand"]["soviet"] == [] and "su-Reinf" in st["played"]


def test_18_1_manstein_cannot_be_cancelled_by_zhukovs_command() -> None:
    rules, st = _holding_both()
    play(rules, st, "interrupt Manstein")
    d = rules.pending(st)
    assert (d.seat, d.kind) == ("axis", "move")          # 4PzG moves: no Soviet window on Manstein
    assert st["hand"]["soviet"] == ["su-Reinf"]


def test_18_1_a29_a_held_reinforcements_chit_is_played_at_the_end_of_the_cup() -> None:
    rules, st = _holding_both()
    play(rules, st, "interrupt no")
    play(rules, st, "zhukov no", ScriptedDice(draws=["sealed:a3.1"]))
    # the Supply Check resolved; now the Axis chit
    reveal(rules, st)
    play(rules, st, "interrupt no")
    play(rules, st, "zhukov no")
    play(rules, st, "end-move")
    events = play(rules, st, "end-combat", ScriptedDice(draws=["sealed:s3.1"]))
    reveal(rules, st)
    play(rules, st, "interrupt no")
    play(rules, st, "zhukov no")
    play(rules, st, "end-move")
    events = play(rules, st, "end-combat")
    # the cup is empty: Manstein (forced, 7.3) first, then the held Reinforcements
    assert "Manstein is played at the end of the cup (7.3)" in events
    play(rules, st, "end-move")
    events = play(rules, st, "end-combat")
    assert "su-Reinf is played at the end of the cup (7.3)" in events
    assert st["turn"] == 4
