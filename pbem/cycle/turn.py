"""The exchange this program is writing, python-chess style: ``pending``
names what the sender must decide, ``push`` applies an order (or raises
IllegalOrder), ``undo`` takes the last one back."""
from __future__ import annotations

import os
from typing import Any

from pbem.cycle import match as _match
from pbem.cycle.match import EngineState, Match, fast_copy, public_engine_state
from pbem.cycle.replay import features, waiting_after
from pbem.cycle.run import ENGINE_VERBS, PLAN_VERB, ExchangeRun, Sink, parse_engine_order
from pbem.cycle import hidden
from pbem.cycle.write import seal_into, sign, team_keys
from pbem.errors import UsageError
from pbem.game import Decision, Event, IllegalOrder, Order
from pbem.protocol import chain as dchain
from pbem.protocol import gamefile
from pbem.protocol.canon import canonical, digest
from pbem.protocol.gamefile import exchange_hash
from pbem.protocol.types import Exchange
from pbem.protocol.stream import RecordingRng, Stream, stream_key


class Turn:
    """The exchange this program is writing.  python-chess style: ``pending``
    names what the sender must decide, ``push`` applies an order (or raises
    IllegalOrder), ``undo`` takes the last one back.  The exchange is done
    when another side must decide, the game ends, or (sealed dice) an order
    waits for the opponent's dice.

    A roll shown to the sender stands: once an order has led to dice (or a
    face-down draw), it and every order before it are *locked* (``locked``
    counts them) and ``undo`` refuses to go back past them.  ``resume``
    pushes the orders of an exchange begun earlier (a journal, see
    :mod:`pbem.journal`) again: same reveal, same stream, so the same dice;
    ``openings`` and ``answers`` restore the counters and private answers of
    that run (:meth:`resume_state`), so secrets shown then are shown alike."""

    def __init__(self, m: Match, me: Any, resume: list[Order] | None = None, *, openings: int = 0,
                 answers: list[tuple[bytes, Order]] | None = None) -> None:
        if m.me is None:
            raise UsageError("this key is not a player of this game")
        if m.next_sender() != m.me:
            raise UsageError(f"it is {m.next_sender()}'s turn to send, not yours ({m.me})")
        self.m = m
        self.me_identity = me
        self.side = m.me
        self.n = len(m.exchanges) + 1
        self.start_es = fast_copy(m.es)
        self.orders: list[Order] = []          # the sender's own orders, in order
        self.message = ""
        self._answers: list[tuple[bytes, Order]] = []
        self._openings = openings              # orders of this exchange that showed hidden items
        self.locked = 0                        # orders that may no longer be undone (their dice were shown)
        self._reveal, self._renew = self._next_reveal()
        if answers:
            self._answers = [(k, fast_copy(o)) for k, o in answers]
        self._simulate()
        for k, order in enumerate(resume or (), 1):
            try:
                self.push(fast_copy(order))
            except IllegalOrder as exc:
                raise UsageError(f"order {k} of the exchange begun earlier no longer applies ({exc})") from None

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
        if cursor.remaining < _match.RENEW_WHEN_LEFT:
            renew = (os.urandom(32), _match.CHAIN_LENGTH)
        return reveal, renew

    # the game ------------------------------------------------------------
    def _simulate(self) -> None:
        """Run the exchange from its start with the orders given so far."""
        m = self.m
        es = fast_copy(self.start_es)
        reveals = {s: seat.last for s, seat in m.seats.items()} | {self.side: self._reveal}
        seeds = {self.side: m.secret_seeds[self.side]} if self.side in m.secret_seeds else {}
        self.rng = RecordingRng(Stream(stream_key(m.game_id, self.n, reveals)), seeds)
        self.run = ExchangeRun(m.rules, es, self.side, self.rng, m.timing == "sealed", m.seat_names,
                               m.stream_fresh(self.side, self.n), m.policy_kinds, features(m),
                               foreseen=m.stream_foreseen(self.side))
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
    def sink(self) -> Sink:
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
        """Terse notation to an order: the engine's own verbs, ``plan ORDER
        then ORDER ...`` (each order read against the state as it is now),
        or the game's."""
        words = text.split()
        if words and words[0].lower() == PLAN_VERB:
            parts = [p.strip() for p in " ".join(words[1:]).split(" then ")]
            if not all(parts):
                raise IllegalOrder("usage: plan ORDER then ORDER ... (e.g. plan attack 4121 with 7Pz then end-combat)")
            return {"verb": PLAN_VERB, "orders": [self.m.rules.parse(p, self.es["game"], self.side) for p in parts]}
        order = parse_engine_order(text)
        if order is None:
            order = self.m.rules.parse(text, self.es["game"], self.side)
        return order

    def may_plan(self) -> bool:
        """Whether the pending decision may be answered by a plan, and a
        plan would be resolved elsewhere (sealed dice, a file that has
        plans)."""
        d = self.pending()
        return d is not None and d.plannable and "plans" in features(self.m) and self.m.timing == "sealed"

    def push(self, order: Order | str) -> list[Event]:
        if self.done:
            raise IllegalOrder("this exchange is complete: nothing more can be ordered in it")
        if isinstance(order, str):
            order = self.parse(order)
        order = self._with_secrets(order, self.es["game"])
        before = len(self.sink.events)
        draws = self.draws()
        self._queue = [order]
        try:
            self.run.run(self._next_entry)
        except IllegalOrder:
            self._simulate()      # back to the state before the refused order
            raise
        self.orders.append(order)
        if self.draws() > draws:
            self.locked = len(self.orders)
        return self.sink.events[before:]

    def draws(self) -> int:
        """Rolls and draws made so far in this exchange, on the shared
        stream and the secret ones."""
        return len(self.rng.records) + sum(len(r.records) for r in self.rng.secret_rngs.values())

    def resume_state(self) -> dict[str, Any]:
        """What a journal keeps to rebuild this exchange: ``Turn(m, me,
        resume=orders, openings=..., answers=...)``."""
        return {"orders": fast_copy(self.orders), "openings": self._openings,
                "answers": [(k, fast_copy(o)) for k, o in self._answers]}

    def _with_secrets(self, order: Order, state: dict[str, Any]) -> Order:
        """Let the game add the secret part to an order of ours, and the core
        the openings of any hidden items it shows (games draw no randomness
        of their own)."""
        if order.get("verb") == "policy" and order.get("name") in self.m.rules.private_policies \
                and "secret" not in order:
            return {"verb": "policy", "name": order["name"], "private": True, "secret": {"value": order.get("value")}}
        if order.get("verb") in ENGINE_VERBS or order.get("verb") == PLAN_VERB:
            return order
        from pbem.protocol.commit import new_salt

        filled = self.m.rules.fill_secrets(fast_copy(state), self.side, order, new_salt)
        if not filled.get("open") or "openings" in filled:
            return filled
        self._openings += 1
        return hidden.fill_openings(self.m.rules, self.es, self.side, filled, self.m.secret_seeds.get(self.side),
                                    hidden.opening_epoch(self.n, self._openings))

    def preview(self, order: Order) -> tuple[list[Event], str]:
        """What ``order`` would do now, without doing it: its events up to
        its first roll (no dice are drawn) and how the exchange would then
        stand (``"open"``, ``"handed"``...).  ``([], "refused")`` if the rules
        refuse it."""
        if order.get("verb") not in ENGINE_VERBS and order.get("verb") != PLAN_VERB:
            from pbem.protocol.commit import new_salt

            order = self.m.rules.fill_secrets(fast_copy(self.es["game"]), self.side, order, new_salt)
        trial = ExchangeRun(self.m.rules, fast_copy(self.es), self.side, None, True, self.m.seat_names,
                            False, self.m.policy_kinds, features(self.m))
        trial.started = True
        queue = [order]

        def next_entry(d: Decision) -> dict[str, Any] | None:
            return {"by": "player", "order": queue.pop(0)} if queue and not d.private else None
        try:
            how = trial.run(next_entry)
        except IllegalOrder:
            return [], "refused"
        return trial.sink.events, how

    def undo(self) -> None:
        if not self.orders:
            raise IllegalOrder("nothing to undo in this exchange")
        if len(self.orders) <= self.locked:
            raise IllegalOrder("cannot undo: your last order led to dice you have seen, and a roll once "
                               "shown stands (immediate dice)")
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
        return waiting_after(self.m, self.es, self.how, self.side)

    # sealing the exchange -------------------------------------------------
    def finish(self) -> Exchange:
        """The signed exchange.  Only a complete exchange can be signed."""
        if not self.done:
            d = self.pending()
            raise UsageError(f"the exchange is not complete: you must still decide {d.kind if d else ''}")
        m = self.m
        es = fast_copy(self.es)
        ex: Exchange = {
            "game_id": m.game_id, "n": self.n, "kind": "play", "side": self.side,
            "prev": exchange_hash(m.exchanges[-1]),
            "reveal": self._reveal.hex(),
            "orders": gamefile.drop_none(self.sink.entries),
        }
        seed = m.secret_seeds.get(self.side)
        if hidden.keeps_hidden(m.rules):
            if seed is None:
                raise UsageError("cannot find your secret seed in this file: is this your key?")
            root = hidden.closing_root(m.rules, es, self.side, seed, self.n)
            assert root is not None
            ex["hidden_root"] = root
            es["hidden_roots"][self.side] = root     # the root just built from this very state
        ex["state"] = digest(public_engine_state(es))
        if self.message:
            ex["message"] = self.message
        # Every play exchange carries a sealed part of the same padded size,
        # so that whether it holds secrets says nothing either.
        secret_part: dict[str, Any] = {}
        if self.sink.secrets:
            secret_part["orders"] = self.sink.secrets
        if self._renew:
            chain_seed, n = self._renew
            ex["anchor"], ex["chain_n"] = dchain.anchor(chain_seed, n).hex(), n
            secret_part["seed"] = chain_seed.hex()
        seal_into(ex, self.me_identity, secret_part, team=team_keys(m, self.side),
                  team_secrets=self.sink.team_secrets)
        return sign(ex, self.me_identity)
