"""Replay is verification.  :func:`replay` rebuilds the game from the
scenario and re-applies every exchange, checking its signature, its chain
link to the exchange before, its dice reveal against the sender's chain,
each order's legality and the resulting state hash.  The program that
replays knows only its own seat's secrets (or all, in an audit): the other
seats' hidden state is ``None`` and their secret orders are applied by their
public part.
"""
from __future__ import annotations

import gc
from collections.abc import Callable
from functools import partial
from typing import Any, cast

from pbem.cycle import audit as audit_mod
from pbem.cycle import hidden
from pbem.cycle.frozen import Snapshots
from pbem.cycle.match import DICE_TIMINGS, EngineState, Match, Record, Seat, Verification, initial_engine_state, reseat
from pbem.cycle.background import Background, check_state, link_broken
from pbem.cycle.parts import (hex_field, identity_from, maybe_renew, open_sealed, open_team, take_reveal,
                              verify_signature)
from pbem.cycle.run import FEATURES, Careful, run_exchange
from pbem.errors import InvalidFile, UsageError
from pbem.game import Decision, IllegalOrder, team_part
from pbem.protocol import gamefile
from pbem.protocol.canon import canonical
from pbem.protocol.gamefile import ZERO_HASH, GameFile, exchange_hash
from pbem.protocol.stream import RecordingRng, Stream, stream_key
from pbem.protocol.types import Exchange
from pbem.scenario import scenario_sha256


def replay(gf: GameFile, scenario: dict[str, Any], me: Any = None, *, audit: bool = False,
           progress: Callable[[int, int], None] | None = None, snapshots: bool = True) -> Match:
    """Verify ``gf`` completely and return the match it describes.

    ``me`` is the reader's private Identity (to open its own sealed parts);
    with ``audit`` both sides' disclosures must be in the file and the game
    is replayed with nothing hidden.  ``snapshots=False``: the caller will
    ask for no past state (a cold verify), so none is kept unless the file
    itself takes the game back (speed only).

    Speed only: the first try is optimistic (:class:`~pbem.cycle.run.Careful`):
    a file it cannot tell the plain refusal of is replayed again, carefully."""
    try:
        return _replay(gf, scenario, me, audit, progress, snapshots, optimistic=True)
    except Careful:
        return _replay(gf, scenario, me, audit, progress, snapshots, optimistic=False)


def _replay(gf: GameFile, scenario: dict[str, Any], me: Any, audit: bool,
            progress: Callable[[int, int], None] | None, snapshots: bool, optimistic: bool) -> Match:
    header = gf.header
    _check_header(header)
    if header.get("scenario_sha256") != scenario_sha256(scenario):
        raise Verification(
            f"scenario {header.get('scenario')} differs from the one this game was created with "
            "(SHA-256 mismatch): both players must use the same scenario file"
        )
    m = Match(header, scenario)
    m.optimistic = optimistic
    if not snapshots and not any(isinstance(ex, dict) and ex.get("kind") == "rewind" for ex in gf.exchanges):
        m.snapshots = Snapshots(keep=False)
    disclosures = audit_mod.disclosures(gf) if audit else {}
    if audit:
        missing = [s for s in m.seat_names if s not in disclosures]
        if missing:
            raise UsageError(f"incomplete: {', '.join(missing)} {'has' if len(missing) == 1 else 'have'} not disclosed")
    m.disclosures = disclosures
    m.disclosed_parts = audit_mod.by_exchange(disclosures)
    total = len(gf.exchanges)
    # Speed only: no cyclic garbage collection while the replay runs (its
    # states and orders are trees, freed as they go; the collections their
    # allocations set off only walked what is alive: callgrind -0.5% of a
    # cold verify).  A caller that turned the collector off keeps it off.
    collecting = gc.isenabled()
    if collecting:
        gc.disable()
    checks = Background.for_file(total)
    try:
        if checks is not None and not audit:
            checks.open_ahead(gf.exchanges, me, m.game_id)
        _advance_all(m, gf, me, checks, progress)
    finally:
        if collecting:
            gc.enable()
        if checks is not None:
            checks.close()
    m.optimistic = False        # (advanced from here on, it is careful)
    return m


