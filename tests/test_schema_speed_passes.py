"""pbem.protocol.schema's quick tests (speed only) are true only of values
their checks let through: check_exchange asks the check itself, which
words the refusal, whenever the quick test is false."""
from __future__ import annotations

import random

import pytest

from pbem.errors import InvalidFile
from pbem.protocol import schema

_ODD = ["", " ", "A" * 64, "0" * 63, "0" * 65, "0" * 128, "0" * 62 + " 0", "0 " * 32, "0" * 62 + "\n0",
        "é" * 64, "g" * 64, "0x" + "0" * 62, "+" + "0" * 63, "_" * 64, "٠" * 64, "0" * 64 + "\x00",
        "QQ==", "QR==", "Q===", "====", "A", "AAAA", "AA=A", "+/+/", "AAAA\n", "AA AA", "ÀÀÀÀ",
        0, 1, -1, 65536, 65537, True, False, None, 1.0, [], {}, ("a",), b"00" * 32, "x" * 2001, "x" * 2000]


class _Str(str):
    pass


def _samples() -> list[object]:
    rng = random.Random(7)
    out: list[object] = list(_ODD) + [_Str("0" * 64), _Str("x")]
    for n in (2, 64, 128, 400):
        for alphabet in ("0123456789abcdef", "0123456789abcdefABCDEF", "0123456789abcdefg ",
                         "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", "AZaz09+/=-_ "):
            out += ["".join(rng.choice(alphabet) for _ in range(n)) for _ in range(20)]
    out += [bytes(rng.randrange(256) for _ in range(32)).hex() for _ in range(50)]
    return out


def _accepted(check: schema.Check, value: object) -> bool:
    try:
        check(value, "where")
    except InvalidFile:
        return False
    return True


@pytest.mark.parametrize("check", list(schema._PASSES))
def test_a_quick_test_passes_only_what_its_check_accepts(check: schema.Check) -> None:
    passes = schema._PASSES[check]
    seen = 0
    for value in _samples():
        if passes(value):
            seen += 1
            assert _accepted(check, value), (check, value)
    assert seen, "the quick test passed no sample at all"


def test_hex_is_told_as_the_expression_tells_it() -> None:
    for value in _samples():
        for digits, pattern in ((64, schema.HEX64), (128, schema.HEX128)):
            expected = isinstance(value, str) and pattern.fullmatch(value) is not None
            assert schema._is_hex(value, digits) == (expected and type(value) is str), value
