"""The state hash's memo (canon.RecordMemo) gives exactly canonical()'s
bytes, or its refusal word for word, across a run of changing states: big
tables walked down at any depth, leaves of every type (1 == True == 1.0,
str and int subclasses, tuples, non-ASCII text and keys)."""
from __future__ import annotations

import enum
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.errors import InvalidFile
from pbem.protocol.canon import DESCEND, RecordMemo, canonical


class _Text(str):
    pass


class _Num(enum.IntEnum):
    ONE = 1


def _outcome(encode: Any, value: Any) -> Any:
    try:
        return encode(value)
    except InvalidFile as exc:
        return ("refused", str(exc))


odd_scalars = st.sampled_from([1, True, 1.0, 0, False, None, "x", _Text("x"), _Num.ONE, "\u00e9", "e\u0301", (1,), [1]])
leaves = st.recursive(odd_scalars, lambda inner: st.lists(inner, max_size=2) | st.dictionaries(
    st.sampled_from(["a", "b", "\u00e9"]), inner, max_size=2), max_leaves=4)
names = st.sampled_from([f"U{i:02d}" for i in range(DESCEND + 4)] + ["e\u0301", "\u00e9", "q\"", "b\\"])


def _big(inner: Any) -> Any:
    # Tables at or above DESCEND entries, so the memo walks into them.
    return st.dictionaries(names, inner, min_size=DESCEND - 2, max_size=DESCEND + 4)


states = st.recursive(leaves, lambda inner: _big(inner) | st.dictionaries(names, inner, max_size=3), max_leaves=60)


@settings(max_examples=200, deadline=None)
@given(st.lists(states, min_size=1, max_size=5))
def test_memo_bytes_and_refusals_are_canonicals(run):
    memo = RecordMemo()
    for state in run:
        top = {"game": state, "ended": None}
        assert _outcome(memo.canonical, top) == _outcome(canonical, top)


def test_a_leaf_that_changes_type_but_not_value_is_encoded_again():
    memo = RecordMemo()
    units = {f"U{i:02d}": {"steps": 1, "oos": False} for i in range(DESCEND + 2)}
    state = {"game": {"units": units, "turn": 1}}
    assert memo.canonical(state) == canonical(state)
    for value in (True, 1.0, _Num.ONE, 1, "1", _Text("1"), (1,), [1]):
        units["U03"]["steps"] = value
        assert _outcome(memo.canonical, state) == _outcome(canonical, state)
    units["U03"] = {"oos": False, "steps": 1}      # the same record, its keys in another order
    assert memo.canonical(state) == canonical(state)
    units["U04"]["oos"] = {"e\u0301": 1}          # a key NFC changes, inside a leaf
    assert memo.canonical(state) == canonical(state)
    units["e\u0301"] = units.pop("U05")            # a big table's key NFC changes
    assert memo.canonical(state) == canonical(state)
    units["\u00e9"] = {"steps": 2}                 # ... and collides with another
    assert _outcome(memo.canonical, state) == _outcome(canonical, state)


exchanges = st.dictionaries(st.sampled_from(["n", "kind", "sig", "orders", "prev", "\u00e9", "e\u0301", "q\""]),
                            leaves | st.dictionaries(names, leaves, max_size=3), max_size=6)


@settings(max_examples=200, deadline=None)
@given(exchanges)
def test_signing_and_hash_are_the_plain_ones(ex):
    from pbem.protocol.gamefile import exchange_hash, signing_and_hash, signing_bytes

    got = _outcome(signing_and_hash, ex)
    assert _outcome(lambda e: signing_and_hash(e)[:2], ex) == _outcome(lambda e: (signing_bytes(e), exchange_hash(e)), ex)
    if isinstance(got, tuple) and got[0] != "refused":
        assert all(v == canonical(ex[k]) for k, v in got[2].items())

