"""Shared by the supply speed tests (tests/test_speed_supply.py,
tests/test_avd_speed_reach.py): random kernel searches, and positions of
the AVD practice set-up whose units move a few at a time."""
from __future__ import annotations

import random

from hypothesis import strategies as st

from pbem.board.hexgrid import OFFSETS, HexGrid
from avd_fixtures import practice_rules


@st.composite
def searches(draw):
    g = HexGrid(1, draw(st.integers(1, 7)), 1, draw(st.integers(1, 7)), draw(st.sampled_from(OFFSETS)))
    hexes = g.hexes()
    blocked = {h for h in hexes if draw(st.integers(0, 5)) == 0}
    stops = {h for h in hexes if draw(st.integers(0, 4)) == 0}
    walls = {(a, b) for a in hexes for b in g.neighbors(a) if draw(st.integers(0, 9)) == 0}
    sources = [h for h in hexes if draw(st.integers(0, 6)) == 0]
    return g, blocked, stops, walls, sources


def walk(seed: int, steps: int):
    """Positions of the practice set-up whose units move one or two at a
    time, sometimes into an enemy's ZOC or off the map, sometimes back."""
    rules = practice_rules()
    r = random.Random(seed)
    st_ = rules.initial_state()
    hexes = rules.board(st_).grid.hexes()
    units = sorted(st_["units"])
    for _ in range(steps):
        for u in r.sample(units, r.choice([1, 2])):
            x = st_["units"][u]
            if r.random() < 0.15:
                x["where"], x["hex"] = "reserve", None
            else:
                x["where"], x["hex"] = "map", r.choice(hexes)
        st_["turn"] = r.choice([2, 4, 5])
        yield rules, st_
