"""Activation (AVA 8, 15.1, 17.5; FFS 8): TC-01 to TC-03 of the AVA notes,
command range as a search around prohibited hexsides, the nationality rule,
the Surprise Attack's formation rule and the optional mech limit."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

import avahelp
from pbem.board.hexgrid import side_key
from pbem.game import IllegalOrder
from pbem.games.ava import activation
from pbem.games.ava.board import Board
from pbem.games.ava.profile import AVA, FFS, Profile

FAST = settings(max_examples=60, deadline=None)


def board(units: dict[str, dict[str, Any]], placed: dict[str, str], profile: Profile = AVA,
          **kw: Any) -> Board:
    scn = avahelp.scenario(game=profile.game, units=units, **kw)
    return Board(scn, profile, avahelp.state(scn, placed))


def sov(kind: str = "foot", **kw: Any) -> dict[str, Any]:
    return avahelp.unit("soviet", kind, 2, 2, 8, **kw)


def ger(kind: str = "foot", **kw: Any) -> dict[str, Any]:
    return avahelp.unit("axis", kind, 3, 3, 8, **kw)


# ---------------------------------------------------------------- TC-01
def test_tc01_8_2_range_four_reaches_four_hexes_not_five() -> None:
    units = {"hq": sov("hq"), "at4": sov(), "at5": sov(), "g": ger(), "g2": ger()}
    # 1510 -> 1514 is 4 hexes down the column; an enemy unit and its ZOC and a
    # major river lie across the way and change nothing (8.2).
    b = board(units, {"hq": "1510", "at4": "1514", "at5": "1515", "g": "1512", "g2": "1612"},
              hexsides={"major_river": ["1512|1513", "1612|1613", "1412|1413"]})
    assert activation.activated_by(b, "hq") == ["hq", "at4"]


def test_tc01_8_2_range_is_counted_around_a_prohibited_hexside() -> None:
    units = {"hq": sov("hq"), "u": sov()}
    # All-sea hexsides along 1510's southern half: 1513, three hexes down the column,
    # is five hexes round them (by 1410 1411 1511 1512, or the eastern twin).
    closed = {"prohibited": ["1510|1511", "1510|1611", "1510|1411"]}
    b = board(units, {"hq": "1510", "u": "1513"}, hexsides=closed)
    assert activation.range_hexes(b, "hq")["1511"] == 3
    assert activation.activated_by(b, "hq") == ["hq"]
    near = board(units, {"hq": "1510", "u": "1512"}, hexsides=closed)
    assert activation.activated_by(near, "hq") == ["hq", "u"]


def test_tc01_8_2_range_does_not_enter_a_lake() -> None:
    units = {"hq": sov("hq"), "u": sov()}
    b = board(units, {"hq": "1510", "u": "1512"}, terrain={"lake": ["1511", "1611", "1411", "1612", "1412"]})
    # 1512 is two hexes away, six round the lake (1610 1710 1711 1712 1613 1512).
    assert "1511" not in activation.range_hexes(b, "hq") and "1512" not in activation.range_hexes(b, "hq")
    assert activation.activated_by(b, "hq") == ["hq"]


# ---------------------------------------------------------------- TC-02, TC-03
def test_tc02_8_2_activation_example_27th_army() -> None:
    units = {"27a": sov("hq"), "11a": sov("hq"), "11r": sov(), "16r": sov(), "188r": sov(),
             "292r": sov(), "11mot": sov("mech"), "179r": sov()}
    placed = {"27a": "1510", "11a": "1512", "11r": "1511", "16r": "1513", "188r": "1610",
              "292r": "1514", "11mot": "1515", "179r": "2010"}
    b = board(units, placed)
    assert activation.activated_by(b, "27a") == ["27a", "11r", "16r", "188r", "292r"]


def test_tc03_8_2_18th_army_activates_all_five_and_itself() -> None:
    units = {"18a": ger("hq"), "36mot": ger("mech"), "291i": ger(), "21i": ger(), "251i": ger(), "217i": ger()}
    placed = {"18a": "1510", "36mot": "1511", "291i": "1512", "21i": "1610", "251i": "1410", "217i": "1514"}
    b = board(units, placed)
    active = activation.activated_by(b, "18a")
    assert active[0] == "18a" and set(active) == set(units)


# ---------------------------------------------------------------- 8.1, 8.3, 13.2
def test_8_3_axis_hq_activates_its_own_nationality_only() -> None:
    units = {"ghq": ger("hq"), "rhq": ger("hq", nationality="rum"), "g": ger(), "r": ger(nationality="rum"),
             "s": sov()}
    b = board(units, {"ghq": "1510", "rhq": "1610", "g": "1511", "r": "1611", "s": "1512"})
    assert activation.activated_by(b, "ghq") == ["ghq", "g"]
    assert activation.activated_by(b, "rhq") == ["rhq", "r"]


def test_8_1_soviet_hq_activates_every_soviet_unit_whatever_formation() -> None:
    units = {"hq": sov("hq"), "a": sov(formation="other"), "b": sov("mech", formation="hq")}
    b = board(units, {"hq": "1510", "a": "1511", "b": "1512"})
    assert activation.activated_by(b, "hq") == ["hq", "a", "b"]


def test_13_2_hq_off_the_map_activates_nothing() -> None:
    b = board({"hq": sov("hq"), "a": sov()}, {"a": "1511"})
    assert activation.activated_by(b, "hq") == []


# ---------------------------------------------------------------- 15.1
def test_15_1_surprise_attack_activates_the_formation_only() -> None:
    units = {"3pzg": ger("hq"), "7pz": ger("mech", formation="3pzg"), "inf": ger(formation="9a"),
             "far": ger("mech", formation="3pzg")}
    b = board(units, {"3pzg": "1510", "7pz": "1511", "inf": "1512", "far": "1520"})
    assert activation.activated_by(b, "3pzg", surprise=True) == ["3pzg", "7pz"]
    assert activation.activated_by(b, "3pzg") == ["3pzg", "7pz", "inf"]


# ---------------------------------------------------------------- FFS 8.2 (TC-04 in test_ffs_movement.py)
def test_ava_8_2_every_hq_has_range_four_whatever_is_printed() -> None:
    b = board({"hq": sov("hq", command_range=2), "u": sov()}, {"hq": "1510", "u": "1514"})
    assert activation.activated_by(b, "hq") == ["hq", "u"]


# ---------------------------------------------------------------- 17.2 helper
def test_17_2_in_command_range_of_another_hq() -> None:
    units = {"hq": sov("hq"), "u": sov(), "v": sov()}
    b = board(units, {"hq": "1510", "u": "1514", "v": "1516"})
    assert activation.in_command_range(b, "u") and not activation.in_command_range(b, "v")
    assert not activation.in_command_range(b, "hq")


# ---------------------------------------------------------------- 17.5
def test_17_5_german_hq_activates_at_most_ten_mech() -> None:
    units: dict[str, dict[str, Any]] = {"pzg": ger("hq"), "inf": ger()}
    hexes = ["1511", "1512", "1513", "1610", "1611", "1612", "1410", "1411", "1412", "1509", "1508", "1609"]
    placed = {"pzg": "1510", "inf": "1514"}
    for i, h in enumerate(hexes):
        units[f"m{i:02d}"] = ger("mech")
        placed[f"m{i:02d}"] = h
    b = board(units, placed)
    active = activation.activated_by(b, "pzg")
    offered = activation.mech_choice(b, "pzg", active)
    assert len(offered) == 12
    chosen = offered[:10]
    kept = activation.apply_mech_choice(b, "pzg", active, chosen)
    assert set(kept) == {"pzg", "inf", *chosen}
    with pytest.raises(IllegalOrder, match="at most 10"):
        activation.apply_mech_choice(b, "pzg", active, offered[:11])


def test_17_5_no_choice_for_ten_or_for_soviet_hqs() -> None:
    units = {"hq": sov("hq"), **{f"m{i}": sov("mech") for i in range(11)}}
    hexes = ["1511", "1512", "1513", "1610", "1611", "1612", "1410", "1411", "1412", "1509", "1508"]
    b = board(units, {"hq": "1510", **{f"m{i}": h for i, h in enumerate(hexes)}})
    active = activation.activated_by(b, "hq")
    assert len(active) == 12 and activation.mech_choice(b, "hq", active) == []


# ---------------------------------------------------------------- properties
SMALL = {"cols": (10, 15), "rows": (1, 7)}


@st.composite
def maps(draw: Any) -> tuple[Board, str]:
    scn0 = avahelp.scenario(**SMALL)
    grid = scn0.map.grid
    sides = sorted({side_key(a, c) for a in grid.hexes() for c in grid.neighbors(a)})
    closed = [k for k in sides if draw(st.integers(0, 4)) == 0]
    hq_hex = draw(st.sampled_from(grid.hexes()))
    b = board({"hq": sov("hq")}, {"hq": hq_hex}, hexsides={"prohibited": closed}, **SMALL)
    return b, hq_hex


def _path_exists(b: Board, a: str, c: str, limit: int) -> bool:
    """Bellman-Ford over open hexsides, independent of the kernel."""
    dist = {a: 0}
    for _ in range(limit):
        for h, d in list(dist.items()):
            for n in b.map.neighbors(h):
                if not b.map.prohibited(h, n) and d + 1 < dist.get(n, 99):
                    dist[n] = d + 1
    return dist.get(c, 99) <= limit


@FAST
@given(maps())
def test_property_range_never_counts_through_a_prohibited_hexside(m: tuple[Board, str]) -> None:
    b, hq_hex = m
    rng = activation.range_hexes(b, "hq")
    for h in b.map.grid.hexes():
        assert (h in rng) == _path_exists(b, hq_hex, h, 4)
        if h in rng:
            assert rng[h] >= b.map.distance(hq_hex, h)


@FAST
@given(st.sampled_from(avahelp.scenario(**SMALL).map.grid.hexes()))
def test_property_open_map_range_is_hex_distance(hq_hex: str) -> None:
    b = board({"hq": sov("hq")}, {"hq": hq_hex}, **SMALL)
    assert set(activation.range_hexes(b, "hq")) == {h for h in b.map.grid.hexes()
                                                    if b.map.distance(hq_hex, h) <= 4}
