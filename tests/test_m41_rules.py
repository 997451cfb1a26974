"""Moscow '41 rules on the practice scenario: the rulebook's worked examples
(moscow41.md section 6, E1-E18) and the published Logistics Values."""
from __future__ import annotations

import copy

import pytest

from pbem.game import IllegalOrder
from pbem.games.m41 import GAME
from pbem.games.m41 import mechanics as mx
import m41help
from fakedice import d6
from m41help import (CAMPAIGN, PRACTICE, RULES, SC, FakeRng, begin, empty_board, german_everywhere, play, put, salts,
                     started)


# --- scenarios -----------------------------------------------------------------------

def test_scenario_headers_and_missing_report():
    for data, practice in ((PRACTICE, True), (CAMPAIGN, False)):
        head = data["scenario"]
        assert head["game"] == "m41" and head["practice"] is practice
    assert PRACTICE["scenario"]["notice"].startswith("PRACTICE DATA")
    assert GAME.check_scenario(PRACTICE) == []
    gaps = GAME.check_scenario(CAMPAIGN)
    assert "map.edges is MISSING" in gaps


def test_campaign_order_of_battle_counts_E16():
    blocks = CAMPAIGN["blocks"]
    assert sum(b["side"] == "german" for b in blocks) == 50
    assert sum(b["side"] == "soviet" for b in blocks) == 70
    assert len(CAMPAIGN["pools"]["german"]) == 28 and len(CAMPAIGN["pools"]["soviet"]) == 29
    n = [a for a in CAMPAIGN["arrivals"] if a.get("turn") == 5][0]
    assert len(n["blocks"]) == 5


# --- E1, E2 ------------------------------------------------------------------------------

def test_1_7_E1_practice_start_vp_and_sudden_death():
    state = started()
    assert mx.vp(state, SC, "german") == 1 and mx.vp(state, SC, "soviet") == 6
    state["control"][SC.victory["Smolensk"]] = "soviet"
    events: list = []
    assert RULES._check_victory(state, events)
    assert state["phase"] == "over" and state["result"].startswith("soviet decisive")


def test_3_1_E2_halving_rounds_down_but_keeps_one_die():
    assert mx.halve(7) == 3 and mx.halve(1) == 1


# --- E4, E15: the six published Logistics Values --------------------------------------------

def _lv_fixture(side, leader, hqs, vps, kills, weather, exhausted=0):
    state = empty_board(weather=weather)
    state["leaders"][side] = leader
    owned = list(SC.victory.values())
    for a in owned:
        state["control"][a] = "german" if side == "soviet" else "soviet"
    for b in ("kiev", "leningrad"):
        state["discs"][b] = "german" if side == "soviet" else "soviet"
    for name in vps:
        if name in ("Kiev", "Leningrad"):
            state["discs"][name.lower()] = side
        else:
            state["control"][SC.victory[name]] = side
    hq_ids = [b for b, s in SC.blocks.items() if s.side == side and s.is_hq]
    for i in range(hqs + exhausted):
        put(state, side, hq_ids[i % len(hq_ids)], "1", strength=0 if i >= hqs else 2)
    if side == "german":
        state["surrendered"] = kills
    else:
        state["german_lost"] = kills
    return state


@pytest.mark.parametrize("side,leader,hqs,vps,kills,weather,expected", [
    ("german", 4, 3, ["Smolensk"], 0, "good", 8),                                   # campaign (E4)
    ("soviet", 4, 2, ["Kiev", "Kursk", "Leningrad", "Moscow", "Tula", "Voronezh"], 0, "good", 12),  # campaign
    ("soviet", 2, 5, ["Leningrad", "Moscow", "Tula", "Kursk", "Voronezh"], 0, "good", 12),          # Typhoon
    ("german", 2, 9, ["Kiev", "Smolensk"], 12, "good", 14),                         # Typhoon
    ("soviet", 4, 5, ["Leningrad", "Moscow", "Tula", "Voronezh"], 0, "snow", 13),   # Last Gasp: not halved
    ("german", 0, 7, ["Kiev", "Kursk", "Smolensk"], 19, "snow", 5),                 # Last Gasp: 11 halved
])
def test_7_2_1_E15_published_logistics_values(side, leader, hqs, vps, kills, weather, expected):
    state = _lv_fixture(side, leader, hqs, vps, kills, weather)
    assert mx.logistics_value(state, SC, side) == expected


def test_7_2_1_practice_start_matches_published_lv():
    state = started()
    for side in ("german", "soviet"):
        assert mx.logistics_value(state, SC, side) == PRACTICE["published_lv"][side]