def _advance_all(m: Match, gf: GameFile, me: Any, checks: Background | None,
                 progress: Callable[[int, int], None] | None) -> None:
    total = len(gf.exchanges)
    try:
        for i, ex in enumerate(gf.exchanges, 1):
            advance(m, ex, me, checks)
            if progress:
                progress(i, total)
    except Exception:
        # A kept check that fails before the error is what is reported.
        if checks is not None and (failed := checks.settle()) is not None:
            raise failed from None
        raise
    if checks is not None and (failed := checks.settle()) is not None:
        raise failed


def advance(m: Match, ex: Exchange, me: Any = None, checks: Background | None = None) -> None:
    """Verify one more exchange on top of an already verified match and
    apply it: what :func:`replay` does for each exchange in turn.  A program
    that keeps its :class:`Match` (the demo, a long test) uses this to stay
    linear in the length of the game.  ``checks`` (speed only): where the
    signature's Ed25519 check is handed; its caller settles them."""
    i = len(m.exchanges) + 1
    where = f"exchange {i} by {ex.get('side')}"
    if not isinstance(ex.get("n"), int) or ex["n"] != i:
        raise Verification(f"{where}: numbered {ex.get('n')!r}, expected {i}")
    if ex.get("game_id") != m.header["id"]:
        raise Verification(f"{where}: belongs to another game ({ex.get('game_id')!r}, not {m.header['id']!r})")
    # Speed only: a worker works out each exchange's hash (and what it
    # signs) and checks the links itself (pbem.cycle.background).
    later = checks is not None and checks.hashes_exchanges and i > 1
    if later:
        checks.hand_link(i, ex.get("prev"), m.exchanges[-1], where)  # type: ignore[union-attr]
    elif ex.get("prev") != _last_hash(m):
        raise link_broken(where, i)
    digest, orders = verify_signature(m, ex, where, checks.hand if checks is not None else None, bytes_later=later)
    if i == 1:
        _start(m, ex, me, m.disclosures, checks)
    else:
        _step(m, ex, me, m.disclosures, where, orders, checks)
    m.exchanges.append(ex)
    m.snapshots.append(m.es)
    m.last_hash = (ex, digest) if digest is not None else None


def _last_hash(m: Match) -> str:
    """The hash of the match's last exchange: the one found when it was
    verified (speed only), unless a match kept before pbem did so lacks it."""
    if not m.exchanges:
        return ZERO_HASH
    kept = getattr(m, "last_hash", None)
    if kept is not None and kept[0] is m.exchanges[-1]:
        return kept[1]
    return exchange_hash(m.exchanges[-1])


def _check_header(h: dict[str, Any]) -> None:
    for key in ("id", "game", "scenario", "scenario_sha256", "dice", "sides"):
        if key not in h:
            raise InvalidFile(f"game header lacks {key!r}")
    if h["dice"] not in DICE_TIMINGS:
        raise InvalidFile(f"unknown dice timing {h['dice']!r}")
    seats = h["sides"]
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats) or len(set(seats)) != len(seats):
        raise InvalidFile("game header: sides must list each seat once")
    features = h.get("features", [])
    if not isinstance(features, list) or not all(isinstance(f, str) for f in features):
        raise InvalidFile("game header: features must list names")
    unknown = sorted(set(features) - set(FEATURES))
    if unknown:
        raise InvalidFile(f"game header: this file relies on {', '.join(unknown)}, which this version of pbem "
                          "does not have: a newer pbem wrote it")
    if "program" in h:     # who started the game (pbem.protocol.program); a file before 0.3.0 names none
        from pbem.protocol.program import check_program

        check_program(h["program"], "game header field 'program'")
    table = h.get("seats", {})
    if not isinstance(table, dict) or set(table) - set(seats):
        raise InvalidFile("game header: [seats] names a seat the game does not have")


