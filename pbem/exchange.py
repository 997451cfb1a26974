"""The exchange cycle: replaying a game file, and writing the next exchange.

An *exchange* is one email's worth of play by one side (its *sender*).  It
carries the sender's next dice-chain reveal, the orders applied in it, the
hash of the public state after them, and the sender's signature.

Replay is verification.  :func:`replay` rebuilds the game from the scenario
and re-applies every exchange, checking its signature, its chain link to the
exchange before, its dice reveal against the sender's chain, each order's
legality and the resulting state hash.  The program that replays knows only
its own side's secrets (or both, in an audit): the other side's hidden state
is ``None`` and its secret orders are applied by their public part.

Within an exchange the engine runs the game forward from the state left by
the previous one::

    resolve the order deferred by the previous exchange (sealed dice)
    loop:
        decision = pending()
        answered by the deciding side's standing orders?  -> apply, listed as "policy"
        the sender's private decision (a reveal)?          -> the sender's program answers
        the sender's decision?                             -> the next order of the sender
        otherwise                                           -> the exchange ends

Dice.  Exchange ``n`` has one random stream (``stream_no = n``) keyed by each
side's latest reveal as of that exchange.  Under **immediate** timing every
order of the exchange draws from it.  Under **sealed** timing the stream is
usable only until the sender's first own order: after that the sender could
foresee the stream (he knows both reveals), so an order that then needs dice
is *deferred*: the exchange ends, and the opponent's next exchange resolves
it from a stream keyed by the opponent's next reveal, which the sender could
not know when he signed.

Nothing here knows any game: games are reached through :mod:`pbem.game`.
"""
from __future__ import annotations

import base64
import copy
import json
import pickle
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from pbem.protocol import gamefile
from pbem.errors import InvalidFile, PbemError, UsageError
from pbem.game import Decision, Event, IllegalOrder, Order, Rules, public
from pbem.protocol.gamefile import GameFile, ZERO_HASH, exchange_hash, signing_bytes
from pbem.protocol import chain as dchain
from pbem.protocol.canon import canonical, digest
from pbem.protocol.stream import FrozenRng, NeedDice, RecordingRng, Stream, stream_key
from pbem.scenario import scenario_sha256

DICE_TIMINGS = ("sealed", "immediate")
ENGINE_VERBS = ("policy", "resign", "offer-draw", "accept-draw", "decline-draw")
CHAIN_LENGTH = 256          # reveals per chain; a new anchor is published before it runs out
RENEW_WHEN_LEFT = 4

EngineState = dict[str, Any]


class Verification(InvalidFile):
    """A file that does not replay: says which exchange and why."""


# --------------------------------------------------------------------- seats


@dataclass
class Seat:
    """One side's player as the file knows him: identity and dice chain."""

    side: str
    identity: Any                 # pbem.protocol.identity.PublicIdentity
    last: bytes                   # latest reveal, or the anchor before any
    chain_n: int
    reveals_on_chain: int = 0
    next_anchor: bytes | None = None
    next_chain_n: int = 0


