"""A plain-text picture of part of a hex map.

Each hex is two lines: its id, then a short text the caller supplies (a unit
stack such as "7Pz+20Pz", a terrain letter...), cut to ``width`` characters.
The stagger of the printed map shows as it does on paper:

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

The result is a plain string with no colour, so a sitrep can wrap it in a
rich Panel.  With the default ``width`` of 7 a window of 12 columns fits in
96 terminal columns; pick the window (the ``hexes`` given) accordingly.
"""
from __future__ import annotations

from typing import Callable, Iterable

from pbem.board.hexgrid import HexGrid


def _window(grid: HexGrid, hexes: Iterable[str]) -> tuple[range, range]:
    cols, rows = [], []
    for h in hexes:
        col, row = grid.col_row(h)
        cols.append(col)
        rows.append(row)
    if not cols:
        raise ValueError("no hexes to draw")
    return range(min(cols), max(cols) + 1), range(min(rows), max(rows) + 1)


def _fit(text: str, width: int) -> str:
    return text[:width].center(width)


def render(grid: HexGrid, hexes: Iterable[str], cell: Callable[[str], str], width: int = 7) -> str:
    """Draw the smallest rectangle of columns and rows covering ``hexes``.
    Every hex of the grid inside that rectangle is drawn, with ``cell(h)``
    under its id; places off the grid stay blank."""
    if width < 4:
        raise ValueError("hex cells need a width of at least 4 (the hex id)")
    cols, rows = _window(grid, hexes)
    if grid.flat:
        lines = _render_flat(grid, cols, rows, cell, width)
    else:
        lines = _render_pointy(grid, cols, rows, cell, width)
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(line.rstrip() for line in lines)


def _texts(grid: HexGrid, col: int, row: int, cell: Callable[[str], str], width: int) -> tuple[str, str]:
    h = grid.hex_id(col, row)
    if h not in grid:
        return " " * width, " " * width
    return _fit(h, width), _fit(cell(h), width)


def _render_flat(grid: HexGrid, cols: range, rows: range, cell: Callable[[str], str],
                 width: int) -> list[str]:
    height = 2 * len(rows) + 1
    grid_lines = [[" " * width for _ in cols] for _ in range(height)]
    for x, col in enumerate(cols):
        for y, row in enumerate(rows):
            top = 2 * y + (1 if grid.is_shoved(col, row) else 0)
            grid_lines[top][x], grid_lines[top + 1][x] = _texts(grid, col, row, cell, width)
    return [" ".join(parts) for parts in grid_lines]


def _render_pointy(grid: HexGrid, cols: range, rows: range, cell: Callable[[str], str],
                   width: int) -> list[str]:
    half = (width + 1) // 2
    lines: list[str] = []
    for row in rows:
        indent = " " * half if grid.is_shoved(cols.start, row) else ""
        ids, texts = [], []
        for col in cols:
            a, b = _texts(grid, col, row, cell, width)
            ids.append(a)
            texts.append(b)
        lines.append(indent + " ".join(ids))
        lines.append(indent + " ".join(texts))
    return lines
