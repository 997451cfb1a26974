"""Writing the exchanges that are not play: a new game, a join, a
disclosure, a rewind offer or answer; and signing and sealing for all."""
from __future__ import annotations

import base64
import os
from typing import Any, Iterator

from pbem.cycle import match as _match
from pbem.cycle.match import (
    DICE_TIMINGS,
    Match,
    initial_engine_state,
    public_engine_state,
)
from pbem.cycle.run import FEATURES
from pbem.errors import UsageError
from pbem.game import validate_seats
from pbem.protocol.program import PROGRAM
from pbem.protocol import chain as dchain
from pbem.protocol import gamefile
from pbem.protocol.canon import canonical, digest
from pbem.protocol.gamefile import ZERO_HASH, GameFile, exchange_hash, signing_bytes
from pbem.protocol.secret import seed_commitment, unpad
from pbem.protocol.types import Exchange, Header
from pbem.scenario import scenario_sha256

SEALED_TAG = b"pbem/sealed/v1"
TEAM_TAG = b"pbem/team/v1"
TEAM_PAD = 1024
"""A part for the team is padded to at least this many bytes, so that its
size says nothing of what it holds (a cup of short chit ids or long ones)."""


def seal_part(identity: Any, secret_part: dict[str, Any], game_id: str, n: int) -> tuple[str, str]:
    """The sealed part of an exchange and its hash: ``secret_part`` gets a
    random nonce (so the hash cannot be guessed from a few likely values),
    is padded to a size bucket (so its length says nothing) and sealed to
    its owner.  The hash, published beside it, binds the disclosure made at
    the audit to what was sealed."""
    from pbem.protocol.seal import seal
    from pbem.protocol.secret import pad

    part = dict(secret_part, nonce=os.urandom(16).hex())
    blob = seal(identity.public.seal_pub_raw, pad(canonical(part)), game_id, n)
    return base64.b64encode(blob).decode("ascii"), sealed_hash(part)


def sealed_hash(part: Any) -> str:
    import hashlib

    return hashlib.sha256(SEALED_TAG + canonical(part)).hexdigest()


def team_hash(part: Any) -> str:
    """``H(b"pbem/team/v1" || canonical(part))``: what every copy of a part
    sealed to a team holds, published beside the copies."""
    import hashlib

    return hashlib.sha256(TEAM_TAG + canonical(part)).hexdigest()


def team_keys(m: Any, seat: str) -> dict[str, bytes]:
    """The X25519 keys of every seat of ``seat``'s side (``seat`` included),
    when it has team-mates; {} otherwise (no team part is written)."""
    if not m.has_team(seat):
        return {}
    return {s: m.seats[s].identity.seal_pub_raw for s in m.team(seat)}


def seal_team_into(ex: Exchange, team: dict[str, bytes], team_secrets: dict[str, Any]) -> None:
    """Add ``team_sealed`` (seat -> base64 of its copy) and ``team_hash``:
    the team part ``{orders?, nonce}`` padded to a fixed bucket and sealed
    once to each seat of the team, the sender's own included (so that he
    can disclose it)."""
    from pbem.protocol.seal import seal_team
    from pbem.protocol.secret import pad

    part: dict[str, Any] = {"nonce": os.urandom(16).hex()}
    if team_secrets:
        part["orders"] = team_secrets
    padded = pad(canonical(part), TEAM_PAD)
    ex["team_sealed"] = {
        seat: base64.b64encode(seal_team(key, padded, ex["game_id"], ex["n"], sender=ex["side"],
                                         recipient=seat)).decode("ascii")
        for seat, key in sorted(team.items())}
    ex["team_hash"] = team_hash(part)


def seal_into(ex: Exchange, identity: Any, secret_part: dict[str, Any], *, team: dict[str, bytes] | None = None,
              team_secrets: dict[str, Any] | None = None) -> None:
    """Add the ``sealed`` and ``sealed_hash`` fields to exchange ``ex``; with
    ``team`` (:func:`team_keys`), the part for the team too."""
    if team:
        seal_team_into(ex, team, team_secrets or {})
    elif team_secrets:
        raise UsageError("a secret for the team in a game where this seat has no team-mate")
    ex["sealed"], ex["sealed_hash"] = seal_part(identity, secret_part, ex["game_id"], ex["n"])


def _new_seeds() -> tuple[bytes, bytes]:
    """A dice-chain seed and a secret seed, from the OS CSPRNG."""
    return os.urandom(32), os.urandom(32)


def sign(ex: Exchange, identity: Any) -> Exchange:
    ex = gamefile.drop_none(ex)
    ex["sig"] = identity.sign(signing_bytes(ex)).hex()
    return ex


# -------------------------------------------------------- new, join, disclose


def game_seats(game: Any, options: dict[str, Any]) -> tuple[Any, ...]:
    """The game's seats for these options, checked (2 to 6, named once, on
    at least two sides)."""
    seats = tuple(game.seats(options))
    validate_seats(seats)
    return seats


