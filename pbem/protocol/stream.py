"""The shared random stream: every die, cup draw and shuffle of a game.

A stream is keyed by the game id, the stream's number and one chain reveal
from each side (PROTOCOL.md, "Random stream").  Since each side's reveal was
fixed by its published anchor, and neither side knew the other's before
committing its own, neither can choose an outcome.  The stream itself is
HMAC-SHA256 used as a generator: block ``i`` is ``HMAC(key, u64(i))``, read
eight bytes at a time as big-endian 64-bit numbers.

Rolls use rejection sampling, never a bare modulo, so a d6 has no bias:
a value in the short last "lap" of ``2**64`` over ``n`` is thrown away.

Games see the stream through :class:`RecordingRng`, which keeps the purpose
label and stream position of every value drawn so that ``pbem dice`` can list
and recompute each one.  Standard library only: importing this stays cheap.
"""
from __future__ import annotations

import hmac
import struct
from collections.abc import Mapping
from typing import Any, Sequence, TypeVar

__all__ = [
    "STREAM_TAG",
    "stream_key",
    "Stream",
    "RecordingRng",
    "FrozenRng",
    "NeedDice",
]

STREAM_TAG = b"pbem/stream/v1"
_U64_SPAN = 1 << 64
_MAX_BELOW = 1 << 32

T = TypeVar("T")


def _u16(x: int) -> bytes:
    return struct.pack(">H", x)


def _u64(x: int) -> bytes:
    return struct.pack(">Q", x)


def _lp(data: bytes) -> bytes:
    """Length-prefixed bytes, so that no two inputs can run together."""
    if len(data) >= 1 << 16:
        raise ValueError("stream key field longer than 65535 bytes")
    return _u16(len(data)) + data


class Hmac:
    """HMAC-SHA256 under one key, the standard library's HMAC prepared once
    and copied for each message (speed only: ``hmac.digest`` sets the key
    up again, and looks the hash up by name, on every call).
    ``digest(msg)`` equals ``hmac.digest(key, msg, "sha256")``."""

    __slots__ = ("_key", "_keyed")

    def __init__(self, key: bytes) -> None:
        self._key = bytes(key)
        self._keyed = hmac.new(self._key, digestmod="sha256")

    def __reduce__(self) -> tuple[Any, ...]:
        # A keyed HMAC cannot be pickled or deep-copied: the key can.
        return (Hmac, (self._key,))

    def digest(self, msg: bytes) -> bytes:
        mac = self._keyed.copy()
        mac.update(msg)
        return mac.digest()


_STREAM_KEYS = Hmac(STREAM_TAG)


def stream_key(game_id: str, stream_no: int, reveals: Mapping[str, bytes]) -> bytes:
    """The HMAC key of stream ``stream_no`` of game ``game_id``, from each
    side's chain reveal, sides taken in sorted order of their ids."""
    if stream_no < 0 or stream_no >= _U64_SPAN:
        raise ValueError(f"stream number out of range: {stream_no}")
    msg = [_lp(game_id.encode("utf-8")), _u64(stream_no)]
    for side in sorted(reveals):
        msg.append(_lp(side.encode("utf-8")))
        msg.append(bytes(reveals[side]))
    return _STREAM_KEYS.digest(b"".join(msg))


class Stream:
    """The values of one stream, in order.  ``position`` counts the 64-bit
    values consumed so far, so a recorded roll can be found again."""

    _PER_BLOCK = 4  # a 32-byte HMAC block holds four u64 values

    def __init__(self, key: bytes) -> None:
        self._key = bytes(key)
        self.key = self._key
        self._hmac: Hmac | None = None
        self._pos = 0
        self._block_no = -1
        self._block: tuple[int, ...] = ()

    @property
    def position(self) -> int:
        return self._pos

    def u64(self) -> int:
        """The next raw 64-bit value."""
        block_no, offset = divmod(self._pos, self._PER_BLOCK)
        if block_no != self._block_no:
            if self._hmac is None:
                self._hmac = Hmac(self._key)
            raw = self._hmac.digest(_u64(block_no))
            self._block = struct.unpack(">4Q", raw)
            self._block_no = block_no
        self._pos += 1
        return self._block[offset]

    def below(self, n: int) -> int:
        """Uniform in ``[0, n)`` for ``1 <= n < 2**32``, by rejection."""
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n < _MAX_BELOW:
            raise ValueError(f"below(n) needs 1 <= n < 2**32, got {n!r}")
        limit = _U64_SPAN - (_U64_SPAN % n)
        while True:
            x = self.u64()
            if x < limit:
                return x % n

    def die(self, sides: int) -> int:
        """One die of ``sides`` faces, 1..sides (a d10's "0" face reads 10)."""
        return 1 + self.below(sides)

    def draw(self, items: Sequence[Any]) -> int:
        """Index of the item drawn from a cup holding ``items`` in their
        recorded order.  The caller removes it."""
        if not items:
            raise ValueError("cannot draw from an empty cup")
        return self.below(len(items))

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A shuffled copy: Fisher-Yates from the last index down, swapping
        item ``i`` with item ``below(i+1)``."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


