"""Victory Roads' whole map as data (:class:`pbem.game.HexMapPicture`) for
``pbem map`` and ``pbem sitrep --map all``, and the scenario picture of
``pbem scenario map``.  Stacks carry only what the counters print and the
public markers (OoS, Exploit, Pontoon); Supports never appear on it."""
from __future__ import annotations

from typing import Any

from pbem.board.hexgrid import side_key
from pbem.game import HexMapBlock, HexMapPicture, Piece, TextBlock, View

LEGEND = ("Each hex: its id, terrain colour (the first terrain type; several types: the defender picks one), place "
          "name; marks: major/minor city, fortification, supply source. Blue lines rivers (thick: major), brown "
          "roads, black railroads, a grey bar a bridge. A counter: attack-defence-MP (MP whole), steps when "
          "reduced; OoS out of supply, EXP exploiting, PON an HQ on its Pontoon side.")


def grid_of(scn: Any) -> tuple[int, int, int, int, str]:
    g = scn.map.grid
    return (g.first_col, g.last_col, g.first_row, g.last_row, g.offset)


def _static(scn: Any) -> dict[str, Any]:
    m = scn.map
    marks: dict[str, list[str]] = {}
    for h, c in m.cities.items():
        marks.setdefault(h, []).append(f"{c} city")
    for h, c in m.fortifications.items():
        marks.setdefault(h, []).append(f"{c} fort")
    for h in sorted(m.east_edge | m.june_cities):
        marks.setdefault(h, []).append("supply-soviet")
    sides: dict[str, list[str]] = {}
    for k, feats in m.hexsides.items():
        sides.setdefault(k, []).extend(sorted(feats))
    for k in sorted(m.road_sides):
        sides.setdefault(k, []).append("road")
    for k in sorted(m.rail_sides):
        sides.setdefault(k, []).append("rail")
    terrain = {h: m.terrain_of(h)[0] for h in m.play_area if m.terrain_of(h) != ("clear",)}
    return {"terrain": terrain, "hexsides": {k: tuple(v) for k, v in sides.items()},
            "places": dict(m.names), "marks": {h: tuple(v) for h, v in marks.items()}}


def strength(r: Any, state: dict[str, Any], uid: str) -> str:
    b = r.board(state)
    spec = r.scn.units[uid]
    if spec.is_hq:
        return f"CR {spec.command_radius}"
    return f"{b.attack(uid)}-{b.defense(uid)}-{b.move(uid) // 2}"


def piece(r: Any, state: dict[str, Any], uid: str) -> Piece:
    x = state["units"][uid]
    spec = r.scn.units[uid]
    steps = f"{x['steps']}/{spec.steps}" if x["steps"] < spec.steps else ""
    markers = tuple(w for w, on in (("OoS", x["oos"]), ("EXP", x["exploit"]), ("PON", bool(x.get("pontoon"))))
                    if on)
    side = x.get("side") or spec.home_side
    return Piece(side, uid, strength(r, state, uid), steps, markers=markers)


def picture(r: Any, state: dict[str, Any]) -> HexMapPicture:
    st = _static(r.scn)
    b = r.board(state)
    stacks = {h: tuple(piece(r, state, u) for u in sorted(us, key=lambda u: (r.scn.units[u].is_hq, u)))
              for h, us in sorted(b.at.items())}
    return HexMapPicture("map", grid_of(r.scn), st["terrain"], st["hexsides"], st["places"], st["marks"], stacks,
                         LEGEND)


def scenario_view(data: dict[str, Any]) -> View:
    """The scenario's map in windows of twelve columns (``pbem scenario map``)."""
    from pbem.games.vr import scenario as loader

    scn = loader.load(data)
    m = scn.map
    g = m.grid
    blocks: list[Any] = [TextBlock("legend", ("terrain: first letter (. clear); C major / c minor city; F fort; "
                                              "S Soviet source; = major river, ~ minor river toward the next row",))]
    for start in range(g.first_col, g.last_col + 1, 12):
        cols = range(start, min(start + 12, g.last_col + 1))
        cells = {}
        for c in cols:
            for row in range(g.first_row, g.last_row + 1):
                h = g.hex_id(c, row)
                t = m.terrain_of(h)[0]
                text = "." if t == "clear" else t[0]
                text += {"major": "C", "minor": "c"}.get(m.cities.get(h, ""), "")
                text += "F" if h in m.fortifications else ""
                text += "S" if h in m.east_edge or h in m.june_cities else ""
                below = g.hex_id(c, row + 1) if row < g.last_row else None
                if below:
                    f = m.hexsides.get(side_key(h, below), frozenset())
                    text += "=" if "major_river" in f else "~" if "minor_river" in f else ""
                cells[h] = text
        hexes = tuple(g.hex_id(c, rr) for c in cols for rr in (g.first_row, g.last_row))
        blocks.append(HexMapBlock(f"columns {cols.start:02d}-{cols.stop - 1:02d}", grid_of(scn), hexes, cells))
    return View(f"{scn.title}: map", tuple(blocks), practice=scn.notice if scn.practice else "")
