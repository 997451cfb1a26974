"""Rule 9 inside the sequence: an attack's decisions in order (defensive
Stuka, Soviet 10, losses, retreat, advance), the Turn 1 shift, standing
orders, the notation and the sitrep's secrecy."""
from __future__ import annotations

import io

import pytest

from pbem.game import IllegalOrder
from pbem.games.avd import orders
from fakedice import ScriptedDice
from avd_fixtures import battle_setup, practice_rules, put, select_both


def test_9_4_1_german_attack_losses_retreat_then_advance(scripted_dice):
    rules = practice_rules()
    st, a, t = battle_setup(rules, "G-3Pz", "S-45C", "german")
    # 9 against 3 is 3-1; row 5 of the practice CRT there reads 1DR
    assert rules.scn.crt.rows[5][3] == "1DR"
    rng = scripted_dice([(6, 5, "German d6")])
    st, ev = rules.apply(st, "german", rules.parse(f"attack {t} with 3Pz", st, "german"), rng)
    assert any("at 3-1: die 5 -> 1DR" in e.text for e in ev)
    assert st["units"]["S-45C"]["steps"] == 1                     # one step, no choice to make
    d = rules.pending(st)
    if d.kind == "retreat":                                       # the Soviet picks among equal paths
        assert d.side == "soviet" and d.policy == "retreat"
        st, _ = rules.apply(st, "soviet", rules.parse(d.options[0], st, "soviet"), rng)
        d = rules.pending(st)
    assert rules.board(st).distance(st["units"]["S-45C"]["hex"], t) == 1
    assert (d.side, d.kind) == ("german", "advance")
    assert f"advance 3Pz {t}" in d.options
    assert any(len(o.split()) == 4 for o in d.options)            # motorized: a second hex too
    st, _ = rules.apply(st, "german", rules.parse(f"advance 3Pz {t}", st, "german"), rng)
    assert st["units"]["G-3Pz"]["hex"] == t
    assert rules.pending(st).kind == "combat"                     # back to the Combat Segment


def test_9_1_a_hex_is_attacked_once_per_combat_segment():
    rules = practice_rules()
    st, a, t = battle_setup(rules, "G-3Pz", "S-45C", "german")
    put(st, "G-4Pz", a, active=True)
    st, _ = rules.apply(st, "german", rules.parse(f"attack {t} with 3Pz", st, "german"), ScriptedDice(rolls=[(6, 1)]))
    with pytest.raises(IllegalOrder, match="already attacked"):
        rules.apply(st, "german", rules.parse(f"attack {t} with 4Pz", st, "german"), ScriptedDice(rolls=[(6, 1)]))


def test_9_3_4_defensive_stuka_is_asked_of_the_german_before_the_soviet_roll():
    rules = practice_rules()
    st, a, t = battle_setup(rules, "S-45C", "G-26ID", "soviet")
    rng = ScriptedDice(rolls=[(10, 1)])
    st, _ = rules.apply(st, "soviet", rules.parse(f"attack {t} with 45C", st, "soviet"), rng)
    d = rules.pending(st)
    assert (d.side, d.kind, d.policy) == ("german", "stuka", "stuka-defense")
    assert rng.log == []                                           # nothing rolled yet
    st, ev = rules.apply(st, "german", rules.standing_answer(st, d, {"stuka-defense": "always"}), rng)
    assert st["stukas_ready"] == 2 and st["stukas_used"] == 1
    assert any("at 1-1" in e.text for e in ev)                     # 3:3 is 1-1, clamped after the Stuka


def test_9_4_3_soviet_ten_draws_an_elite_unit_and_rolls_again(scripted_dice):
    rules = practice_rules()
    st, a, t = battle_setup(rules, "S-45C", "G-26ID", "soviet")
    st["stukas_ready"] = 0                                        # no Stuka question
    elite = sorted(u for u, x in st["units"].items() if x["where"] == "elite_cup")[0]
    rng = scripted_dice([(10, 10, "Soviet d10"), (10, 1, "Soviet d10")], draws=[elite])
    st, ev = rules.apply(st, "soviet", rules.parse(f"attack {t} with 45C", st, "soviet"), rng)
    assert st["units"][elite]["where"] == "map" and st["units"][elite]["hex"] == a
    assert sum("Soviet d10" in p for p in rng.log) == 2
    assert any("Soviet rolls 10" in e.text for e in ev)


