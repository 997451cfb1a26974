"""Commitments to hidden items (a block's identity and strength, a chit put in
the cup face down).

When an item is hidden its owner publishes ``H(TAG || salt || canonical(item))``
with a fresh random 16-byte salt (PROTOCOL.md, "Commitments to hidden items").
The salt stops the opponent from hashing every possible item to find which
one matches; the hash stops the owner from changing the item later.  A reveal
publishes the salt and the item, and every program checks them against the
commitment made at hiding time.
"""
from __future__ import annotations

import hashlib
import hmac
import os
from typing import Any

from pbem.protocol.canon import canonical

__all__ = ["TAG", "SALT_BYTES", "new_salt", "commit", "check"]

TAG = b"pbem/commit/v1"
SALT_BYTES = 16


def new_salt() -> bytes:
    """A fresh salt from the OS CSPRNG; never reuse one."""
    return os.urandom(SALT_BYTES)


def commit(item: Any, salt: bytes) -> str:
    """The public commitment (lower-case hex) to ``item`` under ``salt``."""
    if len(salt) != SALT_BYTES:
        raise ValueError(f"commitment salt must be {SALT_BYTES} bytes, got {len(salt)}")
    return hashlib.sha256(TAG + bytes(salt) + canonical(item)).hexdigest()


def check(item: Any, salt: bytes, value: str) -> bool:
    """Whether a revealed ``item`` and ``salt`` open the commitment ``value``.
    A malformed salt opens nothing.  An item outside canonical form raises
    InvalidFile, as anywhere else."""
    if len(salt) != SALT_BYTES or not isinstance(value, str):
        return False
    return hmac.compare_digest(commit(item, salt), value.lower())
