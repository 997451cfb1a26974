"""The sequence of play of both profiles on a small synthetic map: each
phase and decision, who decides it, what the other program sees, and
refusals in one line.  The mechanics are the modules' (tested there); here
the frames that call them."""
from __future__ import annotations

import pickle
from typing import Any

import avahelp
import pytest
from fakedice import ScriptedDice

from pbem.game import IllegalOrder
from pbem.games.ava import FFS_GAME, GAME

U = avahelp.unit
CHITS = {"supply": {"side": "common", "kind": "supply"},
         "ax-2PzG": {"side": "axis", "kind": "hq", "hq": "2PzG"},
         "Guderian": {"side": "axis", "kind": "interrupt", "hq": "2PzG"},
         "su-13A": {"side": "soviet", "kind": "hq", "hq": "13A"}}


def units(**over: dict[str, Any]) -> dict[str, dict[str, Any]]:
    out = {
        "2PzG": U("axis", "hq", 1, 2, 8, steps=1, type="panzergruppe", start="1510", formation="2PzG",
                  command_range=4),
        "3Pz": U("axis", "mech", 8, 6, 12, start="1511", formation="2PzG"),
        "4Pz": U("axis", "mech", 8, 6, 12, start="1410", formation="2PzG"),
        "9Inf": U("axis", "foot", 4, 4, 6, start="1610", formation="9A"),
        "13A": U("soviet", "hq", 1, 2, 6, steps=1, type="army", start="1515", command_range=4),
        "s1": U("soviet", "foot", 3, 4, 6, start="1513"),
        "s2": U("soviet", "foot", 3, 4, 6, start="1613"),
    }
    out.update(over)
    return out


def build(game: str = "ava", **kw: Any) -> tuple[Any, dict[str, Any]]:
    data = avahelp.mini(game=game, units=kw.pop("units", units()), chits=kw.pop("chits", CHITS),
                        supply={"axis": ["1001"], "soviet": ["2030"]}, **kw)
    g = GAME if game == "ava" else FFS_GAME
    rules = g.rules(data, kw.pop("options", {}))
    return rules, rules.initial_state()


def play(rules: Any, state: dict[str, Any], text: str, dice: Any = None) -> list[str]:
    d = rules.pending(state)
    order = rules.fill_secrets(state, d.seat, rules.parse(text, state, d.seat), lambda: bytes(16))
    _, events = rules.apply(state, d.seat, order, dice or ScriptedDice())
    return [e.text for e in events]


def reveal(rules: Any, state: dict[str, Any], dice: Any = None) -> list[str]:
    d = rules.pending(state)
    assert d.kind == "reveal" and d.private
    _, events = rules.apply(state, d.seat, rules.private_answer(state, d), dice or ScriptedDice())
    return [e.text for e in events]


def to_selection(rules: Any, state: dict[str, Any]) -> None:
    play(rules, state, "end-combat")          # no Surprise Attack made


# --------------------------------------------------------------- Surprise Attack
@pytest.mark.parametrize("game", ["ava", "ffs"])
def test_15_1_surprise_attack_is_one_combat_segment_of_the_panzergruppe_formations(game: str) -> None:
    rules, st = build(game)
    d = rules.pending(st)
    assert (d.seat, d.kind) == ("axis", "combat") and d.prompt.startswith("Surprise Attack")
    assert [f["k"] for f in st["stack"]] == ["select", "combat"]        # no Movement Segment
    active = sorted(u for u, x in st["units"].items() if x["active"])
    assert active == ["2PzG", "3Pz", "4Pz"]                             # 9Inf is 9A's, not the PzG's
    with pytest.raises(IllegalOrder, match="not activated"):
        play(rules, st, "attack 1610 with 9Inf")


def test_15_1_surprise_attack_ends_in_the_first_selection_phase() -> None:
    rules, st = build()
    to_selection(rules, st)
    d = rules.pending(st)
    assert (d.seat, d.kind, st["turn"]) == ("axis", "chits", 1)
    assert not any(x["active"] for x in st["units"].values())


