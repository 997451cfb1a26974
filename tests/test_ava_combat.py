"""AVA combat (10.0-10.5, 10.8, 14.2): eligibility, strengths, odds, the
CRT, fortress conversion, step losses and where eliminated units go.
Test names carry the case ids of ava.md section 6."""
from __future__ import annotations


import pytest
from hypothesis import given, settings, strategies as st

from pbem.board.odds import Result
from pbem.game import IllegalOrder
from pbem.games.ava import combat
from pbem.games.ava.profile import AVA, FFS
from tests import avahelp
from tests.avacombat import ATTACKERS, EXAMPLE_PLACED, board, duel, example

U = avahelp.unit


# ------------------------------------------------------------------ odds
@pytest.mark.parametrize("profile", [AVA, FFS])
@pytest.mark.parametrize("att,dfn,label", [(15, 5, "3:1"), (26, 9, "2:1"), (12, 7, "1.5:1"),
                                           (18, 13, "1:1"), (25, 2, "10:1")])
def test_tc11_10_3_ratio_rounding(profile, att, dfn, label):
    o = duel(att, dfn, profile=profile)
    assert (o.attack, o.defense, o.label) == (att, dfn, label)


def test_tc12_10_3_shifts_city_in_light_woods():
    scn = avahelp.scenario(terrain={"light_woods": ["1523"]}, cities={"city": ["1523"]})
    assert combat.terrain_shifts(scn, "1523") == 2
    # 3:1 -> 2:1 -> 1.5:1; 12:1 -> 10:1 first, then 9:1 -> 8:1
    assert duel(3, 1, terrain={"light_woods": ["1523"]}, cities={"city": ["1523"]}).label == "1.5:1"
    o = duel(12, 1, terrain={"light_woods": ["1523"]}, cities={"city": ["1523"]})
    assert (o.raw, o.shifts, o.label) == (10, 2, "8:1")


def test_tc12_a15_major_city_shift_is_its_own():
    scn = avahelp.scenario(terrain={"heavy_woods": ["1523"], "marsh": ["1524"]},
                           cities={"major_city": ["1523"], "city": ["1524"]})
    assert combat.terrain_shifts(scn, "1523") == 2           # not 2 + 2
    assert combat.terrain_shifts(scn, "1524") == 2           # marsh 1 + city 1
    assert combat.terrain_shifts(scn, "1525") == 0


def test_tc13_10_3_combat_ratio_example():
    b = example()
    combat.check_attack(b, ATTACKERS, "1523")
    o = combat.odds(b, ATTACKERS, "1523")
    assert (o.attack, o.defense, o.label) == (8, 2, "4:1")        # 5 + 1.5 + 1.5 = 8


def test_tc13_10_3_combat_ratio_example_heavy_woods():
    o = combat.odds(example(terrain={"heavy_woods": ["1523"]}), ATTACKERS, "1523")
    assert (o.attack, o.raw, o.shifts, o.label) == (8, 4, 2, "2:1")


def test_tc13_10_3_combat_ratio_example_with_the_hq():
    b = example(placed={**EXAMPLE_PLACED, "4pzg": "1522"})
    combat.check_attack(b, ATTACKERS + ["4pzg"], "1523")
    o = combat.odds(b, ATTACKERS + ["4pzg"], "1523")
    assert (o.attack, o.label) == (10, "5:1")


def test_tc13_10_1_hq_not_activated_cannot_attack():
    b = example(placed={**EXAMPLE_PLACED, "4pzg": "1522"})
    b.unit("4pzg")["active"] = False          # 18A's activation does not activate the 4PzG HQ (8.2)
    with pytest.raises(IllegalOrder, match="not activated"):
        combat.check_attack(b, ATTACKERS + ["4pzg"], "1523")


def test_tc14_10_4_attack_example_4_to_1_roll_4_is_rr():
    b = example()
    o = combat.odds(b, ATTACKERS, "1523")
    assert combat.result(b.scn, o.column, 4) == Result(0, 0, 2)


def test_tc15_10_4_results():
    scn = avahelp.scenario()
    cols = list(scn.crt.columns)
    assert combat.result(scn, cols.index("1:1"), 3) == Result(attacker_steps=1)       # A1
    assert combat.result(scn, cols.index("3:1"), 3) == Result(retreat=1)              # R
    assert combat.result(scn, cols.index("8:1"), 5) == Result(defender_steps=2, retreat=2)   # 2RR
    assert combat.result(scn, cols.index("2:1"), 3) == Result()                       # -


