"""What an exchange carries besides its orders, opened and checked for
:mod:`.replay`: the sender's signature (and the identity a new or join
exchange introduces), its sealed part (our own, or at the audit the
sender's disclosure: dice seeds, the secret seed, order secrets) and its
part for its team (one copy per seat of its side, checked against its
hash)."""
from __future__ import annotations

import base64
import os
import re
from collections.abc import Callable
from typing import Any, cast

from pbem.cycle.match import Match, Verification
from pbem.errors import InvalidFile, PbemError
from pbem.protocol import chain as dchain
from pbem.protocol.gamefile import signing_and_hash
from pbem.protocol.secret import unpad
from pbem.protocol.types import Exchange


def verify_signature(m: Match, ex: Exchange, where: str,
                     later: Callable[[SignatureCheck], None] | None = None) -> tuple[str, bytes | None]:
    """Check ``ex``'s signature.  Found with the bytes it signs (speed
    only): its hash (``exchange_hash``) and the canonical bytes of its
    ``orders`` (None if not found).  ``later`` (speed only): takes the
    Ed25519 check itself instead, to be run (:meth:`SignatureCheck.run`)
    before anything found after this point is reported; every check of
    the key and the signature's text is done here."""
    side = ex["side"]
    if ex["n"] == 1:
        ident = identity_from(ex.get("player"), where)
    elif ex["kind"] == "join":
        ident = identity_from(ex.get("player"), where)
        invited = m.header.get("invited", {}).get(side)
        if invited and invited.get("sign_pub") != ident.sign_pub:
            raise Verification(f"{where}: joined with a key other than the invited player's ({ident.fingerprint})")
    else:
        seat = m.seats.get(side)
        if seat is None:
            raise Verification(f"{where}: no player has joined as {side}")
        ident = seat.identity
    # The signature text is part of the exchange's hash (the next exchange's
    # `prev`) but not of what it signs: only one spelling of it may verify.
    if not re.fullmatch(r"[0-9a-f]{128}", ex["sig"]):
        raise Verification(f"{where}: signature is not 128 lower-case hex digits")
    sig = bytes.fromhex(ex["sig"])
    signed, digest, fields = signing_and_hash(ex)
    check = SignatureCheck(ident, signed, sig, side, where, m)
    if later is None:
        check.run()
    else:
        later(check)
    return digest, fields.get("orders")


class SignatureCheck:
    """One exchange's Ed25519 check, with what its refusal says.  The
    seats are taken as they are when the check is made (a replay may move
    its players later): a signature that fails is tried against the other
    seats' keys, to name the one who signed it."""

    __slots__ = ("ident", "signed", "sig", "side", "where", "seats")

    def __init__(self, ident: Any, signed: bytes, sig: bytes, side: str, where: str, m: Match) -> None:
        self.ident, self.signed, self.sig, self.side, self.where = ident, signed, sig, side, where
        self.seats = [(s.side, s.identity) for s in m.seats.values()]

    def good(self) -> bool:
        """Whether the sender's key verifies the signature (thread-safe:
        what a background thread runs)."""
        return bool(self.ident.verify(self.signed, self.sig))

    def refuse(self) -> None:
        """Raise the refusal of a signature :meth:`good` found bad."""
        side, where = self.side, self.where
        other = [s for s, ident in self.seats if s != side and ident.verify(self.signed, self.sig)]
        if other:
            raise Verification(f"{where}: signed by {other[0]}'s key, but it claims to come from {side}")
        raise Verification(f"{where}: bad signature: altered after signing, or not signed by {side}'s key")

    def run(self) -> None:
        if not self.good():
            self.refuse()


# Speed only: a replay of a file of this many exchanges or more keeps its
# checks for the end (Background): its signatures are checked by two
# threads, and from HASH_FROM on by a second process with its state hashes
# (starting one costs about a millisecond here, ~20 ms on the other core).
BACKGROUND_FROM = 16
HASH_FROM = 32


def core_free() -> bool:
    """Whether a core looks idle: the last minute's load average at least
    half a core below the cores there are (where the system tells it)."""
    cores = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return cores >= 2
    return load < cores - 0.5