def header_for(game: Any, *, game_id: str, scenario_name: str, scenario: dict[str, Any],
               options: dict[str, Any], dice: str, invited: dict[str, Any],
               position: dict[str, Any] | None = None) -> Header:
    """The ``[game]`` header: what every program needs to replay the game.
    ``sides`` lists the seats in order; a ``[seats]`` table is written only
    when some seat is not simply a side of its own name."""
    if dice not in DICE_TIMINGS:
        raise UsageError(f"dice timing must be one of {', '.join(DICE_TIMINGS)}")
    full_options = game.validate_options(options)
    seats = game_seats(game, full_options)
    header: dict[str, Any] = {
        "format": gamefile.FORMAT, "id": game_id, "game": game.id, "scenario": scenario_name,
        "scenario_sha256": scenario_sha256(scenario), "dice": dice, "options": full_options,
        "sides": [s.name for s in seats], "invited": {s: i.to_dict() for s, i in invited.items()},
    }
    if position is not None:
        header["position"] = position
    header["features"] = list(FEATURES)      # engine behaviour this file relies on (pbem.cycle.run)
    header["program"] = PROGRAM              # who to finish the game with if a later pbem refuses it
    if any(s.side != s.name or s.roles for s in seats):
        header["seats"] = {s.name: {"side": s.side, "roles": list(s.roles)} for s in seats}
    unknown = set(invited) - set(header["sides"])
    if unknown:
        raise UsageError(f"{game.id} has no seat {sorted(unknown)[0]!r}; seats: {', '.join(header['sides'])}")
    return gamefile.drop_none(header)  # type: ignore[no-any-return]


def new_game(
    *,
    game_id: str,
    game: str,
    scenario_name: str,
    scenario: dict[str, Any],
    options: dict[str, Any],
    dice: str,
    creator: Any,
    creator_side: str,
    invited: dict[str, Any],
    message: str = "",
    position: dict[str, Any] | None = None,
) -> GameFile:
    """Exchange 1: the header, the creator's identity and dice anchor.
    ``creator_side`` names the creator's seat; ``invited`` maps the other
    seats to the identities invited to them."""
    from pbem import games

    g = games.load(game)
    header = header_for(g, game_id=game_id, scenario_name=scenario_name, scenario=scenario,
                        options=options, dice=dice, invited=invited, position=position)
    if creator_side not in header["sides"]:
        raise UsageError(f"{game} has no seat {creator_side!r}; seats: {', '.join(header['sides'])}")
    seed, secret = _new_seeds()
    ex: Exchange = {
        "game_id": game_id, "n": 1, "kind": "new", "side": creator_side, "prev": ZERO_HASH, "game": header,
        "player": creator.public.to_dict(), "anchor": dchain.anchor(seed, _match.CHAIN_LENGTH).hex(),
        "chain_n": _match.CHAIN_LENGTH, "secret_commit": seed_commitment(secret),
    }
    if message:
        ex["message"] = message
    seal_into(ex, creator, {"seed": seed.hex(), "secret_seed": secret.hex()})
    m = Match(dict(header), scenario)
    ex["state"] = digest(public_engine_state(initial_engine_state(m.rules, m.seat_names, {creator_side},
                                                                  m.sides_of())))
    return GameFile([sign(ex, creator)])


def join_exchange(m: Match, me: Any, side: str, message: str = "") -> Exchange:
    """A join: the joiner's identity and dice anchor for seat ``side``."""
    if side not in m.seat_names:
        raise UsageError(f"this game has no seat {side!r}; seats: {', '.join(m.seat_names)}")
    if side in m.seats:
        raise UsageError(f"{side} has already joined this game")
    if any(s.identity.sign_pub == me.public.sign_pub for s in m.seats.values()):
        raise UsageError("you have already joined this game")
    invited = m.header.get("invited", {}).get(side)
    if invited and invited.get("sign_pub") != me.public.sign_pub:
        raise UsageError(f"this game invited another player as {side} (fingerprint {invited.get('fingerprint', '?')})")
    seed, secret = _new_seeds()
    n = len(m.exchanges) + 1
    ex: Exchange = {
        "game_id": m.game_id, "n": n, "kind": "join", "side": side, "prev": exchange_hash(m.exchanges[-1]),
        "player": me.public.to_dict(), "anchor": dchain.anchor(seed, _match.CHAIN_LENGTH).hex(),
        "chain_n": _match.CHAIN_LENGTH, "secret_commit": seed_commitment(secret),
        "orders": [],
    }
    if message:
        ex["message"] = message
    seal_into(ex, me, {"seed": seed.hex(), "secret_seed": secret.hex()})
    ex["state"] = digest(public_engine_state(m.es))   # a join changes no state
    return sign(ex, me)


