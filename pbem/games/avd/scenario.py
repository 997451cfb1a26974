"""A Victory Denied: read a scenario file (parsed TOML) into the typed
:class:`~pbem.games.avd.model.Scenario`, and check one for gaps and
inconsistencies.

The file layout is documented in ``scenarios/avd/README.md``.  In short:
``[map]`` (grid, terrain lists, hexside lists, named roads, victory hexes,
supply sources, entry hexes), ``[terrain.<name>]`` (the Terrain Effects
Chart, costs in half-MP units), ``[crt]``, ``[turn_track]``, ``[vp_chits]``,
``[minsk_escape]``, ``[hitler_directive]``, ``[unit_types]`` (templates),
``[units]`` (``german`` and ``soviet`` lists) and ``[chits]``.

:func:`check` never raises on bad data: it lists every problem, one line
each.  :func:`load` raises :class:`pbem.game.ScenarioError` naming the first
problem, so a game never starts on a file with gaps.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from pbem.game import ScenarioError
from pbem.games.avd import model
from pbem.games.avd.model import GERMAN, SOVIET

MISSING = "MISSING"

CRT_COLUMNS = ("1-1", "1.5-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1", "9-1", "10-1")
CRT_ROWS = tuple(range(1, 10))          # row 10 is the Soviet elite draw (9.4.3)
HEXSIDE_FEATURES = ("minor_river", "major_river", "road")
CHIT_KINDS = ("hq", "2PzG", "3PzG", "9A", "guderian", "timoshenko", "airpower", "art",
              "supply", "reinf")
GERMAN_FORMATIONS = ("2PzG", "3PzG", "9A")
SOVIET_FORMATIONS = ("tan", "red")
UNIT_CODES = ("", "M", "R", "*")        # plus a turn number "1".."10" (2.2.2)
DIRECTIVES = ("moscow", "distracted", "choice")
ENTRY_KEYS = ("9A", "3PzG", "2PzG_minsk", "9A_minsk", "3PzG_minsk")
TURNS = tuple(range(1, 11))

_UNIT_FIELDS = {
    "id", "name", "type", "kind", "motorized", "movement", "attack", "defense", "combat",
    "steps", "reduced_attack", "reduced_defense", "reduced_combat", "command_range",
    "formation", "corps", "pvo", "code", "setup", "note",
}


def _grid(first_col: int, last_col: int, first_row: int, last_row: int, offset: str) -> Any:
    # The Board's grid of this shape (speed only: the geometry the checks
    # work out, each hex's axial place, is kept for the rules; a grid keeps
    # nothing but geometry).  Lazy: `pbem scenarios` may list no AVD game.
    from pbem.games.avd.board import _grid as shared

    return shared(first_col, last_col, first_row, last_row, offset)


class _Skip(Exception):
    """A value is MISSING or wrong: the problem is already recorded."""


class _Reader:
    """Walks a scenario's data, building model objects and recording every
    problem instead of stopping at the first."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.problems: list[str] = []
        self.missing = False          # any MISSING value met on the way
        self.grid: Any = None
        # Speed only: the ids of the grid's hexes, each a hex() accepts as
        # it is (four digits, on the map): a scenario names ~1,100 hexes.
        self.on_grid: frozenset[str] = frozenset()
        self.partial: dict[str, str] = {}   # unit id -> kind, for units with MISSING values

    # ---------------------------------------------------------- primitives
    def bad(self, text: str) -> None:
        if text not in self.problems:
            self.problems.append(text)

    def get(self, table: Any, key: str, kind: type | tuple[type, ...], where: str,
            default: Any = _Skip) -> Any:
        """``table[key]`` checked against ``kind``; MISSING and wrong values
        raise _Skip (wrong ones are recorded first)."""
        if type(table) is dict:
            # Speed only: a value of exactly the type asked for (so no bool
            # for an int), not MISSING, is what the checks below let through.
            value = table.get(key, _Skip)
            if type(value) is kind and value != MISSING:
                return value
        if not isinstance(table, dict) or key not in table:
            if default is not _Skip:
                return default
            self.bad(f"{where}: {key} is required")
            raise _Skip
        value = table[key]
        if value == MISSING:
            self.missing = True
            raise _Skip
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds:
            ok = False
        else:
            ok = isinstance(value, kinds)
        if not ok:
            names = " or ".join(k.__name__ for k in kinds)
            self.bad(f"{where}: {key} must be {names}, got {value!r}")
            raise _Skip
        return value

    def table(self, key: str, parent: Any = None, where: str = "") -> dict[str, Any]:
        src = self.data if parent is None else parent
        value = src.get(key) if isinstance(src, dict) else None
        path = f"{where}.{key}" if where else key
        if value == MISSING:
            self.missing = True
            raise _Skip
        if not isinstance(value, dict):
            self.bad(f"[{path}] table is missing")
            raise _Skip
        return value

    def attempt(self, fn: Callable[[], Any], default: Any = None) -> Any:
        try:
            return fn()
        except _Skip:
            return default

    def set_grid(self, grid: Any) -> None:
        from pbem.board.hexgrid import side_key

        self.grid = grid
        self.on_grid = frozenset(grid.hexes())
        self.side_key = side_key    # (imported once: speed only)

    def hex(self, h: Any, where: str) -> str:
        """A hex id on the map; off-grid or malformed ids are recorded."""
        if type(h) is str and h in self.on_grid:
            return h
        if h == MISSING:
            self.missing = True
            raise _Skip
        if self.grid is None:
            raise _Skip
        if not isinstance(h, str) or len(h) != 4 or not h.isdigit():
            self.bad(f"{where}: {h!r} is not a hex id (four digits CCRR)")
            raise _Skip
        if h not in self.grid:
            self.bad(f"{where}: hex {h} is off the map")
            raise _Skip
        return h

    def hexes(self, items: Any, where: str) -> list[str]:
        if items == MISSING:
            self.missing = True
            return []
        if not isinstance(items, list):
            self.bad(f"{where}: expected a list of hex ids")
            return []
        out = []
        on_grid = self.on_grid
        for h in items:
            if type(h) is str and h in on_grid:     # (hex()'s first test, inline: speed only)
                out.append(h)
                continue
            try:
                out.append(self.hex(h, where))
            except _Skip:
                pass
        return out

    def hexside(self, key: Any, where: str) -> str:
        """A hexside key "a|b" between two adjacent hexes on the map."""
        if key == MISSING:
            self.missing = True
            raise _Skip
        if not isinstance(key, str) or key.count("|") != 1:
            self.bad(f"{where}: {key!r} is not a hexside key \"a|b\"")
            raise _Skip
        a, b = key.split("|")
        a = self.hex(a, where)
        b = self.hex(b, where)
        if not self.grid.adjacent(a, b):
            self.bad(f"{where}: hexside {key}: hexes {a} and {b} are not adjacent")
            raise _Skip
        return self.side_key(a, b)


