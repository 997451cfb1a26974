"""pbem.games.avd.model's specs compare and hash as ``@dataclass(frozen=True)``
makes them (pbem.games.avd.model._compared, speed only): equal exactly when
of the same class with equal field values in order, the hash that of the
field values' tuple; frozen, replaceable, and their repr unchanged."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from pbem.games.avd import model
from pbem.games.avd import scenario as avd_scenario
from pbem.scenario import load_toml

REPO = Path(__file__).resolve().parent.parent
CLASSES = [model.UnitSpec, model.ChitSpec, model.TurnSpec, model.Terrain, model.AvdMap, model.Crt, model.Scenario]


def _reference(cls: type) -> type:
    """The class as plain ``@dataclass(frozen=True)`` would make it."""
    spec = [(f.name, f.type, f) for f in dataclasses.fields(cls)]
    return dataclasses.make_dataclass(cls.__name__, spec, frozen=True)


def _values(obj: object) -> tuple:
    return tuple(getattr(obj, f.name) for f in dataclasses.fields(obj))


@pytest.fixture(scope="module")
def scn() -> model.Scenario:
    return avd_scenario.load(load_toml(REPO / "scenarios" / "avd" / "practice.toml"))


def _samples(scn: model.Scenario) -> list[object]:
    out: list[object] = [*list(scn.units.values())[:40], *scn.chits.values(), *scn.turns.values(),
                         *scn.terrain.values(), scn.map, scn.crt, scn]
    # Copies equal in value but not the same object, and near misses.
    out += [dataclasses.replace(u) for u in list(scn.units.values())[:5]]
    out += [dataclasses.replace(u, attack=u.attack + 1) for u in list(scn.units.values())[:5]]
    return out


def test_every_spec_class_is_compared_by_value(scn):
    assert {type(x) for x in _samples(scn)} == set(CLASSES)
    for cls in CLASSES:
        assert cls.__dataclass_params__.frozen                          # type: ignore[attr-defined]
        assert "__eq__" in vars(cls) and "__hash__" in vars(cls)


def test_equality_and_hash_are_the_dataclass_ones(scn):
    samples = _samples(scn)
    refs = {cls: _reference(cls) for cls in CLASSES}
    mirrored = [refs[type(x)](*_values(x)) for x in samples]
    for a, ra in zip(samples, mirrored):
        for b, rb in zip(samples, mirrored):
            assert (a == b) == (ra == rb) and (a != b) == (ra != rb)
        assert a != _values(a) and a != None      # noqa: E711 - another class never equals
        try:
            expected: object = hash(ra)
        except TypeError as exc:                    # a field holds a dict
            expected = str(exc)
        try:
            got: object = hash(a)
        except TypeError as exc:
            got = str(exc)
        assert got == expected
        assert repr(a).split("(", 1)[1] == repr(ra).split("(", 1)[1]


def test_specs_stay_frozen(scn):
    unit = next(iter(scn.units.values()))
    with pytest.raises(dataclasses.FrozenInstanceError):
        unit.attack = 9                                           # type: ignore[misc]
    assert dataclasses.replace(unit) == unit and dataclasses.replace(unit) is not unit
    assert {unit, dataclasses.replace(unit)} == {unit}