class StateCheck:
    """One exchange's state hash, kept for :class:`Background`: the index
    of its state in the worker and the hash the sender signed."""

    __slots__ = ("index", "expected", "where")

    def __init__(self, index: int, expected: Any, where: str) -> None:
        self.index, self.expected, self.where = index, expected, where


def state_differs(where: str) -> Verification:
    """The refusal of an exchange whose signed state hash is not the replay's."""
    return Verification(f"{where}: state hash differs from the replay (the exchange does not replay)")


def check_state(m: Match, ex: Exchange, where: str, checks: Background | None = None) -> None:
    """The state hash ``ex`` signed against the replay's; kept by
    ``checks`` if it takes it (speed only)."""
    if checks is not None and checks.hand_state(m.public_state(), ex["state"], where):
        return
    if ex["state"] != m.state_hash():
        raise state_differs(where)


class Background:
    """Speed only: a replay's checks that nothing after them needs, kept
    until its end (or its first error) and settled then, in file order.

    - From ``HASH_FROM`` exchanges on, a second process checks the state
      hashes and the Ed25519 signatures while the replay goes on
      (:class:`~pbem.cycle.worker.CheckWorker`).
    - Signatures it does not answer (a shorter file, or a worker that
      could not start or import cryptography) are checked at the end by
      two threads at once (cryptography's verify releases the GIL, so the
      two run on two cores).  Run during the replay instead, a second
      thread must take the GIL from the replay at every check and keeps it
      waiting (measured: main thread CPU -25 ms but wall +0..30 ms); at the
      end each thread mostly finds the GIL free, the other being in a verify.

    The replay of an exchange that a kept check refuses must not be what is
    reported: :meth:`settle` settles every check handed so far, then gives
    the first one's refusal, in the order they were handed (the order in
    which the plain replay, which checks each where it is met, would have
    met them)."""

    @staticmethod
    def for_file(exchanges: int) -> Background | None:
        """Checks kept for a file this long; None for a short one, not
        worth a thread, or when no core looks free: the second thread's
        (and process's) work then only adds to what the busy cores must run."""
        if exchanges < BACKGROUND_FROM or not core_free():
            return None
        worker = None
        if exchanges >= HASH_FROM:
            from pbem.cycle.worker import CheckWorker

            worker = CheckWorker.start()
        return Background(worker)

    def __init__(self, worker: Any = None) -> None:
        self._checks: list[tuple[SignatureCheck | StateCheck, int | None]] = []
        self._worker = worker

    def hand(self, check: SignatureCheck) -> None:
        index = None
        if self._worker is not None:
            index = self._worker.hand_signature(check.ident.sign_pub_raw, check.sig, check.signed)
        self._checks.append((check, index))

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
        self._checks.append((StateCheck(index, expected, where), index))
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
        undone = [c for c, i in checks if isinstance(c, SignatureCheck) and (i is None or answers[i] is None)]
        verdicts = dict(zip(map(id, undone), _signature_verdicts(undone)))
        for check, index in checks:
            verdict = answers[index] if index is not None and id(check) not in verdicts else verdicts.get(id(check))
            if isinstance(verdict, BaseException):
                return verdict
            if isinstance(check, StateCheck):
                if check.expected != verdict:
                    return state_differs(check.where)
            elif not verdict:
                try:
                    check.refuse()
                except Verification as refused:
                    return refused
        return None


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


def identity_from(d: Any, where: str) -> Any:
    from pbem.protocol.identity import PublicIdentity

    try:
        return PublicIdentity.from_dict(d, where=f"{where} player")
    except PbemError as exc:
        raise Verification(f"{where}: {exc}") from None


def hex_field(ex: Exchange, key: str, where: str, size: int = 32) -> bytes:
    try:
        raw = bytes.fromhex(cast(dict[str, Any], ex)[key])
    except (KeyError, ValueError, TypeError):
        raise Verification(f"{where}: missing or malformed {key}") from None
    if len(raw) != size:
        raise Verification(f"{where}: {key} should be {size} bytes")
    return raw


