"""Small synthetic *Fierce Fight!* scenarios for rule tests.

``mini()`` builds a scenario dict on a small odd-q grid (columns 10-20, rows
1-30 unless told otherwise) with the AVA Terrain Effects Chart (explicit in
the rulebook, MP in half points) and a TEST CRT (the real one is not in the
rulebook text); ``scenario()`` loads it and ``state()`` places units.  A
test states only what its rule needs::

    scn = avahelp.scenario(units={"g1": avahelp.unit("axis", "mech", 5, 5, 10)},
                           terrain={"heavy_woods": ["1523"]})
    st = avahelp.state(scn, {"g1": "1522"})
"""
from __future__ import annotations

import copy
from typing import Any

from pbem.games.ava import scenario as scenario_mod
from pbem.games.ava.board import Board
from pbem.games.ava.model import Scenario
from pbem.games.ava.profile import AVA, Profile

# AVA TEC (restated, values in half MP): plains 1 MP; light woods 2 mech / 1 foot, 1 shift;
# heavy woods 3/2, 2 shifts; marsh 3/2, 1 shift; lake no entry; mountain entry by road only
# (mountain divisions: all MP), 2 shifts; city: +1 shift over its other terrain; major city
# 1 MP, 2 shifts.  Every terrain but plains stops a mechanized advance (10.7).
TEC: dict[str, dict[str, Any]] = {
    "plains": {"mp_foot": 2, "mp_mech": 2, "shifts": 0, "stops_advance": False},
    "light_woods": {"mp_foot": 2, "mp_mech": 4, "shifts": 1, "stops_advance": True},
    "heavy_woods": {"mp_foot": 4, "mp_mech": 6, "shifts": 2, "stops_advance": True},
    "marsh": {"mp_foot": 4, "mp_mech": 6, "shifts": 1, "stops_advance": True},
    "lake": {"shifts": 0, "stops_advance": True},
    "mountain": {"shifts": 2, "stops_advance": True},
    "city": {"shifts": 1, "stops_advance": True},
    "major_city": {"mp_foot": 2, "mp_mech": 2, "shifts": 2, "stops_advance": True},
}

COLUMNS = ["1:1", "1.5:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1", "8:1", "9:1", "10:1"]
# A TEST table, not the publisher's: only 4:1 on a 4 = RR is from the rulebook (10.4 example).
TEST_CRT = {
    "1": ["A2", "A2", "A1", "A1", "-", "-", "R", "R", "RR", "RR", "1RR"],
    "2": ["A2", "A1", "A1", "-", "R", "R", "RR", "RR", "1RR", "1RR", "1RR"],
    "3": ["A1", "A1", "-", "R", "R", "RR", "RR", "1RR", "1RR", "2RR", "2RR"],
    "4": ["A1", "-", "R", "R", "RR", "RR", "1RR", "1RR", "2RR", "2RR", "2RR"],
    "5": ["-", "R", "R", "RR", "RR", "1RR", "1RR", "2RR", "2RR", "2RR", "3RR"],
    "6": ["R", "R", "RR", "RR", "1RR", "1RR", "2RR", "2RR", "2RR", "3RR", "3RR"],
}


def unit(side: str, kind: str, attack: int, defense: int | None = None, move: int = 8, *,
         steps: int = 2, nationality: str | None = None, start: str = "available",
         **extra: Any) -> dict[str, Any]:
    """A counter; ``move`` in half MP, reduced side = half the printed values (test data)."""
    d = attack if defense is None else defense
    out = {"side": side, "nationality": nationality or ("ger" if side == "axis" else "sov"),
           "kind": kind, "type": extra.pop("type", kind), "steps": steps, "attack": attack, "defense": d,
           "move": move, "attack_reduced": attack // 2, "defense_reduced": d // 2, "move_reduced": move,
           "start": start}
    out.update(extra)
    return out


def mini(*, game: str = "ava", cols: tuple[int, int] = (10, 20), rows: tuple[int, int] = (1, 30),
         terrain: dict[str, list[str]] | None = None, cities: dict[str, list[str]] | None = None,
         hexsides: dict[str, list[str]] | None = None, roads: dict[str, list[str]] | None = None,
         railroads: dict[str, list[str]] | None = None, supply: dict[str, list[str]] | None = None,
         units: dict[str, dict[str, Any]] | None = None, chits: dict[str, dict[str, Any]] | None = None,
         params: dict[str, Any] | None = None, **map_extra: Any) -> dict[str, Any]:
    """The scenario dict (TOML shape) of a small test map."""
    return {
        "scenario": {"id": f"{game}/test", "game": game, "title": "test map", "practice": True,
                     "notice": "TEST DATA"},
        "map": {"first_col": cols[0], "last_col": cols[1], "first_row": rows[0], "last_row": rows[1],
                "offset": "odd-q", "terrain": terrain or {}, "cities": cities or {},
                "hexsides": hexsides or {}, "roads": roads or {}, "railroads": railroads or {},
                "supply": supply or {}, **map_extra},
        "terrain": copy.deepcopy(TEC),
        "crt": {"columns": list(COLUMNS), "rows": copy.deepcopy(TEST_CRT)},
        "turn_track": {"last_turn": 9, "soviet_chits": [3] * 9, "axis_chits": [6] * 9,
                       "reinforcements": {"ger": [0, 0, 0, 2, 2, 2, 2, 2, 2], "sov": [0, 0, 0, 3, 3, 3, 3, 3, 3]}},
        "chits": chits or {"supply": {"side": "common", "kind": "supply"}},
        "units": units or {},
        "params": params or {},
        "victory": {"threshold": 10},
    }


