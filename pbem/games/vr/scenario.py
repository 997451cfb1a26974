"""Reading a *Victory Roads* scenario file into a :class:`Scenario`.

The file layout (TOML; ``scenarios/vr/README.md`` explains every table and
how to transcribe it from the printed components)::

    [scenario]        id, game = "vr", title, practice, notice, source, rules ("basic" ...),
                      missing = ["map", ...]          # kinds not transcribed at all yet
    [scenario.switches]   profile fields a card changes (approval_track = true ...)
    [map]             first_col, last_col, first_row, last_row, offset ("even-q"), off_map
    [map.terrain]     forest = [hex...], swamp, sea ...   # a hex may be listed under several
    [map.cities]      major = [...], minor = [...];   [map.names] "5426" = "Minsk"
    [map.countries]   germany = [...], hungary ...;   default_country = "ussr" in [map]
    [map.hexsides]    minor_river, major_river, bridge, impassable, fortified = ["a|b", ...]
    [map.roads] / [map.railroads]   name = [hex chain]
    [map.ports]       baltic = [...];   [map.fortifications] basic = [...], advanced = [...]
    [map.supply]      east_edge = [...], june_cities = [...]
    [map.objectives]  "1" = [...] ... "6";   [map.sites] "hex" = value;   oil_fields = [...] in [map]
    [map.control]     soviet = [...], german = [...], default = "german"
    [map.capitals]    hungary = [Budapest hexes], romania = [Bucharest]   # 4.5 supply sources
    [terrain.NAME]    mp (half MP; omitted: no entry), defense = [n, d], attack = [n, d],
                      tactical = {S = "-", DR = "S"}, counts_as = {snow = "forest"}
    [hexside.NAME]    minor_river / major_river: mp, attack = [n, d], tactical = {...}
    [crt]             columns = ["1:2", ... "6:1"], colours = [...]
    [crt.cells."2:1"] "2" = "LOSSES A:colour D:colour" ... "12"
    [weather.months."03"]  "2-6" = "fair/clear", ...   # one column per month, 2..12 covered
    [turns]           first, last;  [turns.dates] "1" = "1945-03-I"
    [units.ID]        name, nationality, branch, kind, arm, steps, attack, defense, move,
                      attack_reduced, defense_reduced, move_reduced, start, elite, cavalry,
                      corps, command_radius
    [kg.ID]           arm, steps, attack, defense, move, *_reduced, hiwis
    [supports.ID]     name, side, kind, to, enemy_turn, stays, event, shift (the Event's odds columns), role,
                      airlift (the Event supplies one hex, 4.2.1), results (six texts: the Event's
                      die results, Stalin 11.5.2)
    [approval]        levels = {"1" = [supports, rp], ...}, foa = [0, 1, 2, ...], resets
    [end_of_reich]    added, dismissal_draws, dismissal_chosen = {"0" = n, ... "6" = n}
    [schedule."N"]    units, supports, rp, withdrawals = [{count, arm, min_attack}], transformations,
                      corps (Soviet infantry corps drawn from the pile)
    [card]            soviet_draw_modifier, german_draws, mud_draw_modifier, snow_draw_modifier,
                      rail_default, lend_lease_range, special; [card.arrivals] SIDE = [hexes];
                      [card.rail_capacity] "N" = n; [card.pools.SIDE] id = n;
                      [card.markers] ...; [card.victory] text, ...

A value the rulebook text does not give is the string ``"MISSING"``; a
whole table not yet transcribed carries ``missing = true``.  :func:`gaps`
names every such place by kind, :func:`check` adds what is inconsistent,
and :func:`load` refuses a file with either, so a published scenario holds
every fact of the text and says exactly what is still to transcribe.
"""
from __future__ import annotations

from typing import Any

