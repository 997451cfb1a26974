"""Moscow '41 scenario files (Beyond the Dnieper, Typhoon, Last Gasp): the
facts the rules text gives, MISSING for the rest, and their victory rules."""
from __future__ import annotations

import copy
import tomllib

import pytest

from pbem.games.m41 import GAME
from m41help import PRACTICE, ROOT, FakeRng, empty_board, german_everywhere

FILES = {n: tomllib.loads((ROOT / f"scenarios/m41/{n}.toml").read_text()) for n in ("dnieper", "typhoon", "lastgasp")}


@pytest.mark.parametrize("name", sorted(FILES))
def test_scenario_files_list_what_is_missing(name):
    problems = GAME.check_scenario(FILES[name])
    assert problems and all("MISSING" in p or "absent" in p for p in problems)
    assert any(p.startswith("map.areas") for p in problems)


def test_5_5_typhoon_facts():
    d = FILES["typhoon"]
    assert (d["sequence"]["first_turn"], d["sequence"]["start_phase"], d["sequence"]["last_turn"]) == (4, "logistics", 6)
    assert d["discs"] == {"kiev": "german", "shlisselburg": "german", "leningrad": "soviet"}
    assert d["published_lv"] == {"german": 14, "soviet": 12} and d["victory"]["mode"] == "moscow"
    assert sum(1 for x in d["dl"] if x["side"] == "soviet") == 10
    assert any("setup_open" in p for p in GAME.check_scenario(d))


def test_5_6_last_gasp_facts():
    d = FILES["lastgasp"]
    assert (d["sequence"]["first_turn"], d["sequence"]["start_phase"], d["sequence"]["weather"]) == (5, "impulse", "snow")
    assert d["sequence"]["disc_limit"] == {"uses": 1, "per": "turn"}
    assert [x["area"] for x in d["dl"][:4]] == ["4", "15", "17", "31"]
    assert d["published_lv"] == {"german": 5, "soviet": 13}


def test_5_4_dnieper_facts():
    d = FILES["dnieper"]
    assert d["sequence"]["last_turn"] == 1 and d["sequence"]["disc_limit"] == {"uses": 1, "per": "game"}
    assert d["placements"] == tomllib.loads((ROOT / "scenarios/m41/campaign.toml").read_text())["placements"]


def _rules(mode, **extra):
    data = copy.deepcopy(PRACTICE)
    data["victory"].update(mode=mode, **extra)
    return GAME.rules(data, {})


def test_5_5_moscow_mode_german_wins_on_taking_moscow():
    rules = _rules("moscow")
    state = empty_board()
    german_everywhere(state)
    assert rules._check_victory(state, []) and "Moscow" in state["result"]


def test_5_4_dnieper_german_dls_in_both_named_areas_win_at_once():
    rules = _rules("dnieper", dl_areas=["17", "18"])
    state = empty_board()
    state["dl"] = {"17": "german"}
    assert not rules._check_victory(state, [])
    state["dl"]["18"] = "german"
    assert rules._check_victory(state, []) and "Defensive Lines" in state["result"]


def test_5_4_dnieper_soviet_wins_when_july_ends():
    rules = _rules("dnieper", dl_areas=["17", "18"])
    state = empty_board()
    rules.sc.sequence["last_turn"] = 1
    rules._final_phase(state, FakeRng(0), [])
    assert state["phase"] == "over" and state["result"].startswith("soviet victory")


ARMY_INFANTRY = {"brown": 2, "pink": 5, "lightblue": 4, "yellow": 5}     # the army list: HQ + these (1.0)


@pytest.mark.parametrize("name,hq_areas,first", [
    ("typhoon", {"brown": "28", "pink": "42", "lightblue": "90", "yellow": "114"}, "full"),
    ("lastgasp", {"brown": "14", "pink": "58", "lightblue": "84", "yellow": "117"}, 3),
])
def test_5_5_5_6_german_infantry_one_in_the_hq_area_the_rest_at_two_next_to_it(name, hq_areas, first):
    pl = [p for p in FILES[name]["placements"] if p["side"] == "german" and p.get("type") == "infantry"]
    for colour, n in ARMY_INFANTRY.items():
        mine = [p for p in pl if p["colour"] == colour]
        assert len(mine) == n
        assert [(p["area"], p["strength"]) for p in mine if "area" in p] == [(hq_areas[colour], first)]
        assert all((p["choose"], p["of"], p["strength"]) == ("adjacent", hq_areas[colour], 2)
                   for p in mine if "area" not in p)


def test_5_6_last_gasp_panzer_blocks_named_strength_area_by_choice_near_their_hq():
    pl = {p["block"]: p for p in FILES["lastgasp"]["placements"] if p["side"] == "german" and "block" in p
          and p.get("choose") == "near"}
    assert {b: p["strength"] for b, p in pl.items() if p["strength"] != 3} == \
        {"G-DR": 2, "G-1Cav": 2, "G-Lehr": 2, "G-TT": 2, "G-GD": 1}
    assert len(pl) == 12
    assert {p["of"] for b, p in pl.items() if b in ("G-24PzK", "G-GD")} == {"134"}
    assert {p["of"] for b, p in pl.items() if b in ("G-Lehr",)} == {"59"} and pl["G-TT"]["of"] == "71"


@pytest.mark.parametrize("name,pool", [("typhoon", 3), ("lastgasp", 0)])
def test_5_5_5_6_every_german_block_is_placed_or_in_the_pool(name, pool):
    d = FILES[name]
    placed = [p for p in d["placements"] if p["side"] == "german"]
    assert len(placed) + pool == sum(1 for b in d["blocks"] if b["side"] == "german") == 50
    named = [p["block"] for p in placed if "block" in p]
    assert len(named) == len(set(named))


def test_5_5_typhoon_six_white_blocks_name_their_cities_areas_missing():
    six = [p for p in FILES["typhoon"]["placements"] if p["side"] == "soviet" and "name" in p]
    assert [p["name"] for p in six] == ["Tula", "Kursk", "Voronezh", "Kaluga", "Kalinin", "Naro-Fominsk"]
    assert all(p["area"] == "MISSING" and p["colour"] == "white" for p in six)
