"""A new position made by moving a few units works out its enemy-occupied
hexes, its ZOCs and its combat units' hexes from the position before's,
looking again only at the hexes units left or entered (``board._Before``).
Here units of the practice scenario move at random, one to four at a time,
onto the map, off it, onto hexes already held and onto a hex off the grid,
and every set is compared with the one a board without any kept position
works out from scratch."""
from __future__ import annotations

import copy
import random

import pytest

from pbem.games.avd.board import Board
from pbem.games.avd.model import GERMAN, SOVIET
from avd_fixtures import practice_rules

SIDES = (GERMAN, SOVIET)


def _ask(b: Board, order: list[str]) -> dict[str, object]:
    """Each side's sets, asked in ``order`` (which a position finds kept
    by the one before depends on what was asked of that one)."""
    out: dict[str, object] = {}
    for what in order:
        kind, side = what.split()
        out[what] = b.hexes_with(side) if kind == "with" else b.zoc(side) if kind == "zoc" else b._combat_at(side)
    return out


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_sets_from_the_position_before_are_the_sets_from_scratch(seed):
    rules = practice_rules()
    st = rules.initial_state()
    rng = random.Random(seed)
    grid_hexes = sorted(Board(rules.scn, st).grid.hexes())
    uids = sorted(st["units"])
    shared: dict = {}
    derived = 0
    for _ in range(150):
        for uid in rng.sample(uids, rng.randint(1, 4)):
            u = st["units"][uid]
            roll = rng.random()
            if roll < 0.1:
                u["where"] = "removed"              # off the map (its hex left as it was)
            elif roll < 0.13:
                u["where"], u["hex"] = "map", "9999"    # well formed, off the grid
            else:
                held = [h for h in (x["hex"] for x in st["units"].values() if x["where"] == "map") if h]
                pool = held if held and roll < 0.4 else grid_hexes
                u["where"], u["hex"] = "map", rng.choice(pool)
        order = [f"{k} {s}" for k in ("with", "zoc", "at") for s in SIDES]
        rng.shuffle(order)
        order = order[:rng.randint(0, len(order))]  # some sets never asked of some positions
        b = Board(rules.scn, st, shared)
        derived += b._ix.before is not None
        got = _ask(b, order)
        fresh = Board(rules.scn, copy.deepcopy(st))
        assert got == _ask(fresh, order)
        assert b.units_of(GERMAN) == fresh.units_of(GERMAN)
    assert derived >= 140
