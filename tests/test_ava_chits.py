"""Command chits (pbem/games/ava/chits.py): availability, quotas, mandatory
chits, interrupts, the end of the cup, Reserve/OKH, Zhukov.  AVA profile
unless a test says otherwise (FFS: tests/test_ffs_chits.py)."""
from __future__ import annotations


import pytest

from pbem.game import IllegalOrder
from pbem.games.ava import chits
from pbem.games.ava.board import Board
from pbem.games.ava.profile import AVA, FFS
from pbem.games.ava.scenario import load
from tests.avachits import scn_dict, st


@pytest.fixture
def scn():
    return load(scn_dict())


# ------------------------------------------------------------ availability (15.2, 18.2)
def test_18_2_chits_available_on_turn_1_follow_the_schedule(scn) -> None:
    s = st(scn)
    assert chits.available(scn, AVA, s, "axis", 1) == ["2PzG", "3PzG.1", "3PzG.2", "4A", "9A", "Guderian"]
    assert chits.available(scn, AVA, s, "soviet", 1) == ["S10A", "S3A", "S4A"]
    assert "S13A" in chits.available(scn, AVA, s, "soviet", 2)
    assert "S19A" in chits.available(scn, AVA, s, "soviet", 3)


def test_12_0_reinforcement_chit_never_before_reinforcements_begin() -> None:
    d = scn_dict(reinforcements_from_turn=5)
    scn = load(d)
    assert "AxReinf" not in chits.available(scn, AVA, st(scn, 4), "axis", 4)
    assert "AxReinf" in chits.available(scn, AVA, st(scn, 5), "axis", 5)


def test_17_2_reserve_and_okh_only_with_the_optional_rule(scn) -> None:
    s = st(scn)
    assert "OKH" not in chits.available(scn, AVA, s, "axis", 1)
    assert "OKH" in chits.available(scn, AVA, s, "axis", 1, reserve_okh=True)
    assert "Reserve" in chits.available(scn, AVA, s, "soviet", 1, reserve_okh=True)


def test_13_0_chit_of_an_hq_off_the_map_is_selectable_and_does_nothing(scn) -> None:
    """TD-21 pattern (AVA 13.0): the chit may be selected; drawn, it is spent."""
    s = st(scn, 4)
    assert "2A" in chits.available(scn, AVA, s, "axis", 4)
    assert chits.effect(Board(scn, AVA, s), "2A") == ("none", "G2A")
    assert chits.effect(Board(scn, AVA, s), "4A") == ("activate", "G4A")


def test_7_2_effects_of_the_other_chits(scn) -> None:
    b = Board(scn, AVA, st(scn, 4))
    assert chits.effect(b, "supply") == ("supply", "")
    assert chits.effect(b, "SuReinf") == ("reinforcement", "soviet")
    assert chits.effect(b, "OKH") == ("reserve", "okh")
    assert chits.effect(b, "Guderian") == ("activate", "2PzG")


def test_15_3_the_19a_chit_enters_the_group_then_activates_its_hq(scn) -> None:
    s = st(scn, 3)
    assert chits.effect(Board(scn, AVA, s), "S19A") == ("army19", "S19A")
    s["units"]["S19A"].update(hex="1525", box=None)
    s["units"]["r19"].update(hex="1526", box=None)
    assert chits.effect(Board(scn, AVA, s), "S19A") == ("activate", "S19A")


# ------------------------------------------------------------ extra Army chit (18.x)
def test_18_2_one_extra_army_chit_a_turn_from_turn_4(scn) -> None:
    s = st(scn, 3)
    assert chits.extra_due(scn, s, 3) == 0
    s["turn"] = 4
    assert chits.extra_due(scn, s, 4) == 1
    assert chits.extra_candidates(scn, s) == ["S24A", "S28A"]
    assert "S24A" not in chits.available(scn, AVA, s, "soviet", 4)
    chits.add_extra(scn, s, 4, ["S24A"])
    assert chits.extra_due(scn, s, 4) == 0
    assert "S24A" in chits.available(scn, AVA, s, "soviet", 4)
    assert "S24A" in chits.available(scn, AVA, s, "soviet", 7)
    assert chits.extra_due(scn, s, 5) == 1


def test_18_2_the_extra_chit_is_a_candidate_chosen_once(scn) -> None:
    s = st(scn, 4)
    with pytest.raises(IllegalOrder, match="not a Soviet Army chit still to choose"):
        chits.check_extra(scn, s, 4, ["S3A"])
    with pytest.raises(IllegalOrder, match="choose 1 extra"):
        chits.check_extra(scn, s, 4, ["S24A", "S28A"])
    chits.add_extra(scn, s, 4, ["S24A"])
    with pytest.raises(IllegalOrder, match="choose 0 extra"):
        chits.check_extra(scn, s, 4, ["S28A"])


def test_18_x_a_campaign_turn_listed_twice_gives_two_picks() -> None:
    scn = load(scn_dict(extra_army_chit_turns=[4, 4]))
    assert chits.extra_due(scn, st(scn, 4), 4) == 2


