"""The supply search's structures made from the grid's shape change no
answer.

* ``HexBits.of_grid`` (step masks of the grid, walls taken out bit by bit)
  is ``HexBits`` of the neighbour table with the walled neighbours left
  out, on every offset convention, with walls between neighbours, between
  hexes that are not neighbours and off the grid;
* the neighbour table, worked out a line of hexes at a time, lists the
  grid's hexes in id order;
* an AVD board's ``traces_supply`` and ``isolated_units``, read from the
  search's bits, say what membership of ``reached_hexes`` says.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.board import supply as ksupply
from pbem.board.hexgrid import OFFSETS, HexGrid
from pbem.games.avd import supply
from pbem.games.avd.model import GERMAN, SOVIET
from supplyhelp import searches, walk


@settings(max_examples=200, deadline=None)
@given(searches(), st.data())
def test_of_grid_is_hexbits_of_the_walled_table(search, data):
    g, _, _, walls, _ = search
    hexes = g.hexes()
    anywhere = st.builds(lambda c, r: f"{c:02d}{r:02d}", st.integers(0, 99), st.integers(0, 99))
    walls = walls | set(data.draw(st.lists(st.tuples(anywhere, anywhere), max_size=4)))
    table = g.neighbor_table()
    want = ksupply.HexBits({h: tuple(b for b in table[h] if (h, b) not in walls) for h in hexes})
    got = ksupply.HexBits.of_grid(g, walls)
    assert got.hexes == want.hexes and got.index == want.index
    assert {d: m for d, m in got.moves if m} == dict(want.moves)


@pytest.mark.parametrize("offset", OFFSETS)
def test_neighbor_table_lists_the_hexes_in_id_order(offset):
    for g in (HexGrid(15, 40, 1, 32, offset), HexGrid(3, 3, 7, 9, offset), HexGrid(0, 4, 0, 0, offset)):
        assert list(g.neighbor_table()) == g.hexes()


@pytest.mark.parametrize("seed", [23, 24])
def test_traces_supply_and_isolation_read_the_reached_hexes(seed):
    for rules, st_ in walk(seed, 12):
        b = rules.board(st_)
        for side in (GERMAN, SOVIET):
            for turn in (None, 5):
                reached = supply.reached_hexes(b, side, turn)
                for h in [*b.grid.hexes()[::7], "0000", "9999", "x"]:
                    assert supply.traces_supply(b, side, h, turn) == (h in reached)
                t = b.turn if turn is None else turn
                if side == GERMAN and t == 1:
                    continue
                assert supply.isolated_units(b, side, turn) == \
                    {u for u in b.units_of(side) if b.is_combat(u) and b.hex_of(u) not in reached}
