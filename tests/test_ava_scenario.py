"""The shipped A Victory Awaits scenarios (scenarios/ava/) and the reader
(pbem/games/ava/scenario.py).

Practice files must load with no gaps and be consistent (a game can be
played on them from Turn 1 to the end); published files must carry the
facts the rulebook text gives, list every gap by kind and be refused.
"""
from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import avahelp
import pytest

from pbem import scenario as core
from pbem.board.hexgrid import side_key
from pbem.game import ScenarioError
from pbem.games.ava import scenario as reader
from pbem.games.ava.model import Scenario

ROOT = Path(__file__).resolve().parent.parent
AVA = ROOT / "scenarios" / "ava"
PRACTICE = ["practice", "practice-multi"]
PUBLISHED = ["campaign", "leningrad", "smolensk", "kiev"]
RESULT = re.compile(r"^(A[12]|-|R|RR|[1-3]RR)$")
COLUMNS = ["1:1", "1.5:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1", "8:1", "9:1", "10:1"]

# AVA 18.2: the Smolensk chit schedule (start = Turn 1).
SMOLENSK_CHITS = {
    "supply": 1, "AX-2PzG": 1, "AX-3PzG": 1, "AX-3PzG-2": 1, "AX-4A": 1, "AX-9A": 1, "guderian": 1,
    "SU-3A": 1, "SU-4A": 1, "SU-10A": 1, "AX-reinf": 4, "AX-2A": 4,
    "SU-13A": 2, "SU-20A": 2, "SU-21A": 2, "SU-16A": 3, "SU-19A": 3, "SU-22A": 3, "SU-reinf": 4,
}


def data(name: str) -> dict[str, Any]:
    return core.load_toml(AVA / f"{name}.toml")


def loaded(name: str) -> Scenario:
    return reader.load(data(name))


def chit_turns(d: dict[str, Any]) -> dict[str, Any]:
    return {cid: c.get("turn", 1) for cid, c in d["chits"].items()
            if not c.get("choice") and c["kind"] not in ("reserve", "okh")}


# ---------------------------------------------------------------- every file
def test_every_shipped_file_is_read_and_named():
    names = sorted(p.stem for p in AVA.glob("*.toml"))
    assert names == sorted(PRACTICE + PUBLISHED)
    for name in names:
        d = data(name)
        head = core.header(d, name)
        assert head["id"] == f"ava/{name}" and head["game"] == "ava"
        assert head["practice"] is name.startswith("practice")


@pytest.mark.parametrize("name", PRACTICE + PUBLISHED)
def test_tec_is_the_rulebooks_chart_in_half_mp(name: str):
    # TEC (explicit in the rulebook): the same chart in every file, MP in half MP.
    assert data(name)["terrain"] == avahelp.TEC


@pytest.mark.parametrize("name", PRACTICE + PUBLISHED)
def test_crt_frame_has_eleven_columns_and_the_known_cell(name: str):
    # 10.3 examples give the columns; 10.4: 4:1 on a 4 = RR.
    crt = data(name)["crt"]
    assert crt["columns"] == COLUMNS
    assert sorted(crt["rows"]) == ["1", "2", "3", "4", "5", "6"]
    assert crt["rows"]["4"][COLUMNS.index("4:1")] == "RR"


# ---------------------------------------------------------------- practice
@pytest.mark.parametrize("name", PRACTICE)
def test_practice_loads_without_gaps_or_problems(name: str):
    d = data(name)
    assert reader.gaps(d) == []
    assert core.count_missing(d) == 0
    assert reader.check(d) == []
    scn = reader.load(d)
    assert scn.practice and scn.notice.startswith("PRACTICE DATA")


@pytest.mark.parametrize("name", PRACTICE)
def test_practice_file_and_its_tables_say_practice_data(name: str):
    text = (AVA / f"{name}.toml").read_text(encoding="utf-8")
    assert "PRACTICE DATA" in text.splitlines()[2]
    for table in ("[crt]", "[turn_track]"):
        after = text[text.index(table):].splitlines()[1]
        assert "PRACTICE DATA" in after, table
    assert "PRACTICE" in text[text.index("[victory]"):text.index("[victory.points]")]


@pytest.mark.parametrize("name", PRACTICE)
def test_practice_crt_uses_the_result_vocabulary(name: str):
    for row in data(name)["crt"]["rows"].values():
        assert len(row) == 11 and all(RESULT.match(r) for r in row)


