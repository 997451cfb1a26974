"""Running one exchange forward: the loop that asks the game what is due,
answers it from standing orders, the sender's program or the sender's own
orders, and stops when another seat must decide, the game ends, or (sealed
dice) an order waits for dice the sender must not foresee.

Orders about the match rather than the game (standing orders, resignation,
draw and abandonment agreements) are the engine's own: :mod:`.matchorders`.
"""
from __future__ import annotations

from typing import Any, Callable, Collection, Sequence, TypeVar

from pbem.cycle import hidden
from pbem.cycle.frozen import freeze, thaw
from pbem.cycle.match import EngineState, public_order
from pbem.cycle.matchorders import ENGINE_VERBS as ENGINE_VERBS
from pbem.cycle.matchorders import match_order
from pbem.cycle.matchorders import parse_engine_order as parse_engine_order
from pbem.game import Decision, Event, IllegalOrder, Order, Rules
from pbem.game.frozen import copy_order
from pbem.protocol import gamefile
from pbem.protocol.stream import FrozenRng, NeedDice, RecordingRng, Stream

FEATURES = ("forced", "plans", "sure-draws", "team-streams", "rewind-keeps-dice")
"""What the engine does that files written before it did not: ``forced``,
a decision the rules force (``Decision.forced``) is answered by the engine,
listed ``by = "forced"``; ``plans``, a ``plan`` order answers a plannable
decision with several orders; ``sure-draws``, a draw from a cup of one
needs no stream (:class:`SureDraws`); ``team-streams``, a stream the
sender's side could foresee serves nothing (Match.stream_foreseen);
``rewind-keeps-dice``, a rewind goes back no further than the last
exchange that rolled (Match.last_rolled).  A new game names them in its header's
``features``; a file that names none is replayed as pbem wrote it then
(each forced answer is its sender's own order, no plans)."""
PLAN_VERB = "plan"
T = TypeVar("T")
PLAN_LIMIT = 40            # orders in one plan


class Careful(Exception):
    """Raised by an optimistic run (a replay's first try, see
    :func:`pbem.cycle.replay.replay`) where the plain run's refusal cannot be
    told from the state it left: the rules refused an order the file lists
    as made, after changing a state no snapshot was kept of.  Such a file is
    always refused; the replay runs it again the careful way to say why."""


class SureDraws(FrozenRng):
    """No stream yet, in a file with the ``sure-draws`` feature: a draw from
    a cup of one is no chance (its one item is the state's), so it is made
    without a stream and defers nothing; anything else waits for dice
    (docs/FILE-FORMAT.md, Dice)."""

    def draw(self, items: Sequence[T], purpose: str) -> int:
        if len(items) == 1:
            return 0
        return super().draw(items, purpose)


class Sink:
    """Collects what one run of an exchange produced.  ``marks[i]`` is the
    number of events after entry ``i``, so a log can show each order's
    consequences under it."""

    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = []
        self.secrets: dict[str, Any] = {}
        self.team_secrets: dict[str, Any] = {}    # entry index -> the order's part for the sender's team
        self.events: list[Event] = []
        self.marks: list[int] = []
        self.opening = 0
        # Speed only: the decision the run stopped on when it handed the exchange
        # over, asked of the state as it still is (replay.waiting_after); else None.
        self.handed: Decision | None = None


EntrySource = Callable[[Decision], dict[str, Any] | None]


