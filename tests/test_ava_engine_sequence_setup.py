"""The set-up (AVA 4.0(2), FFS 4.0(2)/4.2) on a small map with deployment
zones: the Soviet first, then the Axis; the zone rules of each profile."""
from __future__ import annotations

from typing import Any

import avahelp
import pytest
from fakedice import ScriptedDice

from pbem.game import IllegalOrder
from pbem.games.ava import FFS_GAME, GAME

U = avahelp.unit
CHITS = {"supply": {"side": "common", "kind": "supply"},
         "ax-2PzG": {"side": "axis", "kind": "hq", "hq": "2PzG"},
         "su-13A": {"side": "soviet", "kind": "hq", "hq": "13A"}}
ZONES = {"red_area": ["1515", "1614", "1615"], "grey_range": ["1410", "1411", "1510", "1511"],
         "pzg_hex": ["1410"], "13A_hex": ["1516"]}


def units() -> dict[str, dict[str, Any]]:
    return {
        "2PzG": U("axis", "hq", 1, 2, 8, steps=1, type="panzergruppe", start="zone:pzg_hex", formation="2PzG",
                  command_range=4, flags=["with_combat_unit"]),
        "3Pz": U("axis", "mech", 8, 6, 12, start="zone:grey_range", formation="2PzG"),
        "4Pz": U("axis", "mech", 8, 6, 12, start="zone:grey_range", formation="2PzG"),
        "13A": U("soviet", "hq", 1, 2, 6, steps=1, type="army", start="zone:13A_hex", command_range=4),
        "s1": U("soviet", "foot", 3, 4, 6, start="zone:red_area"),
        "s2": U("soviet", "foot", 3, 4, 6, start="zone:red_area"),
        "s3": U("soviet", "foot", 3, 4, 6, start="zone:red_area"),
    }


def build(game: str = "ava") -> tuple[Any, dict[str, Any]]:
    data = avahelp.mini(game=game, units=units(), chits=CHITS, supply={"axis": ["1001"], "soviet": ["2030"]},
                        deployment=ZONES)
    rules = (GAME if game == "ava" else FFS_GAME).rules(data, {})
    return rules, rules.initial_state()


def play(rules: Any, st: dict[str, Any], text: str) -> list[str]:
    d = rules.pending(st)
    _, events = rules.apply(st, d.seat, rules.parse(text, st, d.seat), ScriptedDice())
    return [e.text for e in events]


def soviet_setup(rules: Any, st: dict[str, Any]) -> None:
    for t in ("place 13A 1516", "place s1 1515", "place s2 1615", "place s3 1614", "done"):
        play(rules, st, t)


@pytest.mark.parametrize("game", ["ava", "ffs"])
def test_4_0_2_the_soviet_sets_up_first_then_the_axis_then_the_surprise_attack(game: str) -> None:
    rules, st = build(game)
    d = rules.pending(st)
    assert (d.seat, d.kind, st["phase"]) == ("soviet", "setup", "setup")
    assert "place s1 1515" in d.options and "place s1 1410" not in d.options and "done" in d.options
    assert st["units"]["s1"] == dict(st["units"]["s1"], hex=None, box="zone:red_area")
    soviet_setup(rules, st)
    d = rules.pending(st)
    assert (d.seat, d.kind) == ("axis", "setup")
    for t in ("place 2PzG 1410", "place 3Pz 1410", "place 4Pz 1511", "done"):
        play(rules, st, t)
    d = rules.pending(st)
    assert (d.seat, d.kind) == ("axis", "combat") and d.prompt.startswith("Surprise Attack")
    assert st["units"]["3Pz"]["hex"] == "1410" and st["units"]["3Pz"]["box"] is None


def test_4_0_2_a_unit_sets_up_only_in_its_zone_two_a_hex() -> None:
    rules, st = build()
    with pytest.raises(IllegalOrder, match="zone red_area"):
        play(rules, st, "place s1 1516")
    play(rules, st, "place s1 1615")
    play(rules, st, "place s2 1615")
    with pytest.raises(IllegalOrder, match="already holds 2 units"):
        play(rules, st, "place s3 1615")
    with pytest.raises(IllegalOrder, match="not a Soviet unit"):
        play(rules, st, "place 3Pz 1410")
    play(rules, st, "place s1 1515")                       # placed again: moved
    assert st["units"]["s1"]["hex"] == "1515"


def test_4_0_2_a_every_hex_of_a_deployment_area_is_filled_in_ava_not_in_ffs() -> None:
    for game, refused in (("ava", True), ("ffs", False)):
        rules, st = build(game)
        for t in ("place 13A 1516", "place s1 1515", "place s2 1515", "place s3 1615"):
            play(rules, st, t)
        if refused:
            with pytest.raises(IllegalOrder, match=r"Deployment Area red_area: every hex holds a unit, 1614"):
                play(rules, st, "done")
        else:
            play(rules, st, "done")
            assert rules.pending(st).seat == "axis"


def test_4_0_2_c_a_deployment_hex_holds_a_unit_and_every_unit_is_placed() -> None:
    rules, st = build()
    with pytest.raises(IllegalOrder, match="4 unit.s. still to set up"):
        play(rules, st, "done")


def test_4_0_2_2pzg_sets_up_with_one_combat_unit_in_its_hex() -> None:
    rules, st = build()
    soviet_setup(rules, st)
    for t in ("place 2PzG 1410", "place 3Pz 1411", "place 4Pz 1511"):
        play(rules, st, t)
    with pytest.raises(IllegalOrder, match="2PzG sets up with one combat unit in its hex 1410"):
        play(rules, st, "done")
    play(rules, st, "place 3Pz 1410")
    play(rules, st, "done")
    assert rules.pending(st).kind == "combat"
