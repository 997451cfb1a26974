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
