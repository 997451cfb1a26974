"""The shipped Fierce Fight! Smolensk Blitzkrieg scenarios (scenarios/ffs/):
the practice file loads and is consistent, the published file carries
the facts of the FFS text, lists its gaps by kind and is refused."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import avahelp
import pytest

from pbem import scenario as core
from pbem.game import ScenarioError
from pbem.games.ava import scenario as reader

ROOT = Path(__file__).resolve().parent.parent
FFS = ROOT / "scenarios" / "ffs"

# FFS 4.0(6), 15.2: the chit schedule (start = Turn 1).
CHITS = {
    "supply": 1, "AX-2PzG": 1, "AX-3PzG": 1, "AX-3PzG-2": 1, "AX-4A": 1, "AX-9A": 1, "guderian": 1,
    "SU-3A": 1, "SU-4A": 1, "SU-10A": 1, "AX-reinf": 4, "AX-2A": 4,
    "SU-13A": 2, "SU-20A": 2, "SU-21A": 2, "SU-16A": 3, "SU-19A": 3, "SU-22A": 3, "SU-reinf": 4,
}


def data(name: str) -> dict[str, Any]:
    return core.load_toml(FFS / f"{name}.toml")


def chit_turns(d: dict[str, Any]) -> dict[str, Any]:
    return {cid: c.get("turn", 1) for cid, c in d["chits"].items()
            if not c.get("choice") and c["kind"] not in ("reserve", "okh")}


def test_shipped_files():
    assert sorted(p.stem for p in FFS.glob("*.toml")) == ["practice", "smolensk"]
    for name in ("practice", "smolensk"):
        head = core.header(data(name), name)
        assert head["id"] == f"ffs/{name}" and head["game"] == "ffs"
        assert head["practice"] is (name == "practice")


@pytest.mark.parametrize("name", ["practice", "smolensk"])
def test_tec_and_crt_frame(name: str):
    d = data(name)
    assert d["terrain"] == avahelp.TEC                                  # FFS TEC, same chart as AVA
    assert d["crt"]["columns"][4] == "4:1" and d["crt"]["rows"]["4"][4] == "RR"
    assert [d["chits"][c]["turn"] for c in ("SU-13A", "SU-16A", "AX-2A")] == [2, 3, 4]


def test_practice_loads_clean_and_says_practice():
    d = data("practice")
    assert reader.check(d) == [] and core.count_missing(d) == 0
    scn = reader.load(d)
    assert scn.practice and scn.notice.startswith("PRACTICE DATA")
    text = (FFS / "practice.toml").read_text(encoding="utf-8")
    assert "PRACTICE DATA" in text.splitlines()[2]
    assert "PRACTICE DATA" in text[text.index("[crt]"):].splitlines()[1]


def test_practice_schedule_track_and_command_ranges():
    d = data("practice")
    scn = reader.load(d)
    assert chit_turns(d) == CHITS
    choice = [c for c in scn.chits.values() if c.choice]
    assert len(choice) == 4                                             # 15.2(5): Turns 4-7
    assert scn.params.extra_army_chit_turns == (4, 5, 6, 7)
    # 6.2: both Com numbers on the track, one per turn.
    assert len(scn.track.axis_chits) == len(scn.track.soviet_chits) == scn.track.last_turn == 9
    # 8.2: command ranges printed on every HQ.
    assert all(isinstance(u.command_range, int) and u.command_range > 0 for u in scn.units.values() if u.is_hq)
    assert scn.map.stand_fast == frozenset()                           # no Stand Fast rule in FFS


def test_practice_19th_army_is_the_hq_and_nine_units():
    scn = reader.load(data("practice"))
    group = [u for u in scn.units.values() if "19A" in u.flags]
    assert len(group) == 10 and sum(u.is_hq for u in group) == 1      # 4.0(2)(3)
    assert all(u.start == "turn:3" for u in group)


def test_practice_params_and_victory():
    scn = reader.load(data("practice"))
    p = scn.params
    assert (p.strategic_reserve, p.withdrawal_turn, p.withdrawal_strength) == (12, 6, 18)
    assert p.reserve_table == (1, 1, 2, 2, 3, 3) and p.fortress_build_from_turn == 0
    pts = scn.victory.points
    assert [t["hex"] for t in pts["timed"]] == ["3510", "4112", "3726"]
    assert pts["full_margin"] == 30                                     # practice, not the printed 40
    assert scn.map.vp_hexes["breakthrough"] == {"4230", "4730"}
    assert scn.map.vp_hexes["moscow_pair"] == {"5504", "5507"}
    assert scn.map.fortress == {"3517": 1}


def test_published_lists_gaps_by_kind_and_is_refused():
    d = data("smolensk")
    gaps = reader.gaps(d)
    kinds = {line.split(":", 1)[0] for line in gaps}
    assert {"map", "combat results table", "turn track", "counters", "victory conditions"} <= kinds
    assert "turn track: turn_track.axis_chits (9 of 9)" in gaps
    assert "chit schedule: chits.SU-choice.hq" in gaps
    with pytest.raises(ScenarioError):
        reader.load(d)


def test_published_facts():
    d = data("smolensk")
    assert chit_turns(d) == CHITS
    m = d["map"]
    assert m["fortress"] == {"0927": 1} and m["names"]["0927"] == "Brest"     # 4.0(7)
    assert m["source_tags"]["from_moscow"] == ["5504", "5507", "5513"]         # 15.4.1
    assert m["vp_hexes"] == {"breakthrough": ["4230", "4730"], "moscow_pair": ["5504", "5507"]}
    p = d["params"]
    assert (p["strategic_reserve"], p["strategic_reserve_from_turn"]) == (12, 6)   # 15.4
    assert (p["withdrawal_turn"], p["withdrawal_strength"]) == (6, 18)            # 15.3(2)
    assert p["reserve_table"] == [1, 1, 2, 2, 3, 3]                               # 16.2
    assert p["extra_army_chit_turns"] == [4, 5, 6, 7] and p["short_game_turn"] == 6
    pts = d["victory"]["points"]
    assert pts["city"] == [10, 5] and pts["east_edge"] == 15 and pts["moscow_pair"] == 15
    assert pts["east_cap"] == 30 and pts["full_margin"] == 40                     # 15.6(2)
    assert pts["hex_schedule"] == [[7, 20, 20], [8, 15, 10], [9, 5, 5]]           # 15.5
    assert (pts["axis_mech_lost"], pts["axis_other_lost"]) == (3, 1)
    assert [(t["place"], t["turn"], t["vp"]) for t in pts["timed"]] == [
        ("Vitebsk", 4, 10), ("Smolensk", 5, 10), ("Gomel", 6, 10)]
    group = [u for u in d["units"].values() if isinstance(u, dict) and "19A" in u.get("flags", ())]
    assert len(group) == 10 and all(u["start"] == "turn:3" for u in group)      # HQ + 9
    assert all(u["command_range"] == "MISSING" for u in d["units"].values()
               if isinstance(u, dict) and u.get("kind") == "hq")