def test_18_x_no_pick_when_no_candidate_remains(scn) -> None:
    s = st(scn, 6)
    s["extra_chits"] = {"S24A": 4, "S28A": 5}
    assert chits.extra_due(scn, s, 6) == 0


# ------------------------------------------------------------ quotas (6.2, 6.3)
def test_6_2_soviet_selects_up_to_the_su_number_a42() -> None:
    d = scn_dict()
    d["turn_track"]["soviet_chits"][1] = 3
    scn = load(d)
    s = st(scn, 2)
    sel = chits.select(scn, AVA, s, "soviet", 2, ["S3A", "S4A"])      # fewer than 3: allowed (A42)
    assert sorted(sel.cup) == ["S3A", "S4A"]
    with pytest.raises(IllegalOrder, match="may select 3 chit"):
        chits.check_selection(scn, AVA, s, "soviet", 2, ["S3A", "S4A", "S10A", "S13A"])


def test_6_2_note_the_axis_may_cup_every_available_chit_in_ava(scn) -> None:
    s = st(scn, 4)
    every = chits.available(scn, AVA, s, "axis", 4)
    sel = chits.select(scn, AVA, s, "axis", 4, every)
    assert "Guderian" in sel.hand and "Guderian" not in sel.cup
    assert set(sel.cup) == set(every) - {"Guderian"}


def test_17_2_okh_takes_the_place_of_an_hq_chit_a30(scn) -> None:
    s = st(scn, 1)
    every = chits.available(scn, AVA, s, "axis", 1, reserve_okh=True)
    with pytest.raises(IllegalOrder, match="may select 6 chit"):
        chits.check_selection(scn, AVA, s, "axis", 1, every, reserve_okh=True)
    chits.check_selection(scn, AVA, s, "axis", 1, [c for c in every if c != "9A"], reserve_okh=True)


def test_6_2_reinforcement_chit_is_mandatory_and_outside_the_count_a26(scn) -> None:
    s = st(scn, 4)
    sel = chits.select(scn, AVA, s, "soviet", 4, ["S3A", "S4A", "S10A", "S13A", "S19A", "S24A"][:5])
    assert "SuReinf" in sel.cup                       # added though not named
    assert len(sel.cup) == 6                          # 5 counted + the Reinforcements


def test_6_2_unavailable_or_doubled_chits_are_refused(scn) -> None:
    s = st(scn, 1)
    with pytest.raises(IllegalOrder, match="S13A is not available to the Soviet player on Turn 1"):
        chits.check_selection(scn, AVA, s, "soviet", 1, ["S13A"])
    with pytest.raises(IllegalOrder, match="chosen twice"):
        chits.check_selection(scn, AVA, s, "soviet", 1, ["S3A", "S3A"])
    with pytest.raises(IllegalOrder, match="not available"):
        chits.check_selection(scn, AVA, s, "soviet", 1, ["2PzG"])


def test_6_3_interrupt_held_in_hand_counts_against_the_axis_total() -> None:
    """FFS cap (Axis Com 5 on Turn 1): Guderian is held, yet it fills a slot."""
    scn = load(scn_dict("ffs"))
    s = st(scn, 1)
    sel = chits.select(scn, FFS, s, "axis", 1, ["2PzG", "3PzG.1", "3PzG.2", "4A", "Guderian"])
    assert sel.hand == ("Guderian",) and len(sel.cup) == 4
    with pytest.raises(IllegalOrder, match="may select 5 chit"):
        chits.check_selection(scn, FFS, s, "axis", 1, ["2PzG", "3PzG.1", "3PzG.2", "4A", "9A", "Guderian"])


# ------------------------------------------------------------ interrupts (7.3)
def test_tc30_7_3_axis_may_answer_any_drawn_chit_with_a_held_interrupt(scn) -> None:
    """TC-30: Guderian held, Soviet 10A drawn: the Axis may interrupt; the
    chit goes back (kernel put_back) and 2PzG activates."""
    s = st(scn, 1)
    windows = chits.interrupters(scn, s, {"axis": ["Guderian"], "soviet": []}, 1)
    assert windows == [("axis", ("Guderian",))]
    chits.check_interrupt(scn, ["Guderian"], "Guderian")
    assert chits.interrupt_hq(scn, "Guderian") == "2PzG"
    with pytest.raises(IllegalOrder, match="not held"):
        chits.check_interrupt(scn, [], "Guderian")


def test_tc30_7_3_cup_empty_with_an_interrupt_held_it_is_played(scn) -> None:
    forced, optional = chits.end_of_cup(AVA, scn, {"axis": ["Guderian"]})
    assert forced == ["Guderian"] and optional == []