# ---------------------------------------------------------------------- map
def _read_map(r: _Reader, terrain_names: set[str]) -> model.AvdMap | None:
    m = r.table("map")
    try:
        bounds = [r.get(m, k, int, "[map]") for k in ("first_col", "last_col", "first_row", "last_row")]
        offset = r.get(m, "offset", str, "[map]")
        r.set_grid(_grid(bounds[0], bounds[1], bounds[2], bounds[3], offset))
    except ValueError as exc:
        r.bad(f"[map]: {exc}")
        return None
    except _Skip:
        return None

    terrain: dict[str, str] = {}
    tmap = r.attempt(lambda: r.table("terrain", m, "map"), {})
    for name, hexes in tmap.items():
        if terrain_names and name not in terrain_names:
            r.bad(f"[map.terrain]: unknown terrain {name!r} (the [terrain] chart has "
                  f"{', '.join(sorted(terrain_names))})")
            continue
        for h in r.hexes(hexes, f"map.terrain.{name}"):
            if h in terrain and terrain[h] != name:
                r.bad(f"map.terrain: hex {h} is both {terrain[h]} and {name}")
            terrain[h] = name

    sides: dict[str, set[str]] = {}
    hs = r.attempt(lambda: r.table("hexsides", m, "map"), {})
    bridges: list[str] = []
    for feature, keys in hs.items():
        if feature == "bridge":
            bridges = keys if isinstance(keys, list) else []
            continue
        if feature not in HEXSIDE_FEATURES:
            r.bad(f"[map.hexsides]: unknown feature {feature!r} "
                  f"(expected {', '.join(HEXSIDE_FEATURES)})")
            continue
        if keys == MISSING:
            r.missing = True
            continue
        if not isinstance(keys, list):
            r.bad(f"map.hexsides.{feature}: expected a list of \"a|b\" keys")
            continue
        for key in keys:
            try:
                sides.setdefault(r.hexside(key, f"map.hexsides.{feature}"), set()).add(feature)
            except _Skip:
                pass
    for key in bridges:
        # 2.1.3: a bridge is where a road crosses a river; listing one only
        # makes sense on a river hexside, and it puts a road there.
        try:
            k = r.hexside(key, "map.hexsides.bridge")
        except _Skip:
            continue
        if not sides.get(k, set()) & {"minor_river", "major_river"}:
            r.bad(f"map.hexsides.bridge: {k} has a bridge but no river")
        sides.setdefault(k, set()).add("road")
    roads = r.attempt(lambda: r.table("roads", m, "map"), {})
    for name, path in roads.items():
        _read_road(r, name, path, sides)
    for key, feats in sides.items():
        if "minor_river" in feats and "major_river" in feats:
            r.bad(f"map.hexsides: {key} is both a minor and a major river")

    victory: dict[str, str] = {}
    vt = r.attempt(lambda: r.table("victory", m, "map"), {})
    for cls in ("minor", "major"):
        for h in r.hexes(vt.get(cls, []), f"map.victory.{cls}"):
            if h in victory:
                r.bad(f"map.victory: hex {h} is both minor and major")
            victory[h] = cls
    named = r.hexes(vt.get("named", []), "map.victory.named")
    for h in named:
        if h not in victory and vt.get("minor") != MISSING and vt.get("major") != MISSING:
            r.bad(f"map.victory: {h} is named as a Victory Hex but is neither minor nor major")
    for cls in vt:
        if cls not in ("minor", "major", "named"):
            r.bad(f"[map.victory]: unknown class {cls!r} (expected minor, major, named)")

    names: dict[str, str] = {}
    for h, name in r.attempt(lambda: r.table("names", m, "map"), {}).items():
        try:
            h = r.hex(h, "map.names")
        except _Skip:
            continue
        if isinstance(name, str) and name != MISSING:
            names[h] = name

    supply = r.attempt(lambda: r.table("supply", m, "map"), {})
    entry_t = r.attempt(lambda: r.table("entry", m, "map"), {})
    entry: dict[str, str] = {}
    for key, h in entry_t.items():
        if key == "timoshenko":
            continue
        if key not in ENTRY_KEYS:
            r.bad(f"[map.entry]: unknown entry {key!r} (expected {', '.join(ENTRY_KEYS)}, timoshenko)")
            continue
        try:
            entry[key] = r.hex(h, f"map.entry.{key}")
        except _Skip:
            pass
    for key in ("9A", "3PzG", "2PzG_minsk"):
        if key not in entry_t:
            r.bad(f"[map.entry]: {key} entry hex is required")
    moscow = r.hexes(m.get("moscow", []), "map.moscow")
    pocket = r.hexes(m.get("minsk_pocket", []), "map.minsk_pocket")
    if "moscow" in m and m["moscow"] != MISSING and len(moscow) != 3:
        r.bad(f"map.moscow: {len(moscow)} hexes listed, the rules name 3 Moscow hexes (16.1)")
    return model.AvdMap(
        first_col=bounds[0], last_col=bounds[1], first_row=bounds[2], last_row=bounds[3],
        offset=offset,
        terrain=terrain,
        hexsides={k: frozenset(v) for k, v in sides.items()},
        victory=victory,
        names=names,
        moscow=frozenset(moscow),
        minsk_pocket=frozenset(pocket),
        supply_german=frozenset(r.hexes(supply.get("german", []), "map.supply.german")),
        supply_soviet=frozenset(r.hexes(supply.get("soviet", []), "map.supply.soviet")),
        supply_soviet_until_turn4=frozenset(
            r.hexes(supply.get("soviet_until_turn4", []), "map.supply.soviet_until_turn4")),
        entry=entry,
        timoshenko_entry=frozenset(r.hexes(entry_t.get("timoshenko", []), "map.entry.timoshenko")),
    )


