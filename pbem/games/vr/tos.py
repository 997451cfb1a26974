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
    for to in (state.get("tos") or {}):
        if within(r, state, to, h):
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


# ------------------------------------------------ the Advanced Support phase
def turn_state(state: dict[str, Any]) -> dict[str, Any]:
    """This Soviet player turn's TO facts (11.3, 11.5.3, 11.7): reset when
    the Soviet Support phase begins, read until the next one."""
    t = state.get("to_turn")
    if not t or t.get("turn") != state["turn"]:
        t = {"turn": state["turn"], "priority": None, "secondary": None, "large": False, "no_move": [],
             "moved": [], "used": {}, "reinforce": {}, "artillery": [], "zhukov": [], "lend_lease": None,
             "remote": [], "remote_moved": []}
        state["to_turn"] = t
    return t


def range_of(r: Any, state: dict[str, Any], to: str) -> int:
    """9.1.2 with Lend-Lease's bonus on the TO it was placed on (11.5.2;
    the card's ``lend_lease_range``, R-81)."""
    marker = state["tos"][to]
    t = state.get("to_turn") or {}
    bonus = r.scn.card.lend_lease_range if t.get("lend_lease") == to and t.get("turn") == state["turn"] else 0
    return operation_range(marker) + bonus


def within(r: Any, state: dict[str, Any], to: str, h: str) -> bool:
    return bool(r.scn.map.distance(state["tos"][to]["hex"], h) <= range_of(r, state, to))


def remote(r: Any, state: dict[str, Any], to: str) -> bool:
    """11.2: more than 10 hexes from every enemy unit in supply and from
    every Haltebefehl marker."""
    from pbem.games.vr.tables import REMOTE
    m = r.scn.map
    h = state["tos"][to]["hex"]
    for uid, x in state["units"].items():
        if x["hex"] and x["side"] == "german" and not x["oos"] and m.distance(h, x["hex"]) <= REMOTE:
            return False
    return all(m.distance(h, k) > REMOTE for k in state.get("haltebefehl") or {})


def road_linked(r: Any, state: dict[str, Any], a: str, b: str) -> bool:
    """10.3.2: a road or railroad joins ``a`` to ``b`` through hexes free
    of German units."""
    m = r.scn.map
    seen, todo = {a}, [a]
    while todo:
        h = todo.pop()
        if h == b:
            return True
        for n in m.neighbors(h):
            if n not in seen and m.connected(h, n) and not _german_in(state, n):
                seen.add(n)
                todo.append(n)
    return False


def _german_in(state: dict[str, Any], h: str) -> bool:
    return any(x["hex"] == h and x["side"] == "german" for x in state["units"].values())


def spot_refusal(r: Any, state: dict[str, Any], h: str) -> str | None:
    """9.1.4: a TO stands on a road or railroad hex that traces a Supply
    Route to a Soviet source, never with a German unit."""
    from pbem.games.vr import supply
    m = r.scn.map
    if not m.on_map(h):
        return f"{h} is not on the map"
    if _german_in(state, h):
        return f"a German unit is in {h} (9.1.4)"
    if not m.on_road_or_rail(h):
        return f"{h} has no road or railroad (9.1.4)"
    b = r.board(state)
    if h not in supply.sources(b, "soviet") and h not in supply.route_hexes(b, "soviet"):
        return f"{h} cannot trace a Supply Route (9.1.4)"
    return None


def displaced(r: Any, state: dict[str, Any]) -> list[str]:
    """The TOs that break 9.1.4 now."""
    return [to for to, mk in sorted((state.get("tos") or {}).items()) if spot_refusal(r, state, mk["hex"])]


def refuges(r: Any, state: dict[str, Any], to: str) -> list[str]:
    """9.1.4: the nearest Soviet-controlled Major Cities eastwards (a column
    not west of the TO's, R-83) that trace a Supply Route; every one at
    that distance (the Soviet player picks)."""
    m = r.scn.map
    here = state["tos"][to]["hex"]
    col = int(here[:2])
    cand = [h for h, c in m.cities.items() if c == "major" and int(h[:2]) >= col
            and state["control"].get(h) == "soviet" and spot_refusal(r, state, h) is None]
    if not cand:
        cand = [h for h in sorted(m.east_edge) if spot_refusal(r, state, h) is None]     # the map edge
    if not cand:
        return []
    best = min(m.distance(here, h) for h in cand)
    return sorted(h for h in cand if m.distance(here, h) == best)


def move_to(r: Any, state: dict[str, Any], to: str, h: str, events: list[Any]) -> None:
    """A displaced TO goes to ``h``; every Support in its box back to the
    pool (9.1.4)."""
    from pbem.game import Event
    sup = state["supports"]["soviet"]
    box = sup.setdefault("box", {})
    back = [k for k in list(sup["available"]) if box.get(k) == to]
    for k in back:
        r.return_handle(state, "soviet", k)
    old = state["tos"][to]["hex"]
    state["tos"][to]["hex"] = h
    events.append(Event(f"TO {to} cannot stay in {old}: moved to {h}; {len(back)} Support(s) of its box back to "
                        "the pool (9.1.4)"))
