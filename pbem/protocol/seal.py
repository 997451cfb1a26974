"""Sealing: the private parts of a game, readable only by their owner.

A side's hidden state (its blocks' identities, the chits it put in the cup,
its dice-chain seed) travels inside the shared game file encrypted to that
side's X25519 key with HPKE (RFC 9180), base mode, suite X25519 /
HKDF-SHA256 / ChaCha20-Poly1305, ``info = b"pbem/seal/v1"`` (PROTOCOL.md,
"Sealing to a player").  The game id and exchange number are the associated
data, so a sealed part cut from one exchange or one game and pasted into
another does not open.

The blob is HPKE's ``enc`` (the 32-byte ephemeral public key) followed by the
ciphertext and its 16-byte tag.

``cryptography`` is imported inside the functions: the CLI's start-up must not
pay for it.
"""
from __future__ import annotations

import functools
import struct
from typing import Any

from pbem.errors import InvalidFile

__all__ = ["INFO", "TEAM_INFO", "aad", "team_aad", "seal", "unseal", "seal_team", "unseal_team"]

INFO = b"pbem/seal/v1"
TEAM_INFO = b"pbem/team-seal/v1"
_RAW_KEY_BYTES = 32


def aad(game_id: str, exchange_no: int) -> bytes:
    """Associated data binding a sealed part to its place:
    ``u16(len gid) || gid || u64(exchange_no)``."""
    gid = game_id.encode("utf-8")
    if len(gid) >= 1 << 16:
        raise ValueError("game id longer than 65535 bytes")
    if not 0 <= exchange_no < 1 << 64:
        raise ValueError(f"exchange number out of range: {exchange_no}")
    return struct.pack(">H", len(gid)) + gid + struct.pack(">Q", exchange_no)


def team_aad(game_id: str, exchange_no: int, sender: str, recipient: str) -> bytes:
    """Associated data of one team-mate's copy of a team part:
    ``aad(game_id, exchange_no) || u16(len sender) || sender || u16(len
    recipient) || recipient`` (seat names, UTF-8), so a copy cannot be moved
    to another exchange, another sender or another recipient's slot."""
    out = aad(game_id, exchange_no)
    for name in (sender, recipient):
        raw = name.encode("utf-8")
        if not raw or len(raw) >= 1 << 16:
            raise ValueError(f"seat name of {len(raw)} bytes")
        out += struct.pack(">H", len(raw)) + raw
    return out


@functools.cache
def _suite() -> Any:
    # One suite object serves every part (speed only: a replay opens one
    # or two an exchange).
    from cryptography.hazmat.primitives import hpke

    return hpke.Suite(hpke.KEM.X25519, hpke.KDF.HKDF_SHA256, hpke.AEAD.CHACHA20_POLY1305)


@functools.lru_cache(maxsize=8)
def _private_key(raw: bytes) -> Any:
    """The X25519 key object of a raw private key, made once per program
    for the few keys it holds (speed only: a replay opens every part
    sealed to its reader with the same key), built without importing the
    OpenSSL backend module (start-up: identity.x25519_private)."""
    from pbem.protocol.identity import x25519_private

    return x25519_private(raw)


def _hpke_with_aad(name: str) -> Any:
    """cryptography 50's public ``Suite.encrypt``/``decrypt`` take no
    associated data; its binding exposes RFC 9180 single-shot seal/open with
    AAD as ``_encrypt_with_aad``/``_decrypt_with_aad``.  The protocol needs
    the AAD, so use those (tests check the output against an independent
    RFC 9180 decryption, so a change of meaning would not pass unnoticed)."""
    from cryptography.hazmat.bindings._rust import openssl as rust_openssl

    fn = getattr(rust_openssl.hpke, name, None)
    if fn is None:  # pragma: no cover - depends on the installed cryptography
        raise RuntimeError(
            "this version of the cryptography package offers no HPKE with associated data"
        )
    return fn


def seal(recipient_public_raw: bytes, plaintext: bytes, game_id: str, exchange_no: int) -> bytes:
    """Encrypt ``plaintext`` to the holder of the X25519 private key matching
    ``recipient_public_raw``; returns ``enc || ciphertext``."""
    return _seal(recipient_public_raw, plaintext, INFO, aad(game_id, exchange_no))


def seal_team(recipient_public_raw: bytes, plaintext: bytes, game_id: str, exchange_no: int, *,
              sender: str, recipient: str) -> bytes:
    """One team-mate's copy of a part shared by a team: the same HPKE suite,
    ``info = b"pbem/team-seal/v1"``, associated data :func:`team_aad`.  A
    part for a team of ``k`` other seats is ``k`` such copies of the same
    padded plaintext, each to one seat's X25519 key (docs/FILE-FORMAT.md)."""
    return _seal(recipient_public_raw, plaintext, TEAM_INFO, team_aad(game_id, exchange_no, sender, recipient))


def unseal_team(recipient_private_raw: bytes, blob: bytes, game_id: str, exchange_no: int, *,
                sender: str, recipient: str) -> bytes:
    """Open this seat's copy of a team part (see :func:`seal_team`).
    InvalidFile if it is not one, for this seat, of this exchange."""
    return _unseal(recipient_private_raw, blob, TEAM_INFO, team_aad(game_id, exchange_no, sender, recipient),
                   f"{sender}'s team part of exchange {exchange_no} does not open with {recipient}'s key")


def _seal(recipient_public_raw: bytes, plaintext: bytes, info: bytes, associated: bytes) -> bytes:
    from cryptography.hazmat.primitives.asymmetric import x25519

    if len(recipient_public_raw) != _RAW_KEY_BYTES:
        raise InvalidFile(
            f"seal key must be {_RAW_KEY_BYTES} bytes, got {len(recipient_public_raw)}"
        )
    public = x25519.X25519PublicKey.from_public_bytes(bytes(recipient_public_raw))
    encrypt = _hpke_with_aad("_encrypt_with_aad")
    return bytes(encrypt(_suite(), bytes(plaintext), public, info=info, aad=associated))


def unseal(recipient_private_raw: bytes, blob: bytes, game_id: str, exchange_no: int) -> bytes:
    """Open a sealed part with the recipient's raw X25519 private key.
    Raises InvalidFile if it was sealed to another key, for another game or
    exchange, or has been altered."""
    return _unseal(recipient_private_raw, blob, INFO, aad(game_id, exchange_no),
                   f"sealed part of exchange {exchange_no} does not open with this key")


def _unseal(recipient_private_raw: bytes, blob: bytes, info: bytes, associated: bytes, why: str) -> bytes:
    from cryptography.exceptions import InvalidTag

    failure = InvalidFile(why)
    if len(recipient_private_raw) != _RAW_KEY_BYTES:
        raise failure
    private = _private_key(bytes(recipient_private_raw))
    decrypt = _hpke_with_aad("_decrypt_with_aad")
    try:
        return bytes(decrypt(_suite(), bytes(blob), private, info=info, aad=associated))
    except (InvalidTag, ValueError) as exc:
        raise failure from exc
