"""Sealing private parts to a player (PROTOCOL.md, "Sealing to a player")."""
from __future__ import annotations

import hmac
import struct

import pytest
from cryptography.hazmat.primitives.asymmetric import x25519
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from pbem.errors import InvalidFile
from pbem.protocol import seal


@pytest.fixture(scope="module")
def keys():
    k = x25519.X25519PrivateKey.generate()
    return k.private_bytes_raw(), k.public_key().public_bytes_raw()


def test_round_trip(keys):
    private, public = keys
    blob = seal.seal(public, b"German blocks: G-17 at Vyazma, 3 steps", "g-test", 12)
    assert seal.unseal(private, blob, "g-test", 12) == b"German blocks: G-17 at Vyazma, 3 steps"


def test_each_seal_is_fresh(keys):
    _, public = keys
    assert seal.seal(public, b"x", "g", 1) != seal.seal(public, b"x", "g", 1)


def test_wrong_key_does_not_open(keys):
    _, public = keys
    other = x25519.X25519PrivateKey.generate().private_bytes_raw()
    blob = seal.seal(public, b"secret", "g-test", 3)
    with pytest.raises(InvalidFile, match="sealed part of exchange 3 does not open with this key"):
        seal.unseal(other, blob, "g-test", 3)


@pytest.mark.parametrize("game_id, exchange_no", [("g-other", 3), ("g-test", 4), ("g-tes", 3)])
def test_part_moved_to_another_game_or_exchange_does_not_open(keys, game_id, exchange_no):
    private, public = keys
    blob = seal.seal(public, b"secret", "g-test", 3)
    with pytest.raises(InvalidFile, match=f"exchange {exchange_no} does not open"):
        seal.unseal(private, blob, game_id, exchange_no)


@pytest.mark.parametrize("where", [0, 31, 32, -1])
def test_tampered_blob_does_not_open(keys, where):
    private, public = keys
    blob = bytearray(seal.seal(public, b"secret", "g-test", 3))
    blob[where] ^= 0x01
    with pytest.raises(InvalidFile):
        seal.unseal(private, bytes(blob), "g-test", 3)


@pytest.mark.parametrize("blob", [b"", b"\x00" * 31, b"\x00" * 47])
def test_truncated_blob_does_not_open(keys, blob):
    private, _ = keys
    with pytest.raises(InvalidFile):
        seal.unseal(private, blob, "g-test", 3)


def test_aad_layout():
    assert seal.aad("g-test", 7) == b"\x00\x06g-test" + b"\x00" * 7 + b"\x07"
    assert seal.aad("é", 1) == b"\x00\x02" + "é".encode() + struct.pack(">Q", 1)


# --- an independent RFC 9180 base-mode open, to pin the construction ------
# Written from the RFC, not from our code: if the library call we use ever
# changed what info or AAD mean, this would stop agreeing.

def _extract(salt: bytes, ikm: bytes) -> bytes:
    return hmac.digest(salt, ikm, "sha256")


def _expand(prk: bytes, info: bytes, length: int) -> bytes:
    out, block, i = b"", b"", 1
    while len(out) < length:
        block = hmac.digest(prk, block + info + bytes([i]), "sha256")
        out += block
        i += 1
    return out[:length]


def _labeled_extract(suite_id: bytes, salt: bytes, label: bytes, ikm: bytes) -> bytes:
    return _extract(salt, b"HPKE-v1" + suite_id + label + ikm)


def _labeled_expand(suite_id: bytes, prk: bytes, label: bytes, info: bytes, length: int) -> bytes:
    return _expand(prk, struct.pack(">H", length) + b"HPKE-v1" + suite_id + label + info, length)


def _rfc9180_open(private_raw: bytes, blob: bytes, info: bytes, aad: bytes) -> bytes:
    enc, ct = blob[:32], blob[32:]
    sk = x25519.X25519PrivateKey.from_private_bytes(private_raw)
    pk_r = sk.public_key().public_bytes_raw()
    dh = sk.exchange(x25519.X25519PublicKey.from_public_bytes(enc))
    kem_suite = b"KEM" + struct.pack(">H", 0x0020)  # DHKEM(X25519, HKDF-SHA256)
    eae_prk = _labeled_extract(kem_suite, b"", b"eae_prk", dh)
    shared = _labeled_expand(kem_suite, eae_prk, b"shared_secret", enc + pk_r, 32)
    suite = b"HPKE" + struct.pack(">HHH", 0x0020, 0x0001, 0x0003)  # HKDF-SHA256, ChaCha20-Poly1305
    psk_id_hash = _labeled_extract(suite, b"", b"psk_id_hash", b"")
    info_hash = _labeled_extract(suite, b"", b"info_hash", info)
    context = b"\x00" + psk_id_hash + info_hash  # mode_base
    secret = _labeled_extract(suite, shared, b"secret", b"")
    key = _labeled_expand(suite, secret, b"key", context, 32)
    nonce = _labeled_expand(suite, secret, b"base_nonce", context, 12)
    return ChaCha20Poly1305(key).decrypt(nonce, ct, aad)


def test_blob_is_rfc9180_base_mode_with_protocol_info_and_aad(keys):
    private, public = keys
    blob = seal.seal(public, b"chain seed for soviet", "g-test", 9)
    opened = _rfc9180_open(private, blob, b"pbem/seal/v1", seal.aad("g-test", 9))
    assert opened == b"chain seed for soviet"
