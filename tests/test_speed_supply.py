"""The AVD supply speed-ups change no answer.

* ``traced_sets`` (the kernel search with its tests given as sets and a
  neighbour table) reaches the same hexes at the same lengths, in the same
  order, as ``traced`` asked the same questions through callables;
* an AVD board's supply lines, remembered across boards by the sets that
  decide them, agree with a trace on a board that shares nothing, for
  positions whose units move a few at a time (as they do in a game) and
  both sides;
* boards of one position share what follows from where the units stand, and
  a board keeps the position it was made on while the state moves on.
"""
from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings

from pbem.board import supply as ksupply
from pbem.games.avd import supply
from pbem.games.avd.board import Board
from pbem.games.avd.model import GERMAN, SOVIET
from avd_fixtures import practice_rules
from supplyhelp import searches, walk as _walk


@settings(max_examples=150, deadline=None)
@given(searches())
def test_traced_sets_is_traced_with_the_same_tests(search):
    g, blocked, stops, walls, sources = search
    usable = [s for s in sources if s not in blocked and s not in stops]
    adjacency = {h: [n for n in g.neighbors(h) if (h, n) not in walls] for h in g.hexes()}
    got = ksupply.traced_sets(usable, adjacency, blocked, stops)
    want = ksupply.traced(sources, g.neighbors, lambda a, b: b not in blocked and (a, b) not in walls,
                          can_pass=lambda h: h not in stops,
                          usable=lambda s: s not in blocked and s not in stops)
    assert got == want and list(got) == list(want)


def _reference(rules, st_, side: str) -> dict[str, int]:
    """The same trace on a board of its own: nothing shared, nothing kept
    (``tests/test_avd_speed_caches.py`` checks that against a trace from the
    board's own questions)."""
    return supply.supplied_hexes(Board(rules.scn, copy.deepcopy(st_)), side)


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_supply_lines_kept_across_boards_match_a_fresh_trace(seed):
    seen = []
    for rules, st_ in _walk(seed, 25):
        seen.append(copy.deepcopy(st_))
        for side in (GERMAN, SOVIET):
            assert supply.supplied_hexes(rules.board(st_), side) == _reference(rules, st_, side)
    for st_ in seen[::-3]:                  # positions met again are served from memory
        for side in (GERMAN, SOVIET):
            assert supply.supplied_hexes(rules.board(st_), side) == _reference(rules, st_, side)


def test_a_board_keeps_the_position_it_was_made_on():
    rules = practice_rules()
    st_ = rules.initial_state()
    shared: dict = {}
    before = Board(rules.scn, st_, shared)
    uid = next(u for u in sorted(st_["units"]) if st_["units"][u]["where"] == "map")
    was = st_["units"][uid]["hex"]
    st_["units"][uid]["hex"] = next(h for h in before.grid.hexes() if h != was and not before.units_at(h))
    after = Board(rules.scn, st_, shared)
    assert uid in before.units_at(was) and uid not in after.units_at(was)
    fresh = Board(rules.scn, st_)
    for side in (GERMAN, SOVIET):
        assert after.units_of(side) == fresh.units_of(side) and after.zoc(side) == fresh.zoc(side)
    assert after.positions == fresh.positions != before.positions
    st_["units"][uid]["hex"] = was
    again = Board(rules.scn, st_, shared)
    assert again._ix is before._ix                 # the same position: one index
    got = again.units_of(GERMAN)
    got.append("x")                                 # callers get their own lists
    assert "x" not in before.units_of(GERMAN)
