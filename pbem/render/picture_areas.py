"""The body of an area map's picture (:class:`pbem.game.AreaMapPicture`):
areas at their centre points (their outlines where the scenario gives
them, else a card around the centre), the borders between them (a road, a
rail line, a river across the border), and off-map boxes and areas with no
geometry in a row below.  Each area shows its label, marks, who controls it
(the colour of its frame) and its blocks as the viewer may see them: his
own with identity and strength, the opponent's only as what he may see (a
token and its wood colour, or a face-up block)."""
from __future__ import annotations

import math

from pbem.game import Area, AreaMapPicture
from pbem.render.canvas import Canvas, colour_of, fit_size

CARD_W, CARD_H = 156, 118      # an area card (no outline given), in pixels
GAP = 26
BLOCK_W, BLOCK_H, PER_ROW = 48, 24, 3
MARGIN = 20


def body(pic: AreaMapPicture) -> Canvas:
    from pbem.render import picture as pp

    placed = [a for a in pic.areas if a.centre is not None]
    loose = [a for a in pic.areas if a.centre is None]
    scale = _scale(placed)
    xs = [a.centre[0] for a in placed if a.centre] or [0]
    ys = [a.centre[1] for a in placed if a.centre] or [0]
    x0, y0 = min(xs), min(ys)

    def at(a: Area) -> tuple[float, float]:
        assert a.centre is not None
        return (MARGIN + CARD_W / 2 + (a.centre[0] - x0) * scale, MARGIN + CARD_H / 2 + (a.centre[1] - y0) * scale)

    pos = {a.id: at(a) for a in placed}
    width = MARGIN * 2 + CARD_W + (max(xs) - x0) * scale if placed else MARGIN * 2
    height = MARGIN * 2 + CARD_H + (max(ys) - y0) * scale if placed else MARGIN
    per_row = max(1, int((max(width, 1200) - MARGIN) // (CARD_W + GAP)))
    top = height + (GAP if placed else 0)
    for i, a in enumerate(loose):
        pos[a.id] = (MARGIN + CARD_W / 2 + (i % per_row) * (CARD_W + GAP), top + CARD_H / 2 + (i // per_row) * (CARD_H + GAP))
    if loose:
        height = top + ((len(loose) + per_row - 1) // per_row) * (CARD_H + GAP)
        width = max(width, MARGIN + min(len(loose), per_row) * (CARD_W + GAP))
    canvas = Canvas(math.ceil(width), math.ceil(height))
    for link in pic.links:
        if link.a in pos and link.b in pos:
            _link(canvas, pos[link.a], pos[link.b], link.features, f"{link.a}|{link.b}", pp)
    for a in pic.areas:
        _area(canvas, a, pos[a.id], scale, pp)
    return canvas


def _scale(placed: list[Area]) -> float:
    """Pixels per map unit: the least that keeps every two cards apart (two
    cards do not overlap when their centres are a card and a gap apart
    across or down)."""
    pts = [a.centre for a in placed if a.centre]
    scale = 0.0
    for i, p in enumerate(pts):
        for q in pts[i + 1:]:
            dx, dy = abs(p[0] - q[0]), abs(p[1] - q[1])
            need = min((CARD_W + GAP) / dx if dx else math.inf, (CARD_H + GAP) / dy if dy else math.inf)
            if need < math.inf:
                scale = max(scale, need)
    return scale or 1.0


def _link(canvas: Canvas, p: tuple[float, float], q: tuple[float, float], feats: tuple[str, ...], key: str,
          pp: object) -> None:
    kinds = {f.split(":")[0] for f in feats}
    if "road" in kinds:
        canvas.line(p, q, pp.ROAD, 4, dashed=False, data_link=key, **{"class": "road"})  # type: ignore[attr-defined]
    if "rail" in kinds:
        canvas.line(p, q, pp.RAIL, 2, True, data_link=key, **{"class": "rail"})  # type: ignore[attr-defined]
    if not kinds & {"road", "rail"}:
        canvas.line(p, q, "#9a9a9a", 1.5, dashed=False, data_link=key, **{"class": "border"})
    river = next((f for f in feats if f.split(":")[0] == "river"), None)
    if river:
        mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
        n = math.hypot(q[0] - p[0], q[1] - p[1]) or 1
        ex, ey = -(q[1] - p[1]) / n * 18, (q[0] - p[0]) / n * 18
        canvas.line((mx - ex, my - ey), (mx + ex, my + ey), pp.RIVER, 5,  # type: ignore[attr-defined]
                    dashed=False, data_link=key, **{"class": "river"})
        name = river.split(":", 1)[1] if ":" in river else ""
        canvas.text((mx + ex + 4, my + ey + 6), name, 8, pp.RIVER, "start")  # type: ignore[attr-defined]


def _area(canvas: Canvas, a: Area, c: tuple[float, float], scale: float, pp: object) -> None:
    frame = colour_of(a.control, pp.SIDE) if a.control else "#555555"  # type: ignore[attr-defined]
    fill = colour_of(a.terrain or "box", pp.TERRAIN)  # type: ignore[attr-defined]
    if a.outline and a.centre:
        ox, oy = a.centre
        pts = [(c[0] + (x - ox) * scale, c[1] + (y - oy) * scale) for x, y in a.outline]
        canvas.poly(pts, fill, frame, 3, data_area=a.id, data_terrain=a.terrain, **{"class": "area"})
    else:
        canvas.rect(c[0] - CARD_W / 2, c[1] - CARD_H / 2, CARD_W, CARD_H, fill, frame, 3, data_area=a.id,
                    data_terrain=a.terrain, **{"class": "box" if a.box else "area"})
    x, y = c[0] - CARD_W / 2, c[1] - CARD_H / 2
    label = a.name if a.name == a.id else f"{a.id} {a.name}"
    canvas.text((c[0], y + 12), label, fit_size(label, 12, CARD_W - 8), "#111111", bold=True,
                **{"class": "area-label"})
    marks = ", ".join(([a.terrain] if a.terrain else []) + list(a.marks))
    canvas.text((c[0], y + 26), marks, fit_size(marks, 8, CARD_W - 8), "#444444")
    for m in a.marks:
        if m == "victory":
            pp.star(canvas, (x + 10, y + 12), 7, pp.STAR["victory-major"])  # type: ignore[attr-defined]
    shown = a.pieces[: PER_ROW * 3]
    for i, p in enumerate(shown):
        bx = x + 4 + (i % PER_ROW) * (BLOCK_W + 3)
        by = y + 36 + (i // PER_ROW) * (BLOCK_H + 3)
        pp.counter(canvas, bx, by, BLOCK_W, BLOCK_H, p, a.id)  # type: ignore[attr-defined]
    if len(a.pieces) > len(shown):
        canvas.text((c[0] + CARD_W / 2 - 16, y + CARD_H - 8), f"+{len(a.pieces) - len(shown)}", 10, "#111111",
                    bold=True, **{"class": "stack-count"})
