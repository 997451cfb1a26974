"""The exchange under construction, kept once a roll has been shown.

Under immediate dice a player sees each roll as his order makes it.  If the
program let him leave without signing and start the exchange again, he
could take back a roll he did not like (the stream is the same, but his
orders need not be).  So once a roll has been shown in ``pbem play``, the
orders given so far are journalled in ``$PBEM_HOME``::

    games/<game id>/journal-<n>.toml    (n: the exchange being written)

keyed by the hash of the exchange it builds on, written atomically with
mode 0600 (it may hold secret parts of orders: salts, picks).  The next
``pbem play`` of that file pushes the journalled orders again, so the player
goes on from where he stopped, with the same dice.  A journal for another
base (the game moved on, or a rewind) is ignored.

This guards the honest program only: a player who runs a modified program,
or deletes his journal, can still take back a roll.  Sealed timing is for
opponents one does not trust.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.errors import UsageError

FORMAT = "pbem-journal/1"
MAX_BYTES = 4 << 20


@dataclass
class Journal:
    game_id: str
    n: int                    # the exchange being written
    base: str                 # the hash of the exchange it builds on
    side: str
    orders: list[dict[str, Any]] = field(default_factory=list)
    openings: int = 0
    answers: list[tuple[bytes, dict[str, Any]]] = field(default_factory=list)
    locked: int = 0
    message: str = ""


def path_for(game_id: str, n: int) -> Path:
    from pbem import session

    return session.game_dir(game_id) / f"journal-{n:04d}.toml"


def save(j: Journal) -> Path:
    """Write (or replace) the journal, atomically, readable by its owner only."""
    import tomli_w

    from pbem.fsutil import atomic_write

    doc = {
        "format": FORMAT, "game_id": j.game_id, "n": j.n, "base": j.base, "side": j.side,
        "locked": j.locked, "openings": j.openings, "message": j.message,
        # Orders are JSON trees (a null may matter to a game): kept as JSON text.
        "orders": json.dumps(j.orders, sort_keys=True),
        "answers": json.dumps([[k.hex(), o] for k, o in j.answers], sort_keys=True),
    }
    path = path_for(j.game_id, j.n)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    atomic_write(path, tomli_w.dumps(doc).encode("utf-8"), overwrite=True, mode=0o600)
    return path


def load(game_id: str, n: int, base: str, side: str) -> Journal | None:
    """The journal of exchange ``n`` building on ``base``, written for
    ``side``; None when there is none (or one for another base)."""
    from pbem.fsutil import loads_toml, read_bounded

    path = path_for(game_id, n)
    if not path.is_file():
        return None
    try:
        doc = loads_toml(read_bounded(path, MAX_BYTES, "journal").decode("utf-8"), str(path), error=UsageError)
        if doc.get("format") != FORMAT:
            raise ValueError("unknown format")
        if doc.get("game_id") != game_id or doc.get("n") != n or doc.get("base") != base \
                or doc.get("side") != side:
            return None
        orders = json.loads(doc["orders"])
        answers = [(bytes.fromhex(k), o) for k, o in json.loads(doc.get("answers", "[]"))]
        if not isinstance(orders, list) or not all(isinstance(o, dict) for o in orders):
            raise ValueError("orders is not a list of orders")
        return Journal(game_id, n, base, side, orders, int(doc.get("openings", 0)), answers,
                       int(doc.get("locked", 0)), str(doc.get("message", "")))
    except (KeyError, TypeError, ValueError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: not a journal this program can read ({exc}); "
                         "it holds an exchange whose dice you have seen") from None


def clear(game_id: str, n: int) -> None:
    """Forget the journal of exchange ``n`` (its exchange has been written)."""
    try:
        os.unlink(path_for(game_id, n))
    except FileNotFoundError:
        pass


def from_turn(turn: Any) -> Journal:
    """The journal of a live :class:`~pbem.cycle.Turn`."""
    from pbem.protocol.gamefile import exchange_hash

    state = turn.resume_state()
    return Journal(turn.m.game_id, turn.n, exchange_hash(turn.m.exchanges[-1]), turn.side, state["orders"],
                   state["openings"], state["answers"], turn.locked, turn.message)