@pytest.mark.parametrize("name", PRACTICE)
def test_practice_units_start_on_land_two_a_hex_on_their_side_of_the_start_line(name: str):
    scn = loaded(name)
    m = scn.map
    assert {k for k, f in m.hexsides.items() if "start_line" in f}
    per_hex: dict[str, list[str]] = {}
    for uid, u in scn.units.items():
        if u.start in ("available",) or u.start.startswith("turn:"):
            continue
        assert m.on_map(u.start) and m.terrain_of(u.start) != "lake", uid
        per_hex.setdefault(u.start, []).append(uid)
        # 2.1 / 3.4: the red line between columns 32 and 33 parts the two sides at the start.
        assert (int(u.start[:2]) <= 32) == (u.side == "axis"), uid
    assert max(len(v) for v in per_hex.values()) <= 2


@pytest.mark.parametrize("name", PRACTICE)
def test_practice_formations_and_chits_name_existing_hqs(name: str):
    scn = loaded(name)
    for uid, u in scn.units.items():
        if u.formation:
            assert scn.units[u.formation].is_hq and scn.units[u.formation].side == u.side, uid
    for cid, c in scn.chits.items():
        if c.hq:
            assert scn.units[c.hq].is_hq, cid
            assert c.side == scn.units[c.hq].side, cid


@pytest.mark.parametrize("name", PRACTICE)
def test_practice_roads_and_railroads_are_chains_of_adjacent_hexes(name: str):
    m = data(name)["map"]
    scn = loaded(name)
    for kind in ("roads", "railroads"):
        for line, chain in m[kind].items():
            assert len(chain) >= 2
            for a, b in zip(chain, chain[1:]):
                assert scn.map.grid.adjacent(a, b), (kind, line, a, b)
                assert scn.map.on_map(a) and scn.map.terrain_of(a) != "lake"


