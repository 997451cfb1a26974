"""A plain-text picture of part of a hex map.

Each hex is two lines: its id, then a short text the caller supplies (a unit
stack such as "7Pz+20Pz", a terrain letter...).  The stagger of the printed
map shows as it does on paper:

* flat-topped grids ("-q"): hexes of one column stack vertically and the
  shoved columns start one line lower, half a hex down;
* pointy-topped grids ("-r"): hexes of one row sit side by side and the
  shoved rows start half a hex to the right.

So, on an odd-q map, hex 0302 (odd column) is drawn between 0202 and 0203
beside it, just as it touches both on the board::

    0201         0401
    ....  0301   ....
    0202  ....   0402
    ....  0302   ....

Names are never cut.  A cell text is a stack: its items joined by ``+``,
top first.  One too long for the cell keeps as many whole items as fit and
counts the rest (``17Pz+20Pz+3Pz`` in a 7-wide cell is ``17Pz+2``: 17Pz and
two more); where even the top item and its count do not fit, every cell of
the picture is widened to fit them.  :func:`draw` says whether a stack was
shortened so that the caller can say so in the legend (:data:`SHORTENED`).

The result is a plain string with no colour, so a renderer can wrap it in a
rich Panel.  With the default ``width`` of 7 a window of 12 columns fits in
96 terminal columns; pick the window (the ``hexes`` given) accordingly.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from pbem.board.hexgrid import HexGrid

SEP = "+"
SHORTENED = "A stack too long for its cell shows its top unit(s) and how many more: 17Pz+2 is 17Pz and 2 more."


def _window(grid: HexGrid, hexes: Iterable[str]) -> tuple[range, range]:
    cols, rows = [], []
    for h in hexes:
        col, row = grid.col_row(h)
        cols.append(col)
        rows.append(row)
    if not cols:
        raise ValueError("no hexes to draw")
    return range(min(cols), max(cols) + 1), range(min(rows), max(rows) + 1)


def fit(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters without cutting an item:
    whole items of the stack, top first, then ``+N`` for the rest.  Longer
    than ``width`` only when the top item (and its count) is."""
    if len(text) <= width:
        return text
    items = text.split(SEP)
    best = items[0] + (f"{SEP}{len(items) - 1}" if len(items) > 1 else "")
    for k in range(2, len(items)):
        shown = SEP.join(items[:k]) + f"{SEP}{len(items) - k}"
        if len(shown) > width:
            break
        best = shown
    return best


def needed_width(texts: Iterable[str], width: int) -> int:
    """The cell width that draws every text uncut: ``width``, or more where
    a top item and its count are longer."""
    return max([width] + [len(fit(t, width)) for t in texts])


def draw(grid: HexGrid, hexes: Iterable[str], cell: Callable[[str], str], width: int = 7) -> tuple[str, bool]:
    """Draw the smallest rectangle of columns and rows covering ``hexes``.
    Every hex of the grid inside that rectangle is drawn, with ``cell(h)``
    under its id; places off the grid stay blank.  Returns the picture and
    whether any stack was shortened to its top units and a count."""
    if width < 4:
        raise ValueError("hex cells need a width of at least 4 (the hex id)")
    cols, rows = _window(grid, hexes)
    raw = {}
    for col in cols:
        for row in rows:
            h = grid.hex_id(col, row)
            if h in grid:
                raw[h] = cell(h) or ""
    width = needed_width(raw.values(), width)
    texts = {h: fit(t, width) for h, t in raw.items()}
    shortened = any(texts[h] != t for h, t in raw.items())
    if grid.flat:
        lines = _render_flat(grid, cols, rows, texts, width)
    else:
        lines = _render_pointy(grid, cols, rows, texts, width)
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(line.rstrip() for line in lines), shortened


def render(grid: HexGrid, hexes: Iterable[str], cell: Callable[[str], str], width: int = 7) -> str:
    """The picture of :func:`draw`, alone."""
    return draw(grid, hexes, cell, width)[0]


def _texts(grid: HexGrid, col: int, row: int, texts: dict[str, str], width: int) -> tuple[str, str]:
    h = grid.hex_id(col, row)
    if h not in texts:
        return " " * width, " " * width
    return h.center(width), texts[h].center(width)


def _render_flat(grid: HexGrid, cols: range, rows: range, texts: dict[str, str], width: int) -> list[str]:
    height = 2 * len(rows) + 1
    grid_lines = [[" " * width for _ in cols] for _ in range(height)]
    for x, col in enumerate(cols):
        for y, row in enumerate(rows):
            top = 2 * y + (1 if grid.is_shoved(col, row) else 0)
            grid_lines[top][x], grid_lines[top + 1][x] = _texts(grid, col, row, texts, width)
    return [" ".join(parts) for parts in grid_lines]


def _render_pointy(grid: HexGrid, cols: range, rows: range, texts: dict[str, str], width: int) -> list[str]:
    half = (width + 1) // 2
    lines: list[str] = []
    for row in rows:
        indent = " " * half if grid.is_shoved(cols.start, row) else ""
        ids, cells = [], []
        for col in cols:
            a, b = _texts(grid, col, row, texts, width)
            ids.append(a)
            cells.append(b)
        lines.append(indent + " ".join(ids))
        lines.append(indent + " ".join(cells))
    return lines