def _read_road(r: _Reader, name: str, path: Any, sides: dict[str, set[str]]) -> None:
    """A named road is a list of hexes, each adjacent to the next; every
    hexside it crosses gets the "road" feature (a river hexside so crossed is
    a bridge, 2.1.3)."""
    where = f"map.roads.{name}"
    if path == MISSING:
        r.missing = True
        return
    if not isinstance(path, list) or len(path) < 2:
        r.bad(f"{where}: a road is a list of at least two hexes")
        return
    hexes = r.hexes(path, where)
    if len(hexes) != len(path):
        return
    for a, b in zip(hexes, hexes[1:]):
        if not r.grid.adjacent(a, b):
            r.bad(f"{where}: {a} and {b} are consecutive but not adjacent")
            continue
        sides.setdefault(r.side_key(a, b), set()).add("road")


# ------------------------------------------------------------------ charts
def _read_terrain(r: _Reader) -> dict[str, model.Terrain]:
    out: dict[str, model.Terrain] = {}
    t = r.attempt(lambda: r.table("terrain"), {})
    for name, row in t.items():
        where = f"terrain.{name}"
        if not isinstance(row, dict):
            if row == MISSING:
                r.missing = True
            else:
                r.bad(f"[{where}]: expected a table with foot, motor, shift")
            continue
        try:
            foot = r.get(row, "foot", int, where)
            motor = r.get(row, "motor", int, where)
            shift = r.get(row, "shift", int, where)
        except _Skip:
            continue
        if foot < 1 or motor < 1 or shift < 0:
            r.bad(f"[{where}]: costs must be at least 1 half-MP and the shift not negative")
            continue
        out[name] = model.Terrain(name, foot, motor, shift)
    if t and "clear" not in t:
        r.bad("[terrain]: a clear row is required (hexes not listed in map.terrain are clear)")
    return out


