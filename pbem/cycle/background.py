"""Speed only: a replay's checks that nothing after them needs, kept until
its end (or its first error) and settled then, in the order the plain
replay meets them.

A replay checks, for each exchange, its link to the exchange before (the
hash of that exchange), its Ed25519 signature, that the orders the rules
gave are the ones it lists, and the state hash its sender signed.  None of
the answers is needed to go on replaying: they are only compared.  So a
replay of a long file (``BACKGROUND_FROM`` exchanges or more) with a core
free keeps them (:class:`Background`):

- from ``HASH_FROM`` exchanges on, a second process answers all of them
  while the replay goes on (:class:`~pbem.cycle.worker.CheckWorker`);
- signatures it does not answer (a shorter file, or a worker that could
  not start or import cryptography) are checked at the end by two threads
  at once (cryptography's verify releases the GIL, so the two run on two
  cores).  Run during the replay instead, a second thread must take the
  GIL from the replay at every check and keeps it waiting (measured: main
  thread CPU -25 ms but wall +0..30 ms); at the end each thread mostly
  finds the GIL free, the other being in a verify;
- anything else the worker does not answer is worked out here at the end,
  from the replay's kept copies, raising what the plain check would have.

The worker also opens the reader's own sealed parts ahead of the replay
(:meth:`Background.open_ahead`): the replay takes a plaintext from it only
for the very bytes it finds in the file, and opens anything else itself.

The replay of an exchange that a kept check refuses must not be what is
reported: :meth:`Background.settle` settles every check handed so far,
then gives the first one's refusal, in the order they were handed (the
order in which the plain replay, which checks each where it is met, would
have met them).  What this changes: a forged exchange's content reaches the
rules before its refusal is found.  A signed hostile exchange from the
opponent already can.
"""
from __future__ import annotations

import base64
import os
from collections.abc import Callable, Sequence
from typing import Any

from pbem.cycle.match import Match, Verification
from pbem.cycle.parts import SignatureCheck
from pbem.protocol.gamefile import ZERO_HASH, exchange_hash
from pbem.protocol import early
from pbem.protocol.spawn import core_free as core_free     # (looked up here: tests replace it)
from pbem.protocol.worker import OPENED
from pbem.protocol.types import Exchange

# A replay of a file of this many exchanges or more keeps its checks for
# the end; from HASH_FROM on a second process answers them.  Starting one
# costs about a millisecond here, but its interpreter is ready only ~40 ms
# later (on the other core): a shorter replay (a Moscow '41 game of 50
# exchanges takes about that) would end up waiting for it.
BACKGROUND_FROM = 16
HASH_FROM = 64
# The reader's sealed parts a worker opens ahead hold at most this many
# bytes (and at most what its answers' pipe holds: CheckWorker.hand_sealed),
# so that the worker never waits to write their plaintexts.
OPEN_AHEAD_BYTES = 48 << 10


def state_differs(where: str) -> Verification:
    """The refusal of an exchange whose signed state hash is not the replay's."""
    return Verification(f"{where}: state hash differs from the replay (the exchange does not replay)")


def link_broken(where: str, i: int) -> Verification:
    """The refusal of an exchange whose ``prev`` is not the hash of the one before."""
    return Verification(f"{where}: does not follow exchange {i - 1} (chain link broken: history edited or reordered)")


def check_state(m: Match, ex: Exchange, where: str, checks: Background | None = None) -> None:
    """The state hash ``ex`` signed against the replay's; kept by
    ``checks`` if it takes it (speed only)."""
    if checks is not None and checks.hashes_exchanges and checks.hand_state(m.public_state(), ex["state"], where):
        return
    if ex["state"] != m.state_hash():
        raise state_differs(where)


class _Link:
    """Exchange ``n``'s ``prev`` against the hash of the exchange before
    (``before``), known or the worker's answer at ``source``."""

    __slots__ = ("n", "prev", "before", "source", "where")

    def __init__(self, n: int, prev: Any, before: Exchange, source: str | int, where: str) -> None:
        self.n, self.prev, self.before, self.source, self.where = n, prev, before, source, where


class _State:
    __slots__ = ("expected", "where")

    def __init__(self, expected: Any, where: str) -> None:
        self.expected, self.where = expected, where


