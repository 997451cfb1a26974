"""AVA 20 (the multiplayer variant): Master cup contents, the team's split
of HQ chits, dummy chits, Master draws and the interrupt window."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import tomllib

from pbem.game import IllegalOrder, ScenarioError
from pbem.games.ava import mastercup as mc
from pbem.games.ava import seating
from pbem.games.ava.profile import AVA
from tests.avahelp import campaign_like

ROOT = Path(__file__).resolve().parent.parent
COMMON = ["supply", "AX-okh", "SU-reserve"]


def count(cup: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for t in cup:
        out[t] = out.get(t, 0) + 1
    return out


# ------------------------------------------------------------ Master cup (4.8)
@pytest.mark.parametrize("team,turn,want", [(2, 1, 7), (3, 1, 5), (2, 2, 8), (3, 3, 6), (2, 4, 8), (3, 9, 6)])
def test_20_2_master_chits_per_side(team: int, turn: int, want: int) -> None:
    assert mc.master_chits(team, turn) == want


def test_20_2_master_cup_turn_1_two_player_teams() -> None:
    scn, _ = campaign_like()
    cup = mc.master_cup(scn, 1, {"axis": 2, "soviet": 2})
    assert count(cup) == {"master:axis": 7, "master:soviet": 7, "supply": 1, "AX-okh": 1, "SU-reserve": 1}


def test_20_2_master_cup_turns_2_3_three_and_two() -> None:
    scn, _ = campaign_like()
    for turn in (2, 3):
        cup = mc.master_cup(scn, turn, {"axis": 3, "soviet": 2})
        assert count(cup) == {"master:axis": 6, "master:soviet": 8, "supply": 1, "AX-okh": 1, "SU-reserve": 1}


def test_20_2_master_cup_turn_4_adds_both_reinforcements() -> None:
    scn, _ = campaign_like()
    cup = mc.master_cup(scn, 4, {"axis": 3, "soviet": 3})
    assert count(cup) == {"master:axis": 6, "master:soviet": 6, "AX-reinf": 1, "SU-reinf": 1,
                          "supply": 1, "AX-okh": 1, "SU-reserve": 1}
    assert len(mc.master_cup(scn, 1, {"axis": 3, "soviet": 3})) == 5 + 5 + 3


def test_20_2_the_campaign_file_agrees_with_the_fact_table() -> None:
    data = tomllib.loads((ROOT / "scenarios/ava/campaign.toml").read_text())
    assert mc.master_table(data) == mc.MASTER_CHITS
    assert mc.master_table({"multiplayer": {"master_chits": {"two": [1, 2]}}})[2] == (1, 2)


def test_a38_unpriced_team_sizes_are_refused() -> None:
    with pytest.raises(ScenarioError, match="not 4"):
        mc.master_chits(4, 2)
    with pytest.raises(ScenarioError, match="not 1"):
        mc.master_chits(1, 2)


def test_20_2_draws_from_the_master_cup() -> None:
    assert mc.drawn("master:soviet") == ("master", "soviet")
    assert mc.drawn("supply") == ("chit", "supply")
    with pytest.raises(ValueError):
        mc.drawn("master:finnish")


def test_20_2_a_master_chit_activates_every_player_of_the_side_in_seat_order() -> None:
    st = seating.layout(5, seating.VARIANT)
    axis = seating.seats_of(st, "axis")
    assert mc.master_draws(axis, {s: 3 for s in axis}) == [
        ("ag_north", "hq:ag_north"), ("ag_center", "hq:ag_center"), ("ag_south", "hq:ag_south")]
    # A38: an empty HQ cup draws nothing
    assert mc.master_draws(axis, {"ag_north": 0, "ag_center": 1, "ag_south": 2}) == [
        ("ag_center", "hq:ag_center"), ("ag_south", "hq:ag_south")]


# ------------------------------------------------------------ the split (20.2)
def axis_split() -> tuple[list[str], dict[str, list[str]]]:
    scn, state = campaign_like()
    avail = mc.hq_chits(scn, AVA, state, "axis", 1)
    split = {
        "ag_north": ["AX-4PzG", "AX-16A", "AX-18A"],
        "ag_center": ["AX-3PzG", "AX-3PzG-2", "AX-9A", "AX-4A", "AX-2PzG", "AX-2A"],
        "ag_south": ["AX-1PzG", "AX-1PzG-2", "AX-6A", "AX-17A", "AX-11A", "RUM-3A"],
    }
    return avail, split


def test_20_2_hq_chits_leave_out_interrupts_and_master_cup_chits() -> None:
    scn, state = campaign_like()
    avail = mc.hq_chits(scn, AVA, state, "axis", 1)
    assert "manstein" not in avail and "guderian" not in avail
    assert "AX-reinf" not in avail and "AX-okh" not in avail
    assert {"AX-1PzG", "AX-1PzG-2", "AX-3PzG-2", "RUM-3A"} <= set(avail)
    assert mc.interrupts(scn, AVA, state, 1) == ["guderian", "manstein"]


def test_20_2_a_legal_split() -> None:
    scn, _ = campaign_like()
    avail, split = axis_split()
    mc.check_split(scn, "axis", list(split), avail, split)
    # any division will do, however lopsided, so long as the pairs stay together
    lopsided = {"ag_north": [c for c in avail if "1PzG" not in c], "ag_center": ["AX-1PzG", "AX-1PzG-2"],
                "ag_south": []}
    mc.check_split(scn, "axis", list(split), avail, lopsided)


@pytest.mark.parametrize("change,why", [
    (lambda s: (s["ag_center"].remove("AX-3PzG-2"), s["ag_south"].append("AX-3PzG-2")), "two AX-3PzG chits"),
    (lambda s: (s["ag_south"].remove("AX-1PzG-2"), s["ag_north"].append("AX-1PzG-2")), "two AX-1PzG chits"),
    (lambda s: s["ag_north"].append("manstein"), "stays with the Axis team"),
    (lambda s: s["ag_north"].append("AX-reinf"), "Master cup"),
    (lambda s: s["ag_north"].append("AX-okh"), "Master cup"),
    (lambda s: s["ag_north"].append("SU-4A"), "not a Axis chit|not an Axis chit"),
    (lambda s: s["ag_north"].append("AX-9A"), "two HQ cups"),
    (lambda s: s["ag_north"].remove("AX-16A"), "AX-16A must go in an HQ cup"),
    (lambda s: s.update(soviet=["AX-16A"]), "not a player of the Axis team"),
])
def test_20_2_illegal_splits(change: Callable[[dict[str, list[str]]], object], why: str) -> None:
    scn, _ = campaign_like()
    avail, split = axis_split()
    change(split)
    with pytest.raises(IllegalOrder, match=why):
        mc.check_split(scn, "axis", ["ag_north", "ag_center", "ag_south"], avail, split)


def test_20_2_a_chit_not_yet_available_is_refused() -> None:
    scn, _ = campaign_like()
    avail, split = axis_split()
    avail.remove("AX-2A")
    split["ag_center"].remove("AX-2A")
    split["ag_north"].append("AX-2A")
    with pytest.raises(IllegalOrder, match="AX-2A is not available"):
        mc.check_split(scn, "axis", list(split), avail, split)


# ------------------------------------------------------------ dummies (20.2)
def test_20_2_dummies_make_up_the_difference() -> None:
    split = {"a": ["x1", "x2", "x3", "x4"], "b": ["y1", "y2"], "c": ["z1", "z2", "z3", "z4"]}
    assert mc.dummies_needed(["a", "b", "c"], split) == {"b": 2}
    assert mc.dummies_needed(["a", "b"], {"a": ["x"], "b": ["y"]}) == {}


def test_20_2_an_unused_chit_of_an_hq_off_the_map_serves_as_dummy() -> None:
    scn, state = campaign_like()
    state["units"]["SU-26A"]["hex"] = None             # off the map: its chit serves
    state["units"]["SU-27A"]["hex"] = None
    split = {"north": ["SU-8A", "SU-4A", "SU-10A", "SU-13A"], "kiev": ["SU-5A"]}
    dummies = mc.deal_dummies(scn, state, ["north", "kiev"], split)
    assert dummies == {"kiev": ["SU-26A", "SU-27A", "dummy:1"]}
    mc.check_dummies(scn, state, ["north", "kiev"], split, dummies)
    assert all(mc.is_dummy(scn, state, d) for d in dummies["kiev"])
    assert not mc.is_dummy(scn, state, "SU-5A")


def test_20_2_illegal_dummies() -> None:
    scn, state = campaign_like()
    split = {"north": ["SU-8A", "SU-4A"], "kiev": ["SU-5A"]}
    with pytest.raises(IllegalOrder, match="takes 1 dummy"):
        mc.check_dummies(scn, state, ["north", "kiev"], split, {})
    with pytest.raises(IllegalOrder, match="cannot serve as a dummy"):
        mc.check_dummies(scn, state, ["north", "kiev"], split, {"kiev": ["SU-26A"]})   # 26A is on the map
    with pytest.raises(IllegalOrder, match="takes 0 dummy"):
        mc.check_dummies(scn, state, ["north", "kiev"], split, {"kiev": ["dummy:1"], "north": ["dummy:2"]})


# ------------------------------------------------------------ interrupts (20.2)
@pytest.mark.parametrize("token,opens", [
    ("AX-reinf", True), ("SU-reinf", True), ("supply", True), ("AX-okh", True), ("SU-reserve", True),
    ("SU-4A", True), ("AX-9A", True), ("master:axis", False), ("master:soviet", False), ("dummy:3", False)])
def test_20_2_interrupt_window(token: str, opens: bool) -> None:
    scn, _ = campaign_like()
    assert mc.opens_window(scn, token) is opens


def test_20_2_a_drawn_dummy_opens_no_window() -> None:
    scn, _ = campaign_like()
    assert not mc.opens_window(scn, "SU-26A", dummy=True)


def test_20_2_the_cancelled_chit_returns_to_its_own_cup() -> None:
    scn, _ = campaign_like()
    assert mc.returns_to(scn, "supply") == "master"
    assert mc.returns_to(scn, "SU-reinf") == "master"
    assert mc.returns_to(scn, "SU-10A", "soviet_north") == "hq:soviet_north"
    with pytest.raises(ValueError):
        mc.returns_to(scn, "SU-10A")


def test_20_2_a46_interrupts_in_the_variant_go_to_4pzg_and_2pzg_seats() -> None:
    scn, state = campaign_like()
    st = seating.layout(4, seating.VARIANT)
    assert seating.interrupt_holders(st, scn, state, mc.interrupts(scn, AVA, state, 1)) == [
        ("ag_north_center", ("guderian", "manstein"))]


# ------------------------------------------------------------ live checks of openings
def test_20_2_opening_refusals() -> None:
    scn, state = campaign_like()
    avail, _ = axis_split()
    team = ["ag_north", "ag_center", "ag_south"]
    ok = mc.opening_refusal(scn, state, "axis", "ag_south", "AX-1PzG", avail, {}, team)
    assert ok is None
    assert "same player" in str(mc.opening_refusal(scn, state, "axis", "ag_north", "AX-1PzG-2", avail,
                                                   {"AX-1PzG": "ag_south"}, team))
    assert "already turned up" in str(mc.opening_refusal(scn, state, "axis", "ag_north", "AX-9A", avail,
                                                         {"AX-9A": "ag_center"}, team))
    assert "HQ chit" in str(mc.opening_refusal(scn, state, "axis", "ag_north", "manstein", avail, {}, team))
    state["units"]["SU-26A"]["hex"] = None
    assert mc.opening_refusal(scn, state, "soviet", "s", "SU-26A", [], {}, ["s"]) is None   # a dummy
    assert "not available" in str(mc.opening_refusal(scn, state, "soviet", "s", "SU-5A", [], {}, ["s"]))
