"""A seat's secrets as the protocol handles them (PROTOCOL.md, "Secret
stream" and "Commitments to hidden items").

* **Secret seed.**  Each seat draws a 32-byte seed when it creates or joins a
  game, publishes ``H(b"pbem/secret/v1" || seed)`` in that signed exchange,
  keeps the seed sealed to itself, and opens it at the audit.
* **Secret stream.**  For a shared stream key ``k``, the seat's secret stream
  has the key ``HMAC(seed, b"pbem/secret-stream/v1" || k)``: the owner cannot
  re-run it, nobody else can compute it, the audit recomputes it.
* **Hidden-state root.**  A seat's hidden items (handle -> value) are
  committed all at once as the root of a hash tree over leaves
  ``H(b"pbem/leaf/v1" || salt || canonical([handle, value]))``, in handle
  order, padded with dummy leaves to a fixed width.  Every re-commit uses
  fresh salts derived from the seed and the commit's number, so a new root
  says nothing about which item changed, and the audit can rebuild every
  root from the seed alone.  A reveal opens one leaf with its salt and the
  sibling hashes up to the root.
* **Padding.**  A sealed part is padded to a size bucket before sealing, so
  its length tells nothing about what it holds.
"""
from __future__ import annotations

import functools
import hashlib
import hmac
import json
import marshal
import struct
from typing import Any, Mapping

from pbem.protocol.canon import canonical
from pbem.protocol.stream import Hmac, Stream

__all__ = [
    "SEED_TAG", "seed_commitment", "secret_key", "secret_stream", "salt_for", "leaf_hash", "HiddenTree",
    "verify_opening", "pad", "unpad", "SEED_BYTES",
]

SEED_TAG = b"pbem/secret/v1"
STREAM_TAG = b"pbem/secret-stream/v1"
SALT_TAG = b"pbem/salt/v1"
LEAF_TAG = b"pbem/leaf/v1"
NODE_TAG = b"pbem/node/v1"
SEED_BYTES = 32
MIN_WIDTH = 8
PAD_BUCKETS = (256, 1024, 4096, 16384, 65536, 262144, 1048576)


def seed_commitment(seed: bytes) -> str:
    """The public commitment to a seat's secret seed (hex)."""
    return hashlib.sha256(SEED_TAG + bytes(seed)).hexdigest()


def secret_key(seed: bytes, shared_key: bytes) -> bytes:
    """The seat's secret stream key for the shared stream keyed ``shared_key``."""
    return _keyed(seed).digest(STREAM_TAG + bytes(shared_key))


def secret_stream(seed: bytes, shared_key: bytes) -> Stream:
    return Stream(secret_key(seed, shared_key))


def salt_for(seed: bytes, epoch: int, index: int) -> bytes:
    """The salt of leaf ``index`` in the seat's ``epoch``-th commit."""
    return _keyed(seed).digest(SALT_TAG + struct.pack(">QI", epoch, index))[:16]


@functools.lru_cache(maxsize=8)
def _hmac_for(seed: bytes) -> Hmac:
    # Speed only: a seat's seed keys every salt of its commits (a tree's
    # width at a time) and its secret streams.
    return Hmac(seed)


def _keyed(seed: bytes) -> Hmac:
    return _hmac_for(bytes(seed))


def leaf_hash(salt: bytes, handle: str, value: Any) -> bytes:
    return hashlib.sha256(LEAF_TAG + bytes(salt) + _leaf_body(handle, value)).digest()


_BODIES: dict[bytes, bytes] = {}
_BODIES_KEPT = 4096


def _leaf_body(handle: str, value: Any) -> bytes:
    """``canonical([handle, value])``.  Speed only: a seat's items are
    committed afresh after each of its exchanges (new salts, mostly the
    same items), and a replay rebuilds every commit, so each item's form is
    kept.  The key is the pair's marshal bytes (version 2: no reference
    flags, which follow reference counts): equal bytes mean the same types
    and contents, so the same canonical form; keys and forms are bytes,
    which nothing can change, so no entry goes stale."""
    try:
        key = marshal.dumps((handle, value), 2)
    except Exception:  # what marshal refuses is encoded (or refused) plainly
        return canonical([handle, value])
    body = _BODIES.get(key)
    if body is None:
        body = canonical([handle, value])
        if len(_BODIES) >= _BODIES_KEPT:
            _BODIES.clear()
        _BODIES[key] = body
    return body


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(NODE_TAG + left + right).digest()


def width_for(count: int) -> int:
    """The tree's width for ``count`` items: a power of two, at least 8."""
    width = MIN_WIDTH
    while width < count:
        width *= 2
    return width


class HiddenTree:
    """One commit of a seat's hidden items: handles in sorted order, then
    dummy leaves, every leaf salted from the seed and the epoch."""

    def __init__(self, seed: bytes, epoch: int, items: Mapping[str, Any], width: int | None = None) -> None:
        self.handles = sorted(items)
        self.width = width or width_for(len(self.handles))
        if self.width < len(self.handles) or self.width & (self.width - 1):
            raise ValueError(f"tree width {self.width} cannot hold {len(self.handles)} items")
        self.items = dict(items)
        self.salts = [salt_for(seed, epoch, i) for i in range(self.width)]
        leaves = [leaf_hash(self.salts[i], h, self.items[h]) for i, h in enumerate(self.handles)]
        leaves += [leaf_hash(self.salts[i], "", "") for i in range(len(self.handles), self.width)]
        self.levels = [leaves]
        while len(self.levels[-1]) > 1:
            row = self.levels[-1]
            self.levels.append([_node(row[i], row[i + 1]) for i in range(0, len(row), 2)])

    @property
    def root(self) -> str:
        return self.levels[-1][0].hex()

    def opening(self, handle: str) -> dict[str, Any]:
        """What a reveal of ``handle`` publishes: its value, its leaf's index
        and salt, and the sibling hashes from the leaf up."""
        i = self.handles.index(handle)
        path, k = [], i
        for row in self.levels[:-1]:
            path.append(row[k ^ 1].hex())
            k //= 2
        return {"handle": handle, "value": self.items[handle], "index": i, "salt": self.salts[i].hex(),
                "path": path}


def verify_opening(root: str, opening: Mapping[str, Any]) -> bool:
    """Whether ``opening`` (see :meth:`HiddenTree.opening`) opens ``root``.
    Anything malformed opens nothing."""
    try:
        salt = bytes.fromhex(opening["salt"])
        index = opening["index"]
        path = [bytes.fromhex(p) for p in opening["path"]]
        if len(salt) != 16 or not isinstance(index, int) or isinstance(index, bool) or index < 0:
            return False
        if index >= 1 << len(path) or any(len(p) != 32 for p in path):
            return False
        node = leaf_hash(salt, opening["handle"], opening["value"])
    except (KeyError, TypeError, ValueError):
        return False
    for sibling in path:
        node = _node(node, sibling) if index % 2 == 0 else _node(sibling, node)
        index //= 2
    return hmac.compare_digest(node.hex(), str(root))


def pad(plain: bytes, floor: int = 0) -> bytes:
    """``plain`` (canonical JSON of an object) padded with spaces to the next
    size bucket (at least ``floor``, one of the buckets); JSON ignores the
    spaces, so :func:`unpad` is a strip."""
    size = max(len(plain), floor)
    bucket = next((b for b in PAD_BUCKETS if b >= size), None)
    if bucket is None:
        bucket = -(-size // PAD_BUCKETS[-1]) * PAD_BUCKETS[-1]
    return plain + b" " * (bucket - len(plain))


def unpad(padded: bytes) -> Any:
    return json.loads(padded.decode("utf-8"))
