"""A Decision whose options are listed on first read (Decision.lazy): the
same tuple to every reader as a Decision given them, listed once, and with
``contract.CHECK_LAZY`` set refused once the state it was asked of has
changed (a list worked out from a later state would be silently wrong)."""
from __future__ import annotations

import dataclasses

import pytest

from pbem.game import Decision
from pbem.game import contract


def _counted(state: dict, calls: list[int]):
    def options() -> list[str]:
        calls.append(1)
        return [f"take {x}" for x in state["left"]]
    return options


def test_a_decision_given_its_options_is_unchanged():
    d = Decision("red", "take", "take one", ("take 1", "take 2"), hint="h", plannable=True)
    assert d.options == ("take 1", "take 2") and Decision("red", "k", "p").options == ()
    assert d == Decision("red", "take", "take one", ("take 1", "take 2"), hint="h", plannable=True)
    assert repr(d) == ("Decision(seat='red', kind='take', prompt='take one', options=('take 1', 'take 2'), "
                       "private=False, policy=None, hint='h', forced=False, plannable=True)")
    assert dataclasses.replace(d, options=("take 3",)).options == ("take 3",)
    assert [f.default for f in dataclasses.fields(Decision) if f.name == "options"] == [()]
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.options = ()   # type: ignore[misc]


def test_a_lazy_decision_lists_once_on_first_read():
    state, calls = {"left": [1, 2]}, []
    d = Decision.lazy("red", "take", "take one", _counted(state, calls), state, policy="p")
    assert calls == []
    assert d.options == ("take 1", "take 2") and isinstance(d.options, tuple)
    assert calls == [1]
    assert not d.forced and d.policy == "p"


def test_a_lazy_decision_equals_reprs_and_replaces_as_a_given_one():
    state, calls = {"left": [1]}, []
    given = Decision("red", "take", "take one", ("take 1",))
    assert Decision.lazy("red", "take", "take one", _counted(state, calls), state) == given
    assert repr(Decision.lazy("red", "take", "take one", _counted(state, calls), state)) == repr(given)
    assert hash(Decision.lazy("red", "take", "take one", _counted(state, calls), state)) == hash(given)
    moved = dataclasses.replace(Decision.lazy("red", "take", "take one", _counted(state, calls), state), seat="blue")
    assert moved == dataclasses.replace(given, seat="blue")
    with pytest.raises(dataclasses.FrozenInstanceError):
        Decision.lazy("red", "take", "take one", _counted(state, calls), state).options = ()   # type: ignore[misc]


def test_a_list_that_fails_fails_again_when_read_again():
    def broken() -> list[str]:
        raise ValueError("no list")
    d = Decision.lazy("red", "take", "take one", broken, {})
    for _ in range(2):
        with pytest.raises(ValueError, match="no list"):
            d.options


def test_the_check_refuses_a_list_read_after_its_state_changed(monkeypatch):
    monkeypatch.setattr(contract, "CHECK_LAZY", True)
    state, calls = {"left": [1, 2]}, []
    early = Decision.lazy("red", "take", "take one", _counted(state, calls), state)
    late = Decision.lazy("red", "take", "take one", _counted(state, calls), state)
    assert early.options == ("take 1", "take 2")
    state["left"].pop()
    with pytest.raises(AssertionError, match="take decision were read after its state changed"):
        late.options
    assert early.options == ("take 1", "take 2") and calls == [1]
