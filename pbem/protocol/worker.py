"""Speed only: the second process that checks a replay's state hashes and
signatures while the replay goes on (started by
:class:`pbem.cycle.worker.CheckWorker`).

It reads checks from standard input, each a tag byte, its length (``FRAME``
bytes, big-endian) and its body:

- ``STATE``: a state's marshal bytes, hashed as the replay hashes it
  (:class:`~pbem.protocol.canon.RecordMemo`, then SHA-256);
- ``SIGNATURE``: a raw Ed25519 public key (32 bytes), a signature (64
  bytes) and the message, verified.

At the end of its input it writes one ``ANSWER`` per check, in order: a
status byte and 32 bytes (the hash, for a state).  Status ``DONE``: hashed,
or the signature is good; ``REFUSED``: the signature is bad; ``UNDONE``:
not answered (the encoding refused the state, the check could not be read,
cryptography could not be imported): the replay works it out itself.
It imports nothing of pbem but the canonical form."""
from __future__ import annotations

import marshal
import signal
import sys
from typing import Any, BinaryIO

from pbem.protocol.canon import RecordMemo, sha256

FRAME = 4
ANSWER = 33
STATE, SIGNATURE = b"s", b"v"
UNDONE, DONE, REFUSED = 0, 1, 2
_KEY, _SIG = 32, 64


def serve() -> None:
    """The worker's body: answer every check read, then exit."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # an interrupt is the replay's to report
    answers = answer_all(sys.stdin.buffer)
    sys.stdout.buffer.write(answers)
    sys.stdout.buffer.flush()


def answer_all(checks: BinaryIO) -> bytes:
    """One answer per check read from ``checks`` until its end."""
    memo = RecordMemo()
    keys: dict[bytes, Any] = {}
    answers = bytearray()
    while len(head := checks.read(1 + FRAME)) == 1 + FRAME:
        body = checks.read(int.from_bytes(head[1:], "big"))
        try:
            if head[:1] == STATE:
                answers += bytes([DONE]) + sha256(memo.canonical(marshal.loads(body)))
            elif head[:1] == SIGNATURE:
                answers += bytes([_verify(keys, body)]) + bytes(ANSWER - 1)
            else:
                answers += bytes(ANSWER)
        except Exception:                    # refused, or cut short: the replay works it out itself
            answers += bytes(ANSWER)
    return bytes(answers)


def _verify(keys: dict[bytes, Any], body: bytes) -> int:
    """As :meth:`pbem.protocol.identity.PublicIdentity.verify`: DONE if the
    signature is good, REFUSED if not."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric import ed25519

    if len(body) < _KEY + _SIG:
        return UNDONE
    pub, sig, message = body[:_KEY], body[_KEY:_KEY + _SIG], body[_KEY + _SIG:]
    try:
        key = keys.get(pub)
        if key is None:
            key = keys[pub] = ed25519.Ed25519PublicKey.from_public_bytes(pub)
        key.verify(sig, message)
    except (InvalidSignature, ValueError):
        return REFUSED
    return DONE