def disclose_exchange(m: Match, me: Any) -> Exchange:
    """At game end, in turn: publish every sealed part this seat sent (its
    seeds and secret order parts), so that ``pbem audit`` can replay with
    nothing hidden."""
    from pbem.cycle import audit

    if not m.over():
        raise UsageError("the game is not over: secrets are disclosed only at its end")
    if m.me in audit.disclosed(m):
        raise UsageError("you have already disclosed your secrets in this game")
    due = audit.next_discloser(m)
    if due != m.me or m.me is None:
        raise UsageError(f"waiting for {due} to disclose first (seats disclose in turn, so that no copy forks)")
    from pbem.protocol.seal import unseal_team

    secrets: dict[str, Any] = {}
    for sent in audit.sent_by_player(m, m.me):
        if "sealed" not in sent:
            continue
        blob = base64.b64decode(sent["sealed"])
        part = unpad(me.unseal(blob, m.game_id, sent["n"]))
        if "team_sealed" in sent:
            copy = base64.b64decode(sent["team_sealed"][sent["side"]])
            part["team"] = unpad(unseal_team(me.seal_key, copy, m.game_id, sent["n"], sender=sent["side"],
                                             recipient=sent["side"]))
        secrets[str(sent["n"])] = part
    ex: Exchange = {
        "game_id": m.game_id, "n": len(m.exchanges) + 1, "kind": "disclose", "side": m.me,
        "prev": exchange_hash(m.exchanges[-1]), "secrets": secrets, "state": m.state_hash(),
    }
    return sign(ex, me)


def forfeit_exchange(m: Match, me: Any) -> Exchange:
    """Record that the seat whose disclosure is due will not make it."""
    from pbem.cycle import audit

    due = audit.next_discloser(m)
    if m.me not in audit.disclosed(m):
        raise UsageError("disclose your own secrets first (`pbem audit`)")
    if due is None or due == m.me:
        raise UsageError("no other seat's disclosure is due")
    ex: Exchange = {"game_id": m.game_id, "n": len(m.exchanges) + 1, "kind": "forfeit", "side": m.me, "who": due,
          "prev": exchange_hash(m.exchanges[-1]), "state": m.state_hash()}
    return sign(ex, me)


def rewind_exchange(m: Match, me: Any, to: int | None = None, *, decline: bool = False) -> Exchange:
    """Offer to take the game back to the state after exchange ``to``; with
    ``to=None``, accept the open offer (or, with ``decline``, refuse it)."""
    if m.me is None:
        raise UsageError("this key is not a player of this game")
    if to is None:
        offer = m.rewind_offer
        if not offer or offer["by"] == m.me:
            raise UsageError("there is no rewind offer from another player to answer")
        if m.me in offer["agreed"]:
            raise UsageError("you have already accepted this rewind; waiting for the other seats")
        to = offer["to"]
        last = set(offer["agreed"]) | {m.me} >= set(m.others(offer["by"]))
        if decline:
            kind, state = "rewind-decline", m.state_hash()
        else:
            kind = "rewind"
            state = digest(public_engine_state(m.snapshots[to - 1])) if last else m.state_hash()
    else:
        rolled = m.last_rolled()
        if m.rewind_floor() == rolled and 2 <= to < rolled:
            newest = len(m.exchanges) - 1
            later = (f"choose {rolled}" + (f" to {newest}" if rolled < newest else "") if rolled <= newest
                     else "nothing before it can be taken back")
            raise UsageError(f"exchange {to} cannot be rewound to: exchange {rolled} {m.dice_words(rolled)} after "
                             f"it, and a rewind never takes dice back; {later}")
        if not max(2, m.reseated_at) <= to < len(m.exchanges):
            raise UsageError(f"exchange {to} cannot be rewound to: choose {max(2, m.reseated_at)} to "
                             f"{len(m.exchanges) - 1}" + (" (the players moved after exchange "
                                                         f"{m.reseated_at})" if m.reseated_at else ""))
        kind, state = "rewind-offer", m.state_hash()
    ex: Exchange = {"game_id": m.game_id, "n": len(m.exchanges) + 1, "kind": kind, "side": m.me,
          "prev": exchange_hash(m.exchanges[-1]), "to": to, "state": state}
    return sign(ex, me)


def iter_rolls(m: Match) -> Iterator[tuple[int, str, dict[str, Any]]]:
    for rec in m.records:
        for roll in rec.rolls:
            yield rec.n, rec.side, roll


def dice_listing(m: Match) -> list[dict[str, Any]]:
    """Every stream that served a roll or a draw, with its inputs, for ``pbem
    dice`` and for an independent verifier (docs/FILE-FORMAT.md says how to
    recompute each value): the game id, the stream number, the reveal of
    each seat that keyed it, and each value with its purpose and position.
    A seat's secret draws are listed only where this program knows them
    (its own, or all at the audit)."""
    out = []
    for rec in m.records:
        if not rec.rolls and not rec.secret_rolls:
            continue
        out.append({"game_id": m.game_id, "exchange": rec.n, "sender": rec.side, "stream": rec.n,
                    "keyed_by": dict(sorted(rec.keyed_by.items())), "rolls": rec.rolls,
                    "secret": {s: rolls for s, rolls in sorted(rec.secret_rolls.items())}})
    return out
