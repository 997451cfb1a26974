"""Retreat kernel edges the mutation check (benchmarks/mutation.py) found
untested: how far a retreat that may not stop goes on by default (three
hexes beyond its length) and a negative allowance refused."""
from __future__ import annotations

import pytest

from pbem.board.retreat import retreat_paths_until


def _line(n: int):
    """Hexes 0..n-1 in a row, each next to the one before and after."""
    def neighbors(h: str):
        i = int(h)
        return [str(j) for j in (i - 1, i + 1) if 0 <= j < n]
    return neighbors


def _until(first_stop: int, **kw):
    return retreat_paths_until("0", 1, _line(12), lambda a, b: True, lambda h: int(h) >= first_stop, **kw)


def test_a_retreat_goes_on_at_most_three_hexes_by_default():
    assert _until(4) == [["1", "2", "3", "4"]]        # 1 hex + 3 more: still found
    assert _until(5) == []                            # 4 more would be needed: dropped
    assert _until(5, max_extra=4) == [["1", "2", "3", "4", "5"]]


def test_a_negative_allowance_is_refused():
    with pytest.raises(ValueError, match="negative max_extra"):
        _until(1, max_extra=-1)
    assert _until(1, max_extra=0) == [["1"]]
