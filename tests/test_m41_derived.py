"""Moscow '41 derived checks D1-D46 of the notes (moscow41.md section 6),
those not tested elsewhere: movement, dice, absorb, LV, supply, DLs, HQs
and victory.  Each test is named after its check."""
from __future__ import annotations

import copy

import pytest

from pbem.game import IllegalOrder
from pbem.games.m41 import mechanics as mx
from pbem.games.m41.model import hq_down
from test_m41_rules import RULES, SC, FakeRng, begin, empty_board, german_everywhere, play, put


def _mover(block, area, weather="good", side="german"):
    state = empty_board(weather=weather, side=side)
    german_everywhere(state) if side == "german" else None
    tok = put(state, side, block, area)
    return state, tok


def _cost(state, tok, path, mp):
    return mx.check_path(state, SC, state["tokens"][tok]["side"], tok, path, mp, may_engage=True)


def test_D1_slow_green_then_yellow_costs_three():
    state, tok = _mover("G-5K", "8")
    assert _cost(state, tok, ["2", "3"], 3) == 3


def test_D3_fast_yellow_yellow_green_costs_five():
    state, tok = _mover("G-24PzK", "1")
    assert _cost(state, tok, ["6", "7", "8"], 5) == 5


def test_D4_D5_disengaging_costs_one_more_and_must_enter_a_friendly_uncontested_area():
    state, tok = _mover("G-5K", "8")
    put(state, "soviet", "S-16A", "8")
    assert _cost(state, tok, ["2", "1"], 3) == 3
    state["control"]["2"] = "soviet"                     # empty but enemy-controlled
    with pytest.raises(IllegalOrder, match="friendly uncontested"):
        _cost(state, tok, ["2"], 3)


def test_D6_D7_D8_weather_costs():
    state, tok = _mover("G-5K", "8", weather="rain")
    assert _cost(state, tok, ["2"], 3) == 3
    with pytest.raises(IllegalOrder, match="allowance"):
        _cost(state, tok, ["2", "1"], 3)
    put(state, "soviet", "S-16A", "8")
    with pytest.raises(IllegalOrder, match="costs 4 MP"):         # D7: 1 + 3 > 3 (AMB-14)
        _cost(state, tok, ["2"], 3)
    state, fast = _mover("G-24PzK", "8", weather="snow")
    assert _cost(state, fast, ["2", "1"], 5) == 4
    with pytest.raises(IllegalOrder, match="costs 6 MP"):
        _cost(state, fast, ["2", "1", "6"], 5)


@pytest.mark.parametrize("weather,side,strength,dice", [("snow", "german", 4, 2), ("snow", "german", 3, 1),
                                                        ("snow", "german", 1, 1), ("snow", "soviet", 3, 3),
                                                        ("rain", "german", 4, 1), ("rain", "soviet", 4, 1)])
def test_D9_D10_D11_attacking_dice_by_weather(weather, side, strength, dice):
    state = empty_board(weather=weather)
    assert mx.attack_dice(state, side, strength, False, False) == dice


def test_D11_rain_artillery_and_ranges_are_one():
    state = empty_board(weather="rain")
    assert mx.hq_power(state, "german", 4) == 1 and mx.hq_power(state, "soviet", 3) == 1


def test_D13_D14_D15_river_crossing_costs_dice_only_when_newly_contested_and_not_frozen():
    good, snow = empty_board(), empty_board(weather="snow")
    assert mx.attack_dice(good, "soviet", 4, True, True) == 1
    assert mx.attack_dice(good, "soviet", 4, True, False) == 4
    assert mx.attack_dice(snow, "soviet", 4, True, True) == 4


def test_D16_to_D19_absorb_bonus():
    state = empty_board()
    state["control"].update({"8": "soviet", "18": "german", "12": "soviet", "22": "soviet"})
    assert mx.absorb_bonus(state, SC, "8", "soviet") == 0                    # D16 green
    assert mx.absorb_bonus(state, SC, "18", "soviet") == 1                   # D17 yellow held by the attacker
    state["dl"].update({"12": "soviet", "22": "soviet"})
    assert mx.absorb_bonus(state, SC, "12", "soviet") == 3                   # D18 victory + DL
    assert mx.absorb_bonus(state, SC, "22", "soviet") == 3                   # D19 yellow + city + DL, the cap


@pytest.mark.parametrize("kills,bonus", [(9, 0), (10, 1), (21, 2)])
def test_D26_elimination_bonus_per_ten(kills, bonus):
    state = empty_board()
    state["surrendered"] = kills
    base = state["leaders"]["german"] + mx.vp(state, SC, "german")
    assert mx.lv_base(state, SC, "german") == base + bonus


