"""AVA 19.2 player roles and who decides what in a multiplayer game (A46,
A49): the fact table, the scenario's own seats, owners of chits, units and
hexes."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import tomllib

from pbem.game import ScenarioError
from pbem.game.base import validate_seats
from pbem.games.ava import seating
from tests.avahelp import campaign_like

ROOT = Path(__file__).resolve().parent.parent

def campaign_data() -> dict[str, Any]:
    return tomllib.loads((ROOT / "scenarios/ava/campaign.toml").read_text())


# ------------------------------------------------------------ the fact table
@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_19_2_one_controller_per_row(players: int) -> None:
    rows = seating.ROLES[players]
    assert len(rows) == players
    assert sum(r.controller for r in rows) == 1


def test_19_2_role_rows_as_printed() -> None:
    assert [seating.role_title(r) for r in seating.ROLES[6]] == [
        "Axis Army Group North", "Axis Army Group Center (3PzG, 9A)", "Axis Army Group Center (4A, 2PzG)",
        "Axis Army Group South", "Soviet Leningrad & Smolensk", "Soviet Kiev"]
    assert [r.controller for r in seating.ROLES[4]] == [False, False, False, True]
    assert seating.ROLES[7][4].controller and seating.ROLES[7][4].sectors == ("leningrad",)
    assert seating.ROLES[8][4].hqs == ("11A", "Rum") and seating.ROLES[8][4].controller


def test_19_2_the_campaign_file_agrees_with_the_fact_table() -> None:
    data = campaign_data()
    words = data["multiplayer"]["roles"]
    for n, word in seating.COUNT_WORDS.items():
        assert tuple(seating.parse_role(t) for t in words[word]) == seating.ROLES[n], n


def test_19_2_parse_role_refuses_nonsense() -> None:
    with pytest.raises(ScenarioError, match="Army Group"):
        seating.parse_role("Axis Panzer Army Africa")
    with pytest.raises(ScenarioError, match="map"):
        seating.parse_role("Soviet Moscow")


# ------------------------------------------------------------ layouts
def test_standard_game_two_seats_named_after_the_sides() -> None:
    st = seating.layout(2, seating.STANDARD)
    assert [(s.name, s.side, s.roles) for s in seating.specs(st)] == [
        ("axis", "axis", ("side_commands", "sector:leningrad", "sector:smolensk", "sector:kiev")),
        ("soviet", "soviet", ("side_commands", "sector:leningrad", "sector:smolensk", "sector:kiev"))]


@pytest.mark.parametrize("players", [4, 5, 6])
def test_19_2_controller_layouts_are_valid_pbem_seats(players: int) -> None:
    st = seating.layout(players, seating.CONTROLLER)
    specs = seating.specs(st)
    validate_seats(specs)
    assert sum("controller" in s.roles for s in specs) == 1
    assert seating.controller(st) == seating.seat_name(next(r for r in seating.ROLES[players] if r.controller))


def test_19_2_six_seat_names_and_roles() -> None:
    st = seating.layout(6, seating.CONTROLLER)
    assert st.names() == ["ag_north", "ag_center_3pzg", "ag_center_4a", "ag_south",
                          "soviet_leningrad_smolensk", "soviet_kiev"]
    spec = {s.name: s for s in seating.specs(st)}
    assert spec["ag_center_4a"].roles == ("sector:smolensk", "hq:4A", "hq:2PzG")
    assert spec["soviet_kiev"].roles[0] == "controller"


@pytest.mark.parametrize("players", [7, 8, 3, 1])
def test_seat_counts_pbem_does_not_play(players: int) -> None:
    with pytest.raises(ScenarioError):
        seating.layout(players, seating.CONTROLLER)


@pytest.mark.parametrize("players", [4, 5, 6])
def test_a38_variant_layouts_have_teams_of_two_or_three_and_no_controller(players: int) -> None:
    st = seating.layout(players, seating.VARIANT)
    validate_seats(seating.specs(st))
    assert seating.controller(st) is None
    assert all(len(seating.seats_of(st, side)) in (2, 3) for side in ("axis", "soviet"))


def test_a38_variant_refuses_a_team_of_four_from_the_scenario() -> None:
    data = {"seats": {f"a{i}": {"side": "axis"} for i in range(4)} | {"s1": {"side": "soviet"},
                                                                       "s2": {"side": "soviet"}}}
    with pytest.raises(ScenarioError, match="teams of 2 or 3"):
        seating.layout(6, seating.VARIANT, data)


def test_practice_multi_seats_come_from_the_scenario() -> None:
    data = tomllib.loads((ROOT / "scenarios/ava/practice-multi.toml").read_text())
    st = seating.layout(4, seating.CONTROLLER, data)
    assert st.names() == list(data["seats"])
    assert seating.controller(st) == data["multiplayer"]["controller_seat"]
    assert seating.side_seat(st, "axis") == data["multiplayer"]["side_commands"]["axis"]
    validate_seats(seating.specs(st))
    # the same seats play the variant; the Controller's star means nothing there
    assert seating.controller(seating.layout(4, seating.VARIANT, data)) is None


def test_practice_multi_rows_give_the_sectors() -> None:
    data = tomllib.loads((ROOT / "scenarios/ava/practice-multi.toml").read_text())
    st = seating.layout(4, seating.CONTROLLER, data)
    assert seating.owner_of_hex(st, "axis", "4005") == "axis_north"
    assert seating.owner_of_hex(st, "axis", "4020") == "axis_south"
    assert seating.owner_of_hex(st, "soviet", "4013") == "soviet_north"
    assert seating.owner_of_hex(st, "soviet", "4014") == "soviet_south"


# ------------------------------------------------------------ owners
def test_a46_manstein_with_4pzg_guderian_with_2pzg() -> None:
    scn, state = campaign_like()
    for n, want in ((4, ("ag_north", "ag_center")), (6, ("ag_north", "ag_center_4a"))):
        st = seating.layout(n, seating.CONTROLLER)
        assert seating.owner_of(st, scn, state, "manstein") == want[0]
        assert seating.owner_of(st, scn, state, "guderian") == want[1]
        assert seating.owner_of(st, scn, state, "manstein") == seating.owner_of(st, scn, state, "AX-4PzG")
        assert seating.owner_of(st, scn, state, "guderian") == seating.owner_of(st, scn, state, "AX-2PzG")


def test_a46_interrupt_windows_in_seat_order() -> None:
    scn, state = campaign_like()
    st = seating.layout(6, seating.CONTROLLER)
    assert seating.interrupt_holders(st, scn, state, ["guderian", "manstein"]) == [
        ("ag_north", ("manstein",)), ("ag_center_4a", ("guderian",))]


def test_19_2_hq_chits_by_named_hq_then_by_sector() -> None:
    scn, state = campaign_like()
    st = seating.layout(6, seating.CONTROLLER)
    assert seating.owner_of(st, scn, state, "AX-3PzG-2") == "ag_center_3pzg"   # named: 3PzG
    assert seating.owner_of(st, scn, state, "AX-9A") == "ag_center_3pzg"
    assert seating.owner_of(st, scn, state, "AX-4A") == "ag_center_4a"
    # 2A is not named by 19.2: the first seat commanding its sector (A49: the team names one)
    assert seating.owner_of(st, scn, state, "AX-2A") == "ag_center_3pzg"
    assert seating.owner_of(st, scn, state, "AX-18A") == "ag_north"
    assert seating.owner_of(st, scn, state, "SU-10A") == "soviet_leningrad_smolensk"
    assert seating.owner_of(st, scn, state, "SU-26A") == "soviet_kiev"


def test_19_2_eight_players_split_army_group_south_and_the_romanians() -> None:
    scn, state = campaign_like()
    st = seating.from_roles(seating.ROLES[8])
    assert seating.owner_of(st, scn, state, "RUM-3A") == "ag_south_11a"
    assert seating.owner_of(st, scn, state, "AX-1PzG-2") == "ag_south_6a"
    assert seating.owner_of(st, scn, state, "SU-8A") == "soviet_leningrad"


def test_an_hq_chit_follows_its_hq_across_a_sector_boundary() -> None:
    scn, state = campaign_like()
    st = seating.layout(5, seating.CONTROLLER)
    state["units"]["SU-5A"]["hex"] = "S:2028"        # withdrew onto the Smolensk map
    assert seating.owner_of(st, scn, state, "SU-5A") == "soviet_leningrad_smolensk"


def test_a49_side_wide_chits_go_to_the_commanding_seat() -> None:
    scn, state = campaign_like()
    st = seating.layout(5, seating.CONTROLLER)
    assert seating.owner_of(st, scn, state, "AX-reinf") == "ag_north"
    assert seating.owner_of(st, scn, state, "AX-okh") == "ag_north"
    assert seating.owner_of(st, scn, state, "SU-reserve") == "soviet_leningrad_smolensk"
    assert seating.owner_of(st, scn, state, "supply", side="soviet") == "soviet_leningrad_smolensk"
    with pytest.raises(ValueError):
        seating.owner_of(st, scn, state, "supply")
    named = seating.layout(5, seating.CONTROLLER,
                           {"multiplayer": {"side_commands": {"axis": "ag_south", "soviet": "soviet_kiev"}}})
    assert seating.owner_of(named, scn, state, "AX-reinf") == "ag_south"
    assert seating.owner_of(named, scn, state, "supply", side="soviet") == "soviet_kiev"


def test_a49_a_named_side_commands_seat_must_play_that_side() -> None:
    with pytest.raises(ScenarioError, match="side_commands"):
        seating.layout(4, seating.CONTROLLER, {"multiplayer": {"side_commands": {"axis": "soviet"}}})


def test_a49_units_and_hexes() -> None:
    scn, state = campaign_like()
    st = seating.layout(6, seating.CONTROLLER)
    state["units"]["gd-inf"]["hex"] = "L:2020"       # 9A's formation, standing on the Leningrad map
    assert seating.owner_of(st, scn, state, "gd-inf") == "ag_center_3pzg"
    state["units"]["su-rifle"]["hex"] = "K:2222"
    assert seating.owner_of(st, scn, state, "su-rifle") == "soviet_kiev"
    assert seating.owner_of(st, scn, state, "K:2222", side="axis") == "ag_south"
    assert seating.owner_of(st, scn, state, "L:0101", side="soviet") == "soviet_leningrad_smolensk"
    with pytest.raises(ValueError):
        seating.owner_of(st, scn, state, "L:0101")


def test_a49_the_controllers_own_chits_are_his_like_any_players() -> None:
    scn, state = campaign_like()
    st = seating.layout(4, seating.CONTROLLER)
    assert seating.controller(st) == "soviet"
    assert seating.owner_of(st, scn, state, "SU-4A") == "soviet"
