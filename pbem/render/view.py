"""Draw a :class:`pbem.game.View`: what a game says a seat may see, as data.

Two forms of the same content:

* :func:`render_rich` - a rich renderable for the terminal (Panels, Tables, the hex
  map as a picture from :mod:`pbem.render.hexmap`);
* :func:`render_text` - plain text with no rich and no colour, for tests and mail.
  Tables whose columns fit ``width`` are aligned; wider ones are written a
  row at a time, one ``column: value`` line each, wrapped between words.

Neither form cuts a name: long cells wrap (rich folds a word longer than its
column onto the next line), and a hex map's stack too long for its cell
becomes its top unit and a count (``17Pz+1``), which the legend then
explains.  Games never import this module; they return a View.
"""
from __future__ import annotations

import textwrap
from typing import Any

from pbem.board.hexgrid import HexGrid
from pbem.game import Block, HexMapBlock, TableBlock, TextBlock, View
from pbem.render import hexmap, mapterm


def hex_picture(block: HexMapBlock) -> tuple[str, str]:
    """The map picture of ``block`` and its legend (with a note when a
    stack was shortened).  ValueError if the grid or hexes are malformed."""
    first_col, last_col, first_row, last_row, offset = block.grid
    grid = HexGrid(first_col, last_col, first_row, last_row, offset)
    pic, shortened = hexmap.draw(grid, block.hexes, lambda h: block.cells.get(h, ""))
    legend = " ".join(x for x in (block.legend, hexmap.SHORTENED if shortened else "") if x)
    return pic, legend


def _hex_list(block: HexMapBlock) -> list[tuple[str, str]]:
    """The fallback when the picture cannot be drawn: hex and text."""
    return [(h, block.cells[h]) for h in sorted(set(block.hexes)) if block.cells.get(h)]


# --------------------------------------------------------------- plain text


def blocks_for(view: View, map: str = "window", width: int = 100) -> list[Block]:
    """The blocks to draw: with ``map="window"`` (the default) a whole-map
    picture block is left to the pictures (``pbem map``); with ``"all"``
    it is drawn instead of the map window, in windows ``width`` wide."""
    pictures = [b for b in view.blocks if mapterm.is_picture(b)]
    if map != "all" or not pictures:
        return [b for b in view.blocks if not mapterm.is_picture(b)]
    whole = [w for p in pictures for w in mapterm.whole_map(p, width)]
    out: list[Block] = []
    for block in view.blocks:      # the whole map where the window was (or the picture, if none)
        if isinstance(block, HexMapBlock) or (mapterm.is_picture(block) and not any(
                isinstance(x, HexMapBlock) for x in view.blocks)):
            out += whole
            whole = []
        elif not mapterm.is_picture(block):
            out.append(block)
    return out


def render_text(view: View, width: int = 100, map: str = "window") -> str:
    """``view`` as plain text (no rich, no colour), lines up to ``width``
    where words allow (a hex map is as wide as its window).  ``map="all"``
    draws the whole map (see :func:`blocks_for`)."""
    out: list[str] = [view.title, "=" * min(len(view.title), width)]
    if view.practice:
        out += ["", *_wrap(f"*** {view.practice} ***", width)]
    for block in blocks_for(view, map, width):
        out.append("")
        out += _text_block(block, width)
    return "\n".join(out).rstrip() + "\n"


def _wrap(line: str, width: int, indent: str = "") -> list[str]:
    if not line:
        return [""]
    return textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False,
                         break_on_hyphens=False) or [""]


def _heading(title: str) -> list[str]:
    return [f"-- {title} --"] if title else []


def _text_block(block: Block, width: int) -> list[str]:
    if isinstance(block, TextBlock):
        lines = _heading(block.title)
        if block.style == "pre":      # preformatted (a plan of areas): never wrapped
            return lines + [line.rstrip() for line in block.lines]
        for line in block.lines:
            lines += _wrap(f"*** {line} ***" if block.style == "notice" else line, width, "  ")
        return lines
    if isinstance(block, TableBlock):
        return _heading(block.title) + _table_text(block, width) + (_wrap(block.caption, width, "  ")
                                                                    if block.caption else [])
    if isinstance(block, HexMapBlock):
        lines = _heading(block.title)
        try:
            pic, legend = hex_picture(block)
        except ValueError:
            return lines + [f"{h}  {t}" for h, t in _hex_list(block)] + _wrap(block.legend, width)
        return lines + pic.splitlines() + (_wrap(legend, width, "  ") if legend else [])
    raise TypeError(f"not a view block: {block!r}")


def _table_text(block: TableBlock, width: int) -> list[str]:
    if not block.rows:
        return ["(none)"]
    cols = len(block.columns)
    widths = [max([len(block.columns[i])] + [len(r[i]) for r in block.rows if i < len(r)]) for i in range(cols)]
    if sum(widths) + 2 * (cols - 1) <= width:
        def line(cells: tuple[str, ...]) -> str:
            return "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()
        return [line(block.columns), line(tuple("-" * w for w in widths))] + [line(r) for r in block.rows]
    # Too wide to align: each row as a record, wrapped between words.
    lines: list[str] = []
    for row in block.rows:
        first = True
        for name, cell in zip(block.columns, row):
            if not cell:
                continue
            lines += _wrap(f"{'' if first else '  '}{name}: {cell}", width, "      ")
            first = False
    return lines


# --------------------------------------------------------------------- rich


def render_rich(view: View, map: str = "window", width: int = 100) -> Any:
    """``view`` as a rich renderable (a Group of Panels and Tables);
    ``map="all"`` draws the whole map in windows ``width`` wide."""
    from rich.console import Group
    from rich.panel import Panel
    from rich.text import Text

    parts: list[Any] = [Text(view.title, style="bold")]
    if view.practice:
        parts.append(Panel(Text(view.practice, style="bold yellow"), title="practice scenario"))
    parts += [_rich_block(b) for b in blocks_for(view, map, width)]
    return Group(*parts)


def _rich_block(block: Block) -> Any:
    from rich.panel import Panel
    from rich.text import Text

    from pbem.render.richtable import BlockTable

    if isinstance(block, TextBlock):
        style = {"notice": "bold yellow", "heading": "bold"}.get(block.style, "")
        body = Text("\n".join(block.lines), style=style, no_wrap=block.style == "pre")
        return Panel(body, title=block.title or None, expand=block.style != "pre")
    if isinstance(block, TableBlock):
        return BlockTable(block)
    if isinstance(block, HexMapBlock):
        try:
            pic, legend = hex_picture(block)
        except ValueError:   # the picture is a convenience; a table says the same
            return BlockTable(TableBlock(block.title, ("hex", "stack"), tuple(_hex_list(block)), block.legend))
        from rich.console import Group

        lines: list[Any] = [Text(pic, no_wrap=True)]
        if legend:
            lines += [Text(""), Text(legend, style="dim")]
        return Panel(Group(*lines), title=block.title or None, expand=False)
    raise TypeError(f"not a view block: {block!r}")