class ExchangeRun:
    """One exchange being run forward on ``es`` (mutated), resumable: the
    live :class:`~pbem.cycle.turn.Turn` feeds it one order at a time, a
    replay all at once.

    ``next_entry`` gives the sender's next entry for a decision (``{"by",
    "order"}`` with the order's secret, if any) or None when the sender has
    no more.  :meth:`run` returns how the exchange stands: ``"handed"``
    (another seat must decide), ``"deferred"``, ``"over"`` or ``"open"``
    (the sender still has to decide but gave no more orders)."""

    def __init__(self, rules: Rules, es: EngineState, sender: str, rng: RecordingRng | None, sealed: bool,
                 seats: list[str], fresh: bool = True, policy_kinds: Collection[str] = (),
                 features: Collection[str] = (), listed: Sequence[Any] | None = None,
                 foreseen: bool = False, answers: bool = True, careful: bool = True) -> None:
        self.rules, self.es, self.sender, self.rng, self.sealed = rules, es, sender, rng, sealed
        # Not careful (speed only: a replay's first try): a plan's step keeps
        # a snapshot only where the file lists it skipped (plan.step).
        self.careful = careful
        # The sender's side knew this stream when it last chose (Match.stream_foreseen):
        # once any deferred order of another side is resolved, it serves nothing.
        self.foreseen = foreseen and "team-streams" in frozenset(features)
        # A game's creation and a join carry no order: they answer nothing,
        # not even what the rules force (the first exchange of play does).
        self.answers = answers
        # A replay's file entries (speed only, see _may_defer); None in
        # live play.
        self.listed = listed
        self.seats = seats
        self.policy_kinds = policy_kinds
        self.features = frozenset(features)
        # The plan being resolved: {"side": its owner, "orders": those not
        # yet made}.  It lives only within this run: a plan is resolved, or
        # stops, in the exchange that opens it.
        self.plan: dict[str, Any] | None = None
        self.seeds: dict[str, bytes] = rng.seeds if rng is not None else {}
        self.sink = Sink()
        # A stream a seat could have ground offline serves nothing: every
        # roll waits for the next seat's reveal (see Match.stream_fresh).
        self.frozen = not fresh
        # A game that moves its players in play (seat_players) ends the
        # exchange where they move: the next is sent by whoever then holds
        # the seat that must decide.
        self.players = rules.seat_players(es["game"])
        self.started = False
        self.how = "open"
        self.asked: Decision | None = None      # what pending() gave for es["game"] as it is (speed only)

    def run(self, next_entry: EntrySource) -> str:
        if not self.started:
            self._open()
        while True:
            how = self._step(next_entry)
            if how:
                self.how = how
                return how

    def _open(self) -> None:
        """Resolve the order deferred by the previous exchange, with this
        exchange's stream (keyed by the reveal of a seat that the order's
        owner could not know)."""
        self.started = True
        deferred = self.es.get("deferred")
        if deferred:            # the state changes before the first question
            self.asked = None
        if deferred and deferred["order"].get("verb") == PLAN_VERB:
            # A plan signed in the previous exchange: its orders answer its
            # owner's plannable decisions from here on (see _step).
            self.es["deferred"] = None
            self.plan = {"side": deferred["side"], "orders": list(deferred["order"].get("orders") or [])}
        elif deferred:
            self.es["deferred"] = None
            use = self._no_stream() if (self.frozen or self.rng is None) else self.rng
            _apply(self.rules, self.es, deferred["side"], deferred["order"], use, self.sink, "deferred", self.seeds)
        self.sink.opening = len(self.sink.events)
        if self.foreseen and self.sealed:
            self.frozen = True

    def _step(self, next_entry: EntrySource) -> str | None:
        """One decision answered; how the exchange ended, or None to go on."""
        rules, es = self.rules, self.es
        if es.get("ended"):
            return "over"
        d, self.asked = (self.asked if self.asked is not None else rules.pending(es["game"])), None
        if d is None:
            return "over"
        if rules.seat_players(es["game"]) != self.players:
            return "handed"
        policies = es["policies"].get(d.seat) or {}
        order = (rules.standing_answer(es["game"], d, policies)
                 if self.answers and policies and d.policy and not d.private else None)
        if order is not None:
            by, seat = "policy", d.seat
        elif self.answers and d.forced and not d.private and "forced" in self.features:
            # No choice, so no email and no frozen stream: the answer is the
            # state's, whoever's program meets it (docs/FILE-FORMAT.md).
            by, seat, order = "forced", d.seat, self._forced_order(d)
        elif self.plan is not None and self._plan_answers(d):
            self._plan_step(d)
            return None
        elif d.seat != self.sender:
            self.sink.handed = d
            return "handed"
        else:
            entry = next_entry(d)
            if entry is None:
                return "open"
            by, order, seat = entry["by"], entry["order"], self.sender
            if by == "private" and not d.private:
                raise IllegalOrder(f"a private answer where {d.seat} must decide {d.kind}")
            if by == "player" and d.private:
                raise IllegalOrder(f"{d.seat}'s program must answer {d.kind} from its secrets")
            if order.get("verb") == PLAN_VERB and by == "player":
                return self._sign_plan(d, order)
            if order.get("verb") in ENGINE_VERBS:
                engine_order(self.es, seat, order, self.sink, self.seats, rules, self.policy_kinds)
                self.frozen = self.frozen or (by == "player" and self.sealed)
                return None
        if by == "player" and self.sealed:
            # The sender knows every reveal keying this stream: none of his
            # own choices may draw from it.
            self.frozen = True
        use = self._no_stream() if (self.frozen or self.rng is None) else self.rng
        try:
            _apply(rules, es, seat, order, use, self.sink, by, self.seeds, d, self._may_defer())
        except NeedDice:
            order = gamefile.drop_none(order)
            es["deferred"] = {"side": seat, "order": order, "by": self.sender}
            self.sink.entries.append({"side": seat, "by": by, "order": public_order(order), "deferred": True})
            _keep_secret(self.sink, order)
            self.sink.marks.append(len(self.sink.events))
            return "deferred"
        return None


    def _may_defer(self) -> bool:
        """Whether the order about to be made may wait for dice, so must
        leave the state as it was if it does.  Always in live play; in a
        replay only when the file lists its entry as deferred: were any
        other entry deferred, the run would list it as such and the file
        is refused at that entry, whatever state the order left (the
        exchange ends at a deferral).  Speed only: a snapshot before each
        order of a frozen stream."""
        listed = self.listed
        if listed is None:
            return True
        k = len(self.sink.entries)
        entry = listed[k] if k < len(listed) else None
        return isinstance(entry, dict) and entry.get("deferred") is True

    def _no_stream(self) -> FrozenRng:
        return SureDraws() if "sure-draws" in self.features else FrozenRng()

    # -- forced answers and plans ------------------------------------------
    def _forced_order(self, d: Decision) -> Order:
        if len(d.options) != 1:
            raise IllegalOrder(f"{d.kind} is declared forced with {len(d.options)} options (a defect of the game)")
        return self.rules.parse(d.options[0], self.es["game"], d.seat)

    def _sign_plan(self, d: Decision, order: Order) -> str | None:
        from pbem.cycle import plan
        return plan.sign(self, d, order)

    def _plan_answers(self, d: Decision) -> bool:
        from pbem.cycle import plan
        return plan.answers(self, d)

    def _plan_step(self, d: Decision) -> None:
        from pbem.cycle import plan
        plan.step(self, d)

    def _text(self, order: Order) -> str:
        try:
            return self.rules.format(order)
        except Exception:  # a game that cannot format an order it refuses
            return str(order.get("verb"))


