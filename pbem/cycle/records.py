"""A match's two small record kinds: :class:`Seat` (a seat's player as the
file knows him) and :class:`Record` (what one exchange did).

Plain classes with the ``__init__``, ``__eq__`` and ``__repr__`` a
``@dataclass`` would write (those two from
:class:`pbem.game.plainclass.Fields`), for speed only: importing
:mod:`dataclasses`, with inspect, ast, dis and tokenize, was a tenth of
what a cold ``pbem verify`` spent before its replay, and nothing in a
verify needs it.  A copy with a
field changed is :func:`copy.copy` and an assignment."""
from __future__ import annotations

from typing import Any

from pbem.game import Event
from pbem.game.plainclass import Fields


class Seat(Fields):
    """A seat's player as the file knows him: identity and dice chain.
    ``side`` holds the seat's name (the file's historical word for it)."""

    _FIELDS = ("side", "identity", "last", "chain_n", "reveals_on_chain", "next_anchor", "next_chain_n",
               "revealed_at", "secret_commit", "player")

    def __init__(self, side: str, identity: Any, last: bytes, chain_n: int, reveals_on_chain: int = 0,
                 next_anchor: bytes | None = None, next_chain_n: int = 0, revealed_at: int = 0,
                 secret_commit: str = "", player: str = "") -> None:
        self.side = side
        self.identity = identity                # pbem.protocol.identity.PublicIdentity
        self.last = last                        # latest reveal, or the anchor before any
        self.chain_n = chain_n
        self.reveals_on_chain = reveals_on_chain
        self.next_anchor = next_anchor
        self.next_chain_n = next_chain_n
        self.revealed_at = revealed_at          # the exchange of the latest reveal (0: still the anchor)
        self.secret_commit = secret_commit      # the commitment to the seat's secret seed
        self.player = player                    # the seat this player joined as (a game may move players)

    @property
    def name(self) -> str:
        return self.side


class Record(Fields):
    """What happened in one exchange, for the log and the dice listing.
    ``side`` is the sending seat."""

    _FIELDS = ("n", "side", "kind", "entries", "events", "rolls", "deferred", "message", "waiting", "marks",
               "opening", "rewind_to", "keyed_by", "secret_rolls", "drew_secret")

    def __init__(self, n: int, side: str, kind: str, entries: list[dict[str, Any]] | None = None,
                 events: list[Event] | None = None, rolls: list[dict[str, Any]] | None = None,
                 deferred: dict[str, Any] | None = None, message: str = "", waiting: str = "",
                 marks: list[int] | None = None, opening: int = 0, rewind_to: int = 0,
                 keyed_by: dict[str, str] | None = None,
                 secret_rolls: dict[str, list[dict[str, Any]]] | None = None, drew_secret: bool = False) -> None:
        self.n = n
        self.side = side
        self.kind = kind
        self.entries = entries if entries is not None else []
        self.events = events if events is not None else []
        self.rolls = rolls if rolls is not None else []
        self.deferred = deferred
        self.message = message
        self.waiting = waiting
        self.marks = marks if marks is not None else []
        self.opening = opening
        self.rewind_to = rewind_to
        self.keyed_by = keyed_by if keyed_by is not None else {}            # seat -> the reveal (hex) keying the stream
        self.secret_rolls = secret_rolls if secret_rolls is not None else {}    # only where known
        self.drew_secret = drew_secret          # some seat drew from its secret stream (known to every program)