from pbem.board import gaps as board_gaps
from pbem.board.crt2d6 import Crt2d6, OddsLadder, parse_cell
from pbem.board.dietable import DieTable
from pbem.board.hexgrid import HexGrid, side_key
from pbem.game import ScenarioError
from pbem.games.vr import profile as profile_mod
from pbem.games.vr.model import (
    ARMS, BRANCHES, CITY_CLASSES, FORTIFICATIONS, HEXSIDE_FEATURES, KINDS, NATIONALITIES, SIDES, SKIES,
    SUPPORT_KINDS, SUPPORT_ROLES, TACTICAL_CODES, WEATHERS, ApprovalTrack, Card, EndOfReichTrack, HexMap, HexsideSpec,
    KgSpec, Reinforcement, Scenario, SupportSpec, TerrainSpec, TurnTrack, UnitSpec, WeatherTable,
)

MISSING = "MISSING"

# Which part of the file each gap kind names (``pbem scenario check``).
GAP_KINDS = {
    "map": "map", "terrain": "terrain effects chart", "hexside": "terrain effects chart (hexsides)",
    "crt": "combat results table", "weather": "weather table", "turns": "turn track",
    "units": "counters", "kg": "Kampfgruppe pool", "supports": "Supports player aid",
    "approval": "Führer's Approval track", "end_of_reich": "End of Reich track",
    "schedule": "reinforcement schedule", "card": "scenario card",
}


def gaps(data: dict[str, Any]) -> list[str]:
    """Every value still missing, one line each, grouped by kind
    ("counters: units.feldherrnhalle.attack")."""
    # A text holding MISSING is a gap too: a CRT cell whose losses the
    # text gives but whose colours it does not ("1/1 E:MISSING S:MISSING").
    return board_gaps.gaps(data, GAP_KINDS)


def check(data: dict[str, Any]) -> list[str]:
    """Everything a file still lacks or gets wrong: its gaps, then (when it
    has none) the first inconsistency the reader finds."""
    missing = gaps(data)
    if missing:
        return missing + _victory_shape(data)
    try:
        _load(data)
    except (KeyError, TypeError, ValueError) as exc:
        return [f"bad scenario file: {type(exc).__name__}: {exc}"]
    return []


def load(data: dict[str, Any]) -> Scenario:
    """A playable scenario, or ScenarioError naming the first problem."""
    return board_gaps.load_complete(data, gaps(data), _load, ScenarioError)


def _victory_shape(data: dict[str, Any]) -> list[str]:
    """The card's victory table read without the map (a file with gaps)."""
    import re
    from pbem.games.vr import victory
    v = ((data.get("card") or {}).get("victory")) or {}
    turns = data.get("turns") or {}
    whole = "MISSING" not in (turns.get("first"), turns.get("last"))          # a partial track proves nothing
    dates = {int(k): str(x) for k, x in (turns.get("dates") or {}).items() if str(k).isdigit()} if whole else {}
    return victory.refusals(v, dates, lambda h: isinstance(h, str) and re.match(r"^\d{4}$", h) is not None)


