"""Trio: a three-seat game of our own for the seat and side rules of the
engine.  Test fixture only.

Seats ``north`` and ``south`` play for the side ``red``; seat ``blue``
plays alone for ``blue`` and holds the role ``umpire``.  Each round:

1. ``north`` attacks (a d6 off blue's hit points);
2. ``south`` chooses to ``attack`` (a d6) or ``rest`` (heals red 1);
3. ``blue`` chooses which red seat to strike (``strike north`` / ``strike
   south``), a standing order (``target``) may answer it, and rolls a d6
   off red's hit points;
4. the umpire notes the round (``note``): a decision of the role, never
   rolled.

So a round has rolls of two seats of one side and one of the other, and
both ``north -> south`` (team-mates) and ``south -> blue`` hand-overs.
"""
from __future__ import annotations

from typing import Any

from pbem.game import BaseGame, BaseRules, Decision, Event, IllegalOrder, ScenarioError, SeatSpec

SEATS = (SeatSpec("north", "red"), SeatSpec("south", "red"), SeatSpec("blue", "blue", ("umpire",)))


class TrioRules(BaseRules):
    def __init__(self, scenario: dict[str, Any], options: dict[str, Any]) -> None:
        try:
            self.hp = int(scenario["trio"]["hp"])
            self.rounds = int(scenario["trio"]["rounds"])
        except (KeyError, TypeError, ValueError):
            raise ScenarioError("trio scenario needs [trio] hp and rounds") from None

    def initial_state(self) -> dict[str, Any]:
        return {"round": 1, "step": "north", "hp": {"red": self.hp, "blue": self.hp}, "notes": 0}

    def pending(self, st: dict[str, Any]) -> Decision | None:
        step = st["step"]
        if step == "over":
            return None
        if step == "north":
            return Decision("north", "attack", "north: attack", ("attack",))
        if step == "south":
            return Decision("south", "south", "south: attack or rest", ("attack", "rest"))
        if step == "blue":
            return Decision("blue", "strike", "blue: strike a red seat", ("strike north", "strike south"),
                            policy="target")
        return Decision("blue", "note", "umpire: note the round", ("note",))

    def apply(self, st: dict[str, Any], seat: str, order: dict[str, Any], rng: Any) -> tuple[dict[str, Any], list[Event]]:
        d = self.pending(st)
        if d is None or d.seat != seat:
            raise IllegalOrder(f"not {seat}'s decision")
        verb = order.get("verb")
        if verb not in {"attack": ("attack",), "south": ("attack", "rest"), "strike": ("strike",),
                        "note": ("note",)}[d.kind]:
            raise IllegalOrder(f"{seat} must decide {d.kind}, not {verb}")
        if verb == "strike" and order.get("target") not in ("north", "south"):
            raise IllegalOrder("strike north or strike south")
        events: list[Event] = []
        if verb in ("attack", "strike"):
            foe = "blue" if seat != "blue" else "red"
            hit = rng.roll(6, f"round {st['round']}, {seat} d6")
            st["hp"][foe] -= hit
            events.append(Event(f"{seat} hits {foe} for {hit}"))
        elif verb == "rest":
            st["hp"]["red"] += 1
            events.append(Event("south rests: red heals 1"))
        else:
            st["notes"] += 1
        st["step"] = {"north": "south", "south": "blue", "blue": "note", "note": "north"}[st["step"]]
        if st["step"] == "north":
            st["round"] += 1
        if min(st["hp"].values()) <= 0 or st["round"] > self.rounds:
            st["step"] = "over"
        return st, events

    def parse(self, text: str, st: dict[str, Any], seat: str) -> dict[str, Any]:
        words = text.split()
        if words in (["attack"], ["rest"], ["note"]):
            return {"verb": words[0]}
        if len(words) == 2 and words[0] == "strike":
            return {"verb": "strike", "target": words[1]}
        raise IllegalOrder(f"cannot read {text!r}")

    def format(self, order: dict[str, Any]) -> str:
        return " ".join(str(order[k]) for k in ("verb", "target") if k in order)

    def standing_answer(self, st: dict[str, Any], d: Decision, policies: dict[str, Any]) -> dict[str, Any] | None:
        target = policies.get("target")
        return {"verb": "strike", "target": target} if d.kind == "strike" and target in ("north", "south") else None

    def private_answer(self, st: dict[str, Any], d: Decision) -> dict[str, Any]:
        raise IllegalOrder("trio has no private decisions")

    def query(self, st: dict[str, Any], seat: str, text: str) -> str:
        return f"hp {st['hp']}"

    def result(self, st: dict[str, Any]) -> str | None:
        if st["step"] != "over":
            return None
        r, b = st["hp"]["red"], st["hp"]["blue"]
        return "draw" if r == b else ("red wins" if r > b else "blue wins")


class TrioGame(BaseGame):
    id = "trio"
    title = "Trio (three-seat protocol test game)"
    sides = ("red", "blue")

    def check_scenario(self, data: dict[str, Any]) -> list[str]:
        return [] if "trio" in data else ["trio: the [trio] table is missing"]

    def policy_kinds(self) -> dict[str, str]:
        return {"target": "north | south: blue strikes this seat"}

    def seats(self, options: dict[str, Any]) -> tuple[SeatSpec, ...]:
        return SEATS

    def rules(self, scenario: dict[str, Any], options: dict[str, Any]) -> TrioRules:
        return TrioRules(scenario, options)


GAME = TrioGame()
