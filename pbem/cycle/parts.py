"""What an exchange carries besides its orders, opened and checked for
:mod:`.replay`: the sender's signature (and the identity a new or join
exchange introduces), its sealed part (our own, or at the audit the
sender's disclosure: dice seeds, the secret seed, order secrets) and its
part for its team (one copy per seat of its side, checked against its
hash)."""
from __future__ import annotations

import base64
import re
from collections.abc import Callable
from typing import Any, cast

from pbem.cycle.match import Match, Verification
from pbem.errors import InvalidFile, PbemError
from pbem.protocol import chain as dchain
from pbem.protocol.gamefile import signing_and_hash
from pbem.protocol.secret import unpad
from pbem.protocol.types import Exchange


def verify_signature(m: Match, ex: Exchange, where: str, later: Callable[[SignatureCheck], None] | None = None,
                     bytes_later: bool = False) -> tuple[str | None, bytes | None]:
    """Check ``ex``'s signature.  Found with the bytes it signs (speed
    only): its hash (``exchange_hash``) and the canonical bytes of its
    ``orders`` (None if not found).  ``later`` (speed only): takes the
    Ed25519 check itself instead, to be run (:meth:`SignatureCheck.run`)
    before anything found after this point is reported; every check of
    the key and the signature's text is done here.  ``bytes_later``
    (with ``later``): the bytes it signs are not found here either (the
    hash returned is None): ``later`` takes that too."""
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
    check = SignatureCheck(ident, ex, bytes.fromhex(ex["sig"]), side, where, m)
    if later is not None and bytes_later:
        later(check)
        return None, None
    orders = check.find_bytes()
    if later is None:
        check.run()
    else:
        later(check)
    return check.digest, orders


class SignatureCheck:
    """One exchange's Ed25519 check, with what its refusal says.  The
    seats are taken as they are when the check is made (a replay may move
    its players later): a signature that fails is tried against the other
    seats' keys, to name the one who signed it.  What the exchange signs
    and its hash are found by :meth:`find_bytes` (by the check itself if
    it is run first)."""

    __slots__ = ("ident", "ex", "sig", "side", "where", "seats", "signed", "digest")

    def __init__(self, ident: Any, ex: Exchange, sig: bytes, side: str, where: str, m: Match) -> None:
        self.ident, self.ex, self.sig, self.side, self.where = ident, ex, sig, side, where
        self.seats = [(s.side, s.identity) for s in m.seats.values()]
        self.signed: bytes | None = None
        self.digest: str | None = None

    def find_bytes(self) -> bytes | None:
        """Find what the exchange signs and its hash; the canonical bytes
        of its orders, if found with them.  Raises what the encoding
        raises for an exchange it refuses."""
        signed, self.digest, fields = signing_and_hash(self.ex)
        self.signed = signed
        return fields.get("orders")

    def _signed(self) -> bytes:
        if self.signed is None:
            self.find_bytes()
        assert self.signed is not None
        return self.signed

    def good(self) -> bool:
        """Whether the sender's key verifies the signature (thread-safe:
        what a background thread runs)."""
        return bool(self.ident.verify(self._signed(), self.sig))

    def refuse(self) -> None:
        """Raise the refusal of a signature :meth:`good` found bad."""
        side, where, signed = self.side, self.where, self._signed()
        other = [s for s, ident in self.seats if s != side and ident.verify(signed, self.sig)]
        if other:
            raise Verification(f"{where}: signed by {other[0]}'s key, but it claims to come from {side}")
        raise Verification(f"{where}: bad signature: altered after signing, or not signed by {side}'s key")

    def run(self) -> None:
        if not self.good():
            self.refuse()


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


def take_reveal(m: Match, ex: Exchange, where: str) -> bytes:
    """A play exchange's dice reveal: the next link down its seat's chain
    (or the first of the new chain it announced)."""
    seat = m.seats[ex["side"]]
    reveal = hex_field(ex, "reveal", where)
    target = seat.next_anchor if seat.next_anchor is not None else seat.last
    if not dchain.check_reveal(reveal, target):
        raise Verification(f"{where}: dice reveal does not hash to {ex['side']}'s previous reveal (forged or skipped dice)")
    if seat.next_anchor is not None:
        seat.next_anchor, seat.chain_n, seat.reveals_on_chain = None, seat.next_chain_n, 0
    seat.last = reveal
    seat.revealed_at = ex["n"]
    seat.reveals_on_chain += 1
    if seat.reveals_on_chain > seat.chain_n:
        raise Verification(f"{where}: {ex['side']} revealed past the end of its dice chain")
    return reveal


def maybe_renew(m: Match, ex: Exchange, where: str) -> None:
    """A play exchange may announce its seat's next dice chain."""
    if ex["kind"] == "play" and "anchor" in ex:
        seat = m.seats[ex["side"]]
        seat.next_anchor = hex_field(ex, "anchor", where)
        n = ex.get("chain_n")
        if not isinstance(n, int) or n < 1:
            raise Verification(f"{where}: new anchor without chain_n")
        seat.next_chain_n = n


def open_team(m: Match, ex: Exchange, me: Any, where: str) -> None:
    """A play exchange of a seat with team-mates carries its part for the
    team: one copy per seat of its side (``team_sealed``, keyed by seat)
    and the hash of what they hold (``team_hash``).  Every program checks
    the copies are there; a team-mate's opens his own and checks it against
    the hash (a sender that told team-mates different things is caught
    here); the audit takes the sender's disclosure."""
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
    from pbem.cycle.write import team_hash       # only here: a two-seat game has no team part

    if team_hash(plain) != digest_:
        raise Verification(f"{where}: {sender}'s team part differs from the hash it published "
                           "(a team-mate was told something else)")
    orders = plain.get("orders", {}) if isinstance(plain, dict) else {}
    if not isinstance(orders, dict):
        raise Verification(f"{where}: {sender}'s team part is malformed")
    m.team_secrets[ex["n"]] = orders


def open_sealed(m: Match, ex: Exchange, me: Any, disclosures: dict[str, Any], side: str, checks: Any = None) -> None:
    """Recover the sender's secrets for this exchange when we may: our own
    sealed part, or (audit) the sender's disclosure.  ``checks``: a
    :class:`~pbem.cycle.background.Background` whose worker may have opened
    it already (speed only)."""
    secrets: dict[str, Any]
    mine = not disclosures
    if not mine:
        secrets = {k: v for k, v in m.disclosed_parts.get(str(ex["n"]), {}).items() if k != "team"}
    elif me is not None and side == m.me and "sealed" in ex:
        try:
            blob = base64.b64decode(ex["sealed"], validate=True)
        except ValueError:
            raise Verification(f"exchange {ex['n']}: sealed part is not base64") from None
        plain = checks.opened(ex["n"], blob) if checks is not None else None
        secrets = unpad(plain if plain is not None else me.unseal(blob, m.game_id, ex["n"]))
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
