"""A Victory Denied scenario files: the generic helpers in pbem.scenario, the
AVD loader and checker, the published file (text facts, gaps marked) and
the practice file (complete, playable, labelled)."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest

from pbem import scenario as scn
from pbem.errors import InvalidFile, UsageError
from pbem.game import ScenarioError
from pbem.games.avd import scenario as avd
from pbem.games.avd.model import GERMAN, SOVIET

ROOT = Path(__file__).resolve().parent.parent
PRACTICE = ROOT / "scenarios" / "avd" / "practice.toml"
STANDARD = ROOT / "scenarios" / "avd" / "standard.toml"


@pytest.fixture(scope="module")
def practice_data() -> dict:
    return scn.load_toml(PRACTICE)


@pytest.fixture(scope="module")
def practice(practice_data):
    return avd.load(practice_data)


@pytest.fixture(scope="module")
def standard_data() -> dict:
    return scn.load_toml(STANDARD)


def _unit(data: dict, side: str, uid: str) -> dict:
    return next(u for u in data["units"][side] if u["id"] == uid)


# ------------------------------------------------------------ practice file
def test_practice_checks_clean_and_is_labelled(practice_data, practice):
    assert avd.check(practice_data) == []
    assert practice.practice is True
    assert practice.notice.startswith("PRACTICE DATA")
    assert scn.count_missing(practice_data) == 0


def test_9_4_3_practice_crt_keeps_the_pinned_cell(practice):
    # 9.4.3 example: 4-1, re-roll 3 gives DR.
    col = practice.crt.columns.index("4-1")
    assert practice.crt.rows[3][col] == "DR"
    assert sorted(practice.crt.rows) == list(range(1, 10))


def _severity(result: str) -> int:
    """How good a result is for the attacker: defender steps and retreat
    hexes count for, attacker steps against."""
    if result == "-":
        return 0
    if result.startswith("A"):
        return -2 * int(result[1:])
    steps, _, retreat = result.partition("DR")
    value = 2 * int(steps or 0)
    if "DR" in result:
        value += 2 if retreat == "2" else 1
    return value


def test_practice_crt_higher_rolls_and_odds_favour_the_attacker(practice):
    rows = practice.crt.rows
    for die in range(1, 9):
        for col in range(11):
            assert _severity(rows[die + 1][col]) >= _severity(rows[die][col]), (die, col)
    for die in rows:
        for col in range(10):
            assert _severity(rows[die][col + 1]) >= _severity(rows[die][col]), (die, col)


def test_practice_terrain_chart_follows_the_text(practice):
    # 8.1.2: 1 MP anywhere on foot; motorized 2 MP in woods and swamp, else 1.
    for t in practice.terrain.values():
        assert t.cost_foot == 2
        assert t.cost_motor == (4 if t.name in ("woods", "swamp") else 2)
    # 9.3.6 example (woods one column) and combat ratio example (city two).
    assert practice.terrain["woods"].shift == 1
    assert practice.terrain["city"].shift == 2
    assert practice.terrain["clear"].shift == 0


def test_3_8_practice_turn_track(practice):
    turns = practice.turns
    assert sorted(turns) == list(range(1, 11))
    assert (turns[1].german_chits, turns[1].soviet_chits, turns[1].german_oos) == (3, 2, 0)
    assert [turns[t].pvo for t in range(1, 11)] == [1] * 9 + [0]
    assert turns[8].german_chits_moscow is not None and turns[8].german_oos_moscow is not None


def test_3_8_practice_pvo_units_cover_the_turn_track(practice):
    pvo = [u for u in practice.units.values() if u.pvo]
    on_map = [u for u in pvo if u.setup]
    pool = [u for u in pvo if not u.setup and not u.code]
    assert len(on_map) == 5                                # 3.2: five PVO set up
    assert len(pool) == sum(t.pvo for t in practice.turns.values())
    assert all(u.formation == "red" and u.movement == 0 for u in pvo)


def test_3_2_practice_red_set_up_units(practice):
    red = {u.name for u in practice.units.values()
           if u.side == SOVIET and u.setup and u.formation == "red" and not u.pvo}
    assert red == {"1 MRD", "172 ID", "187 ID"}


def test_practice_hexes_named_in_the_text(practice):
    m = practice.map
    assert m.names["3919"] == "Vitebsk" and "3919" in m.victory
    assert m.names["2110"] == "Bobruysk" and "2110" in m.victory
    assert m.entry["9A"] == "3106" and m.entry["3PzG"] == "3902"
    assert m.entry["2PzG_minsk"] == "2704"
    assert m.supply_soviet_until_turn4 == frozenset({"1517"})
    assert len(m.moscow) == 3 and len(m.timoshenko_entry) >= 1
    assert not m.minsk_pocket & (m.supply_german | m.supply_soviet)


def test_practice_entry_hexes_are_on_roads(practice):
    # 11.1.2: reinforcements go on by strategic movement from the entry hex.
    roads = {h for k, f in practice.map.hexsides.items() if "road" in f for h in k.split("|")}
    for key in ("9A", "3PzG", "2PzG_minsk"):
        assert practice.map.entry[key] in roads, key


def test_practice_vp_chits_match_victory_hexes(practice):
    for cls in ("minor", "major"):
        hexes = [h for h, c in practice.map.victory.items() if c == cls]
        assert len(practice.vp_chits[cls]) == len(hexes)


def test_practice_order_of_battle(practice):
    units = practice.units
    reich = units["G-SSReich"]
    assert (reich.attack, reich.defense, reich.movement) == (8, 8, 10)
    assert (reich.reduced_attack, reich.reduced_defense) == (7, 7)
    tim = [u for u in units.values() if u.side == SOVIET and u.code == "1"]
    assert sum(u.kind == "hq" for u in tim) == 1 and sum(u.kind == "combat" for u in tim) == 3
    assert sum(u.code == "*" for u in units.values()) == 6        # 11.3
    assert units["G-Blue"].code == "6"                             # 3.14
    # 7.4 example corps.
    assert {u.name for u in units.values() if u.corps == "XXXIX"} == {
        "900 Lehr", "14 Mot", "19 Pz", "18 Mot"}
    assert {"20 Pz", "12 Pz", "20 Mot", "7 Pz"} <= {
        u.name for u in units.values() if u.corps == "LVII"}
    assert sum(u.side == GERMAN and u.kind == "combat" for u in units.values()) >= 25
    assert sum(u.side == SOVIET for u in units.values()) >= 35


def test_practice_chits(practice):
    kinds = [c.kind for c in practice.chits.values()]
    assert kinds.count("9A") == 3
    for one in ("guderian", "airpower", "art", "supply", "reinf", "timoshenko"):
        assert kinds.count(one) == 1
    for hq in (u for u in practice.units.values() if u.kind == "hq" and u.side == SOVIET):
        assert hq.chit and practice.chits[hq.chit].hq == hq.id
    # 3.6: chits of R and 1 HQs are unavailable until the HQ is on the map.
    assert practice.chits["S-24A"].code == "R"
    assert practice.chits["S-Tmshnko"].code == "1"


def test_practice_hexsides_use_sorted_keys(practice):
    for key in practice.map.hexsides:
        a, b = key.split("|")
        assert a < b


# ------------------------------------------------------------ standard file
def test_standard_lists_missing_groups(standard_data):
    lines = avd.check(standard_data)
    tops = {line.split(":")[0] for line in lines}
    for group in ("crt", "map", "terrain", "units", "turn_track", "minsk_escape",
                  "hitler_directive", "vp_chits", "counters"):
        assert group in tops, group
    assert not any("unknown" in line or "off the map" in line for line in lines), lines
    crt_line = next(line for line in lines if line.startswith("crt:"))
    assert "98 cells" in crt_line


def test_standard_cannot_start(standard_data):
    with pytest.raises(ScenarioError, match="MISSING"):
        avd.load(standard_data)


def test_standard_keeps_the_text_facts(standard_data):
    d = standard_data
    assert d["scenario"]["practice"] is False
    assert d["map"]["names"]["3919"] == "Vitebsk"
    assert "3919" in d["map"]["victory"]["named"] and "2110" in d["map"]["victory"]["named"]
    assert d["map"]["entry"]["9A"] == "3106" and d["map"]["entry"]["3PzG"] == "3902"
    assert d["map"]["entry"]["2PzG_minsk"] == "2704"
    assert d["map"]["supply"]["soviet_until_turn4"] == ["1517"]
    reich = _unit(d, GERMAN, "G-SSReich")
    assert (reich["attack"], reich["defense"], reich["movement"]) == (8, 8, 10)
    assert (reich["reduced_attack"], reich["reduced_defense"]) == (7, 7)
    assert d["crt"]["rows"]["3"][avd.CRT_COLUMNS.index("4-1")] == "DR"
    assert tuple(d["crt"]["columns"]) == avd.CRT_COLUMNS
    assert d["terrain"]["woods"]["shift"] == 1 and d["terrain"]["city"]["shift"] == 2
    turns = {t["turn"]: t for t in d["turn_track"]["turns"]}
    assert (turns[1]["german_chits"], turns[1]["soviet_chits"], turns[1]["german_oos"]) == (3, 2, 0)
    assert [turns[t]["pvo"] for t in range(1, 11)] == [1] * 9 + [0]
    assert _unit(d, SOVIET, "S-22A-HQ")["command_range"] == 4
    assert sum(1 for c in d["chits"]["german"] if c["kind"] == "9A") == 3


def test_standard_does_not_invent_values(standard_data, practice_data):
    # Spot check: the counter values the text doesn't give stay MISSING.
    assert _unit(standard_data, GERMAN, "G-7Pz")["attack"] == scn.MISSING
    assert standard_data["terrain"]["town"]["shift"] == scn.MISSING
    assert standard_data["hitler_directive"]["results"] == scn.MISSING


# ---------------------------------------------------------- corrupted copies
def _corrupt(data: dict, fn) -> list[str]:
    d = copy.deepcopy(data)
    fn(d)
    return avd.check(d)


def test_bad_hexside_is_reported(practice_data):
    lines = _corrupt(practice_data, lambda d: d["map"]["hexsides"]["minor_river"].append("3919|3925"))
    assert any("3919|3925" in line and "not adjacent" in line for line in lines), lines
    lines = _corrupt(practice_data, lambda d: d["map"]["hexsides"]["road"] if False else
                     d["map"]["hexsides"].__setitem__("road", ["3919|9999"]))
    assert any("9999 is off the map" in line for line in lines), lines


def test_bridge_without_river_is_reported(practice_data):
    lines = _corrupt(practice_data, lambda d: d["map"]["hexsides"].__setitem__("bridge", ["3919|3920"]))
    assert any("3919|3920 has a bridge but no river" in line for line in lines), lines


def test_unknown_terrain_is_reported(practice_data):
    lines = _corrupt(practice_data, lambda d: d["map"]["terrain"].__setitem__("forest", ["2005"]))
    assert any("unknown terrain 'forest'" in line for line in lines), lines


def test_5_1_over_stacked_set_up_is_reported(practice_data):
    def pile(d):
        for uid in ("G-10Mot", "G-1Cav"):
            _unit(d, GERMAN, uid)["setup"] = "2314"     # with 3 Pz and 4 Pz already
    lines = _corrupt(practice_data, pile)
    assert any(line.startswith("set-up 2314 over-stacked") for line in lines), lines


def test_5_3_two_tan_units_together_are_reported(practice_data):
    lines = _corrupt(practice_data, lambda d: _unit(d, SOVIET, "S-66C").__setitem__("setup", "1715"))
    assert any("set-up 1715 stacks two tan Soviet units" in line for line in lines), lines


def test_5_2_mixed_sides_and_off_grid_set_up(practice_data):
    def bad(d):
        _unit(d, SOVIET, "S-67C")["setup"] = "3919"
        _unit(d, SOVIET, "S-63C")["setup"] = "4133"
    lines = _corrupt(practice_data, bad)
    assert any("3919 mixes German and Soviet" in line for line in lines), lines
    assert any("S-63C.setup: hex 4133 is off the map" in line for line in lines), lines


def test_unknown_chit_hq_and_crt_shape(practice_data):
    def bad(d):
        d["chits"]["soviet"].append({"id": "S-99A", "kind": "hq", "hq": "S-99A-HQ"})
        d["crt"]["rows"]["5"] = d["crt"]["rows"]["5"][:10]
        d["crt"]["rows"]["6"][0] = "DX"
    lines = _corrupt(practice_data, bad)
    assert any("unknown chit HQ 'S-99A-HQ'" in line for line in lines), lines
    assert any("crt.rows.5: 10 results" in line for line in lines), lines
    assert any("crt.rows.6: unknown result 'DX'" in line for line in lines), lines


def test_turn_track_must_cover_ten_turns(practice_data):
    lines = _corrupt(practice_data, lambda d: d["turn_track"]["turns"].pop(6))
    assert any("turns 7 are not on the track" in line for line in lines), lines


def test_corrupted_practice_refuses_to_load(practice_data):
    d = copy.deepcopy(practice_data)
    d["map"]["terrain"]["forest"] = ["2005"]
    with pytest.raises(ScenarioError, match="unknown terrain 'forest'"):
        avd.load(d)


# -------------------------------------------------------- generic helpers
def test_floats_are_refused(tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text('[scenario]\nid = "x"\n[map]\nfoo = 1.5\n')
    with pytest.raises(InvalidFile, match=r"floats are not allowed \(at map\.foo\); use integers"):
        scn.load_toml(f)


def test_unreadable_and_invalid_files(tmp_path):
    with pytest.raises(InvalidFile, match="cannot read"):
        scn.load_toml(tmp_path / "absent.toml")
    f = tmp_path / "broken.toml"
    f.write_text("[scenario\n")
    with pytest.raises(InvalidFile, match="invalid TOML"):
        scn.load_toml(f)
    d = tmp_path / "date.toml"
    d.write_text("when = 1941-07-10\n")
    with pytest.raises(InvalidFile, match="not allowed"):
        scn.load_toml(d)
    big = tmp_path / "big.toml"
    big.write_text("x = 1\n" + "#" * (scn.MAX_BYTES + 1))
    with pytest.raises(InvalidFile, match="5 MB"):
        scn.load_toml(big)


def test_find_missing_groups_and_collapses():
    data = {
        "scenario": {"id": "t/x"},
        "crt": {"rows": {str(i): [scn.MISSING] * 11 for i in range(1, 10)}},
        "units": {"german": [{"id": f"G-{i}", "attack": scn.MISSING, "defense": scn.MISSING}
                             for i in range(40)]},
        "map": {"offset": scn.MISSING},
        "missing": [{"group": "CRT", "what": "row 10", "where": "chart sheet"}],
    }
    lines = scn.find_missing(data)
    assert lines[0] == "crt: 99 cells MISSING in 9 lists (rows.1 ... rows.9)"
    assert lines[1].startswith("units: 80 values MISSING — attack, defense in 40 entries")
    assert "units.german.G-0" in lines[1]
    assert lines[2] == "map: offset MISSING"
    assert lines[3] == "CRT: row 10 (from the chart sheet)"
    assert scn.count_missing(data) == 99 + 80 + 1 + 1


def test_scenario_sha256_ignores_key_order(practice_data):
    reordered = dict(reversed(list(practice_data.items())))
    assert scn.scenario_sha256(reordered) == scn.scenario_sha256(practice_data)
    changed = copy.deepcopy(practice_data)
    changed["vp_chits"]["minor"][0] += 1
    assert scn.scenario_sha256(changed) != scn.scenario_sha256(practice_data)


def test_find_and_list(tmp_path, monkeypatch):
    assert scn.find("avd/practice") == PRACTICE
    assert scn.find(str(STANDARD)) == STANDARD
    with pytest.raises(UsageError, match="avd/practice"):
        scn.find("avd/nonesuch")
    extra = tmp_path / "zz"
    extra.mkdir()
    (extra / "mine.toml").write_text(
        '[scenario]\nid = "zz/mine"\ngame = "zz"\ntitle = "Mine"\npractice = true\n')
    monkeypatch.setenv("PBEM_SCENARIOS", str(tmp_path))
    assert tmp_path in scn.scenario_dirs()
    rows = {name: rest for name, *rest in scn.list_all()}
    assert rows["zz/mine"] == ["zz", "Mine", True, 0]
    assert rows["avd/practice"][0] == "avd" and rows["avd/practice"][2:] == [True, 0]
    assert rows["avd/standard"][2] is False and rows["avd/standard"][3] > 100


def test_14_0_minsk_escape_bands_must_cover_all_values(practice_data):
    lines = _corrupt(practice_data, lambda d: d["minsk_escape"].__setitem__(
        "columns", ["1-2", "4-5", "6", "7-8", "9+"]))
    assert any("'4-5' should start at 3" in line for line in lines), lines
    lines = _corrupt(practice_data, lambda d: d["minsk_escape"].__setitem__(
        "columns", ["1-2", "3-4", "5-6", "7-8", "9-10"]))
    assert any("open-ended" in line for line in lines), lines


def test_practice_minsk_escape_and_directive_tables(practice):
    table = practice.minsk_escape
    assert table["die"] == 6 and set(table["drm"]) == {"2", "3"}    # 14.0: turns 2 and 3
    assert sorted(practice.hitler_directive) == list(range(1, practice.hitler_die + 1))
    assert set(practice.hitler_directive.values()) == {"moscow", "distracted", "choice"}
