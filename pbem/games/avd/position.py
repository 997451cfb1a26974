"""A Victory Denied positions: a situation described as a TOML table, to
start a game from (``pbem new --position``) or to write one down (``pbem
position``).  docs/FILE-FORMAT.md ("Positions") gives the layout::

    game = "avd"
    turn = 2
    active = "german"
    point = "combat"              # or stack = [{k = "endturn"}, ...], exactly
    others = "removed"            # units not listed: "removed" or "scenario"
    [map]                         # optional: only the rectangle between two corners exists
    from = "3515"
    to = "4222"
    [units]
    G-3Pz = {hex = "3919", active = true}
    S-45C = {hex = "4020", steps = 1, oos = true}
    S-1MRD = {where = "reserve"}
    [markers]                     # any other part of the state that differs from the scenario's start
    stukas_ready = 0

A position is public: a game cannot start from secret chits (the player
who creates it would know his opponent's), so a face-down chit in the cup
or a chit held in secret is refused.  TOML has no "no value": ``"none"``
stands for it in the stack and the markers.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.game import ScenarioError, State
from pbem.game.base import check_position, set_markers
from pbem.game.base import decode_none as decode
from pbem.game.base import encode_none as encode
from pbem.games.avd.model import SIDES, AvdMap

if TYPE_CHECKING:
    from pbem.games.avd.rules import AvdRules

KEYS = {"game", "scenario", "turn", "phase", "active", "point", "stack", "others", "units", "markers", "map",
        "hidden"}
PLACES = ("map", "offmap", "minsk", "reserve", "timoshenko", "stars", "turn_track", "removed", "elite_cup",
          "elim_motorized", "placing", "hitler_removed")
FLAGS = ("oos", "isolated", "active", "moved", "attacked")
UNIT_KEYS = {"hex", "where", "steps", "arrives", *FLAGS}
# The state's own keys a position writes apart from the markers (or never: the hidden parts).
OWN = {"turn", "phase", "active", "stack", "units", "hidden"}
# Shorthand for the common points of the sequence of play (4.0); ``stack``
# gives any other exactly, as ``pbem position`` writes it.
POINTS: dict[str, tuple[str, list[dict[str, Any]]]] = {
    "chits": ("command", [{"k": "chits", "done": []}]),
    "move": ("operations", [{"k": "endturn"}, {"k": "combat", "special": False}, {"k": "move", "mode": "normal"}]),
    "combat": ("operations", [{"k": "endturn"}, {"k": "combat", "special": False}]),
    "endturn": ("operations", [{"k": "endturn"}]),
}


# ------------------------------------------------------------------ writing


def position_of(rules: "AvdRules", state: State, seat: str | None) -> dict[str, Any]:
    start = rules.scenario_start()
    out: dict[str, Any] = {"game": "avd", "scenario": rules.scn.id, "turn": state["turn"], "phase": state["phase"]}
    if state.get("active"):
        out["active"] = state["active"]
    out["stack"] = encode(state["stack"])
    out["others"] = "removed"
    if rules.position_map:
        out["map"] = dict(rules.position_map)
    out["units"] = {uid: _unit_entry(rules, uid, u) for uid, u in sorted(state["units"].items())}
    out["markers"] = {k: encode(v) for k, v in sorted(state.items()) if k not in OWN and (k not in start or start[k] != v)}
    hidden = {s: encode(h) for s, h in sorted((state.get("hidden") or {}).items())
              if h is not None and h != (start.get("hidden") or {}).get(s)}
    if hidden:                      # only the audit's state holds them all
        out["hidden"] = hidden
    return out


def _unit_entry(rules: "AvdRules", uid: str, u: dict[str, Any]) -> dict[str, Any]:
    entry: dict[str, Any] = {"hex": u["hex"]} if u["where"] == "map" else {"where": u["where"]}
    if u["steps"] != rules.scn.units[uid].steps:
        entry["steps"] = u["steps"]
    entry.update({f: True for f in FLAGS if u.get(f)})
    if u.get("arrives") is not None:
        entry["arrives"] = u["arrives"]
    return entry


# ------------------------------------------------------------------ reading


def bound(rules: "AvdRules", position: dict[str, Any]) -> "AvdRules":
    """``rules``, or rules on the smaller map the position declares."""
    from dataclasses import replace     # (here: a cold verify imports no dataclasses, speed only)

    from pbem.games.avd.rules import AvdRules

    if "map" not in position:
        return rules
    return AvdRules(replace(rules.scn, map=_only(rules.scn.map, position["map"])), rules.options)


def start_from(rules: "AvdRules", position: dict[str, Any]) -> None:
    state = state_from_position(rules, position)
    if "map" in position:
        rules.scn = bound(rules, position).scn
        rules.position_map = dict(position["map"])
        rules._shared.clear()
    rules.position_start = state


def _only(amap: AvdMap, spec: Any) -> AvdMap:
    from dataclasses import replace

    from pbem.games.avd.scenario import _grid

    if not isinstance(spec, dict) or set(spec) != {"from", "to"}:
        raise ScenarioError('position: [map] takes from = "HEX" and to = "HEX", the corners of the hexes kept')
    grid = _grid(amap.first_col, amap.last_col, amap.first_row, amap.last_row, amap.offset)
    corners = []
    for key in ("from", "to"):
        if spec[key] not in grid:
            raise ScenarioError(f"position: [map] {key} = {spec[key]!r} is not a hex of the map")
        corners.append(grid.col_row(spec[key]))
    (c1, r1), (c2, r2) = corners
    small = _grid(min(c1, c2), max(c1, c2), min(r1, r2), max(r1, r2), amap.offset)

    def keep(hexes: Any) -> frozenset[str]:
        return frozenset(h for h in hexes if h in small)

    return replace(
        amap, first_col=min(c1, c2), last_col=max(c1, c2), first_row=min(r1, r2), last_row=max(r1, r2),
        terrain={h: t for h, t in amap.terrain.items() if h in small},
        hexsides={k: f for k, f in amap.hexsides.items() if all(h in small for h in k.split("|"))},
        victory={h: v for h, v in amap.victory.items() if h in small},
        names={h: n for h, n in amap.names.items() if h in small},
        moscow=keep(amap.moscow), minsk_pocket=keep(amap.minsk_pocket), supply_german=keep(amap.supply_german),
        supply_soviet=keep(amap.supply_soviet), supply_soviet_until_turn4=keep(amap.supply_soviet_until_turn4),
        entry={k: h for k, h in amap.entry.items() if h in small}, timoshenko_entry=keep(amap.timoshenko_entry))


def state_from_position(rules: "AvdRules", position: dict[str, Any]) -> State:
    check_position(position, "avd", KEYS, "secret chits")
    r = bound(rules, position)
    st = r.scenario_start()
    turn = position.get("turn", st["turn"])
    if not isinstance(turn, int) or isinstance(turn, bool) or not 1 <= turn <= r.last_turn:
        raise ScenarioError(f"position: turn {turn!r} is not a turn of the game (1..{r.last_turn})")
    st["turn"] = turn
    active = position.get("active")
    if active is not None and active not in SIDES:
        raise ScenarioError(f"position: active {active!r} is not a side ({', '.join(SIDES)})")
    st["active"] = active
    _stack(st, position)
    _units(r, st, position)
    set_markers(st, position.get("markers", {}), OWN)
    if st.get("sealed") or any(isinstance(c, str) and c.startswith("sealed:") for c in st.get("cup", [])):
        raise ScenarioError("position: a chit in the cup is face down (secret): write every chit face up")
    try:
        d = r.pending(st)
        if d is not None:
            d.options   # lists lazily (Decision.lazy): a list that cannot be made fails here, by name
    except ScenarioError:
        raise
    except Exception as exc:
        raise ScenarioError(f"position: the sequence of play cannot go on from it ({type(exc).__name__}: {exc})") \
            from None
    return st


def _stack(st: State, position: dict[str, Any]) -> None:
    if "stack" in position and "point" in position:
        raise ScenarioError("position: give point or stack, not both")
    if "stack" in position:
        stack = decode(position["stack"])
        if not isinstance(stack, list) or not all(isinstance(f, dict) and isinstance(f.get("k"), str) for f in stack):
            raise ScenarioError("position: stack is a list of frames, each a table with its kind k")
        st["stack"] = stack
        st["phase"] = str(position.get("phase", st["phase"]))
        return
    point = position.get("point", "chits")
    if point not in POINTS:
        raise ScenarioError(f"position: point {point!r} is not one of {', '.join(POINTS)} (or give the stack)")
    phase, frames = POINTS[point]
    st["phase"], st["stack"] = str(position.get("phase", phase)), [dict(f) for f in frames]
    if point != "chits" and st["active"] is None:
        raise ScenarioError(f"position: at point {point} name the active side")


def _units(rules: "AvdRules", st: State, position: dict[str, Any]) -> None:
    from pbem.games.avd.scenario import _grid

    amap = rules.scn.map
    grid = _grid(amap.first_col, amap.last_col, amap.first_row, amap.last_row, amap.offset)
    given = position.get("units", {})
    others = position.get("others", "removed")
    if not isinstance(given, dict) or others not in ("removed", "scenario"):
        raise ScenarioError('position: [units] is a table of unit id = {...}; others is "removed" or "scenario"')
    for uid in sorted(given):
        if uid not in rules.scn.units:
            raise ScenarioError(f"position: no unit {uid!r} in scenario {rules.scn.id}")
    for uid, u in st["units"].items():
        spec = rules.scn.units[uid]
        if uid not in given:
            if others == "removed" or (u["where"] == "map" and u["hex"] not in grid):
                u.update(where="removed", hex=None)
            continue
        e = given[uid]
        if not isinstance(e, dict) or set(e) - UNIT_KEYS or ("hex" in e) == ("where" in e and e["where"] != "map"):
            raise ScenarioError(f"position: unit {uid} takes hex = \"HEX\" (on the map) or where = \"PLACE\", "
                                f"and steps, arrives, {', '.join(FLAGS)}")
        where = "map" if "hex" in e else e["where"]
        if where not in PLACES:
            raise ScenarioError(f"position: unit {uid}: where {where!r} is not one of {', '.join(PLACES)}")
        if where == "map" and e.get("hex") not in grid:
            raise ScenarioError(f"position: unit {uid}: {e.get('hex')!r} is not a hex of the map")
        steps = e.get("steps", spec.steps)
        if not isinstance(steps, int) or isinstance(steps, bool) or not 1 <= steps <= spec.steps:
            raise ScenarioError(f"position: unit {uid}: steps {steps!r} (it has 1..{spec.steps})")
        u.update(where=where, hex=e.get("hex") if where == "map" else None, steps=steps,
                 arrives=e.get("arrives"), **{f: bool(e.get(f, False)) for f in FLAGS})
