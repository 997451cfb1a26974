"""A tiny drawing list and its two outputs: SVG (standard library) and PNG
(Pillow).  :mod:`pbem.render.picture` lays a map out as a :class:`Canvas`
of shapes and text; :func:`to_svg` and :func:`to_png` draw the same list,
so the two pictures show the same thing.

Why Pillow for PNG: it is the well-kept imaging library of the Python
world, its wheels (every platform pip serves) bundle their own zlib,
libpng and FreeType, and it carries a default TrueType font
(``ImageFont.load_default(size=...)``), so nothing is needed from the
system.  The PNG is written with no text chunk and no metadata: only what
is drawn.  SVG needs no library: it is XML text, escaped here.
"""
from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape, quoteattr

Point = tuple[float, float]


@dataclass
class Canvas:
    """Shapes in drawing order.  Each shape is a tuple whose first item
    names it: ("poly", points, fill, stroke, width, attrs), ("line", p, q,
    colour, width, dashed, attrs), ("text", p, text, size, colour, anchor,
    bold, attrs) with anchor "middle" | "start", ("circle", p, r, fill,
    stroke, width, attrs).  ``attrs`` become SVG attributes (``data-hex``,
    ``class``), so that a test or a stylesheet can find a shape."""

    width: int
    height: int
    background: str = "#ffffff"
    shapes: list[tuple[Any, ...]] = field(default_factory=list)

    def poly(self, points: list[Point], fill: str | None, stroke: str | None = None, width: float = 1,
             **attrs: str) -> None:
        self.shapes.append(("poly", points, fill, stroke, width, attrs))

    def rect(self, x: float, y: float, w: float, h: float, fill: str | None, stroke: str | None = None,
             width: float = 1, **attrs: str) -> None:
        self.poly([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], fill, stroke, width, **attrs)

    def line(self, p: Point, q: Point, colour: str, width: float = 1, dashed: bool = False, **attrs: str) -> None:
        self.shapes.append(("line", p, q, colour, width, dashed, attrs))

    def text(self, p: Point, text: str, size: float, colour: str = "#000000", anchor: str = "middle",
             bold: bool = False, **attrs: str) -> None:
        if text:
            self.shapes.append(("text", p, text, size, colour, anchor, bold, attrs))

    def circle(self, p: Point, r: float, fill: str | None, stroke: str | None = None, width: float = 1,
               **attrs: str) -> None:
        self.shapes.append(("circle", p, r, fill, stroke, width, attrs))


def text_width(text: str, size: float) -> float:
    """About how wide ``text`` is at ``size`` (the layout's estimate; the
    default font's average glyph is about 0.56 of its size)."""
    return len(text) * size * 0.56


def fit_size(text: str, size: float, room: float, least: float = 6) -> float:
    """The font size, at most ``size``, at which ``text`` fits ``room``
    (never below ``least``: then the text is wider, never cut)."""
    if not text:
        return size
    return max(least, min(size, room / (len(text) * 0.56)))


def colour_of(name: str, table: dict[str, str]) -> str:
    """``table[name]``, or a light colour made from the name (the same
    name always gets the same colour)."""
    if name in table:
        return table[name]
    h = hashlib.sha256(name.encode("utf-8")).digest()
    return "#{:02x}{:02x}{:02x}".format(*(160 + b % 80 for b in h[:3]))


# ---------------------------------------------------------------------- SVG