# --------------------------------------------------------------- Selection (6)
def test_6_1_a_selection_is_sealed_and_a_blind_program_applies_only_its_count() -> None:
    rules, st = build()
    to_selection(rules, st)
    blind = pickle.loads(pickle.dumps(st))
    blind["hidden"]["axis"] = None
    d = rules.pending(st)
    order = rules.fill_secrets(st, "axis", rules.parse("chits ax-2PzG Guderian", st, "axis"), lambda: bytes(16))
    assert order["count"] == 1 and order["hand"] == ["Guderian"]
    assert rules.format(order) == "chits (1 sealed) Guderian"              # the log never names a cupped chit
    rules.apply(st, d.seat, order, ScriptedDice())
    public = {k: v for k, v in order.items() if k != "secret"}
    rules.apply(blind, d.seat, public, ScriptedDice())
    assert {k: v for k, v in st.items() if k != "hidden"} == {k: v for k, v in blind.items() if k != "hidden"}
    assert st["cup"] == ["sealed:a1.1"] and st["hidden"]["axis"]["chits"] == {"a1.1": ["ax-2PzG", 1]}
    assert st["hand"]["axis"] == ["Guderian"]                                # 6.3: public by ruling


def test_6_2_the_soviet_selects_at_most_his_quota_refused_in_one_line() -> None:
    chits = dict(CHITS, **{f"su-{n}A": {"side": "soviet", "kind": "hq", "hq": "13A"} for n in (3, 4, 5, 6)})
    rules, st = build(chits=chits)
    to_selection(rules, st)
    play(rules, st, "chits ax-2PzG")
    with pytest.raises(IllegalOrder) as exc:
        play(rules, st, "chits su-3A su-4A su-5A su-6A")
    assert "3" in str(exc.value) and "\n" not in str(exc.value)


def test_6_2_both_selections_fill_the_cup_with_the_supply_check_face_up() -> None:
    rules, st = build()
    to_selection(rules, st)
    play(rules, st, "chits ax-2PzG")
    d = rules.pending(st)
    assert (d.seat, d.kind) == ("soviet", "chits")
    events = play(rules, st, "chits su-13A", ScriptedDice(draws=["supply"], seed=1))
    assert "Turn 1: 3 chits in the cup" in events and "Drawn: supply" in events


# --------------------------------------------------------------- Command (7)
def _cup_with_guderian(game: str = "ava") -> tuple[Any, dict[str, Any]]:
    rules, st = build(game)
    to_selection(rules, st)
    play(rules, st, "chits ax-2PzG Guderian")
    return rules, st


def test_7_1_a_face_down_chit_drawn_is_revealed_by_its_owner_program() -> None:
    rules, st = _cup_with_guderian()
    play(rules, st, "chits su-13A", ScriptedDice(draws=["sealed:s1.1"]))
    d = rules.pending(st)
    assert (d.seat, d.kind, d.private) == ("soviet", "reveal", True)
    with pytest.raises(IllegalOrder, match="the reveal opens it, and nothing else"):
        play(rules, st, "chits su-13A")


def test_7_3_the_axis_holding_guderian_may_cancel_any_draw_and_the_chit_goes_back() -> None:
    rules, st = _cup_with_guderian()
    play(rules, st, "chits su-13A", ScriptedDice(draws=["sealed:s1.1"]))
    reveal(rules, st)
    d = rules.pending(st)
    assert (d.seat, d.kind) == ("axis", "interrupt") and d.options == ("interrupt no", "interrupt Guderian")
    events = play(rules, st, "interrupt Guderian")
    assert "Guderian cancels su-13A, which goes back in the cup" in events
    assert "su-13A" in st["cup"] and st["hand"]["axis"] == [] and st["active"] == "axis"
    assert rules.pending(st).kind == "move"                              # 2PzG's activation


def test_7_3_a_standing_order_answers_the_interrupt_window() -> None:
    rules, st = _cup_with_guderian()
    play(rules, st, "chits su-13A", ScriptedDice(draws=["sealed:s1.1"]))
    reveal(rules, st)
    d = rules.pending(st)
    assert rules.standing_answer(st, d, {"interrupt": "never"}) == {"verb": "interrupt", "chit": None}
    assert rules.standing_answer(st, d, {"interrupt": "enemy"})["chit"] == "Guderian"
    assert rules.standing_answer(st, d, {"interrupt": "ask"}) is None


