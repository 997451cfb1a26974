"""Race: the smallest game pbem can play, installed as a plug-in.

The side to move rolls a d6 and adds it to its score; the first to reach
the scenario's ``[race] target`` wins.  Everything pbem needs from the
distribution is the ``pbem.games`` entry point naming :data:`GAME`; the
scenarios ship in :mod:`pbem_race.scenarios`.
"""
from __future__ import annotations

from typing import Any

from pbem.game import BaseGame, BaseRules, Decision, Event, IllegalOrder, ScenarioError, TextBlock, View

SIDES = ("red", "blue")


class RaceRules(BaseRules):
    def __init__(self, scenario: dict[str, Any], options: dict[str, Any]) -> None:
        try:
            self.target = int(scenario["race"]["target"])
        except (KeyError, TypeError, ValueError):
            raise ScenarioError("a race scenario needs [race] target") from None

    def initial_state(self) -> dict[str, Any]:
        return {"next": "red", "score": {s: 0 for s in SIDES}, "winner": "", "hidden": {s: {} for s in SIDES}}

    def pending(self, st: dict[str, Any]) -> Decision | None:
        if st["winner"]:
            return None
        return Decision(st["next"], "roll", f"{st['next']}: roll the die", ("roll",))

    def apply(self, st: dict[str, Any], side: str, order: dict[str, Any], rng: Any) -> tuple[dict[str, Any], list[Event]]:
        d = self.pending(st)
        if d is None or d.side != side or order.get("verb") != "roll":
            raise IllegalOrder("not your roll")
        roll = rng.roll(6, f"{side} roll")
        st["score"][side] += roll
        if st["score"][side] >= self.target:
            st["winner"] = side
        st["next"] = "blue" if side == "red" else "red"
        return st, [Event(f"{side} rolls {roll}: {st['score'][side]}")]

    def parse(self, text: str, st: dict[str, Any], side: str) -> dict[str, Any]:
        if text.split() == ["roll"]:
            return {"verb": "roll"}
        raise IllegalOrder(f"cannot read {text!r}: the only order is roll")

    def format(self, order: dict[str, Any]) -> str:
        return str(order.get("verb"))

    def standing_answer(self, st: dict[str, Any], decision: Decision, policies: dict[str, str]) -> None:
        return None

    def private_answer(self, st: dict[str, Any], decision: Decision) -> None:
        return None

    def query(self, st: dict[str, Any], side: str, text: str) -> str:
        raise IllegalOrder("race answers no questions")

    def result(self, st: dict[str, Any]) -> str | None:
        return f"{st['winner']} wins" if st["winner"] else None

    def sitrep(self, st: dict[str, Any], side: str | None) -> str:
        return f"Race to {self.target}: red {st['score']['red']}, blue {st['score']['blue']}"

    def view(self, st: dict[str, Any], seat: str | None) -> View:
        return View("Race", (TextBlock("score", (self.sitrep(st, seat),)),))


class RaceGame(BaseGame):
    id = "race"
    title = "Race (plug-in test game)"
    sides = SIDES
    scenario_package = "pbem_race.scenarios"
    demo_scenario = "race/short"

    def check_scenario(self, data: dict[str, Any]) -> list[str]:
        return [] if "race" in data else ["race: the [race] table is missing"]

    def policy_kinds(self) -> dict[str, str]:
        return {}

    def rules(self, scenario: dict[str, Any], options: dict[str, Any]) -> RaceRules:
        return RaceRules(scenario, options)


GAME = RaceGame()