def _read_crt(r: _Reader) -> model.Crt | None:
    try:
        crt = r.table("crt")
        columns = r.get(crt, "columns", list, "[crt]")
    except _Skip:
        return None
    if tuple(columns) != CRT_COLUMNS:
        r.bad(f"[crt]: columns must be {', '.join(CRT_COLUMNS)} (9.3.2)")
        return None
    rows_t = r.attempt(lambda: r.table("rows", crt, "crt"), {})
    rows: dict[int, tuple[str, ...]] = {}
    for die in CRT_ROWS:
        row = rows_t.get(str(die))
        where = f"crt.rows.{die}"
        if row is None:
            r.bad(f"{where}: row is missing (dice rows 1..9)")
            continue
        if row == MISSING or not isinstance(row, list):
            if row == MISSING:
                r.missing = True
            else:
                r.bad(f"{where}: expected a list of {len(CRT_COLUMNS)} results")
            continue
        if len(row) != len(CRT_COLUMNS):
            r.bad(f"{where}: {len(row)} results, the CRT has {len(CRT_COLUMNS)} columns")
            continue
        if any(cell == MISSING for cell in row):
            r.missing = True
            continue
        bad = [c for c in row if not _valid_result(c)]
        if bad:
            r.bad(f"{where}: unknown result {bad[0]!r} (use -, A1, 2, DR, DR2, 1DR, 3DR2...)")
            continue
        rows[die] = tuple(row)
    for key in rows_t:
        if key not in {str(d) for d in CRT_ROWS}:
            r.bad(f"[crt.rows]: unexpected row {key!r} (dice rows 1..9; 10 is the elite draw)")
    return model.Crt(CRT_COLUMNS, rows)


_RESULT = re.compile(r"^(?:-|A\d+|\d+|\d*DR2?)$")


def _valid_result(cell: Any) -> bool:
    """A CRT result (9.4.1): "-", "A<n>" (attacker steps), "<n>" (defender
    steps), "DR"/"DR2" with an optional step count before it ("3DR2"), or an
    attacker and a defender part joined by "/" ("A1/1")."""
    if not isinstance(cell, str) or not cell:
        return False
    return all(_RESULT.match(part) for part in cell.split("/"))


def _read_turns(r: _Reader) -> dict[int, model.TurnSpec]:
    out: dict[int, model.TurnSpec] = {}
    try:
        track = r.get(r.table("turn_track"), "turns", list, "[turn_track]")
    except _Skip:
        return out
    listed: set[int] = set()
    for i, row in enumerate(track):
        where = f"turn_track.turns[{i}]"
        if not isinstance(row, dict):
            r.bad(f"{where}: expected a table")
            continue
        try:
            turn = r.get(row, "turn", int, where)
        except _Skip:
            continue
        where = f"turn_track turn {turn}"
        if turn in listed:
            r.bad(f"{where}: turn listed twice")
        listed.add(turn)
        if turn not in TURNS:
            r.bad(f"{where}: the Turn Track runs from 1 to 10")
        for key in row:
            if key not in _TURN_FIELDS:
                r.bad(f"{where}: unknown field {key!r}")
        vals: dict[str, Any] = {}
        ok = True
        for key in ("german_chits", "soviet_chits", "soviet_rp", "pvo", "elite", "german_oos"):
            try:
                vals[key] = r.get(row, key, int, where)
            except _Skip:
                ok = False
        for key in ("german_chits_moscow", "german_oos_moscow"):
            try:
                vals[key] = r.get(row, key, int, where, default=None)
            except _Skip:
                ok = False
        if turn == 8 and ("german_chits_moscow" not in row or "german_oos_moscow" not in row):
            r.bad(f"{where}: turn 8 needs german_chits_moscow and german_oos_moscow "
                  "(two values, 2.1.1)")
        if ok:
            out[turn] = model.TurnSpec(turn=turn, **vals)
    absent = [t for t in TURNS if t not in listed]
    if absent:
        r.bad(f"turn_track: turns {', '.join(map(str, absent))} are not on the track (1-10)")
    return out