def test_tc24_1_2_halving_keeps_halves_to_the_end():
    units = {"r1": U("axis", "foot", 3), "r2": U("axis", "foot", 3), "p": U("axis", "foot", 2),
             "d": U("soviet", "foot", 2)}
    b = board(units, {"r1": "1423", "r2": "1424", "p": "1522", "d": "1523"}, active=("r1", "r2", "p"),
              hexsides={"minor_river": ["1423|1523", "1424|1523"]})
    o = combat.odds(b, ["r1", "r2", "p"], "1523")
    assert (o.attack, o.label) == (5, "2:1")          # 1.5 + 1.5 + 2 = 5; 5:2 -> 2:1


def test_tc24_a13_fraction_dropped_before_the_ratio():
    units = {"r1": U("axis", "foot", 3), "r2": U("axis", "foot", 3), "p": U("axis", "foot", 3),
             "d": U("soviet", "foot", 3)}
    b = board(units, {"r1": "1423", "r2": "1424", "p": "1522", "d": "1523"}, active=("r1", "r2", "p"),
              hexsides={"minor_river": ["1423|1523", "1424|1523", "1522|1523"]})
    o = combat.odds(b, ["r1", "p"], "1523")
    assert (o.attack, o.label) == (3, "1:1")          # 1.5 + 1.5 = 3
    o = combat.odds(b, ["r1", "r2", "p"], "1523")
    assert (o.attack, o.label) == (4, "1:1")          # 4.5 -> 4; 4:3 -> 1:1 (not 1.5:1)


def test_tc24_10_3_bridge_does_not_lift_the_halving():
    b = board({"a": U("axis", "foot", 6), "d": U("soviet", "foot", 1)}, {"a": "1522", "d": "1523"},
              active=("a",), hexsides={"major_river": ["1522|1523"]}, roads={"r": ["1522", "1523"]})
    assert combat.attack_strength(b, ["a"], "1523") == 3
    assert combat.attack_strength(b, ["a"], "1523", surprise=True) == 6     # 15.1: rivers ignored


@pytest.mark.parametrize("profile", [AVA, FFS])
def test_tc25_10_3_below_1_to_1_after_shifts_is_cancelled(profile):
    o = duel(3, 2, profile=profile, terrain={"heavy_woods": ["1523"]})
    assert o.raw == 1 and o.column is None and o.cancelled
    assert duel(3, 2, profile=profile, terrain={"light_woods": ["1523"]}).label == "1:1"
    assert duel(9, 10, profile=profile).cancelled


def test_tc25_a12_defence_zero_starts_at_10_to_1_and_shifts():
    b = board({"a": U("axis", "foot", 1), "d": U("soviet", "foot", 4)}, {"a": "1522", "d": "1523"},
              active=("a",), terrain={"heavy_woods": ["1523"]})
    b.unit("d")["retreated"] = True              # 10.3(1): adds nothing, still takes the result
    o = combat.odds(b, ["a"], "1523")
    assert (o.defense, o.raw, o.label) == (0, 10, "8:1")


# ----------------------------------------------------------- eligibility
def test_10_1_eligibility_refusals():
    b = example()
    b.unit("21inf")["attacked"] = True
    with pytest.raises(IllegalOrder, match="already attacked"):
        combat.check_attack(b, ["21inf"], "1523")
    with pytest.raises(IllegalOrder, match="named twice"):
        combat.check_attack(b, ["36mot", "36mot"], "1523")
    with pytest.raises(IllegalOrder, match="empty"):
        combat.check_attack(b, ["36mot"], "1623")
    with pytest.raises(IllegalOrder, match="not adjacent"):
        combat.check_attack(example(placed={**EXAMPLE_PLACED, "36mot": "1521"}), ["36mot"], "1523")
    with pytest.raises(IllegalOrder, match="already been attacked"):
        combat.check_attack(b, ["36mot"], "1523", attacked_hexes={"1523"})
    b.state["attacked_hexes"] = ["1523"]
    with pytest.raises(IllegalOrder, match="already been attacked"):
        combat.check_attack(b, ["36mot"], "1523")


