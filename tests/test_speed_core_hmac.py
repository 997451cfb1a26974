"""The prepared HMAC-SHA256 (pbem.protocol.stream.Hmac, speed only) is
the standard library's, for every key length (short, a block, longer than
a block: hashed first) and message; the stream keys, streams, secret keys
and salts built on it are unchanged."""
from __future__ import annotations

import copy
import hmac
import pickle
import random
import struct

from pbem.protocol import secret, stream
from pbem.protocol.stream import Hmac, Stream, stream_key


def test_it_is_hmac_sha256_for_every_key_length() -> None:
    rng = random.Random(5)
    for size in (0, 1, 14, 32, 63, 64, 65, 100, 128, 200):
        key = rng.randbytes(size)
        h = Hmac(key)
        for length in (0, 1, 8, 55, 56, 64, 100, 3000):
            msg = rng.randbytes(length)
            assert h.digest(msg) == hmac.digest(key, msg, "sha256")


def test_the_keys_and_streams_built_on_it() -> None:
    reveals = {"red": bytes(range(32)), "blue": bytes(range(32, 64))}
    msg = [struct.pack(">H", 6) + b"game-1", struct.pack(">Q", 7)]
    for side in sorted(reveals):
        msg += [struct.pack(">H", len(side)) + side.encode(), reveals[side]]
    key = stream_key("game-1", 7, reveals)
    assert key == hmac.digest(stream.STREAM_TAG, b"".join(msg), "sha256")
    s = Stream(key)
    values = [s.u64() for _ in range(9)]
    blocks = b"".join(hmac.digest(key, struct.pack(">Q", i), "sha256") for i in range(3))
    assert values == list(struct.unpack(">12Q", blocks))[:9]
    seed = bytes(range(100, 132))
    assert secret.secret_key(seed, key) == hmac.digest(seed, secret.STREAM_TAG + key, "sha256")
    for other in (seed, bytes(32), seed):          # the kept seed changes and comes back
        assert secret.salt_for(other, 3, 5) == hmac.digest(
            other, secret.SALT_TAG + struct.pack(">QI", 3, 5), "sha256")[:16]


def test_a_stream_in_use_still_copies_and_pickles() -> None:
    s = Stream(bytes(32))
    s.u64()
    twins = (copy.deepcopy(s), pickle.loads(pickle.dumps(s)))
    then = [s.u64() for _ in range(6)]
    for twin in twins:
        assert [twin.u64() for _ in range(6)] == then