# -------------------------------------------------------------------- reader
def _load(data: dict[str, Any]) -> Scenario:
    head = data["scenario"]
    if head.get("game") != "vr":
        raise ValueError(f"scenario.game is {head.get('game')!r}, not 'vr'")
    hexmap = _map(data["map"])
    terrain = {name: _terrain(name, t) for name, t in data["terrain"].items()}
    used = {t for h in hexmap.play_area for t in hexmap.types(h)} | {"clear"}
    for name in sorted(used):
        if name not in terrain:
            raise ValueError(f"terrain {name!r} is on the map but not in [terrain]")
    for spec in terrain.values():
        for w, other in spec.counts_as.items():
            if w not in WEATHERS or other not in terrain:
                raise ValueError(f"terrain {spec.name}: counts_as {w} = {other!r} is not a weather and a terrain")
    hexside = {name: HexsideSpec(name, int(h["mp"]), _factor(h.get("attack", [1, 2])),
                                 _tactical(h.get("tactical") or {}))
               for name, h in data["hexside"].items()}
    for need in ("minor_river", "major_river"):
        if need not in hexside:
            raise ValueError(f"[hexside.{need}] is missing")
    crt = _crt(data["crt"])
    track = _turns(data["turns"])
    weather = _weather(data["weather"], track)
    units = {uid: _unit(uid, u) for uid, u in data["units"].items()}
    kg = {kid: _kg(kid, k) for kid, k in (data.get("kg") or {}).items()}
    supports = {sid: _support(sid, s) for sid, s in data["supports"].items()}
    card = _card(data["card"], head, supports)
    prof = profile_mod.with_switches(profile_mod.PROFILES[card.rules], card.switches)
    approval = _approval(data["approval"]) if "approval" in data else None
    eor = _eor(data["end_of_reich"]) if "end_of_reich" in data else None
    if prof.approval_track and approval is None:
        raise ValueError("the rules use the Approval track (§15) but the file has no [approval]")
    if prof.end_of_reich and eor is None:
        raise ValueError("the rules use End of Reich (§16) but the file has no [end_of_reich]")
    schedule = {int(t): _reinforcement(int(t), r, units, supports) for t, r in (data.get("schedule") or {}).items()}
    for uid, u in units.items():
        if u.start in hexmap.grid and u.start not in hexmap.play_area:
            raise ValueError(f"unit {uid} starts off the map in {u.start}")
        if u.start.startswith("turn:") and int(u.start[5:]) not in schedule:
            raise ValueError(f"unit {uid} arrives on turn {u.start[5:]}, which has no [schedule] entry")
    from pbem.games.vr import victory
    wrong = victory.refusals(card.victory, track.dates, hexmap.on_map)
    if wrong:
        raise ValueError(wrong[0])
    return Scenario(
        id=head["id"], game="vr", title=head["title"], practice=bool(head.get("practice", False)),
        notice=head.get("notice", ""), map=hexmap, terrain=terrain, hexside=hexside, crt=crt, weather=weather,
        track=track, units=units, kg=kg, supports=supports, approval=approval, end_of_reich=eor,
        schedule=schedule, card=card)


def _factor(v: Any) -> tuple[int, int]:
    n, d = (int(x) for x in v)
    if n < 0 or d <= 0:
        raise ValueError(f"bad strength factor {v!r}")
    return n, d


def _tactical(t: dict[str, Any]) -> dict[str, str]:
    for k, v in t.items():
        if k not in TACTICAL_CODES or v not in TACTICAL_CODES:
            raise ValueError(f"bad tactical modification {k} -> {v}")
    return {str(k): str(v) for k, v in t.items()}


def _terrain(name: str, t: dict[str, Any]) -> TerrainSpec:
    mp = t.get("mp")
    return TerrainSpec(name, None if mp is None else int(mp), _factor(t.get("defense", [1, 1])),
                       _factor(t.get("attack", [1, 1])), _tactical(t.get("tactical") or {}),
                       {str(k): str(v) for k, v in (t.get("counts_as") or {}).items()})


def _crt(c: dict[str, Any]) -> Crt2d6:
    ladder = OddsLadder(c["columns"])
    colours = tuple(c["colours"])
    cells = {lbl: {int(r): parse_cell(txt, TACTICAL_CODES, colours) for r, txt in rows.items()}
             for lbl, rows in c["cells"].items()}
    return Crt2d6(ladder, cells)


def _turns(t: dict[str, Any]) -> TurnTrack:
    first, last = int(t["first"]), int(t["last"])
    dates = {int(k): str(v) for k, v in t["dates"].items()}
    for turn in range(first, last + 1):
        d = dates.get(turn)
        if d is None:
            raise ValueError(f"turn {turn} has no date in [turns.dates]")
        parts = d.split("-")
        if len(parts) != 3 or not parts[0].isdigit() or parts[1] not in {f"{m:02d}" for m in range(1, 13)} \
                or parts[2] not in ("I", "II", "III"):
            raise ValueError(f"turn {turn}: date {d!r} is not YYYY-MM-I|II|III")
    return TurnTrack(first, last, dates)


