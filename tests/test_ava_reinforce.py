"""Reinforcements, the Strategic Reserve, 19th Army, Supply Check removals,
the Smolensk withdrawal, HQ transfer and the End Phase
(pbem/games/ava/reinforce.py), both profiles where they part."""
from __future__ import annotations

from typing import Any

import pytest

from pbem.game import IllegalOrder
from pbem.games.ava import reinforce, supply
from pbem.games.ava.board import Board
from pbem.games.ava.profile import AVA, FFS, Profile
from pbem.games.ava.scenario import load
from tests import avahelp

U = avahelp.unit
RAIL = ["1520", "1521", "1522", "1523", "1524", "1525", "1526"]


def scn_dict(game: str = "ava", **params: Any) -> dict[str, Any]:
    units = {
        "g1": U("axis", "mech", 8, 6, 16), "g2": U("axis", "mech", 6, 4, 16),
        "g3": U("axis", "mech", 5, 4, 16), "gi": U("axis", "foot", 3, 3, 8),
        "ghq": U("axis", "hq", 2, 2, 8), "ghq2": U("axis", "hq", 2, 2, 8),
        "r1": U("axis", "foot", 2, 2, 8, nationality="rum"),
        "s1": U("soviet", "foot", 3, 3, 8), "s2": U("soviet", "foot", 3, 3, 8),
        "s3": U("soviet", "foot", 3, 3, 8), "s4": U("soviet", "foot", 3, 3, 8),
        "shq": U("soviet", "hq", 1, 1, 8),
        "h19": U("soviet", "hq", 1, 1, 8, start="turn:3", flags=["19A"]),
        "u19": U("soviet", "foot", 3, 3, 8, start="turn:3", flags=["19A"]),
        "m19": U("soviet", "mech", 4, 3, 12, start="turn:3", flags=["19A"]),
    }
    p = {"strategic_reserve": 6, "strategic_reserve_from_turn": 6, "army19_turn": 3,
         "withdrawal_turn": 6, "withdrawal_strength": 18}
    p.update(params)
    d = avahelp.mini(game=game, units=units, params=p, railroads={"main": RAIL},
                     roads={"east": ["2010", "1910", "1810", "1710"]},
                     supply={"soviet": ["1526", "2010", "2015"], "axis": ["1010"]},
                     source_tags={"from_moscow": ["2010"], "east_edge": ["2010", "2015"]})
    d["turn_track"]["reinforcements"] = {"ger": [0, 0, 0, 2, 2, 2, 2, 2, 2], "rum": [0, 0, 0, 1, 1, 1, 1, 1, 1],
                                         "sov": [0, 0, 0, 3, 3, 3, 3, 3, 3]}
    return d


def setup(placed: dict[str, str], turn: int = 4, game: str = "ava", **params: Any):
    scn = load(scn_dict(game, **params))
    s = avahelp.state(scn, placed, turn=turn)
    for uid in ("h19", "u19", "m19"):
        if uid not in placed:
            s["units"][uid]["box"] = "track:3"
    return scn, s


def board(scn, s, profile: Profile = AVA) -> Board:
    return Board(scn, profile, s)


# ------------------------------------------------------------ the count (12.2)
def test_12_2_number_due_by_nationality_from_turn_4() -> None:
    scn, _ = setup({})
    assert reinforce.due(scn, "axis", 3) == {"ger": 0, "rum": 0}
    assert reinforce.due(scn, "axis", 4) == {"ger": 2, "rum": 1}
    assert reinforce.due(scn, "soviet", 9) == {"sov": 3}


def test_12_2_at_most_the_number_due_per_nationality() -> None:
    scn, s = setup({})
    b = board(scn, s)
    reinforce.check_placement(b, "axis", 4, {"g1": "1524", "g2": "1525", "r1": "1526"}, set(RAIL))
    with pytest.raises(IllegalOrder, match="2 German reinforcement"):
        reinforce.check_placement(b, "axis", 4, {"g1": "1524", "g2": "1525", "g3": "1526"}, set(RAIL))


def test_12_2_a_shortfall_is_lost_fewer_placed_is_legal() -> None:
    scn, s = setup({"g1": "1010", "g2": "1011", "g3": "1012", "gi": "1013", "ghq": "1014", "ghq2": "1015"})
    b = board(scn, s)
    assert reinforce.pool(b, "axis") == ["r1"]
    reinforce.check_placement(b, "axis", 4, {"r1": "1524"}, set(RAIL))


