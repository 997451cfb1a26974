"""Reading a *Fierce Fight!* scenario file into a :class:`Scenario`.

The file layout (TOML; every table described in ``scenarios/ava/README.md``)::

    [scenario]   id, game ("ava"|"ffs"), title, practice, notice, source,
                 missing = ["map", "crt", ...]   # kinds of data still to transcribe
    [map]        first_col, last_col, first_row, last_row, offset ("odd-q"),
                 off_map = [hex, ...]            # grid hexes outside the play area
                 -- or, several printed maps joined (the campaign):
                 maps = { S = {name, first_col, last_col, first_row, last_row, offset}, K = {...} },
                 [map.seams] S-K = { rows = [30, 1] }, pairs = ["S:xxxx|K:yyyy"]
                 and every hex id below written with its map: "S:4112"
    [map.terrain]    light_woods = [...], heavy_woods, marsh, lake, mountain
    [map.cities]     major_city = [...], city = [...]
    [map.names]      "4112" = "Smolensk"
    [map.hexsides]   minor_river = ["a|b", ...], major_river, prohibited, start_line, border
    [map.roads] / [map.railroads]   name = [hex chain]
    [map.supply]     axis = [...], soviet = [...]; [map.source_tags] from_moscow = [...], east_edge = [...]
    [map.control]    axis = [...]   # city hexes the Axis controls at the start (the rest: Soviet)
    [map.stand_fast] hexes = [...];  [map.fortress] "0927" = 1;  [map.vp_hexes] tag = [...]
    [map.deployment] zone = [...]
    [terrain.NAME]   mp_foot, mp_mech (half MP; omitted = no entry), shifts, stops_advance
    [crt]            columns = [...]; [crt.rows] "1" = [...] ... "6" = [...]
    [turn_track]     last_turn, soviet_chits = [...], axis_chits = [...],
                     [turn_track.reinforcements] ger = [...], rum = [...], sov = [...]
    [chits.ID]       side, kind, hq, turn, choice
    [units.ID]       name, side, nationality, kind, type, steps, attack, defense, move,
                     attack_reduced, defense_reduced, move_reduced, formation, start,
                     command_range, flags
    [params]         the fields of :class:`Params`
    [victory]        threshold, short_threshold, [victory.points]

A value the rulebook text does not give is written as the string
``"MISSING"`` (or its table carries ``missing = true``); :func:`gaps` names
every such place by kind, and :func:`load` refuses a file with any, so a
published scenario is complete as far as the text goes and says exactly
what is still to transcribe from the printed components.
"""
from __future__ import annotations

from typing import Any

from pbem.board import gaps as board_gaps
from pbem.board.hexgrid import HexGrid, side_key
from pbem.board.multimap import MultiMap, seams_from_table
from pbem.game import ScenarioError
from pbem.games.ava.model import (
    HEXSIDE_FEATURES, SIDES, TERRAINS, ChitSpec, Crt, HexMap, Params, Scenario, TerrainSpec,
    TurnTrack, UnitSpec, VictorySpec,
)

MISSING = "MISSING"

# Which part of the file each gap kind names (``pbem scenario check``).  A top-level table not
# named here is reported under its own name (``multiplayer``, ``seats``).
GAP_KINDS = {"map": "map", "terrain": "terrain chart", "crt": "combat results table",
             "turn_track": "turn track", "chits": "chit schedule", "units": "counters",
             "params": "scenario parameters", "victory": "victory conditions"}


def gaps(data: dict[str, Any]) -> list[str]:
    """Every value still missing, grouped by kind, one line per table entry
    ("counters: units.SU-19A-01: name, steps, attack"), a list's missing
    cells counted ("combat results table: crt.rows.1 (11 of 11)") and a
    table the text gives only in part named whole ("map: map.terrain
    (whole table)").  Also the kinds ``[scenario] missing`` names and the
    ``[[missing]]`` entries of :mod:`pbem.scenario`'s format."""
    return board_gaps.gaps(data, GAP_KINDS, grouped=True, whole_file=True)


def gap_summary(data: dict[str, Any]) -> dict[str, int]:
    """How many gap lines each kind has (kind label -> count)."""
    out: dict[str, int] = {}
    for line in gaps(data):
        kind = line.split(":", 1)[0]
        out[kind] = out.get(kind, 0) + 1
    return out


def load(data: dict[str, Any]) -> Scenario:
    """A playable scenario, or ScenarioError naming the first problem."""
    return board_gaps.load_complete(data, gaps(data), _load, ScenarioError)


def check(data: dict[str, Any]) -> list[str]:
    """Everything ``pbem scenario check`` should say about a file: its gaps
    by kind; else why it cannot be read; else its :func:`problems`.  Empty:
    playable.  (:func:`load` itself checks only what it must to build the
    objects, so that rule tests may use partial synthetic scenarios.)"""
    out = gaps(data)
    if out:
        return out
    try:
        scn = _load(data)
    except (KeyError, TypeError, ValueError) as exc:
        return [f"bad scenario file: {type(exc).__name__}: {exc}"]
    return problems(scn)


