"""pbem.render.view draws any View (rich and plain text); games return
data and never import a renderer."""
from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner
from rich.console import Console

import pbem
from pbem.game import BaseGame, HexMapBlock, TableBlock, TextBlock, View
from pbem.render import hexmap
from pbem.render.view import render_rich, render_text

GAMES = Path(pbem.__file__).parent / "games"


def _rich_text(view: View, width: int = 100) -> str:
    console = Console(record=True, width=width, color_system=None)
    console.print(render_rich(view))
    return console.export_text()


SAMPLE = View("Sample - turn 2", (
    TextBlock("situation", ("Pending: red - move", "a secret note")),
    TextBlock("warning", ("mind the gap",), style="notice"),
    TableBlock("units", ("unit", "hex"), (("Timoshenko", "0101"), ("7Pz", "0202")), caption="two units"),
    HexMapBlock("map", (1, 4, 1, 4, "odd-q"), ("0101", "0303"),
                {"0101": "Timoshenko", "0202": "7Pz+20Pz+3Pz", "0303": "w"}, legend="w wood"),
), practice="PRACTICE DATA")


def test_plain_text_shows_every_block_and_the_practice_notice_first():
    text = render_text(SAMPLE)
    lines = text.splitlines()
    assert lines[0] == "Sample - turn 2" and "PRACTICE DATA" in lines[3]
    for want in ("-- situation --", "Pending: red - move", "*** mind the gap ***", "-- units --",
                 "Timoshenko  0101", "two units", "-- map --", "w wood", hexmap.SHORTENED):
        assert want in " ".join(text.split()) or want in text, want
    # The cells widen to Timoshenko (10): the stack keeps two names whole and counts the third.
    assert "7Pz+20Pz+1" in text and "3Pz" not in text.split("-- map --")[1].split("w wood")[0]


def test_rich_form_shows_the_same_content():
    text = _rich_text(SAMPLE)
    for want in ("Sample - turn 2", "PRACTICE DATA", "Pending: red - move", "mind the gap", "Timoshenko",
                 "two units", "7Pz+20Pz+1", "w wood"):
        assert want in text, want


def test_no_name_is_cut_in_a_narrow_rendering():
    names = ["Grossdeutschland", "Timoshenko", "Panzergruppe"]
    view = View("t", (TableBlock("long", ("unit", "note"), tuple((n, " ".join(names * 3)) for n in names)),
                      TextBlock("prose", (" ".join(names * 5),))))
    text = render_text(view, width=30)
    words = set(re.findall(r"[A-Za-z]+", text))
    assert set(names) <= words and not [w for w in words if w not in set(names) | {"t", "long", "prose", "unit",
                                                                                 "note"}]


def test_a_wide_table_is_written_a_row_at_a_time():
    view = View("t", (TableBlock("areas", ("area", "german", "soviet"),
                                 (("12 Smolensk", "G03 [G-3Pg-HQ Hoth:4], " * 5, "S08 (red)"),)),))
    text = render_text(view, width=60)
    assert "area: 12 Smolensk" in text and "  soviet: S08 (red)" in text
    assert max(len(line) for line in text.splitlines()) <= 60


def test_a_map_that_cannot_be_drawn_is_listed():
    view = View("t", (HexMapBlock("map", (1, 4, 1, 4, "odd-q"), ("01x1",), {"01x1": "7Pz"}),))
    assert "01x1  7Pz" in render_text(view)
    assert "7Pz" in _rich_text(view)


def test_the_default_scenario_view_says_there_is_no_picture():
    assert "no map picture" in render_text(BaseGame().scenario_view({}))


def test_scenario_map_command_draws_the_games_view():
    from pbem.cli import main

    result = CliRunner().invoke(main, ["scenario", "map", "avd/practice"])
    assert result.exit_code == 0, result.output
    assert "PRACTICE" in result.output and "-- columns 15-26 --" in result.output and "1501" in result.output
    result = CliRunner().invoke(main, ["scenario", "map", "m41/practice"])
    assert result.exit_code == 0 and "no map picture" in result.output, result.output


def test_no_game_module_imports_the_renderer():
    pattern = re.compile(r"^\s*(from\s+pbem(\.render|\s+import\s+[^#\n]*\brender\b)|import\s+pbem\.render"
                         r"|from\s+\.+render\b)", re.MULTILINE)
    offenders = [str(p.relative_to(GAMES)) for p in GAMES.rglob("*.py") if pattern.search(p.read_text())]
    assert not offenders, offenders
