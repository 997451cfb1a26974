"""Speed only: a base for small read-only value classes (a game's
:class:`~pbem.game.contract.Decision`, :class:`~pbem.game.contract.Event`,
:class:`~pbem.game.contract.SeatSpec`) with the behaviour of a frozen
dataclass, written once here: the dataclass decorator compiled each
class's methods anew at every start of a command (~0.5 ms a class).

And :func:`fields_later`: a class's registration with :mod:`dataclasses`
(what ``dataclasses.fields``, ``replace``, ``asdict`` and ``is_dataclass``
read) made when something first reads it, not at import: importing
dataclasses (with inspect, ast, dis and tokenize) was a tenth of what a
cold ``pbem verify`` spent before its replay, where nothing reads it.
This module itself imports dataclasses only then."""
from __future__ import annotations

import sys
from typing import Any, Callable, TypeVar

C = TypeVar("C", bound=type)


def frozen_error(message: str) -> Exception:
    from dataclasses import FrozenInstanceError     # (the class every frozen dataclass raises)

    return FrozenInstanceError(message)


class Fields:
    """What a (not frozen) dataclass is, for a class that names its fields
    in ``_FIELDS``: equal to one of its own class with the same values,
    shown by them, unhashable."""

    _FIELDS: tuple[str, ...] = ()
    __hash__ = None     # type: ignore[assignment]

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._FIELDS)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()    # type: ignore[attr-defined]

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(self._FIELDS, self._values()))
        return f"{type(self).__name__}({shown})"


class Frozen(Fields):
    """What a frozen dataclass is, for a class that names its fields in
    ``_FIELDS`` and whose ``__init__`` fills the instance's dict (directly:
    ``__setattr__`` refuses): read-only, equal to one of its own class with
    the same values, hashed and shown by them."""

    def __hash__(self) -> int:     # type: ignore[override]
        return hash(self._values())

    def __setattr__(self, name: str, value: Any) -> None:
        raise frozen_error(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise frozen_error(f"cannot delete field {name!r}")


class Factory:
    """A field's default factory, written in a class body for
    :func:`fields_later` as ``field(default_factory=...)`` would be for
    dataclass (which is not imported to read it)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


def factory(make: Callable[[], Any]) -> Any:
    """``entries: list[str] = factory(list)``: see :class:`Factory`."""
    return Factory(make)


class _Registration:
    """``__dataclass_fields__`` of a class until something reads it: then
    the class is registered (the attribute replaced by the real one) and
    the real one is given."""

    def __init__(self, cls: type, factories: dict[str, Callable[[], Any]]) -> None:
        self.cls, self.factories = cls, factories

    def __get__(self, obj: object, objtype: type | None = None) -> Any:
        import dataclasses

        cls = self.cls
        if cls.__dict__.get("__dataclass_fields__") is self:
            del cls.__dataclass_fields__   # type: ignore[attr-defined]
            for name, make in self.factories.items():
                setattr(cls, name, dataclasses.field(default_factory=make))
            # What the decorator did at import before: the fields and the
            # class's parameters, no method written (the class has its own).
            dataclasses.dataclass(cls, init=False, repr=False, eq=False)
        return cls.__dataclass_fields__   # type: ignore[attr-defined]


def field_names(cls: type) -> tuple[str, ...]:
    """The fields dataclass would find in ``cls``: its own annotations, in
    order.  What it would read otherwise (a ClassVar, an InitVar, KW_ONLY,
    fields of a dataclass base) is refused rather than misread."""
    notes = cls.__dict__.get("__annotations__", {})
    made = sys.modules.get("dataclasses")      # (a field() can only come from it once imported)
    for name, note in notes.items():
        if any(word in str(note) for word in ("ClassVar", "InitVar", "KW_ONLY")):
            raise TypeError(f"{cls.__qualname__}.{name}: fields_later reads no ClassVar, InitVar or KW_ONLY")
        if made is not None and isinstance(cls.__dict__.get(name), made.Field):
            raise TypeError(f"{cls.__qualname__}.{name}: fields_later reads no dataclasses.field() "
                            "(init=False, a default factory...): write factory(...)")
    if any(hasattr(base, "__dataclass_fields__") for base in cls.__mro__[1:]):
        raise TypeError(f"{cls.__qualname__}: fields_later takes no dataclass base")
    return tuple(notes)


def fields_later(cls: C) -> C:
    """Register ``cls`` with dataclasses as ``dataclass(cls, init=False,
    repr=False, eq=False)`` does (its fields and parameters; no method
    written: the class writes its own), on the first read of its
    ``__dataclass_fields__`` (speed only, see the module).  Its
    ``__match_args__`` are set now, as the decorator sets them; a
    :func:`factory` default is taken out of the class body now, as the
    decorator takes out a ``field(default_factory=...)``.  Until then the
    class lacks only ``__dataclass_params__``."""
    names = field_names(cls)
    factories = {name: value.make for name in names
                 if isinstance(value := cls.__dict__.get(name), Factory)}
    for name in factories:
        delattr(cls, name)
    if "__match_args__" not in cls.__dict__:
        cls.__match_args__ = names      # type: ignore[attr-defined,misc]
    cls.__dataclass_fields__ = _Registration(cls, factories)     # type: ignore[attr-defined]
    return cls
