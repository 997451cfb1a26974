"""*Fierce Fight!* family movement (``pbem/games/ava/movement.py``): the rule
edges the mutation check (``benchmarks/mutation.py``) found untested.  Each
test is named after the rule it reads (AVA numbers unless FFS is said);
the expected values come from the rulebooks and the rule notes, not from
the code.  Costs are in half MP, as in the state (2 = 1 MP)."""
from __future__ import annotations

from typing import Any

import pytest

import avahelp
from pbem.game import IllegalOrder
from pbem.games.ava import movement
from pbem.games.ava.board import Board
from pbem.games.ava.profile import AVA, FFS, Profile


def board(units: dict[str, dict[str, Any]], placed: dict[str, str], profile: Profile = AVA,
          **kw: Any) -> Board:
    scn = avahelp.scenario(game=profile.game, units=units, **kw)
    return Board(scn, profile, avahelp.state(scn, placed))


def axis(move: int = 10) -> dict[str, Any]:
    return avahelp.unit("axis", "foot", 3, 3, move)


def soviet(move: int = 10) -> dict[str, Any]:
    return avahelp.unit("soviet", "foot", 2, 2, move)


# --------------------------------------------------------------- 9.1 / 9.2
def test_9_1_a_move_is_a_path_from_the_units_hex():
    b = board({"u": axis()}, {"u": "1510"})
    with pytest.raises(IllegalOrder, match="a move starts in its hex 1510"):
        movement.check_move(b, "u", [])
    with pytest.raises(IllegalOrder, match="a move starts in its hex 1510"):
        movement.check_move(b, "u", ["1511", "1512"])


def test_9_1_each_step_enters_an_adjacent_hex():
    b = board({"u": axis()}, {"u": "1510"})
    with pytest.raises(IllegalOrder, match="1512 is not adjacent to 1510"):
        movement.check_move(b, "u", ["1510", "1512"])


def test_9_1_there_are_two_kinds_of_movement_only():
    b = board({"u": axis()}, {"u": "1510"})
    with pytest.raises(IllegalOrder, match="unknown movement mode 'rail'"):
        movement.check_move(b, "u", ["1510", "1511"], "rail")


# --------------------------------------------------- 15.3 / 15.4: map entry
ENTRY_UNITS = {"r": soviet(4), "g": axis()}


def test_15_3_no_entry_by_a_hex_off_the_map_or_a_lake():
    b = board(ENTRY_UNITS, {"g": "1512"}, terrain={"lake": ["2009"]})
    for h in ("2110", "2009"):
        with pytest.raises(IllegalOrder, match=f"{h} is no hex to enter the map by"):
            movement.check_move(b, "r", [h], entering=True)
        assert movement.reach(b, "r", entry=h) == {}


def test_15_3_entry_into_enemy_zoc_pays_the_zoc_cost():
    # 9.2: entering an enemy ZOC hex costs 2 MP more (the entry hex is clear: 1 MP)
    b = board({"r": soviet(6), "g": axis()}, {"g": "2012"})
    assert movement.check_move(b, "r", ["2011"], entering=True) == 6
    with pytest.raises(IllegalOrder, match="18.1"):            # a Leningrad Reserve unit may not
        movement.check_move(b, "r", ["2011"], entering=True, no_ezoc=True)


def test_9_2_entry_costing_exactly_the_allowance_is_allowed():
    # heavy woods: 2 MP for a foot unit of 2 MP
    b = board(ENTRY_UNITS, {"g": "1512"}, terrain={"heavy_woods": ["2009"]})
    assert movement.check_move(b, "r", ["2009"], entering=True) == 4
    assert movement.reach(b, "r", entry="2009") == {"2009": 4}


def test_9_2_entry_beyond_the_allowance_is_refused_naming_the_entry_hex():
    b = board({"r": soviet(2), "g": axis()}, {"g": "1512"}, terrain={"heavy_woods": ["2009"]})
    with pytest.raises(IllegalOrder, match=r"entering 2009 costs 2 MP$"):
        movement.check_move(b, "r", ["2009", "2010"], entering=True)
    assert movement.reach(b, "r", entry="2009") == {}


# ------------------------------------------------------------- FFS 3.1.3
def test_ffs_3_1_3_only_stacks_above_two_of_the_side_are_overstacked():
    units = {**{f"a{i}": axis() for i in range(5)}, **{f"s{i}": soviet() for i in range(3)}}
    placed = {"a0": "1511", "a1": "1511", "a2": "1511", "a3": "1513", "a4": "1513",
              "s0": "1520", "s1": "1520", "s2": "1520"}
    b = board(units, placed, FFS)
    assert movement.overstacked(b, "axis") == ["1511"]
    assert movement.overstacked(b, "soviet") == ["1520"]