def test_12_1_only_from_the_available_box_onto_rail_hexes_with_room() -> None:
    scn, s = setup({"g3": "1524", "gi": "1525"})
    b = board(scn, s)
    with pytest.raises(IllegalOrder, match="not in the Axis Available Box"):
        reinforce.check_placement(b, "axis", 4, {"g3": "1520"}, set(RAIL))
    with pytest.raises(IllegalOrder, match="not a railroad hex"):
        reinforce.check_placement(b, "axis", 4, {"g1": "1610"}, set(RAIL))
    reinforce.check_placement(b, "axis", 4, {"g1": "1526", "g2": "1526"}, set(RAIL))
    with pytest.raises(IllegalOrder, match="more than 2 units"):
        reinforce.check_placement(b, "axis", 4, {"g1": "1524", "g2": "1524"}, set(RAIL))


def test_tc34_12_1_rail_line_through_a_friendly_held_ezoc_hex() -> None:
    """TC-34: the rail path to the source crosses enemy ZOC where Soviet
    units stand: no placement beyond it, though the ordinary LOC passes."""
    scn, s = setup({"g3": "1623", "s1": "1522", "s2": "1523"})
    b = board(scn, s)
    rail = supply.rail_entry_hexes(b, "soviet")
    assert "1521" not in rail and "1520" not in rail
    assert {"1524", "1525", "1526"} <= rail
    assert "1521" in supply.loc(b, "soviet")
    with pytest.raises(IllegalOrder, match="not a railroad hex linked by rail"):
        reinforce.check_placement(b, "soviet", 4, {"s3": "1521"}, rail)
    reinforce.check_placement(b, "soviet", 4, {"s3": "1524"}, rail)


def test_td18_12_1_2_ffs_rail_line_through_a_friendly_held_ezoc_hex() -> None:
    """TD-18 (FFS): the same placement is refused under the FFS profile."""
    scn, s = setup({"g3": "1623", "s1": "1522", "s2": "1523"}, game="ffs")
    b = board(scn, s, FFS)
    rail = supply.rail_entry_hexes(b, "soviet")
    assert "1521" not in rail and "1524" in rail
    assert "1521" in supply.loc(b, "soviet")
    with pytest.raises(IllegalOrder, match="not a railroad hex linked by rail"):
        reinforce.check_placement(b, "soviet", 4, {"s3": "1521"}, rail)


def test_12_1_never_onto_a_hex_in_enemy_zoc() -> None:
    scn, s = setup({"g3": "1623"})
    b = board(scn, s)
    with pytest.raises(IllegalOrder, match="enemy zone of control"):
        reinforce.check_placement(b, "soviet", 4, {"s3": "1523"}, set(RAIL))


def test_12_1_place_keeps_the_strength_in_the_box() -> None:
    scn, s = setup({})
    s["units"]["gi"]["steps"] = 1
    reinforce.place(s, {"gi": "1524"})
    assert s["units"]["gi"] == dict(s["units"]["gi"], hex="1524", box=None, steps=1)


# ------------------------------------------------------------ extras (17.3, 18.1, 5.0(5))
def test_5_0_end_phase_axis_units_on_the_new_space_go_to_the_available_box() -> None:
    scn, s = setup({})
    s["units"]["ghq"]["box"] = "track:5"
    assert reinforce.end_phase(scn, s, 5) == ["ghq"]
    assert s["units"]["ghq"]["box"] == "available" and s["units"]["ghq"]["extra"]
    assert s["units"]["h19"]["box"] == "track:3"          # Soviet units wait on the track


def test_17_3_transferred_hqs_enter_outside_the_count() -> None:
    scn, s = setup({}, turn=5)
    s["units"]["ghq"].update(box="available", extra=True)      # Axis, after the End Phase
    s["units"]["shq"].update(box="track:5")                     # Soviet, still on the track
    b = board(scn, s)
    assert reinforce.extras(b, "axis", 5) == ["ghq"]
    assert reinforce.extras(b, "soviet", 5) == ["shq"]
    reinforce.check_placement(b, "axis", 5, {"g1": "1524", "g2": "1524", "ghq": "1525"}, set(RAIL))
    reinforce.check_placement(b, "soviet", 5, {"s1": "1520", "s2": "1520", "s3": "1521", "shq": "1522"},
                              set(RAIL))
    reinforce.place(s, {"ghq": "1525"})
    assert "extra" not in s["units"]["ghq"]


# ------------------------------------------------------------ Strategic Reserve (15.4)
def test_15_4_strategic_reserve_from_turn_6_six_in_smolensk() -> None:
    scn, _ = setup({})
    assert [reinforce.strategic_reserve_size(scn, t) for t in (5, 6, 9)] == [0, 6, 6]
    scn12 = load(scn_dict(strategic_reserve=12))
    assert reinforce.strategic_reserve_size(scn12, 7) == 12


