"""What a game shows a seat: plain data (text blocks, tables, hex maps)
that :mod:`pbem.render` draws.  A game never imports a renderer."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TextBlock:
    """Lines of prose; ``style`` is a hint ("notice" for a practice-data
    warning, "heading", "" for plain)."""

    title: str
    lines: tuple[str, ...]
    style: str = ""


@dataclass(frozen=True)
class TableBlock:
    """A table: ``rows`` of cells under ``columns``; ``caption`` below."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    caption: str = ""


@dataclass(frozen=True)
class HexMapBlock:
    """Part of a hex map: the grid (first/last column and row and its offset
    convention, as :class:`pbem.board.hexgrid.HexGrid` takes them), the hexes
    to draw, and a text per hex: its stack, top unit first, joined by "+"."""

    title: str
    grid: tuple[int, int, int, int, str]
    hexes: tuple[str, ...]
    cells: dict[str, str]
    legend: str = ""


Block = TextBlock | TableBlock | HexMapBlock


@dataclass(frozen=True)
class View:
    """What a seat may see of a state, as data.  ``pbem.render`` draws it for
    a terminal; a game never imports a renderer."""

    title: str
    blocks: tuple[Block, ...]
    practice: str = ""        # the practice-data notice, when the scenario is ours