def test_a28_the_axis_orders_two_forced_interrupts() -> None:
    d = scn_dict()
    d["chits"]["Manstein"] = {"side": "axis", "kind": "interrupt", "hq": "2PzG"}
    scn = load(d)
    held = ["Guderian", "Manstein"]
    assert chits.check_end_order(AVA, scn, held, ["Manstein", "Guderian"]) == ["Manstein", "Guderian"]
    with pytest.raises(IllegalOrder, match="Guderian missing"):
        chits.check_end_order(AVA, scn, held, ["Manstein"])
    with pytest.raises(IllegalOrder, match="named twice"):
        chits.check_end_order(AVA, scn, held, ["Manstein", "Manstein"])


def test_tc31_16_4_the_supply_check_may_be_interrupted(scn) -> None:
    """TC-31 variant (A28): a window opens after the Supply Check is drawn too."""
    s = st(scn, 9)
    b = Board(scn, AVA, s)
    assert chits.effect(b, "supply") == ("supply", "")
    assert chits.interrupters(scn, s, {"axis": ["Guderian"]}, 9)


# ------------------------------------------------------------ Reserve/OKH (17.2)
@pytest.mark.parametrize("roll,units", [(1, 3), (2, 3), (3, 3), (4, 3), (5, 4), (6, 5)])
def test_tc20_17_2_reserve_okh_campaign_table(scn, roll: int, units: int) -> None:
    assert chits.reserve_units(scn, roll) == units


@pytest.mark.parametrize("roll,units", [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_tc20_18_1_reserve_leningrad_table(roll: int, units: int) -> None:
    scn = load(scn_dict(reserve_table=[1, 1, 2, 2, 3, 3], reserve_no_ezoc=True))
    assert chits.reserve_units(scn, roll) == units


def test_17_2_reserve_outside_every_command_range(scn) -> None:
    inside = chits.reserve_limits(scn, AVA, "reserve", True)
    outside = chits.reserve_limits(scn, AVA, "reserve", False)
    assert inside == chits.ReserveLimits()
    assert (outside.strategic, outside.mp_half, outside.attack) == (False, False, "half")
    assert chits.reserve_limits(scn, AVA, "okh", False) == chits.ReserveLimits()


def test_18_1_leningrad_reserve_never_in_ezoc_never_attacks() -> None:
    scn = load(scn_dict(reserve_no_ezoc=True))
    lim = chits.reserve_limits(scn, AVA, "reserve", True)
    assert lim.attack == "none" and not lim.ezoc


def test_17_2_reserve_picks(scn) -> None:
    s = st(scn, 1)
    s["units"]["rum"].update(hex="1410", box=None)
    b = Board(scn, AVA, s)
    chits.check_reserve_pick(b, "okh", "axis", ["G4A", "G9A"], 3)
    with pytest.raises(IllegalOrder, match="German units only"):
        chits.check_reserve_pick(b, "okh", "axis", ["rum"], 3)
    with pytest.raises(IllegalOrder, match="activates 1 unit"):
        chits.check_reserve_pick(b, "okh", "axis", ["G4A", "G9A"], 1)
    with pytest.raises(IllegalOrder, match="not a Axis unit on the map|not a Axis"):
        chits.check_reserve_pick(b, "okh", "axis", ["G2A"], 3)


# ------------------------------------------------------------ Zhukov (18.1)
def zhukov_scn():
    d = scn_dict(zhukov=True)
    d["map"]["vp_hexes"] = {"leningrad": ["1515", "1516"]}
    return load(d)


def test_18_1_zhukov_declarable_when_an_axis_unit_is_next_to_leningrad() -> None:
    scn = zhukov_scn()
    s = st(scn, 5)
    assert chits.zhukov_trigger(scn, s, "1514")
    assert not chits.zhukov_trigger(scn, s, "1512")
    s["units"]["G4A"]["hex"] = "1514"
    assert chits.zhukov_declarable(Board(scn, AVA, s))
    s["zhukov"] = 5
    assert not chits.zhukov_declarable(Board(scn, AVA, s))


def test_18_1_reinforcements_held_only_in_turns_after_the_declaration() -> None:
    scn = zhukov_scn()
    s = st(scn, 5, zhukov=5)
    with pytest.raises(IllegalOrder, match="turns after"):
        chits.check_selection(scn, AVA, s, "soviet", 5, ["S3A"], hold=["SuReinf"])
    s["turn"] = 6
    sel = chits.select(scn, AVA, s, "soviet", 6, ["S3A"], hold=["SuReinf"])
    assert sel.hand == ("SuReinf",) and "SuReinf" not in sel.cup
    with pytest.raises(IllegalOrder, match="only a selected Soviet Reinforcements"):
        chits.check_selection(scn, AVA, s, "soviet", 6, ["S3A"], hold=["S3A"])


def test_a29_zhukov_window_after_the_axis_and_forced_last() -> None:
    scn = zhukov_scn()
    s = st(scn, 6, zhukov=5)
    hands = {"axis": ["Guderian"], "soviet": ["SuReinf"]}
    assert [w[0] for w in chits.interrupters(scn, s, hands, 6)] == ["axis", "soviet"]
    forced, _ = chits.end_of_cup(AVA, scn, hands)
    assert forced == ["Guderian", "SuReinf"]