_TURN_FIELDS = {"turn", "german_chits", "soviet_chits", "soviet_rp", "pvo", "elite", "german_oos",
                "german_chits_moscow", "german_oos_moscow"}


def _read_vp(r: _Reader) -> dict[str, tuple[int, ...]]:
    out: dict[str, tuple[int, ...]] = {}
    t = r.attempt(lambda: r.table("vp_chits"), {})
    for cls in ("minor", "major"):
        try:
            values = r.get(t, cls, list, "[vp_chits]")
        except _Skip:
            continue
        if any(v == MISSING for v in values):
            r.missing = True
            continue
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values):
            r.bad(f"vp_chits.{cls}: values must be non-negative integers")
            continue
        out[cls] = tuple(values)
    return out


def _read_minsk(r: _Reader) -> dict[str, object]:
    """Minsk Escape Table (14.0): ``columns`` are release-value bands ("1-2",
    "9+"), ``rows`` maps each die face to one result per column: the number of
    Soviet units that escape, with a "V" suffix when the Soviet also takes a
    VP chit from the German box.  ``drm`` maps a turn to its die modifier."""
    try:
        t = r.table("minsk_escape")
        die = r.get(t, "die", int, "[minsk_escape]")
        columns = r.get(t, "columns", list, "[minsk_escape]")
        rows = r.get(t, "rows", dict, "[minsk_escape]")
        drm = r.get(t, "drm", dict, "[minsk_escape]")
    except _Skip:
        return {}
    bands = []
    for c in columns:
        band = _band(c)
        if band is None:
            r.bad(f"minsk_escape.columns: {c!r} is not a band like \"1-2\", \"5\" or \"9+\"")
            return {}
        bands.append(band)
    # The bands must cover every release value from 1 up, in order, once.
    expect = 1
    for c, (lo, hi) in zip(columns, bands):
        if lo != expect:
            r.bad(f"minsk_escape.columns: {c!r} should start at {expect} (bands in order, no gaps)")
            break
        if hi is None:
            break
        expect = hi + 1
    else:
        r.bad("minsk_escape.columns: the last band must be open-ended, like \"9+\"")
    for face in range(1, die + 1):
        row = rows.get(str(face))
        where = f"minsk_escape.rows.{face}"
        if row == MISSING or (isinstance(row, list) and MISSING in row):
            r.missing = True
            continue
        if not isinstance(row, list) or len(row) != len(columns):
            r.bad(f"{where}: expected {len(columns)} results")
            continue
        for cell in row:
            if not (isinstance(cell, str) and cell.rstrip("V").isdigit()):
                r.bad(f"{where}: result {cell!r} must be a number of escaping units, "
                      "optionally with V (Soviet takes a VP chit)")
                break
    for turn, mod in drm.items():
        if mod == MISSING:
            r.missing = True
        elif not (turn.isdigit() and isinstance(mod, int) and not isinstance(mod, bool)):
            r.bad(f"minsk_escape.drm: {turn} = {mod!r} must map a turn to an integer")
    return {"die": die, "columns": list(columns), "rows": dict(rows), "drm": dict(drm)}


def _band(text: Any) -> tuple[int, int | None] | None:
    if not isinstance(text, str):
        return None
    if text.endswith("+") and text[:-1].isdigit():
        return int(text[:-1]), None
    lo, _, hi = text.partition("-")
    if lo.isdigit() and (hi.isdigit() if hi else True):
        return int(lo), int(hi or lo)
    return None


def _read_directive(r: _Reader) -> tuple[dict[int, str], int]:
    try:
        t = r.table("hitler_directive")
        die = r.get(t, "die", int, "[hitler_directive]")
        results = r.get(t, "results", dict, "[hitler_directive]")
    except _Skip:
        return {}, 0
    out: dict[int, str] = {}
    for face in range(1, die + 1):
        res = results.get(str(face))
        if res == MISSING:
            r.missing = True
            continue
        if res not in DIRECTIVES:
            r.bad(f"hitler_directive.results.{face}: {res!r} (expected moscow, distracted, choice)")
            continue
        out[face] = res
    return out, die


