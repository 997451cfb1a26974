"""The kernel's movement Reach is a plain class (speed only: no methods
compiled at import) that behaves as the dataclass it was: the same
arguments and defaults, repr, equality and unhashability."""
from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from pbem.board.movement import Reach, reachable


@dataclass
class Was:
    cost: dict
    parent: dict
    endable: set = field(default_factory=set)
    _paths: dict = field(default_factory=dict, repr=False)
    _best: dict = field(default_factory=dict, repr=False)


def _line(h: str) -> list[str]:
    n = int(h)
    return [str(m) for m in (n - 1, n + 1) if 10 <= m <= 20]


def test_reach_as_the_dataclass():
    found = reachable("12", 3, _line, lambda a, b: 1)
    args = (found.cost, found.parent, found.endable, found._paths, found._best)
    assert repr(Reach(*args)).replace("Reach(", "Was(") == repr(Was(*args))
    assert vars(Reach(*args)) == vars(Was(*args))
    assert Reach(*args) == found and found == Reach(**dict(zip(("cost", "parent", "endable", "_paths", "_best"), args)))
    assert Reach(*args[:3]) != found and Reach({}, {}) == Reach({}, {}) and (Reach({}, {}) == 0) is False
    assert Reach({}, {}).endable == set() and Reach({}, {}).endable is not Reach({}, {}).endable
    assert Reach({}, {})._paths == {} == Reach({}, {})._best
    assert found.path_to("15") == ["12", "13", "14", "15"]
    with pytest.raises(TypeError):
        hash(found)
    for bad in [(), ({},), ({}, {}, set(), {}, {}, "extra")]:
        with pytest.raises(TypeError):
            Reach(*bad)
