"""The membership-only supply search changes no answer.

* ``reached_sets`` (ring by ring with set operations) reaches exactly the
  hexes ``traced_sets`` reaches, with the same tests, and ``reached_bits``
  (ring by ring with the sets as bits) those ``reached_sets`` reaches;
* an AVD board's ``reached_hexes``, kept across boards by the sets that
  decide them, are the keys of a fresh ``supplied_hexes`` on a board that
  shares nothing, for positions whose units move a few at a time.
"""
from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.board import supply as ksupply
from pbem.games.avd import supply
from pbem.games.avd.board import Board
from pbem.games.avd.model import GERMAN, SOVIET
from supplyhelp import searches, walk as _walk   # random searches; positions whose units move a few at a time


def _kernel_search(search, stopped_sources):
    """(usable sources, adjacency, blocked, stops) of a random search."""
    g, blocked, stops, walls, sources = search
    # The kernel passes through a source even in ``stops`` or ``blocked``
    # (the AVD caller leaves such sources out; the kernel must agree anyway).
    usable = sources if stopped_sources else [s for s in sources if s not in blocked and s not in stops]
    adjacency = {h: [n for n in g.neighbors(h) if (h, n) not in walls] for h in g.hexes()}
    return usable, adjacency, blocked, stops


@settings(max_examples=200, deadline=None)
@given(searches(), st.booleans())
def test_reached_sets_are_the_hexes_traced_sets_reaches(search, stopped_sources):
    usable, adjacency, blocked, stops = _kernel_search(search, stopped_sources)
    want = ksupply.traced_sets(usable, adjacency, blocked, stops)
    assert ksupply.reached_sets(usable, adjacency, blocked, stops) == set(want)


@settings(max_examples=200, deadline=None)
@given(searches(), st.booleans())
def test_reached_bits_are_the_hexes_reached_sets_reaches(search, stopped_sources):
    usable, adjacency, blocked, stops = _kernel_search(search, stopped_sources)
    bits = ksupply.HexBits(adjacency)
    got = ksupply.reached_bits(bits.bits(usable), bits, bits.bits(blocked), bits.bits(stops))
    assert bits.hexes_of(got) == ksupply.reached_sets(usable, adjacency, blocked, stops)
    assert bits.hexes_of(bits.bits(blocked)) == blocked


@pytest.mark.parametrize("seed", [21, 22])
def test_reached_hexes_are_the_supplied_hexes(seed):
    seen = []
    for rules, st_ in _walk(seed, 25):
        seen.append(copy.deepcopy(st_))
        for side in (GERMAN, SOVIET):
            fresh = supply.supplied_hexes(Board(rules.scn, copy.deepcopy(st_)), side)
            assert supply.reached_hexes(rules.board(st_), side) == set(fresh)
            assert supply.reached_hexes(rules.board(st_), side, 5) == \
                set(supply.supplied_hexes(Board(rules.scn, copy.deepcopy(st_)), side, 5))
    for st_ in seen[::-3]:                  # positions met again are served from memory
        for side in (GERMAN, SOVIET):
            fresh = supply.supplied_hexes(Board(rules.scn, copy.deepcopy(st_)), side)
            assert supply.reached_hexes(rules.board(st_), side) == set(fresh)