def test_D27_snow_does_not_halve_for_the_holder_of_moscow_and_leningrad():
    state = empty_board(weather="snow")
    assert mx.lv_from(9, mx.lv_halved(state, SC, "soviet")) == 9
    state["weather"] = "rain"
    assert mx.lv_from(9, mx.lv_halved(state, SC, "soviet")) == 4
    state["weather"] = "snow"
    assert mx.lv_halved(state, SC, "german")


def test_D29_kiev_stays_soviet_with_only_one_special_city():
    state = empty_board()
    state["control"][SC.special_cities["Chernigov"]] = "german"
    RULES._final_phase(state, FakeRng(0), [])
    assert state["discs"]["kiev"] == "soviet"


def test_D36_illegal_dl_builds():
    state = empty_board()
    german_everywhere(state, "37")
    low = put(state, "german", "G-5K", "8", strength=1)
    hq = put(state, "german", "G-3Pg-HQ", "9")
    ok = put(state, "german", "G-6K", "13")
    put(state, "soviet", "S-16A", "14")
    eng = put(state, "german", "G-7K", "14")
    state["dl"]["2"] = "german"
    there = put(state, "german", "G-9K", "2")
    begin(state, "german")
    for tok, why in ((low, "above minimum"), (hq, "above minimum"), (eng, "friendly uncontested"),
                     (there, "without one")):
        with pytest.raises(IllegalOrder, match=why):
            play(copy.deepcopy(state), "german", {"verb": "pass", "dl": [tok]}, FakeRng(0))
    with pytest.raises(IllegalOrder, match="one action"):
        play(copy.deepcopy(state), "german", {"verb": "si", "option": "A",
                                              "lv": mx.logistics_value(state, SC, "german"),
                                              "moves": [{"token": ok, "path": ["18"]}], "dl": [ok]}, FakeRng(0))


def test_D39_an_lw_hq_alone_is_no_tactical_impulse():
    state = empty_board()
    german_everywhere(state)
    fk = put(state, "german", "G-2FK", "9")
    begin(state, "german")
    with pytest.raises(IllegalOrder, match="after a Tactical HQ"):
        play(state, "german", {"verb": "ti", "activate": [{"token": fk, "path": []}]}, FakeRng(0))


def test_D42_deactivation_steps():
    assert hq_down(2) == 0 and hq_down(0) is None and hq_down(4) == 3


def test_D43_D44_sudden_death_and_marginal_victory():
    state = empty_board()
    german_everywhere(state)
    state["discs"].update(kiev="german", leningrad="german")
    assert RULES._check_victory(state, []) and "german decisive" in state["result"]
    state = empty_board()
    for name in ("Smolensk", "Kursk", "Tula"):
        state["control"][SC.victory[name]] = "german"
    state["turn"] = 6
    RULES._final_phase(state, FakeRng(0), [])
    assert state["result"] == "soviet marginal victory, 4 VP to 3"


def test_D45_a_supply_line_may_start_in_a_contested_area_but_not_cross_one():
    state = empty_board(side="soviet")
    german_everywhere(state, "31", "36", "26")
    put(state, "soviet", "S-16A", "26")
    put(state, "german", "G-5K", "26")
    assert "26" in mx.supplied_areas(state, SC, "soviet")            # starts contested, next to 31 -> 36
    state["control"]["27"] = "soviet"
    state["discs"]["leningrad"] = "german"                           # no north-border sources
    assert "27" not in mx.supplied_areas(state, SC, "soviet")        # would have to cross 26


def test_D46_isolated_blocks_defend_but_do_not_attack():
    state = empty_board()
    german_everywhere(state, "13")
    tank = put(state, "german", "G-24PzK", "13", revealed=True)
    put(state, "soviet", "S-16A", "13", strength=1, revealed=True)
    state["tokens"][tank]["cube"] = True
    rng = FakeRng(0, [1] * 10)
    battle = {"area": "13", "newly": False, "absorb": 0}
    state["active"] = "german"
    side, hits = mx._fire(state, SC, battle, {"kind": "fire", "side": "german"}, rng, [])
    assert hits == 0 and not rng.log                                 # the isolated attacker rolls nothing
    state["active"] = "soviet"                                       # attacked, the isolated German fires
    side, hits = mx._fire(state, SC, battle, {"kind": "fire", "side": "german"}, rng, [])
    assert len(rng.log) == 4