def test_10_1_no_attack_across_a_prohibited_hexside_or_the_start_line():
    units = {"a": U("axis", "foot", 4), "s": U("soviet", "foot", 4), "d": U("soviet", "foot", 1),
             "g": U("axis", "foot", 1)}
    placed = {"a": "1522", "d": "1523", "s": "1721", "g": "1722"}
    sides = {"prohibited": ["1522|1523"], "start_line": ["1721|1722"]}
    b = board(units, placed, active=("a", "s"), hexsides=sides)
    with pytest.raises(IllegalOrder, match="prohibited"):
        combat.check_attack(b, ["a"], "1523")
    with pytest.raises(IllegalOrder, match="start line"):     # 2.1, notes A6
        combat.check_attack(b, ["s"], "1722")
    combat.check_attack(board(units, placed, profile=FFS, active=("a", "s"), hexsides=sides), ["s"], "1722")


@pytest.mark.parametrize("profile", [AVA, FFS])
def test_10_0_lone_hq_and_lone_fortress_attackable(profile):
    b = board({"a": U("axis", "foot", 4), "h": U("soviet", "hq", 1)}, {"a": "1522", "h": "1523"},
              profile=profile, active=("a",), fortress={"1623": 1})
    combat.check_attack(b, ["a"], "1523")                      # notes A18 / FFS #3
    combat.check_attack(b, ["a"], "1623")
    assert combat.defender_side(b, "1623") == "soviet"


# -------------------------------------------------------------- fortress
def test_tc19_14_2_fortress_conversion_is_mandatory():
    conv = combat.convert_for_fortress
    assert conv(Result(retreat=1), 1, AVA) == Result(defender_steps=1)
    assert conv(Result(retreat=2), 2, AVA) == Result(defender_steps=2)
    assert conv(Result(defender_steps=1, retreat=2), 1, AVA) == Result(defender_steps=3)
    assert conv(Result(defender_steps=2, retreat=2), 1, AVA, False) == Result(defender_steps=4)
    assert conv(Result(attacker_steps=1), 2, AVA) == Result(attacker_steps=1)
    assert conv(Result(retreat=2), 0, AVA) == Result(retreat=2)
    assert not combat.conversion_choice_needed(AVA, Result(retreat=2), 2)


def test_tc19_14_2_fortress_defence_per_step_and_loss_allocation():
    b = board({"a": U("axis", "foot", 9), "d": U("soviet", "foot", 2)}, {"a": "1522", "d": "1523"},
              active=("a",), fortress={"1523": 2})
    assert combat.defence_strength(b, "1523") == 4
    opts = combat.loss_options(b, ["d"], 3, fortress_hex="1523")
    assert sorted(map(sorted, (o.items() for o in opts))) == [[("d", 1), ("fortress", 2)],
                                                              [("d", 2), ("fortress", 1)]]
    lines = combat.apply_losses(b, {"d": 1, combat.FORTRESS: 2}, fortress_hex="1523")
    assert b.state["fortress"].get("1523") is None and b.state["units"]["d"]["steps"] == 1
    assert lines == ["d loses 1 step(s)", "the fortress in 1523 is destroyed"]


# ----------------------------------------------------------- step losses
def test_tc16_10_5_two_full_units_two_losses():
    b = board({"p": U("soviet", "foot", 2), "q": U("soviet", "foot", 2)}, {"p": "1523", "q": "1523"})
    assert sorted(combat.loss_options(b, ["p", "q"], 2), key=str) == sorted(
        [{"p": 1, "q": 1}, {"p": 2}, {"q": 2}], key=str)
    combat.check_losses(b, ["p", "q"], 2, {"p": 2})
    with pytest.raises(IllegalOrder, match="2 step loss"):
        combat.check_losses(b, ["p", "q"], 2, {"p": 1})
    with pytest.raises(IllegalOrder, match="cannot lose 3"):
        combat.check_losses(b, ["p", "q"], 3, {"p": 3})


def test_10_5_one_step_unit_and_more_losses_than_steps():
    b = board({"p": U("soviet", "foot", 2, steps=1), "q": U("soviet", "foot", 2)}, {"p": "1523", "q": "1523"},
              steps={"q": 1})
    assert combat.loss_options(b, ["p", "q"], 5) == [{"p": 1, "q": 1}]