def test_7_2_1_E12_exhausted_hq_does_not_count():
    state = _lv_fixture("soviet", 0, 2, ["Moscow", "Tula", "Kursk", "Voronezh"], 12, "good", exhausted=1)
    assert mx.logistics_value(state, SC, "soviet") == 7


# --- E5: November logistics -------------------------------------------------------------------

def _e5_state():
    state = _lv_fixture("german", 0, 3, ["Smolensk", "Kursk", "Kiev"], 21, "snow")
    hq3 = put(state, "german", "G-9A-HQ", "2", strength=3, revealed=False)
    hq0 = put(state, "german", "G-4A-HQ", "3", strength=0, revealed=False)
    tank = put(state, "german", "G-24PzK", "4", strength=2)   # next step (3) is red: 3 points
    inf = put(state, "german", "G-5K", "5", strength=1)        # next step (2) is black: 1 point
    state["phase"] = "logistics"
    state["logistics_queue"] = ["german"]
    # the pool: blocks that are not on the map and can all enter a Staging Area (no 'L' block: Hoepner is away)
    state["hidden"]["german"]["pool"] = ["G-2FK", "G-8FK", "G-6K", "G-9K", "G-35K", "G-53K", "G-Azul"]
    state["pool_count"]["german"] = len(state["hidden"]["german"]["pool"])
    return state, hq3, hq0, tank, inf


def _e5_order(hq3, hq0, tank, inf):
    return {"verb": "logistics", "choice": "activate",
            "secret": {"regenerate": {hq3: 1, hq0: 3}, "replace": {tank: 1, inf: 1}}}


def test_7_2_2_E5_leader_activation_in_snow():
    state, hq3, hq0, tank, inf = _e5_state()
    assert mx.logistics_value(state, SC, "german") == 4     # (0 + 4 + 3 + 2) halved, the heart HQ excluded
    state2, events = play(state, "german", _e5_order(hq3, hq0, tank, inf), FakeRng(0))
    h = state2["hidden"]["german"]["blocks"]
    assert h[hq3]["strength"] == 4 and h[hq0]["strength"] == 4
    assert h[tank]["strength"] == 3 and h[inf]["strength"] == 2
    new = sorted(set(state2["tokens"]) - set(state["tokens"]))
    assert len(new) == 4 and state2["pool_count"]["german"] == 7 - 4                       # the real draw: 4
    assert all(state2["tokens"][t]["area"] in SC.staging and h[t]["block"] in state["hidden"]["german"]["pool"]
               for t in new)
    assert state2["leaders"]["german"] == 0
    assert RULES.audit(state2) == []


def test_7_2_2_E5_the_lv_is_not_recalculated_after_the_heart_hq_is_regenerated():
    # regenerating the heart HQ would make it count (LV 5 halved... 4 + 1): the draw is still 4 (5.0, 7.2)
    state, hq3, hq0, tank, inf = _e5_state()
    after, events = play(state, "german", _e5_order(hq3, hq0, tank, inf), FakeRng(0))
    assert after["hidden"]["german"]["blocks"][hq0]["strength"] == 4          # regenerated first, ...
    assert len(set(after["tokens"]) - set(state["tokens"])) == 4 == 7 - after["pool_count"]["german"]
    assert any("LV 4, 4 reinforcements drawn" in e.text for e in events)


def test_7_1_E5_logistics_pause_restores_the_leader_and_nothing_else():
    state = started()
    state["turn"], state["phase"], state["logistics_queue"] = 5, "logistics", ["soviet", "german"]
    state["leaders"].update(soviet=0, german=1)
    before = copy.deepcopy(state)
    after, events = play(state, "soviet", RULES.parse("logistics pause", state, "soviet"), FakeRng(0))
    from pbem.games.m41.rules import _leader
    assert after["leaders"] == {"soviet": SC.spec(_leader(SC, "soviet")).max, "german": 1} == {"soviet": 4, "german": 1}
    assert after["tokens"] == before["tokens"] and after["pool_count"] == before["pool_count"]
    assert after["hidden"] == before["hidden"] and after["logistics_queue"] == ["german"]
    after, _ = play(after, "german", RULES.parse("logistics pause", after, "german"), FakeRng(0))
    assert after["leaders"]["german"] == 4 and after["phase"] == "impulse"