UNIT_KINDS = ("mech", "foot", "hq")
NATIONALITIES = ("ger", "rum", "sov")
CHIT_KINDS = ("hq", "interrupt", "reinforcement", "supply", "reserve", "okh", "army19")


def problems(scn: Scenario) -> list[str]:
    """What makes a complete scenario unplayable, one line each: a unit set
    up off the map, in a lake or overstacked, a formation or chit naming no
    HQ, a map list naming a hex off the map, a turn-track list of the wrong
    length."""
    return _unit_problems(scn) + _chit_problems(scn) + _map_problems(scn) + _track_problems(scn)


def _unit_problems(scn: Scenario) -> list[str]:
    out: list[str] = []
    hexmap = scn.map
    placed: dict[str, list[str]] = {}
    for uid, u in scn.units.items():
        if u.side not in SIDES or u.kind not in UNIT_KINDS or u.nationality not in NATIONALITIES:
            out.append(f"units.{uid}: side {u.side!r}, kind {u.kind!r}, nationality {u.nationality!r}")
        if u.formation and (u.formation not in scn.units or not scn.units[u.formation].is_hq
                            or scn.units[u.formation].side != u.side):
            out.append(f"units.{uid}: formation {u.formation!r} is not an HQ of its side")
        start = u.start
        if start == "available":
            continue
        if start.startswith("turn:"):
            turn = start[5:]
            if not turn.isdigit() or not 1 <= int(turn) <= scn.track.last_turn:
                out.append(f"units.{uid}: start {start!r} is not a turn of the track")
        elif start.startswith("zone:"):
            if start[5:] not in hexmap.deployment:
                out.append(f"units.{uid}: start {start!r} names no deployment zone")
        elif not hexmap.on_map(start) or hexmap.terrain_of(start) == "lake":
            out.append(f"units.{uid}: start {start!r} is not a land hex of the map")
        else:
            placed.setdefault(start, []).append(uid)
    for h, uids in sorted(placed.items()):
        if len(uids) > 2 or len({scn.units[x].side for x in uids}) > 1:
            out.append(f"hex {h}: set up with {', '.join(uids)} (at most two units of one side)")
    return out


def _chit_problems(scn: Scenario) -> list[str]:
    out: list[str] = []
    for cid, c in scn.chits.items():
        if c.side not in SIDES + ("common",) or c.kind not in CHIT_KINDS or c.turn < 1:
            out.append(f"chits.{cid}: side {c.side!r}, kind {c.kind!r}, turn {c.turn}")
        if c.hq and (c.hq not in scn.units or not scn.units[c.hq].is_hq):
            out.append(f"chits.{cid}: hq {c.hq!r} is no HQ unit")
    return out


def _map_problems(scn: Scenario) -> list[str]:
    hexmap = scn.map
    named: list[tuple[str, str]] = [("cities", h) for h in hexmap.cities]
    named += [(f"supply.{s}", h) for s, hexes in hexmap.supply.items() for h in hexes]
    named += [(f"source_tags.{t}", h) for t, hexes in hexmap.source_tags.items() for h in hexes]
    named += [(f"vp_hexes.{t}", h) for t, hexes in hexmap.vp_hexes.items() for h in hexes]
    named += [("stand_fast", h) for h in hexmap.stand_fast] + [("fortress", h) for h in hexmap.fortress]
    named += [(f"deployment.{z}", h) for z, hexes in hexmap.deployment.items() for h in hexes]
    return [f"map.{where}: {h} is not on the map" for where, h in named if not hexmap.on_map(h)]


def _track_problems(scn: Scenario) -> list[str]:
    track = scn.track
    lists = {"soviet_chits": track.soviet_chits, "axis_chits": track.axis_chits}
    lists.update({f"reinforcements.{k}": v for k, v in track.reinforcements.items()})
    return [f"turn_track.{name}: {len(v)} values for {track.last_turn} turns"
            for name, v in lists.items() if v and len(v) != track.last_turn]


def _load(data: dict[str, Any]) -> Scenario:
    head = data["scenario"]
    hexmap = _map(data["map"])
    terrain = {name: TerrainSpec(name, t.get("mp_foot"), t.get("mp_mech"), int(t.get("shifts", 0)),
                                 bool(t.get("stops_advance", False)))
               for name, t in data["terrain"].items()}
    for name in set(hexmap.terrain.values()) | {"plains"}:
        if name not in terrain:
            raise ValueError(f"terrain {name!r} is on the map but not in [terrain]")
    crt_t = data["crt"]
    crt = Crt(tuple(crt_t["columns"]), {int(k): tuple(v) for k, v in crt_t["rows"].items()})
    if sorted(crt.rows) != [1, 2, 3, 4, 5, 6] or any(len(r) != len(crt.columns) for r in crt.rows.values()):
        raise ValueError("the CRT needs rows 1-6, each with one result per column")
    tt = data["turn_track"]
    track = TurnTrack(int(tt["last_turn"]), tuple(tt.get("soviet_chits", ())), tuple(tt.get("axis_chits", ())),
                      {k: tuple(v) for k, v in (tt.get("reinforcements") or {}).items()})
    chits = {cid: ChitSpec(cid, c["side"], c["kind"], c.get("hq", ""), int(c.get("turn", 1)),
                           bool(c.get("choice", False)))
             for cid, c in data["chits"].items()}
    units = {uid: _unit(uid, u) for uid, u in data["units"].items()}
    p = dict(data.get("params") or {})
    for key in ("extra_army_chit_turns", "reserve_table"):
        if key in p:
            p[key] = tuple(p[key])
    params = Params(**p)
    v = data.get("victory") or {}
    victory = VictorySpec(int(v.get("threshold", 0)), int(v.get("short_threshold", 0)), dict(v.get("points") or {}))
    return Scenario(head["id"], head["game"], head["title"], bool(head.get("practice", False)),
                    head.get("notice", ""), hexmap, terrain, crt, units, chits, track, params, victory)