def _weather(w: dict[str, Any], track: TurnTrack) -> WeatherTable:
    columns: dict[str, DieTable[tuple[str, str]]] = {}
    for month, rows in w["months"].items():
        parsed: dict[str, tuple[str, str]] = {}
        for key, result in rows.items():
            weather, _, sky = str(result).partition("/")
            if weather not in WEATHERS or sky not in SKIES:
                raise ValueError(f"weather {month} {key}: {result!r} is not WEATHER/SKY")
            parsed[key] = (weather, sky)
        table = DieTable.parse(parsed)
        if not table.covers(2, 12):
            raise ValueError(f"weather column {month} does not cover every roll 2-12")
        columns[str(month)] = table
    for turn in range(track.first, track.last + 1):
        if track.month(turn) not in columns:
            raise ValueError(f"turn {turn} falls in month {track.month(turn)}, which has no weather column")
    return WeatherTable(columns)


def _unit(uid: str, u: dict[str, Any]) -> UnitSpec:
    nat, kind = u["nationality"], u["kind"]
    if nat not in NATIONALITIES or kind not in KINDS:
        raise ValueError(f"unit {uid}: nationality {nat!r} / kind {kind!r}")
    branch = u.get("branch", BRANCHES[nat][0])
    if branch not in BRANCHES[nat]:
        raise ValueError(f"unit {uid}: branch {branch!r} is not one of {BRANCHES[nat]}")
    arm = u.get("arm", "" if kind == "hq" else "infantry")
    if kind != "hq" and arm not in ARMS:
        raise ValueError(f"unit {uid}: arm {arm!r}")
    steps = int(u.get("steps", 1 if kind == "hq" else 2))
    attack, defense, move = int(u.get("attack", 0)), int(u["defense"]), int(u["move"])
    cr = int(u.get("command_radius", 0))
    if kind == "hq" and cr <= 0:
        raise ValueError(f"HQ {uid} needs a command_radius")
    corps = bool(u.get("corps", False))
    if corps and (nat != "sov" or arm != "infantry"):
        raise ValueError(f"unit {uid}: only Soviet infantry corps have modes (§10)")
    if steps not in (1, 2):
        raise ValueError(f"unit {uid}: {steps} steps (1.3: one or two)")
    return UnitSpec(
        id=uid, name=u.get("name", uid), nationality=nat, branch=branch, kind=kind, arm=arm, steps=steps,
        attack=attack, defense=defense, move=move,
        attack_reduced=int(u.get("attack_reduced", attack)), defense_reduced=int(u.get("defense_reduced", defense)),
        move_reduced=int(u.get("move_reduced", move)), start=str(u["start"]), elite=bool(u.get("elite", False)),
        cavalry=bool(u.get("cavalry", False)), corps=corps, command_radius=cr)


def _kg(kid: str, k: dict[str, Any]) -> KgSpec:
    if k["arm"] not in ARMS:
        raise ValueError(f"KG {kid}: arm {k['arm']!r}")
    hiwis = bool(k.get("hiwis", False))
    steps = 0 if hiwis else int(k["steps"])
    return KgSpec(kid, k["arm"], steps, int(k.get("attack", 0)), int(k.get("defense", 0)), int(k.get("move", 0)),
                  int(k.get("attack_reduced", 0)), int(k.get("defense_reduced", 0)),
                  int(k.get("move_reduced", 0)), hiwis)


def _support(sid: str, s: dict[str, Any]) -> SupportSpec:
    if s["side"] not in SIDES or s.get("kind", "plain") not in SUPPORT_KINDS:
        raise ValueError(f"support {sid}: side {s['side']!r} / kind {s.get('kind')!r}")
    if s.get("role", "") not in SUPPORT_ROLES:
        raise ValueError(f"support {sid}: role {s.get('role')!r} is not one of {', '.join(SUPPORT_ROLES[1:])}")
    return SupportSpec(sid, s.get("name", sid), s["side"], s.get("kind", "plain"), s.get("to", ""),
                       bool(s.get("enemy_turn", False)), bool(s.get("stays", False)), s.get("event", ""),
                       int(s.get("shift", 0)), bool(s.get("airlift", False)), str(s.get("role", "")),
                       _results(sid, s.get("results")))


