"""pbem.games.avd.model's specs behave as ``@dataclass(frozen=True)`` makes
them (model._frozen builds their methods without compiling source, speed
only): construction (positional, by name, defaults, default factories, the
wrong calls refused), repr, equality (field tuples within one class), hash,
frozen fields, ``fields`` and ``replace``, pickling."""
from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path

import pytest

from pbem.games.avd import model
from pbem.games.avd import scenario as avd_scenario
from pbem.scenario import load_toml

REPO = Path(__file__).resolve().parent.parent
CLASSES = [model.UnitSpec, model.ChitSpec, model.TurnSpec, model.Terrain, model.AvdMap, model.Crt, model.Scenario]


def _reference(cls: type) -> type:
    """The class as plain ``@dataclass(frozen=True)`` makes it."""
    spec = [(f.name, f.type, dataclasses.field(default=f.default, default_factory=f.default_factory))
            for f in dataclasses.fields(cls)]
    return dataclasses.make_dataclass(cls.__name__, spec, frozen=True)


def _values(obj: object) -> tuple:
    return tuple(getattr(obj, f.name) for f in dataclasses.fields(obj))


@pytest.fixture(scope="module")
def scn() -> model.Scenario:
    return avd_scenario.load(load_toml(REPO / "scenarios" / "avd" / "practice.toml"))


def _samples(scn: model.Scenario) -> list[object]:
    units = list(scn.units.values())
    out: list[object] = [*units[:40], *scn.chits.values(), *scn.turns.values(), *scn.terrain.values(),
                         scn.map, scn.crt, scn]
    # Copies equal in value but not the same object, and near misses.
    out += [dataclasses.replace(u) for u in units[:5]] + [dataclasses.replace(u, attack=u.attack + 1) for u in units[:5]]
    return out


def _outcome(fn) -> object:
    try:
        return ("value", fn())
    except TypeError:
        return ("TypeError",)


def test_fields_are_the_dataclass_ones():
    for cls in CLASSES:
        ref = _reference(cls)
        got = [(f.name, f.default, f.default_factory) for f in dataclasses.fields(cls)]
        assert got == [(f.name, f.default, f.default_factory) for f in dataclasses.fields(ref)]
        assert cls.__match_args__ == ref.__match_args__                   # type: ignore[attr-defined]


def test_construction_binds_as_the_dataclass_init(scn):
    for obj in _samples(scn):
        cls, ref, values = type(obj), _reference(type(obj)), _values(obj)
        names = [f.name for f in dataclasses.fields(cls)]
        required = [f.name for f in dataclasses.fields(cls)
                    if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
        calls = [(values, {}), ((), dict(zip(names, values))), (values[:2], dict(zip(names[2:], values[2:]))),
                 (values[:len(required)], {}), ((), dict(zip(required, values))),
                 (values + (1,), {}), (values[:1], {names[0]: values[0]}), (values, {"nope": 1}),
                 (values[:len(required) - 1], {})]
        for args, kwargs in calls:
            got = _outcome(lambda: _values(cls(*args, **kwargs)))
            assert got == _outcome(lambda: _values(ref(*args, **kwargs))), (cls, args, kwargs)
    a, b = model.Scenario(*_values(scn)[:-1]), model.Scenario(*_values(scn)[:-1])
    assert a.options == {} and a.options is not b.options              # a fresh default per object


def test_repr_equality_and_hash_are_the_dataclass_ones(scn):
    samples = _samples(scn)
    refs = {cls: _reference(cls) for cls in CLASSES}
    mirrored = [refs[type(x)](*_values(x)) for x in samples]
    for a, ra in zip(samples, mirrored):
        assert repr(a) == repr(ra)
        for b, rb in zip(samples, mirrored):
            assert (a == b) == (ra == rb) and (a != b) == (ra != rb)
        assert a != _values(a) and a != None                           # noqa: E711 - no other class is equal
        assert _outcome(lambda: hash(a)) == _outcome(lambda: hash(ra))  # a field holding a dict: unhashable


def test_specs_are_frozen_replaceable_and_pickle(scn):
    unit = next(iter(scn.units.values()))
    for action in (lambda: setattr(unit, "attack", 9), lambda: delattr(unit, "attack"),
                   lambda: setattr(unit, "other", 1)):
        with pytest.raises(dataclasses.FrozenInstanceError):
            action()
    assert dataclasses.replace(unit) == unit and dataclasses.replace(unit) is not unit
    assert {unit, dataclasses.replace(unit)} == {unit}
    assert dataclasses.replace(unit, attack=unit.attack + 1).attack == unit.attack + 1
    again = pickle.loads(pickle.dumps(scn))
    assert again == scn and list(vars(again.map)) == list(vars(scn.map)) == [f.name for f in dataclasses.fields(scn.map)]


def test_frozen_refuses_what_it_does_not_do() -> None:
    """A spec with __post_init__ or an init=False field would lose that step
    silently in the stand-in: it is refused when the class is made."""
    with pytest.raises(TypeError, match="__post_init__"):
        @model._frozen
        class WithPost:
            a: int

            def __post_init__(self) -> None:
                pass

    with pytest.raises(TypeError, match="init=False"):
        @model._frozen
        class WithHidden:
            a: int = dataclasses.field(init=False, default=0)
