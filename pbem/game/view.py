"""What a game shows a seat: plain data (text blocks, tables, hex maps,
whole-map pictures) that :mod:`pbem.render` draws.  A game never imports a
renderer.

A view may hold one whole-map picture block (:class:`HexMapPicture` or
:class:`AreaMapPicture`): the terminal draws it only when asked for the
whole map (``pbem sitrep --map all``), :mod:`pbem.render.picture` draws it
as SVG or PNG (``pbem map``, the mail).  It is built from the same seat's
state as the rest of the view, so it holds nothing the seat may not see."""
from __future__ import annotations

from dataclasses import dataclass


def terrain_mark(name: str) -> str:
    """A terrain's short label for a hex cell, never cut mid-word without
    saying so: a short word whole ("marsh"), a long one with a stop
    ("mount."), several words as initials and the last word ("l.woods")."""
    words = [w for w in name.replace("-", "_").split("_") if w]
    if not words:
        return ""
    if len(words) == 1:
        return words[0] if len(words[0]) <= 6 else words[0][:5] + "."
    return "".join(w[0] for w in words[:-1]) + "." + terrain_mark(words[-1])


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


@dataclass(frozen=True)
class Piece:
    """A counter or block as the viewer may see it: ``label`` is its name
    (or, for an enemy block he may not identify, only what he sees: its
    token), ``strength`` and ``steps`` what he may read of it ("" where
    nothing), ``colour`` a block's wood colour, ``markers`` what sits on it
    ("OoS", "isolated", "active"...), ``face_down`` a block seen from
    behind."""

    side: str
    label: str
    strength: str = ""
    steps: str = ""
    colour: str = ""
    markers: tuple[str, ...] = ()
    face_down: bool = False


@dataclass(frozen=True)
class HexMapPicture:
    """The whole of a hex map as a seat may see it, for a picture (``pbem
    map``, the mail) or the whole-map terminal view: the grid (as
    :class:`HexMapBlock`), each hex's terrain (absent: "clear"), the
    features of each hexside named by :func:`pbem.board.hexgrid.side_key`
    ("minor_river", "major_river", "road"; a road over a river is a
    bridge), place names, marks per hex ("city", "victory-minor",
    "victory-major", "supply-german", "VP?"...: short words) and the stacks,
    top piece first."""

    title: str
    grid: tuple[int, int, int, int, str]
    terrain: dict[str, str]
    hexsides: dict[str, tuple[str, ...]]
    places: dict[str, str]
    marks: dict[str, tuple[str, ...]]
    stacks: dict[str, tuple[Piece, ...]]
    legend: str = ""


@dataclass(frozen=True)
class Area:
    """One area (or off-map box) of an area map: ``centre`` and ``outline``
    in the map's own units (x right, y down; None / () where the scenario
    gives no geometry: the picture then puts it in a row of boxes),
    ``control`` the side that controls it, ``marks`` short words ("city",
    "victory", "DL"...), ``pieces`` what stands there as the viewer may see
    it."""

    id: str
    name: str
    terrain: str
    centre: tuple[int, int] | None = None
    outline: tuple[tuple[int, int], ...] = ()
    control: str = ""
    marks: tuple[str, ...] = ()
    pieces: tuple[Piece, ...] = ()
    box: bool = False


@dataclass(frozen=True)
class AreaLink:
    """A border between two areas and what crosses it ("river:Dnieper",
    "road", "rail")."""

    a: str
    b: str
    features: tuple[str, ...] = ()


@dataclass(frozen=True)
class AreaMapPicture:
    """The whole of an area map as a seat may see it: its areas and the
    borders between them; ``size`` is the extent of the map's units."""

    title: str
    size: tuple[int, int]
    areas: tuple[Area, ...]
    links: tuple[AreaLink, ...]
    legend: str = ""


MapPicture = HexMapPicture | AreaMapPicture
Block = TextBlock | TableBlock | HexMapBlock | HexMapPicture | AreaMapPicture


@dataclass(frozen=True)
class View:
    """What a seat may see of a state, as data.  ``pbem.render`` draws it for
    a terminal; a game never imports a renderer."""

    title: str
    blocks: tuple[Block, ...]
    practice: str = ""        # the practice-data notice, when the scenario is ours