# ------------------------------------------------------------------ counters
def _read_units(r: _Reader) -> dict[str, model.UnitSpec]:
    types = r.attempt(lambda: r.table("unit_types"), {}) if "unit_types" in r.data else {}
    for tname, tmpl in types.items():
        if not isinstance(tmpl, dict):
            r.bad(f"unit_types.{tname}: expected a table of unit fields")
            continue
        for key in tmpl:
            if key not in _UNIT_FIELDS or key in ("id", "type", "setup"):
                r.bad(f"unit_types.{tname}: field {key!r} cannot go in a template")
    units_t = r.attempt(lambda: r.table("units"), {})
    out: dict[str, model.UnitSpec] = {}
    for side in units_t:
        if side not in (GERMAN, SOVIET):
            r.bad(f"[units]: unknown side {side!r} (expected german, soviet)")
    for side in (GERMAN, SOVIET):
        lst = units_t.get(side, [])
        if not isinstance(lst, list):
            r.bad(f"units.{side}: expected a list of unit tables")
            continue
        for i, raw in enumerate(lst):
            spec = _read_unit(r, side, i, raw, types)
            if spec is None:
                if isinstance(raw, dict) and isinstance(raw.get("id"), str):
                    r.partial[raw["id"]] = str(raw.get("kind", "combat")) + ":" + side
                continue
            if spec.id in out:
                r.bad(f"units: id {spec.id} is used twice")
            out[spec.id] = spec
    return out


def _read_unit(r: _Reader, side: str, i: int, raw: Any,
               types: dict[str, Any]) -> model.UnitSpec | None:
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
        r.bad(f"units.{side}[{i}]: each unit is a table with an id")
        return None
    uid = raw["id"]
    where = f"units.{side}.{uid}"
    for key in raw:
        if key not in _UNIT_FIELDS:
            r.bad(f"{where}: unknown field {key!r}")
    u: dict[str, Any] = {}
    tname = raw.get("type")
    if tname is not None:
        if tname not in types or not isinstance(types[tname], dict):
            r.bad(f"{where}: unknown unit type {tname!r}")
            return None
        u.update(types[tname])
    u.update({k: v for k, v in raw.items() if k != "type"})
    for short, pair in (("combat", ("attack", "defense")),
                        ("reduced_combat", ("reduced_attack", "reduced_defense"))):
        if short in u:
            for k in pair:
                u.setdefault(k, u[short])
    try:
        kind = r.get(u, "kind", str, where, default="combat")
        if kind not in ("combat", "hq"):
            r.bad(f"{where}: kind {kind!r} (expected combat or hq)")
            return None
        name = r.get(u, "name", str, where, default=uid)
        motorized = r.get(u, "motorized", bool, where, default=False)
        movement = r.get(u, "movement", int, where)
        formation = u.get("formation", "")
        if not isinstance(formation, str):
            r.bad(f"{where}: formation must be str, got {formation!r}")
            return None
        corps = r.get(u, "corps", str, where, default="")
        pvo = r.get(u, "pvo", bool, where, default=False)
        code = r.get(u, "code", str, where, default="")
        setup = u.get("setup", "")
        if kind == "hq":
            cr = r.get(u, "command_range", int, where)
            vals = dict(attack=0, defense=0, steps=1, reduced_attack=0, reduced_defense=0,
                        command_range=cr)
        else:
            steps = r.get(u, "steps", int, where)
            vals = dict(attack=r.get(u, "attack", int, where),
                        defense=r.get(u, "defense", int, where), steps=steps,
                        reduced_attack=r.get(u, "reduced_attack", int, where, default=0),
                        reduced_defense=r.get(u, "reduced_defense", int, where, default=0),
                        command_range=0)
            if steps not in (1, 2):
                r.bad(f"{where}: steps must be 1 or 2")
            if steps == 2 and ("reduced_attack" not in u or "reduced_defense" not in u):
                r.bad(f"{where}: a two-step unit needs reduced values")
    except _Skip:
        return None
    allowed = GERMAN_FORMATIONS if side == GERMAN else SOVIET_FORMATIONS
    if formation == MISSING:
        r.missing = True
        formation = ""
    elif formation not in allowed and not (kind == "hq" and formation == ""):
        r.bad(f"{where}: formation {formation!r} (expected {', '.join(allowed)})")
    if code not in UNIT_CODES and not (code.isdigit() and 1 <= int(code) <= 10):
        r.bad(f"{where}: reinforcement code {code!r} (expected '', M, R, *, or a turn number)")
    if setup == MISSING:
        r.missing = True
        setup = ""
    elif setup != "":
        try:
            setup = r.hex(setup, f"{where}.setup")
        except _Skip:
            setup = ""
    return model.UnitSpec(id=uid, side=side, name=name, kind=kind, motorized=motorized,
                          movement=movement, formation=formation, corps=corps, pvo=pvo,
                          code=code, setup=setup, **vals)


