"""Small A Victory Denied boards for the mechanics tests.

Everything here is TEST DATA, not the printed components: the grid is a
9 x 9 flat-topped map, the terrain chart only carries the few values the
rulebook states in its text (woods one column left, city two, motorized
units pay 2 MP for woods and swamp), and the CRT holds made-up cells except
the one cell the rulebook pins down: 4-1 with a roll of 3 is DR (attack
example of 9.4.3).
"""
from __future__ import annotations

from typing import Any, Iterable

from pbem.board.hexgrid import HexGrid, side_key
from pbem.games.avd import model
from pbem.games.avd.model import GERMAN, SOVIET, UnitSpec

COLUMNS = ("1-1", "1.5-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1", "9-1", "10-1")

# TEST DATA: a made-up CRT.  Each row is the same for every column except
# where noted, so that a test reading a column can tell columns apart only
# through the pinned cell (4-1, roll 3) and row 9 (a different cell per
# column, for the 9.4.3 fallback test).
_TEST_ROWS: dict[int, tuple[str, ...]] = {
    1: ("A1",) * 11,
    2: ("-",) * 11,
    3: ("A1", "A1", "-", "1", "DR", "1DR", "1DR", "2DR", "2DR", "2DR2", "3DR2"),
    4: ("-", "1", "1", "DR", "1DR", "2DR", "2DR2", "2DR2", "2DR2", "3DR2", "3DR2"),
    5: ("1",) * 11,
    6: ("DR2",) * 11,
    7: ("1DR",) * 11,
    8: ("2DR",) * 11,
    9: ("A1", "-", "1", "DR", "1DR", "2DR", "2DR2", "3DR", "3DR2", "4DR", "4DR2"),
}

# TEST DATA terrain chart (half-MP units).  Woods/city shifts and the motorized
# woods/swamp cost are rulebook text (8.1.2, 9.3.6 example, combat ratio
# example); the other shifts are placeholders.
TERRAIN = {
    "clear": model.Terrain("clear", 2, 2, 0),
    "woods": model.Terrain("woods", 2, 4, 1),
    "swamp": model.Terrain("swamp", 2, 4, 1),
    "city": model.Terrain("city", 2, 2, 2),
    "town": model.Terrain("town", 2, 2, 0),
    "hill": model.Terrain("hill", 2, 2, 1),
}

GRID = HexGrid(1, 9, 1, 9, "odd-q")


def h(col: int, row: int) -> str:
    return GRID.hex_id(col, row)


def unit(uid: str, side: str, *, kind: str = "combat", motorized: bool = False,
         movement: int = 6, attack: int = 3, defense: int = 3, steps: int = 2,
         reduced_attack: int | None = None, reduced_defense: int | None = None,
         command_range: int = 0, formation: str = "", corps: str = "",
         pvo: bool = False, code: str = "") -> UnitSpec:
    """A counter for a test; reduced values default to one less than full."""
    if kind == "hq":
        return UnitSpec(uid, side, uid, "hq", motorized, movement, 0, 0, 1, 0, 0,
                        command_range, formation, corps, False, code)
    ra = attack - 1 if reduced_attack is None else reduced_attack
    rd = defense - 1 if reduced_defense is None else reduced_defense
    if steps == 1:
        ra = rd = 0
    if not formation:
        formation = "tan" if side == SOVIET else "9A"
    return UnitSpec(uid, side, uid, "combat", motorized, movement, attack, defense, steps,
                    ra, rd, command_range, formation, corps, pvo, code)


def scenario(units: Iterable[UnitSpec], *, terrain: dict[str, str] | None = None,
             sides: dict[tuple[str, str], Iterable[str]] | None = None,
             victory: dict[str, str] | None = None,
             supply_german: Iterable[str] = (), supply_soviet: Iterable[str] = (),
             supply_soviet_t4: Iterable[str] = (), minsk: Iterable[str] = (),
             strategic_cost: int = 1, grid: HexGrid = GRID) -> model.Scenario:
    """A Scenario on the test grid.  ``sides`` maps a pair of adjacent hexes
    to hexside features ("minor_river", "major_river", "road")."""
    hexsides = {side_key(a, b): frozenset(f) for (a, b), f in (sides or {}).items()}
    amap = model.AvdMap(
        first_col=grid.first_col, last_col=grid.last_col, first_row=grid.first_row,
        last_row=grid.last_row, offset=grid.offset, terrain=dict(terrain or {}),
        hexsides=hexsides, victory=dict(victory or {}), names={}, moscow=frozenset(),
        minsk_pocket=frozenset(minsk), supply_german=frozenset(supply_german),
        supply_soviet=frozenset(supply_soviet),
        supply_soviet_until_turn4=frozenset(supply_soviet_t4), entry={},
        timoshenko_entry=frozenset())
    return model.Scenario(
        id="test", title="mechanics test board (test data)", practice=True, notice="test data",
        map=amap, terrain=dict(TERRAIN), crt=model.Crt(COLUMNS, dict(_TEST_ROWS)),
        units={u.id: u for u in units}, chits={}, turns={}, vp_chits={}, minsk_escape={},
        hitler_directive={}, hitler_die=6, strategic_cost=strategic_cost)


def state(scn: model.Scenario, at: dict[str, str], *, turn: int = 2,
          vp: dict[str, Any] | None = None, **flags: dict[str, Any]) -> dict[str, Any]:
    """A game state with the units of ``at`` on the map (uid -> hex) and
    every other unit off map.  ``flags`` holds per-unit overrides, e.g.
    ``isolated={"S1": True}``, ``steps={"G1": 1}``."""
    units = {}
    for uid, spec in scn.units.items():
        u = {"where": "map" if uid in at else "offmap", "hex": at.get(uid), "steps": spec.steps,
             "oos": False, "isolated": False, "active": False, "moved": False, "attacked": False}
        for key, per_unit in flags.items():
            if uid in per_unit:
                u[key] = per_unit[uid]
        units[uid] = u
    return {"turn": turn, "units": units, "attacked_hexes": [], "vp": dict(vp or {})}
