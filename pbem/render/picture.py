"""Map pictures: a view's whole-map block (:class:`pbem.game.HexMapPicture`
or :class:`pbem.game.AreaMapPicture`) drawn as SVG or PNG, for ``pbem map``
and the mail.

A picture shows only the data of the view it is drawn from, and a game
builds a view from a state holding no hidden part but its viewer's own:
so the picture carries nothing that viewer may not see.  The PNG holds no
text chunk or other metadata (:mod:`pbem.render.canvas`).

Layout: a heading (the view's title and, for practice data, a yellow
"Practice map" banner), the map, and a legend (terrain colours, line
kinds, sides, the game's own legend).  Hex maps are drawn as printed (flat
or pointy tops, shoved columns or rows); areas at their centre points, or
in a row of boxes where the scenario gives none.
"""
from __future__ import annotations

import math
import textwrap

from pbem.board.hexgrid import HexGrid
from pbem.game import AreaMapPicture, HexMapPicture, MapPicture, Piece, View
from pbem.render.canvas import Canvas, colour_of, fit_size, text_width, to_png, to_svg
from pbem.render import picture_areas

TERRAIN = {
    "clear": "#f3efd8", "woods": "#a9cc8e", "forest": "#93bf7d", "swamp": "#a3d3cb", "marsh": "#a3d3cb",
    "city": "#cfc8bb", "town": "#e6dcc8", "hill": "#d8bd86", "hills": "#d8bd86", "rough": "#d8bd86",
    "mountain": "#b89b74", "green": "#cfe4ad", "yellow": "#f1dd8a", "victory": "#f2b7a2", "staging": "#dcdcec",
    "box": "#eeeeee",
}
SIDE = {"german": "#9fb0c2", "soviet": "#d0674c", "axis": "#9fb0c2", "allied": "#7fa7d8"}
WOOD = {"red": "#c0392b", "green": "#3f8f3f", "pink": "#e89ac0", "lightblue": "#8fc6ea", "blue": "#2f5fb3",
        "white": "#f7f7f2", "black": "#222222", "brown": "#8a5a2b", "yellow": "#f0d040", "zhukov": "#b0122a",
        "leader": "#d4af37"}
MARKER = {"OoS": ("OoS", "#f39c12"), "isolated": ("ISO", "#c0392b"), "active": ("ACT", "#27ae60")}
RIVER, ROAD, RAIL, BRIDGE = "#2f6fd0", "#9a5b2a", "#333333", "#7f7f7f"
STAR = {"victory-minor": "#2f6fd0", "victory-major": "#e0a800"}
INK, FAINT = "#222222", "#666666"
HEX = 38             # a hex's circumradius, in pixels
PRACTICE_LABEL = "Practice map"


class NoPicture(ValueError):
    """The view has no whole-map picture block."""


def map_block(view: View) -> MapPicture:
    """The view's whole-map picture block; NoPicture if it has none."""
    for block in view.blocks:
        if isinstance(block, (HexMapPicture, AreaMapPicture)):
            return block
    raise NoPicture("this game draws no map picture")


def svg(view: View) -> bytes:
    """The whole map of ``view`` as an SVG document."""
    return to_svg(layout(view), view.title)


def png(view: View) -> bytes:
    """The whole map of ``view`` as a PNG image."""
    return to_png(layout(view))


