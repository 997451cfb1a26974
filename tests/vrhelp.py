"""Small synthetic *Victory Roads* scenarios for rule tests.

``mini()`` builds a scenario dict on a small even-q grid (columns 48-62,
rows 14-30 unless told otherwise) with the charts of the PRACTICE file
(its TEC, coloured 2D6 CRT and weather table: practice data, not the
publisher's); ``scenario()`` loads it and ``state()`` places units.  A test
states only what its rule needs::

    scn = vrhelp.scenario(units={"hq": vrhelp.hq("sov", 6)}, railroads={"r": ["6015", "6115"]})
    st = vrhelp.state(scn, {"hq": "6015"})
"""
from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

from pbem.games.vr import scenario as scenario_mod
from pbem.games.vr.board import Board
from pbem.games.vr.model import HOME_SIDE, Scenario
from pbem.games.vr.profile import BASIC, Profile

PRACTICE_FILE = Path(__file__).resolve().parent.parent / "scenarios" / "vr" / "practice-basic.toml"
PRACTICE: dict[str, Any] = tomllib.loads(PRACTICE_FILE.read_text(encoding="utf-8"))


def unit(nationality: str, attack: int, defense: int | None = None, move: int = 8, *, arm: str = "infantry",
         steps: int = 2, start: str = "eliminated", **extra: Any) -> dict[str, Any]:
    """A division; ``move`` in half MP; reduced side = half the printed values (test data)."""
    d = attack if defense is None else defense
    out = {"nationality": nationality, "kind": "division", "arm": arm, "steps": steps, "attack": attack,
           "defense": d, "move": move, "attack_reduced": attack // 2, "defense_reduced": d // 2,
           "move_reduced": move, "start": start}
    out.update(extra)
    return out


def hq(nationality: str, command_radius: int, *, move: int = 8, start: str = "eliminated", **extra: Any) -> dict[str, Any]:
    return {"nationality": nationality, "kind": "hq", "steps": 1, "defense": 1, "move": move,
            "command_radius": command_radius, "start": start, **extra}


def mini(*, cols: tuple[int, int] = (48, 62), rows: tuple[int, int] = (14, 30), rules: str = "basic",
         units: dict[str, dict[str, Any]] | None = None, switches: dict[str, Any] | None = None,
         markers: dict[str, Any] | None = None, supports: dict[str, dict[str, Any]] | None = None,
         schedule: dict[str, dict[str, Any]] | None = None, pools: dict[str, dict[str, int]] | None = None,
         end_of_reich: dict[str, Any] | None = None, **map_parts: Any) -> dict[str, Any]:
    """The scenario dict (TOML shape) of a small test map; ``map_parts``
    are [map] keys (terrain, cities, hexsides, roads, railroads, supply,
    control, countries, ports, capitals, fortifications...); ``switches``
    the card's rule switches (none: the plain Basic rules, not the practice
    card's), ``markers`` the card's markers; ``supports`` more Support
    tables, ``pools`` more copies in the card's pools, ``schedule`` the
    Reinforcement Schedule, ``end_of_reich`` the track."""
    data = copy.deepcopy(PRACTICE)
    data["scenario"] |= {"id": "vr/test", "title": "test map", "rules": rules, "notice": "TEST DATA",
                         "switches": dict(switches or {})}
    if markers is not None:
        data["card"]["markers"] = dict(markers)
    data["map"] = {"first_col": cols[0], "last_col": cols[1], "first_row": rows[0], "last_row": rows[1],
                   "offset": "even-q", "default_country": "ussr", **map_parts}
    data["card"]["victory"] = {"text": "TEST DATA"}     # the practice card's goals lie off a test map
    data["units"] = units or {}
    data["schedule"] = dict(schedule or {})
    data["supports"] = {**data["supports"], **(supports or {})}
    for side, more in (pools or {}).items():
        data["card"]["pools"][side] = {**data["card"]["pools"].get(side, {}), **more}
    if end_of_reich is not None:
        data["end_of_reich"] = end_of_reich
    return data


def scenario(**kw: Any) -> Scenario:
    return scenario_mod.load(mini(**kw))


