"""The audit at a game's end: every seat discloses its secrets, in turn,
and then the whole game is replayed with nothing hidden.

* **In turn.**  Seats disclose one after another, round the table from the
  seat whose exchange ended the game (it holds the final file first, and
  can send its disclosure with it).  Every disclosure chains on the one before, so
  no two honest copies of the file can fork.
* **Complete.**  A disclosure must open every sealed part its seat ever
  sent, each matching the hash published beside it; a missing or altered
  one is refused, naming the exchange.  (Every commitment a seat made is
  derived from its secret seed, which its new or join exchange sealed: an
  opened seed opens them all.)
* **Not skippable.**  Until every seat has disclosed, ``pbem audit`` says who
  has not and fails.  A seat that will not disclose blocks the round; any
  seat that has disclosed may then record its forfeit in a signed exchange,
  which every program accepts, and the round moves past it.
"""
from __future__ import annotations

from typing import Any

from pbem.cycle.match import Match, Verification
from pbem.protocol.gamefile import GameFile
from pbem.protocol.types import Exchange


def disclosures(gf: GameFile) -> dict[str, dict[str, Any]]:
    """Seat -> its disclosed secrets (exchange number -> sealed part)."""
    out: dict[str, dict[str, Any]] = {}
    for ex in gf.exchanges:
        if ex.get("kind") == "disclose" and isinstance(ex.get("secrets"), dict):
            out[ex["side"]] = ex["secrets"]
    return out


def by_exchange(disclosures: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Exchange number -> the part its sender disclosed for it (in a game
    whose players moved, a player's disclosure names the seat he holds at
    the end, his exchanges the seats he held then)."""
    out: dict[str, Any] = {}
    for secrets in disclosures.values():
        for n, part in secrets.items():
            out.setdefault(n, part)
    return out


def disclosed(m: Match) -> set[str]:
    return {ex["side"] for ex in m.exchanges if ex["kind"] == "disclose"}


def next_discloser(m: Match) -> str | None:
    """The seat whose disclosure is due, or None when every seat has
    disclosed or forfeited (or the game is not over)."""
    if not m.over():
        return None
    last_play = next((ex["side"] for ex in reversed(m.exchanges) if ex["kind"] == "play"), m.seat_names[-1])
    i = m.seat_names.index(last_play)
    ring = m.seat_names[i:] + m.seat_names[:i]
    done = disclosed(m) | set(m.forfeits)
    return next((s for s in ring if s not in done), None)


def missing(m: Match) -> list[str]:
    """Seats that have not disclosed, in seat order."""
    done = disclosed(m)
    return [s for s in m.seat_names if s not in done]


def step(m: Match, ex: Exchange, where: str) -> None:
    """Check a ``disclose`` or ``forfeit`` exchange against the match."""
    if not m.over():
        raise Verification(f"{where}: secrets are disclosed only once the game is over")
    seat, due = ex["side"], next_discloser(m)
    if ex["kind"] == "forfeit":
        who = ex.get("who")
        if seat not in disclosed(m):
            raise Verification(f"{where}: only a seat that has disclosed may record a forfeit")
        if not isinstance(who, str) or who != due or who == seat:
            raise Verification(f"{where}: records the forfeit of {who!r}, but the disclosure due is {due}'s")
        m.forfeits[who] = ex["n"]
        return
    if seat != due:
        raise Verification(f"{where}: {seat} discloses out of turn; the disclosure due is {due}'s")
    check_complete(m, seat, ex.get("secrets"), where)


def sent_by_player(m: Match, seat: str) -> list[Exchange]:
    """The exchanges the player now holding ``seat`` sent (under whatever
    seat he held then)."""
    player = m.seats[seat].player or seat if seat in m.seats else seat
    return [ex for ex in m.exchanges if m.sent_by.get(ex["n"], ex["side"]) == player]


def check_complete(m: Match, seat: str, secrets: Any, where: str) -> None:
    """A disclosure opens every sealed part ``seat``'s player sent, and
    nothing else: each own part matching its ``sealed_hash``, each part for
    the team (under ``team``) its ``team_hash``."""
    from pbem.cycle.write import sealed_hash, team_hash

    if not isinstance(secrets, dict):
        raise Verification(f"{where}: the disclosure carries no secrets table")
    sealed = {str(ex["n"]): ex for ex in sent_by_player(m, seat) if "sealed" in ex}
    for n, ex in sealed.items():
        part = secrets.get(n)
        if not isinstance(part, dict):
            raise Verification(f"{where}: the disclosure does not open the sealed part of exchange {n}")
        own = {k: v for k, v in part.items() if k != "team"}
        if sealed_hash(own) != ex.get("sealed_hash"):
            raise Verification(f"{where}: what is disclosed for exchange {n} is not what was sealed there")
        if ("team" in part) != ("team_hash" in ex) or ("team" in part and team_hash(part["team"]) != ex["team_hash"]):
            raise Verification(f"{where}: what is disclosed of exchange {n}'s team part is not what was sealed "
                               "to the team")
    extra = sorted(set(secrets) - set(sealed), key=lambda k: (len(k), k))
    if extra:
        raise Verification(f"{where}: the disclosure names exchange {extra[0]}, which sealed nothing of {seat}'s")