def _empty_cup_with_guderian(game: str) -> tuple[Any, dict[str, Any]]:
    rules, st = _cup_with_guderian(game)
    play(rules, st, "chits su-13A", ScriptedDice(draws=["sealed:a1.1"]))
    reveal(rules, st)
    play(rules, st, "interrupt no")                        # 2PzG activates by its own chit
    play(rules, st, "end-move")
    play(rules, st, "end-combat", ScriptedDice(draws=["sealed:s1.1"]))
    reveal(rules, st)
    play(rules, st, "interrupt no")
    play(rules, st, "end-move")
    events = play(rules, st, "end-combat", ScriptedDice(draws=["supply"]))
    assert "Drawn: supply" in events
    play(rules, st, "interrupt no")
    return rules, st


def test_7_3_ava_an_unplayed_interrupt_is_played_before_the_end_phase() -> None:
    rules, st = _empty_cup_with_guderian("ava")
    assert rules.pending(st).kind == "move" and st["active"] == "axis"      # forced Guderian
    assert st["played"][-1] == "Guderian"


def test_7_3_3_ffs_an_unplayed_guderian_may_be_played_at_the_end_of_the_cup() -> None:
    rules, st = _empty_cup_with_guderian("ffs")
    d = rules.pending(st)
    assert (d.seat, d.kind) == ("axis", "endcup") and "interrupt no" in d.options
    events = play(rules, st, "interrupt no")
    assert "Guderian not played this turn (7.3.3)" in events
    assert st["turn"] == 2 and rules.pending(st).kind == "chits"


# --------------------------------------------------------------- Combat (10)
def _surprise(game: str, attack: str) -> tuple[Any, dict[str, Any]]:
    rules, st = build(game, units=units(**{"3Pz": U("axis", "mech", 20, 6, 12, start="1512", formation="2PzG")}))
    play(rules, st, attack)
    return rules, st


def test_10_2_ava_every_attack_is_declared_before_the_first_roll() -> None:
    rules, st = _surprise("ava", "attack 1513 with 3Pz")   # ScriptedDice() fails on any roll
    assert st["stack"][-1]["declared"] == [{"hex": "1513", "units": ["3Pz"]}]
    play(rules, st, "attack 1613 with 4Pz 2PzG") if "attack 1613" in " ".join(rules.pending(st).options) else None
    d = rules.pending(st)
    assert d.kind == "combat"
    events = play(rules, st, "end-combat", ScriptedDice([(6, 4)], seed=1))
    assert any(e.startswith("Attack on 1513 at") for e in events)


def test_10_2_ffs_an_attack_is_resolved_as_it_is_made() -> None:
    rules, st = build("ffs", units=units(**{"3Pz": U("axis", "mech", 20, 6, 12, start="1512", formation="2PzG")}))
    events = play(rules, st, "attack 1513 with 3Pz", ScriptedDice([(6, 1, "Axis d6")]))
    assert any(e.startswith("Attack on 1513 at 5:1: d6 1") for e in events)


def test_10_5_the_defender_allocates_its_step_losses() -> None:
    # 20 against 4 is 5:1; on the TEST CRT a 5 there is 1RR: one step, then two hexes of retreat
    us = units(**{"3Pz": U("axis", "mech", 20, 6, 12, start="1512", formation="2PzG"),
                  "s3": U("soviet", "foot", 0, 0, 6, start="1513")})
    us["s1"] = U("soviet", "foot", 3, 2, 6, start="1513")
    us["s3"] = U("soviet", "foot", 3, 2, 6, start="1513")
    rules, st = build("ava", units=us)
    play(rules, st, "attack 1513 with 3Pz")
    play(rules, st, "end-combat", ScriptedDice([(6, 5)]))
    d = rules.pending(st)
    assert (d.seat, d.kind, d.policy) == ("soviet", "loss", "losses")
    assert set(d.options) == {"loss s1 1", "loss s3 1"}
    with pytest.raises(IllegalOrder):
        play(rules, st, "loss s1 1 s3 1")
    play(rules, st, "loss s3 1")
    assert st["units"]["s3"]["steps"] == 1
    assert rules.pending(st).seat == "soviet" or rules.pending(st).kind == "advance"


