"""The canonical form's fast path changes no byte: whatever the value, the
bytes are those of the normalised copy (NFC strings, tuples as lists), and
what the slow path refuses is still refused with the same error."""
from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.errors import InvalidFile
from pbem.protocol.canon import canonical, normalise

# Letters with and without combining accents, so some strings are not NFC.
text = st.lists(st.sampled_from(["a", "Z", "1", " ", "\"", "\\", "\u00e9", "e\u0301", "\u00df", "\u00a0", "\n"]),
                max_size=6).map("".join)
scalars = st.none() | st.booleans() | st.integers(-10**12, 10**12) | text
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.tuples(inner, inner) | st.dictionaries(text, inner, max_size=4), max_leaves=20)


def _slow(value):
    return json.dumps(normalise(value), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False, allow_nan=False).encode("utf-8")


@settings(max_examples=150, deadline=None)
@given(values)
def test_canonical_bytes_are_those_of_the_normalised_copy(value):
    try:
        expected = _slow(value)
    except InvalidFile as exc:
        with pytest.raises(InvalidFile, match=re.escape(str(exc))):
            canonical(value)
    else:
        assert canonical(value) == expected


@pytest.mark.parametrize("bad", [1.5, {"a": [1, 2.0]}, {1: "x"}, {"a": b"x"}, [{"k": {"deep": float("nan")}}]])
def test_floats_bytes_and_non_string_keys_are_refused(bad):
    with pytest.raises(InvalidFile, match="value not allowed in canonical form"):
        canonical(bad)


def test_a_string_typed_with_a_combining_accent_hashes_as_the_composed_one():
    assert canonical({"caf\u0065\u0301": ["\u0065\u0301"]}) == canonical({"caf\u00e9": ["\u00e9"]})
    assert canonical({"caf\u00e9": 1}) == '{"café":1}'.encode("utf-8")


# ------------------------------------------------------------ spliced records

record_values = scalars | st.lists(scalars, max_size=2)
records = st.dictionaries(st.sampled_from(["where", "hex", "steps", "oos", "é", "e\u0301"]), record_values, max_size=4)
tables = st.dictionaries(st.sampled_from(["G-1", "G-2", "S-1", "S-\u00e9", "x"]), records | scalars, max_size=5)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(tables, values), min_size=1, max_size=4))
def test_spliced_bytes_are_the_canonical_ones(states):
    """One memo across successive states (as across exchanges): every hash
    is the plain canonical form, whatever changed, types included."""
    from pbem.protocol.canon import RecordMemo, canonical_spliced

    def outcome(encode, state):
        try:
            return encode(state)
        except InvalidFile as exc:
            return str(exc)

    memo = RecordMemo()
    for units, other in states:
        state = {"game": {"units": units, "other": other}, "ended": None}
        assert outcome(lambda s: canonical_spliced(s, ("game", "units"), memo), state) == outcome(canonical, state)


def test_spliced_notices_a_changed_type_and_a_hole_lookalike():
    from pbem.protocol.canon import _HOLE, RecordMemo, canonical_spliced

    memo = RecordMemo()
    units = {f"U{i}": {"steps": 1, "oos": False} for i in range(20)}
    state = {"game": {"units": units, "note": "x"}}
    assert canonical_spliced(state, ("game", "units"), memo) == canonical(state)
    units["U3"]["steps"] = True         # equal to 1, hashes as 1: not the same record
    units["U4"]["oos"] = 0
    assert canonical_spliced(state, ("game", "units"), memo) == canonical(state)
    state["game"]["note"] = _HOLE       # a string that looks like the hole
    assert canonical_spliced(state, ("game", "units"), memo) == canonical(state)


def test_spliced_refuses_a_float_as_canonical_does():
    from pbem.protocol.canon import RecordMemo, canonical_spliced

    state = {"game": {"units": {"A": {"steps": 1.5}}}}
    with pytest.raises(InvalidFile) as plain:
        canonical(state)
    with pytest.raises(InvalidFile) as spliced:
        canonical_spliced(state, ("game", "units"), RecordMemo())
    assert str(spliced.value) == str(plain.value)
