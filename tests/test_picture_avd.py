"""Map pictures of A Victory Denied (issue 12 item 1) and the whole map in
the terminal (item 2), from the states of a real scripted game: the PNG
decodes to the expected size with known pixels (a terrain colour, a
counter), the SVG parses with known elements (a hex's terrain, a counter's
label, the practice notice), and no picture of a seat holds the other
side's secret chits (searched in the SVG text and in the data the PNG is
drawn from; the PNG carries no text chunk)."""
from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from pbem.game import HexMapPicture, View
from pbem.render import picture
from pbem.render.canvas import colour_of
from pbem.render.view import render_text
from enginehelp import demo_states
from picturehelp import SVG, png_chunks, rgb, secret_chits

SEATS = ("german", "soviet", None)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return demo_states(tmp_path_factory, "avd", 6)


def _quiet_hex(pic: HexMapPicture, terrain: str) -> str:
    """A hex of ``terrain`` with nothing on it or across its sides."""
    busy = {h for key in pic.hexsides for h in key.split("|")} | set(pic.stacks) | set(pic.places) | set(pic.marks)
    grid = [h for h in sorted({*pic.terrain, *_all(pic)}) if pic.terrain.get(h, "clear") == terrain]
    return next(h for h in grid if h not in busy)


def _all(pic: HexMapPicture) -> list[str]:
    from pbem.board.hexgrid import HexGrid

    return HexGrid(*pic.grid).hexes()


def test_png_decodes_to_its_size_with_terrain_and_counter_pixels(game):
    rules, state, _, _ = game
    view = rules.view(state, "german")
    data = picture.png(view)
    img = Image.open(io.BytesIO(data))
    canvas = picture.layout(view)
    assert img.format == "PNG" and img.size == (canvas.width, canvas.height) and img.size[0] > 1000
    pic = picture.map_block(view)
    assert isinstance(pic, HexMapPicture)
    for terrain in ("woods", "clear", "swamp"):
        x, y = picture.hex_centre(view, _quiet_hex(pic, terrain))
        assert img.getpixel((round(x + 0.45 * picture.HEX), round(y))) == rgb(colour_of(terrain, picture.TERRAIN))
    h, stack = next((h, s) for h, s in sorted(pic.stacks.items())
                    if s[0].side == "german" and not s[0].markers and not s[0].steps)
    x, y = picture.hex_centre(view, h)
    assert img.getpixel((round(x - 0.36 * picture.HEX), round(y + 0.36 * picture.HEX))) == rgb(picture.SIDE["german"])


def test_png_has_no_text_chunk_or_metadata(game):
    rules, state, _, _ = game
    for seat in SEATS:
        data = picture.png(rules.view(state, seat))
        assert set(png_chunks(data)) == {b"IHDR", b"IDAT", b"IEND"}
        assert not Image.open(io.BytesIO(data)).info.get("dpi")


def test_svg_parses_with_hexes_counters_and_the_practice_notice(game):
    rules, state, _, _ = game
    view = rules.view(state, "soviet")
    root = ET.fromstring(picture.svg(view))
    assert root.tag == f"{SVG}svg" and int(root.get("width")) == picture.layout(view).width
    hexes = {p.get("data-hex"): p for p in root.iter(f"{SVG}polygon") if p.get("class") == "hex"}
    assert len(hexes) == 26 * 32
    assert hexes["3919"].get("data-terrain") == "city" and hexes["3919"].get("fill") == picture.TERRAIN["city"]
    assert hexes["1717"].get("fill") == picture.TERRAIN["woods"]
    texts = [t.text for t in root.iter(f"{SVG}text")]
    pic = picture.map_block(view)
    for stack in pic.stacks.values():
        assert stack[0].label in texts
    assert "Vitebsk" in texts and any(t.startswith("Practice map - PRACTICE DATA") for t in texts)
    labels = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "label"]
    assert len(labels) == len(pic.stacks)
    assert any(c.get("class") == "stack-count" for c in root.iter(f"{SVG}circle"))
    assert any(line.get("class") == "river" for line in root.iter(f"{SVG}line"))
    assert any(p.get("class") == "bridge" for p in root.iter(f"{SVG}polygon"))


def test_no_picture_holds_what_its_viewer_may_not_see(game):
    rules, state, _, _ = game
    checked = 0
    for seat in SEATS:
        view = rules.view(state, seat)
        data = [picture.svg(view).decode(), repr(picture.map_block(view)), render_text(view, map="all")]
        for other in ("german", "soviet"):
            if other == seat:
                continue
            secret = secret_chits(state, other)
            checked += len(secret)
            assert not [c for c in secret for d in data if c in d], (seat, other)
        assert "Your chits" not in data[0]
    assert checked


def test_the_whole_map_in_the_terminal_fits_its_width_and_cuts_no_name(game):
    rules, state, _, _ = game
    view = rules.view(state, "german")
    names = {p.label for s in picture.map_block(view).stacks.values() for p in s}
    for width in (80, 132, 200):
        text = render_text(view, width=width, map="all")
        maps = [part.split("A stack too long")[0] for part in text.split("\n-- ") if part.startswith("map: columns")]
        assert len(maps) > 1 and "map: legend" in text
        seen = re.findall(r"\b\d{4}\b", "\n".join(maps))
        grid = _all(picture.map_block(view))
        assert sorted(set(seen) & set(grid)) == sorted(grid)          # every hex drawn
        for part in maps:
            for line in part.splitlines()[1:]:
                assert len(line) <= width, (width, line)
                for word in line.split():
                    if re.fullmatch(r"\d{4}", word) or word.rstrip("*") in ("", "woods", "swamp", "city", "town", "hill"):
                        continue
                    items = word.split("+")
                    assert all(i in names for i in items[:-1]) and (items[-1] in names or items[-1].isdigit()), word
    window = render_text(view)
    assert "-- map --" in window and "columns" not in window       # the window stays the default


def test_a_view_without_a_picture_says_so():
    with pytest.raises(picture.NoPicture):
        picture.png(View("x", ()))
