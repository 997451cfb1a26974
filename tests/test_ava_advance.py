"""Advance after combat (AVA 10.7; FFS 10.7 where it differs).  Test
names carry the case ids of ava.md and ff-smolensk.md section 6."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from pbem.game import IllegalOrder
from pbem.games.ava import advance
from pbem.games.ava.board import Board
from pbem.games.ava.profile import AVA, FFS, Profile
from tests import avahelp

U = avahelp.unit


def board(units: dict[str, dict[str, Any]], placed: dict[str, str], *, profile: Profile = AVA,
          **kw: Any) -> Board:
    scn = avahelp.scenario(units=units, game=profile.game, **kw)
    return Board(scn, profile, avahelp.state(scn, placed))


def seconds(paths: list[list[str]]) -> set[str]:
    return {p[1] for p in paths if len(p) == 2}


# The rulebook's example after the 179th Rifle retreated 1624-1625 (10.7): 1523 vacated, 1624 heavy
# woods; 36th Mot in 1522, 21st and 217th Inf in 1423 and 1424 across minor rivers.
EXAMPLE_UNITS = {"36mot": U("axis", "mech", 5, 5, 10), "21inf": U("axis", "foot", 3),
                 "217inf": U("axis", "foot", 3), "179r": U("soviet", "foot", 2)}


def example(profile: Profile = AVA, *, placed: dict[str, str] | None = None) -> Board:
    where = placed or {"36mot": "1522", "21inf": "1423", "217inf": "1424", "179r": "1625"}
    return board(EXAMPLE_UNITS, where, profile=profile, terrain={"heavy_woods": ["1624"]},
                 hexsides={"minor_river": ["1423|1523", "1424|1523"]})


def test_tc18_10_7_advance_example():
    b = example()
    assert advance.options(b, "21inf", "1523") == [["1523"]]
    assert advance.options(b, "217inf", "1523") == [["1523"]]
    mech = advance.options(b, "36mot", "1523")
    assert ["1523"] in mech and ["1523", "1624"] in mech      # heavy woods as the second hex
    assert "1522" not in seconds(mech)                         # not back into its own hex
    # after both infantry have advanced, 1523 is full but the 36th may still pass through it
    done = example(placed={"36mot": "1522", "21inf": "1523", "217inf": "1523", "179r": "1625"})
    mech = advance.options(done, "36mot", "1523")
    assert ["1523"] not in mech and ["1523", "1624"] in mech   # ends next to 1625: ZOC ignored
    advance.check(done, "36mot", "1523", ["1523", "1624"])
    with pytest.raises(IllegalOrder, match="one hex"):
        advance.check(b, "21inf", "1523", ["1523", "1524"])


@pytest.mark.parametrize("terrain,city", [("light_woods", None), ("heavy_woods", None), ("marsh", None),
                                          ("mountain", None), ("plains", "city"), ("plains", "major_city")])
def test_tc26_10_7_limiting_first_hex_stops_a_mech_advance(terrain, city):
    units = {"m": U("axis", "mech", 5, 5, 10)}
    kw: dict[str, Any] = {"terrain": {terrain: ["1523"]} if terrain != "plains" else {},
                          "cities": {city: ["1523"]} if city else {},
                          "roads": {"r": ["1522", "1523"]}}        # a road: mountain entry allowed
    assert advance.options(board(units, {"m": "1522"}, **kw), "m", "1523") == [["1523"]]


@pytest.mark.parametrize("river", ["minor_river", "major_river"])
def test_tc26_a51_any_river_stops_a_mech_advance_bridged_or_not(river):
    units = {"m": U("axis", "mech", 5, 5, 10)}
    b = board(units, {"m": "1522"}, hexsides={river: ["1522|1523"]}, roads={"r": ["1522", "1523"]})
    assert advance.options(b, "m", "1523") == [["1523"]]
    # 15.1 / notes A17: the Surprise Attack ignores rivers
    assert seconds(advance.options(b, "m", "1523", surprise=True))


def test_tc26_10_7_plains_first_hex_any_second_hex():
    units = {"m": U("axis", "mech", 5, 5, 10)}
    b = board(units, {"m": "1522"}, terrain={"marsh": ["1524"], "light_woods": ["1623"]},
              cities={"major_city": ["1424"]}, hexsides={"minor_river": ["1523|1624"]})
    assert seconds(advance.options(b, "m", "1523")) == {"1524", "1623", "1624", "1423", "1424"}


def test_10_7_barred_hexes_and_enemy_units():
    units = {"m": U("axis", "mech", 5, 5, 10), "s1": U("soviet", "foot", 1), "s2": U("soviet", "foot", 1),
             "g1": U("axis", "foot", 1), "g2": U("axis", "foot", 1)}
    b = board(units, {"m": "1522", "s1": "1524", "g1": "1424", "g2": "1424"},
              terrain={"lake": ["1623"]}, hexsides={"prohibited": ["1523|1624"]}, off_map=["1423"])
    # 1524 enemy, 1623 lake, 1624 across a prohibited hexside, 1423 off the map, 1424 full
    assert advance.options(b, "m", "1523") == [["1523"]]
    held = board(units, {"m": "1522", "s2": "1523"})
    assert advance.options(held, "m", "1523") == []           # not vacated


def test_2_1_a6_soviet_advance_never_crosses_the_start_line():
    units = {"s": U("soviet", "mech", 5, 5, 10)}
    kw: dict[str, Any] = {"hexsides": {"start_line": ["1522|1523"]}}
    assert advance.options(board(units, {"s": "1522"}, **kw), "s", "1523") == []
    assert advance.options(board(units, {"s": "1522"}, profile=FFS, **kw), "s", "1523")


# ------------------------------------------------------------------ FFS
def test_td14_10_7_5_ffs_second_hex_must_be_clear_too():
    b = example(FFS)
    mech = advance.options(b, "36mot", "1523")
    assert ["1523", "1624"] not in mech and seconds(mech) == {"1524", "1623"}
    b2 = board({"m": U("axis", "mech", 5, 5, 10)}, {"m": "1522"}, profile=FFS,
               cities={"city": ["1524"]}, hexsides={"minor_river": ["1523|1623"]})
    assert seconds(advance.options(b2, "m", "1523")) == {"1423", "1424", "1624"}


def test_td15_10_7_5_attack_across_a_river_stops_after_one_hex():
    for profile in (AVA, FFS):
        b = example(profile)
        b.unit("36mot")["hex"] = "1424"       # the mech attacked across the 1424|1523 minor river
        b = Board(b.scn, profile, b.state)
        assert advance.options(b, "36mot", "1523") == [["1523"]]


# ------------------------------------------------------------ properties
@settings(max_examples=60, deadline=None)
@given(st.sampled_from([AVA, FFS]), st.sampled_from(["mech", "foot", "hq"]),
       st.sampled_from(["plains", "light_woods", "marsh"]), st.booleans(), st.booleans())
def test_property_advance_paths_start_at_the_vacated_hex_and_respect_the_limits(profile, kind, terrain,
                                                                               river, city):
    b = board({"u": U("axis", kind, 4, 4, 10)}, {"u": "1522"}, profile=profile,
              terrain={terrain: ["1523"]} if terrain != "plains" else {},
              cities={"city": ["1523"]} if city else {},
              hexsides={"minor_river": ["1522|1523"] if river else []})
    paths = advance.options(b, "u", "1523")
    assert paths and all(p[0] == "1523" and 1 <= len(p) <= 2 for p in paths)
    if kind != "mech" or river or city or terrain != "plains":
        assert paths == [["1523"]]
