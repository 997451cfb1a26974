"""gamefile.drop_none's quick way (speed only: a table or array of plain
scalars is copied whole) gives what the member-by-member walk gives: the
same value, a new object, the same refusal of a null in an array."""
from __future__ import annotations

from collections import OrderedDict
from typing import Any

import pytest

from pbem.errors import InvalidFile
from pbem.protocol.gamefile import drop_none


def walked(value: Any) -> Any:
    """The member-by-member walk, as drop_none was before its quick way."""
    if isinstance(value, dict):
        return {k: walked(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        if any(v is None for v in value):
            raise InvalidFile("an array with an empty (null) member cannot be written to TOML")
        return [walked(v) for v in value]
    return value


VALUES: list[Any] = [
    {}, [], {"verb": "move", "unit": "G-1", "to": "3903"}, {"n": 1, "flag": True, "x": 1.5, "s": ""},
    {"verb": "attack", "with": ["A", "B"], "odds": None}, {"a": {"b": None, "c": [1, 2]}}, [1, True, "x", 2.0],
    [[1], {"k": None}], (1, 2), OrderedDict(a=1, b=None), {"z": 1, "a": 2}, 7, "text", None,
]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_the_same_answer_as_the_walk(value: Any) -> None:
    got, want = drop_none(value), walked(value)
    assert got == want and type(got) is type(want)
    if isinstance(want, dict):
        assert list(got) == list(want)      # key order kept
    if isinstance(value, (dict, list)):
        assert got is not value             # a copy, as before


def test_a_null_in_an_array_is_still_refused() -> None:
    for value in ([1, None], [None], {"a": ["x", None]}):
        with pytest.raises(InvalidFile, match="empty \\(null\\) member"):
            drop_none(value)
