"""canonical()'s quick way for text (speed only: printable ASCII with no
quote or backslash is written as it is) gives the bytes of the JSON way,
for every character below 160 and any mix of them."""
from __future__ import annotations

import random

from pbem.protocol import canon


def json_way(text: str) -> bytes:
    return canon._canonical(text, canon._shaped(text))


def test_every_short_text_of_the_first_160_characters() -> None:
    rng = random.Random(11)
    singles = [chr(c) for c in range(160)]
    mixed = ["".join(rng.choice(singles) for _ in range(rng.randrange(8))) for _ in range(20000)]
    for text in ["", "play", "0" * 64, "4/PZ7A+bF==", "g-test-duel", "a b", *singles, *mixed]:
        assert canon.canonical(text) == json_way(text), repr(text)


def test_a_text_subclass_takes_the_json_way() -> None:
    class Name(str):
        pass

    assert canon.canonical(Name("abc")) == b'"abc"'