def _start(m: Match, ex: Exchange, me: Any, disclosures: dict[str, Any], checks: Background | None = None) -> None:
    where = "exchange 1"
    if ex["kind"] != "new":
        raise Verification(f"{where}: a game starts with a 'new' exchange, not {ex['kind']!r}")
    side = ex["side"]
    if side not in m.seat_names:
        raise Verification(f"{where}: unknown seat {side!r}")
    _seat(m, ex, where)
    if me is not None and me.public.sign_pub == ex["player"]["sign_pub"]:
        m.me = side
    m.known = set(disclosures) if disclosures else ({m.me} if m.me else set())
    m.sent_by[1] = side
    m.es = initial_engine_state(m.rules, m.seat_names, m.known, m.sides_of())
    m.anchors_fixed_at = 1
    open_sealed(m, ex, me, disclosures, side, checks)
    check_state(m, ex, where, checks)
    m.records.append(Record(1, side, "new", waiting=m.next_sender() or "", message=ex.get("message", "")))


def _seat(m: Match, ex: Exchange, where: str) -> None:
    ident = identity_from(ex.get("player"), where)
    anchor = hex_field(ex, "anchor", where)
    n = ex.get("chain_n")
    if not isinstance(n, int) or n < 1:
        raise Verification(f"{where}: chain_n missing")
    if ex["side"] in m.seats:
        raise Verification(f"{where}: {ex['side']} has already joined")
    secret_commit = hex_field(ex, "secret_commit", where).hex()
    m.seats[ex["side"]] = Seat(ex["side"], ident, anchor, n, secret_commit=secret_commit, player=ex["side"])


def _step(m: Match, ex: Exchange, me: Any, disclosures: dict[str, Any], where: str,
          orders: bytes | None = None, checks: Background | None = None) -> None:
    """Exchange 2 on.  ``orders``: the canonical bytes of its ``orders``,
    if found with its signature (speed only); ``checks``: see :func:`advance`."""
    kind, side = ex["kind"], ex["side"]
    if side in m.seats:
        m.sent_by[ex["n"]] = m.seats[side].player or side
    if kind == "join":
        if side in m.seats or side not in m.seat_names:
            raise Verification(f"{where}: {side} cannot join here")
        _seat(m, ex, where)
        m.sent_by[ex["n"]] = side
        m.anchors_fixed_at = ex["n"]
        if me is not None and me.public.sign_pub == ex["player"]["sign_pub"]:
            m.me = side
            if not disclosures:
                m.known = {side}
                # The creator's replay never saw this side's secrets; our own
                # hidden part (and our team's) starts from the scenario's.
                fresh = m.rules.initial_state().get("hidden", {})
                held = m.es["game"].get("hidden")
                for part in (side, team_part(m.side_of(side))):
                    if isinstance(held, dict) and part in fresh and held.get(part) is None:
                        held[part] = fresh[part]
    elif kind in ("disclose", "forfeit"):
        audit_mod.step(m, ex, where)
        m.records.append(Record(ex["n"], side, kind, message=ex.get("message", "")))
        check_state(m, ex, where, checks)
        return
    elif kind in ("rewind-offer", "rewind", "rewind-decline"):
        _rewind_step(m, ex, where)
        check_state(m, ex, where, checks)
        return
    elif kind == "play":
        take_reveal(m, ex, where)
        m.rewind_offer = None     # playing on declines an offer to go back
    else:
        raise Verification(f"{where}: unknown kind {kind!r}")
    asked: list[Decision | None] = []       # (the game's decision, if asked: the exchange's first)
    expected = m.next_sender(asked)
    if kind == "play" and expected is not None and side != expected:
        raise Verification(f"{where}: it was {expected}'s turn to send, not {side}'s")
    if kind == "play" and expected is None:
        raise Verification(f"{where}: the game was already over")
    maybe_renew(m, ex, where)
    open_sealed(m, ex, me, disclosures, side, checks)
    open_team(m, ex, me, where)
    _play_entries(m, ex, where, orders, checks, asked[0] if asked else None)
    if kind == "play":
        try:
            hidden.adopt_exchange_root(m.rules, m.es, side, ex.get("hidden_root"), m.secret_seeds.get(side), ex["n"])
        except IllegalOrder as exc:
            raise Verification(f"{where}: {exc}") from None
    check_state(m, ex, where, checks)
    if kind == "play":
        _reseat(m, ex["n"], where)