def run_exchange(
    rules: Rules,
    es: EngineState,
    sender: str,
    rng_stream: Stream | None,
    sealed: bool,
    next_entry: EntrySource,
    seats: list[str],
    rng: RecordingRng | None = None,
    fresh: bool = True,
    policy_kinds: Collection[str] = (),
    features: Collection[str] = (),
    listed: Sequence[Any] | None = None,
    foreseen: bool = False,
    answers: bool = True,
    asked: Decision | None = None,
    careful: bool = True,
) -> tuple[Sink, str]:
    """Run one whole exchange (see :class:`ExchangeRun`).  ``asked``: what
    ``rules.pending`` gave for ``es["game"]``, unchanged since (speed only)."""
    rng = rng if rng is not None else (RecordingRng(rng_stream) if rng_stream else None)
    run = ExchangeRun(rules, es, sender, rng, sealed, seats, fresh, policy_kinds, features, listed, foreseen, answers,
                      careful)
    run.asked = asked
    how = run.run(next_entry)
    return run.sink, how


def _apply(rules: Rules, es: EngineState, seat: str, order: Order, rng: Any, sink: Sink, by: str,
           seeds: dict[str, bytes], decided: Decision | None = None, may_defer: bool = True) -> None:
    """Apply one order.  ``decided`` is what ``rules.pending`` answered for
    ``es["game"]``, that very object, unchanged since (nothing between the
    question and this call writes the game state): a game that offers
    ``apply_decided`` is handed it instead of asking again (speed only).
    ``may_defer=False``: a deferral need not leave the state as it was
    (see ExchangeRun._may_defer)."""
    # The file cannot carry nulls: every program applies the order exactly
    # as it will read back from the file.
    order = gamefile.drop_none(order)
    # Hidden items an order shows are checked before the game sees them,
    # and recorded only once the order has gone through.
    record = hidden.check_openings(rules, es, seat, order, seeds.get(seat))
    # A game may change the state it is given before it finds an order
    # illegal or reaches a die.  Only a deferral must leave the state as it
    # was (the order is applied again later), so only a frozen stream keeps
    # a snapshot: a refused order ends a replay, and a live Turn rebuilds.
    saved = freeze(es["game"]) if may_defer and isinstance(rng, FrozenRng) else None
    # The game may change the order it is given: it gets its own copy.
    given = copy_order(order)
    try:
        if decided is not None:
            new_state, events = rules.apply_decided(es["game"], seat, given, rng, decided)
        else:
            new_state, events = rules.apply(es["game"], seat, given, rng)
    except NeedDice:
        es["game"] = thaw(saved) if saved is not None else es["game"]
        raise
    es["game"] = new_state
    if record is not None:
        record()
    sink.events.extend(events)
    if by != "deferred":
        sink.entries.append({"side": seat, "by": by, "order": public_order(order)})
        _keep_secret(sink, order)
        sink.marks.append(len(sink.events))


def _keep_secret(sink: Sink, order: Order) -> None:
    if "secret" in order:
        sink.secrets[str(len(sink.entries) - 1)] = order["secret"]
    if "team_secret" in order:
        sink.team_secrets[str(len(sink.entries) - 1)] = order["team_secret"]


def engine_order(es: EngineState, seat: str, order: Order, sink: Sink, seats: list[str], rules: Rules,
                 kinds: Collection[str]) -> None:
    """Orders about the match rather than the game (:mod:`.matchorders`),
    made and listed."""
    text = match_order(es, seat, order, seats, rules, kinds)
    sink.entries.append({"side": seat, "by": "player", "order": public_order(order)})
    _keep_secret(sink, order)
    if text:
        sink.events.append(Event(text))
    sink.marks.append(len(sink.events))
