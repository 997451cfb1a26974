"""Before an order the rules flag (an automatic path that overruns an HQ,
after which the decision passes to the opponent), the player is told and
asked; a preview changes nothing (issue 9, item 9)."""
from __future__ import annotations

from typing import Any

import click
import pytest

import enginehelp as eh
from pbem import cycle, games
from pbem.game import Event
from pbem.scenario import load_toml


def test_a_preview_shows_what_an_order_would_do_and_changes_nothing() -> None:
    gf, sc, ids = eh.start("immediate")
    t = cycle.Turn(cycle.replay(gf, sc, ids["red"]), ids["red"])
    before = cycle.public_engine_state(t.es)
    events, how = t.preview(t.parse("pick 2"))
    assert [e.text for e in events] == ["red picks in secret"] and how == "handed"
    assert cycle.public_engine_state(t.es) == before and not t.orders and not t.done
    assert t.preview({"verb": "attack"}) == ([], "refused")


def test_12_1_an_overrun_is_flagged_for_the_warning() -> None:
    g = games.load("avd")
    rules = g.rules(load_toml("scenarios/avd/practice.toml"), g.validate_options({}))
    state = rules.initial_state()
    hq = next(u for u, x in state["units"].items() if rules.scn.units[u].kind == "hq" and x["where"] == "map")
    events: list[Event] = []
    rules._overrun(state, hq, state["units"][hq]["hex"], events)
    assert events and events[0].data.get("warn") == "overrun" and "12.1" in events[0].text


class _Turn:
    def __init__(self, events: list[Event], how: str) -> None:
        self.result = (events, how)

    def preview(self, order: Any) -> tuple[list[Event], str]:
        return self.result


@pytest.mark.parametrize("answer,held", [(False, True), (True, False)])
def test_the_player_is_asked_before_a_flagged_order(monkeypatch: pytest.MonkeyPatch, answer: bool, held: bool) -> None:
    from pbem.cli.play import _Prompt

    prompt = object.__new__(_Prompt)
    prompt.turn = _Turn([Event("13 Army HQ is overrun in 3516 and must relocate (12.1)", {"warn": "overrun"})],
                        "handed")
    said: list[str] = []
    prompt.echo = lambda text, **kw: said.append(text)      # type: ignore[method-assign]
    asked: list[str] = []
    monkeypatch.setattr(click, "confirm", lambda q, default=False: asked.append(q) or answer)
    assert prompt._warned({"verb": "move"}) is held
    assert asked and any("overrun in 3516" in s for s in said)
    assert any("passes to another player" in s for s in said)
    prompt.turn = _Turn([Event("7 Pz moves")], "open")
    asked.clear()
    assert prompt._warned({"verb": "move"}) is False and not asked