@pytest.mark.parametrize("name", PRACTICE)
def test_practice_supply_sources_and_axis_railroad_net(name: str):
    scn = loaded(name)
    m = scn.map
    assert all(m.on_map(h) and h.startswith("31") for h in m.supply["axis"])      # west edge
    assert all(m.on_map(h) and h.startswith("55") for h in m.supply["soviet"])    # east edge
    # 15.4 / 16.3: the From Moscow sources keep their printed numbers.
    assert m.source_tags["from_moscow"] == {"5504", "5507", "5513"}
    assert m.source_tags["from_moscow"] <= m.supply["soviet"] == m.source_tags["east_edge"]
    # 3.3: Axis LOC runs along railroads from an Axis source: every railroad is reached from one.
    rail: dict[str, set[str]] = {}
    for k in m.rail_sides:
        a, b = k.split("|")
        rail.setdefault(a, set()).add(b)
        rail.setdefault(b, set()).add(a)
    seen = set(m.supply["axis"])
    todo = list(seen)
    while todo:
        for n in rail.get(todo.pop(), ()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert set(rail) <= seen
    assert seen & m.supply["soviet"]          # the lines run through to the Soviet rear


@pytest.mark.parametrize("name", PRACTICE)
def test_practice_rivers_bridged_where_roads_and_railroads_cross(name: str):
    scn = loaded(name)
    m = scn.map
    crossings = [k for k in m.road_sides | m.rail_sides if m.river(*k.split("|"))]
    assert crossings and all(m.bridged(*k.split("|")) for k in crossings)
    assert any("major_river" in f for f in m.hexsides.values())
    assert any("minor_river" in f for f in m.hexsides.values())


@pytest.mark.parametrize("name", PRACTICE)
def test_practice_keeps_the_named_hexes_that_fit(name: str):
    scn = loaded(name)
    names = {"3510": "Vitebsk", "4112": "Smolensk", "3726": "Gomel", "5003": "Rzhev", "5009": "Vyaz'ma",
             "5120": "Bryansk"}
    for h, place in names.items():
        assert scn.map.names[h] == place and scn.map.cities[h] == "major_city"
    # 16.2: the Stand Fast cities of the Smolensk map, all on this map.
    assert scn.map.stand_fast == set(names)
    # Brest (0927) is off this map: a Brest-like fortress stands in Mogilev.
    assert scn.map.fortress == {"3517": 1} and scn.map.cities["3517"] == "major_city"
    assert all(scn.map.initial_control[h] == "soviet" for h in scn.map.cities)


def test_practice_follows_the_smolensk_chit_schedule():
    d = data("practice")
    assert chit_turns(d) == SMOLENSK_CHITS
    choice = [c for c in d["chits"].values() if c.get("choice")]
    assert len(choice) == 6 and all(c["turn"] == 4 and c["side"] == "soviet" for c in choice)
    scn = loaded("practice")
    assert scn.chits["guderian"].kind == "interrupt" and scn.chits["guderian"].hq == "AX-2PzG"
    assert scn.chits["SU-19A"].kind == "army19"
    # 6.2 note: the Axis cups every chit; no Axis count on the AVA track.
    assert scn.track.axis_chits == ()
    assert len(scn.track.soviet_chits) == scn.track.last_turn == 9


def test_practice_19th_army_is_the_hq_and_ten_units_on_turn_3():
    # 4.0(2)(d), 15.3: eleven counters marked 19A on Turn 3.
    scn = loaded("practice")
    group = [u for u in scn.units.values() if "19A" in u.flags]
    assert len(group) == 11 and all(u.start == "turn:3" for u in group)
    assert sum(u.is_hq for u in group) == 1
    assert all(u.formation == "SU-19A" for u in group if not u.is_hq)


def test_practice_order_of_battle_size_and_boxes():
    scn = loaded("practice")
    for side in ("axis", "soviet"):
        units = [u for u in scn.units.values() if u.side == side]
        assert 30 <= len(units) <= 60
        assert any(u.start == "available" for u in units)
        assert any(u.is_hq for u in units)
    # 4.0(2): the 2PzG HQ shares its hex with one combat unit.
    hq = scn.units["AX-2PzG"].start
    assert [u.id for u in scn.units.values() if u.start == hq and not u.is_hq]
    # 18.2: enough Axis mech attack on the map to withdraw 18 on Turn 6.
    assert sum(u.attack for u in scn.units.values() if u.side == "axis" and u.mech) >= 18


def test_practice_params_are_the_smolensk_rules_and_the_thresholds_practice():
    scn = loaded("practice")
    p = scn.params
    assert (p.strategic_reserve, p.withdrawal_turn, p.withdrawal_strength, p.army19_turn) == (6, 6, 18, 3)
    assert p.fortress_build_from_turn == 0 and p.short_game_turn == 6
    assert p.extra_army_chit_turns == (4, 5, 6, 7, 8, 9)
    # Practice thresholds, not the printed map's 60/85.
    assert (scn.victory.short_threshold, scn.victory.threshold) == (50, 75)
    assert scn.map.vp_hexes["breakthrough"] == {"4230", "4730"}


def test_practice_multi_gives_four_seats_and_campaign_fortress_rules():
    d = data("practice-multi")
    scn = reader.load(d)
    seats = d["seats"]
    assert sorted(seats) == ["axis_north", "axis_south", "soviet_north", "soviet_south"]
    assert [s for s, v in seats.items() if "controller" in v["roles"]] == [d["multiplayer"]["controller_seat"]]
    hqs = [h for v in seats.values() for h in v["hqs"]]
    assert sorted(hqs) == sorted(uid for uid, u in scn.units.items() if u.is_hq)
    chits = [c for v in seats.values() for c in v["chits"]]
    assert len(chits) == len(set(chits)) and set(chits) <= set(scn.chits)
    assert "guderian" in seats["axis_south"]["chits"] and "AX-2PzG" in seats["axis_south"]["hqs"]
    assert d["multiplayer"]["master_chits"] == {"two": [7, 8], "three": [5, 6]}     # 20.2
    assert (scn.params.fortress_steps_per_check, scn.params.fortress_max_hexes) == (2, 6)
    assert scn.params.withdrawal_turn == 0 and scn.map.vp_hexes == {}


# ---------------------------------------------------------------- published
@pytest.mark.parametrize("name", PUBLISHED)
def test_published_lists_gaps_by_kind_and_is_refused(name: str):
    d = data(name)
    gaps = reader.gaps(d)
    kinds = {line.split(":", 1)[0] for line in gaps}
    assert {"map", "combat results table", "turn track", "counters"} <= kinds
    assert reader.check(d) == gaps
    assert core.count_missing(d) > 0
    with pytest.raises(ScenarioError, match="missing value"):
        reader.load(d)


@pytest.mark.parametrize("name", PUBLISHED)
def test_published_crt_is_missing_but_for_the_known_cell(name: str):
    rows = data(name)["crt"]["rows"]
    cells = [c for row in rows.values() for c in row]
    assert cells.count("MISSING") == 65 and cells.count("RR") == 1


def test_smolensk_facts():
    d = data("smolensk")
    assert chit_turns(d) == SMOLENSK_CHITS                                          # 18.2
    m = d["map"]
    assert m["source_tags"]["from_moscow"] == ["5504", "5507", "5513"]              # 15.4
    assert m["stand_fast"]["hexes"] == ["3510", "3726", "4112", "5003", "5009", "5120"]   # 16.2
    assert m["fortress"] == {"0927": 1} and m["names"]["0927"] == "Brest"          # 4.0(7)
    assert m["vp_hexes"]["breakthrough"] == ["4230", "4730"]                        # 18.2
    # 18.2 lists 2801/2830 and 2801/2930: row 30 is Smolensk's, row 01 Kiev's (notes 5.3).
    assert m["seam"]["border"] == ["S:2730|K:2701", "S:2730|K:2801", "S:2830|K:2801",
                                   "S:2930|K:2801", "S:2930|K:2901"]
    p = d["params"]
    assert (p["strategic_reserve"], p["strategic_reserve_from_turn"]) == (6, 6)    # 15.4
    assert (p["withdrawal_turn"], p["withdrawal_strength"]) == (6, 18)             # 18.2
    assert p["fortress_build_from_turn"] == 0 and p["army19_turn"] == 3
    assert p["short_game_turn"] == 6 and p["reserve_table"] == [3, 3, 3, 3, 4, 5]
    v = d["victory"]
    assert (v["short_threshold"], v["threshold"]) == (60, 85)                      # 18.2
    assert v["points"]["hexes"] == [10, 5] and v["points"]["hexes_tag"] == "breakthrough"
    group = [u for u in d["units"].values() if isinstance(u, dict) and "19A" in u.get("flags", ())]
    assert len(group) == 11 and all(u["start"] == "turn:3" for u in group)        # 15.3


def test_leningrad_facts():
    d = data("leningrad")
    assert chit_turns(d) == {"supply": 1, "AX-4PzG": 1, "manstein": 1, "AX-16A": 1, "AX-18A": 1, "SU-8A": 1,
                             "SU-11A": 1, "AX-reinf": 4, "SU-27A": 2, "SU-23A": 3, "SU-reinf": 4}
    assert d["chits"]["manstein"]["hq"] == "AX-4PzG"
    assert "AX-okh" not in d["chits"]                                               # 18.1: no OKH
    p = d["params"]
    assert (p["fortress_build_from_turn"], p["fortress_steps_per_check"], p["fortress_max_hexes"]) == (4, 1, 3)
    assert p["strategic_reserve"] == 0 and p["zhukov"] is True and p["reserve_no_ezoc"] is True
    assert p["reserve_table"] == [1, 1, 2, 2, 3, 3]
    assert d["victory"]["threshold"] == 54
    assert d["map"]["stand_fast"]["hexes"] == ["3602", "3603", "3702"]
    transfer = [u for u in d["units"].values() if isinstance(u, dict) and "3PzG_transfer" in u.get("flags", ())]
    assert len(transfer) == 3 and all(u["start"] == "turn:7" for u in transfer)
    # Values the rulebook's examples give (10.3 combat ratio example).
    u = d["units"]
    assert u["36Mot"]["attack"] == 5 and u["21Inf"]["attack"] == 3 and u["217Inf"]["attack"] == 3
    assert u["AX-4PzG"]["attack"] == 2 and u["179Rif"]["defense"] == 2
    assert 5 + 3 / 2 + 3 / 2 == 4 * u["179Rif"]["defense"]                         # 8:2 -> 4:1


def test_kiev_facts():
    d = data("kiev")
    assert chit_turns(d) == {"supply": 1, "AX-1PzG": 1, "AX-1PzG-2": 1, "AX-6A": 1, "AX-17A": 1, "SU-5A": 1,
                             "SU-6A": 1, "SU-26A": 1, "AX-11A": 2, "RUM-3A": 2, "RUM-4A": 2, "SU-9A": 2,
                             "SU-12A": 2, "SU-18A": 2, "AX-reinf": 4, "SU-reinf": 4}
    assert d["units"]["RUM-3A"]["nationality"] == "rum"
    p = d["params"]
    assert (p["fortress_steps_per_check"], p["fortress_max_hexes"], p["strategic_reserve"]) == (1, 3, 0)
    assert d["victory"]["threshold"] == 52 and d["map"]["stand_fast"]["hexes"] == ["3507", "3607", "3608"]
    assert "rum" in d["turn_track"]["reinforcements"]


def test_campaign_facts():
    d = data("campaign")
    start = [cid for cid, c in d["chits"].items() if c.get("turn") == 1 and c["kind"] not in ("okh", "reserve")]
    # 4.0(6): fourteen Axis chits, eight Soviet, the Supply Check.
    assert sum(d["chits"][c]["side"] == "axis" for c in start) == 14
    assert sum(d["chits"][c]["side"] == "soviet" for c in start) == 8 and "supply" in start
    later = [cid for cid, c in d["chits"].items() if c.get("turn") == "MISSING"]
    assert len(later) == 14                                                        # the Combined Track
    p = d["params"]
    assert (p["fortress_steps_per_check"], p["fortress_max_hexes"], p["strategic_reserve"]) == (2, 6, 12)
    assert d["victory"]["threshold"] == 191
    assert len(d["map"]["stand_fast"]["hexes"]) == 12 and d["map"]["fortress"] == {"S:0927": 1}
    assert d["map"]["source_tags"]["from_moscow"] == ["S:5504", "S:5507", "S:5513"]
    assert d["multiplayer"]["roles"]["four"][3] == "Soviets (all)*"               # 19.2
    assert len(d["multiplayer"]["roles"]["eight"]) == 8


# ---------------------------------------------------------------- the reader
def test_gaps_name_whole_tables_fields_list_cells_and_entries():
    d = avahelp.mini()
    d["map"]["terrain"] = {"missing": True}
    d["units"] = {"x": avahelp.unit("axis", "mech", 5) | {"attack": "MISSING", "move": "MISSING"}}
    d["crt"]["rows"]["2"][3] = "MISSING"
    d["seats"] = {"a": {"hqs": ["MISSING"]}}
    d["missing"] = [{"group": "counters", "what": "the 840 counters"}]
    d["scenario"]["missing"] = ["map"]
    assert reader.gaps(d) == [
        "map: not transcribed yet",
        "map: map.terrain (whole table)",
        "combat results table: crt.rows.2 (1 of 11)",
        "counters: units.x.{attack, move}",
        "seats: seats.a.hqs (1 of 1)",
        "counters: the 840 counters",
    ]
    assert reader.gap_summary(d)["counters"] == 2
    with pytest.raises(ScenarioError):
        reader.load(d)


def test_problems_name_what_makes_a_complete_file_unplayable():
    d = avahelp.mini(units={
        "hq": avahelp.unit("axis", "hq", 2, start="1010"),
        "a": avahelp.unit("axis", "foot", 3, start="1010", formation="hq"),
        "b": avahelp.unit("axis", "foot", 3, start="1010"),
        "c": avahelp.unit("soviet", "foot", 3, start="1511", formation="hq"),
        "d": avahelp.unit("soviet", "foot", 3, start="1512"),
    }, chits={"x": {"side": "axis", "kind": "hq", "hq": "nobody"}}, terrain={"lake": ["1512"]},
        supply={"axis": ["0101"]})
    out = reader.check(d)
    assert "units.c: formation 'hq' is not an HQ of its side" in out
    assert "units.d: start '1512' is not a land hex of the map" in out
    assert "hex 1010: set up with hq, a, b (at most two units of one side)" in out
    assert "chits.x: hq 'nobody' is no HQ unit" in out
    assert "map.supply.axis: 0101 is not on the map" in out
    broken = d | {"crt": {"columns": [], "rows": d["crt"]["rows"]}}
    assert reader.check(broken) == ["bad scenario file: ValueError: the CRT needs rows 1-6, each with one result "
                                    "per column"]


def test_problems_of_a_clean_mini_map_are_none():
    assert reader.check(avahelp.mini()) == []


def test_pyproject_ships_the_two_scenario_packages():
    py = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    packages = py["tool"]["setuptools"]["packages"]
    assert "pbem_scenarios.ava" in packages and "pbem_scenarios.ffs" in packages


def test_side_key_of_the_start_line_is_canonical():
    d = data("practice")
    for k in d["map"]["hexsides"]["start_line"]:
        assert k == side_key(*k.split("|"))