def test_7_2_2_E5_rebuild_beyond_the_lv_is_refused_at_audit():
    state, hq3, hq0, tank, inf = _e5_state()
    greedy = {"verb": "logistics", "choice": "activate", "lv": 4,
              "secret": {"regenerate": {}, "replace": {tank: 2, inf: 1}}}      # 3 + 3 + 1 = 7 > 4
    filled = RULES.fill_secrets(state, "german", greedy, salts("greedy"))
    # the opponent's program, without the German secrets, takes it on trust ...
    blind = copy.deepcopy(state)
    blind["hidden"]["german"] = None
    RULES.apply(copy.deepcopy(blind), "german", {k: v for k, v in filled.items() if k != "secret"}, FakeRng(0))
    # ... and the audit, holding them, refuses it
    with pytest.raises(IllegalOrder, match="replacements cost 7 points, the LV pays 4"):
        RULES.apply(copy.deepcopy(state), "german", filled, FakeRng(0))


# --- E6: Supply Check and Isolation Check ------------------------------------------------------

def test_9_3_E6_isolation_check():
    state = empty_board(side="soviet")
    kursk, lone, a30, a40, a50 = "25", "16", "28", "33", "32"
    for a in list(state["control"]):
        state["control"][a] = "german"
    for a in (kursk, lone, a30, a40, a50, "30"):
        state["control"][a] = "soviet"
    state["discs"].update(kiev="german", leningrad="german", shlisselburg="german")
    for a in (kursk, lone, a30, a40):
        state["dl"][a] = "soviet"
    state["dl"][a50] = "german"
    put(state, "german", "G-24PzK", kursk)
    inf = put(state, "soviet", "S-4Abn", a30, strength=1)
    put(state, "german", "G-1Cav", a30)
    put(state, "german", "G-5K", a40)
    nkvd = put(state, "soviet", "S-NKVD", a50, strength=1)
    begin(state, "soviet")
    assert state["tokens"][inf]["cube"] and state["tokens"][nkvd]["cube"]
    assert set(state["dl_cube"]["soviet"]) == {kursk, lone, a30, a40}
    state["discs"]["kiev"] = "soviet"            # a line to Kursk is restored during the impulse
    state, _ = play(state, "soviet", {"verb": "pass"}, FakeRng(0))
    cubes = state["dl_cube"]["soviet"]
    assert state["dl"].get(kursk) == "soviet" and kursk not in cubes
    assert state["dl"].get(lone) == "soviet" and lone in cubes
    assert state["dl"].get(a30) == "soviet" and a30 in cubes     # not alone before the surrender
    assert a40 not in state["dl"]
    assert inf not in state["tokens"] and nkvd not in state["tokens"]
    assert state["surrendered"] == 2 and sorted(state["eliminated"]["soviet"]) == ["S-4Abn", "S-NKVD"]


# --- E7, E17, E18: activation and Tactical Range ---------------------------------------------------

def test_10_3_E7_disengaged_guderian_commands_within_two_areas():
    state = empty_board()
    german_everywhere(state, "14")
    gud = put(state, "german", "G-2Pg-HQ", "14", strength=2)     # Pochep, engaged
    put(state, "soviet", "S-13A", "14")
    near = put(state, "german", "G-47PzK", "8")                  # Rudnya: 9 -> 8 is 1 area
    far = put(state, "german", "G-57PzK", "8")                   # green: not Guderian's colour
    begin(state, "german")
    order = {"verb": "ti", "activate": [{"token": gud, "path": ["9"]}], "moves": [{"token": near, "path": ["9"]}]}
    state2, _ = play(state, "german", order, FakeRng(0))
    assert state2["tokens"][gud]["area"] == "9" and not state2["tokens"][gud]["revealed"]    # concealed (10.17)
    assert state2["hidden"]["german"]["blocks"][gud]["strength"] == 0                      # deactivated 2 -> heart
    bad = {"verb": "ti", "activate": [{"token": gud, "path": ["9"]}], "moves": [{"token": far, "path": ["9"]}]}
    with pytest.raises(IllegalOrder, match="no activated HQ commands it"):
        play(state, "german", bad, FakeRng(0))


def test_10_1_E18_hq_may_not_be_revealed_among_enemy_units():
    state = empty_board()
    gud = put(state, "german", "G-2Pg-HQ", "9")
    put(state, "soviet", "S-13A", "14")
    begin(state, "german")
    with pytest.raises(IllegalOrder, match="(may not engage|not revealed among enemy)"):
        play(state, "german", {"verb": "ti", "activate": [{"token": gud, "path": ["14"]}]}, FakeRng(0))


