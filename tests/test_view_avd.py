"""A Victory Denied: what each seat's view shows (7.1.3, 16.2), drawn by
pbem.render.view from the data the rules return."""
from __future__ import annotations

import copy
import re

import pytest
from rich.console import Console

from pbem import scenario
from pbem.game import HexMapBlock, View
from pbem.games.avd import GAME, orders
from pbem.render.view import render_rich, render_text
from avd_fixtures import SeededRng, practice_rules, select_both

GERMAN_CHITS = ["G-3PzG-1", "G-2PzG-1", "G-9A-1"]
SOVIET_CHITS = ["S-21A", "S-13A"]
SEATS = ("german", "soviet", None)


@pytest.fixture(scope="module")
def position():
    rules = practice_rules()
    st = select_both(rules, rules.initial_state(), "chits " + " ".join(GERMAN_CHITS + ["G-Guderian"]),
                     "chits " + " ".join(SOVIET_CHITS))
    return rules, st


def _both(view: View) -> str:
    console = Console(record=True, width=120, color_system=None)
    console.print(render_rich(view))
    return render_text(view) + console.export_text()


def test_every_seat_and_the_public_see_the_situation_map_units_and_victory(position):
    rules, st = position
    for seat in SEATS:
        text = render_text(rules.view(st, seat))
        assert text.startswith("A Victory Denied (practice map and tables) - Turn 1"), seat
        assert "PRACTICE DATA" in text.splitlines()[3]
        for want in ("-- situation --", "Pending: German - combat", "Cup: 7 chit(s)", "Stukas ready 3",
                     "-- map --", "-- German units on the map --", "-- Soviet units on the map --",
                     "17Pz     3215  9-2-10", "-- victory --", "in the German box: 2 (values hidden)"):
            assert want in text, (seat, want)


def test_7_1_3_no_seat_sees_the_other_sides_chits(position):
    rules, st = position
    texts = {seat: _both(rules.view(st, seat)) for seat in SEATS}
    assert "Your chits this turn (secret): G-2PzG-1, G-3PzG-1, G-9A-1" in texts["german"]
    assert "Your chits this turn (secret): S-13A, S-21A" in texts["soviet"]
    assert not [c for c in SOVIET_CHITS if c in texts["german"]]
    assert not [c for c in GERMAN_CHITS if c in texts["soviet"]]
    assert not [c for c in GERMAN_CHITS + SOVIET_CHITS if c in texts[None]]
    assert "Your chits" not in texts[None]


def test_a_view_depends_on_no_hidden_part_but_the_seats_own(position):
    rules, st = position
    for seat in SEATS:
        blind = copy.deepcopy(st)
        blind["hidden"] = {s: (h if s == seat else None) for s, h in blind["hidden"].items()}
        assert rules.view(st, seat) == rules.view(blind, seat)


def test_views_stay_secret_and_drawable_through_a_played_turn():
    from avd_fixtures import bot_order

    rules = practice_rules()
    st, rng = rules.initial_state(), SeededRng(5)
    checked = 0
    for _ in range(150):
        d = rules.pending(st)
        if d is None:
            break
        st, _ = rules.apply(st, d.side, bot_order(rules, st, d, rng), rng)
        for seat, other in (("german", "soviet"), ("soviet", "german"), (None, None)):
            text = render_text(rules.view(st, seat))
            for s in [other] if other else ["german", "soviet"]:
                secret = {c for c, _ in ((st["hidden"][s] or {}).get("chits") or {}).values()} - set(st["played"])
                checked += len(secret)
                assert not [c for c in secret if c in text], (seat, secret)
    assert checked and st["turn"] >= 2


def test_map_labels_are_whole_unit_names_or_a_top_unit_and_a_count(position):
    rules, st = position
    view = rules.view(st, "german")
    block = next(b for b in view.blocks if isinstance(b, HexMapBlock))
    names = {orders.short(rules.scn, u) for u in rules.scn.units}
    text = render_text(View("m", (block,)))
    picture = text.split("-- map --")[1].split("A stack lists")[0]
    stack = re.compile(r"^[^+]+(\+[^+]+)*$")
    for word in picture.split():
        if re.fullmatch(r"\d{4}", word) or word.rstrip("*") in ("", "wood", "swam", "city", "town", "hill", "fore"):
            continue
        assert stack.match(word), word
        items = word.split("+")
        assert all(i in names for i in items[:-1]) and (items[-1] in names or items[-1].isdigit()), word
    assert "A stack too long for its cell" in text           # 3014 holds 10Pz and SSReich: "10Pz+1"
    assert "10Pz+1" in picture


def test_the_map_picture_of_a_scenario_is_a_view():
    data = scenario.load_toml(scenario.find("avd/practice"))
    view = GAME.scenario_view(data)
    assert view.practice and [b.title for b in view.blocks][:2] == ["legend", "columns 15-26"]
    text = render_text(view, width=120)
    assert "terrain: first letter" in text and "1501" in text and "4032" in text
