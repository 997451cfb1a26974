"""Moscow '41 derived checks D1-D46 of the notes (moscow41.md section 6),
those not tested elsewhere: movement, dice, absorb, LV, supply, DLs, HQs
and victory.  Each test is named after its check."""
from __future__ import annotations

import copy

import pytest

from pbem.game import IllegalOrder
from pbem.games.m41 import mechanics as mx
from pbem.games.m41.model import hq_down
from fakedice import d6
from m41help import RULES, SC, FakeRng, begin, empty_board, german_everywhere, play, put


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
    assert "22" in SC.cities and SC.terrain["22"] == "yellow"
    state["control"]["22"] = "german"                                        # D17's city case: Vyazma held
    assert mx.absorb_bonus(state, SC, "22", "soviet") == 1                   # by the attacker: the City adds nothing
    state["control"]["22"] = "soviet"
    assert mx.absorb_bonus(state, SC, "22", "soviet") == 2                   # held by the defender it does
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
    rng = FakeRng(0, d6(*[1] * 10))
    battle = {"area": "13", "newly": False, "absorb": 0}
    state["active"] = "german"
    side, hits = mx._fire(state, SC, battle, {"kind": "fire", "side": "german"}, rng, [])
    assert hits == 0 and not rng.log                                 # the isolated attacker rolls nothing
    state["active"] = "soviet"                                       # attacked, the isolated German fires
    side, hits = mx._fire(state, SC, battle, {"kind": "fire", "side": "german"}, rng, [])
    assert len(rng.log) == 4


# --- D20-D24: loss order, Tank Attack, AA split (10.12-10.14) ------------------------------------

def _battle(state, area, newly=False, artillery=None):
    """Open a battle in ``area`` with the German attacking, as the Combat
    Segment would once every block there is public."""
    state["active"] = "german"
    state["combat"] = {"queue": [], "newly": [area] if newly else [], "artillery": artillery or {}}
    b = mx.open_battle(state, SC, area, [])
    state["combat"]["battle"] = b
    return b


def test_D20_hits_go_to_absorb_then_dl_then_strongest_then_owner_picks_among_ties():
    state = empty_board()
    moscow = SC.victory["Moscow"]
    state["control"][moscow] = "soviet"
    state["dl"][moscow] = "soviet"
    four = put(state, "soviet", "S-16A", moscow, strength=4, revealed=True)
    three = put(state, "soviet", "S-19A", moscow, strength=3, revealed=True)
    b = _battle(state, moscow)
    assert b["absorb"] == 3                                          # Victory Area 2 + DL 1
    b["hits"] = {"side": "soviet", "n": 3}
    assert mx._apply_hits(state, SC, b, [], None) is None
    assert moscow in state["dl"] and state["tokens"][four]["strength"] == 4      # hits 1-3 absorbed
    b["hits"] = {"side": "soviet", "n": 1}
    mx._apply_hits(state, SC, b, [], None)
    assert moscow not in state["dl"]                                 # hit 4 takes the DL
    b["hits"] = {"side": "soviet", "n": 2}
    assert mx._apply_hits(state, SC, b, [], None) == "soviet"        # hit 5: 4 -> 3, then a tie
    assert state["tokens"][four]["strength"] == 3 and sorted(b["tie"]) == sorted([four, three])
    assert mx._apply_hits(state, SC, b, [], three) is None           # hit 6: the owner's pick
    assert (state["tokens"][four]["strength"], state["tokens"][three]["strength"]) == (3, 2)


def _tank_fixture(dl=False, newly=False, river=False):
    state = empty_board()
    german_everywhere(state, "14")
    tank = put(state, "german", "G-24PzK", "14", revealed=True)
    state["tokens"][tank]["river"] = river
    put(state, "soviet", "S-16A", "14", strength=1, revealed=True)
    if dl:
        state["dl"]["14"] = "soviet"
    return state


def _first_to_fire(state, rolls, artillery=None, newly=False):
    """Run the battle in area 14 on fixed dice; the side whose fire is rolled first."""
    _battle(state, "14", newly=newly, artillery=artillery)
    rng = FakeRng(0, d6(*rolls))
    mx.run_battle(state, SC, rng, [])
    return next(p.split()[0] for p, _ in rng.log if " fire " in p)


def test_D21_tank_attack_attacker_fires_first():
    state = _tank_fixture()
    assert mx.tank_attack(state, SC, "14", newly=False)
    assert _first_to_fire(state, [1] * 10) == "german"


def test_D22_artillery_that_removes_the_dl_opens_a_tank_attack():
    # the DL gives 1 Absorb in a Green area without a City: two hits remove it
    state = _tank_fixture(dl=True)
    hq = put(state, "german", "G-2Pg-HQ", "9", strength=2, revealed=True)
    assert not mx.tank_attack(state, SC, "14", newly=False)
    assert _first_to_fire(state, [5, 6] + [1] * 10, {"14": [hq]}) == "german"
    assert "14" not in state["dl"]
    state = _tank_fixture(dl=True)
    hq = put(state, "german", "G-2Pg-HQ", "9", strength=2, revealed=True)
    assert _first_to_fire(state, [5, 1] + [1] * 10, {"14": [hq]}) == "soviet"   # one hit: absorbed, DL stands
    assert state["dl"]["14"] == "soviet"


