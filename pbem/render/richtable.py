"""A :class:`~pbem.game.TableBlock` for the terminal, drawn as rich draws a
``Table`` with its default look (heavy head, title above, caption below),
without rich's per-cell layout machinery (speed only: a situation report's
unit lists have a hundred rows, and rich's ``Table`` took about a quarter
of ``pbem play``'s time up to its first prompt to lay them out).  A table
too wide for the terminal, or with a cell of more than one line, is handed
to rich's ``Table``, which folds its cells.  Cells are plain text, never
markup, in both."""
from __future__ import annotations

from typing import Any

from pbem.game import TableBlock


class BlockTable:
    """A rich renderable (``console.print`` takes it) for one TableBlock."""

    def __init__(self, block: TableBlock) -> None:
        self.block = block
        self._widths: list[int] | None = None
        self._table: Any = None

    def widths(self) -> list[int]:
        """Each column's width: its widest cell or heading."""
        if self._widths is None:
            from rich.cells import cell_len

            block = self.block
            self._widths = [max([cell_len(name)] + [cell_len(row[i]) for row in block.rows if i < len(row)])
                            for i, name in enumerate(block.columns)]
        return self._widths

    def width(self) -> int:
        """The drawn table's width: each column padded by a space either side, and a rule between."""
        widths = self.widths()
        return sum(widths) + 3 * len(widths) + 1

    def table(self) -> Any:
        """The same table as rich's ``Table`` (what a narrow terminal gets)."""
        if self._table is None:
            self._table = self._rich_table()
        return self._table

    def _rich_table(self) -> Any:
        from rich.table import Table
        from rich.text import Text

        block = self.block
        t = Table(title=block.title or None, caption=block.caption or None)
        for name in block.columns:
            t.add_column(name, overflow="fold")
        for row in block.rows:
            t.add_row(*(Text(cell) for cell in row))
        return t

    def __rich_console__(self, console: Any, options: Any) -> Any:
        if self._fits(options.max_width):
            yield self._text()
        else:
            yield self.table()

    def __rich_measure__(self, console: Any, options: Any) -> Any:
        from rich.measure import Measurement

        if self._fits(options.max_width):
            return Measurement(self.width(), self.width())
        return Measurement.get(console, options, self.table())

    def _fits(self, room: int) -> bool:
        """Whether this draws it: every cell one line of characters that
        each take room (rich lays out a mark that takes none, such as a
        combining accent, its own way), the table, its title and its caption
        no wider than ``room``."""
        from rich.cells import cell_len

        block, width = self.block, self.width()
        return (bool(block.columns) and width <= room and cell_len(block.title) <= width
                and cell_len(block.caption) <= width
                and all(map(_spaced, (block.title, block.caption, *block.columns)))
                and all(_spaced(cell) for row in block.rows for cell in row))

    def _text(self) -> Any:
        from rich.text import Text

        block, widths, width = self.block, self.widths(), self.width()
        out = Text(no_wrap=True, overflow="ignore")
        if block.title:
            out.append(_centred(block.title, width), style="table.title")
            out.append("\n")
        out.append(_rule("┏", "━", "┳", "┓", widths) + "\n┃")
        for name, w in zip(block.columns, widths):
            # (the padding in the heading's style too, as rich writes it)
            for part in (" ", _pad(name, w), " "):
                out.append(part, style="table.header")
            out.append("┃")
        out.append("\n" + _rule("┡", "━", "╇", "┩", widths) + "\n")
        for row in block.rows:
            cells = list(row) + [""] * (len(widths) - len(row))
            out.append("│" + "│".join(f" {_pad(cell, w)} " for cell, w in zip(cells, widths)) + "│\n")
        out.append(_rule("└", "─", "┴", "┘", widths))
        if block.caption:
            out.append("\n")
            out.append(_centred(block.caption, width), style="table.caption")
        return out


def _spaced(text: str) -> bool:
    """Whether every character of ``text`` is printable on one line and
    takes at least one cell."""
    if text.isascii():
        return text.isprintable()
    from rich.cells import get_character_cell_size

    return text.isprintable() and all(get_character_cell_size(c) for c in text)


def _centred(text: str, width: int) -> str:
    """``text`` in a line ``width`` wide, centred as rich centres a title."""
    from rich.cells import cell_len

    room = width - cell_len(text)
    return " " * (room // 2) + text + " " * (room - room // 2)


def _rule(left: str, line: str, cross: str, right: str, widths: list[int]) -> str:
    return left + cross.join(line * (w + 2) for w in widths) + right


def _pad(text: str, width: int) -> str:
    from rich.cells import cell_len

    return text + " " * (width - cell_len(text))
