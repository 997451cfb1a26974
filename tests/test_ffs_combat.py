"""FFS combat (1.3, 10.0-10.5, 12.3, 13.3, 14.2): the rulebook's cases
and where FFS parts from AVA.  Test names carry the case ids of
ff-smolensk.md section 6."""
from __future__ import annotations

import dataclasses

import pytest

from pbem.board.odds import Result
from pbem.game import IllegalOrder
from pbem.games.ava import combat
from pbem.games.ava.profile import AVA, FFS
from tests import avahelp
from tests.avacombat import ATTACKERS, EXAMPLE_PLACED, board, duel, example

U = avahelp.unit


def test_tc01_1_3_halving_rounds_down():
    b = board({"a": U("axis", "foot", 5), "d": U("soviet", "foot", 1)}, {"a": "1522", "d": "1523"},
              profile=FFS, active=("a",), hexsides={"minor_river": ["1522|1523"]})
    assert combat.attack_strength(b, ["a"], "1523") == 2


def test_tc02_1_3_quartering_rounds_down():
    b = board({"a": U("axis", "foot", 3), "d": U("soviet", "foot", 1)}, {"a": "1522", "d": "1523"},
              profile=FFS, active=("a",), hexsides={"minor_river": ["1522|1523"]})
    assert combat.attack_strength(b, ["a"], "1523", halved={"a"}) == 0      # 3 / 4 = 0.75 -> 0


def test_tc03_10_3_1_stacked_units_are_added_before_halving():
    b = board({"a": U("axis", "foot", 3), "c": U("axis", "foot", 3), "d": U("soviet", "foot", 1)},
              {"a": "1522", "c": "1522", "d": "1523"}, profile=FFS, active=("a", "c"),
              hexsides={"minor_river": ["1522|1523"]})
    assert combat.attack_strength(b, ["a", "c"], "1523") == 3          # (3 + 3) / 2, not 1 + 1


def test_tc08_10_3_2_15_to_5():
    assert duel(15, 5, profile=FFS).label == "3:1"


def test_tc09_10_3_2_26_to_9():
    assert duel(26, 9, profile=FFS).label == "2:1"


def test_tc10_10_3_2_12_to_7():
    assert duel(12, 7, profile=FFS).label == "1.5:1"


def test_tc11_10_3_2_18_to_13():
    assert duel(18, 13, profile=FFS).label == "1:1"


def test_tc12_10_3_2_25_to_2():
    assert duel(25, 2, profile=FFS).label == "10:1"


def test_tc13_10_3_3_light_woods_town_two_shifts():
    o = duel(3, 1, profile=FFS, terrain={"light_woods": ["1523"]}, cities={"city": ["1523"]})
    assert (o.raw, o.shifts, o.label) == (3, 2, "1.5:1")


def test_tc14_10_3_3_12_to_1_is_10_to_1_then_shifted():
    o = duel(12, 1, profile=FFS, terrain={"light_woods": ["1523"]}, cities={"city": ["1523"]})
    assert o.label == "8:1"


def test_tc15_10_4_2_a1_one_step_among_the_attackers():
    b = board({"x": U("axis", "foot", 3), "y": U("axis", "foot", 3)}, {"x": "1522", "y": "1423"}, profile=FFS)
    assert sorted(combat.loss_options(b, ["x", "y"], 1), key=str) == [{"x": 1}, {"y": 1}]


def test_tc17_10_4_2_3rr_three_steps_then_retreat():
    b = board({"p": U("soviet", "foot", 3), "q": U("soviet", "foot", 3)}, {"p": "1523", "q": "1523"}, profile=FFS)
    scn = b.scn
    res = combat.result(scn, list(scn.crt.columns).index("9:1"), 6)
    assert res == Result(defender_steps=3, retreat=2)
    assert sorted(combat.loss_options(b, ["p", "q"], res.defender_steps), key=str) == [{"p": 1, "q": 2},
                                                                                      {"p": 2, "q": 1}]


def test_tc18_10_5_two_full_units_two_losses():
    b = board({"p": U("soviet", "foot", 2), "q": U("soviet", "foot", 2)}, {"p": "1523", "q": "1523"}, profile=FFS)
    assert sorted(combat.loss_options(b, ["p", "q"], 2), key=str) == sorted(
        [{"p": 1, "q": 1}, {"p": 2}, {"q": 2}], key=str)