def test_9_4_2_losses_standing_order_flips_two_units_rather_than_kill_one():
    rules = practice_rules()
    st, a, t = battle_setup(rules, "G-3Pz", "S-45C", "german", turn=1)
    put(st, "S-1MRD", t)                                           # red may stack with tan
    put(st, "G-4Pz", a, active=True)
    # 18 against 6 is 3-1, two columns right on Turn 1 (9.3.5): 5-1, where a
    # 5 reads 2DR (a German d6 never reaches the 9 row this test once used)
    assert rules.scn.crt.rows[5][5] == "2DR"
    rng = ScriptedDice(rolls=[(6, 5)])
    st, _ = rules.apply(st, "german", rules.parse(f"attack {t} with 3Pz 4Pz", st, "german"), rng)
    d = rules.pending(st)
    assert (d.side, d.kind, d.policy) == ("soviet", "loss", "losses")
    o = rules.standing_answer(st, d, {"losses": "reduce-strongest-first"})
    assert o["steps"] == {"S-45C": 1, "S-1MRD": 1}


def test_9_3_5_T28_turn_1_german_attacks_shift_two_columns_right():
    rules = practice_rules()
    st, a, t = battle_setup(rules, "G-3Pz", "S-45C", "german", turn=1)
    text = rules.query(st, "german", f"odds {t} with 3Pz")
    assert "3-1" in text and "Turn 1: 2 right" in text and text.splitlines()[-1].strip() == "-> 5-1"


def test_query_reach_lists_hexes_with_their_mp_cost():
    rules = practice_rules()
    st, a, t = battle_setup(rules, "G-3Pz", "S-45C", "german")
    text = rules.query(st, "german", "reach 3Pz")
    assert text.startswith("3 Pz from") and " MP" in text


# --------------------------------------------------------------- notation
@pytest.mark.parametrize("text", [
    "move 7Pz 3919 4019 4020", "strat 26ID 3508 3509", "attack 4121 with 7Pz 20Pz stuka",
    "attack 4121 with 7Pz", "guderian yes", "guderian no", "retreat 7Pz 4020", "retreat 4020 4021",
    "loss 20Pz 1 7Pz 1", "advance 7Pz 4121 4122", "pass", "end-move", "end-combat", "stuka no",
    "activate 9thArmy", "relocate 22ndArmy 3322", "buy 24thArmy 3524 chit", "place 172ID 3919", "air recover bomber 2620", "art 2717", "rocket 2518",
    "directive moscow", "release 28ID buy 1", "oos 7Pz 20Pz", "seed 7Pz 19Pz",
])
def test_orders_round_trip(text):
    rules = practice_rules()
    st = rules.initial_state()
    o = rules.parse(text, st, "german")
    assert rules.parse(rules.format(o), st, "german") == o


def test_orders_accept_ids_and_names_case_insensitively():
    rules = practice_rules()
    st = rules.initial_state()
    assert rules.parse("move g-7pz 3919 4019", st, "german")["unit"] == "G-7Pz"
    assert rules.parse("move 7PZ 3919 4019", st, "german")["unit"] == "G-7Pz"
    with pytest.raises(IllegalOrder, match="no unit called"):
        rules.parse("move 99Pz 3919", st, "german")
    with pytest.raises(IllegalOrder, match="not a hex"):
        rules.parse("move 7Pz 39X9", st, "german")


def test_chits_order_keeps_guderian_public_and_the_rest_secret():
    rules = practice_rules()
    o = rules.parse("chits g-3pzg-1 G-2PzG-1 g-guderian", rules.initial_state(), "german")
    assert o["guderian"] is True and o["secret"]["chits"] == ["G-3PzG-1", "G-2PzG-1"]
    assert orders.format(o, rules.scn) == "chits G-3PzG-1 G-2PzG-1 G-Guderian"


# ------------------------------------------------------------------ sitrep
def _text(view) -> str:
    from rich.console import Console

    from pbem.render.view import render_rich, render_text
    buf = io.StringIO()
    Console(file=buf, width=140, color_system=None).print(render_rich(view))
    return buf.getvalue() + render_text(view)


def test_7_1_3_sitrep_hides_the_opponents_chits_and_shows_the_practice_notice():
    rules = practice_rules()
    st = select_both(rules, rules.initial_state(), "chits G-3PzG-1 G-2PzG-1 G-9A-1 G-Guderian",
                     "chits S-21A S-13A")
    soviet_view = _text(rules.view(st, "soviet"))
    german_view = _text(rules.view(st, "german"))
    assert "G-2PzG-1" not in soviet_view and "G-9A-1" not in soviet_view
    assert "G-2PzG-1" in german_view                       # your own selection, marked secret
    assert "S-21A" not in german_view and "S-13A" not in german_view
    assert "PRACTICE" in soviet_view
    assert "Cup: 7 chit(s)" in soviet_view
