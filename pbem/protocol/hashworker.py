"""Speed only: the worker that hashes a replay's states in a second
process (started by :class:`pbem.cycle.hasher.StateHasher`).

It reads states from standard input, each as its length (``FRAME`` bytes,
big-endian) and its marshal bytes, and hashes each as the replay would
(:class:`~pbem.protocol.canon.RecordMemo`, then SHA-256).  At the end of
its input it writes one ``ANSWER`` per state: a status byte (1: hashed;
0: the encoding refused it, or it could not be read) and the 32-byte hash.
It imports nothing of pbem but the canonical form."""
from __future__ import annotations

import marshal
import signal
import sys
from typing import BinaryIO

from pbem.protocol.canon import RecordMemo, sha256

FRAME = 4
ANSWER = 33


def serve() -> None:
    """The worker's body: answer every state read, then exit."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # an interrupt is the replay's to report
    answers = hash_all(sys.stdin.buffer)
    sys.stdout.buffer.write(answers)
    sys.stdout.buffer.flush()


def hash_all(states: BinaryIO) -> bytes:
    """One answer per state read from ``states`` until its end."""
    memo = RecordMemo()
    answers = bytearray()
    while len(head := states.read(FRAME)) == FRAME:
        blob = states.read(int.from_bytes(head, "big"))
        try:
            answers += b"\x01" + sha256(memo.canonical(marshal.loads(blob)))
        except Exception:                    # refused, or cut short: the replay works it out itself
            answers += bytes(ANSWER)
    return bytes(answers)
