"""Hexes with several terrain types (pbem/board/terrain.py)."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from pbem.board.terrain import best_for_defender, combat_terrain, defender_choices, effective, entry_cost

COST = {"clear": 2, "forest": 4, "swamp": 6, "city": 2, "sea": None}
RANK = {"clear": 0, "forest": 2, "swamp": 1, "city": 2, "sea": 0}
SNOW = {"swamp": "forest"}
types = st.lists(st.sampled_from(sorted(COST)), min_size=1, max_size=4)


def test_highest_cost_and_sea_part():
    assert entry_cost(["clear", "forest"], COST.get) == 4
    assert entry_cost(["clear", "sea"], COST.get) == 2
    assert entry_cost(["sea"], COST.get) is None
    assert entry_cost(["swamp", "clear"], COST.get, SNOW) == 4


def test_defender_picks():
    assert defender_choices(["clear", "forest", "sea"], excluded=["sea"]) == ("clear", "forest")
    assert combat_terrain(["forest"], None) == "forest"
    assert combat_terrain(["swamp", "clear"], "swamp", SNOW) == "forest"
    with pytest.raises(ValueError):
        combat_terrain(["clear", "forest"], None)
    with pytest.raises(ValueError):
        combat_terrain(["clear", "forest"], "swamp")
    assert best_for_defender(["city", "forest"], RANK.__getitem__) == "city"   # tie: first listed


@given(types)
def test_entry_cost_is_the_max_of_the_enterable(ts):
    costs = [COST[t] for t in ts if COST[t] is not None]
    assert entry_cost(ts, COST.get) == (max(costs) if costs else None)


@given(types, st.randoms())
def test_order_never_changes_cost(ts, rnd):
    shuffled = list(ts)
    rnd.shuffle(shuffled)
    assert entry_cost(ts, COST.get, SNOW) == entry_cost(shuffled, COST.get, SNOW)
    assert set(defender_choices(ts, SNOW)) == set(defender_choices(shuffled, SNOW))


@given(types)
def test_every_choice_is_accepted_and_best_is_a_choice(ts):
    options = defender_choices(ts, SNOW, excluded=["sea"])
    for o in options:
        assert combat_terrain(ts, o, SNOW, excluded=["sea"]) == o
    assert best_for_defender(ts, RANK.__getitem__, SNOW, ["sea"]) in options
    assert "swamp" not in effective(ts, SNOW)
