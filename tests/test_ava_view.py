"""The sitrep of both games (issue 10 "Sitrep"): turn, phase and who must
decide what; the cup with face-down chits hidden; a map window with hex ids
and stacks; units with strength, steps, LOC and fortress state; VP and the
scenario's victory conditions; the practice label."""
from __future__ import annotations

from typing import Any

import avahelp
import pytest
from fakedice import ScriptedDice

from pbem.game import HexMapBlock, TableBlock
from pbem.games.ava import FFS_GAME, GAME
from pbem.render.view import render_text

U = avahelp.unit
CHITS = {"supply": {"side": "common", "kind": "supply"},
         "ax-2PzG": {"side": "axis", "kind": "hq", "hq": "2PzG"},
         "Guderian": {"side": "axis", "kind": "interrupt", "hq": "2PzG"},
         "su-13A": {"side": "soviet", "kind": "hq", "hq": "13A"}}
SEATS = ("axis", "soviet", None)


def build(game: str) -> tuple[Any, dict[str, Any]]:
    units = {"2PzG": U("axis", "hq", 1, 2, 8, steps=1, type="panzergruppe", start="1510", command_range=4),
             "3Pz": U("axis", "mech", 8, 6, 12, start="1511"),
             "13A": U("soviet", "hq", 1, 2, 6, steps=1, type="army", start="1515", command_range=4),
             "s1": U("soviet", "foot", 3, 4, 6, start="1513"),
             "s2": U("soviet", "foot", 3, 4, 6, start="1020")}
    # s2 stands among lakes: it traces no LOC
    lakes = avahelp.scenario().map.neighbors("1020")
    data = avahelp.mini(game=game, units=units, chits=CHITS, supply={"axis": ["1001"], "soviet": ["2030"]},
                        cities={"major_city": ["1513"]}, fortress={"1513": 1}, params={"surprise_attack": False},
                        terrain={"lake": lakes})
    rules = (GAME if game == "ava" else FFS_GAME).rules(data, {"hq_transfer": True})
    st = rules.initial_state()
    for text, seat in (("chits ax-2PzG Guderian", "axis"), ("chits su-13A", "soviet")):
        order = rules.fill_secrets(st, seat, rules.parse(text, st, seat), lambda: bytes(16))
        rules.apply(st, seat, order, ScriptedDice(draws=["sealed:s1.1"]))
    return rules, st


@pytest.mark.parametrize("game", ["ava", "ffs"])
def test_sitrep_shows_every_item_of_the_issue(game: str) -> None:
    rules, st = build(game)
    for seat in SEATS:
        view = rules.view(st, seat)
        text = render_text(view)
        # turn, phase and who must decide what
        assert "Turn 1, command: Soviet to decide - reveal" in text, seat
        # the cup: counts by side, face-down chits never named, the hand public
        assert "face down Axis 1, Soviet 0" in text and "known: supply" in text
        assert "Held in hand: Axis Guderian" in text
        assert ("ax-2PzG" in text) is (seat == "axis"), seat
        # a map window with hex ids and stacks
        maps = [b for b in view.blocks if isinstance(b, HexMapBlock)]
        assert maps and "1513" in maps[0].hexes and maps[0].cells["1513"] == "s1[F1]"
        # units with strength, steps, LOC and fortress state
        table = {b.title: b for b in view.blocks if isinstance(b, TableBlock)}["Soviet units on the map"]
        assert table.columns == ("unit", "hex", "strength", "steps", "LOC", "fortress", "status")
        rows = {r[0]: r for r in table.rows}
        assert rows["s1"][1:6] == ("1513", "3-4-3", "2/2", "yes", "+1")
        assert rows["s2"][4] == "NO"                                  # cut off by prohibited hexsides
        # VP and the victory conditions of the scenario; options in force; practice label
        assert "VP now: Axis" in text and "Supply Check" in text
        assert "Rule options: hq_transfer=True" in text
        assert view.practice


def test_sitrep_of_zhukov() -> None:
    rules, st = build("ava")
    st["zhukov"] = 1
    assert "Zhukov's Command declared on Turn 1 (18.1)" in render_text(rules.view(st, None))