def test_tc19_14_2_5_fortress_conversion_is_the_defenders_choice():
    two_rr = Result(defender_steps=2, retreat=2)
    assert combat.conversion_choice_needed(FFS, two_rr, 1)
    assert combat.convert_for_fortress(two_rr, 1, FFS, True) == Result(defender_steps=4)
    assert combat.convert_for_fortress(two_rr, 1, FFS, False) == two_rr
    assert combat.convert_for_fortress(Result(retreat=1), 1, FFS, True) == Result(defender_steps=1)
    with pytest.raises(ValueError):
        combat.convert_for_fortress(two_rr, 1, FFS)
    assert not combat.conversion_choice_needed(FFS, Result(attacker_steps=1), 1)


def test_tc19_14_2_1_fortress_defence():
    assert [combat.fortress_defence(FFS, n) for n in (0, 1, 2)] == [0, 0, 1]
    assert [combat.fortress_defence(AVA, n) for n in (0, 1, 2)] == [0, 1, 2]


def test_td01_10_3_4_deep_woods_cancels_1_5_to_1():
    assert duel(3, 2, profile=FFS, terrain={"heavy_woods": ["1523"]}).cancelled


def test_td02_10_3_4_below_1_to_1_not_possible():
    o = duel(9, 10, profile=FFS)
    assert o.raw is None and o.cancelled


def test_td03_10_3_5_defence_zero_is_10_to_1_whatever_the_terrain():
    for profile, label in ((FFS, "10:1"), (AVA, "8:1")):       # AVA notes A12: shifted from 10:1
        b = board({"a": U("axis", "foot", 1), "d": U("soviet", "foot", 4)}, {"a": "1522", "d": "1523"},
                  profile=profile, active=("a",), terrain={"heavy_woods": ["1523"]})
        b.unit("d")["retreated"] = True
        assert combat.odds(b, ["a"], "1523").label == label


def test_td04_10_3_5_lone_one_step_fortress():
    b = board({"a": U("axis", "foot", 1)}, {"a": "1522"}, profile=FFS, active=("a",), fortress={"1523": 1})
    combat.check_attack(b, ["a"], "1523")
    o = combat.odds(b, ["a"], "1523")
    assert (o.defense, o.label) == (0, "10:1")


def test_td05_9_3_divergence_per_hex_halving():
    # AVA: 5 + 1.5 + 1.5 = 8 -> 4:1; FFS, the two infantry in different hexes: 5 + 1 + 1 = 7 -> 3:1
    assert combat.odds(example(AVA), ATTACKERS, "1523").label == "4:1"
    o = combat.odds(example(FFS), ATTACKERS, "1523")
    assert (o.attack, o.label) == (7, "3:1")
    # stacked together across the same river: 5 + (3 + 3) / 2 = 8 -> 4:1 in both
    stacked = {**EXAMPLE_PLACED, "217inf": "1423"}
    for profile in (AVA, FFS):
        o = combat.odds(example(profile, placed=stacked), ATTACKERS, "1523")
        assert (o.attack, o.label) == (8, "4:1")


def test_td24_12_3_where_eliminated_units_go():
    units = {"rifle": U("soviet", "foot", 2), "tank": U("soviet", "mech", 4), "ghq": U("axis", "hq", 1),
             "ger": U("axis", "foot", 3)}
    b = board(units, {u: "1510" for u in units}, profile=FFS)
    assert combat.eliminated_to(b, "rifle") == "available"
    assert combat.eliminated_to(b, "tank") == "eliminated"
    assert combat.eliminated_to(b, "rifle", "supply") == "eliminated"
    assert combat.eliminated_to(b, "ger") == "eliminated"
    assert combat.eliminated_to(b, "ghq") == "available"                # FFS 13.3, notes #43
    assert combat.eliminated_to(b, "ghq", "supply") == "eliminated"    # FFS 13.4
    ava = board(units, {u: "1510" for u in units}, profile=AVA)
    assert combat.eliminated_to(ava, "ghq") == "eliminated"            # AVA 10.8


def test_td25_10_1_4_one_attack_per_hex():
    b = example(FFS)
    combat.check_attack(b, ["36mot"], "1523")
    with pytest.raises(IllegalOrder, match="already been attacked"):
        combat.check_attack(b, ["21inf"], "1523", attacked_hexes=["1523"])


def test_10_0_literal_reading_lone_hq_immune():
    # FFS 10.0 read literally (notes #3 rules the other way; the profile keeps the switch)
    literal = dataclasses.replace(FFS, lone_hq_attackable=False)
    units = {"a": U("axis", "foot", 4), "h": U("soviet", "hq", 1), "r": U("soviet", "foot", 1)}
    b = board(units, {"a": "1522", "h": "1523"}, profile=literal, active=("a",))
    with pytest.raises(IllegalOrder, match="only HQs"):
        combat.check_attack(b, ["a"], "1523")
    combat.check_attack(board(units, {"a": "1522", "h": "1523", "r": "1523"}, profile=literal, active=("a",)),
                        ["a"], "1523")
