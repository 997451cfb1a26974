"""Theaters of Operation (§9) and the clauses of §1-8 that read a TO's
Operation Range, with the Soviet infantry corps' two modes (§10).

``state["tos"]`` (only with ``profile.to_rules``) maps each TO marker to
``{"hex": "5426", "mode": "offensive" | "movement"}``, placed from the
card's ``[card.markers.tos]``.  The Operation Range is a plain hex distance
from the marker (its hex not counted): 9 in Offensive Mode, 5 in Movement
Mode (9.1.2).

With ``to_rules`` off (the Basic game) none of these clauses is in force
(R-13): :func:`outside_every_range` is never asked, Hourra! is not
declared.  A Soviet infantry corps in Reinforced Mode is its front side
(1.3.1), so "put in Standard Mode" is the flip to its back, and with
``infantry_modes`` on, an eliminated corps goes back to the draw pile
(1.3.3).
"""
from __future__ import annotations

from typing import Any

from pbem.games.vr.model import TOS
from pbem.games.vr.tables import OPERATION_RANGE


def new_state(r: Any) -> dict[str, Any] | None:
    if not r.profile.to_rules:
        return None
    placed = r.scn.card.markers.get("tos") or {}
    out = {}
    for to, spec in placed.items():
        if to not in TOS:
            raise ValueError(f"card.markers.tos: {to!r} is not a TO ({', '.join(TOS)})")
        out[to] = {"hex": str(spec["hex"]), "mode": str(spec.get("mode", "offensive"))}
    return out


def operation_range(marker: dict[str, Any]) -> int:
    return int(OPERATION_RANGE[marker["mode"]])


def in_range(r: Any, state: dict[str, Any], h: str) -> bool:
    """``h`` is within the Operation Range of some TO marker (9.1.2)."""
    for marker in (state.get("tos") or {}).values():
        if r.scn.map.distance(marker["hex"], h) <= operation_range(marker):
            return True
    return False


def outside_every_range(r: Any, state: dict[str, Any], h: str) -> bool:
    """The TO-range clauses of §1-8 (6.1.11, 6.2.4, 7.7.9, 7.8.4, 7.10.14):
    only when the rule is in force (R-13)."""
    return bool(r.profile.to_rules) and not in_range(r, state, h)


def reinforced(r: Any, state: dict[str, Any], uid: str) -> bool:
    """A Soviet infantry corps on its front side, Reinforced Mode (1.3.1)."""
    spec = r.scn.units[uid]
    return bool(r.profile.infantry_modes and spec.corps and state["units"][uid]["steps"] >= spec.steps > 1)


def to_standard(r: Any, state: dict[str, Any], uid: str, events: list[Any], why: str) -> None:
    from pbem.game import Event
    state["units"][uid]["steps"] = 1
    events.append(Event(f"{uid} goes to Standard Mode: {why}"))
