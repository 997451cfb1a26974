"""Moscow '41 optional rules wired as rule options (14.1, 14.3, 14.8)."""
from __future__ import annotations

import copy

import pytest

from pbem.game import IllegalOrder
from pbem.games.m41 import GAME
from pbem.games.m41 import mechanics as mx
from fakedice import d6
from m41help import (PRACTICE, RULES, SC, FakeRng, begin, empty_board, german_everywhere, options_begin, options_board,
                     options_play, options_rules, play, put)


def test_14_options_are_listed():
    assert {"or14_1_ignore_army_colour", "or14_3_moscow_source", "or14_8_crusader"} <= set(GAME.options())


def test_14_1_any_tactical_hq_commands_any_combat_block():
    rules = GAME.rules(PRACTICE, {"or14_1_ignore_army_colour": True})
    state = empty_board()
    german_everywhere(state)
    hoth = put(state, "german", "G-3Pg-HQ", "12")
    red = put(state, "german", "G-24PzK", "13")
    state["tokens"][hoth].update(block="G-3Pg-HQ", strength=4, revealed=True)
    assert not RULES._commanded(state, "german", red, [hoth])      # green Hoth, red tank: not his
    assert rules._commanded(state, "german", red, [hoth])


def test_14_3_moscow_is_a_soviet_source_only_with_the_option():
    state = empty_board()
    base = mx.sources(state, SC, "soviet").count(SC.moscow)
    state["options"] = {"or14_3_moscow_source": True}
    assert mx.sources(state, SC, "soviet").count(SC.moscow) == base + 1
    state["control"][SC.moscow] = "german"               # lost: no longer a source
    assert mx.sources(state, SC, "soviet").count(SC.moscow) == base


def test_14_8_crusader_removes_the_luftwaffe_in_november():
    rules = GAME.rules(PRACTICE, {"or14_8_crusader": True})
    state = empty_board()
    fk = put(state, "german", "G-2FK", "9")
    state["turn"] = 5
    rules._final_phase(state, FakeRng(0), [])
    d = rules.pending(state)                      # the German's program shows its LW HQs (a private answer)
    assert (d.kind, d.private) == ("crusader", True)
    answer = rules.private_answer(state, d)
    answer["openings"] = [{"handle": t, "value": state["hidden"]["german"]["blocks"][t]} for t in answer["open"]]
    state, _ = rules.apply(state, "german", answer, FakeRng(0))
    assert fk not in state["tokens"] and state["air"]["ready"] == {"he111": 0, "stuka": 0}
    assert state["german_lost"] == 0


def test_14_new_options_are_listed():
    assert {"or14_2_zhukov_hoepner", "or14_4_rail", "or14_5_blizzard", "or14_6_cavalry",
            "or14_7_infantry_divisions"} <= set(GAME.options())


# --- OR 14.4 rail movement ----------------------------------------------------------------

def _lv7_board(rules):
    """German LV exactly 7 (E13): Hitler's strength makes up the rest."""
    state = options_board(rules)
    german_everywhere(state, "31", "36", "37")
    hq = put(state, "german", "G-3Pg-HQ", "12")
    base = mx.logistics_value(state, rules.sc, "german")
    state["leaders"]["german"] += 7 - base
    assert mx.logistics_value(state, rules.sc, "german") == 7
    return state, hq


def test_14_4_E13_four_rail_two_moves_one_dl_make_seven_actions():
    rules = options_rules("or14_4_rail")
    state, hq = _lv7_board(rules)
    rail = [put(state, "german", b, a) for b, a in (("G-5K", "1"), ("G-6K", "2"), ("G-7K", "3"), ("G-9K", "4"))]
    move = [put(state, "german", "G-24PzK", "9"), put(state, "german", "G-47PzK", "9")]
    builder = put(state, "german", "G-39PzK", "13")
    options_begin(rules, state, "german")
    order = {"verb": "si", "option": "A", "lv": 7,
             "rails": [{"token": t, "to": a} for t, a in zip(rail, ("30", "35", "28", "23"))],
             "moves": [{"token": t, "path": ["14"]} for t in move], "dl": [builder]}
    after, _ = options_play(rules, copy.deepcopy(state), "german", order, FakeRng(0))
    assert [after["tokens"][t]["area"] for t in rail] == ["30", "35", "28", "23"]
    assert after["dl"]["13"] == "german"
    extra = put(state, "german", "G-57PzK", "8")
    order["moves"].append({"token": extra, "path": ["2"]})
    with pytest.raises(IllegalOrder, match="at most LV = 7"):
        options_play(rules, state, "german", order, FakeRng(0))


