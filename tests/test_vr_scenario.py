"""The Victory Roads scenario files and profiles: the practice file loads,
every published file names its gaps by kind and is refused, and the rule
profiles are consistent (pbem/games/vr/scenario.py, profile.py)."""
from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import pytest

import vrhelp
from pbem.game import ScenarioError
from pbem.games.vr import profile, scenario

FOLDER = Path(__file__).resolve().parent.parent / "scenarios" / "vr"
PUBLISHED = {"hungary-1945": "basic", "berlin-1945": "basic", "budapest-wien": "basic",
             "bessarabia-1944": "bessarabia", "bagration-1944": "bagration", "campaign": "campaign"}


def read(name: str) -> dict:
    return tomllib.loads((FOLDER / f"{name}.toml").read_text(encoding="utf-8"))


def test_every_rulebook_scenario_has_a_file():
    assert {p.stem for p in FOLDER.glob("*.toml")} == set(PUBLISHED) | {"practice-basic", "practice-advanced"}


def test_the_advanced_practice_file_is_labelled_practice_and_complete():
    data = read("practice-advanced")
    assert data["scenario"]["practice"] and "PRACTICE DATA" in data["scenario"]["notice"]
    assert data["scenario"]["rules"] == "bagration" and not scenario.gaps(data)
    scn = scenario.load(data)
    assert scn.end_of_reich is not None and set(scn.card.markers["tos"]) == {"N", "CN", "S", "CS"}
    assert {scn.map.names[h] for h in ("5335", "5435", "4935")} == {"Iasi", "Chisinau", "Galati"}


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_published_files_list_their_gaps_and_are_refused(name):
    data = read(name)
    assert data["scenario"]["id"] == f"vr/{name}" and data["scenario"]["rules"] == PUBLISHED[name]
    assert not data["scenario"]["practice"]
    gaps = scenario.gaps(data)
    kinds = {g.split(":")[0] for g in gaps}
    for kind in ("map", "terrain effects chart", "combat results table", "weather table", "turn track",
                 "counters", "Supports player aid", "reinforcement schedule", "scenario card"):
        assert kind in kinds, f"{name}: no {kind} gap"
    if PUBLISHED[name] in ("bagration", "campaign"):
        assert "Führer's Approval track" in kinds and "End of Reich track" in kinds
    assert scenario.check(data) == gaps
    with pytest.raises(ScenarioError, match="missing value"):
        scenario.load(data)
    assert data["map"]["names"]["5426"] == "Minsk"
    assert data["crt"]["cells"]["6:1"]["3"].startswith("1/1 D1")


def test_practice_file_is_complete_and_labelled():
    data = read("practice-basic")
    assert scenario.check(data) == []
    scn = scenario.load(data)
    assert scn.practice and "PRACTICE DATA" in scn.notice
    assert any(len(t) > 1 for t in scn.map.terrain.values())        # multi-type hexes
    assert scn.map.types("4727")[-1] == "major_city"
    assert scn.crt.cell(2, 7).attacker.code == "E"


def test_inconsistent_files_are_named():
    data = vrhelp.mini(roads={"bad": ["5020", "5025"]})
    assert "not adjacent" in scenario.check(data)[0]
    data = vrhelp.mini(terrain={"tundra": ["5020"]})
    assert "tundra" in scenario.check(data)[0]
    data = vrhelp.mini()
    data["crt"]["cells"]["6:1"]["3"] = "1/1 D1:purple DR2:blue"
    assert "colour" in scenario.check(data)[0]
    data = vrhelp.mini(rules="bagration")
    data.pop("approval", None)
    assert "approval" in scenario.check(data)[0].lower()
    data = vrhelp.mini()
    del data["weather"]["months"]["04"]
    assert "month 04" in scenario.check(data)[0]


def test_card_switches_turn_a_basic_rule_on():
    data = vrhelp.mini()
    data["scenario"]["switches"] = {"infantry_modes": True}
    assert "needs to_rules" in scenario.check(data)[0]


def test_profiles_are_consistent_and_nested():
    for p in profile.PROFILES.values():
        assert profile.check(p) == []
    order = [profile.BASIC, profile.BESSARABIA, profile.BAGRATION, profile.CAMPAIGN]
    for lo, hi in zip(order, order[1:]):
        assert all(getattr(hi, r) for r in profile.ADVANCED_RULES if getattr(lo, r))
    with pytest.raises(ValueError):
        profile.with_switches(profile.BASIC, {"warp_drive": True})
    with pytest.raises(ValueError):
        profile.with_switches(profile.BASIC, {"to_rules": "yes"})
    with pytest.raises(ValueError):
        profile.with_switches(profile.BASIC, {"elite_group": "diagonal"})
    assert profile.with_switches(profile.BASIC, {"approval_track": True}).approval_track


def test_a_gap_anywhere_is_found():
    data = copy.deepcopy(read("practice-basic"))
    data["units"]["fhh"]["attack"] = "MISSING"
    data["crt"]["cells"]["2:1"]["7"] = "1/1 E:MISSING S:green"
    gaps = scenario.gaps(data)
    assert "counters: units.fhh.attack" in gaps and "combat results table: crt.cells.2:1.7" in gaps


def test_rulings_cover_every_item_of_the_notes_section_8():
    import re
    text = (FOLDER / "RULINGS.md").read_text(encoding="utf-8")
    have = set(re.findall(r"\*\*R-(\d\d)", text))
    assert {f"{i:02d}" for i in range(1, 63)} <= have and "**R-30b" in text
    for option in ("autonomous_threshold", "german_snow_penalty", "elite_group", "hourra_range", "eng_losses"):
        assert f"option `{option}`" in text.lower() or f"**option `{option}`" in text.lower()
        assert hasattr(profile.BASIC, option)
