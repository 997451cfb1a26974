"""The kernel's small value classes written out instead of
``@dataclass(frozen=True)`` (speed only: the decorator writes and compiles
their methods at every cold start): what they share.
"""
from __future__ import annotations

from typing import Any


class Frozen:
    """Equality and hash of :meth:`_fields` within one class, and
    FrozenInstanceError on assignment and deletion, as the dataclass's."""

    __slots__ = ()

    def _fields(self) -> tuple[Any, ...]:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._fields() == other._fields()  # type: ignore[attr-defined,no-any-return]
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._fields())

    def __setattr__(self, name: str, value: object) -> None:
        raise _frozen(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise _frozen(f"cannot delete field {name!r}")


def _frozen(message: str) -> Exception:
    """The FrozenInstanceError a frozen dataclass raises, imported only
    when raised (speed only: a cold verify imports no dataclasses, with its
    inspect, ast, dis and tokenize)."""
    from dataclasses import FrozenInstanceError

    return FrozenInstanceError(message)