def _unit(uid: str, u: dict[str, Any]) -> UnitSpec:
    steps = int(u.get("steps", 2))
    attack, defense, move = int(u["attack"]), int(u.get("defense", u["attack"])), int(u["move"])
    return UnitSpec(
        id=uid, name=u.get("name", uid), side=u["side"], nationality=u["nationality"], kind=u["kind"],
        type=u.get("type", ""), steps=steps, attack=attack, defense=defense, move=move,
        attack_reduced=int(u.get("attack_reduced", attack)), defense_reduced=int(u.get("defense_reduced", defense)),
        move_reduced=int(u.get("move_reduced", move)), formation=u.get("formation", ""), start=u["start"],
        command_range=u.get("command_range"), flags=frozenset(u.get("flags", ())))


def _chain_sides(chains: dict[str, list[str]], grid: HexGrid | MultiMap) -> frozenset[str]:
    out: set[str] = set()
    for name, chain in chains.items():
        for a, b in zip(chain, chain[1:]):
            if not grid.adjacent(a, b):
                raise ValueError(f"{name}: {a} and {b} are not adjacent")
            out.add(side_key(a, b))
    return frozenset(out)


def _sheet(g: dict[str, Any], offset: str) -> HexGrid:
    return HexGrid(int(g["first_col"]), int(g["last_col"]), int(g["first_row"]), int(g["last_row"]),
                   g.get("offset", offset))


def _grid(m: dict[str, Any]) -> HexGrid | MultiMap:
    """One printed map, or (``maps``: prefix -> grid) several joined by
    ``[map.seams]``, every hex id then carrying its map ("S:4112")."""
    offset = m.get("offset", "odd-q")
    maps = m.get("maps")
    if maps is None:
        return _sheet(m, offset)
    if not isinstance(maps, dict) or not maps or not all(isinstance(g, dict) for g in maps.values()):
        raise ValueError("map.maps: expected a table of maps by prefix, e.g. S = { first_col = 1, ... }")
    seams, pairs = seams_from_table(m.get("seams") or {})
    return MultiMap({str(p): _sheet(g, offset) for p, g in maps.items()}, seams, pairs)


def _map(m: dict[str, Any]) -> HexMap:
    grid = _grid(m)
    play = frozenset(grid.hexes()) - frozenset(m.get("off_map", ()))
    terrain: dict[str, str] = {}
    for name, hexes in (m.get("terrain") or {}).items():
        if name not in TERRAINS:
            raise ValueError(f"unknown terrain {name!r}")
        for h in hexes:
            terrain[grid.check(h)] = name
    cities = {grid.check(h): kind for kind, hexes in (m.get("cities") or {}).items() for h in hexes}
    sides: dict[str, set[str]] = {}
    for feature, keys in (m.get("hexsides") or {}).items():
        if feature not in HEXSIDE_FEATURES:
            raise ValueError(f"unknown hexside feature {feature!r}")
        for k in keys:
            a, b = k.split("|")
            if not grid.adjacent(a, b):
                raise ValueError(f"hexside {k}: not adjacent")
            sides.setdefault(side_key(a, b), set()).add(feature)
    roads = m.get("roads") or {}
    rails = m.get("railroads") or {}
    supply = {s: frozenset((m.get("supply") or {}).get(s, ())) for s in SIDES}
    axis_control = set((m.get("control") or {}).get("axis", ()))
    control = {h: ("axis" if h in axis_control else "soviet") for h in cities}
    return HexMap(
        grid=grid, play_area=play, terrain=terrain, cities=cities, names=dict(m.get("names") or {}),
        hexsides={k: frozenset(v) for k, v in sides.items()},
        road_sides=_chain_sides(roads, grid), rail_sides=_chain_sides(rails, grid),
        rail_lines={k: tuple(v) for k, v in rails.items()}, supply=supply,
        source_tags={k: frozenset(v) for k, v in (m.get("source_tags") or {}).items()},
        initial_control=control, stand_fast=frozenset((m.get("stand_fast") or {}).get("hexes", ())),
        fortress={h: int(n) for h, n in (m.get("fortress") or {}).items()},
        vp_hexes={k: frozenset(v) for k, v in (m.get("vp_hexes") or {}).items()},
        deployment={k: frozenset(v) for k, v in (m.get("deployment") or {}).items()},
        layout=dict(m.get("layout") or {}))
