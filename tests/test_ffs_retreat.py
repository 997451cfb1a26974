"""FFS retreats (10.6): where they part from AVA (any major river on a
later hex, the fewest-EZOC priority, no start line).  Test names carry the
case ids of ff-smolensk.md section 6."""
from __future__ import annotations

from typing import Any

from pbem.games.ava import retreat
from pbem.games.ava.board import Board
from pbem.games.ava.profile import AVA, FFS, Profile
from tests import avahelp
from tests.avaretreat import CORRIDOR, example, towards

U = avahelp.unit


def board(units: dict[str, dict[str, Any]], placed: dict[str, str], *, profile: Profile = FFS,
          steps: dict[str, int] | None = None, **kw: Any) -> Board:
    scn = avahelp.scenario(units=units, game=profile.game, **kw)
    return Board(scn, profile, avahelp.state(scn, placed, steps=steps))


def test_tc16_10_4_2_r_on_a_stack_of_two():
    units = {"p": U("soviet", "foot", 2), "q": U("soviet", "foot", 2), "g": U("axis", "foot", 1)}
    b = board(units, {"p": "1510", "q": "1510", "g": "1409"})
    opts = retreat.options(b, ["p", "q"], 1, loc_distance=towards(b, "1530"))
    for u in ("p", "q"):                   # both retreat one hex, each where its owner likes
        assert opts.paths[u] and all(len(p.hexes) == 1 and p.steps == 0 for p in opts.paths[u])
    # 1409's ZOC covers 1410 and 1509, so neither is among the best hexes
    assert not {p.hexes[0] for p in opts.paths["p"]} & {"1410", "1509"}


def test_tc16_10_6_2_no_legal_hex_eliminates():
    units = {"d": U("soviet", "foot", 2), **{f"g{i}": U("axis", "foot", 1) for i in range(6)}}
    around = ["1509", "1511", "1410", "1411", "1610", "1611"]
    b = board(units, {"d": "1510", **{f"g{i}": h for i, h in enumerate(around)}})
    assert retreat.options(b, ["d"], 1, loc_distance=towards(b, "1530")).eliminated() == ["d"]


def test_td12_10_6_3_the_one_ezoc_route_is_forced_and_costs_a_step():
    units = {"d": U("soviet", "foot", 2), "g": U("axis", "foot", 1)}
    walls = {"prohibited": ["1522|1523", "1423|1523", "1424|1523", "1523|1623", "1523|1624"]}
    b = board(units, {"d": "1523", "g": "1425"}, hexsides=walls)
    paths = retreat.options(b, ["d"], 2, loc_distance=towards(b, "1530")).paths["d"]
    assert paths and {p.steps for p in paths} == {1}
    reduced = board(units, {"d": "1523", "g": "1425"}, hexsides=walls, steps={"d": 1})
    assert retreat.options(reduced, ["d"], 2, loc_distance=towards(b, "1530")).eliminated() == ["d"]


def test_td13_10_6_2_any_major_river_on_the_second_hex_eliminates():
    units = {"d": U("soviet", "foot", 2)}
    kw: dict[str, Any] = dict(hexsides={"prohibited": CORRIDOR, "major_river": ["1511|1512"]},
                              roads={"r": ["1511", "1512"]})
    ffs = board(units, {"d": "1510"}, **kw)
    assert retreat.options(ffs, ["d"], 2, loc_distance=towards(ffs, "1530")).eliminated() == ["d"]
    ava = board(units, {"d": "1510"}, profile=AVA, **kw)      # AVA 10.6(3): the bridge saves it
    assert [p.hexes for p in retreat.options(ava, ["d"], 2, loc_distance=towards(ava, "1530")).paths["d"]] \
        == [("1511", "1512")]


def test_td26_10_6_4_a_full_hex_sends_the_unit_on():
    units = {"d": U("soviet", "foot", 2), "f1": U("soviet", "foot", 1), "f2": U("soviet", "foot", 1),
             "g": U("axis", "foot", 1)}
    b = board(units, {"d": "1510", "f1": "1511", "f2": "1511", "g": "1413"},
              hexsides={"prohibited": CORRIDOR[:5]})
    paths = retreat.options(b, ["d"], 1, loc_distance=towards(b, "1530")).paths["d"]
    assert paths and all(p.hexes[0] == "1511" and p.extra == 1 for p in paths)
    # the ZOC of 1413 still costs: 1412 is in it, so the extension avoids it
    assert all(p.hexes[1] != "1412" for p in paths)


def test_tc17_10_6_5_rulebook_example_under_ffs_priorities():
    b = example(FFS)
    paths = retreat.options(b, ["179r"], 2, loc_distance=towards(b, "1630")).paths["179r"]
    # fewest EZOC hexes first; every free end traces a LOC, so the owner picks among them
    assert ("1624", "1625") in [p.hexes for p in paths]
    assert all(p.steps == 0 and p.hexes[0] == "1624" for p in paths)


def test_10_6_5_closer_to_a_hex_that_traces_a_loc():
    b = example(FFS)
    # only 1724 traces a LOC: the free route ending there wins
    paths = retreat.options(b, ["179r"], 2, loc_distance=lambda h: 4 if h == "1724" else None).paths["179r"]
    assert [p.hexes for p in paths] == [("1624", "1724")]
    # only 1726 does: the free routes ending next to it (1625, 1725 are out of reach) tie
    paths = retreat.options(b, ["179r"], 2, loc_distance=lambda h: 4 if h == "1726" else None).paths["179r"]
    assert sorted(p.hexes for p in paths) == [("1624", "1625"), ("1624", "1724")]
