"""The stream's dice are fair, reproducible, and depend on every reveal.

Chi-square goodness of fit against a uniform die, at the 0.001 level: the
critical values for 5 and 9 degrees of freedom are 20.515 and 27.877.  With a
fixed key the test is deterministic, so it cannot flake; a second key checks
the result is not a lucky one.
"""
from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from pbem.protocol.stream import Stream, stream_key

N_ROLLS = 200_000
CRITICAL_0_001 = {6: 20.515, 10: 27.877}

REVEALS = {
    "german": hashlib.sha256(b"german").digest(),
    "soviet": hashlib.sha256(b"soviet").digest(),
}


def chi_square(counts: Counter[int], sides: int, n: int) -> float:
    expected = n / sides
    return sum((counts[face] - expected) ** 2 / expected for face in range(1, sides + 1))


@pytest.mark.parametrize("stream_no", [1, 2])
@pytest.mark.parametrize("sides", [6, 10])
def test_dice_pass_chi_square_at_0_001(sides, stream_no):
    s = Stream(stream_key("g-stats", stream_no, REVEALS))
    die = s.die
    counts = Counter(die(sides) for _ in range(N_ROLLS))
    assert set(counts) == set(range(1, sides + 1))  # a d10's 0 face reads 10
    assert chi_square(counts, sides, N_ROLLS) < CRITICAL_0_001[sides]


def test_chi_square_statistic_would_catch_a_biased_die():
    # The statistic itself must be able to fail: a die one face of which
    # comes up 1% too often over 200 000 rolls.
    counts = Counter({face: N_ROLLS // 6 for face in range(1, 7)})
    counts[6] += N_ROLLS // 100
    counts[1] -= N_ROLLS // 100
    assert chi_square(counts, 6, N_ROLLS) > CRITICAL_0_001[6]


def _rolls(reveals: dict[str, bytes], n: int = 50) -> list[int]:
    s = Stream(stream_key("g-stats", 1, reveals))
    return [s.die(6) for _ in range(n)]


def test_same_inputs_give_the_same_rolls():
    assert _rolls(REVEALS) == _rolls(dict(REVEALS))


@pytest.mark.parametrize("side", ["german", "soviet"])
def test_one_changed_reveal_changes_the_rolls(side):
    changed = dict(REVEALS)
    changed[side] = bytes([changed[side][0] ^ 1]) + changed[side][1:]
    assert _rolls(changed) != _rolls(REVEALS)


def test_game_id_and_stream_number_change_the_rolls():
    base = _rolls(REVEALS)
    other_game = Stream(stream_key("g-other", 1, REVEALS))
    other_stream = Stream(stream_key("g-stats", 2, REVEALS))
    assert [other_game.die(6) for _ in range(50)] != base
    assert [other_stream.die(6) for _ in range(50)] != base
