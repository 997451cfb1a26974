"""*Fierce Fight!* family combat (``pbem/games/ava/combat.py``): the rule
edges the mutation check (``benchmarks/mutation.py``) found untested.  Each
test is named after the rule it reads (AVA numbers unless FFS is said);
the expected values come from the rulebooks and the rule notes, not from
the code."""
from __future__ import annotations

import pytest

from pbem.board.odds import Result
from pbem.game import IllegalOrder
from pbem.games.ava import combat
from pbem.games.ava.profile import AVA, FFS
from tests import avahelp
from tests.avacombat import board, example

U = avahelp.unit
PAIR = {"a": U("axis", "foot", 4), "d": U("soviet", "foot", 2)}
PAIR_PLACED = {"a": "1522", "d": "1523"}


# ----------------------------------------------------------- 10.0 / 10.1
def test_10_1_an_attack_names_at_least_one_unit():
    with pytest.raises(IllegalOrder, match="at least one unit"):
        combat.check_attack(example(), [], "1523")


def test_10_1_unknown_units_are_named():
    with pytest.raises(IllegalOrder, match=r"^no unit zz1$"):
        combat.check_attack(example(), ["36mot", "zz1", "zz2"], "1523")


def test_10_1_of_units_named_twice_the_first_by_id_is_reported():
    with pytest.raises(IllegalOrder, match=r"^217th Inf is named twice"):      # ids 217inf < 21inf
        combat.check_attack(example(), ["36mot", "21inf", "217inf", "217inf", "21inf"], "1523")


def test_10_0_a_target_off_the_map_is_refused():
    with pytest.raises(IllegalOrder, match="off the map"):
        combat.check_attack(example(), ["36mot"], "0905")


def test_10_0_the_attacker_attacks_enemy_units_only():
    b = board({**PAIR, "g": U("axis", "foot", 2)}, {**PAIR_PLACED, "g": "1622"}, active=("a",))
    with pytest.raises(IllegalOrder, match="not the enemy's"):
        combat.check_attack(b, ["a"], "1622")


def test_10_0_units_of_both_sides_never_attack_together():
    # the side is the first unit named: a defender's unit among the attackers is refused by name
    b = board({**PAIR, "s": U("soviet", "foot", 2, name="Rifle s")}, {**PAIR_PLACED, "s": "1422"},
              active=("a", "s"))
    with pytest.raises(IllegalOrder, match=r"^Rifle s is not on the attacking side"):
        combat.check_attack(b, ["a", "s"], "1523")


def test_10_1_a_unit_off_the_map_cannot_attack():
    b = board({**PAIR, "r": U("axis", "foot", 2, name="Reserve r")}, PAIR_PLACED, active=("a", "r"))
    with pytest.raises(IllegalOrder, match=r"^Reserve r is not on the map"):
        combat.check_attack(b, ["a", "r"], "1523")


def test_9_2_only_mountain_divisions_attack_into_a_mountain_hex_off_the_road():
    # 10.1: no attack into a hex normal movement may not enter (notes A5)
    units = {**PAIR, "m": U("axis", "foot", 2, type="mountain")}
    b = board(units, {**PAIR_PLACED, "m": "1423"}, active=("a", "m"), terrain={"mountain": ["1523"]})
    with pytest.raises(IllegalOrder, match="mountain hex entered off the road"):
        combat.check_attack(b, ["a"], "1523")
    combat.check_attack(b, ["m"], "1523")
    assert combat.may_enter(b, "m", "1423", "1523") is False       # the enemy holds it
    assert combat.may_enter(b, "a", "1522", "1422") is True


def test_3_1_no_retreat_or_advance_into_an_enemy_hex():
    b = board(PAIR, PAIR_PLACED, active=("a",))
    assert combat.may_enter(b, "a", "1522", "1523") is False
    assert combat.may_enter(b, "d", "1523", "1522") is False
    assert combat.may_enter(b, "a", "1522", "1521") is True


def test_10_0_an_empty_hex_has_no_defender():
    b = board(PAIR, PAIR_PLACED, fortress={"1623": 1})
    assert combat.defender_side(b, "1622") is None
    assert combat.defender_side(b, "1523") == "soviet"
    assert combat.defender_side(b, "1522") == "axis"


# -------------------------------------------------------------- 17.2
def test_17_2_a_reserve_unit_out_of_command_range_attacks_at_half():
    b = board({"a": U("axis", "foot", 8), "d": U("soviet", "foot", 2)}, PAIR_PLACED, active=("a",))
    assert combat.attack_strength(b, ["a"], "1523") == 8
    assert combat.attack_strength(b, ["a"], "1523", halved=["a"]) == 4
    ffs = board({"a": U("axis", "foot", 8), "d": U("soviet", "foot", 2)}, PAIR_PLACED, profile=FFS, active=("a",))
    assert combat.attack_strength(ffs, ["a"], "1523", halved=["a"]) == 4


