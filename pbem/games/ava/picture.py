"""The whole map as data (:class:`pbem.game.HexMapPicture`) for ``pbem
map``, the mail and ``pbem sitrep --map all``, and ``pbem scenario map``'s
picture of a transcribed map.

The map's fixed parts (terrain, rivers, roads, railroads, the start line,
places, supply sources, VP hexes) are worked out once per scenario; the
stacks come from a state the view has already reduced to what the seat may
see (nothing here is hidden: only chits are secret in this family).
"""
from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from pbem.game import HexMapBlock, HexMapPicture, Piece, TextBlock, View
from pbem.games.ava import orders
from pbem.games.ava.model import Scenario

if TYPE_CHECKING:
    from pbem.games.ava.rules import AvaRules

PRACTICE = "PRACTICE DATA - an original map and tables, not the publisher's"
LEGEND = ("Each hex: its id, terrain colour, place name; blue lines rivers (thick: major), brown lines roads, "
          "black railroads, red the start line; marks: city, major city, supply sources, VP hexes, Stand Fast "
          "(SF) and fortress (F+N). A counter shows attack-defence-MP (HQ: CR range) and, when reduced, its "
          "steps; ACT active.")
_STATIC: dict[int, tuple[Any, dict[str, Any]]] = {}


def grid_of(scn: Scenario) -> tuple[int, int, int, int, str]:
    g = scn.map.grid
    return (g.first_col, g.last_col, g.first_row, g.last_row, g.offset)


def _static(scn: Scenario) -> dict[str, Any]:
    ref, found = _STATIC.get(id(scn), (None, None))
    if ref is not None and ref() is scn and found is not None:
        return found
    m = scn.map
    marks: dict[str, list[str]] = {}
    for h, kind in m.cities.items():
        marks.setdefault(h, []).append(kind.replace("_", "-"))
    for side, hexes in m.supply.items():
        for h in hexes:
            marks.setdefault(h, []).append(f"supply-{side}")
    for tag, hexes in m.vp_hexes.items():
        for h in hexes:
            marks.setdefault(h, []).append(f"VP {tag}")
    sides: dict[str, set[str]] = {k: set(v) for k, v in m.hexsides.items()}
    for k in m.road_sides:
        sides.setdefault(k, set()).add("road")
    for k in m.rail_sides:
        sides.setdefault(k, set()).add("railroad")
    found = {
        "terrain": {h: t for h, t in m.terrain.items() if t != "plains"},
        "hexsides": {k: tuple(sorted(v)) for k, v in sorted(sides.items())},
        "places": dict(m.names),
        "marks": {h: tuple(v) for h, v in sorted(marks.items())},
    }
    if len(_STATIC) > 16:
        _STATIC.clear()
    _STATIC[id(scn)] = (weakref.ref(scn), found)
    return found


def strength(rules: AvaRules, state: dict[str, Any], uid: str) -> str:
    spec = rules.scn.units[uid]
    full = state["units"][uid]["steps"] >= spec.steps
    if spec.is_hq and spec.command_range:
        return f"CR {spec.command_range}"
    a, d, m = (spec.attack, spec.defense, spec.move) if full else \
        (spec.attack_reduced, spec.defense_reduced, spec.move_reduced)
    return f"{a}-{d}-{m / 2:g}"


def piece(rules: AvaRules, state: dict[str, Any], uid: str) -> Piece:
    spec = rules.scn.units[uid]
    x = state["units"][uid]
    steps = f"{x['steps']}/{spec.steps}" if x["steps"] < spec.steps else ""
    markers = tuple(w for w, on in (("active", x["active"]), ("retreated", x.get("retreated"))) if on)
    return Piece(spec.side, orders.short(rules.scn, uid), strength(rules, state, uid), steps, markers=markers)


def picture(rules: AvaRules, state: dict[str, Any]) -> HexMapPicture:
    scn = rules.scn
    static = _static(scn)
    b = rules.board(state)
    stacks = {h: tuple(piece(rules, state, u) for u in sorted(b.units_at(h), key=lambda u: (scn.units[u].is_hq, u)))
              for h in sorted(b.at)}
    marks = dict(static["marks"])
    for h in state.get("stand_fast", []):
        marks[h] = marks.get(h, ()) + ("SF",)
    for h, n in sorted(state.get("fortress", {}).items()):
        marks[h] = marks.get(h, ()) + (f"F+{n}",)
    for h, side in sorted(state.get("control", {}).items()):
        if side != scn.map.initial_control.get(h):
            marks[h] = marks.get(h, ()) + (f"control-{side}",)
    return HexMapPicture("map", grid_of(scn), static["terrain"], static["hexsides"], static["places"], marks,
                         stacks, LEGEND)


SCENARIO_LEGEND = ("terrain: first letter (. = plains); C city, M major city; A / S Axis / Soviet supply source; "
                   "~ minor, = major river, | start line on the hexside toward the next row")
COLUMNS = 12


def _cell(scn: Scenario, h: str) -> str:
    m = scn.map
    t = m.terrain_of(h)
    text = "." if t == "plains" else t[0]
    text += {"city": "C", "major_city": "M"}.get(m.cities.get(h, ""), "")
    text += "A" if h in m.supply.get("axis", ()) else ""
    text += "S" if h in m.supply.get("soviet", ()) else ""
    col, row = m.grid.col_row(h)
    below = m.grid.hex_id(col, row + 1)
    if below in m.grid:
        feats = m.side_features(h, below)
        text += "=" if "major_river" in feats else ("~" if "minor_river" in feats else "")
        text += "|" if "start_line" in feats else ""
    return text


def scenario_view(scn: Scenario) -> View:
    """The whole map of a scenario in windows of twelve columns."""
    g = scn.map.grid
    blocks: list[Any] = [TextBlock("legend", (SCENARIO_LEGEND,))]
    for start in range(g.first_col, g.last_col + 1, COLUMNS):
        cols = range(start, min(start + COLUMNS, g.last_col + 1))
        cells = {g.hex_id(c, r): _cell(scn, g.hex_id(c, r)) for c in cols for r in range(g.first_row, g.last_row + 1)}
        hexes = tuple(g.hex_id(c, r) for c in cols for r in (g.first_row, g.last_row))
        blocks.append(HexMapBlock(f"columns {cols.start:02d}-{cols.stop - 1:02d}", grid_of(scn), hexes, cells))
    return View(f"{scn.title}: map", tuple(blocks), practice=(scn.notice or PRACTICE) if scn.practice else "")
