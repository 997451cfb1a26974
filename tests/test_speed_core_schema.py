"""schema's quick acceptance of an order entry (speed only) accepts no
entry that check_entry refuses, and a refused entry is still named with
check_entry's message; each kind's fields, worked out once, are those of
allowed_fields."""
from __future__ import annotations

from typing import Any

import pytest

from pbem.errors import InvalidFile
from pbem.protocol import schema


class Text(str):
    pass


ENTRIES: list[Any] = [
    {"side": "red", "by": "player", "order": {"verb": "x"}},
    {"side": "red", "by": "plan", "order": {}, "deferred": True, "skipped": False},
    {"side": "red", "by": "policy", "order": {}, "deferred": 1},
    {"side": "red", "by": "someone", "order": {}},
    {"side": 3, "by": "player", "order": {}},
    {"side": "red", "by": "player", "order": []},
    {"side": "red", "by": "player"},
    {"side": "red", "by": "player", "order": {}, "extra": 1},
    {"side": Text("red"), "by": "player", "order": {}},
    {"side": "red", "by": Text("player"), "order": {}},
    [], "entry", None,
]


@pytest.mark.parametrize("entry", ENTRIES, ids=repr)
def test_the_quick_check_accepts_only_what_check_entry_accepts(entry: Any) -> None:
    try:
        schema.check_entry(entry, "e")
        accepted = True
    except InvalidFile:
        accepted = False
    assert accepted or not schema._plain_entry(entry)
    if type(entry) is dict and all(type(v) is not Text for v in entry.values()):
        assert schema._plain_entry(entry) == accepted


def test_a_bad_entry_in_an_exchange_is_named_as_before() -> None:
    ex = {"game_id": "g", "n": 2, "kind": "play", "side": "red", "prev": "0" * 64, "state": "0" * 64,
          "sig": "0" * 128, "reveal": "0" * 64, "sealed": "AAAA", "sealed_hash": "0" * 64,
          "orders": [{"side": "red", "by": "player", "order": {}}, {"side": "red", "by": "nobody", "order": {}}]}
    schema.check_exchange({**ex, "orders": ex["orders"][:1]}, "f: exchange 2 (play)")
    with pytest.raises(InvalidFile, match=r"^f: exchange 2 \(play\): order entry 2: 'by' should be one of "):
        schema.check_exchange(ex, "f: exchange 2 (play)")
    with pytest.raises(InvalidFile, match=r"^f: exchange 2 \(play\): unknown field 'zzz' for a play exchange "
                                          r"\(allowed: anchor, chain_n, "):
        schema.check_exchange({**ex, "zzz": 1}, "f: exchange 2 (play)")


def test_each_kind_s_fields() -> None:
    for kind, (required, _) in schema.KINDS.items():
        assert schema._ALLOWED[kind] == set(schema.allowed_fields(kind))
        assert schema._NEEDED[kind] == schema.COMMON | required
