"""States and orders kept as bytes and read back as fresh deep copies: the
engine's snapshots and restores (:mod:`pbem.cycle.frozen`) and the
legality probe's trial copies (:func:`pbem.game.probe`).  Speed only:
marshal writes and reads the plain types a state holds in about two thirds
of pickle's time, and far faster than copy.deepcopy; anything marshal
cannot write is pickled."""
from __future__ import annotations

import marshal
from typing import Any


def freeze(value: Any) -> bytes:
    """``value`` (a game or engine state, an order) as bytes that
    :func:`thaw` turns back into a fresh, equal copy, its types and any
    sharing within it kept.  Marshal writes and reads the plain types a
    state holds in about two thirds of pickle's time; anything else is
    pickled.  The first byte says which (speed only: the bytes never leave
    this program but in its MAC-checked cache)."""
    try:
        return b"m" + marshal.dumps(value)
    except ValueError:
        import pickle   # only for what marshal refuses: a verify never gets here, so never imports it
        return b"p" + pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def thaw(data: bytes) -> Any:
    """A fresh copy of what :func:`freeze` wrote."""
    body = memoryview(data)[1:]
    if data[:1] == b"m":
        return marshal.loads(body)
    import pickle
    return pickle.loads(body)


def fast_copy(value: Any) -> Any:
    """A deep copy of a JSON-like tree; several times faster than
    copy.deepcopy for these."""
    try:
        # Speed only: what thaw(freeze(value)) gives on its marshal path,
        # without the tag byte and the view that skips it.
        return marshal.loads(marshal.dumps(value))
    except Exception:  # what marshal refuses is pickled (as freeze does)
        pass
    try:
        import pickle

        return pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
    except Exception:  # pragma: no cover - exotic objects in a game state
        import copy     # (only here: a verify never gets here, so never imports it)

        return copy.deepcopy(value)


_SCALARS = frozenset({str, int, bool, float, type(None)})


def copy_order(order: Any) -> Any:
    """What :func:`fast_copy` gives for an order as
    :func:`pbem.protocol.gamefile.drop_none` leaves it (plain tables and
    lists built afresh, none shared within).  Speed only: most orders are
    a table of scalars and lists of scalars, whose copy needs no marshal;
    any other shape is handed to :func:`fast_copy`."""
    if type(order) is not dict:
        return fast_copy(order)
    copied: dict[Any, Any] = {}
    for key, value in order.items():
        kind = type(value)
        if kind in _SCALARS:
            copied[key] = value          # immutable: the copy may share it
        elif kind is list and _SCALARS.issuperset(map(type, value)):
            copied[key] = list(value)
        else:
            return fast_copy(order)
    return copied