def scenario(**kw: Any) -> Scenario:
    return scenario_mod.load(mini(**kw))


def state(scn: Scenario, placed: dict[str, str], *, turn: int = 1, steps: dict[str, int] | None = None,
          **extra: Any) -> dict[str, Any]:
    """A bare state: ``placed`` uid -> hex (others in the Available Box)."""
    units = {}
    for uid, spec in scn.units.items():
        h = placed.get(uid)
        units[uid] = {"hex": h, "box": None if h else "available",
                      "steps": (steps or {}).get(uid, spec.steps),
                      "active": False, "moved": False, "attacked": False, "retreated": False}
    out: dict[str, Any] = {"turn": turn, "units": units, "control": dict(scn.map.initial_control),
                           "fortress": dict(scn.map.fortress), "stand_fast": sorted(scn.map.stand_fast),
                           "hidden": {"axis": {}, "soviet": {}}}
    out.update(extra)
    return out



def board(units: dict[str, dict[str, Any]], placed: dict[str, str], *, profile: Profile = AVA,
          active: tuple[str, ...] = (), steps: dict[str, int] | None = None, fortress: dict[str, int] | None = None,
          **kw: Any) -> Board:
    """A board of ``units`` placed as given (``active``: activated), on a
    mini scenario (``kw``) under ``profile``."""
    scn = scenario(units=units, game=profile.game, **kw)
    st_ = state(scn, placed, steps=steps)
    for u in active:
        st_["units"][u]["active"] = True
    if fortress:
        st_["fortress"].update(fortress)
    return Board(scn, profile, st_)

# HQs of the three Army Groups and the Soviet fronts, on map-qualified hexes (campaign shape).
HQS = {
    "AX-4PzG": ("axis", "L:2010"), "AX-16A": ("axis", "L:2512"), "AX-18A": ("axis", "L:1505"),
    "AX-3PzG": ("axis", "S:1210"), "AX-9A": ("axis", "S:1310"), "AX-4A": ("axis", "S:1320"),
    "AX-2PzG": ("axis", "S:1420"), "AX-2A": ("axis", "S:1025"),
    "AX-1PzG": ("axis", "K:1010"), "AX-6A": ("axis", "K:1110"), "AX-17A": ("axis", "K:1210"),
    "AX-11A": ("axis", "K:0915"), "RUM-3A": ("axis", "K:0920"),
    "SU-8A": ("soviet", "L:3010"), "SU-27A": ("soviet", "L:3110"),
    "SU-4A": ("soviet", "S:3010"), "SU-10A": ("soviet", "S:3110"), "SU-13A": ("soviet", "S:3210"),
    "SU-5A": ("soviet", "K:3010"), "SU-26A": ("soviet", "K:3110"),
}


def campaign_like() -> tuple[Scenario, dict[str, Any]]:
    """Every Army Group and front HQ on the map (AVA 19.2 seats), a unit of
    each side, and the chits the multiplayer rules split among seats."""
    units = {}
    for uid, (side, _) in HQS.items():
        nat = "rum" if uid.startswith("RUM") else ("ger" if side == "axis" else "sov")
        units[uid] = unit(side, "hq", 1, nationality=nat, type="army")
    units["gd-inf"] = unit("axis", "foot", 4, formation="AX-9A")
    units["su-rifle"] = unit("soviet", "foot", 3)
    chits: dict[str, dict[str, Any]] = {uid: {"side": s, "kind": "hq", "hq": uid} for uid, (s, _) in HQS.items()}
    chits.update({
        "AX-1PzG-2": {"side": "axis", "kind": "hq", "hq": "AX-1PzG"},
        "AX-3PzG-2": {"side": "axis", "kind": "hq", "hq": "AX-3PzG"},
        "manstein": {"side": "axis", "kind": "interrupt", "hq": "AX-4PzG"},
        "guderian": {"side": "axis", "kind": "interrupt", "hq": "AX-2PzG"},
        "AX-reinf": {"side": "axis", "kind": "reinforcement"},
        "SU-reinf": {"side": "soviet", "kind": "reinforcement"},
        "supply": {"side": "common", "kind": "supply"},
        "AX-okh": {"side": "axis", "kind": "okh"},
        "SU-reserve": {"side": "soviet", "kind": "reserve"},
    })
    scn = scenario(units=units, chits=chits)
    st = {"units": {uid: {"hex": HQS[uid][1] if uid in HQS else None} for uid in units}}
    return scn, st