def test_D23_no_tank_attack_when_every_attacking_tank_crossed_a_river_into_a_new_battle():
    state = _tank_fixture(river=True)
    assert not mx.tank_attack(state, SC, "14", newly=True)
    assert _first_to_fire(state, [1] * 10, newly=True) == "soviet"
    assert mx.tank_attack(_tank_fixture(river=True), SC, "14", newly=False)      # not newly contested: applies


def test_D24_four_aa_hits_on_three_bombers():
    from itertools import product

    from pbem.games.m41 import air
    b = {"aa_hits": 4, "bombers": [{"hq": "G01", "he111": 3, "stuka": 0}]}
    legal = set()
    for dead, back in product(range(4), range(4)):
        try:
            air.check_aa_result(b, {"destroyed": {"he111": dead}, "aborted": {"he111": back}})
        except IllegalOrder:
            continue
        legal.add((dead, back))
    assert legal == {(0, 3), (1, 2), (2, 0)}         # 3A (a hit lost), 2A + 1D, 2D


# --- D37, D38: where reinforcements enter (5.0, 11.0) ----------------------------------------------

def _soviet_reinforcing():
    state = empty_board(side="soviet")
    for a in state["control"]:
        state["control"][a] = "soviet"
    return state


def test_D37_soviet_reinforcements_refused_in_contested_doubled_or_unsupplied_cities():
    state = _soviet_reinforcing()
    put(state, "german", "G-24PzK", "13")                           # 13 is a contested City
    put(state, "soviet", "S-16A", "13")
    for a in SC.graph.neighbors("22"):                               # 22 cut off from every source
        state["control"][a] = "german"
    state["control"]["22"] = "soviet"
    with pytest.raises(IllegalOrder, match="uncontested"):
        RULES._check_reinforce(state, "soviet", ["13"], 4)
    with pytest.raises(IllegalOrder, match="in supply"):
        RULES._check_reinforce(state, "soviet", ["22"], 4)
    with pytest.raises(IllegalOrder, match="one reinforcement per area"):
        RULES._check_reinforce(state, "soviet", ["33", "33"], 4)
    with pytest.raises(IllegalOrder, match="City or Victory Area"):
        RULES._check_reinforce(state, "soviet", ["14"], 4)
    assert len(RULES._check_reinforce(state, "soviet", ["33", "38"], 4)) == 2


def _german_draw(pool, areas, hoepner_box="Pskov", seed=0):
    """SI option B: draw len(areas) blocks (5.0: at random from the whole pool),
    then place them where each first may go (the owner's program's default)."""
    state = empty_board()
    german_everywhere(state)
    if hoepner_box:
        put(state, "german", "G-4Pg-HQ", hoepner_box)
        put(state, "german", "G-TT", hoepner_box)
    state["hidden"]["german"]["pool"] = list(pool)
    state["pool_count"]["german"] = len(pool)
    state["phase"] = "impulse"
    RULES._start_impulse(state, FakeRng(0), [])
    after, _ = play(state, "german", RULES.parse(f"si B; draw {len(areas)}", state, "german"), FakeRng(seed))
    new = {t: e["block"] for t, e in after["hidden"]["german"]["blocks"].items() if t not in state["tokens"]}
    return after, {b: after["tokens"][t]["area"] for t, b in new.items()}


def test_D38_an_l_block_drawn_joins_hoepners_box_whatever_area_was_named():
    after, where = _german_draw(["G-41PzK", "G-35K"], ["9A", "9A"])
    assert where["G-41PzK"] == "Pskov" and where["G-35K"] in SC.staging
    after, where = _german_draw(["G-41PzK"], ["4A"], hoepner_box="Novgorod")
    assert where == {"G-41PzK": "Novgorod"}
    # the owner who names a Staging Area for it is refused: only Hoepner's box takes it (5.0, 11.0)
    state = empty_board()
    german_everywhere(state)
    put(state, "german", "G-4Pg-HQ", "Pskov")
    state["hidden"]["german"]["pool"], state["pool_count"]["german"] = ["G-41PzK"], 1
    begin(state, "german")
    with pytest.raises(IllegalOrder, match="G-41PzK enters Pskov"):
        play(state, "german", RULES.parse("si B; draw 1", state, "german"), FakeRng(0),
             place=lambda st, d: f"reinforce {st['reinforcing']['tokens'][0]} 9A")


def test_D38_the_draw_is_from_the_whole_pool_not_the_named_area():
    # the owner cannot keep an 'L' block out of the draw (5.0: random from the whole pool, before placing)
    seen = set()
    for seed in range(12):
        after, where = _german_draw(["G-41PzK", "G-35K"], ["9A"], seed=seed)
        seen |= set(where)
    assert seen == {"G-41PzK", "G-35K"}


def test_D38_an_l_block_with_hoepner_off_the_road_stays_in_the_pool():
    after, where = _german_draw(["G-41PzK"], ["9A"], hoepner_box=None)
    assert where == {} and after["pool_count"]["german"] == 1