def layout(view: View) -> Canvas:
    """Heading, map and legend of ``view`` as one canvas."""
    block = map_block(view)
    body = _hex_body(block) if isinstance(block, HexMapPicture) else picture_areas.body(block)
    width = max(body.width, 900)
    head = 46 + (30 if view.practice else 0)
    legend_lines = _legend_lines(block, width)
    keys = _keys(block)
    foot = 24 + 22 * ((len(keys) + 5) // 6) + 16 * len(legend_lines) + 16
    canvas = Canvas(width, head + body.height + foot)
    canvas.text((12, 22), view.title, 18, INK, "start", True, **{"class": "title"})
    if view.practice:
        canvas.rect(8, 44, width - 16, 24, "#fff3b0", "#c9a800", 1, **{"class": "practice"})
        canvas.text((16, 56), f"{PRACTICE_LABEL} - {view.practice}", 12, INK, "start", True)
    for shape in body.shapes:
        canvas.shapes.append(_moved(shape, 0, head))
    y = head + body.height + 16
    for i, (kind, name, colour) in enumerate(keys):
        x, yy = 12 + (i % 6) * (width - 24) / 6, y + 22 * (i // 6)
        if kind == "fill":
            canvas.rect(x, yy - 7, 22, 14, colour, INK, 1)
        else:
            canvas.line((x, yy), (x + 22, yy), colour, 4 if kind == "river" else 3, kind == "rail")
        canvas.text((x + 28, yy), name, 11, INK, "start")
    y += 22 * ((len(keys) + 5) // 6)
    for line in legend_lines:
        canvas.text((12, y), line, 11, FAINT, "start")
        y += 16
    return canvas


def _moved(shape: tuple, dx: float, dy: float) -> tuple:
    def m(p: tuple[float, float]) -> tuple[float, float]:
        return (p[0] + dx, p[1] + dy)

    kind = shape[0]
    if kind == "poly":
        return (kind, [m(p) for p in shape[1]], *shape[2:])
    if kind == "line":
        return (kind, m(shape[1]), m(shape[2]), *shape[3:])
    return (kind, m(shape[1]), *shape[2:])


def _legend_lines(block: MapPicture, width: int) -> list[str]:
    chars = max(40, int((width - 24) / (11 * 0.56)))
    return textwrap.wrap(block.legend, chars, break_long_words=False) if block.legend else []


def _keys(block: MapPicture) -> list[tuple[str, str, str]]:
    if isinstance(block, HexMapPicture):
        terrains = sorted({"clear", *block.terrain.values()})
        sides = sorted({p.side for s in block.stacks.values() for p in s})
        lines = [("river", "minor river", RIVER), ("river", "major river", RIVER), ("road", "road", ROAD),
                 ("road", "bridge", BRIDGE)]
    else:
        terrains = sorted({a.terrain for a in block.areas if a.terrain})
        sides = sorted({p.side for a in block.areas for p in a.pieces} | {a.control for a in block.areas if a.control})
        feats = {f.split(":")[0] for link in block.links for f in link.features}
        lines = [(k, k, c) for k, c in (("river", RIVER), ("road", ROAD), ("rail", RAIL)) if k in feats]
    return ([("fill", t, colour_of(t, TERRAIN)) for t in terrains] + lines
            + [("fill", s, colour_of(s, SIDE)) for s in sides])


# ------------------------------------------------------------------ hexes


def hex_geometry(grid: HexGrid, size: float = HEX) -> tuple[float, float, object]:
    """(width, height, centre function) of a grid's picture, before the
    heading is added: ``centre(h)`` is a hex's centre in pixels."""
    flat = grid.flat
    step_w = 1.5 * size if flat else math.sqrt(3) * size
    step_h = math.sqrt(3) * size if flat else 1.5 * size
    margin = 14

    def centre(h: str) -> tuple[float, float]:
        col, row = grid.col_row(h)
        x = margin + (size if flat else step_w / 2) + (col - grid.first_col) * step_w
        y = margin + (step_h / 2 if flat else size) + (row - grid.first_row) * step_h
        if grid.is_shoved(col, row):
            if flat:
                y += step_h / 2
            else:
                x += step_w / 2
        return x, y

    cols, rows = grid.last_col - grid.first_col + 1, grid.last_row - grid.first_row + 1
    if flat:
        w, hgt = 2 * margin + 2 * size + (cols - 1) * step_w, 2 * margin + (rows + 0.5) * step_h
    else:
        w, hgt = 2 * margin + (cols + 0.5) * step_w, 2 * margin + 2 * size + (rows - 1) * step_h
    return w, hgt, centre


def corners(grid: HexGrid, c: tuple[float, float], size: float = HEX) -> list[tuple[float, float]]:
    start = 0 if grid.flat else 30
    return [(c[0] + size * math.cos(math.radians(start + 60 * i)), c[1] + size * math.sin(math.radians(start + 60 * i)))
            for i in range(6)]


def hex_centre(view: View, h: str) -> tuple[float, float]:
    """Where hex ``h``'s centre falls on the picture of ``view`` (for
    tests and image maps)."""
    block = map_block(view)
    assert isinstance(block, HexMapPicture)
    grid = HexGrid(*block.grid)
    _, _, centre = hex_geometry(grid)
    x, y = centre(h)  # type: ignore[operator]
    return x, y + 46 + (30 if view.practice else 0)


def _hex_body(pic: HexMapPicture) -> Canvas:
    grid = HexGrid(*pic.grid)
    w, hgt, centre_of = hex_geometry(grid)
    canvas = Canvas(math.ceil(w), math.ceil(hgt))
    centres = {h: centre_of(h) for h in grid.hexes()}  # type: ignore[operator]
    for h, c in centres.items():
        terrain = pic.terrain.get(h, "clear")
        canvas.poly(corners(grid, c), colour_of(terrain, TERRAIN), "#8c8c7a", 1, data_hex=h, data_terrain=terrain,
                    **{"class": "hex"})
    for key, feats in sorted(pic.hexsides.items()):
        a, b = key.split("|")
        if a not in centres or b not in centres:
            continue
        ca, cb = centres[a], centres[b]
        mx, my = (ca[0] + cb[0]) / 2, (ca[1] + cb[1]) / 2
        dx, dy = (cb[0] - ca[0]), (cb[1] - ca[1])
        n = math.hypot(dx, dy) or 1
        ex, ey = -dy / n * HEX / 2, dx / n * HEX / 2
        river = "major_river" in feats or "minor_river" in feats
        if river:
            canvas.line((mx - ex, my - ey), (mx + ex, my + ey), RIVER, 6 if "major_river" in feats else 3,
                        dashed=False, data_side=key, **{"class": "river"})
        if "road" in feats:
            canvas.line(ca, cb, ROAD, 3, dashed=False, data_side=key, **{"class": "road"})
            if river:
                canvas.rect(mx - 5, my - 5, 10, 10, BRIDGE, INK, 1, data_side=key, **{"class": "bridge"})
    for h, c in centres.items():
        _hex_marks(canvas, pic, h, c)
    for h, stack in pic.stacks.items():
        if h in centres and stack:
            _stack(canvas, h, centres[h], stack)
    return canvas


def _hex_marks(canvas: Canvas, pic: HexMapPicture, h: str, c: tuple[float, float]) -> None:
    x, y = c
    canvas.text((x, y - 0.72 * HEX), h, 8, FAINT)
    place = pic.places.get(h, "")
    if place:
        canvas.text((x, y + 0.66 * HEX), place, fit_size(place, 9, 1.6 * HEX), INK, bold=True,
                    **{"class": "place"})
    marks = pic.marks.get(h, ())
    for m in marks:
        if m in STAR:
            star(canvas, (x - 0.55 * HEX, y - 0.35 * HEX), 7, STAR[m], data_mark=m)
        elif m == "city":
            canvas.rect(x + 0.42 * HEX, y - 0.45 * HEX, 8, 8, INK, data_mark=m)
    words = [m for m in marks if m not in STAR and m != "city"]
    if words:
        text = " ".join(words)
        canvas.text((x, y - 0.5 * HEX), text, fit_size(text, 7, 1.5 * HEX), "#6b2d8f", bold=False,
                    **{"class": "mark"})


def star(canvas: Canvas, c: tuple[float, float], r: float, colour: str, **attrs: str) -> None:
    pts = [(c[0] + (r if i % 2 == 0 else r * 0.45) * math.sin(math.pi * i / 5),
            c[1] - (r if i % 2 == 0 else r * 0.45) * math.cos(math.pi * i / 5)) for i in range(10)]
    canvas.poly(pts, colour, INK, 0.6, **attrs)


def counter(canvas: Canvas, x: float, y: float, w: float, h: float, p: Piece, where: str) -> None:
    """One counter or block, its top-left corner at (x, y)."""
    fill = colour_of(p.colour, WOOD) if p.face_down and p.colour else colour_of(p.side, SIDE)
    canvas.rect(x, y, w, h, fill, INK, 1.2, data_at=where, data_side=p.side, **{"class": "counter"})
    if p.colour and not p.face_down:
        canvas.rect(x, y, 4, h, colour_of(p.colour, WOOD))
    ink = "#ffffff" if fill in (WOOD["black"], WOOD["blue"], WOOD["red"], WOOD["green"], WOOD["zhukov"]) else INK
    lines = [p.label] + ([p.strength] if p.strength and not p.face_down else []) + ([p.steps] if p.steps else [])
    step = h / (len(lines) + 1)
    for i, t in enumerate(lines):
        canvas.text((x + w / 2, y + step * (i + 1)), t, fit_size(t, 9 if i == 0 else 8, w - 3), ink,
                    bold=i == 0, **({"class": "label"} if i == 0 else {}))
    for i, m in enumerate(p.markers):
        tag, colour = MARKER.get(m, (m, "#8e44ad"))
        tw = text_width(tag, 7) + 4
        canvas.rect(x - 2, y + h - 6 + 9 * i - 9 * (len(p.markers) - 1), tw, 9, colour, INK, 0.5)
        canvas.text((x - 2 + tw / 2, y + h - 1.5 + 9 * i - 9 * (len(p.markers) - 1)), tag, 7, "#ffffff",
                    bold=False, **{"class": "marker"})


def _stack(canvas: Canvas, h: str, c: tuple[float, float], stack: tuple[Piece, ...]) -> None:
    side = 0.84 * HEX
    x, y = c[0] - side / 2, c[1] - side / 2 + 2
    if len(stack) > 1:       # the units under the top one peek out behind it
        canvas.rect(x + 3, y - 3, side, side, colour_of(stack[1].side, SIDE), INK, 1)
    counter(canvas, x, y, side, side, stack[0], h)
    if len(stack) > 1:
        badge = f"+{len(stack) - 1}"
        canvas.circle((x + side + 1, y - 2), 8, "#ffe066", INK, 1, **{"class": "stack-count"})
        canvas.text((x + side + 1, y - 2), badge, 8, INK, bold=True)