def test_14_4_rail_runs_only_through_friendly_uncontested_areas_and_only_in_pass_or_si():
    rules = options_rules("or14_4_rail")
    state = options_board(rules)
    german_everywhere(state, "17", "37")
    inf = put(state, "german", "G-5K", "11")
    hq = put(state, "german", "G-3Pg-HQ", "12")
    options_begin(rules, state, "german")
    after, _ = options_play(rules, copy.deepcopy(state), "german", rules.parse(f"pass; rail {inf} 40", state, "german"),
                     FakeRng(0))
    assert after["tokens"][inf]["area"] == "40"
    with pytest.raises(IllegalOrder, match="no rail line"):        # Moscow is Soviet: no rail into it
        options_play(rules, copy.deepcopy(state), "german", rules.parse(f"pass; rail {inf} 37", state, "german"), FakeRng(0))
    with pytest.raises(IllegalOrder, match="only in a Pass or a Strategic"):
        options_play(rules, copy.deepcopy(state), "german",
              {"verb": "ti", "activate": [{"token": hq, "path": []}], "rails": [{"token": inf, "to": "40"}]},
              FakeRng(0))
    with pytest.raises(IllegalOrder, match="not in play"):
        play(copy.deepcopy(state), "german", RULES.parse(f"pass; rail {inf} 40", state, "german"), FakeRng(0))
    with pytest.raises(IllegalOrder, match="one block act"):
        options_play(rules, state, "german", rules.parse(f"pass; rail {inf} 40; move {hq} 11", state, "german"), FakeRng(0))
    with pytest.raises(IllegalOrder, match="named twice"):
        options_play(rules, state, "german", rules.parse(f"pass; rail {inf} 40; dl {inf}", state, "german"), FakeRng(0))


# --- OR 14.5 blizzard, OR 14.7 infantry divisions --------------------------------------------

def test_14_5_blizzard_from_the_second_german_impulse_of_december():
    rules = options_rules("or14_5_blizzard")
    state = options_board(rules)
    state["turn"] = 6
    state["weather"] = "snow"
    state["initiative"] = "german"
    front = put(state, "soviet", "S-W-HQ", "38")
    rules._begin_impulses(state, FakeRng(0), [])
    assert state["weather"] == "snow"                       # 1st German impulse of December
    state, _ = options_play(rules, state, "german", {"verb": "pass"}, FakeRng(0))     # the Soviet impulse begins
    assert state["active"] == "soviet" and state["weather"] == "snow"
    state, _ = options_play(rules, state, "soviet", {"verb": "ti", "activate": [{"token": front, "path": []}]}, FakeRng(0))
    assert state["phase"] == "impulse" and state["active"] == "german"      # the 2nd German impulse
    assert state["weather"] == "blizzard"
    off = options_board(GAME.rules(PRACTICE, {}))
    off["turn"], off["weather"], off["german_impulses"] = 6, "snow", 5
    RULES._start_impulse(off, FakeRng(0), [])
    assert off["weather"] == "snow"


@pytest.mark.parametrize("weather,attack,defend", [("snow", 2, 4), ("blizzard", 1, 2)])
def test_14_5_D12_german_four_dots_in_snow_and_blizzard(weather, attack, defend):
    rules = options_rules("or14_5_blizzard")
    state = options_board(rules, weather=weather)
    assert mx.attack_dice(state, "german", 4, False, False, rules.sc, "G-24PzK") == attack
    assert mx.defence_dice(state, rules.sc, "german", 4, "G-24PzK") == defend
    assert mx.defence_dice(state, rules.sc, "soviet", 4, "S-16A") == 4
    assert mx.attack_dice(state, "german", 3, False, False, rules.sc, "G-5K") == 1     # never below one die (3.1)