def open_team(m: Match, ex: Exchange, me: Any, where: str) -> None:
    """A play exchange of a seat with team-mates carries its part for the
    team: one copy per seat of its side (``team_sealed``, keyed by seat)
    and the hash of what they hold (``team_hash``).  Every program checks
    the copies are there; a team-mate's opens his own and checks it against
    the hash (a sender that told team-mates different things is caught
    here); the audit takes the sender's disclosure."""
    from pbem.cycle.write import team_hash
    from pbem.protocol.seal import unseal_team

    sender = ex["side"]
    if ex["kind"] != "play":
        return
    copies, digest_ = ex.get("team_sealed"), ex.get("team_hash")
    if not m.has_team(sender):
        if copies is not None or digest_ is not None:
            raise Verification(f"{where}: a team part from {sender}, who has no team-mate")
        return
    team = m.team(sender)
    if not isinstance(copies, dict) or sorted(copies) != sorted(team) or not isinstance(digest_, str):
        raise Verification(f"{where}: {sender}'s part for its team needs one copy for each of "
                           f"{', '.join(team)} and its hash")
    if m.disclosures:
        plain = m.disclosed_parts.get(str(ex["n"]), {}).get("team")
        if not isinstance(plain, dict):
            raise Verification(f"{where}: the disclosure does not open {sender}'s team part")
    elif me is not None and m.me in team:
        try:
            blob = base64.b64decode(copies[m.me], validate=True)
        except (ValueError, TypeError):
            raise Verification(f"{where}: {m.me}'s copy of the team part is not base64") from None
        try:
            plain = unpad(unseal_team(me.seal_key, blob, m.game_id, ex["n"], sender=sender, recipient=m.me))
        except InvalidFile as exc:
            raise Verification(f"{where}: {exc}") from None
        except ValueError:
            raise Verification(f"{where}: {m.me}'s copy of the team part is not a padded table") from None
    else:
        return
    if team_hash(plain) != digest_:
        raise Verification(f"{where}: {sender}'s team part differs from the hash it published "
                           "(a team-mate was told something else)")
    orders = plain.get("orders", {}) if isinstance(plain, dict) else {}
    if not isinstance(orders, dict):
        raise Verification(f"{where}: {sender}'s team part is malformed")
    m.team_secrets[ex["n"]] = orders


def open_sealed(m: Match, ex: Exchange, me: Any, disclosures: dict[str, Any], side: str) -> None:
    """Recover the sender's secrets for this exchange when we may: our own
    sealed part, or (audit) the sender's disclosure."""
    secrets: dict[str, Any]
    mine = not disclosures
    if not mine:
        secrets = {k: v for k, v in m.disclosed_parts.get(str(ex["n"]), {}).items() if k != "team"}
    elif me is not None and side == m.me and "sealed" in ex:
        try:
            blob = base64.b64decode(ex["sealed"], validate=True)
        except ValueError:
            raise Verification(f"exchange {ex['n']}: sealed part is not base64") from None
        secrets = unpad(me.unseal(blob, m.game_id, ex["n"]))
    else:
        return
    if "seed" in secrets:
        seed = bytes.fromhex(secrets["seed"])
        _check_seed(m, ex, seed)
        if mine:
            m.my_seeds.append((seed, ex["chain_n"]))
    _take_secret_seed(m, ex, side, secrets)
    m.my_secrets[ex["n"]] = secrets.get("orders", {})


def _take_secret_seed(m: Match, ex: Exchange, side: str, secrets: dict[str, Any]) -> None:
    """A new or join exchange seals the seat's secret seed: check it against
    the commitment it published, and keep it."""
    if ex["kind"] not in ("new", "join"):
        return
    from pbem.protocol.secret import seed_commitment

    try:
        seed = bytes.fromhex(secrets["secret_seed"])
    except (KeyError, TypeError, ValueError):
        raise Verification(f"exchange {ex['n']}: {side}'s secret seed is missing from its sealed part") from None
    if seed_commitment(seed) != m.seats[side].secret_commit:
        raise Verification(f"exchange {ex['n']}: {side}'s secret seed does not match its published commitment")
    m.secret_seeds[side] = seed


def _check_seed(m: Match, ex: Exchange, seed: bytes) -> None:
    if "anchor" not in ex or "chain_n" not in ex:
        raise Verification(f"exchange {ex['n']}: a dice seed is disclosed for an exchange that published no anchor")
    if dchain.anchor(seed, ex["chain_n"]).hex() != ex["anchor"]:
        raise Verification(f"exchange {ex['n']}: sealed dice seed does not match the published anchor")