def state(scn: Scenario, placed: dict[str, str], *, steps: dict[str, int] | None = None,
          weather: str = "fair", **extra: Any) -> dict[str, Any]:
    """A bare state: ``placed`` uid -> hex (others eliminated)."""
    units = {}
    for uid, spec in scn.units.items():
        h = placed.get(uid)
        units[uid] = {"hex": h, "box": None if h else "eliminated", "steps": (steps or {}).get(uid, spec.steps),
                      "side": HOME_SIDE[spec.nationality], "oos": False, "mode": None, "pontoon": None,
                      "exploit": False, "attacked": False, "retreated": False, "no_attack": False}
    out: dict[str, Any] = {"turn": 1, "weather": weather, "sky": "clear", "units": units,
                           "control": dict(scn.map.initial_control), "soviet_ever": [], "haltebefehl": {},
                           "bridgeheads": [], "bridge_engineers": [], "allies": {"hun": "german", "rum": "german"},
                           "hidden": {"soviet": {}, "german": {}}}
    out.update(extra)
    return out


def board(scn: Scenario, placed: dict[str, str], profile: Profile = BASIC, **kw: Any) -> Board:
    return Board(scn, profile, state(scn, placed, **kw))


# ------------------------------------------------------------ the engine
def rules(scn: Scenario | None = None, **kw: Any) -> Any:
    """The rules engine bound to a test scenario (``scenario(**kw)``)."""
    from pbem.games.vr.rules import VrRules
    return VrRules(scn or scenario(**kw))


def engine_state(r: Any, placed: dict[str, str], frame: dict[str, Any], *, side: str = "soviet",
                 steps: dict[str, int] | None = None, oos: tuple[str, ...] = (), **extra: Any) -> dict[str, Any]:
    """A rules state with ``placed`` units (uid -> hex; the rest in the
    Eliminated box, KGs in their pool) stopped at ``frame`` of ``side``'s
    player turn."""
    st = r.initial_state()
    for uid, u in st["units"].items():
        h = placed.get(uid)
        u["hex"], u["box"] = (h, None) if h else (None, "kg_pool" if r.scn.units[uid].kind == "kg" else "eliminated")
        u["steps"] = (steps or {}).get(uid, r.scn.units[uid].steps)
        u["oos"] = uid in oos
    st["phasing"], st["phase"] = side, frame.get("phase", "combat")
    from pbem.games.vr.seq_turn import PHASES
    nxt = PHASES.index(st["phase"]) + 1 if st["phase"] in PHASES else 99
    cur = st["phase"] if st["phase"] in PHASES else None
    st["stack"] = [{"k": "turn", "step": 3, "go": True}, {"k": "pturn", "side": side, "i": nxt, "cur": cur},
                   dict(frame)]
    st.update(extra)
    return st


def combat_frame(side: str = "soviet", mode: str = "combat") -> dict[str, Any]:
    return {"k": "combat", "side": side, "phase": "combat", "mode": mode}


def movement_frame(side: str = "soviet", mode: str = "normal", rail: int = 4) -> dict[str, Any]:
    return {"k": "movement", "side": side, "phase": "movement", "moved": [], "paid": False, "rail": rail, "mode": mode,
            "naval": 3}


def give_supports(st: dict[str, Any], side: str, sids: list[str]) -> list[str]:
    """Put face-down Supports (copy 1, 2... of each id) in ``side``'s box."""
    sup = st["supports"][side]
    out = []
    for sid in sids:
        copy = 1 + sum(1 for v in st["hidden"][side]["items"].values() if v.get("support") == sid)
        h = f"{'s' if side == 'soviet' else 'g'}-{sup['next']}"
        sup["next"] += 1
        sup["available"].append(h)
        sup["drawn_on"][h] = st["turn"]
        st["hidden"][side]["items"][h] = {"support": sid, "copy": copy, "turn": st["turn"]}
        out.append(h)
    return out


def order(r: Any, st: dict[str, Any], seat: str, text: str, dice: Any) -> list[Any]:
    """Parse and apply one order of ``seat``; the events."""
    _, events = r.apply(st, seat, r.parse(text, st, seat), dice)
    return events


def play_practice(dice: str, limit: int = 4000):
    """A whole Basic practice game through the exchange engine (the Soviet
    seat's creator Pavel, the German Anna): see enginehelp.play_scripted."""
    from enginehelp import play_scripted

    from pbem.protocol.identity import generate
    from pbem.scenario import load_toml

    players = {"soviet": generate("Pavel", "pavel@example.org"), "german": generate("Anna", "anna@example.org")}
    return play_scripted("vr", "vr/practice-basic", load_toml(PRACTICE_FILE), players, "soviet", dice, limit)