def test_15_4_strategic_reserve_enters_from_moscow_by_road() -> None:
    scn, s = setup({}, turn=6)
    b = board(scn, s)
    spent = reinforce.entry_cost(b, "s1", "2010", "strategic")
    assert spent == 1
    reinforce.check_strategic_reserve(b, 6, {"s1": ("strategic", ["2010", "1910", "1810", "1710"])})
    reinforce.check_strategic_reserve(b, 6, {"s1": ("normal", ["2010", "1910"])})
    with pytest.raises(IllegalOrder, match="enters at one of 2010"):
        reinforce.check_strategic_reserve(b, 6, {"s1": ("normal", ["2015", "2014"])})


def test_15_4_strategic_reserve_count_and_source_of_units() -> None:
    scn, s = setup({}, turn=6, strategic_reserve=1)
    b = board(scn, s)
    with pytest.raises(IllegalOrder, match="up to 1 Strategic Reserve"):
        reinforce.check_strategic_reserve(b, 6, {"s1": ("normal", ["2010"]), "s2": ("normal", ["2010"])})
    with pytest.raises(IllegalOrder, match="not in the Soviet Available Box"):
        reinforce.check_strategic_reserve(b, 6, {"s1": ("normal", ["2010"])}, placed={"s1"})
    with pytest.raises(IllegalOrder, match="up to 0"):
        reinforce.check_strategic_reserve(board(scn, dict(s, turn=5)), 5, {"s1": ("normal", ["2010"])})


def test_15_4_entry_pays_for_the_entry_hex() -> None:
    """Foot unit, 4 MP: 1 MP entering 2010 by road, 3 more along the road."""
    scn, s = setup({}, turn=6)
    b = board(scn, s)
    assert reinforce.check_entry(b, "s1", ["2010", "1910", "1810", "1710"], "normal",
                                 reinforce.from_moscow(scn)) == 8
    with pytest.raises(IllegalOrder, match="MP"):
        reinforce.check_entry(b, "s1", ["2010", "1910", "1810", "1710", "1610"], "normal",
                              reinforce.from_moscow(scn))


def test_15_4_strategic_entry_never_into_enemy_zoc() -> None:
    scn, s = setup({"g1": "1910"}, turn=6)
    b = board(scn, s)
    assert reinforce.entry_cost(b, "s1", "2010", "strategic") is None
    assert reinforce.entry_cost(b, "s1", "2010", "normal") == 6        # 1 MP + 2 MP into enemy ZOC


# ------------------------------------------------------------ 19th Army (15.3)
def test_15_3_19a_enters_together_through_one_eastern_source() -> None:
    scn, s = setup({}, turn=3)
    b = board(scn, s)
    assert reinforce.army19_group(b) == ["h19", "m19", "u19"]
    src = reinforce.check_army19(b, 3, {"h19": ("normal", ["2015"]), "u19": ("normal", ["2015", "2014"]),
                                        "m19": ("normal", ["2015", "1915"])})
    assert src == "2015"


def test_15_3_19a_refusals() -> None:
    scn, s = setup({}, turn=2)
    b = board(scn, s)
    whole = {"h19": ("normal", ["2015"]), "u19": ("normal", ["2015", "2014"]), "m19": ("normal", ["2015", "1915"])}
    with pytest.raises(IllegalOrder, match="from Turn 3"):
        reinforce.check_army19(b, 2, whole)
    with pytest.raises(IllegalOrder, match="missing m19"):
        reinforce.check_army19(b, 3, {k: v for k, v in whole.items() if k != "m19"})
    with pytest.raises(IllegalOrder, match="one supply source"):
        reinforce.check_army19(b, 3, dict(whole, m19=("normal", ["2010", "1910"])))
    with pytest.raises(IllegalOrder, match="enters at one of"):
        reinforce.check_army19(b, 3, {k: ("normal", ["1526"]) for k in whole})


def test_a24_19a_may_still_enter_after_turn_3() -> None:
    scn, s = setup({}, turn=5)
    b = board(scn, s)
    reinforce.check_army19(b, 5, {"h19": ("normal", ["2015"]), "u19": ("normal", ["2015", "2014"]),
                                  "m19": ("normal", ["2015", "1915"])})


