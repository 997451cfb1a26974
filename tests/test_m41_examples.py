"""Moscow '41 worked examples E3, E4 and E15 (moscow41.md section 6) that
the other test files did not cover: army membership for command, the German
LV at Campaign start with Hoepner on the Road, and the published LV of every
scenario file checked against the file's own data."""
from __future__ import annotations

import copy
import tomllib

import pytest

from pbem.game import IllegalOrder
from pbem.games.m41 import mechanics as mx
from m41help import CAMPAIGN, PRACTICE, ROOT, SC, FakeRng, begin, empty_board, german_everywhere, play, \
    put, started

SCENARIOS = {n: tomllib.loads((ROOT / f"scenarios/m41/{n}.toml").read_text())
             for n in ("campaign", "typhoon", "lastgasp")}


# --- E3 (4.2.6): Guderian's own colour ------------------------------------------------------------

def test_4_2_6_E3_guderians_red_blocks_are_the_six_named_units():
    for data in (CAMPAIGN, PRACTICE):
        red = {b["name"] for b in data["blocks"]
               if b["side"] == "german" and b["colour"] == "red" and b["type"] != "hq"}
        hq = [b for b in data["blocks"] if b["side"] == "german" and b["colour"] == "red" and b["type"] == "hq"]
        assert len(hq) == 1 and "Guderian" in hq[0]["name"]
        if data is CAMPAIGN:
            # 4.2.6: three Panzer Corps, Das Reich, Grossdeutschland and the 1st Cavalry
            assert red == {"24th Panzer Corps", "46th Panzer Corps", "47th Panzer Corps",
                           "Das Reich Motorized Division", "Grossdeutschland Motorized Regiment",
                           "1st Cavalry Division"}
        else:
            # practice data carries five of the six (no 46th Panzer Corps); the whole set, not a subset
            assert red == {"24th Panzer Corps", "47th Panzer Corps", "Das Reich Motorized Division",
                           "Grossdeutschland Regiment", "1st Cavalry Division"}


def _guderian_commands(block: str, area: str) -> bool:
    state = empty_board()
    german_everywhere(state)
    gud = put(state, "german", "G-2Pg-HQ", "9")
    tok = put(state, "german", block, area)
    begin(state, "german")
    order = {"verb": "ti", "activate": [{"token": gud, "path": []}], "moves": [{"token": tok, "path": ["3"]}]}
    try:
        play(state, "german", order, FakeRng(0))
    except IllegalOrder as e:
        assert "no activated HQ commands it" in str(e)
        return False
    return True


def test_4_2_6_E3_guderian_commands_red_and_white_in_range_other_colours_only_in_his_area():
    # the whole outcome: every German combat block of the practice set, one area from Guderian (8) and in his
    # own area (9): commanded exactly when Red or White, or when in his area (10.2)
    combat = sorted(b for b, s in SC.blocks.items() if s.side == "german" and s.is_combat)
    away = {b for b in combat if _guderian_commands(b, "8")}
    assert away == {b for b in combat if SC.spec(b).colour in ("red", "white")}
    assert {"G-DR", "G-35K"} <= away and "G-57PzK" not in away
    assert all(_guderian_commands(b, "9") for b in combat)


# --- E4 (7.2.1): German LV at Campaign start -------------------------------------------------------

def test_7_2_1_E4_german_lv_at_campaign_start_counts_hoepner_on_the_road():
    state = started()
    hoepner = next(t for t, e in state["hidden"]["german"]["blocks"].items() if e["block"] == SC.hoepner())
    assert SC.is_box(state["tokens"][hoepner]["area"])
    assert state["leaders"]["german"] == 4 and mx.vp(state, SC, "german") == 1 and state["weather"] == "good"
    assert mx.hq_count(state, SC, "german") == 3
    assert mx.logistics_value(state, SC, "german") == 4 + 3 + 1 == 8
    without = copy.deepcopy(state)
    del without["tokens"][hoepner]
    assert mx.logistics_value(without, SC, "german") == 7        # so the Road HQ was counted


# --- E15 (T9): the published LV of each scenario file ----------------------------------------------

#: the VP term of each published LV as the scenario text breaks it down (7.2.1)
PUBLISHED_VPS = {("campaign", "german"): 1, ("campaign", "soviet"): 6,
                 ("typhoon", "german"): 2, ("typhoon", "soviet"): 5,
                 ("lastgasp", "german"): 3, ("lastgasp", "soviet"): 4}
PUBLISHED_LV = {("campaign", "german"): 8, ("campaign", "soviet"): 12,
                ("typhoon", "german"): 14, ("typhoon", "soviet"): 12,
                ("lastgasp", "german"): 5, ("lastgasp", "soviet"): 13}


def _file_lv(data: dict, side: str) -> int:
    """The LV a scenario file's own set-up gives: leader, non-exhausted HQs
    placed, the published VPs, a point per ten enemy losses, halved in Snow
    (neither side holds Moscow and Leningrad at a scenario start)."""
    name = data["scenario"]["id"].split("/")[1]
    specs = {b["id"]: b for b in data["blocks"]}
    placed = next((p.get("strength", "full") for p in data["placements"]
                   if p["side"] == side and specs.get(p.get("block"), {}).get("type") == "leader"), "full")
    strength = data["sequence"].get("leaders", {}).get(side, 4 if placed == "full" else int(placed))
    hqs = 0
    for p in data["placements"]:
        spec = specs.get(p.get("block"))
        if p["side"] != side or spec is None or spec["type"] not in ("hq", "lwhq"):
            continue
        s = p.get("strength", "full")
        hqs += 1 if s in ("full", "min") or int(s) > 0 else 0
    seq = data["sequence"]
    kills = seq.get("soviet_surrendered", 0) if side == "german" else seq.get("german_lost", 0)
    raw = strength + hqs + PUBLISHED_VPS[(name, side)] + kills // 10
    holds_both = side == "soviet" and data["discs"].get("leningrad", "soviet") == "soviet"   # Moscow is Soviet
    halved = seq.get("weather") == "rain" or (seq.get("weather") == "snow" and not holds_both)
    return mx.lv_from(raw, halved)


@pytest.mark.parametrize("name,side", sorted(PUBLISHED_LV))
def test_7_2_1_E15_each_scenario_file_gives_its_published_lv(name, side):
    data = SCENARIOS[name]
    assert data["published_lv"][side] == PUBLISHED_LV[(name, side)]
    assert _file_lv(data, side) == PUBLISHED_LV[(name, side)]


# --- 7.2.1: the public bound of an LV claim ------------------------------------------------------

def test_7_2_1_blind_lv_bound_counts_at_most_the_road_hq_among_blocks_in_boxes():
    state = empty_board()
    german_everywhere(state)
    for b in ("G-4Pg-HQ", "G-TT", "G-41PzK", "G-56PzK"):
        put(state, "german", b, "Pskov")
    put(state, "german", "G-2Pg-HQ", "9")
    put(state, "german", "G-24PzK", "9", revealed=True)        # public: not an HQ
    blind = copy.deepcopy(state)
    blind["hidden"]["german"] = None
    assert mx.logistics_value(blind, SC, "german") is None
    assert mx.hq_bound(blind, SC, "german") == 1 + 1             # one of four in the box, the hidden one on the map
    assert mx.hq_bound(blind, SC, "german") >= mx.hq_count(state, SC, "german") == 2
    base = mx.lv_base(blind, SC, "german")
    assert mx.check_lv_claim(blind, SC, "german", base + 2) == base + 2
    with pytest.raises(IllegalOrder, match="impossible"):
        mx.check_lv_claim(blind, SC, "german", base + 3)