def _reseat(m: Match, n: int, where: str) -> None:
    """A game that moves its players in play (AVA 17.1's bid) has them move
    after the exchange that decided it."""
    moved = m.rules.seat_players(m.es["game"])
    if not moved and not m.reseated_at:
        return
    if moved and any(m.has_team(s) for s in m.seat_names):
        raise Verification(f"{where}: a game with teams cannot move its players")
    reseat(m, dict(moved), n)


def _rewind_step(m: Match, ex: Exchange, where: str) -> None:
    """A rewind needs every seat: one offers to take the game back to the
    state after exchange ``to`` (any time, in or out of turn), each other
    seat accepts in an exchange of its own, and the last acceptance takes the
    game back.  Any seat may decline instead.  The history stays in the file
    and the log; the dice chains go on, so the replayed turns get fresh
    dice."""
    side, to, kind = ex["side"], ex.get("to"), ex["kind"]
    waiting = m.records[-1].waiting
    if kind == "rewind-offer":
        if not m.joined():
            raise Verification(f"{where}: a rewind needs every seat in the game")
        if not isinstance(to, int) or isinstance(to, bool) or not 2 <= to < len(m.exchanges):
            raise Verification(f"{where}: cannot rewind to exchange {to!r}")
        if to < m.reseated_at:
            raise Verification(f"{where}: cannot rewind to exchange {to}, before the players moved "
                               f"(exchange {m.reseated_at})")
        if to < m.rewind_floor():
            rolled = m.last_rolled()
            raise Verification(f"{where}: a rewind cannot go back to exchange {to}: exchange {rolled} "
                               f"{m.dice_words(rolled)} after it, and a rewind never takes dice back")
        m.rewind_offer = {"by": side, "to": to, "agreed": []}
    else:
        offer = m.rewind_offer
        if not offer or offer["by"] == side or offer["to"] != to or side in offer["agreed"]:
            raise Verification(f"{where}: answers a rewind offer that is not open to {side}")
        if kind == "rewind-decline":
            m.rewind_offer = None
        else:
            offer["agreed"].append(side)
            if set(offer["agreed"]) >= set(m.others(offer["by"])):
                assert isinstance(to, int)
                m.es = m.snapshots[to - 1]       # a fresh copy
                m.rewind_offer = None
                waiting = m.records[to - 1].waiting
    m.records.append(Record(ex["n"], side, kind, message=ex.get("message", ""), waiting=waiting, rewind_to=to or 0))


def _stream_for(m: Match, n: int) -> Stream:
    reveals = {s: seat.last for s, seat in m.seats.items()}
    return Stream(stream_key(m.game_id, n, reveals))