def test_10_17_E17_exhausted_hq_is_destroyed_at_deactivation():
    state = empty_board()
    gud = put(state, "german", "G-2Pg-HQ", "9", strength=0)
    begin(state, "german")
    state2, _ = play(state, "german", {"verb": "ti", "activate": [{"token": gud, "path": []}]}, FakeRng(0))
    assert gud not in state2["tokens"] and state2["german_lost"] == 1


# --- E11: absorb and loss order ------------------------------------------------------------------

def _e11(rolls):
    state = empty_board()
    vyazma = "22"
    german_everywhere(state, vyazma)
    state["dl"][vyazma] = "soviet"
    hq = put(state, "soviet", "S-W-HQ", vyazma, strength=0)
    for a in ("17", "23"):
        state["control"][a] = "german"
    t1 = put(state, "german", "G-24PzK", "17")
    t2 = put(state, "german", "G-47PzK", "23")
    gud = put(state, "german", "G-2Pg-HQ", "17")
    begin(state, "german")
    order = {"verb": "ti", "activate": [{"token": gud, "path": []}],
             "moves": [{"token": t1, "path": [vyazma]}, {"token": t2, "path": [vyazma]}]}
    state2, events = play(state, "german", order, FakeRng(0, d6(*rolls)))
    return state2, hq, t1, t2, vyazma


def test_10_14_1_E11_three_hits_are_absorbed_by_terrain_city_and_dl():
    # DL rolls 6: one hit on the first 4-dot tank; then 4 + 3 dice with three hits
    state, hq, t1, t2, vyazma = _e11([6, 4, 5, 6, 1, 1, 1, 1])
    assert state["tokens"][t1]["strength"] == 3 and state["tokens"][t2]["strength"] == 4
    assert state["dl"][vyazma] == "soviet" and hq in state["tokens"]
    assert state["control"][vyazma] == "soviet"


def test_10_14_1_E11_fourth_hit_takes_the_dl_fifth_the_heart_hq():
    state, hq, t1, t2, vyazma = _e11([6, 4, 5, 6, 6, 5, 1, 1])
    assert vyazma not in state["dl"] and hq not in state["tokens"]
    assert state["control"][vyazma] == "german"


# --- E12, E14 ------------------------------------------------------------------------------------

def test_11_E12_strategic_impulse_moves_at_most_lv_blocks():
    state = started()
    lv = mx.logistics_value(state, SC, "german")
    mine = [t for t, v in state["tokens"].items() if v["side"] == "german" and v["area"] in ("8", "9")]
    moves = [{"token": t, "path": ["3"]} for t in mine][:1]
    ok, _ = play(state, "german", {"verb": "si", "option": "A", "lv": lv, "moves": moves}, FakeRng(0))
    assert ok["initiative"] == "soviet"
    with pytest.raises(IllegalOrder, match="the german Logistics Value is 8, not 9"):
        play(state, "german", {"verb": "si", "option": "A", "lv": lv + 1, "moves": moves}, FakeRng(0))
    every = sorted(t for t, v in state["tokens"].items() if v["side"] == "german" and not SC.is_box(v["area"]))
    assert len(every) > lv
    too_many = [{"token": t, "path": ["3"]} for t in every[:lv + 1]]          # nine different blocks
    with pytest.raises(IllegalOrder, match="at most LV"):
        play(state, "german", {"verb": "si", "option": "A", "lv": lv, "moves": too_many}, FakeRng(0))
    with pytest.raises(IllegalOrder, match="named twice"):                    # one block named twice acts once
        play(state, "german", {"verb": "si", "option": "A", "lv": lv, "moves": moves * 2}, FakeRng(0))


def test_2_7_E14_fifth_block_in_a_green_area_is_illegal():
    # 2.7: the limit is per player: 4 German and 4 Soviet blocks (and a DL) share a Green area;
    # a fifth block of either side is refused
    state = empty_board()
    for a in ("8", "9", "14"):
        state["control"][a] = "german"
    toks = [put(state, "german", b, "9") for b in ("G-24PzK", "G-47PzK", "G-DR", "G-GD")]
    reds = [put(state, "soviet", b, "9") for b in ("S-13A", "S-16A", "S-19A", "S-20A")]
    state["dl"]["9"] = "german"
    extra = put(state, "german", "G-1Cav", "8")
    red5 = put(state, "soviet", "S-21A", "14")
    assert SC.terrain["9"] == "green" and len(toks) == len(reds) == 4
    state["initiative"] = "german"
    begin(state, "german")
    with pytest.raises(IllegalOrder, match="more than 4 german"):
        play(state, "german", {"verb": "si", "option": "A", "moves": [{"token": extra, "path": ["9"]}]}, FakeRng(0))
    state["control"]["14"] = "soviet"
    state["initiative"] = "soviet"
    begin(state, "soviet")
    with pytest.raises(IllegalOrder, match="more than 4 soviet"):
        play(state, "soviet", {"verb": "si", "option": "A", "moves": [{"token": red5, "path": ["9"]}]}, FakeRng(0))
    ok, _ = play(state, "soviet", {"verb": "si", "option": "A", "moves": [{"token": reds[0], "path": ["14"]},
                                                                        {"token": red5, "path": ["9"]}]}, FakeRng(0))
    assert len(mx.tokens_in(ok, "9", "soviet")) == 4 and len(mx.tokens_in(ok, "9", "german")) == 4