def _results(sid: str, v: Any) -> tuple[str, ...]:
    """An Event's die results (1-6), one text each; absent: not given."""
    if v is None or (isinstance(v, str) and MISSING in v):
        return ()
    if not isinstance(v, list) or len(v) != 6:
        raise ValueError(f"support {sid}: results must list six texts, one for each die result")
    return tuple(str(x) for x in v)


def _card(c: dict[str, Any], head: dict[str, Any], supports: dict[str, SupportSpec]) -> Card:
    rules = head.get("rules", c.get("rules", "basic"))
    if rules not in profile_mod.PROFILES:
        raise ValueError(f"unknown rule set {rules!r}: expected one of {sorted(profile_mod.PROFILES)}")
    pools: dict[str, dict[str, int]] = {}
    for side, pool in (c.get("pools") or {}).items():
        if side not in SIDES:
            raise ValueError(f"pool of unknown side {side!r}")
        for sid, n in pool.items():
            if sid not in supports or supports[sid].side != side:
                raise ValueError(f"pool {side}: {sid!r} is not a {side} Support")
            if int(n) < 0:
                raise ValueError(f"pool {side}: negative count of {sid}")
        pools[side] = {k: int(v) for k, v in pool.items()}
    return Card(
        rules=rules, switches=dict(head.get("switches") or {}), pools=pools,
        soviet_draw_modifier=int(c.get("soviet_draw_modifier", 0)), german_draws=int(c.get("german_draws", 0)),
        mud_draw_modifier={k: int(v) for k, v in (c.get("mud_draw_modifier") or {}).items()},
        snow_draw_modifier={k: int(v) for k, v in (c.get("snow_draw_modifier") or {}).items()},
        rail_capacity={int(k): int(v) for k, v in (c.get("rail_capacity") or {}).items()},
        rail_default=int(c.get("rail_default", 0)), lend_lease_range=int(c.get("lend_lease_range", 0)),
        markers=dict(c.get("markers") or {}),
        victory=dict(c.get("victory") or {}), special=tuple(c.get("special") or ()),
        arrivals={str(k): tuple(str(h) for h in v) for k, v in (c.get("arrivals") or {}).items()})


def _approval(a: dict[str, Any]) -> ApprovalTrack:
    levels = {int(k): (int(v[0]), int(v[1])) for k, v in a["levels"].items()}
    return ApprovalTrack(levels, tuple(int(x) for x in a["foa"]), tuple(int(x) for x in a.get("resets", (10, 9, 8, 7))))


def _eor(e: dict[str, Any]) -> EndOfReichTrack:
    def squares(key: str) -> dict[int, int]:
        out = {int(k): int(v) for k, v in e[key].items()}
        if sorted(out) != list(range(7)):
            raise ValueError(f"end_of_reich.{key} needs squares 0-6")
        return out
    return EndOfReichTrack(squares("added"), squares("dismissal_draws"), squares("dismissal_chosen"))


def _reinforcement(turn: int, r: dict[str, Any], units: dict[str, UnitSpec],
                   supports: dict[str, SupportSpec]) -> Reinforcement:
    for uid in r.get("units", ()):
        if uid not in units:
            raise ValueError(f"schedule turn {turn}: unknown unit {uid!r}")
    for sid in (r.get("supports") or {}):
        if sid not in supports:
            raise ValueError(f"schedule turn {turn}: unknown Support {sid!r}")
    for nat in (r.get("rp") or {}):
        if nat not in NATIONALITIES:
            raise ValueError(f"schedule turn {turn}: RP for unknown nationality {nat!r}")
    return Reinforcement(turn, tuple(r.get("units", ())), {k: int(v) for k, v in (r.get("supports") or {}).items()},
                         {k: int(v) for k, v in (r.get("rp") or {}).items()},
                         tuple(dict(w) for w in r.get("withdrawals", ())),
                         {str(k): str(v) for k, v in (r.get("transformations") or {}).items()},
                         int(r.get("corps", 0)))


