"""Haltebefehl, the stand-fast order (6.7).

``state["haltebefehl"]`` maps a hex to its marker's side: ``"garrison"``
(the side with the 0-1-0 values: Major Cities in Germany and the Budapest
hexes, 6.7.2) or ``"plain"`` (every other Major City or Baltic port).
Every German division in the hex is under it (6.7.4).

Placed or taken away at the start of the German Movement phase (6.7.1,
R-30), at most ten on the map (6.7.3); gone by itself when no German unit
is left under it (6.7.9; R-71: the garrison side too, it is a marker, not a
unit that holds a hex alone).  *Isolated* (6.7.5) when three neighbouring
hexes hold enemy units and the hex cannot trace a Supply Route (R-25:
traced from the hex as an HQ's is): its divisions cannot attack, get no
replacements, and the defender's tactical row is the Haltebefehl row
(:data:`pbem.games.vr.combat.HALTEBEFEHL_ROW`).  Units entering an isolated
marker's hex stop there, German retreats too, and an overstack is resolved
at once by the German player (6.7.7).
"""
from __future__ import annotations

from typing import Any

from pbem.games.vr import supply
from pbem.games.vr.board import Board
from pbem.games.vr.model import GERMAN, SOVIET

MAX_MARKERS = 10                                      # 6.7.3


def side_for(b: Board, h: str) -> str | None:
    """The marker's side a hex takes, or None where none may go (6.7.1-6.7.2)."""
    m = b.map
    if m.cities.get(h) == "major":
        budapest = h in m.capitals.get("hungary", frozenset())
        return "garrison" if m.country_of(h) == "germany" or budapest else "plain"
    if m.ports.get(h) == "baltic":
        return "plain"
    return None


def divisions(b: Board, h: str) -> list[str]:
    return [u for u in b.units_at(h) if b.side_of(u) == GERMAN and b.spec(u).kind != "hq"]


def place_refusal(b: Board, h: str) -> str | None:
    if side_for(b, h) is None:
        return f"{h} is neither a Major City nor a Baltic port (6.7.1)"
    if b.haltebefehl(h):
        return f"{h} is already under a Haltebefehl"
    if not any(b.spec(u).nationality == "ger" for u in divisions(b, h)):
        return f"no German division in {h} (6.7.1)"
    if len(b.state.get("haltebefehl") or {}) >= MAX_MARKERS:
        return f"{MAX_MARKERS} Haltebefehl markers are already on the map (6.7.3)"
    return None


def soviet_division_adjacent(b: Board, h: str) -> bool:
    return any(b.side_of(u) == SOVIET and b.spec(u).kind != "hq" for n in b.map.neighbors(h) for u in b.units_at(n))


def remove_refusal(b: Board, h: str) -> str | None:
    if not b.haltebefehl(h):
        return f"no Haltebefehl marker in {h}"
    if soviet_division_adjacent(b, h):
        return f"a Soviet division is next to {h}: its Haltebefehl stays (6.7.6)"
    return None


def isolated(b: Board, h: str) -> bool:
    """6.7.5: three neighbours held by the enemy and no Supply Route."""
    if not b.haltebefehl(h):
        return False
    held = sum(1 for n in b.map.neighbors(h) if b.enemy_occupied(n, GERMAN))
    if held < 3:
        return False
    return not (h in supply.sources(b, GERMAN) or h in supply.route_hexes(b, GERMAN))


def leave_refusal(b: Board, moving: list[str], h: str) -> str | None:
    """6.7.6: with a Soviet division next to the marker, one German
    division stays under it."""
    if not b.haltebefehl(h) or not soviet_division_adjacent(b, h):
        return None
    if all(u in moving for u in divisions(b, h)):
        return f"a Soviet division is next to {h}: one German division stays under its Haltebefehl (6.7.6)"
    return None


def cleanup(state: dict[str, Any], b: Board) -> list[str]:
    """6.7.9, R-71: markers with no German unit under them go; the hexes."""
    gone = [h for h in sorted(state.get("haltebefehl") or {}) if not any(b.side_of(u) == GERMAN
                                                                        for u in b.units_at(h))]
    for h in gone:
        del state["haltebefehl"][h]
    return gone
