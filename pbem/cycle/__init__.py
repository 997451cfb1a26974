"""The exchange cycle: replaying a game file, and writing the next exchange.

An *exchange* is one email's worth of play by one seat (its *sender*).  It
carries the sender's next dice-chain reveal, the orders applied in it, the
hash of the public state after them, and the sender's signature.

Within an exchange the engine runs the game forward from the state left by
the previous one::

    resolve the order deferred by the previous exchange (sealed dice)
    loop:
        decision = pending()
        answered by the deciding seat's standing orders?  -> apply, listed as "policy"
        the sender's private decision (a reveal)?          -> the sender's program answers
        the sender's decision?                             -> the next order of the sender
        otherwise                                           -> the exchange ends

Dice.  Exchange ``n`` has one random stream (``stream_no = n``) keyed by each
seat's latest reveal as of that exchange.  Under **immediate** timing every
order of the exchange draws from it.  Under **sealed** timing the stream is
usable only until the sender's first own order: after that the sender could
foresee the stream (he knows every reveal), so an order that then needs dice
is *deferred*: the exchange ends, and the next exchange of a seat of another
side resolves it from a stream keyed by that seat's next reveal, which the
sender could not know when he signed.

The package, by job: :mod:`.match` (what a replayed game is), :mod:`.run`
(one exchange run forward), :mod:`.replay` (verification), :mod:`.parts`
(an exchange's signature, sealed and team parts, opened and checked), :mod:`.turn`
(the exchange being written), :mod:`.write` (new, join, disclose, rewind,
signing).  Nothing here knows any game: games are reached through
:mod:`pbem.game`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.cycle.match import (
    CHAIN_LENGTH, DICE_TIMINGS, RENEW_WHEN_LEFT, EngineState, Match, Record, Seat, Verification, fast_copy,
    public_engine_state, public_order,
)
from pbem.cycle.replay import advance, replay, waiting_after
from pbem.cycle.run import ENGINE_VERBS, ExchangeRun, parse_engine_order, run_exchange
from pbem.protocol.gamefile import exchange_hash

if TYPE_CHECKING:
    from pbem.cycle import turn, write
    from pbem.cycle.turn import Turn
    from pbem.cycle.write import (
        dice_listing, disclose_exchange, iter_rolls, join_exchange, new_game, rewind_exchange, sign,
    )

# Speed only: the writing side (a live Turn, the exchanges a player writes)
# is imported on first use, by name: a verify writes nothing (~0.5 ms of
# its start).
_WRITING = {"turn": "turn", "write": "write", "Turn": "turn", **dict.fromkeys(
    ("dice_listing", "disclose_exchange", "iter_rolls", "join_exchange", "new_game", "rewind_exchange", "sign"),
    "write")}

__all__ = [
    "CHAIN_LENGTH", "DICE_TIMINGS", "ENGINE_VERBS", "RENEW_WHEN_LEFT", "EngineState", "ExchangeRun", "Match",
    "Record", "Seat", "Turn", "Verification", "advance", "disclose_exchange", "exchange_hash", "fast_copy",
    "dice_listing", "iter_rolls", "join_exchange", "new_game", "parse_engine_order", "public_engine_state", "public_order",
    "replay", "rewind_exchange", "run_exchange", "sign", "waiting_after",
]


def __getattr__(name: str) -> Any:
    if name not in _WRITING:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    module = importlib.import_module(f"{__name__}.{_WRITING[name]}")
    return module if name == _WRITING[name] else getattr(module, name)
