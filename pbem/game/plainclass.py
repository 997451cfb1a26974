"""Speed only: a base for small read-only value classes (a game's
:class:`~pbem.game.contract.Decision`, :class:`~pbem.game.contract.Event`,
:class:`~pbem.game.contract.SeatSpec`) with the behaviour of a frozen
dataclass, written once here: the dataclass decorator compiled each
class's methods anew at every start of a command (~0.5 ms a class)."""
from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Any


class Frozen:
    """What a frozen dataclass is, for a class that names its fields in
    ``_FIELDS`` and whose ``__init__`` fills the instance's dict (directly:
    ``__setattr__`` refuses): read-only, equal to one of its own class with
    the same values, hashed and shown by them."""

    _FIELDS: tuple[str, ...] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._FIELDS)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Frozen) or other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(self._FIELDS, self._values()))
        return f"{type(self).__name__}({shown})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")
