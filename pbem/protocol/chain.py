"""The dice chain: how a player commits to all its future randomness at once.

A player draws a secret 32-byte seed ``c[0]`` and hashes it forward,
``c[k+1] = H(TAG || c[k])``, up to ``c[n]``, the *anchor*, which goes into the
player's signed join.  Its contributions to the random stream are then the
chain read backwards: ``c[n-1]``, ``c[n-2]``, ... .  Anyone checks a reveal with
one hash against the previous reveal (or the anchor); nobody, the owner
included, can swap in a different value once the anchor is published, and
nobody but the owner can compute the next value before it is revealed
(PROTOCOL.md, "Dice chain").

An anchor of length ``n`` gives ``n`` reveals, ending with ``c[0]`` itself.
Before that, the owner publishes a fresh anchor in a signed exchange.
"""
from __future__ import annotations

import hashlib
import hmac

from pbem.errors import PbemError

__all__ = [
    "TAG",
    "SEED_BYTES",
    "ChainExhausted",
    "step",
    "build",
    "anchor",
    "value_at",
    "check_reveal",
    "ChainCursor",
]

TAG = b"pbem/chain/v1"
SEED_BYTES = 32


class ChainExhausted(PbemError):
    """Every value of a player's dice chain has been revealed."""


def step(v: bytes) -> bytes:
    """One link forward: ``H(TAG || v)``."""
    return hashlib.sha256(TAG + v).digest()


def build(seed: bytes, n: int) -> list[bytes]:
    """The whole chain ``[c0, c1, ..., cn]`` from ``seed`` (``c0``)."""
    if n < 0:
        raise ValueError(f"chain length must be >= 0, got {n}")
    values = [bytes(seed)]
    for _ in range(n):
        values.append(step(values[-1]))
    return values


def value_at(seed: bytes, k: int) -> bytes:
    """``c[k]``, hashing forward ``k`` times from the seed."""
    if k < 0:
        raise ValueError(f"chain index must be >= 0, got {k}")
    v = bytes(seed)
    for _ in range(k):
        v = step(v)
    return v


def anchor(seed: bytes, n: int) -> bytes:
    """The published top ``c[n]`` of the chain."""
    return value_at(seed, n)


def check_reveal(reveal: bytes, previous: bytes) -> bool:
    """Whether ``reveal`` is the value just below ``previous`` (the last
    reveal, or the anchor for a chain's first reveal)."""
    return hmac.compare_digest(step(reveal), previous)


class ChainCursor:
    """A player's own chain and how far down it the player has revealed.

    ``next_index`` is the index of the value the next reveal publishes: ``n-1``
    for a fresh chain, ``-1`` once ``c[0]`` is out.  The list of values is
    built on first use and kept, so walking a 10 000-long chain costs one pass
    of hashing, not one per reveal.
    """

    def __init__(self, seed: bytes, n: int, next_index: int | None = None) -> None:
        if len(seed) != SEED_BYTES:
            raise ValueError(f"chain seed must be {SEED_BYTES} bytes, got {len(seed)}")
        if n < 1:
            raise ValueError(f"chain length must be >= 1, got {n}")
        if next_index is None:
            next_index = n - 1
        if not -1 <= next_index < n:
            raise ValueError(f"next reveal index {next_index} outside chain of length {n}")
        self.seed = bytes(seed)
        self.n = n
        self.next_index = next_index
        self._values: list[bytes] | None = None

    def _chain(self) -> list[bytes]:
        if self._values is None:
            self._values = build(self.seed, self.n)
        return self._values

    @property
    def anchor(self) -> bytes:
        """``c[n]``, the value published in the join."""
        return self._chain()[self.n]

    @property
    def remaining(self) -> int:
        """How many reveals are left (``c[next_index]`` down to ``c[0]``)."""
        return self.next_index + 1

    @property
    def previous(self) -> bytes:
        """The value the next reveal is checked against: the last reveal, or
        the anchor when nothing has been revealed yet."""
        return self._chain()[self.next_index + 1]

    def peek(self) -> bytes:
        """The next reveal, without using it up."""
        if self.next_index < 0:
            raise ChainExhausted("dice chain exhausted: a new anchor must be published")
        return self._chain()[self.next_index]

    def next_reveal(self) -> bytes:
        """Use up and return the next value down the chain."""
        value = self.peek()
        self.next_index -= 1
        return value

    def __repr__(self) -> str:  # never show the seed
        return f"ChainCursor(n={self.n}, next_index={self.next_index})"