def _chain_sides(chains: dict[str, list[str]], grid: HexGrid) -> frozenset[str]:
    out: set[str] = set()
    for name, chain in chains.items():
        for a, b in zip(chain, chain[1:]):
            if not grid.adjacent(grid.check(a), grid.check(b)):
                raise ValueError(f"{name}: {a} and {b} are not adjacent")
            out.add(side_key(a, b))
    return frozenset(out)


def _map(m: dict[str, Any]) -> HexMap:
    grid = HexGrid(int(m["first_col"]), int(m["last_col"]), int(m["first_row"]), int(m["last_row"]),
                   m.get("offset", "even-q"))
    play = frozenset(grid.hexes()) - frozenset(m.get("off_map", ()))
    types: dict[str, list[str]] = {}
    for name, hexes in (m.get("terrain") or {}).items():
        for h in hexes:
            types.setdefault(grid.check(h), []).append(name)
    terrain = {h: tuple(sorted(ts)) for h, ts in types.items()}
    cities: dict[str, str] = {}
    for cls, hexes in (m.get("cities") or {}).items():
        if cls not in CITY_CLASSES:
            raise ValueError(f"unknown city class {cls!r}")
        for h in hexes:
            cities[grid.check(h)] = cls
    country = {h: str(m.get("default_country", "")) for h in play}
    for name, hexes in (m.get("countries") or {}).items():
        for h in hexes:
            country[grid.check(h)] = name
    sides: dict[str, set[str]] = {}
    for feature, keys in (m.get("hexsides") or {}).items():
        if feature not in HEXSIDE_FEATURES:
            raise ValueError(f"unknown hexside feature {feature!r}")
        for k in keys:
            a, b = k.split("|")
            if not grid.adjacent(grid.check(a), grid.check(b)):
                raise ValueError(f"hexside {k}: not adjacent")
            sides.setdefault(side_key(a, b), set()).add(feature)
    ports = {grid.check(h): sea for sea, hexes in (m.get("ports") or {}).items() for h in hexes}
    forts: dict[str, str] = {}
    for cls, hexes in (m.get("fortifications") or {}).items():
        if cls not in FORTIFICATIONS:
            raise ValueError(f"unknown fortification class {cls!r}")
        for h in hexes:
            forts[grid.check(h)] = cls
    supply = m.get("supply") or {}
    control_t = m.get("control") or {}
    default = control_t.get("default", "german")
    if default not in SIDES:
        raise ValueError(f"map.control.default {default!r}")
    control = {h: default for h in sorted(play)}
    for side in SIDES:
        for h in control_t.get(side, ()):
            control[grid.check(h)] = side
    return HexMap(
        grid=grid, play_area=play, terrain=terrain, cities=cities,
        names={grid.check(h): str(n) for h, n in (m.get("names") or {}).items()}, country=country,
        hexsides={k: frozenset(v) for k, v in sides.items()},
        road_sides=_chain_sides(m.get("roads") or {}, grid), rail_sides=_chain_sides(m.get("railroads") or {}, grid),
        ports=ports, fortifications=forts, east_edge=frozenset(grid.check(h) for h in supply.get("east_edge", ())),
        june_cities=frozenset(grid.check(h) for h in supply.get("june_cities", ())),
        objectives={int(k): frozenset(grid.check(h) for h in v) for k, v in (m.get("objectives") or {}).items()},
        sites={grid.check(h): int(v) for h, v in (m.get("sites") or {}).items()},
        oil_fields=frozenset(grid.check(h) for h in m.get("oil_fields", ())), initial_control=control,
        capitals={k: frozenset(grid.check(h) for h in v) for k, v in (m.get("capitals") or {}).items()},
        layout=dict(m.get("layout") or {}))
