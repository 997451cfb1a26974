"""pbem.game.plainclass.fields_later registers a class with dataclasses as
``dataclass(cls, init=False, repr=False, eq=False)`` did at import, but on
the first read of its fields (speed only: a cold verify imports no
dataclasses): the same fields, defaults, factories, parameters and match
arguments once read, and the same answers from fields, replace, asdict and
is_dataclass."""
from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.game.plainclass import factory, fields_later

REPO = Path(__file__).resolve().parent.parent


def _pair() -> tuple[type, type]:
    """The same class registered both ways."""

    class Eager:
        a: int
        b: str = "x"
        c: list[int] = dataclasses.field(default_factory=list)

        def __init__(self, a: int, b: str = "x", c: list[int] | None = None) -> None:
            self.a, self.b, self.c = a, b, [] if c is None else c

    class Lazy:
        a: int
        b: str = "x"
        c: list[int] = factory(list)

        def __init__(self, a: int, b: str = "x", c: list[int] | None = None) -> None:
            self.a, self.b, self.c = a, b, [] if c is None else c

    return dataclasses.dataclass(Eager, init=False, repr=False, eq=False), fields_later(Lazy)


def _described(cls: type) -> list[tuple]:
    return [(f.name, f.type, f.default, f.default_factory, f.init, f.repr, f.compare, f.kw_only)
            for f in dataclasses.fields(cls)]


def test_the_registration_is_made_on_first_read_and_is_the_decorators() -> None:
    eager, lazy = _pair()
    assert "__dataclass_params__" not in lazy.__dict__ and "c" not in lazy.__dict__
    assert lazy.__match_args__ == eager.__match_args__ == ("a", "b", "c")
    assert dataclasses.is_dataclass(lazy) and dataclasses.is_dataclass(lazy(1))
    assert _described(lazy) == _described(eager)
    assert repr(lazy.__dataclass_params__) == repr(eager.__dataclass_params__)
    assert lazy.b == eager.b == "x" and not hasattr(lazy, "c") and not hasattr(eager, "c")
    assert set(lazy.__dict__) == set(eager.__dict__)


def test_fields_replace_and_asdict_answer_as_before() -> None:
    eager, lazy = _pair()
    e, z = dataclasses.replace(eager(1, c=[2]), b="y"), dataclasses.replace(lazy(1, c=[2]), b="y")
    assert (z.a, z.b, z.c) == (e.a, e.b, e.c) == (1, "y", [2])
    assert dataclasses.asdict(lazy(3)) == dataclasses.asdict(eager(3)) == {"a": 3, "b": "x", "c": []}
    # Read through an instance first: the same registration.
    _, fresh = _pair()
    assert [f.name for f in dataclasses.fields(fresh(1))] == ["a", "b", "c"]


def test_what_it_would_misread_is_refused() -> None:
    with pytest.raises(TypeError, match="ClassVar"):
        @fields_later
        class WithClassVar:
            a: "ClassVar[int]" = 1      # noqa: F821

    with pytest.raises(TypeError, match="dataclasses.field"):
        @fields_later
        class WithField:
            a: int = dataclasses.field(default=0)

    @dataclasses.dataclass
    class Base:
        a: int

    with pytest.raises(TypeError, match="dataclass base"):
        @fields_later
        class Derived(Base):
            b: int


def test_a_cold_verify_path_needs_no_dataclasses_for_decisions_and_avd_specs() -> None:
    code = ("import sys\n"
            "from pbem.game import Decision\n"
            "from pbem.games.avd import scenario\n"
            "from pbem.scenario import load_toml\n"
            f"scn = scenario.load(load_toml({str(REPO / 'scenarios' / 'avd' / 'practice.toml')!r}))\n"
            "Decision('a', 'k', 'p', ('x',)) == Decision('a', 'k', 'p', ('x',))\n"
            "print('dataclasses' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    assert out.stdout.strip() == "False"
