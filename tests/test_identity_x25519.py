"""``identity.x25519_private`` builds the X25519 key through cryptography's
Rust binding, skipping the OpenSSL backend module the public call imports
(start-up time).  It must be the very key the public call gives: same
public half, same shared secrets, same type, and the public call's own
refusal for a bad key."""
from __future__ import annotations

import os

import pytest
from cryptography.hazmat.primitives.asymmetric import x25519

from pbem.protocol.identity import x25519_private


@pytest.mark.parametrize("raw", [os.urandom(32) for _ in range(8)] + [bytes(32), b"\xff" * 32])
def test_the_same_key_as_the_public_call(raw: bytes) -> None:
    ours, theirs = x25519_private(raw), x25519.X25519PrivateKey.from_private_bytes(raw)
    assert isinstance(ours, x25519.X25519PrivateKey)
    assert ours.private_bytes_raw() == theirs.private_bytes_raw()
    assert ours.public_key().public_bytes_raw() == theirs.public_key().public_bytes_raw()
    peer = x25519.X25519PrivateKey.generate().public_key()
    assert ours.exchange(peer) == theirs.exchange(peer)


@pytest.mark.parametrize("raw", [b"", bytes(31), bytes(33)])
def test_a_key_of_the_wrong_size_is_refused_as_by_the_public_call(raw: bytes) -> None:
    with pytest.raises(ValueError):
        x25519.X25519PrivateKey.from_private_bytes(raw)
    with pytest.raises(ValueError):
        x25519_private(raw)
