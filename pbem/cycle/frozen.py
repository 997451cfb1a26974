"""Engine states kept as bytes and read back as fresh copies: the snapshot
after each exchange (a rewind), a state to restore (a frozen stream's
deferral, a plan's skipped order) and deep copies of JSON-like trees
(:mod:`pbem.game.frozen`, which the legality probe shares)."""
from __future__ import annotations

from typing import Any

from pbem.game.frozen import fast_copy as fast_copy
from pbem.game.frozen import freeze as freeze
from pbem.game.frozen import thaw as thaw
from pbem.protocol.types import EngineState


class Snapshots:
    """The engine state after each exchange, needed only by a rewind: each is
    kept frozen (:func:`freeze`: one encoding an exchange, no copy made) and
    read back, as a fresh copy, only when asked for.  A reader that will
    ask for none (a cold verify of a file with no rewind) keeps none:
    ``keep=False`` (speed only; asking then is a defect, and says so)."""

    __slots__ = ("_kept", "_keep")

    def __init__(self, keep: bool = True) -> None:
        self._kept: list[Any] = []
        self._keep = keep

    def append(self, es: EngineState) -> None:
        if not self._keep:
            self._kept.append(None)
            return
        try:
            self._kept.append(freeze(es))
        except Exception:  # pragma: no cover - exotic objects in a game state
            import copy     # (only here and below: a verify never gets here, so never imports it)

            self._kept.append(_Copied(copy.deepcopy(es)))

    def __getitem__(self, i: int) -> EngineState:
        kept = self._kept[i]
        if kept is None:
            raise RuntimeError("the states after each exchange were not kept for this replay")
        if isinstance(kept, _Copied):  # pragma: no cover
            import copy

            return copy.deepcopy(kept.es)  # type: ignore[no-any-return]
        return thaw(kept)  # type: ignore[no-any-return]

    def __len__(self) -> int:
        return len(self._kept)

    def __getstate__(self) -> list[Any]:
        return self._kept

    def __setstate__(self, kept: list[Any]) -> None:
        self._kept = kept
        self._keep = True


class _Copied:
    """A state kept as a deep copy (one freeze() cannot encode)."""

    # A plain class, not a dataclass (speed only: the generated methods,
    # none of them used, were compiled at every start of a command).

    def __init__(self, es: EngineState) -> None:
        self.es = es
