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
- ``EXCHANGE_AT`` and ``ENTRIES_AT`` (a worker forked with the game file,
  whose parse the replay took): as ``EXCHANGE`` and ``ENTRIES``, naming the
  exchange by its number (4 bytes) instead of sending it: the worker reads
  its own parse of the same bytes;
- ``OPEN`` (no check, answered at once): the marshal bytes of the reader's
  raw X25519 key, the game id and a list of (exchange number, sealed part):
  each part is opened (:func:`pbem.protocol.seal.unseal`) and written
  straight back as soon as it is, so that the replay, which needs them in
  order as it goes, finds each ready: for each part the exchange number (4
  bytes), a status byte, the plaintext's length (``FRAME`` bytes) and the
  plaintext; then ``OPENED`` zero bytes (exchange 0: the end).

At the end of its input it writes one ``ANSWER`` per check, in order: a
status byte, a byte saying whether a hash follows, and 32 bytes (the hash
of a state or an exchange).  Status ``DONE``: hashed, the signature is
good, the lists are the same; ``REFUSED``: the signature is bad, the lists
differ; ``UNDONE``: not answered (the encoding refused the value, the
check could not be read, cryptography could not be imported): the replay
works it out itself.  It imports nothing of pbem but the file format's
encoding.  A worker forked at the start of ``pbem verify``
(:func:`serve_forked`) first parses the game file, and answers a ``KEY``
check as well (:mod:`pbem.protocol.early`)."""
from __future__ import annotations

import marshal
import os
import signal
import sys
from typing import Any, BinaryIO, NoReturn

from pbem.protocol.canon import RecordMemo, canonical, sha256
from pbem.protocol.early import KEY, KEY_GOOD, KEY_SEAL, KEY_SIGN, KEY_UNKNOWN

FRAME = 4
ANSWER = 34
STATE, SIGNATURE, EXCHANGE, ENTRIES, OPEN = b"s", b"v", b"x", b"e", b"o"
EXCHANGE_AT, ENTRIES_AT = b"X", b"E"
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


def serve_forked(checks: int, answers: int, told: int, theirs: tuple[int, ...], data: bytes) -> NoReturn:
    """The body of a worker forked at the start of a verify
    (:mod:`pbem.protocol.early`): parse the game file's ``data`` and write
    the parse down ``told``; then answer the checks read from ``checks`` on
    ``answers`` as :func:`serve` does, and a ``KEY`` check on ``told``.  It
    never returns into the program it was forked from, whatever happens."""
    try:
        for fd in theirs:
            os.close(fd)
        quiet = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):        # the command's streams are not held open (its reader waits for their end)
            os.dup2(quiet, fd)
        with os.fdopen(told, "wb") as tell:
            exchanges, body = _parse(data)
            tell.write(len(body).to_bytes(FRAME, "big") + body)
            tell.flush()
            _ready()
            with os.fdopen(checks, "rb") as ins, os.fdopen(answers, "wb") as out:
                out.write(answer_all(ins, out, tell, exchanges))
    finally:
        os._exit(0)


def _parse(data: bytes) -> tuple[list[Any], bytes]:
    """The exchanges of a game file's ``data`` and the marshal bytes of its
    parse (and of its ``[state]`` public copy's hash); nothing if it does not
    parse (the replay meets the error itself)."""
    try:
        from pbem.protocol import gamefile

        gf = gamefile.parse(gamefile.decode(data, "game file"))
        text = gf.state.get("public")
        try:        # (the reading copy's hash, for the replay's check of it: "" if not JSON)
            public = None if text is None else (gamefile.public_digest(text) or "")
        except Exception:
            public = None
        return list(gf.exchanges), marshal.dumps((gf.exchanges, gf.state, public))
    except Exception:
        return [], b""


def _ready() -> None:
    """Import now what the checks will need, while the replay starts."""
    try:
        import pbem.protocol.identity
        import pbem.protocol.seal
        from cryptography.hazmat.primitives.asymmetric import ed25519, x25519  # noqa: F401
    except ImportError:
        pass


def _key_verdict(body: bytes) -> bytes:
    """The answer to a ``KEY`` check: as :func:`pbem.protocol.keyfile.load_private`
    checks a key file's stored public halves against its private keys
    (:data:`pbem.protocol.early.KEY_GOOD` ...), or ``KEY_UNKNOWN``."""
    from pbem.protocol.identity import Identity

    try:
        sign_key, seal_key, sign_pub, seal_pub = marshal.loads(body)
        public = Identity("", "", sign_key, seal_key).public
    except Exception:
        return bytes([KEY_UNKNOWN])
    return bytes([KEY_SIGN if public.sign_pub != sign_pub else KEY_SEAL if public.seal_pub != seal_pub else KEY_GOOD])


def answer_all(checks: BinaryIO, out: BinaryIO | None = None, tell: BinaryIO | None = None,
               exchanges: list[Any] | None = None) -> bytes:
    """One answer per check read from ``checks`` until its end; the sealed
    parts an ``OPEN`` hands are opened and written to ``out`` at once, and
    a ``KEY``'s verdict to ``tell``.  ``exchanges``: the game file as this
    worker parsed it (for the checks that name an exchange by number)."""
    memo = RecordMemo()
    keys: dict[bytes, Any] = {}
    answers = bytearray()
    while len(head := checks.read(1 + FRAME)) == 1 + FRAME:
        body = checks.read(int.from_bytes(head[1:], "big"))
        if head[:1] == OPEN:
            if out is not None:
                open_each(body, out)
            continue
        if head[:1] == KEY:
            if tell is not None:
                tell.write(_key_verdict(body))
                tell.flush()
            continue
        try:
            tag = head[:1]
            if tag in (EXCHANGE_AT, ENTRIES_AT):        # (IndexError: not an exchange of this parse)
                n = int.from_bytes(body[-4:], "big")
                tag, body = _named(tag, body[:-4], exchanges[n - 1] if exchanges and n > 0 else None)
            answers += _answer(tag, body, memo, keys)
        except Exception:                    # refused, or cut short: the replay works it out itself
            answers += bytes(ANSWER)
    return bytes(answers)


def _named(tag: bytes, body: bytes, exchange: Any) -> tuple[bytes, Any]:
    """An ``EXCHANGE_AT`` or ``ENTRIES_AT`` check as the check it stands for,
    with the exchange it names (marshal's bytes being what is read)."""
    if exchange is None:
        raise LookupError("no such exchange in this worker's parse")
    if tag == EXCHANGE_AT:
        return EXCHANGE, (body, exchange)
    return ENTRIES, (marshal.loads(body), exchange.get("orders", []))


def _answer(tag: bytes, body: Any, memo: RecordMemo, keys: dict[bytes, Any]) -> bytes:
    if tag == STATE:
        return bytes([DONE, 1]) + hash_state(body, memo)
    if tag == SIGNATURE:
        return bytes([_verify(keys, body[:_KEY + _SIG], body[_KEY + _SIG:]), 0]) + bytes(32)
    if tag == EXCHANGE:
        from pbem.protocol.gamefile import signing_and_hash

        key_and_signature, exchange = body if isinstance(body, tuple) else (body[:_KEY + _SIG],
                                                                              marshal.loads(body[_KEY + _SIG:]))
        signed, digest, _ = signing_and_hash(exchange)
        try:
            status = _verify(keys, key_and_signature, signed)
        except Exception:                    # the hash is answered even if the signature is not
            status = UNDONE
        return bytes([status, 1]) + bytes.fromhex(digest)
    if tag == ENTRIES:
        from pbem.protocol.gamefile import drop_none

        entries, listed = body if isinstance(body, tuple) else marshal.loads(body)
        return bytes([DONE if canonical(entries) == canonical(drop_none(listed)) else REFUSED, 0]) + bytes(32)
    return bytes(ANSWER)


def open_each(body: bytes, out: BinaryIO) -> None:
    """The answer to an ``OPEN`` (see the module), written to ``out`` part by
    part: status ``DONE`` and the plaintext, or ``UNDONE`` and nothing (it
    does not open: the replay opens it itself, and reports what that
    raises); then the end.  Only the end if the list cannot be read."""
    try:
        key, game_id, parts = marshal.loads(body)
        from pbem.protocol.seal import unseal
    except Exception:
        parts = []
    for n, blob in parts:
        try:
            plain, status = unseal(key, blob, game_id, n), DONE
        except Exception:
            plain, status = b"", UNDONE
        try:
            record = n.to_bytes(4, "big") + bytes([status]) + len(plain).to_bytes(FRAME, "big") + plain
        except Exception:       # not a list this program wrote: the rest is the replay's
            break
        out.write(record)
        out.flush()
    out.write(bytes(OPENED))
    out.flush()


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
