"""The AVA chit tests' scenario, shared with the FFS chit tests: the
Smolensk command-chit schedule on a test map, its HQs placed."""
from __future__ import annotations

from typing import Any

from tests import avahelp

U = avahelp.unit

# The Smolensk schedule (AVA 18.2 / FFS 15.2) on a test map.
CHITS: dict[str, dict[str, Any]] = {
    "supply": {"side": "common", "kind": "supply"},
    "2PzG": {"side": "axis", "kind": "hq", "hq": "2PzG"},
    "3PzG.1": {"side": "axis", "kind": "hq", "hq": "3PzG"},
    "3PzG.2": {"side": "axis", "kind": "hq", "hq": "3PzG"},
    "4A": {"side": "axis", "kind": "hq", "hq": "G4A"},
    "9A": {"side": "axis", "kind": "hq", "hq": "G9A"},
    "Guderian": {"side": "axis", "kind": "interrupt", "hq": "2PzG"},
    "AxReinf": {"side": "axis", "kind": "reinforcement", "turn": 4},
    "2A": {"side": "axis", "kind": "hq", "hq": "G2A", "turn": 4},
    "OKH": {"side": "axis", "kind": "okh"},
    "S3A": {"side": "soviet", "kind": "hq", "hq": "S3A"},
    "S4A": {"side": "soviet", "kind": "hq", "hq": "S4A"},
    "S10A": {"side": "soviet", "kind": "hq", "hq": "S10A"},
    "S13A": {"side": "soviet", "kind": "hq", "hq": "S13A", "turn": 2},
    "S19A": {"side": "soviet", "kind": "army19", "hq": "S19A", "turn": 3},
    "SuReinf": {"side": "soviet", "kind": "reinforcement", "turn": 4},
    "S24A": {"side": "soviet", "kind": "hq", "hq": "S24A", "choice": True},
    "S28A": {"side": "soviet", "kind": "hq", "hq": "S28A", "choice": True},
    "Reserve": {"side": "soviet", "kind": "reserve"},
}


def scn_dict(game: str = "ava", **params: Any) -> dict[str, Any]:
    units = {
        "2PzG": U("axis", "hq", 2, 2, 6), "3PzG": U("axis", "hq", 2, 2, 6), "G4A": U("axis", "hq", 1, 1, 6),
        "G9A": U("axis", "hq", 1, 1, 6), "G2A": U("axis", "hq", 1, 1, 6),
        "S3A": U("soviet", "hq", 1, 1, 6), "S4A": U("soviet", "hq", 1, 1, 6),
        "S10A": U("soviet", "hq", 1, 1, 6), "S13A": U("soviet", "hq", 1, 1, 6),
        "S19A": U("soviet", "hq", 1, 1, 6, start="turn:3", flags=["19A"]),
        "r19": U("soviet", "foot", 3, 3, 6, start="turn:3", flags=["19A"]),
        "rum": U("axis", "foot", 3, 3, 6, nationality="rum"),
    }
    p = {"extra_army_chit_turns": [4, 5, 6, 7] if game == "ffs" else [4, 5, 6, 7, 8, 9]}
    p.update(params)
    d = avahelp.mini(game=game, chits=CHITS, units=units, params=p)
    d["turn_track"]["soviet_chits"] = [3, 5, 6, 7, 7, 7, 7, 7, 7]
    d["turn_track"]["axis_chits"] = [5, 5, 5, 6, 6, 6, 6, 6, 6]
    return d


def st(scn, turn: int = 1, **kw: Any) -> dict[str, Any]:
    placed = {"2PzG": "1010", "3PzG": "1110", "G4A": "1210", "G9A": "1310",
              "S3A": "1020", "S4A": "1120", "S10A": "1220", "S13A": "1320"}
    out = avahelp.state(scn, placed, turn=turn, **kw)
    for uid in ("S19A", "r19"):
        out["units"][uid]["box"] = "track:3"
    return out
