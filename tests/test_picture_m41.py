"""Map pictures of Moscow '41 (issue 12 items 1-2): every area and box with
its terrain, control and blocks as the viewer may see them (his own with
identity and strength, the opponent's as tokens and wood colours); the
terminal's whole-map list of areas with terrain, neighbours and occupants;
and no picture naming a block its viewer may not identify (searched in the
SVG text and the data the PNG is drawn from, as test_view_m41 does for
the text)."""
from __future__ import annotations

import io
import xml.etree.ElementTree as ET

from PIL import Image

from pbem.game import AreaMapPicture, View
from pbem.render import picture
from pbem.render.canvas import colour_of
from pbem.render.view import render_text
from m41help import RULES, SC, hidden_blocks, seen_blocks, started
from picturehelp import SVG, png_chunks, rgb

SEATS = ("german", "soviet", None)


def test_png_and_svg_of_the_area_map_decode_with_areas_and_blocks():
    state = started()
    view = RULES.view(state, "german")
    pic = picture.map_block(view)
    assert isinstance(pic, AreaMapPicture) and len(pic.areas) == len(SC.graph.areas)
    data = picture.png(view)
    img = Image.open(io.BytesIO(data))
    canvas = picture.layout(view)
    assert img.size == (canvas.width, canvas.height) and set(png_chunks(data)) == {b"IHDR", b"IDAT", b"IEND"}
    root = ET.fromstring(picture.svg(view))
    cards = {r.get("data-area"): r for r in root.iter(f"{SVG}polygon") if r.get("data-area")}
    assert set(cards) == set(SC.graph.areas)
    assert cards["12"].get("fill") == colour_of("victory", picture.TERRAIN)
    # a known pixel: the victory colour just inside area 12's card, below its label
    pts = [tuple(map(float, p.split(","))) for p in cards["12"].get("points").split()]
    x0, y0 = min(p[0] for p in pts), min(p[1] for p in pts)
    x1, y1 = max(p[0] for p in pts), max(p[1] for p in pts)
    assert img.getpixel((round(x1 - 8), round(y1 - 8))) == rgb(colour_of("victory", picture.TERRAIN))
    assert x1 - x0 > 100 and y1 - y0 > 80
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "12 Smolensk" in texts and "37 Moscow" in texts and any(t.startswith("Practice map") for t in texts)
    own = [p for a in pic.areas for p in a.pieces if p.side == "german"]
    enemy = [p for a in pic.areas for p in a.pieces if p.side == "soviet"]
    assert own and all(not p.face_down and p.strength for p in own)
    assert enemy and all(p.face_down and not p.strength and p.colour for p in enemy if not p.strength)
    assert {p.label for p in own} <= set(texts)


def test_the_terminal_lists_every_area_with_terrain_neighbours_and_occupants():
    state = started()
    text = render_text(RULES.view(state, "soviet"), width=100, map="all")
    for area in SC.graph.areas:
        assert f"area: {SC.area_label(area)}" in text or SC.area_label(area) in text, area
    assert "neighbours: " in text and "terrain: victory" in text and "river Dnieper" in text
    assert "occupants: " in text


def test_no_area_picture_names_a_block_its_viewer_may_not_identify():
    state = started()
    checked = 0
    for seat in SEATS:
        view = RULES.view(state, seat)
        pic = picture.map_block(view)   # the picture's own data (the view's legend quotes example names)
        data = [picture.svg(view).decode(), repr(pic), render_text(View("map", (pic,)), map="all")]
        seen = seen_blocks(state, seat)
        for side in ("german", "soviet"):
            if side == seat:
                continue
            words = {w for ws in hidden_blocks(state, side).values() for w in ws} - seen
            # the short ids the picture writes on a block, but not those that are also area names (16A)
            words |= {w.split("-", 1)[1] for w in words if w[:2] in ("G-", "S-")} - set(SC.graph.areas)
            checked += len(words)
            leaks = [w for w in words for d in data if w in d]
            assert not leaks, (seat, side, leaks)
    assert checked