def test_10_5_options_follow_unit_id_order_and_a_stranger_is_refused_by_name():
    # the kernel's allocations, keyed in id order with the fortress among them
    b = board({"p": U("soviet", "foot", 2), "q": U("soviet", "foot", 2)}, {"p": "1523", "q": "1523"},
              fortress={"1523": 1})
    assert combat.loss_options(b, ["q", "p"], 1, fortress_hex="1523") == [{"q": 1}, {"p": 1}, {"fortress": 1}]
    with pytest.raises(IllegalOrder, match=r"^x is not among the units taking the loss \(10.5\)$"):
        combat.check_losses(b, ["p", "q"], 1, {"x": 1})


# ---------------------------------------------------------- elimination
def test_tc28_10_8_where_eliminated_units_go():
    units = {"rifle": U("soviet", "foot", 2), "tank": U("soviet", "mech", 4), "shq": U("soviet", "hq", 1),
             "ger": U("axis", "foot", 3), "rum": U("axis", "foot", 2, nationality="rum"),
             "ghq": U("axis", "hq", 1)}
    b = board(units, {u: "1510" for u in units})
    where = {u: combat.eliminated_to(b, u) for u in units}
    assert where == {"rifle": "available", "tank": "eliminated", "shq": "available", "ger": "eliminated",
                     "rum": "eliminated", "ghq": "eliminated"}
    assert combat.eliminated_to(b, "rifle", "supply") == "eliminated"
    assert combat.eliminated_to(b, "shq", "supply") == "eliminated"


def test_tc28_10_8_apply_losses_routes_and_restores_the_recycled():
    units = {"rifle": U("soviet", "foot", 2), "tank": U("soviet", "mech", 4)}
    b = board(units, {"rifle": "1523", "tank": "1523"}, steps={"rifle": 1})
    combat.apply_losses(b, {"rifle": 1, "tank": 2})
    assert b.state["units"]["rifle"] == {**b.state["units"]["rifle"], "hex": None, "box": "available", "steps": 2}
    assert b.state["units"]["tank"]["box"] == "eliminated" and b.state["units"]["tank"]["steps"] == 0


# ------------------------------------------------------------ properties
FAST = settings(max_examples=80, deadline=None)
NEIGHBOURS_1523 = ["1522", "1524", "1423", "1424", "1623", "1624"]


@st.composite
def attacks(draw):
    profile = draw(st.sampled_from([AVA, FFS]))
    n = draw(st.integers(1, 4))
    hexes = [draw(st.sampled_from(NEIGHBOURS_1523)) for _ in range(n)]
    units = {f"a{i}": U("axis", draw(st.sampled_from(["foot", "mech", "hq"])), draw(st.integers(0, 12)))
             for i in range(n)}
    units["d"] = U("soviet", "foot", draw(st.integers(0, 8)))
    rivers = [f"{min(h, '1523')}|{max(h, '1523')}" for h in NEIGHBOURS_1523 if draw(st.booleans())]
    terrain = draw(st.sampled_from(["plains", "light_woods", "heavy_woods", "marsh"]))
    city = draw(st.sampled_from([None, "city", "major_city"]))
    placed = {f"a{i}": h for i, h in enumerate(hexes)}
    placed["d"] = "1523"
    b = board(units, placed, profile=profile, active=tuple(placed),
              terrain={terrain: ["1523"]} if terrain != "plains" else {},
              cities={city: ["1523"]} if city else {}, hexsides={"minor_river": rivers},
              fortress={"1523": draw(st.integers(0, 2))})
    if draw(st.booleans()):
        b.unit("d")["retreated"] = True
    return b, [u for u in placed if u != "d"]


@FAST
@given(attacks())
def test_property_odds_column_never_exceeds_the_unshifted_column(case):
    b, attackers = case
    o = combat.odds(b, attackers, "1523")
    if o.column is not None:
        assert o.raw is not None and o.column <= o.raw
        assert o.column == o.raw - o.shifts
    if o.raw is not None and o.defense:
        assert o.raw == combat.kodds.ratio_column(o.attack, o.defense, b.scn.crt.columns)


@FAST
@given(attacks())
def test_property_halving_never_raises_strength(case):
    b, attackers = case
    plain = combat.attack_strength(b, attackers, "1523", surprise=True)
    assert plain == sum(b.attack(u) for u in attackers)
    assert combat.attack_strength(b, attackers, "1523") <= plain
    assert combat.attack_strength(b, attackers, "1523", halved=set(attackers[:1])) \
        <= combat.attack_strength(b, attackers, "1523")
