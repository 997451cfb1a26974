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
  nulls dropped;
- ``OPEN`` (no check, answered at once): the marshal bytes of the reader's
  raw X25519 key, the game id and a list of (exchange number, sealed part):
  each part is opened (:func:`pbem.protocol.seal.unseal`) and written
  straight back, so that the replay, which needs them as it goes, finds
  them ready: the length of what follows (``FRAME`` bytes), then for each
  part the exchange number (4 bytes), a status byte, the plaintext's length
  (``FRAME`` bytes) and the plaintext.

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
STATE, SIGNATURE, EXCHANGE, ENTRIES, OPEN = b"s", b"v", b"x", b"e", b"o"
OPENED = 4 + 1 + FRAME      # the head of an opened part
UNDONE, DONE, REFUSED = 0, 1, 2
_KEY, _SIG = 32, 64


def serve() -> None:
    """The worker's body: answer every check read, then exit at once (the
    replay waits for the end of the answers: the interpreter's teardown
    would only keep it waiting)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # an interrupt is the replay's to report
    answers = answer_all(sys.stdin.buffer, sys.stdout.buffer)
    sys.stdout.buffer.write(answers)
    sys.stdout.buffer.flush()
    os._exit(0)


def answer_all(checks: BinaryIO, out: BinaryIO | None = None) -> bytes:
    """One answer per check read from ``checks`` until its end; the sealed
    parts an ``OPEN`` hands are opened and written to ``out`` at once."""
    memo = RecordMemo()
    keys: dict[bytes, Any] = {}
    answers = bytearray()
    while len(head := checks.read(1 + FRAME)) == 1 + FRAME:
        body = checks.read(int.from_bytes(head[1:], "big"))
        if head[:1] == OPEN:
            if out is not None:
                out.write(open_all(body))
                out.flush()
            continue
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


def open_all(body: bytes) -> bytes:
    """The answer to an ``OPEN`` (see the module): for each part, status
    ``DONE`` and the plaintext, or ``UNDONE`` and nothing (it does not open:
    the replay opens it itself, and reports what that raises).  Nothing but
    the length if the list cannot be read."""
    out = bytearray()
    try:
        key, game_id, parts = marshal.loads(body)
        from pbem.protocol.seal import unseal

        for n, blob in parts:
            try:
                plain = unseal(key, blob, game_id, n)
            except Exception:
                plain = b""
                status = UNDONE
            else:
                status = DONE
            out += n.to_bytes(4, "big") + bytes([status]) + len(plain).to_bytes(FRAME, "big") + plain
    except Exception:
        out.clear()
    return len(out).to_bytes(FRAME, "big") + bytes(out)


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