def test_15_3_19a_size_is_data_ffs_10_ava_11() -> None:
    """The group is whatever the scenario flags 19A: the count is not coded."""
    d = scn_dict()
    for i in range(8):
        d["units"][f"x19_{i}"] = U("soviet", "foot", 2, 2, 8, start="turn:3", flags=["19A"])
    scn = load(d)
    s = avahelp.state(scn, {}, turn=3)
    for uid, spec in scn.units.items():
        if "19A" in spec.flags:
            s["units"][uid]["box"] = "track:3"
    assert len(reinforce.army19_group(Board(scn, AVA, s))) == 11


# ------------------------------------------------------------ Supply Check removals (11.2)
def test_11_2_axis_to_available_box_needs_a_loc_ava_allows_ezoc() -> None:
    scn, s = setup({"gi": "1515", "g1": "1516", "s1": "1517"})
    b = board(scn, s)
    reinforce.check_to_available(b, ["g1"], lambda u: True)       # in EZOC, with LOC: AVA allows (A43)
    with pytest.raises(IllegalOrder, match="traces no LOC"):
        reinforce.check_to_available(b, ["gi"], lambda u: False)
    with pytest.raises(IllegalOrder, match="not an Axis unit on the map"):
        reinforce.check_to_available(b, ["s1"], lambda u: True)


def test_11_2_1_ffs_axis_to_available_box_not_from_enemy_zoc() -> None:
    scn, s = setup({"gi": "1515", "g1": "1516", "s1": "1517"}, game="ffs")
    b = board(scn, s, FFS)
    reinforce.check_to_available(b, ["gi"], lambda u: True)
    with pytest.raises(IllegalOrder, match="enemy zone of control"):
        reinforce.check_to_available(b, ["g1"], lambda u: True)


# ------------------------------------------------------------ Smolensk withdrawal (18.2)
def test_18_2_withdraw_at_least_18_attack_of_mech_full_or_reduced() -> None:
    scn, s = setup({"g1": "1010", "g2": "1011", "g3": "1012", "gi": "1013"}, turn=6)
    s["units"]["g3"]["steps"] = 1                          # reduced: attack 2
    b = board(scn, s)
    assert reinforce.withdrawal_due(b, 6) == 16            # only 8 + 6 + 2 on the map
    assert reinforce.check_withdrawal(b, 6, ["g1", "g2", "g3"]) == 16
    with pytest.raises(IllegalOrder, match="at least 16"):
        reinforce.check_withdrawal(b, 6, ["g1", "g2"])
    with pytest.raises(IllegalOrder, match="mechanized"):
        reinforce.check_withdrawal(b, 6, ["gi", "g1", "g2", "g3"])


def test_18_2_withdrawal_only_on_its_turn_and_at_least_the_strength() -> None:
    scn, s = setup({"g1": "1010", "g2": "1011", "g3": "1012"}, turn=6, withdrawal_strength=12)
    b = board(scn, s)
    assert reinforce.check_withdrawal(b, 6, ["g1", "g2"]) == 14       # at least 12
    with pytest.raises(IllegalOrder, match="no withdrawal"):
        reinforce.check_withdrawal(board(scn, dict(s, turn=5)), 5, ["g1"])
    assert reinforce.withdrawal_due(b, 5) == 0
    reinforce.to_box(s, ["g1", "g2"], "withdrawn")
    assert s["units"]["g1"]["box"] == "withdrawn" and s["units"]["g1"]["hex"] is None


# ------------------------------------------------------------ HQ transfer (17.3 / 16.3)
def test_17_3_ava_hq_transfer_another_hq_in_range_with_loc() -> None:
    scn, s = setup({"ghq": "1510", "ghq2": "1512", "s1": "1513"}, turn=4)
    b = board(scn, s)
    assert reinforce.check_hq_transfer(b, "ghq2", True, in_range=True, activated="ghq") == "track:5"
    with pytest.raises(IllegalOrder, match="another HQ in command range"):
        reinforce.check_hq_transfer(b, "ghq2", True, in_range=False, activated="ghq")
    with pytest.raises(IllegalOrder, match="another HQ"):
        reinforce.check_hq_transfer(b, "ghq", True, in_range=True, activated="ghq")
    with pytest.raises(IllegalOrder, match="no LOC"):
        reinforce.check_hq_transfer(b, "ghq2", False, in_range=True, activated="ghq")


def test_16_3_ffs_hq_transfer_any_hq_with_loc_not_in_ezoc() -> None:
    scn, s = setup({"ghq": "1510", "ghq2": "1512", "s1": "1513"}, turn=4, game="ffs")
    b = board(scn, s, FFS)
    assert reinforce.check_hq_transfer(b, "ghq", True, in_range=False) == "track:5"
    with pytest.raises(IllegalOrder, match="enemy zone of control"):
        reinforce.check_hq_transfer(b, "ghq2", True)