def _read_chits(r: _Reader, units: dict[str, model.UnitSpec]) -> dict[str, model.ChitSpec]:
    out: dict[str, model.ChitSpec] = {}
    t = r.attempt(lambda: r.table("chits"), {})
    for group, lst in t.items():
        side = {"german": GERMAN, "soviet": SOVIET, "neutral": ""}.get(group)
        if side is None:
            r.bad(f"[chits]: unknown group {group!r} (expected german, soviet, neutral)")
            continue
        if lst == MISSING:
            r.missing = True
            continue
        if not isinstance(lst, list):
            r.bad(f"chits.{group}: expected a list of chit tables")
            continue
        for i, raw in enumerate(lst):
            if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
                r.bad(f"chits.{group}[{i}]: each chit is a table with an id")
                continue
            cid = raw["id"]
            where = f"chits.{group}.{cid}"
            try:
                kind = r.get(raw, "kind", str, where)
                hq = r.get(raw, "hq", str, where, default="")
                code = r.get(raw, "code", str, where, default="")
            except _Skip:
                continue
            if kind not in CHIT_KINDS:
                r.bad(f"{where}: unknown chit kind {kind!r}")
                continue
            if kind in ("hq", "timoshenko"):
                spec = units.get(hq)
                if spec is None and r.partial.get(hq) == f"hq:{side}":
                    continue            # an HQ still being transcribed
                if spec is None or spec.kind != "hq":
                    r.bad(f"{where}: unknown chit HQ {hq!r}")
                    continue
                if spec.side != side:
                    r.bad(f"{where}: HQ {hq} belongs to the other side")
                if not code and spec.code in ("R", "1"):
                    code = spec.code        # 3.6: unavailable until the HQ is on the map
            if cid in out:
                r.bad(f"chits: id {cid} is used twice")
            out[cid] = model.ChitSpec(id=cid, side=side, kind=kind, hq=hq, code=code)
    return out


# ------------------------------------------------------------------- checks
def _check_setup(r: _Reader, units: dict[str, model.UnitSpec], amap: model.AvdMap | None) -> None:
    """Set-up stacking (5.1-5.3): two combat units and one HQ per hex, one
    side per hex, never two tan Soviet combat units together."""
    by_hex: dict[str, list[model.UnitSpec]] = {}
    for u in units.values():
        if u.setup:
            by_hex.setdefault(u.setup, []).append(u)
            if u.code:
                r.bad(f"units: {u.id} has reinforcement code {u.code!r} but a set-up hex")
            if amap and u.setup in amap.minsk_pocket:
                r.bad(f"units: {u.id} sets up in the Minsk Pocket hex {u.setup} "
                      "(pocket units wait in the Pocket box, code M)")
    for h, stack in sorted(by_hex.items()):
        combat = [u for u in stack if u.kind == "combat"]
        hqs = [u for u in stack if u.kind == "hq"]
        names = ", ".join(u.id for u in stack)
        if len(combat) > 2 or len(hqs) > 1:
            r.bad(f"set-up {h} over-stacked: {names} (limit 2 combat units + 1 HQ, 5.1)")
        if len({u.side for u in stack}) > 1:
            r.bad(f"set-up {h} mixes German and Soviet units: {names} (5.2)")
        if sum(1 for u in combat if u.side == SOVIET and u.formation == "tan") > 1:
            r.bad(f"set-up {h} stacks two tan Soviet units: {names} (5.3)")


def _check_cross(r: _Reader, scn_parts: dict[str, Any]) -> None:
    amap: model.AvdMap | None = scn_parts["map"]
    units: dict[str, model.UnitSpec] = scn_parts["units"]
    terrain: dict[str, model.Terrain] = scn_parts["terrain"]
    if amap is not None:
        for key, feats in amap.hexsides.items():
            if "bridge" in feats:
                r.bad(f"map.hexsides: {key} has a bridge flag; a bridge is a road over a river")
        if terrain:
            for h, name in amap.terrain.items():
                if name not in terrain:
                    r.bad(f"map.terrain: hex {h} has unknown terrain {name!r}")
        overlap = amap.minsk_pocket & (amap.supply_soviet | amap.moscow)
        if overlap:
            r.bad(f"map.minsk_pocket overlaps Soviet supply or Moscow: {', '.join(sorted(overlap))}")
        # 14.0: German units never enter the Pocket, so no entry hex may lie in it.
        for key, h in sorted(amap.entry.items()):
            if h in amap.minsk_pocket:
                r.bad(f"map.entry.{key}: {h} is a Minsk Pocket hex")
        german_setup = {u.setup for u in units.values() if u.side == GERMAN and u.setup}
        for h in sorted(amap.timoshenko_entry & german_setup):
            r.bad(f"map.entry.timoshenko: {h} starts occupied by German units (11.2)")
    for u in units.values():
        if u.side == GERMAN and u.kind == "combat" and u.motorized and u.formation in ("2PzG", "3PzG") \
                and not u.corps:
            r.bad(f"units: {u.id} is a Panzer Group motorized unit without a corps (7.4.2)")
    chits: dict[str, model.ChitSpec] = scn_parts["chits"]
    if chits:
        kinds = [c.kind for c in chits.values()]
        for need, n in (("9A", 3), ("guderian", 1), ("airpower", 1), ("art", 1),
                        ("supply", 1), ("reinf", 1)):
            if kinds.count(need) != n:
                r.bad(f"chits: {kinds.count(need)} {need} chit(s), the rules give {n} (2.4, 7.1.1)")
        for hq in (u for u in units.values() if u.kind == "hq" and u.side == SOVIET):
            if not any(c.hq == hq.id for c in chits.values()):
                r.bad(f"chits: Soviet HQ {hq.id} has no command chit (2.4)")
    vp = scn_parts["vp"]
    if amap is not None and vp and not r.missing:
        for cls in ("minor", "major"):
            n_hex = sum(1 for v in amap.victory.values() if v == cls)
            if cls in vp and len(vp[cls]) < n_hex:
                r.bad(f"vp_chits.{cls}: {len(vp[cls])} chits for {n_hex} {cls} Victory Hexes (3.4)")