class RecordingRng:
    """The :class:`pbem.game.Rng` a game is given: draws from a
    :class:`Stream` and records every value with its purpose.

    Each record is JSON-able: ``purpose``, ``op`` (``"d6"``, ``"d10"``, or
    ``"d<sides>"`` for other dice; ``"draw"``; ``"shuffle"``), ``result`` (the
    face; the drawn index; the permutation as a list of source indices) and
    ``pos``, the stream position before the call.  A draw also records
    ``item`` (``str`` of the drawn item) and the cup's ``size``; a shuffle
    its ``size``.  The purpose is a label only, never an input: which value
    serves which purpose cannot be steered.
    """

    def __init__(self, stream: Stream, seeds: Mapping[str, bytes] | None = None) -> None:
        self.stream = stream
        self.records: list[dict[str, Any]] = []
        self.seeds = dict(seeds or {})
        self.secret_rngs: dict[str, RecordingRng] = {}
        # Seats whose secret stream was asked for: public, since every
        # program asks at the same point, seed or no seed (a rewind may not
        # take such a draw back: Match.last_rolled).
        self.secret_asked: set[str] = set()

    def secret(self, seat: str) -> "RecordingRng | None":
        """``seat``'s secret stream for this shared stream (PROTOCOL.md,
        "Secret stream"), or None where this program does not hold the
        seat's secret seed.  One stream per seat and shared stream: a second
        call goes on where the first stopped."""
        self.secret_asked.add(seat)
        if seat not in self.seeds:
            return None
        if seat not in self.secret_rngs:
            from pbem.protocol.secret import secret_stream

            self.secret_rngs[seat] = RecordingRng(secret_stream(self.seeds[seat], self.stream.key))
        return self.secret_rngs[seat]

    @property
    def position(self) -> int:
        return self.stream.position

    def roll(self, sides: int, purpose: str) -> int:
        pos = self.stream.position
        face = self.stream.die(sides)
        self.records.append({"purpose": purpose, "op": f"d{sides}", "result": face, "pos": pos})
        return face

    def draw(self, items: Sequence[T], purpose: str) -> int:
        pos = self.stream.position
        index = self.stream.draw(items)
        self.records.append(
            {
                "purpose": purpose,
                "op": "draw",
                "result": index,
                "item": str(items[index]),
                "size": len(items),
                "cup": [str(x) for x in items],
                "pos": pos,
            }
        )
        return index

    def shuffle(self, items: Sequence[T], purpose: str) -> list[T]:
        pos = self.stream.position
        order = self.stream.shuffle(range(len(items)))
        self.records.append(
            {"purpose": purpose, "op": "shuffle", "result": order, "size": len(items), "pos": pos}
        )
        return [items[i] for i in order]


class NeedDice(Exception):
    """Raised by :class:`FrozenRng` at an order's first draw: under sealed
    dice timing the stream is not known yet, and the opponent's program will
    resolve the order.  ``purpose`` says which draw was wanted."""

    def __init__(self, purpose: str) -> None:
        super().__init__(f"dice needed: {purpose}")
        self.purpose = purpose


class FrozenRng:
    """An :class:`pbem.game.Rng` with no stream yet: every call raises
    :class:`NeedDice`, a secret stream's too."""

    def secret(self, seat: str) -> "FrozenRng":
        raise NeedDice(f"a secret draw for {seat}")

    def roll(self, sides: int, purpose: str) -> int:
        raise NeedDice(purpose)

    def draw(self, items: Sequence[T], purpose: str) -> int:
        raise NeedDice(purpose)

    def shuffle(self, items: Sequence[T], purpose: str) -> list[T]:
        raise NeedDice(purpose)