class _Entries:
    """The order lists the rules gave and the exchange lists: ``plain(entries,
    listed)`` is the plain check, run on the kept copies unless the worker
    found them the same."""

    __slots__ = ("plain",)

    def __init__(self, plain: Callable[[Any, Any], None]) -> None:
        self.plain = plain


_Check = SignatureCheck | _Link | _State | _Entries


class Background:
    """A replay's kept checks (see the module): hand them in the order the
    plain replay makes them, then :meth:`settle`; :meth:`close` in any case."""

    @staticmethod
    def for_file(exchanges: int) -> Background | None:
        """Checks kept for a file this long; None for a short one, not
        worth a thread, or when no core looks free: the second thread's
        (and process's) work then only adds to what the busy cores must run."""
        if exchanges < BACKGROUND_FROM or not (early.running() or core_free()):
            return None         # (a worker forked at the start is there already: it is used)
        worker = None
        if exchanges >= HASH_FROM:
            from pbem.cycle.worker import CheckWorker

            worker = CheckWorker.start()
        return Background(worker, exchanges)

    def __init__(self, worker: Any = None, exchanges: int = 0) -> None:
        self._checks: list[tuple[_Check, int | None]] = []
        self._worker = worker
        self._states_to_come = exchanges      # (one state check an exchange)
        self._last: str | int = ZERO_HASH     # the last exchange's hash, or the worker's index for it

    @property
    def hashes_exchanges(self) -> bool:
        """Whether exchange hashes, links and order lists are left to the
        worker: the caller then hands each with :meth:`hand_link`,
        :meth:`hand` (a check made with no bytes: :meth:`SignatureCheck.later`)
        and :meth:`hand_entries`."""
        return self._worker is not None

    def open_ahead(self, exchanges: Sequence[Exchange], me: Any, game_id: str) -> None:
        """Have the worker open the sealed parts of the reader's seat (``me``,
        its private identity) while the replay goes on: :meth:`opened` then
        gives them (speed only: one X25519 exchange each, on the other core)."""
        if self._worker is not None and me is not None:
            self._worker.hand_sealed(me.seal_key, game_id, sealed_parts(exchanges, me.public.sign_pub))

    def opened(self, n: int, blob: bytes) -> bytes | None:
        """Exchange ``n``'s sealed part ``blob`` as the worker opened it
        ahead, or None: not opened (yet), and the caller opens it."""
        return self._worker.opened(n, blob) if self._worker is not None else None  # type: ignore[no-any-return]

    def hand_link(self, n: int, prev: Any, before: Exchange, where: str) -> None:
        """Keep the check that exchange ``n``'s ``prev`` is the hash of
        ``before``, the exchange before it (the last one handed)."""
        self._checks.append((_Link(n, prev, before, self._last, where), None))

    def hand(self, check: SignatureCheck) -> None:
        """Keep a signature check.  With a worker, one whose bytes are not
        found yet (:attr:`hashes_exchanges`) sends its whole exchange, and
        the worker works out what it signs and its hash too."""
        index = None
        if self._worker is not None:
            index = self._hand_to_worker(check)
        self._checks.append((check, index))

    def _hand_to_worker(self, check: SignatureCheck) -> int:
        key = check.ident.sign_pub_raw
        if check.signed is None:
            try:
                index: int = self._worker.hand_exchange(key, check.sig, check.ex)
            except ValueError:              # marshal cannot copy it: its bytes are found here
                check.find_bytes()
            else:
                self._last = index
                return index
        assert check.signed is not None and check.digest is not None
        self._last = check.digest
        return self._worker.hand_signature(key, check.sig, check.signed)  # type: ignore[no-any-return]

    def hand_state(self, state: Any, expected: Any, where: str) -> bool:
        """Keep the check of ``state`` against the signed hash ``expected``;
        False if not kept (no worker, or a state marshal cannot copy): the
        caller checks it at once."""
        if self._worker is None:
            return False
        try:
            index = self._worker.hand_state(state)
        except ValueError:
            return False
        self._checks.append((_State(expected, where), index))
        self._states_to_come -= 1
        if self._states_to_come < 3:    # speed only: the last checks go at once, for the worker to be done sooner
            self._worker.flush()
        return True

    def hand_entries(self, entries: Any, listed: Any, plain: Callable[[Any, Any], None], exchange: Any = None) -> bool:
        """Keep the check that ``entries`` (the replay's order list) and
        ``listed`` (the exchange's) are the same; ``plain(entries, listed)``
        is that check, raising its refusal, run at the end on copies of the
        two unless the worker found them the same.  False if not kept: the
        caller checks at once."""
        if self._worker is None:
            return False
        try:
            index = self._worker.hand_entries(entries, listed, exchange)
        except ValueError:
            return False
        self._checks.append((_Entries(plain), index))
        return True

    def close(self) -> None:
        """End the worker, if any, whatever happened (nothing is checked)."""
        if self._worker is not None:
            self._worker.close()
            self._worker = None

    def settle(self) -> BaseException | None:
        """Settle every check handed; the first failure's refusal, if one failed."""
        checks, self._checks = self._checks, []
        worker, self._worker = self._worker, None
        answers = worker.answers() if worker is not None else []
        undone = [c for c, i in checks if isinstance(c, SignatureCheck) and (i is None or answers[i].good is None)]
        verdicts = dict(zip(map(id, undone), _signature_verdicts(undone)))
        for check, index in checks:
            answer = answers[index] if index is not None else None
            try:
                _settle_one(check, answer, answers, verdicts)
            except Exception as exc:
                return exc
        return None


