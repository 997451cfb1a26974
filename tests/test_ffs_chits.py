"""Command chits under the FFS profile (Fierce Fight! Smolensk 6, 7, 15.2,
16.2): the Axis Com cap, exact quotas, REINF counted, Guderian optional at
the end of the cup, the 1/1/2/2/3/3 Reserve table."""
from __future__ import annotations

import pytest

from pbem.game import IllegalOrder
from pbem.games.ava import chits
from pbem.games.ava.board import Board
from pbem.games.ava.profile import FFS
from pbem.games.ava.scenario import load
from tests.avachits import scn_dict, st

FFS_TABLE = [1, 1, 2, 2, 3, 3]


@pytest.fixture
def scn():
    return load(scn_dict("ffs", reserve_table=FFS_TABLE))


def test_6_2_2_axis_com_caps_the_axis_selection(scn) -> None:
    s = st(scn, 1)
    assert chits.quota(scn, FFS, s, "axis", 1) == 5
    with pytest.raises(IllegalOrder, match="may select 5 chit"):
        chits.check_selection(scn, FFS, s, "axis", 1, ["2PzG", "3PzG.1", "3PzG.2", "4A", "9A", "Guderian"])


def test_6_2_quota_is_exact_8_13(scn) -> None:
    s = st(scn, 1)
    with pytest.raises(IllegalOrder, match="exactly 3 chit"):
        chits.check_selection(scn, FFS, s, "soviet", 1, ["S3A", "S4A"])
    chits.check_selection(scn, FFS, s, "soviet", 1, ["S3A", "S4A", "S10A"])


def test_6_2_exact_quota_shrinks_to_the_chits_available(scn) -> None:
    """Soviet Com 5 on Turn 2 but only 4 Soviet chits exist then: all 4."""
    s = st(scn, 2)
    chits.check_selection(scn, FFS, s, "soviet", 2, ["S3A", "S4A", "S10A", "S13A"])


def test_6_2_reinf_is_mandatory_and_counts_against_com_8_13(scn) -> None:
    s = st(scn, 4)
    sel = chits.select(scn, FFS, s, "axis", 4, ["2PzG", "3PzG.1", "3PzG.2", "4A", "Guderian"])
    assert "AxReinf" in sel.cup
    with pytest.raises(IllegalOrder, match="may select 6 chit"):
        chits.check_selection(scn, FFS, s, "axis", 4, ["2PzG", "3PzG.1", "3PzG.2", "4A", "9A", "Guderian"])


def test_15_2_5_extra_soviet_chit_on_turns_4_to_7_only(scn) -> None:
    s = st(scn, 4)
    assert [chits.extra_due(scn, s, t) for t in (3, 4, 5, 6, 7, 8, 9)] == [0, 1, 1, 1, 1, 0, 0]


def test_td19_7_3_guderian_may_cancel_the_supply_chit(scn) -> None:
    """TD-19: Guderian held, SUPPLY drawn: the Axis may interrupt it."""
    s = st(scn, 4)
    assert chits.effect(Board(scn, FFS, s), "supply") == ("supply", "")
    assert chits.interrupters(scn, s, {"axis": ["Guderian"]}, 4) == [("axis", ("Guderian",))]
    assert chits.interrupt_hq(scn, "Guderian") == "2PzG"


def test_td20_7_3_3_guderian_at_the_end_of_the_cup_is_optional(scn) -> None:
    """TD-20: the cup is empty, Guderian held: the Axis may play it (FFS
    "may"; AVA forces it)."""
    forced, optional = chits.end_of_cup(FFS, scn, {"axis": ["Guderian"]})
    assert forced == [] and optional == ["Guderian"]
    assert chits.check_end_order(FFS, scn, ["Guderian"], []) == []
    assert chits.check_end_order(FFS, scn, ["Guderian"], ["Guderian"]) == ["Guderian"]


def test_td21_13_2_2a_drawn_with_its_hq_in_the_available_box(scn) -> None:
    """TD-21: no effect; the chit is spent."""
    s = st(scn, 4)
    assert s["units"]["G2A"]["box"] == "available"
    assert chits.effect(Board(scn, FFS, s), "2A") == ("none", "G2A")


@pytest.mark.parametrize("roll,units", [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_tc20_16_2_reserve_okh_table(scn, roll: int, units: int) -> None:
    """TC-20 (FFS): 1-2: 1 unit, 3-4: 2, 5-6: 3."""
    assert chits.reserve_units(scn, roll) == units


def test_16_2_soviet_reserve_outside_range_half_mp_no_attack(scn) -> None:
    lim = chits.reserve_limits(scn, FFS, "reserve", False)
    assert (lim.strategic, lim.mp_half, lim.attack) == (True, True, "none")    # notes #59: strategic allowed
    assert chits.reserve_limits(scn, FFS, "reserve", True) == chits.ReserveLimits()
    assert chits.reserve_limits(scn, FFS, "okh", False) == chits.ReserveLimits()