def _read_all(data: dict[str, Any]) -> tuple[_Reader, dict[str, Any]]:
    r = _Reader(data)
    head = data.get("scenario") if isinstance(data.get("scenario"), dict) else {}
    if not head:
        r.bad("[scenario] table is missing")
    elif head.get("game") != "avd":
        r.bad(f"[scenario]: game is {head.get('game')!r}, not 'avd'")
    terrain = _read_terrain(r)
    parts: dict[str, Any] = {"head": head, "terrain": terrain}
    parts["map"] = _read_map(r, set(terrain))
    parts["crt"] = _read_crt(r)
    parts["turns"] = _read_turns(r)
    parts["vp"] = _read_vp(r)
    parts["minsk"] = _read_minsk(r)
    parts["directive"] = _read_directive(r)
    parts["units"] = _read_units(r)
    parts["chits"] = _read_chits(r, parts["units"])
    _check_setup(r, parts["units"], parts["map"])
    _check_cross(r, parts)
    return r, parts


# --------------------------------------------------------------------- API
def check(data: dict[str, Any]) -> list[str]:
    """Everything the scenario still lacks or gets wrong, one line each:
    the MISSING groups first, then consistency problems.  Empty when the
    file can be played."""
    from pbem.scenario import find_missing

    lines = find_missing(data)
    r, _ = _read_all(data)
    return lines + r.problems


def load(data: dict[str, Any]) -> model.Scenario:
    """The typed scenario.  Raises ScenarioError (one line) when the file
    has MISSING values or any inconsistency."""
    from pbem.scenario import count_missing

    head = data.get("scenario")
    if not isinstance(head, dict):
        head = {}
    name = head.get("id", "?")
    n_missing = count_missing(data)
    if n_missing:
        raise ScenarioError(
            f"scenario {name} is incomplete: {n_missing} values MISSING "
            f"(run `pbem scenario check` to list them)")
    r, parts = _read_all(data)
    if r.problems:
        more = f" (and {len(r.problems) - 1} more problems)" if len(r.problems) > 1 else ""
        raise ScenarioError(f"scenario {name}: {r.problems[0]}{more}")
    directive, die = parts["directive"]
    strategic = head.get("strategic_cost", 1)
    if not isinstance(strategic, int) or isinstance(strategic, bool) or strategic < 1:
        raise ScenarioError(f"scenario {name}: strategic_cost must be a positive integer (half-MP)")
    units = _attach_chits(parts["units"], parts["chits"])
    return model.Scenario(
        id=name, title=str(head.get("title", "")), practice=bool(head.get("practice", False)),
        notice=str(head.get("notice", "")), map=parts["map"], terrain=parts["terrain"],
        crt=parts["crt"], units=units, chits=parts["chits"], turns=parts["turns"],
        vp_chits=parts["vp"], minsk_escape=parts["minsk"], hitler_directive=directive,
        hitler_die=die, strategic_cost=strategic,
        options=dict(data.get("options", {})) if isinstance(data.get("options"), dict) else {},
    )


def _attach_chits(units: dict[str, model.UnitSpec],
                  chits: dict[str, model.ChitSpec]) -> dict[str, model.UnitSpec]:
    """Give each Soviet HQ the id of its command chit."""
    by_hq = {c.hq: c.id for c in chits.values() if c.hq}
    # As dataclasses.replace(u, chit=...): every field by name (a UnitSpec
    # holds its fields alone in its dict), with no dataclasses import
    # (speed only: see pbem.game.plainclass.fields_later).
    return {uid: (model.UnitSpec(**{**vars(u), "chit": by_hq[uid]}) if uid in by_hq else u)
            for uid, u in units.items()}
