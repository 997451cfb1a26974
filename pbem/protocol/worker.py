"""Speed only: the second process that checks a replay's exchanges while
the replay goes on (started by :class:`pbem.cycle.worker.CheckWorker`).

It reads checks from standard input, each a tag byte, its length (``FRAME``
bytes, big-endian) and its body:

- ``STATE``: a state's marshal bytes, hashed as the replay hashes it
  (:class:`~pbem.protocol.canon.RecordMemo`, then SHA-256);
- ``SIGNATURE``: a raw Ed25519 public key (32 bytes), a signature (64
  bytes) and the message, verified;
- ``EXCHANGE``: a key and a signature as for ``SIGNATURE``, then an
  exchange's marshal bytes: what it signs and its hash are worked out
  (:func:`~pbem.protocol.gamefile.signing_and_hash`) and the signature
  verified;
- ``ENTRIES``: the marshal bytes of two order lists, the replay's and the
  exchange's: whether their canonical bytes are the same, the exchange's
  nulls dropped.

At the end of its input it writes one ``ANSWER`` per check, in order: a
status byte, a byte saying whether a hash follows, and 32 bytes (the hash
of a state or an exchange).  Status ``DONE``: hashed, the signature is
good, the lists are the same; ``REFUSED``: the signature is bad, the lists
differ; ``UNDONE``: not answered (the encoding refused the value, the
check could not be read, cryptography could not be imported): the replay
works it out itself.  It imports nothing of pbem but the file format's
encoding."""
from __future__ import annotations

import marshal
import os
import signal
import sys
from typing import Any, BinaryIO

from pbem.protocol.canon import RecordMemo, canonical, sha256

FRAME = 4
ANSWER = 34
STATE, SIGNATURE, EXCHANGE, ENTRIES = b"s", b"v", b"x", b"e"
UNDONE, DONE, REFUSED = 0, 1, 2
_KEY, _SIG = 32, 64


def serve() -> None:
    """The worker's body: answer every check read, then exit at once (the
    replay waits for the end of the answers: the interpreter's teardown
    would only keep it waiting)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # an interrupt is the replay's to report
    answers = answer_all(sys.stdin.buffer)
    sys.stdout.buffer.write(answers)
    sys.stdout.buffer.flush()
    os._exit(0)


def answer_all(checks: BinaryIO) -> bytes:
    """One answer per check read from ``checks`` until its end."""
    memo = RecordMemo()
    keys: dict[bytes, Any] = {}
    answers = bytearray()
    while len(head := checks.read(1 + FRAME)) == 1 + FRAME:
        body = checks.read(int.from_bytes(head[1:], "big"))
        try:
            answers += _answer(head[:1], body, memo, keys)
        except Exception:                    # refused, or cut short: the replay works it out itself
            answers += bytes(ANSWER)
    return bytes(answers)


def _answer(tag: bytes, body: bytes, memo: RecordMemo, keys: dict[bytes, Any]) -> bytes:
    if tag == STATE:
        return bytes([DONE, 1]) + hash_state(body, memo)
    if tag == SIGNATURE:
        return bytes([_verify(keys, body[:_KEY + _SIG], body[_KEY + _SIG:]), 0]) + bytes(32)
    if tag == EXCHANGE:
        from pbem.protocol.gamefile import signing_and_hash

        signed, digest, _ = signing_and_hash(marshal.loads(body[_KEY + _SIG:]))
        try:
            status = _verify(keys, body[:_KEY + _SIG], signed)
        except Exception:                    # the hash is answered even if the signature is not
            status = UNDONE
        return bytes([status, 1]) + bytes.fromhex(digest)
    if tag == ENTRIES:
        from pbem.protocol.gamefile import drop_none

        entries, listed = marshal.loads(body)
        return bytes([DONE if canonical(entries) == canonical(drop_none(listed)) else REFUSED, 0]) + bytes(32)
    return bytes(ANSWER)


def hash_state(blob: bytes, memo: RecordMemo) -> bytes:
    """The state hash (PROTOCOL.md) of the state whose marshal bytes these are."""
    return sha256(memo.canonical(marshal.loads(blob)))


def _verify(keys: dict[bytes, Any], key_and_signature: bytes, message: bytes) -> int:
    """As :meth:`pbem.protocol.identity.PublicIdentity.verify`: DONE if the
    signature is good, REFUSED if not."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric import ed25519

    if len(key_and_signature) != _KEY + _SIG:
        return UNDONE
    pub, sig = key_and_signature[:_KEY], key_and_signature[_KEY:]
    try:
        key = keys.get(pub)
        if key is None:
            key = keys[pub] = ed25519.Ed25519PublicKey.from_public_bytes(pub)
        key.verify(sig, message)
    except (InvalidSignature, ValueError):
        return REFUSED
    return DONE