@dataclass
class Record:
    """What happened in one exchange, for the log and the dice listing."""

    n: int
    side: str
    kind: str
    entries: list[dict[str, Any]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    rolls: list[dict[str, Any]] = field(default_factory=list)
    deferred: dict[str, Any] | None = None
    message: str = ""
    waiting: str = ""
    marks: list[int] = field(default_factory=list)
    opening: int = 0
    rewind_to: int = 0


# ---------------------------------------------------------------- the match


class Match:
    """A game as this program knows it after replaying its file: the verified
    exchanges, the current state, and who must act.

    ``me`` is the side whose secrets this program holds (None for a
    bystander's verify); ``known`` is the set of sides whose hidden state is
    known (both, in an audit).
    """

    def __init__(self, header: dict[str, Any], scenario: dict[str, Any]) -> None:
        from pbem import games

        self.header = header
        self.scenario_head: dict[str, Any] = scenario.get("scenario", {}) if isinstance(scenario, dict) else {}
        self.game = games.load(header["game"])
        self.rules: Rules = self.game.rules(scenario, header.get("options", {}))
        self.sides: list[str] = list(header["sides"])
        self.timing: str = header["dice"]
        self.seats: dict[str, Seat] = {}
        self.exchanges: list[dict[str, Any]] = []
        self.records: list[Record] = []
        self.es: EngineState = {}
        self.me: str | None = None
        self.known: set[str] = set()
        self.my_seeds: list[tuple[bytes, int]] = []     # (seed, chain_n), oldest first
        self.my_secrets: dict[int, dict[str, Any]] = {}  # exchange n -> {entry index: secret}
        self.disclosures: dict[str, Any] = {}
        self.snapshots: list[EngineState] = []           # the engine state after each exchange
        self.rewind_offer: dict[str, Any] | None = None

    # -- reading the state ----------------------------------------------------

    @property
    def game_id(self) -> str:
        return self.header["id"]

    @property
    def state(self) -> dict[str, Any]:
        return self.es["game"]

    def public_state(self) -> dict[str, Any]:
        return public_engine_state(self.es)

    def state_hash(self) -> str:
        return digest(self.public_state())

    def joined(self) -> bool:
        return len(self.seats) == len(self.sides)

    def pending(self) -> Decision | None:
        """The next decision of the game, engine verdicts (resignation,
        agreed draw) included.  None when the game is over."""
        if self.es.get("ended"):
            return None
        return self.rules.pending(self.state)

    def over(self) -> bool:
        return self.joined() and self.pending() is None and not self.es.get("deferred")

    def result(self) -> str:
        ended = self.es.get("ended")
        if ended:
            return ended["text"]
        return self.rules.result(self.state) or "game over"

    def next_sender(self) -> str | None:
        """The side whose program must write the next exchange."""
        if not self.joined():
            return next(s for s in self.sides if s not in self.seats)
        if self.es.get("deferred"):
            asker = self.es["deferred"]["by"]
            return next(s for s in self.sides if s != asker)
        if self.over():
            return None
        return self.records[-1].waiting or None

    def summary(self) -> str:
        if not self.joined():
            return f"waiting for {self.next_sender()} to join"
        if self.over():
            return f"game over: {self.result()}"
        d = self.pending()
        who = self.next_sender()
        what = d.prompt if d else ""
        return f"{who} to play: {what}"


def public_engine_state(es: EngineState) -> dict[str, Any]:
    out = {k: v for k, v in es.items() if k != "game"}
    out["game"] = public(es["game"])
    if out.get("deferred"):
        out["deferred"] = dict(es["deferred"], order=public_order(es["deferred"]["order"]))
    return out


def public_order(order: Order) -> Order:
    return {k: v for k, v in order.items() if k != "secret"}


def fast_copy(value: Any) -> Any:
    """A deep copy of a JSON-like tree; pickle is several times faster than
    copy.deepcopy for these."""
    try:
        return pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
    except Exception:  # pragma: no cover - exotic objects in a game state
        return copy.deepcopy(value)


def mask_hidden(state: dict[str, Any], known: set[str]) -> None:
    hidden = state.get("hidden")
    if isinstance(hidden, dict):
        for side in list(hidden):
            if side not in known:
                hidden[side] = None


# ------------------------------------------------------- running one exchange


class _Sink:
    """Collects what one run of an exchange produced.  ``marks[i]`` is the
    number of events after entry ``i``, so a log can show each order's
    consequences under it."""

    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = []
        self.secrets: dict[str, Any] = {}
        self.events: list[Event] = []
        self.marks: list[int] = []
        self.opening = 0


EntrySource = Callable[[Decision], "dict[str, Any] | None"]


class ExchangeRun:
    """One exchange being run forward on ``es`` (mutated), resumable: the
    live :class:`Turn` feeds it one order at a time, a replay all at once.

    ``next_entry`` gives the sender's next entry for a decision (``{"by",
    "order"}`` with the order's secret, if any) or None when the sender has
    no more.  :meth:`run` returns how the exchange stands: ``"handed"``
    (another side must decide), ``"deferred"``, ``"over"`` or ``"open"``
    (the sender still has to decide but gave no more orders)."""

    def __init__(self, rules: Rules, es: EngineState, sender: str, rng: RecordingRng | None, sealed: bool) -> None:
        self.rules, self.es, self.sender, self.rng, self.sealed = rules, es, sender, rng, sealed
        self.sink = _Sink()
        self.frozen = False
        self.started = False
        self.how = "open"

    def run(self, next_entry: EntrySource) -> str:
        rules, es, sink = self.rules, self.es, self.sink
        if not self.started:
            self.started = True
            deferred = es.get("deferred")
            if deferred:
                es["deferred"] = None
                _apply(rules, es, deferred["side"], deferred["order"], self.rng or FrozenRng(), sink, "deferred")
            sink.opening = len(sink.events)
        while True:
            if es.get("ended"):
                return self._end("over")
            d = rules.pending(es["game"])
            if d is None:
                return self._end("over")
            policies = es["policies"].get(d.side) or {}
            order = None
            if policies and d.policy and not d.private:
                order = rules.standing_answer(es["game"], d, policies)
            if order is not None:
                by, side = "policy", d.side
            elif d.side == self.sender:
                entry = next_entry(d)
                if entry is None:
                    return self._end("open")
                by, order, side = entry["by"], entry["order"], self.sender
                if by == "private" and not d.private:
                    raise IllegalOrder(f"a private answer where {d.side} must decide {d.kind}")
                if by == "player" and d.private:
                    raise IllegalOrder(f"{d.side}'s program must answer {d.kind} from its secrets")
                if order.get("verb") in ENGINE_VERBS:
                    _engine_order(es, side, order, sink)
                    self.frozen = self.frozen or (by == "player" and self.sealed)
                    continue
            else:
                return self._end("handed")
            if by == "player" and self.sealed:
                # The sender knows both reveals keying this stream: none of
                # his own choices may draw from it.
                self.frozen = True
            use = FrozenRng() if (self.frozen or self.rng is None) else self.rng
            try:
                _apply(rules, es, side, order, use, sink, by)
            except NeedDice:
                order = gamefile.drop_none(order)
                es["deferred"] = {"side": side, "order": order, "by": self.sender}
                sink.entries.append({"side": side, "by": by, "order": public_order(order), "deferred": True})
                _keep_secret(sink, order)
                sink.marks.append(len(sink.events))
                return self._end("deferred")

    def _end(self, how: str) -> str:
        self.how = how
        return how


def run_exchange(
    rules: Rules,
    es: EngineState,
    sender: str,
    rng_stream: Stream | None,
    sealed: bool,
    next_entry: EntrySource,
    rng: RecordingRng | None = None,
) -> tuple[_Sink, str]:
    """Run one whole exchange (see :class:`ExchangeRun`)."""
    rng = rng if rng is not None else (RecordingRng(rng_stream) if rng_stream else None)
    run = ExchangeRun(rules, es, sender, rng, sealed)
    how = run.run(next_entry)
    return run.sink, how


def _apply(rules: Rules, es: EngineState, side: str, order: Order, rng: Any, sink: _Sink, by: str) -> None:
    # The file cannot carry nulls: every program applies the order exactly
    # as it will read back from the file.
    order = gamefile.drop_none(order)
    # A game may change the state it is given before it finds an order
    # illegal or reaches a die.  Only a deferral must leave the state as it
    # was (the order is applied again later), so only a frozen stream keeps
    # a snapshot: a refused order ends a replay, and a live Turn rebuilds.
    saved = pickle.dumps(es["game"], protocol=pickle.HIGHEST_PROTOCOL) if isinstance(rng, FrozenRng) else None
    try:
        new_state, events = rules.apply(es["game"], side, fast_copy(order), rng)
    except NeedDice:
        es["game"] = pickle.loads(saved) if saved is not None else es["game"]
        raise
    es["game"] = new_state
    sink.events.extend(events)
    if by != "deferred":
        sink.entries.append({"side": side, "by": by, "order": public_order(order)})
        _keep_secret(sink, order)
        sink.marks.append(len(sink.events))


def _keep_secret(sink: _Sink, order: Order) -> None:
    if "secret" in order:
        sink.secrets[str(len(sink.entries) - 1)] = order["secret"]


def _engine_order(es: EngineState, side: str, order: Order, sink: _Sink) -> None:
    """Orders about the match rather than the game: standing orders,
    resignation and draws."""
    verb = order["verb"]
    if verb == "policy":
        name, value = order.get("name"), order.get("value")
        if not isinstance(name, str):
            raise IllegalOrder("policy needs a name")
        pols = dict(es["policies"].get(side) or {})
        if value in (None, "", "off"):
            pols.pop(name, None)
        else:
            pols[name] = value
        es["policies"][side] = pols
        text = ""  # the order line itself says it (and only to its owner, what)
    elif verb == "resign":
        es["ended"] = {"how": "resign", "by": side, "text": f"{side} resigns"}
        text = f"{side} resigns"
    elif verb == "offer-draw":
        es["draw_offer"] = side
        text = f"{side} offers a draw"
    elif verb in ("accept-draw", "decline-draw"):
        offer = es.get("draw_offer")
        if not offer or offer == side:
            raise IllegalOrder("there is no draw offer from the opponent to answer")
        es["draw_offer"] = None
        if verb == "accept-draw":
            es["ended"] = {"how": "draw", "by": side, "text": "drawn by agreement"}
            text = f"{side} accepts the draw"
        else:
            text = f"{side} declines the draw"
    else:  # pragma: no cover - ENGINE_VERBS is closed
        raise IllegalOrder(f"unknown engine order {verb}")
    sink.entries.append({"side": side, "by": "player", "order": dict(order)})
    if text:
        sink.events.append(Event(text))
    sink.marks.append(len(sink.events))


def parse_engine_order(text: str) -> Order | None:
    """``policy NAME VALUE...``, ``resign``, ``offer-draw``, ``accept-draw``,
    ``decline-draw``; None for anything else (a game order)."""
    words = text.split()
    if not words or words[0].lower() not in ENGINE_VERBS:
        return None
    verb = words[0].lower()
    if verb == "policy":
        if len(words) < 2:
            raise IllegalOrder("usage: policy NAME VALUE (or `policy NAME off`)")
        return {"verb": "policy", "name": words[1], "value": " ".join(words[2:])}
    if len(words) > 1:
        raise IllegalOrder(f"{verb} takes no arguments")
    return {"verb": verb}


# ------------------------------------------------------------------- replay


def replay(
    gf: GameFile,
    scenario: dict[str, Any],
    me: Any = None,
    *,
    audit: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> Match:
    """Verify ``gf`` completely and return the match it describes.

    ``me`` is the reader's private Identity (to open its own sealed parts);
    with ``audit`` both sides' disclosures must be in the file and the game
    is replayed with nothing hidden."""
    header = gf.header
    _check_header(header)
    if header.get("scenario_sha256") != scenario_sha256(scenario):
        raise Verification(
            f"scenario {header.get('scenario')} differs from the one this game was created with "
            "(SHA-256 mismatch): both players must use the same scenario file"
        )
    m = Match(header, scenario)
    disclosures = _disclosures(gf) if audit else {}
    if audit:
        missing = [s for s in m.sides if s not in disclosures]
        if missing:
            raise UsageError(f"audit needs both disclosures; still missing: {', '.join(missing)}")
    m.disclosures = disclosures
    total = len(gf.exchanges)
    for i, ex in enumerate(gf.exchanges, 1):
        advance(m, ex, me)
        if progress:
            progress(i, total)
    return m


def advance(m: Match, ex: dict[str, Any], me: Any = None) -> None:
    """Verify one more exchange on top of an already verified match and
    apply it: what :func:`replay` does for each exchange in turn.  A program
    that keeps its :class:`Match` (the demo, a long test) uses this to stay
    linear in the length of the game."""
    i = len(m.exchanges) + 1
    prev = exchange_hash(m.exchanges[-1]) if m.exchanges else ZERO_HASH
    where = f"exchange {i} by {ex.get('side')}"
    if not isinstance(ex.get("n"), int) or ex["n"] != i:
        raise Verification(f"{where}: numbered {ex.get('n')!r}, expected {i}")
    if ex.get("game_id") != m.header["id"]:
        raise Verification(f"{where}: belongs to another game ({ex.get('game_id')!r}, not {m.header['id']!r})")
    if ex.get("prev") != prev:
        raise Verification(f"{where}: does not follow exchange {i - 1} (chain link broken: history edited or reordered)")
    _verify_signature(m, ex, where)
    if i == 1:
        _start(m, ex, me, m.disclosures)
    else:
        _step(m, ex, me, m.disclosures, where)
    m.exchanges.append(ex)
    m.snapshots.append(fast_copy(m.es))


def _check_header(h: dict[str, Any]) -> None:
    for key in ("id", "game", "scenario", "scenario_sha256", "dice", "sides"):
        if key not in h:
            raise InvalidFile(f"game header lacks {key!r}")
    if h["dice"] not in DICE_TIMINGS:
        raise InvalidFile(f"unknown dice timing {h['dice']!r}")


def _verify_signature(m: Match, ex: dict[str, Any], where: str) -> None:
    side = ex["side"]
    if ex["n"] == 1:
        ident = _identity_from(ex.get("player"), where)
    elif ex["kind"] == "join":
        ident = _identity_from(ex.get("player"), where)
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
    if not ident.verify(signing_bytes(ex), sig):
        other = [s.side for s in m.seats.values() if s.side != side and s.identity.verify(signing_bytes(ex), sig)]
        if other:
            raise Verification(f"{where}: signed by {other[0]}'s key, but it claims to come from {side}")
        raise Verification(f"{where}: bad signature: altered after signing, or not signed by {side}'s key")


def _identity_from(d: Any, where: str) -> Any:
    from pbem.protocol.identity import PublicIdentity

    try:
        return PublicIdentity.from_dict(d, where=f"{where} player")
    except PbemError as exc:
        raise Verification(f"{where}: {exc}") from None


def _hex(ex: dict[str, Any], key: str, where: str, size: int = 32) -> bytes:
    try:
        raw = bytes.fromhex(ex[key])
    except (KeyError, ValueError, TypeError):
        raise Verification(f"{where}: missing or malformed {key}") from None
    if len(raw) != size:
        raise Verification(f"{where}: {key} should be {size} bytes")
    return raw


def _start(m: Match, ex: dict[str, Any], me: Any, disclosures: dict[str, Any]) -> None:
    where = "exchange 1"
    if ex["kind"] != "new":
        raise Verification(f"{where}: a game starts with a 'new' exchange, not {ex['kind']!r}")
    side = ex["side"]
    if side not in m.sides:
        raise Verification(f"{where}: unknown side {side!r}")
    _seat(m, ex, where)
    if me is not None and me.public.sign_pub == ex["player"]["sign_pub"]:
        m.me = side
    m.known = set(disclosures) if disclosures else ({m.me} if m.me else set())
    state = m.rules.initial_state()
    mask_hidden(state, m.known)
    m.es = {"game": state, "policies": {s: {} for s in m.sides}, "ended": None,
            "draw_offer": None, "deferred": None}
    _open_sealed(m, ex, me, disclosures, side)
    _check_state(m, ex, where)
    m.records.append(Record(1, side, "new", waiting=m.next_sender() or "", message=ex.get("message", "")))


def _seat(m: Match, ex: dict[str, Any], where: str) -> None:
    ident = _identity_from(ex.get("player"), where)
    anchor = _hex(ex, "anchor", where)
    n = ex.get("chain_n")
    if not isinstance(n, int) or n < 1:
        raise Verification(f"{where}: chain_n missing")
    if ex["side"] in m.seats:
        raise Verification(f"{where}: {ex['side']} has already joined")
    m.seats[ex["side"]] = Seat(ex["side"], ident, anchor, n)


def _step(m: Match, ex: dict[str, Any], me: Any, disclosures: dict[str, Any], where: str) -> None:
    kind, side = ex["kind"], ex["side"]
    if kind == "join":
        if side in m.seats or side not in m.sides:
            raise Verification(f"{where}: {side} cannot join here")
        _seat(m, ex, where)
        if me is not None and me.public.sign_pub == ex["player"]["sign_pub"]:
            m.me = side
            if not disclosures:
                m.known = {side}
                # The creator's replay never saw this side's secrets; our own
                # hidden part starts from the scenario's.
                fresh = m.rules.initial_state().get("hidden", {})
                if isinstance(m.es["game"].get("hidden"), dict) and side in fresh:
                    m.es["game"]["hidden"][side] = fresh[side]
    elif kind == "disclose":
        _check_disclosure(m, ex, where)
        m.records.append(Record(ex["n"], side, kind, message=ex.get("message", "")))
        _check_state(m, ex, where)
        return
    elif kind in ("rewind-offer", "rewind"):
        _rewind_step(m, ex, where)
        _check_state(m, ex, where)
        return
    elif kind == "play":
        _take_reveal(m, ex, where)
        m.rewind_offer = None     # playing on declines an offer to go back
    else:
        raise Verification(f"{where}: unknown kind {kind!r}")
    expected = m.next_sender()
    if kind == "play" and expected is not None and side != expected:
        raise Verification(f"{where}: it was {expected}'s turn to send, not {side}'s")
    if kind == "play" and expected is None:
        raise Verification(f"{where}: the game was already over")
    _maybe_renew(m, ex, where)
    _open_sealed(m, ex, me, disclosures, side)
    _play_entries(m, ex, where)
    _check_state(m, ex, where)


def _rewind_step(m: Match, ex: dict[str, Any], where: str) -> None:
    """A rewind needs both players: one offers to take the game back to the
    state after exchange ``to`` (any time, in or out of turn), the other
    accepts.  The history stays in the file and the log; the dice chains go
    on, so the replayed turns get fresh dice."""
    side, to = ex["side"], ex.get("to")
    waiting = m.records[-1].waiting
    if ex["kind"] == "rewind-offer":
        if not m.joined():
            raise Verification(f"{where}: a rewind needs both players in the game")
        if not isinstance(to, int) or isinstance(to, bool) or not 2 <= to < len(m.exchanges):
            raise Verification(f"{where}: cannot rewind to exchange {to!r}")
        m.rewind_offer = {"by": side, "to": to}
    else:
        offer = m.rewind_offer
        if not offer or offer["by"] == side or offer["to"] != to:
            raise Verification(f"{where}: accepts a rewind nobody offered")
        m.es = fast_copy(m.snapshots[to - 1])
        m.rewind_offer = None
        waiting = m.records[to - 1].waiting
    m.records.append(Record(ex["n"], side, ex["kind"], message=ex.get("message", ""), waiting=waiting, rewind_to=to))


def _take_reveal(m: Match, ex: dict[str, Any], where: str) -> bytes:
    seat = m.seats[ex["side"]]
    reveal = _hex(ex, "reveal", where)
    target = seat.next_anchor if seat.next_anchor is not None else seat.last
    if not dchain.check_reveal(reveal, target):
        raise Verification(f"{where}: dice reveal does not hash to {ex['side']}'s previous reveal (forged or skipped dice)")
    if seat.next_anchor is not None:
        seat.next_anchor, seat.chain_n, seat.reveals_on_chain = None, seat.next_chain_n, 0
    seat.last = reveal
    seat.reveals_on_chain += 1
    if seat.reveals_on_chain > seat.chain_n:
        raise Verification(f"{where}: {ex['side']} revealed past the end of its dice chain")
    return reveal


def _maybe_renew(m: Match, ex: dict[str, Any], where: str) -> None:
    if ex["kind"] == "play" and "anchor" in ex:
        seat = m.seats[ex["side"]]
        seat.next_anchor = _hex(ex, "anchor", where)
        n = ex.get("chain_n")
        if not isinstance(n, int) or n < 1:
            raise Verification(f"{where}: new anchor without chain_n")
        seat.next_chain_n = n


def _open_sealed(m: Match, ex: dict[str, Any], me: Any, disclosures: dict[str, Any], side: str) -> None:
    """Recover the sender's secrets for this exchange when we may: our own
    sealed part, or (audit) the sender's disclosure."""
    secrets: dict[str, Any] | None = None
    if side in disclosures:
        secrets = disclosures[side].get(str(ex["n"]), {})
        if "seed" in secrets:
            m_seed = bytes.fromhex(secrets["seed"])
            _check_seed(m, ex, m_seed)
    elif me is not None and side == m.me and "sealed" in ex:
        try:
            blob = base64.b64decode(ex["sealed"], validate=True)
        except ValueError:
            raise Verification(f"exchange {ex['n']}: sealed part is not base64") from None
        plain = me.unseal(blob, m.game_id, ex["n"])
        secrets = json.loads(plain.decode("utf-8"))
        if "seed" in secrets:
            seed = bytes.fromhex(secrets["seed"])
            _check_seed(m, ex, seed)
            m.my_seeds.append((seed, ex["chain_n"]))
    if secrets is not None:
        m.my_secrets[ex["n"]] = secrets.get("orders", {})


def _check_seed(m: Match, ex: dict[str, Any], seed: bytes) -> None:
    if dchain.anchor(seed, ex["chain_n"]).hex() != ex["anchor"]:
        raise Verification(f"exchange {ex['n']}: sealed dice seed does not match the published anchor")


def _stream_for(m: Match, n: int) -> Stream:
    reveals = {s: seat.last for s, seat in m.seats.items()}
    return Stream(stream_key(m.game_id, n, reveals))


def _play_entries(m: Match, ex: dict[str, Any], where: str) -> None:
    listed = ex.get("orders", [])
    if not isinstance(listed, list):
        raise Verification(f"{where}: orders is not a list")
    secrets = m.my_secrets.get(ex["n"], {})
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
        return {"by": e["by"], "order": order}

    stream = _stream_for(m, ex["n"])
    rng = RecordingRng(stream)
    try:
        sink, how = run_exchange(m.rules, m.es, sender, stream, m.timing == "sealed", next_entry, rng)
    except IllegalOrder as exc:
        raise Verification(f"{where}: an order does not replay: {exc}") from None
    if how == "open" and ex["kind"] != "join":
        d = m.rules.pending(m.es["game"])
        raise Verification(f"{where}: ends while {sender} still has to decide ({d.kind if d else '?'})")
    leftover = list(own)
    if leftover:
        raise Verification(f"{where}: {len(leftover)} order(s) listed after the point where the exchange had to end")
    if canonical(sink.entries) != canonical(gamefile.drop_none(listed)):
        k = _first_difference(sink.entries, listed)
        raise Verification(f"{where}: order list differs from the replay at entry {k + 1}")
    rec = Record(ex["n"], sender, ex["kind"], entries=sink.entries, events=sink.events, rolls=rng.records,
                 deferred=m.es.get("deferred"), message=ex.get("message", ""), marks=sink.marks, opening=sink.opening)
    m.records.append(rec)
    rec.waiting = _waiting(m, m.es, how, sender)


def _waiting(m: Match, es: EngineState, how: str, sender: str) -> str:
    """Who must act after an exchange that ended ``how``."""
    if how == "open":  # a join after which the joiner moves first
        return sender
    if how == "deferred":
        return next(s for s in m.sides if s != sender)
    if how == "over":
        return ""
    d = m.rules.pending(es["game"])
    return d.side if d else ""


def _first_difference(a: list[Any], b: list[Any]) -> int:
    for k, (x, y) in enumerate(zip(a, b)):
        if canonical(x) != canonical(gamefile.drop_none(y)):
            return k
    return min(len(a), len(b))


def _check_state(m: Match, ex: dict[str, Any], where: str) -> None:
    if ex["state"] != m.state_hash():
        raise Verification(f"{where}: state hash differs from the replay (the exchange does not replay)")


def _disclosures(gf: GameFile) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for ex in gf.exchanges:
        if ex.get("kind") == "disclose":
            out[ex["side"]] = ex.get("secrets", {})
    return out


def _check_disclosure(m: Match, ex: dict[str, Any], where: str) -> None:
    if not m.over():
        raise Verification(f"{where}: secrets disclosed before the game is over")
    if not isinstance(ex.get("secrets"), dict):
        raise Verification(f"{where}: disclosure carries no secrets table")


# ------------------------------------------------------------ a live exchange


class Turn:
    """The exchange this program is writing.  python-chess style: ``pending``
    names what the sender must decide, ``push`` applies an order (or raises
    IllegalOrder), ``undo`` takes the last one back.  The exchange is done
    when another side must decide, the game ends, or (sealed dice) an order
    waits for the opponent's dice."""

    def __init__(self, m: Match, me: Any) -> None:
        if m.me is None:
            raise UsageError("this key is not a player of this game")
        if m.next_sender() != m.me:
            raise UsageError(f"it is {m.next_sender()}'s turn to send, not yours ({m.me})")
        self.m = m
        self.me_identity = me
        self.side = m.me
        self.n = len(m.exchanges) + 1
        self.start_es = fast_copy(m.es)
        self.start_seats = copy.deepcopy(m.seats)
        self.orders: list[Order] = []          # the sender's own orders, in order
        self.message = ""
        self._answers: list[tuple[bytes, Order]] = []
        self._reveal, self._renew = self._next_reveal()
        self._simulate()

    # chain ---------------------------------------------------------------
    def _next_reveal(self) -> tuple[bytes, tuple[bytes, int] | None]:
        m = self.m
        seat = m.seats[self.side]
        if not m.my_seeds:
            raise UsageError("cannot find your dice seed in this file: is this your key?")
        seed, n = m.my_seeds[-1]
        used = seat.reveals_on_chain
        if seat.next_anchor is not None:
            # Our last exchange published a new anchor: this reveal is the
            # first one down the new chain (whose seed is the newest).
            if dchain.anchor(seed, n) != seat.next_anchor:
                raise UsageError("cannot find the seed of your renewed dice chain in this file")
            used = 0
        cursor = dchain.ChainCursor(seed, n, next_index=n - 1 - used)
        reveal = cursor.next_reveal()
        renew = None
        if cursor.remaining < RENEW_WHEN_LEFT:
            import os

            renew = (os.urandom(32), CHAIN_LENGTH)
        return reveal, renew

    # the game ------------------------------------------------------------
    def _simulate(self) -> None:
        """Run the exchange from its start with the orders given so far."""
        m = self.m
        es = fast_copy(self.start_es)
        seats = copy.deepcopy(self.start_seats)
        seats[self.side].last = self._reveal
        reveals = {s: seat.last for s, seat in seats.items()}
        self.rng = RecordingRng(Stream(stream_key(m.game_id, self.n, reveals)))
        self.run = ExchangeRun(m.rules, es, self.side, self.rng, m.timing == "sealed")
        self._queue = list(self.orders)
        self._answered = 0
        self.run.run(self._next_entry)
        if self._queue:
            raise IllegalOrder("no more orders can go in this exchange")  # pragma: no cover

    def _next_entry(self, d: Decision) -> dict[str, Any] | None:
        if d.private:
            self._answered += 1
            return {"by": "private", "order": self._private(self._answered - 1, self.run.es["game"], d)}
        if not self._queue:
            return None
        return {"by": "player", "order": self._queue.pop(0)}

    @property
    def es(self) -> EngineState:
        return self.run.es

    @property
    def sink(self) -> _Sink:
        return self.run.sink

    @property
    def how(self) -> str:
        return self.run.how

    def _private(self, k: int, state: dict[str, Any], d: Decision) -> Order:
        """The k-th private answer of this exchange.  Re-running the exchange
        after each push must give the same answer with the same salts, or an
        order pushed later could refer to secrets that were replaced."""
        raw = self.m.rules.private_answer(state, d)
        key = canonical(gamefile.drop_none(raw))
        if k < len(self._answers) and self._answers[k][0] == key:
            return fast_copy(self._answers[k][1])
        filled = self._with_secrets(raw, state)
        del self._answers[k:]
        self._answers.append((key, filled))
        return fast_copy(filled)

    def pending(self) -> Decision | None:
        """The sender's decision now, or None when the exchange is done."""
        if self.how != "open":
            return None
        return self.m.rules.pending(self.es["game"])

    @property
    def done(self) -> bool:
        return self.how != "open"

    def parse(self, text: str) -> Order:
        order = parse_engine_order(text)
        if order is None:
            order = self.m.rules.parse(text, self.es["game"], self.side)
        return order

    def push(self, order: Order | str) -> list[Event]:
        if self.done:
            raise IllegalOrder("this exchange is complete: nothing more can be ordered in it")
        if isinstance(order, str):
            order = self.parse(order)
        order = self._with_secrets(order, self.es["game"])
        before = len(self.sink.events)
        self._queue = [order]
        try:
            self.run.run(self._next_entry)
        except IllegalOrder:
            self._simulate()      # back to the state before the refused order
            raise
        self.orders.append(order)
        return self.sink.events[before:]

    def _with_secrets(self, order: Order, state: dict[str, Any]) -> Order:
        """Let the game add fresh salts and the secret part to an order of
        ours (games may not draw randomness of their own)."""
        filler = getattr(self.m.rules, "fill_secrets", None)
        if filler is None or order.get("verb") in ENGINE_VERBS:
            return order
        from pbem.protocol.commit import new_salt

        return filler(fast_copy(state), self.side, order, new_salt)

    def undo(self) -> None:
        if not self.orders:
            raise IllegalOrder("nothing to undo in this exchange")
        self.orders.pop()
        self._simulate()

    def query(self, text: str) -> str:
        return self.m.rules.query(self.es["game"], self.side, text)

    def opening_lines(self) -> list[str]:
        """What happened before the sender's first decision: the opponent's
        deferred order resolved with this exchange's dice, and any standing
        or private answers, each roll with its purpose."""
        lines = [f"  - {ev.text}" for ev in self.sink.events]
        lines += [f"    roll: {r['purpose']}: {r['op']} -> {r.get('item', r['result'])}" for r in self.rng.records]
        return lines

    def waiting_for(self) -> str:
        return _waiting(self.m, self.es, self.how, self.side)

    # sealing the exchange -------------------------------------------------
    def finish(self) -> dict[str, Any]:
        """The signed exchange.  Only a complete exchange can be signed."""
        if not self.done:
            d = self.pending()
            raise UsageError(f"the exchange is not complete: you must still decide {d.kind if d else ''}")
        m = self.m
        ex: dict[str, Any] = {
            "game_id": m.game_id, "n": self.n, "kind": "play", "side": self.side,
            "prev": exchange_hash(m.exchanges[-1]),
            "reveal": self._reveal.hex(),
            "orders": gamefile.drop_none(self.sink.entries),
            "state": digest(public_engine_state(self.es)),
        }
        if self.message:
            ex["message"] = self.message
        secret_part: dict[str, Any] = {}
        if self.sink.secrets:
            secret_part["orders"] = self.sink.secrets
        if self._renew:
            seed, n = self._renew
            ex["anchor"], ex["chain_n"] = dchain.anchor(seed, n).hex(), n
            secret_part["seed"] = seed.hex()
        if secret_part:
            ex["sealed"] = seal_for(self.me_identity, secret_part, m.game_id, self.n)
        return sign(ex, self.me_identity)


def seal_for(identity: Any, secret_part: dict[str, Any], game_id: str, n: int) -> str:
    from pbem.protocol.seal import seal

    blob = seal(identity.public.seal_pub_raw, canonical(secret_part), game_id, n)
    return base64.b64encode(blob).decode("ascii")


def sign(ex: dict[str, Any], identity: Any) -> dict[str, Any]:
    ex = gamefile.drop_none(ex)
    ex["sig"] = identity.sign(signing_bytes(ex)).hex()
    return ex


# -------------------------------------------------------- new, join, disclose


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
) -> GameFile:
    """Exchange 1: the header, the creator's identity and dice anchor."""
    import os

    from pbem import games

    g = games.load(game)
    if dice not in DICE_TIMINGS:
        raise UsageError(f"dice timing must be one of {', '.join(DICE_TIMINGS)}")
    if creator_side not in g.sides:
        raise UsageError(f"{game} has no side {creator_side!r}; sides: {', '.join(g.sides)}")
    known = g.options()
    for key in options:
        if key not in known:
            raise UsageError(f"unknown rule option {key!r}; options: {', '.join(sorted(known)) or 'none'}")
    full_options = {k: options.get(k, default) for k, (default, _) in known.items()}
    header = {
        "format": gamefile.FORMAT, "id": game_id, "game": game, "scenario": scenario_name,
        "scenario_sha256": scenario_sha256(scenario), "dice": dice, "options": full_options,
        "sides": list(g.sides), "invited": {s: i.to_dict() for s, i in invited.items()},
    }
    gamefile.drop_none(header)
    seed = os.urandom(32)
    ex = {
        "game_id": game_id, "n": 1, "kind": "new", "side": creator_side, "prev": ZERO_HASH, "game": header,
        "player": creator.public.to_dict(), "anchor": dchain.anchor(seed, CHAIN_LENGTH).hex(),
        "chain_n": CHAIN_LENGTH,
    }
    if message:
        ex["message"] = message
    ex["sealed"] = seal_for(creator, {"seed": seed.hex()}, game_id, 1)
    m = Match(header, scenario)
    m.known = {creator_side}
    state = m.rules.initial_state()
    mask_hidden(state, m.known)
    es = {"game": state, "policies": {s: {} for s in header["sides"]}, "ended": None, "draw_offer": None, "deferred": None}
    ex["state"] = digest(public_engine_state(es))
    return GameFile([sign(ex, creator)])


def join_exchange(m: Match, me: Any, side: str, message: str = "") -> dict[str, Any]:
    """Exchange 2 (and on, with more sides): the joiner's identity and anchor."""
    import os

    if side in m.seats:
        raise UsageError(f"{side} has already joined this game")
    invited = m.header.get("invited", {}).get(side)
    if invited and invited.get("sign_pub") != me.public.sign_pub:
        raise UsageError(f"this game invited another player as {side} (fingerprint {invited.get('fingerprint', '?')})")
    seed = os.urandom(32)
    n = len(m.exchanges) + 1
    ex = {
        "game_id": m.game_id, "n": n, "kind": "join", "side": side, "prev": exchange_hash(m.exchanges[-1]),
        "player": me.public.to_dict(), "anchor": dchain.anchor(seed, CHAIN_LENGTH).hex(),
        "chain_n": CHAIN_LENGTH, "orders": [],
    }
    if message:
        ex["message"] = message
    ex["sealed"] = seal_for(me, {"seed": seed.hex()}, m.game_id, n)
    es = m.es  # a join changes no state
    ex["state"] = digest(public_engine_state(es))
    return sign(ex, me)


def disclose_exchange(m: Match, me: Any) -> dict[str, Any]:
    """At game end: publish this side's seeds and secret order parts, so that
    ``pbem audit`` can replay with nothing hidden."""
    if not m.over():
        raise UsageError("the game is not over: secrets are disclosed only at its end")
    if any(ex["kind"] == "disclose" and ex["side"] == m.me for ex in m.exchanges):
        raise UsageError("you have already disclosed your secrets in this game")
    secrets: dict[str, Any] = {}
    for ex in m.exchanges:
        if ex["side"] != m.me or "sealed" not in ex:
            continue
        blob = base64.b64decode(ex["sealed"])
        secrets[str(ex["n"])] = json.loads(me.unseal(blob, m.game_id, ex["n"]).decode("utf-8"))
    ex = {
        "game_id": m.game_id, "n": len(m.exchanges) + 1, "kind": "disclose", "side": m.me,
        "prev": exchange_hash(m.exchanges[-1]), "secrets": secrets, "state": m.state_hash(),
    }
    return sign(ex, me)


def rewind_exchange(m: Match, me: Any, to: int | None = None) -> dict[str, Any]:
    """Offer to take the game back to the state after exchange ``to``, or,
    with ``to=None``, accept the opponent's offer."""
    if m.me is None:
        raise UsageError("this key is not a player of this game")
    if to is None:
        offer = m.rewind_offer
        if not offer or offer["by"] == m.me:
            raise UsageError("there is no rewind offer from your opponent to accept")
        kind, to = "rewind", offer["to"]
        state = digest(public_engine_state(m.snapshots[to - 1]))
    else:
        if not 2 <= to < len(m.exchanges):
            raise UsageError(f"exchange {to} cannot be rewound to: choose 2 to {len(m.exchanges) - 1}")
        kind, state = "rewind-offer", m.state_hash()
    ex = {"game_id": m.game_id, "n": len(m.exchanges) + 1, "kind": kind, "side": m.me,
          "prev": exchange_hash(m.exchanges[-1]), "to": to, "state": state}
    return sign(ex, me)


def iter_rolls(m: Match) -> Iterator[tuple[int, str, dict[str, Any]]]:
    for rec in m.records:
        for roll in rec.rolls:
            yield rec.n, rec.side, roll
