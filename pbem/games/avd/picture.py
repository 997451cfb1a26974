"""A picture of a transcribed map, to hold beside the paper map (``pbem
scenario map``): each hex shows its id, then a terrain letter and marks for
what the scenario says is there.  The whole map is drawn in windows of
twelve columns so that it fits a terminal."""
from __future__ import annotations

from typing import Any

from pbem.board.hexgrid import HexGrid, side_key
from pbem.games.avd import scenario as loader
from pbem.render.hexmap import render

LEGEND = ("terrain: first letter (. = clear); * minor / ** major Victory Hex; M Moscow; P Minsk Pocket; "
          "G / S German / Soviet supply source; ~ minor river, = major river, r road on a hexside "
          "toward the next row (flat maps) or column")


def _cell(scn: Any, grid: HexGrid, h: str) -> str:
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


def picture(data: dict[str, Any]) -> str:
    """The whole map as text.  Raises ScenarioError if the map cannot be
    read (``pbem scenario check`` says why)."""
    scn = loader.load(data)
    m = scn.map
    grid = HexGrid(m.first_col, m.last_col, m.first_row, m.last_row, m.offset)
    parts = [f"{scn.title}: map {m.first_col:02d}{m.first_row:02d}-{m.last_col:02d}{m.last_row:02d} ({m.offset})",
             LEGEND, ""]
    for start in range(m.first_col, m.last_col + 1, 12):
        cols = range(start, min(start + 12, m.last_col + 1))
        hexes = [grid.hex_id(c, r) for c in cols for r in (m.first_row, m.last_row)]
        parts.append(render(grid, hexes, lambda h: _cell(scn, grid, h)))
        parts.append("")
    return "\n".join(parts)
