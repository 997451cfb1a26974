"""A TableBlock in the terminal (pbem.render.richtable): drawn by hand as
rich draws a Table with its default look, so it must give the very
characters rich's Table gives, colour aside; a table too wide for the
terminal, or a cell of several lines, is rich's own Table, which folds.
Cells are never read as markup."""
from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rich.console import Console, Group
from rich.panel import Panel

from pbem.game import TableBlock
from pbem.render.richtable import BlockTable

UNITS = TableBlock("German units on the map", ("unit", "hex", "strength", "steps", "status"),
                   (("102ID", "3902", "3-3-5", "2/2", "OoS"), ("3PzGInf", "3902", "CR 3", "1/1", ""),
                    ("9thArmy", "3208", "CR 4", "1/1", "")), caption="3 units")


def drawn(renderable: object, width: int = 100, colour: bool = False) -> str:
    console = Console(record=True, width=width, color_system="truecolor" if colour else None,
                      force_terminal=colour)
    console.print(renderable)
    return console.export_text(styles=colour)


@pytest.mark.parametrize("width", [100, 46, 45, 20])
def test_the_table_is_drawn_as_rich_draws_it(width) -> None:
    """46 columns: the width of this table; narrower, rich's Table folds it."""
    fast = BlockTable(UNITS)
    assert drawn(fast, width) == drawn(fast.table(), width)
    assert fast.width() == 46


def test_inside_a_panel_and_a_group_alike() -> None:
    fast = BlockTable(UNITS)
    assert drawn(Panel(Group(fast), expand=False)) == drawn(Panel(Group(fast.table()), expand=False))


def test_styles_are_rich_s() -> None:
    fast = BlockTable(UNITS)
    assert drawn(fast, colour=True) == drawn(fast.table(), colour=True)


def test_cells_are_text_not_markup() -> None:
    block = TableBlock("t", ("a", "b"), (("[bold]x[/bold]", "[red]"),))
    assert "[bold]x[/bold]" in drawn(BlockTable(block)) and "[red]" in drawn(BlockTable(block))


def test_a_cell_of_two_lines_is_rich_s_table() -> None:
    block = TableBlock("t", ("a", "b"), (("one\ntwo", "x"),))
    assert drawn(BlockTable(block)) == drawn(BlockTable(block).table())


def test_short_rows_and_no_title() -> None:
    block = TableBlock("", ("a", "b", "c"), (("1",), ("22", "333", "4")))
    assert drawn(BlockTable(block)) == drawn(BlockTable(block).table())


cells = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x2FFF, blacklist_categories=("Cs", "Cc")),
                max_size=12)


@settings(max_examples=60, deadline=None)
@example(title="", caption="", columns=["\u0300"], rows=[], width=10)     # a combining mark alone (CI found it)
@given(title=cells, caption=cells, columns=st.lists(cells.filter(bool), min_size=1, max_size=4),
       rows=st.lists(st.lists(cells, max_size=4), max_size=5), width=st.integers(10, 90))
def test_any_table_is_rich_s(title, caption, columns, rows, width) -> None:
    block = TableBlock(title, tuple(columns), tuple(tuple(r[:len(columns)]) for r in rows), caption)
    assert drawn(BlockTable(block), width) == drawn(BlockTable(block).table(), width)
