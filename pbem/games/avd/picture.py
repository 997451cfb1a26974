"""A picture of a transcribed map, to hold beside the paper map (``pbem
scenario map``): each hex shows its id, then a terrain letter and marks for
what the scenario says is there.  The whole map is returned as a
:class:`pbem.game.View` of windows of twelve columns, so that it fits a
terminal once :mod:`pbem.render.view` draws it."""
from __future__ import annotations

from typing import Any

from pbem.board.hexgrid import HexGrid, side_key
from pbem.game import HexMapBlock, TextBlock, View
from pbem.games.avd import scenario as loader
from pbem.games.avd.view import PRACTICE, grid_of

SCENARIO_LEGEND = ("terrain: first letter (. = clear); * minor / ** major Victory Hex; M Moscow; P Minsk Pocket; "
                   "G / S German / Soviet supply source; ~ minor river, = major river, r road on a hexside "
                   "toward the next row (flat maps) or column")
COLUMNS = 12   # columns per window: twelve fit a 100-column terminal


def _terrain_cell(scn: Any, grid: HexGrid, h: str) -> str:
    m = scn.map
    terrain = m.terrain.get(h, "clear")
    text = "." if terrain == "clear" else terrain[0]
    text += {"minor": "*", "major": "**"}.get(m.victory.get(h, ""), "")
    text += "M" if h in m.moscow else ""
    text += "P" if h in m.minsk_pocket else ""
    text += "G" if h in m.supply_german else ""
    text += "S" if h in m.supply_soviet or h in m.supply_soviet_until_turn4 else ""
    col, row = grid.col_row(h)
    below = grid.hex_id(col, row + 1)
    if below in grid:
        feats = m.hexsides.get(side_key(h, below), frozenset())
        text += "=" if "major_river" in feats else ("~" if "minor_river" in feats else "")
        text += "r" if "road" in feats else ""
    return text


def scenario_view(data: dict[str, Any]) -> View:
    """The whole map of a scenario (the parsed TOML), in windows of twelve
    columns.  Raises ScenarioError if the map cannot be read (``pbem
    scenario check`` says why)."""
    scn = loader.load(data)
    m = scn.map
    grid = HexGrid(*grid_of(scn))
    blocks: list[Any] = [TextBlock("legend", (SCENARIO_LEGEND,))]
    for start in range(m.first_col, m.last_col + 1, COLUMNS):
        cols = range(start, min(start + COLUMNS, m.last_col + 1))
        hexes = tuple(grid.hex_id(c, r) for c in cols for r in (m.first_row, m.last_row))
        cells = {grid.hex_id(c, r): _terrain_cell(scn, grid, grid.hex_id(c, r))
                 for c in cols for r in range(m.first_row, m.last_row + 1)}
        blocks.append(HexMapBlock(f"columns {cols.start:02d}-{cols.stop - 1:02d}", grid_of(scn), hexes, cells))
    title = f"{scn.title}: map {m.first_col:02d}{m.first_row:02d}-{m.last_col:02d}{m.last_row:02d} ({m.offset})"
    return View(title, tuple(blocks), practice=(scn.notice or PRACTICE) if scn.practice else "")
