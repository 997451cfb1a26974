"""The whole map in the terminal (``pbem sitrep --map all``), from a view's
whole-map picture block.

* A hex map (:class:`pbem.game.HexMapPicture`) becomes windows of as many
  columns as fit the terminal's width, each a :class:`pbem.game.HexMapBlock`
  that :mod:`pbem.render.hexmap` draws: a hex shows its stack (top unit
  first; one too long for its cell becomes its top unit and a count,
  ``17Pz+1``), or where nothing stands its terrain and victory stars.
  Names are never cut.
* An area map (:class:`pbem.game.AreaMapPicture`) becomes a plan of the
  areas placed by their centre points (when the scenario gives them) and a
  table of every area with its terrain, control, neighbours (and what
  crosses each border) and occupants as the viewer may see them.

The callers (:mod:`pbem.render.view`) turn these blocks into text or rich
renderables; paging is the command's business.
"""
from __future__ import annotations

from pbem.board.hexgrid import HexGrid
from pbem.game import (
    Area, AreaMapPicture, Block, HexMapBlock, HexMapPicture, Piece, TableBlock, TextBlock, terrain_mark,
)
from pbem.render import hexmap

HEX_LEGEND = ("A hex shows its stack, top unit first, or where none stands its terrain (first four letters; "
              "clear blank) and * minor / ** major victory hex.")
STARS = {"victory-minor": "*", "victory-major": "**"}
CELL = 7            # the hex cell width the sitrep window uses


def hex_cell(pic: HexMapPicture, h: str) -> str:
    """A hex's text: its stack's labels joined by "+", top first, or its
    terrain and stars."""
    stack = pic.stacks.get(h)
    if stack:
        return hexmap.SEP.join(p.label for p in stack)
    terrain = pic.terrain.get(h, "clear")
    mark = "" if terrain == "clear" else terrain_mark(terrain.lower())
    return mark + "".join(STARS.get(m, "") for m in pic.marks.get(h, ()))


def hex_windows(pic: HexMapPicture, width: int) -> list[Block]:
    """The whole of ``pic`` as windows of columns at most ``width``
    characters wide (at least one column each)."""
    first_col, last_col, first_row, last_row, offset = pic.grid
    grid = HexGrid(first_col, last_col, first_row, last_row, offset)
    cells = {h: hex_cell(pic, h) for h in grid.hexes()}
    cell = hexmap.needed_width(cells.values(), CELL)
    room = width - (0 if grid.flat else (cell + 1) // 2)
    per = max(1, (room + 1) // (cell + 1))
    blocks: list[Block] = []
    for start in range(first_col, last_col + 1, per):
        stop = min(start + per, last_col + 1) - 1
        corners = (grid.hex_id(start, first_row), grid.hex_id(stop, last_row))
        title = f"{pic.title}: columns {start:02d}-{stop:02d}" if per <= last_col - first_col else pic.title
        blocks.append(HexMapBlock(title, pic.grid, corners,
                                  {h: t for h, t in cells.items() if t and start <= grid.col_row(h)[0] <= stop}))
    blocks.append(TextBlock(f"{pic.title}: legend", (HEX_LEGEND,)))
    return blocks


# ------------------------------------------------------------------ areas


def piece_text(p: Piece) -> str:
    """One piece as the viewer may see it: ``S07 (blue)`` for a block seen
    from behind, ``G-9A-HQ 9A HQ:3`` for one he may read."""
    text = p.label
    if p.face_down:
        text += f" ({p.colour})" if p.colour else " (face down)"
    elif p.strength:
        text += f":{p.strength}"
    if p.steps:
        text += f" {p.steps} steps"
    if p.markers:
        text += " [" + ", ".join(p.markers) + "]"
    return text


def _label(a: Area) -> str:
    return a.name if a.name == a.id else f"{a.id} {a.name}"


def area_table(pic: AreaMapPicture) -> TableBlock:
    """Every area with its terrain, control, neighbours and occupants."""
    names = {a.id: _label(a) for a in pic.areas}
    near: dict[str, list[str]] = {a.id: [] for a in pic.areas}
    for link in pic.links:
        crossing = f" ({', '.join(f.replace(':', ' ') for f in link.features)})" if link.features else ""
        for x, y in ((link.a, link.b), (link.b, link.a)):
            if x in near:
                near[x].append(names.get(y, y) + crossing)
    sides = sorted({p.side for a in pic.areas for p in a.pieces})
    rows = []
    for a in pic.areas:
        terrain = ", ".join([a.terrain, *a.marks]) if a.marks else a.terrain
        occupants = "; ".join(f"{s}: " + ", ".join(piece_text(p) for p in a.pieces if p.side == s)
                              for s in sides if any(p.side == s for p in a.pieces))
        rows.append((names[a.id], "box" if a.box and a.terrain == "" else terrain, a.control,
                     "; ".join(near[a.id]) or "-", occupants))
    return TableBlock(f"{pic.title}: every area", ("area", "terrain", "control", "neighbours", "occupants"),
                      tuple(rows), pic.legend)


def _counts(a: Area) -> str:
    per: dict[str, int] = {}
    for p in a.pieces:
        per[p.side] = per.get(p.side, 0) + 1
    return " ".join(f"{s[:1].upper()}{n}" for s, n in sorted(per.items()))


def area_plan(pic: AreaMapPicture, width: int) -> TextBlock | None:
    """A plan of the areas that have centre points, each drawn where its
    centre falls (columns and rows of the distinct centres), three lines:
    its label, its terrain and control, how many blocks of each side.  None
    when no area has a centre or the plan cannot fit ``width``."""
    placed = [a for a in pic.areas if a.centre is not None]
    if not placed:
        return None
    xs = sorted({a.centre[0] for a in placed if a.centre})
    ys = sorted({a.centre[1] for a in placed if a.centre})
    for labels in (_label, lambda a: a.id):
        cell = max(max(len(labels(a)) for a in placed), 9)
        if len(xs) * (cell + 1) - 1 <= width:
            break
    else:
        return None
    lines = [[" " * cell for _ in xs] for _ in range(4 * len(ys))]
    for a in placed:
        assert a.centre is not None
        x, y = xs.index(a.centre[0]), ys.index(a.centre[1])
        ctl = a.control[:1].upper() if a.control else "-"
        texts = (labels(a), f"{a.terrain[:6]} {ctl}", _counts(a))
        for i, t in enumerate(texts):
            lines[4 * y + i][x] = t.center(cell)
    out = tuple(" ".join(row).rstrip() for row in lines)
    while out and not out[-1]:
        out = out[:-1]
    others = [_label(a) for a in pic.areas if a.centre is None]
    tail = (("", "Off the plan (boxes): " + ", ".join(others)) if others else ())
    key = ("Each area: its label; its terrain and who controls it (first letter); "
           "how many blocks of each side stand there (G2 = two of the side beginning with G).")
    return TextBlock(f"{pic.title}: plan", out + tail + ("", key), style="pre")


def whole_map(block: Block, width: int) -> list[Block]:
    """The blocks that show a whole-map picture block in the terminal."""
    if isinstance(block, HexMapPicture):
        return hex_windows(block, width)
    if isinstance(block, AreaMapPicture):
        plan = area_plan(block, width)
        shown: list[Block] = [plan] if plan else []
        return shown + [area_table(block)]
    return [block]


def is_picture(block: Block) -> bool:
    return isinstance(block, (HexMapPicture, AreaMapPicture))
