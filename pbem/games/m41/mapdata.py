"""Moscow '41's whole map as data (:class:`pbem.game.AreaMapPicture`), for
``pbem map``, the mail and ``pbem sitrep --map all``.

Built from a state that :func:`pbem.games.m41.sitrep.view` has already
reduced to what one seat may see: his own blocks with identity and
strength (his hidden part), the opponent's as a token and its wood colour
unless face up (1.5 fog of war).  Centre points come from the scenario's
``[map.layout]`` (area id -> [x, y]) when it gives them; an area without
one goes into the picture's row of boxes.
"""
from __future__ import annotations

from typing import Any

from pbem.game import Area, AreaLink, AreaMapPicture, Piece

from . import mechanics as mx
from .model import SIDES, Scenario

LEGEND = ("Each area: number and name, terrain, marks; its frame is the colour of the side that controls it. "
          "Your own blocks show their name and strength; the opponent's show only their token and wood colour "
          "unless face up. Lines between areas: road (brown), rail (dashed), a blue bar a river on the border.")


def _short(block: str) -> str:
    """A block's id without its side prefix ("G-1Cav" -> "1Cav")."""
    return block.split("-", 1)[1] if block[:2] in ("G-", "S-") else block


def piece(sc: Scenario, state: dict[str, Any], tok: str, viewer: str | None) -> Piece:
    """One block as ``viewer`` may see it."""
    v = state["tokens"][tok]
    own = (state.get("hidden") or {}).get(viewer) if viewer else None
    markers = ("isolated",) if v.get("cube") else ()
    if v["revealed"]:
        return Piece(v["side"], _short(v["block"]), str(v["strength"]), colour=v["colour"], markers=markers)
    if own is not None and v["side"] == viewer and tok in own["blocks"]:
        e = own["blocks"][tok]
        return Piece(v["side"], _short(e["block"]), str(e["strength"]), colour=v["colour"], markers=markers)
    return Piece(v["side"], tok, colour=v["colour"], markers=markers, face_down=True)


def picture(sc: Scenario, state: dict[str, Any], seat: str | None) -> AreaMapPicture:
    """Every area and box of the map with what ``seat`` may see there."""
    layout = sc.layout
    victory = set(sc.victory.values())
    areas = []
    for a in sc.graph.areas:
        marks = tuple(w for w, on in (("city", a in sc.cities), ("victory", a in victory),
                                      (f"DL {state['dl'].get(a)}", bool(state["dl"].get(a))),
                                      ("special city", a in sc.special_cities.values())) if on)
        pieces = tuple(piece(sc, state, t, seat) for s in SIDES for t in mx.tokens_in(state, a, s))
        centre = layout.get(a)
        areas.append(Area(a, sc.area_name(a), sc.terrain.get(a, ""), (centre[0], centre[1]) if centre else None,
                          control=state["control"].get(a, ""), marks=marks, pieces=pieces, box=sc.is_box(a)))
    links = []
    for a in sc.graph.areas:
        for b in sc.graph.neighbors(a):
            if mx.natural(a) < mx.natural(b):
                f = sc.graph.features(a, b)
                feats = tuple(([f"river:{f['river']}"] if f.get("river") else [])
                              + [k for k in ("road", "rail") if f.get(k)])
                links.append(AreaLink(a, b, feats))
    size = (max((x for x, _ in layout.values()), default=0), max((y for _, y in layout.values()), default=0))
    return AreaMapPicture("map", size, tuple(areas), tuple(links), LEGEND)