def test_10_7_the_attacker_decides_the_advance() -> None:
    rules, st = _surprise("ava", "attack 1513 with 3Pz")
    play(rules, st, "end-combat", ScriptedDice([(6, 6)]))     # 5:1, 6 = 1RR
    while rules.pending(st).seat == "soviet":
        d = rules.pending(st)
        play(rules, st, d.options[0])
    d = rules.pending(st)
    assert (d.seat, d.kind, d.policy) == ("axis", "advance", "advance")
    assert d.options[0] == "pass" and "advance 3Pz 1513" in d.options


# --------------------------------------------------------------- refusals
def test_an_order_from_the_seat_not_deciding_is_refused_in_one_line() -> None:
    rules, st = build()
    with pytest.raises(IllegalOrder) as exc:
        rules.apply(st, "soviet", {"verb": "end-combat"}, ScriptedDice())
    assert str(exc.value) == "it is the Axis player's decision (combat), not the Soviet"


@pytest.mark.parametrize("text", ["move 3Pz 1512", "chits su-13A", "loss s1 1", "resolve 1513", "fortress 1513"])
def test_a_wrong_kind_of_order_is_refused_in_one_line(text: str) -> None:
    rules, st = build()
    with pytest.raises(IllegalOrder) as exc:
        play(rules, st, text)
    assert "\n" not in str(exc.value)


# --------------------------------------------------------------- queries and view
def test_queries_reach_odds_loc() -> None:
    rules, st = build()
    assert rules.query(st, "axis", "odds 1513 with 3Pz").startswith("attack on 1513: ")
    assert "not activated" in rules.query(st, "axis", "odds 1611 with 9Inf") or \
        "illegal" in rules.query(st, "axis", "odds 1611 with 9Inf")
    assert "traces" in rules.query(st, "soviet", "loc s1")
    assert rules.query(st, "axis", "reach 3Pz").startswith("3Pz from 1511")
    with pytest.raises(IllegalOrder):
        rules.query(st, "axis", "weather")


def test_the_view_says_practice_and_hides_the_other_sides_chits() -> None:
    rules, st = _cup_with_guderian()
    v = rules.view(st, "soviet")
    assert v.practice and "PRACTICE" in v.title
    text = repr(v)
    assert "ax-2PzG" not in text and "Guderian" in text       # the hand is public, the cup is not
    assert "ax-2PzG" in repr(rules.view(st, "axis"))


# --------------------------------------------------------------- Reserve / OKH (optional)
def test_17_2_ffs_16_2_the_reserve_die_then_the_owner_picks_and_units_out_of_range_may_not_attack() -> None:
    chits = dict(CHITS, **{"SU-res": {"side": "soviet", "kind": "reserve"}})
    us = units(s9=U("soviet", "foot", 3, 4, 6, start="1528"), a9=U("axis", "foot", 3, 4, 6, start="1527"))
    rules, st = build("ffs", chits=chits, units=us, options={"reserve_okh": True},
                      params={"reserve_table": [1, 1, 2, 2, 3, 3]})
    to_selection(rules, st)
    play(rules, st, "chits ax-2PzG Guderian")
    play(rules, st, "chits su-13A SU-res", ScriptedDice(draws=["sealed:s1.2"]))
    reveal(rules, st)
    events = play(rules, st, "interrupt no", ScriptedDice([(6, 3, "SU-res")]))
    assert "SU-res: d6 3 -> 2 unit(s) may be activated (17.2)" in events
    d = rules.pending(st)
    assert (d.seat, d.kind) == ("soviet", "pick")
    with pytest.raises(IllegalOrder):
        play(rules, st, "pick s1 s2 s9")                    # three for a roll worth two
    play(rules, st, "pick s1 s9")
    assert st["units"]["s9"]["reserve_out"] and st["units"]["s9"]["reserve_attack"] == "none"
    assert st["units"]["s1"]["reserve_attack"] == "full"   # in 13A's range
    play(rules, st, "end-move")
    with pytest.raises(IllegalOrder, match="may not attack"):
        play(rules, st, "attack 1527 with s9")