def sealed_parts(exchanges: Sequence[Exchange], sign_pub: str,
                 limit: int = OPEN_AHEAD_BYTES) -> list[tuple[int, bytes]]:
    """The sealed parts (exchange number, bytes) of the seats the player
    whose key is ``sign_pub`` took, in order, up to ``limit`` bytes.  A
    guess (speed only): the replay opens whatever it needs itself, and
    uses an opened part only for the very bytes it finds there."""
    seats = {ex.get("side") for ex in exchanges if isinstance(ex, dict) and ex.get("kind") in ("new", "join")
             and isinstance(ex.get("player"), dict) and ex["player"].get("sign_pub") == sign_pub}
    parts: list[tuple[int, bytes]] = []
    for ex in exchanges:
        n, sealed = ex.get("n"), ex.get("sealed")
        if ex.get("side") not in seats or not isinstance(sealed, str) or type(n) is not int or not 0 < n < 1 << 32:
            continue
        try:
            blob = base64.b64decode(sealed, validate=True)
        except ValueError:
            continue
        limit -= len(blob) + OPENED     # (a plaintext is shorter than its sealed part)
        if limit < 0:
            break
        parts.append((n, blob))
    return parts


def _settle_one(check: _Check, answer: Any, answers: list[Any], verdicts: dict[int, Any]) -> None:
    """Raise ``check``'s refusal, if it fails (``answer``: the worker's,
    a :class:`~pbem.cycle.worker.Answer`, or None)."""
    if isinstance(check, _Link):
        source = check.source
        digest = source if isinstance(source, str) else answers[source].digest
        if check.prev != (digest if digest is not None else exchange_hash(check.before)):
            raise link_broken(check.where, check.n)
    elif isinstance(check, _State):
        if answer.error is not None:
            raise answer.error
        if check.expected != answer.digest:
            raise state_differs(check.where)
    elif isinstance(check, _Entries):
        if not answer.good:
            check.plain(*answer.kept)
    else:
        verdict = verdicts[id(check)] if id(check) in verdicts else answer.good
        if isinstance(verdict, BaseException):
            raise verdict
        if not verdict:
            check.refuse()


def _signature_verdicts(checks: list[SignatureCheck]) -> list[BaseException | bool | None]:
    """Each check's :meth:`SignatureCheck.good`, or what it raised, run by
    two threads at once."""
    if not checks:
        return []
    import threading

    verdicts: list[BaseException | bool | None] = [None] * len(checks)
    todo = iter(range(len(checks)))      # shared: each index is taken by one thread

    def work() -> None:
        for i in todo:
            try:
                verdicts[i] = checks[i].good()
            except BaseException as exc:   # raised where the plain replay would have
                verdicts[i] = exc

    helper = threading.Thread(target=work, name="pbem-signatures", daemon=True)
    helper.start()
    work()
    helper.join()
    return verdicts