def _n(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _attrs(attrs: dict[str, str]) -> str:
    return "".join(f" {k.replace('_', '-')}={quoteattr(v)}" for k, v in attrs.items())


def _paint(fill: str | None, stroke: str | None, width: float) -> str:
    out = f' fill="{fill or "none"}"'
    if stroke:
        out += f' stroke="{stroke}" stroke-width="{_n(width)}"'
    return out


def to_svg(canvas: Canvas, title: str = "") -> bytes:
    """The canvas as an SVG document (UTF-8 bytes)."""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{canvas.width}" height="{canvas.height}" '
           f'viewBox="0 0 {canvas.width} {canvas.height}" font-family="sans-serif">']
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append(f'<rect x="0" y="0" width="{canvas.width}" height="{canvas.height}" fill="{canvas.background}"/>')
    for shape in canvas.shapes:
        kind = shape[0]
        if kind == "poly":
            _, pts, fill, stroke, width, attrs = shape
            points = " ".join(f"{_n(x)},{_n(y)}" for x, y in pts)
            out.append(f'<polygon points="{points}"{_paint(fill, stroke, width)}{_attrs(attrs)}/>')
        elif kind == "line":
            _, p, q, colour, width, dashed, attrs = shape
            dash = f' stroke-dasharray="{_n(width * 3)},{_n(width * 2)}"' if dashed else ""
            out.append(f'<line x1="{_n(p[0])}" y1="{_n(p[1])}" x2="{_n(q[0])}" y2="{_n(q[1])}" stroke="{colour}" '
                       f'stroke-width="{_n(width)}" stroke-linecap="round"{dash}{_attrs(attrs)}/>')
        elif kind == "circle":
            _, p, r, fill, stroke, width, attrs = shape
            out.append(f'<circle cx="{_n(p[0])}" cy="{_n(p[1])}" r="{_n(r)}"{_paint(fill, stroke, width)}'
                       f'{_attrs(attrs)}/>')
        elif kind == "text":
            _, p, text, size, colour, anchor, bold, attrs = shape
            weight = ' font-weight="bold"' if bold else ""
            out.append(f'<text x="{_n(p[0])}" y="{_n(p[1])}" font-size="{_n(size)}" fill="{colour}" '
                       f'text-anchor="{anchor}" dominant-baseline="central"{weight}{_attrs(attrs)}>'
                       f"{escape(text)}</text>")
    out.append("</svg>\n")
    return "\n".join(out).encode("utf-8")


# ---------------------------------------------------------------------- PNG

_FONTS: dict[tuple[int, bool], Any] = {}


def _font(size: float, bold: bool) -> Any:
    from PIL import ImageFont

    key = (max(6, round(size)), bold)
    if key not in _FONTS:
        _FONTS[key] = ImageFont.load_default(size=key[0])
    return _FONTS[key]


def to_png(canvas: Canvas) -> bytes:
    """The canvas as a PNG (RGB, no text chunks, no metadata)."""
    buf = io.BytesIO()
    to_image(canvas).save(buf, format="PNG", compress_level=6)
    return buf.getvalue()


def to_image(canvas: Canvas) -> Any:
    """The canvas drawn on a Pillow RGB image (for a caller that processes
    the pixels further; no PNG encoded and decoded on the way)."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (canvas.width, canvas.height), canvas.background)
    draw = ImageDraw.Draw(img)
    for shape in canvas.shapes:
        kind = shape[0]
        if kind == "poly":
            _, pts, fill, stroke, width, _ = shape
            draw.polygon([(round(x), round(y)) for x, y in pts], fill=fill, outline=stroke,
                         width=max(1, round(width)) if stroke else 0)
        elif kind == "line":
            _, p, q, colour, width, dashed, _ = shape
            w = max(1, round(width))
            if dashed:
                _dashed(draw, p, q, colour, w)
            else:
                draw.line([p, q], fill=colour, width=w)
        elif kind == "circle":
            _, p, r, fill, stroke, width, _ = shape
            draw.ellipse([p[0] - r, p[1] - r, p[0] + r, p[1] + r], fill=fill, outline=stroke,
                         width=max(1, round(width)) if stroke else 0)
        elif kind == "text":
            _, p, text, size, colour, anchor, bold, _ = shape
            font = _font(size, bold)
            at = "mm" if anchor == "middle" else "lm"
            draw.text(p, text, fill=colour, font=font, anchor=at,
                      stroke_width=1 if bold and size >= 12 else 0, stroke_fill=colour)
    return img


def _dashed(draw: Any, p: Point, q: Point, colour: str, width: int) -> None:
    (x1, y1), (x2, y2) = p, q
    length = max(1.0, ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5)
    on, off = 3 * width, 2 * width
    t = 0.0
    while t < length:
        a, b = t / length, min(t + on, length) / length
        draw.line([(x1 + (x2 - x1) * a, y1 + (y2 - y1) * a), (x1 + (x2 - x1) * b, y1 + (y2 - y1) * b)],
                  fill=colour, width=width)
        t += on + off