# --- derived movement tests -------------------------------------------------------------------------

def test_10_8_D2_slow_block_cannot_go_yellow_to_yellow():
    state = empty_board()
    inf = put(state, "german", "G-5K", "3")          # Orsha, yellow
    begin(state, "german")
    ok, _ = play(state, "german", {"verb": "pass", "moves": [{"token": inf, "path": ["4", "5"]}]}, FakeRng(0))
    assert ok["tokens"][inf]["area"] == "5"          # D1: green then yellow, 1 + 2 = 3
    state["tokens"][inf]["area"] = "4"
    state["hidden"]["german"]["blocks"][inf]["strength"] = 4
    with pytest.raises(IllegalOrder, match="costs 4 MP, allowance 3"):
        play(state, "german", {"verb": "pass", "moves": [{"token": inf, "path": ["5", "10"]}]}, FakeRng(0))


def test_12_D40_pass_may_not_engage():
    state = empty_board()
    tank = put(state, "german", "G-24PzK", "9")
    put(state, "soviet", "S-13A", "14")
    begin(state, "german")
    with pytest.raises(IllegalOrder, match="may not engage"):
        play(state, "german", {"verb": "pass", "moves": [{"token": tank, "path": ["14"]}]}, FakeRng(0))


def test_6_D41_two_consecutive_passes_end_the_turn():
    state = started()
    state, _ = play(state, "german", {"verb": "pass"}, FakeRng(0))
    assert state["phase"] == "impulse" and state["active"] == "soviet"
    state, _ = play(state, "soviet", {"verb": "pass"}, FakeRng(0))
    assert state["turn"] == 2 and state["phase"] == "logistics" and state["logistics_queue"] == ["soviet", "german"]


def test_8_1_D25_weather_first_roll_changes_on_one():
    state = started()
    state["turn"] = 4
    state["wx_impulses"] = 1
    state["forecast"] = 0
    state["active"] = "german"
    RULES._start_impulse(state, FakeRng(0, d6(1)), [])
    assert state["weather"] == "rain" and state["forecast"] == 0


def test_10_14_1_E11_owner_chooses_which_equal_tank_takes_the_dl_hit(monkeypatch):
    monkeypatch.setattr(m41help, "LOSSES", None)    # nobody answers for the German: he is asked
    state, hq, t1, t2, vyazma = _e11([6, 4, 5, 6, 1, 1, 1, 1])
    monkeypatch.undo()
    d = RULES.pending(state)
    assert (d.side, d.kind, d.policy) == ("german", "losses", "losses")
    assert d.options == (f"losses {t1}", f"losses {t2}")
    with pytest.raises(IllegalOrder, match="one of"):
        RULES.apply(copy.deepcopy(state), "german", {"verb": "losses", "token": hq}, FakeRng(0))
    after, _ = RULES.apply(copy.deepcopy(state), "german", RULES.parse(f"losses {t2}", state, "german"),
                           FakeRng(0, d6(4, 5, 6, 1, 1, 1, 1)))
    assert after["tokens"][t2]["strength"] == 3 and after["tokens"][t1]["strength"] == 4
    assert after["dl"][vyazma] == "soviet"


def test_10_14_standing_loss_order_ranks_tokens_blocks_and_types():
    from pbem.games.m41.rules import loss_choice
    state = empty_board()
    inf = put(state, "soviet", "S-16A", "22", strength=3, revealed=True)
    tank = put(state, "soviet", "S-108TD", "22", strength=3, revealed=True)
    tied = [inf, tank]
    assert loss_choice(state, SC, tied, "first") == inf
    assert loss_choice(state, SC, tied, "tank infantry") == tank
    assert loss_choice(state, SC, tied, f"{tank}") == tank
    assert loss_choice(state, SC, tied, "S-16A tank") == inf
    assert "losses" in GAME.policy_kinds()
