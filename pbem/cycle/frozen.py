"""Engine states kept as bytes and read back as fresh copies: the snapshot
after each exchange (a rewind), a state to restore (a frozen stream's
deferral, a plan's skipped order) and deep copies of JSON-like trees.
Speed only: marshal writes and reads the plain types a state holds in
about two thirds of pickle's time; anything it cannot write is pickled."""
from __future__ import annotations

import copy
import marshal
import pickle
from dataclasses import dataclass
from typing import Any

from pbem.protocol.types import EngineState


class Snapshots:
    """The engine state after each exchange, needed only by a rewind: each is
    kept frozen (:func:`freeze`: one encoding an exchange, no copy made) and
    read back, as a fresh copy, only when asked for."""

    __slots__ = ("_kept",)

    def __init__(self) -> None:
        self._kept: list[Any] = []

    def append(self, es: EngineState) -> None:
        try:
            self._kept.append(freeze(es))
        except Exception:  # pragma: no cover - exotic objects in a game state
            self._kept.append(_Copied(copy.deepcopy(es)))

    def __getitem__(self, i: int) -> EngineState:
        kept = self._kept[i]
        if isinstance(kept, _Copied):  # pragma: no cover
            return copy.deepcopy(kept.es)  # type: ignore[no-any-return]
        return thaw(kept)  # type: ignore[no-any-return]

    def __len__(self) -> int:
        return len(self._kept)

    def __getstate__(self) -> list[Any]:
        return self._kept

    def __setstate__(self, kept: list[Any]) -> None:
        self._kept = kept


@dataclass
class _Copied:
    es: EngineState


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
        return b"p" + pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def thaw(data: bytes) -> Any:
    """A fresh copy of what :func:`freeze` wrote."""
    body = memoryview(data)[1:]
    return marshal.loads(body) if data[:1] == b"m" else pickle.loads(body)


def fast_copy(value: Any) -> Any:
    """A deep copy of a JSON-like tree; several times faster than
    copy.deepcopy for these."""
    try:
        return thaw(freeze(value))
    except Exception:  # pragma: no cover - exotic objects in a game state
        return copy.deepcopy(value)