def test_14_7_azul_ignores_snow_and_is_only_halved_attacking_in_blizzard():
    rules = options_rules("or14_5_blizzard", "or14_7_infantry_divisions")
    state = options_board(rules, weather="snow")
    spec = rules.sc.spec("G-Azul")
    assert mx.attack_dice(state, "german", spec.max, False, False, rules.sc, "G-Azul") == spec.max
    state["weather"] = "blizzard"
    assert mx.attack_dice(state, "german", spec.max, False, False, rules.sc, "G-Azul") == max(1, spec.max // 2)
    assert mx.defence_dice(state, rules.sc, "german", spec.max, "G-Azul") == spec.max
    plain = options_board(RULES, weather="snow")
    assert mx.attack_dice(plain, "german", spec.max, False, False, RULES.sc, "G-Azul") == max(1, spec.max // 2)


def test_14_7_german_infantry_division_moves_four_mp_but_stays_slow():
    rules = options_rules("or14_7_infantry_divisions")
    state = options_board(rules)
    german_everywhere(state)
    azul = put(state, "german", "G-Azul", "2")
    options_begin(rules, state, "german")
    order = {"verb": "pass", "moves": [{"token": azul, "path": ["3", "9"]}]}        # yellow 2 + green 1 ... + 1
    order4 = {"verb": "pass", "moves": [{"token": azul, "path": ["3", "9", "14"]}]}   # 2 + 1 + 1 = 4 MP
    after, _ = options_play(rules, copy.deepcopy(state), "german", order4, FakeRng(0))
    assert after["tokens"][azul]["area"] == "14" and rules.sc.spec("G-Azul").speed == "slow"
    plain = copy.deepcopy(state)
    plain["options"] = dict(RULES.options)
    with pytest.raises(IllegalOrder, match="costs 4 MP, allowance 3"):
        play(copy.deepcopy(plain), "german", order4, FakeRng(0))
    assert play(plain, "german", order, FakeRng(0))[0]["tokens"][azul]["area"] == "9"


# --- OR 14.6 cavalry --------------------------------------------------------------------------

def test_14_6_cavalry_pays_two_per_area_in_rain():
    rules = options_rules("or14_6_cavalry")
    state = options_board(rules, side="soviet", weather="rain")
    cav = put(state, "soviet", "S-Dovator", "36")
    inf = put(state, "soviet", "S-24A", "38")
    options_begin(rules, state, "soviet")
    after, _ = options_play(rules, copy.deepcopy(state), "soviet", {"verb": "pass", "moves": [{"token": cav, "path": ["31", "26"]}]},
                     FakeRng(0))
    assert after["tokens"][cav]["area"] == "26"                      # 2 + 2 <= 5
    plain = copy.deepcopy(state)
    plain["options"] = dict(RULES.options)
    with pytest.raises(IllegalOrder, match="costs 6 MP"):
        play(plain, "soviet", {"verb": "pass", "moves": [{"token": cav, "path": ["31", "26"]}]}, FakeRng(0))
    with pytest.raises(IllegalOrder, match="costs 6 MP"):
        options_play(rules, copy.deepcopy(state), "soviet", {"verb": "pass", "moves": [{"token": inf, "path": ["32", "31"]}]},
              FakeRng(0))


# --- OR 14.2 Hoepner (and the scenarios' Hoepner artillery) ------------------------------------

def _hoepner_fights(rules, state):
    """Hoepner revealed in 13, a battle in 14 next door: his artillery order."""
    hoep = next(t for t, v in state["tokens"].items() if state["hidden"]["german"]["blocks"][t]["block"] == "G-4Pg-HQ")
    state["tokens"][hoep]["area"] = "13"
    tank = put(state, "german", "G-24PzK", "13")
    put(state, "soviet", "S-16A", "14", strength=1)
    options_begin(rules, state, "german")
    return {"verb": "ti", "activate": [{"token": hoep, "path": []}], "moves": [{"token": tank, "path": ["14"]}],
            "artillery": {hoep: "14"}}, hoep


def _road_group(rules):
    state = options_board(rules)
    german_everywhere(state, "37")
    group = [put(state, "german", b, "Novgorod") for b in ("G-4Pg-HQ", "G-41PzK", "G-56PzK", "G-TT")]
    return state, group


def test_10_4_hoepner_has_no_artillery_on_the_map_without_or_14_2_or_the_scenario():
    state, group = _road_group(RULES)
    order, hoep = _hoepner_fights(RULES, state)
    with pytest.raises(IllegalOrder, match="Hoepner has no artillery"):
        play(copy.deepcopy(state), "german", order, FakeRng(0))
    data = copy.deepcopy(PRACTICE)
    data["sequence"]["hoepner_artillery"] = True           # Typhoon and Last Gasp special rule
    scen = GAME.rules(data, {})
    after, events = options_play(scen, state, "german", order, FakeRng(0, d6(*[6] * 30)))
    assert any(f"artillery {hoep}" in e.text for e in events)
    assert hoep not in scen._blitz_hqs(after)              # AMB-32: artillery only, no Blitz


def test_14_2_hitler_calls_off_leningrad_whole_group_to_the_map():
    rules = options_rules("or14_2_zhukov_hoepner")
    state, group = _road_group(rules)
    options_begin(rules, state, "german")
    moves = "; ".join(f"offroad {t} {a}" for t, a in zip(group, ("13", "13", "9", "9")))
    after, _ = options_play(rules, copy.deepcopy(state), "german", rules.parse(f"pass; {moves}", state, "german"), FakeRng(0))
    assert [after["tokens"][t]["area"] for t in group] == ["13", "13", "9", "9"] and after["hoepner_off_road"]
    with pytest.raises(IllegalOrder, match="all 4"):
        options_play(rules, copy.deepcopy(state), "german",
              rules.parse(f"pass; offroad {group[0]} 13", state, "german"), FakeRng(0))
    with pytest.raises(IllegalOrder, match="German, uncontested, supplied"):
        bad = moves.replace(" 9;", " 37;", 1)
        options_play(rules, copy.deepcopy(state), "german", rules.parse(f"pass; {bad}", state, "german"), FakeRng(0))
    with pytest.raises(IllegalOrder, match="only under OR 14.2"):
        play(copy.deepcopy(state), "german", RULES.parse(f"pass; {moves}", state, "german"), FakeRng(0))
    order, hoep = _hoepner_fights(rules, after)
    fought, events = options_play(rules, after, "german", order, FakeRng(0, d6(*[6] * 30)))
    assert any(f"artillery {hoep}" in e.text for e in events)


def test_14_2_hoepner_on_the_map_is_a_blitz_hq():
    rules = options_rules("or14_2_zhukov_hoepner")
    state, group = _road_group(rules)
    state["tokens"][group[0]].update(area="9", block="G-4Pg-HQ", strength=4, revealed=True, activated=True)
    state["active"] = "german"
    assert group[0] in rules._blitz_hqs(state) and group[0] not in RULES._blitz_hqs(state)
    state["tokens"][group[0]]["area"] = "Novgorod"
    assert group[0] not in rules._blitz_hqs(state)         # never on the Road (10.9)


# --- OR 14.2 Zhukov in the Leningrad box ---------------------------------------------------------

def _zhukov_to_leningrad(rules):
    state = options_board(rules, side="soviet")
    state["hidden"]["soviet"]["pool"] = ["S-Z"]
    state["pool_count"]["soviet"] = 1
    state["initiative"] = "soviet"
    options_begin(rules, state, "soviet")
    lv = mx.logistics_value(state, rules.sc, "soviet")
    order = rules.parse(f"si B lv {lv}; draw 1", state, "soviet")
    return options_play(rules, state, "soviet", order, FakeRng(0),
                 place=lambda st, d: f"reinforce {st['reinforcing']['tokens'][0]} Leningrad")[0]


def test_14_2_a_drawn_zhukov_may_go_to_the_leningrad_box():
    rules = options_rules("or14_2_zhukov_hoepner")
    state = _zhukov_to_leningrad(rules)
    zh = next(t for t, v in state["tokens"].items() if v["side"] == "soviet")
    assert state["tokens"][zh]["area"] == "Leningrad"
    assert state["hidden"]["soviet"]["blocks"][zh]["block"] == "S-Z"
    assert zh in mx.supplied_areas(state, rules.sc, "soviet") or "Leningrad" in mx.supplied_areas(state, rules.sc, "soviet")
    plain = options_board(RULES, side="soviet")              # without the option he enters the map like anyone
    plain["hidden"]["soviet"]["pool"], plain["pool_count"]["soviet"], plain["initiative"] = ["S-Z"], 1, "soviet"
    begin(plain, "soviet")
    lv = mx.logistics_value(plain, SC, "soviet")
    with pytest.raises(IllegalOrder, match="Soviet reinforcements enter a City or Victory Area"):
        play(plain, "soviet", RULES.parse(f"si B lv {lv}; draw 1", plain, "soviet"), FakeRng(0),
             place=lambda st, d: f"reinforce {st['reinforcing']['tokens'][0]} Leningrad")
    after, _ = play(plain, "soviet", RULES.parse(f"si B lv {lv}; draw 1", plain, "soviet"), FakeRng(0),
                    place=lambda st, d: f"reinforce {st['reinforcing']['tokens'][0]} 38")
    assert [v["area"] for v in after["tokens"].values()] == ["38"]


def test_14_2_zhukov_in_leningrad_cuts_the_road_roll_to_single_fire():
    rules = options_rules("or14_2_zhukov_hoepner")
    state = _zhukov_to_leningrad(rules)
    hoep = put(state, "german", "G-4Pg-HQ", "Shlisselburg")
    put(state, "german", "G-TT", "Shlisselburg")
    options_begin(rules, state, "german")
    after, _ = options_play(rules, copy.deepcopy(state), "german", {"verb": "ti", "activate": [{"token": hoep, "path": []}]},
                     FakeRng(0, d6(5, 5, 5, 5)))
    assert after["tokens"][hoep]["area"] == "Shlisselburg"        # 5s miss at single fire
    after, _ = options_play(rules, state, "german", {"verb": "ti", "activate": [{"token": hoep, "path": []}]},
                     FakeRng(0, d6(6, 1, 1, 1)))
    assert after["tokens"][hoep]["area"] == "Leningrad"
    rules._final_phase(after, FakeRng(0), [])                      # AMB-31: Zhukov goes to the pool
    assert after["discs"]["leningrad"] == "german" and "S-Z" in after["hidden"]["soviet"]["pool"]


def test_14_2_zhukov_recalled_next_to_moscow_never_returns():
    rules = options_rules("or14_2_zhukov_hoepner")
    state = _zhukov_to_leningrad(rules)
    zh = next(t for t, v in state["tokens"].items() if v["side"] == "soviet")
    options_begin(rules, state, "soviet")
    with pytest.raises(IllegalOrder, match="next to Moscow"):
        options_play(rules, copy.deepcopy(state), "soviet", rules.parse(f"pass; recall {zh} 39", state, "soviet"), FakeRng(0))
    with pytest.raises(IllegalOrder, match="does not border"):           # he cannot walk out of the box
        options_play(rules, copy.deepcopy(state), "soviet", {"verb": "pass", "moves": [{"token": zh, "path": ["36"]}]},
              FakeRng(0))
    after, _ = options_play(rules, state, "soviet", rules.parse(f"pass; recall {zh} 36", state, "soviet"), FakeRng(0))
    assert after["tokens"][zh]["area"] == "36" and after["zhukov_recalled"]
    assert rules._zhukov_box(after) is None
