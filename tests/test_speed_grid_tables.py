"""The grid's tables filled at once for every hex (axial coordinates, the
ids on the grid) answer what each hex worked out alone answers, and an AVD
board reads a unit's hex by subscripts as it did by get(), a unit lacking
a key included."""
from __future__ import annotations

import itertools

import pytest

from pbem.board.hexgrid import OFFSETS, HexGrid
from pbem.games.avd.board import Board
from avd_fixtures import practice_rules


@pytest.mark.parametrize("offset", OFFSETS)
def test_axial_table_and_ids_are_each_hex_worked_out(offset):
    for c0, nc, r0, nr in itertools.product([0, 1, 15, 97], [0, 1, 7], [0, 1, 2, 96], [0, 1, 5]):
        g = HexGrid(c0, min(c0 + nc, 99), r0, min(r0 + nr, 99), offset)
        table = g._axial_table()
        assert list(table) == g.hexes()
        assert all(table[h] == g._axial_of(h) == g.axial(h) for h in table)
        assert all(h in g for h in g.hexes())
        off = [g.hex_id(c, r) for c in (max(c0 - 1, 0), min(c0 + nc + 1, 99)) for r in (max(r0 - 1, 0), r0)]
        for h in off + ["x", "12345", "", 1203]:
            assert (h in g) == (isinstance(h, str) and len(h) == 4 and h.isdigit()
                                and c0 <= int(h[:2]) <= min(c0 + nc, 99) and r0 <= int(h[2:]) <= min(r0 + nr, 99))


def test_hex_of_and_on_map_read_a_unit_lacking_a_key():
    rules = practice_rules()
    st_ = rules.initial_state()
    uid = sorted(st_["units"])[0]
    b = Board(rules.scn, st_)
    for unit in ({"where": "map"}, {"hex": "1010"}, {}, {"where": "map", "hex": None},
                 {"where": "reserve", "hex": "1010"}, {"where": "map", "hex": "1010"}):
        st_["units"][uid] = unit
        assert b.hex_of(uid) == (unit.get("hex") if unit.get("where") == "map" else None)
        assert b.on_map(uid) == (unit.get("where") == "map" and unit.get("hex") is not None)