def _play_entries(m: Match, ex: Exchange, where: str, orders: bytes | None = None,
                  checks: Background | None = None, asked: Decision | None = None) -> None:
    listed = ex.get("orders", [])
    if not isinstance(listed, list):
        raise Verification(f"{where}: orders is not a list")
    secrets = m.my_secrets.get(ex["n"], {})
    team = m.team_secrets.get(ex["n"], {})
    sender = ex["side"]
    own = iter([(i, e) for i, e in enumerate(listed) if isinstance(e, dict) and e.get("by") in ("player", "private")])

    def next_entry(d: Decision) -> dict[str, Any] | None:
        try:
            i, e = next(own)
        except StopIteration:
            return None
        order = dict(e.get("order") or {})
        if str(i) in secrets:
            order["secret"] = secrets[str(i)]
        if str(i) in team:
            order["team_secret"] = team[str(i)]
        return {"by": e["by"], "order": order}

    stream = _stream_for(m, ex["n"])
    rng = RecordingRng(stream, m.secret_seeds)
    fresh = ex["kind"] != "play" or m.stream_fresh(sender, ex["n"])
    try:
        sink, how = run_exchange(m.rules, m.es, sender, stream, m.timing == "sealed", next_entry, m.seat_names, rng,
                                 fresh, m.policy_kinds, features(m), listed,
                                 ex["kind"] == "play" and m.stream_foreseen(sender), ex["kind"] == "play", asked,
                                 not m.optimistic)
    except IllegalOrder as exc:
        raise Verification(f"{where}: an order does not replay: {exc}") from None
    except (TypeError, KeyError, AttributeError, ValueError, IndexError) as exc:
        # A signed order may hold anything; a game that does not refuse a
        # malformed one by name still must not crash the verifier.
        raise Verification(f"{where}: an order of a shape the game cannot read "
                           f"({type(exc).__name__}: {exc}); a forged order or a defect of this program") from None
    if how == "open" and ex["kind"] != "join":
        d = m.rules.pending(m.es["game"])
        raise Verification(f"{where}: ends while {sender} still has to decide ({d.kind if d else '?'})")
    leftover = list(own)
    if leftover:
        raise Verification(f"{where}: {len(leftover)} order(s) listed after the point where the exchange had to end")
    if orders is not None or checks is None or not checks.hand_entries(sink.entries, listed,
                                                                       partial(_check_entries, where), ex):
        _check_entries(where, sink.entries, listed, orders)
    rec = Record(ex["n"], sender, ex["kind"], entries=sink.entries, events=sink.events, rolls=rng.records,
                 deferred=cast("dict[str, Any] | None", m.es.get("deferred")), message=ex.get("message", ""), marks=sink.marks, opening=sink.opening,
                 keyed_by={s: seat.last.hex() for s, seat in m.seats.items()},
                 secret_rolls={s: r.records for s, r in rng.secret_rngs.items() if r.records},
                 drew_secret=bool(rng.secret_asked))
    m.records.append(rec)
    rec.waiting = waiting_after(m, m.es, how, sender, sink.handed)
    if ex["kind"] == "play" and any(e.get("by") == "player" for e in sink.entries):
        m.chose_at[m.side_of(sender)] = ex["n"]


def _listed_bytes(listed: list[Any], orders: bytes | None) -> bytes:
    """The canonical bytes of the file's entries as the run must give them
    (nulls dropped).  ``orders``, their bytes found with the signature,
    are those when they hold no null (no ``None`` anywhere: dropping
    changes nothing); a string holding the word takes the plain way too."""
    if orders is not None and b"null" not in orders:
        return orders
    return canonical(gamefile.drop_none(listed))


def features(m: Match) -> frozenset[str]:
    """The engine features the game's file relies on (its header's
    ``features``; none in a file written before them)."""
    return frozenset(m.header.get("features") or ())


def waiting_after(m: Match, es: EngineState, how: str, sender: str, handed: Decision | None = None) -> str:
    """Which seat must act after an exchange that ended ``how``.  ``handed``
    (speed only): the decision the run stopped on, asked of ``es["game"]``
    as it still is."""
    if how == "open":  # a join after which the joiner moves first
        return sender
    if how == "deferred":
        return m.resolver(sender)
    if how == "over":
        return ""
    d = handed if how == "handed" and handed is not None else m.rules.pending(es["game"])
    return d.side if d else ""


def _check_entries(where: str, entries: list[Any], listed: list[Any], orders: bytes | None = None) -> None:
    """The orders the rules gave (``entries``) must be those the exchange
    lists (``orders``: their bytes, if found with its signature)."""
    if canonical(entries) != _listed_bytes(listed, orders):
        k = _first_difference(entries, listed)
        raise Verification(f"{where}: order list differs from the replay at entry {k + 1}")


def _first_difference(a: list[Any], b: list[Any]) -> int:
    for k, (x, y) in enumerate(zip(a, b)):
        if canonical(x) != canonical(gamefile.drop_none(y)):
            return k
    return min(len(a), len(b))