# ---------------------------------------------------------- 10.3 notes
def test_10_3_3_the_odds_say_when_terrain_shifts_them():
    plain = combat.odds(board(PAIR, PAIR_PLACED, active=("a",)), ["a"], "1523")
    assert plain.label == "2:1" and not any("shifted" in n for n in plain.notes)
    woods = combat.odds(board(PAIR, PAIR_PLACED, active=("a",), terrain={"heavy_woods": ["1523"]}), ["a"], "1523")
    assert woods.label == "1:1" and "2:1 shifted 2 left for the terrain of 1523" in woods.notes


def test_10_3_4_a_cancelled_attack_says_it_fell_below_one_to_one():
    b = board(PAIR, PAIR_PLACED, active=("a",), terrain={"heavy_woods": ["1523"]})
    b.unit("a")["steps"] = 1                      # reduced: attack 2 against 2, shifted twice
    o = combat.odds(b, ["a"], "1523")
    assert o.cancelled and o.notes[-1] == "below 1:1 after the shifts: cancelled"


# ------------------------------------------------------------ 14.2 (FFS)
def test_ffs_14_2_5_the_defender_chooses_only_when_a_retreat_meets_a_fortress():
    need = combat.conversion_choice_needed
    assert need(FFS, Result(retreat=1), 1)
    assert need(FFS, Result(defender_steps=2, retreat=2), 1)
    assert not need(FFS, Result(retreat=1), 0)           # no fortress
    assert not need(FFS, Result(attacker_steps=1), 1)    # no retreat
    assert not need(AVA, Result(retreat=1), 1)           # AVA 14.2: always converted


def test_ffs_14_2_5_a_result_without_retreat_needs_no_choice():
    res = Result(attacker_steps=1, defender_steps=1)
    assert combat.convert_for_fortress(res, 1, FFS) == res
    assert combat.convert_for_fortress(Result(retreat=2), 1, FFS, False) == Result(retreat=2)
    assert combat.convert_for_fortress(Result(retreat=2), 1, FFS, True) == Result(defender_steps=2)


# ------------------------------------------------------------ 10.5 / 10.8
def test_10_5_no_fortress_marker_no_fortress_option():
    b = board({"p": U("soviet", "foot", 2)}, {"p": "1523"})
    assert combat.loss_options(b, ["p"], 1, fortress_hex="1523") == [{"p": 1}]
    with pytest.raises(IllegalOrder, match=r"^fortress is not among the units taking the loss"):
        combat.check_losses(b, ["p"], 1, {combat.FORTRESS: 1}, fortress_hex="1523")


def test_10_5_a_unit_losing_nothing_is_not_reported():
    b = board({"p": U("soviet", "foot", 2), "q": U("soviet", "foot", 2)}, {"p": "1523", "q": "1523"})
    assert combat.apply_losses(b, {"p": 1, "q": 0}) == ["p loses 1 step(s)"]
    assert b.state["units"]["q"]["steps"] == 2


def test_10_8_the_elimination_line_names_the_box():
    units = {"rifle": U("soviet", "foot", 2, name="Rifle"), "tank": U("soviet", "mech", 4, name="Tank")}
    b = board(units, {"rifle": "1523", "tank": "1523"})
    assert combat.apply_losses(b, {"rifle": 2, "tank": 2}) == [
        "Rifle is eliminated (Available Box)", "Tank is eliminated (Eliminated box)"]


def test_14_2_a_fortress_step_loss_needs_its_hex():
    b = board({"p": U("soviet", "foot", 2)}, {"p": "1523"}, fortress={"1523": 2})
    with pytest.raises(ValueError):
        combat.apply_losses(b, {combat.FORTRESS: 1})
    assert combat.apply_losses(b, {combat.FORTRESS: 1}, fortress_hex="1523") == ["the fortress in 1523 loses 1 step(s)"]
    assert b.state["fortress"]["1523"] == 1


def test_14_3_a_fortress_losing_more_than_it_has_is_gone():
    b = board({"p": U("soviet", "foot", 2)}, {"p": "1523"}, fortress={"1523": 1})
    assert combat.apply_losses(b, {combat.FORTRESS: 2}, fortress_hex="1523") == ["the fortress in 1523 is destroyed"]
    assert "1523" not in b.state["fortress"]
