"""Relay: a three-seat test game for team secrets (no tests of its own;
tests/test_core_team.py drives it).  Test fixture only.

Seats ``north`` and ``south`` play for ``red``, ``blue`` alone.  Each round
north, then south, picks a token *for the team*: the pick is sealed to both
red seats (``order["team_secret"]``), kept in red's team part
(``state["hidden"]["team:red"]``), and two red seats may not pick the same
token in one round, which a red program checks live; blue sees only that a
pick was made.  Then blue strikes (a d6).  At the end the audit, knowing
everything, checks every round's picks again.
"""
from __future__ import annotations

from typing import Any

from pbem.game import BaseGame, BaseRules, Decision, Event, IllegalOrder, ScenarioError, SeatSpec, team_part

SEATS = (SeatSpec("north", "red"), SeatSpec("south", "red"), SeatSpec("blue", "blue"))
# Tokens of very different lengths: a sealed part's size must not tell which.
TOKENS = ("tu~9", "zircon-7f3a", "obsidian-quartz-obelisk-91c4-extra-long-token-name")
RED = team_part("red")


class RelayRules(BaseRules):
    def __init__(self, scenario: dict[str, Any], options: dict[str, Any]) -> None:
        try:
            self.rounds = int(scenario["relay"]["rounds"])
        except (KeyError, TypeError, ValueError):
            raise ScenarioError("relay scenario needs [relay] rounds") from None

    def initial_state(self) -> dict[str, Any]:
        return {"round": 1, "step": "north", "picked": [], "hits": 0, "log": [],
                "hidden": {"north": {"mine": []}, "south": {"mine": []}, "blue": {"mine": []},
                           RED: {"picks": {}, "rounds": []}}}

    def pending(self, st: dict[str, Any]) -> Decision | None:
        step = st["step"]
        if step == "over":
            return None
        if step in ("north", "south"):
            return Decision(step, "pick", f"{step}: pick a token for the team",
                            tuple(f"pick {t}" for t in self.free(st, step)) or tuple(f"pick {t}" for t in TOKENS))
        return Decision("blue", "strike", "blue: strike", ("strike",))

    def free(self, st: dict[str, Any], seat: str) -> list[str]:
        """The tokens ``seat`` may still pick: all but a team-mate's, where
        this program knows the team's picks."""
        team = st["hidden"].get(RED)
        taken = set() if team is None else {t for s, t in team["picks"].items() if s != seat}
        return [t for t in TOKENS if t not in taken]

    def apply(self, st: dict[str, Any], seat: str, order: dict[str, Any], rng: Any) -> tuple[dict[str, Any], list[Event]]:
        d = self.pending(st)
        if d is None or d.seat != seat:
            raise IllegalOrder(f"not {seat}'s decision")
        events: list[Event] = []
        if d.kind == "pick":
            if order.get("verb") != "pick" or set(order) - {"verb", "team_secret"}:
                raise IllegalOrder("pick TOKEN")
            team = st["hidden"].get(RED)
            secret = order.get("team_secret")
            if team is not None and secret is None:
                raise IllegalOrder("a pick carries its token sealed to the team")
            if secret is not None:
                token = secret.get("token") if isinstance(secret, dict) else None
                if token not in TOKENS:
                    raise IllegalOrder(f"no token {token!r}")
                if team is not None:
                    other = next((s for s, t in team["picks"].items() if t == token and s != seat), None)
                    if other is not None:
                        raise IllegalOrder(f"{token} is already {other}'s pick this round")
                    team["picks"][seat] = token
                mine = st["hidden"].get(seat)
                if mine is not None:
                    mine["mine"].append(token)
            st["picked"].append(seat)
            events.append(Event(f"{seat} picks a token for red"))
            st["step"] = "south" if seat == "north" else "blue"
        else:
            hit = rng.roll(6, f"round {st['round']}, blue d6")
            st["hits"] += hit
            events.append(Event(f"blue strikes for {hit}"))
            team = st["hidden"].get(RED)
            if team is not None:
                team["rounds"].append(dict(team["picks"]))
                team["picks"] = {}
            st["picked"] = []
            st["round"] += 1
            st["step"] = "over" if st["round"] > self.rounds else "north"
        return st, events

    def parse(self, text: str, st: dict[str, Any], seat: str) -> dict[str, Any]:
        words = text.split()
        if len(words) == 2 and words[0] == "pick":
            return {"verb": "pick", "team_secret": {"token": words[1]}}
        if words == ["strike"]:
            return {"verb": "strike"}
        raise IllegalOrder(f"cannot read {text!r}")

    def format(self, order: dict[str, Any]) -> str:
        return "pick (sealed to the team)" if order.get("verb") == "pick" else str(order.get("verb"))

    def standing_answer(self, st: dict[str, Any], d: Decision, policies: dict[str, Any]) -> dict[str, Any] | None:
        return None

    def private_answer(self, st: dict[str, Any], d: Decision) -> dict[str, Any]:
        raise IllegalOrder("relay has no private decisions")

    def query(self, st: dict[str, Any], seat: str, text: str) -> str:
        return f"hits {st['hits']}"

    def result(self, st: dict[str, Any]) -> str | None:
        return None if st["step"] != "over" else f"blue struck for {st['hits']}"


class RelayGame(BaseGame):
    id = "relay"
    title = "Relay (team-secret protocol test game)"
    sides = ("red", "blue")

    def check_scenario(self, data: dict[str, Any]) -> list[str]:
        return [] if "relay" in data else ["relay: the [relay] table is missing"]

    def policy_kinds(self) -> dict[str, str]:
        return {}

    def seats(self, options: dict[str, Any]) -> tuple[SeatSpec, ...]:
        return SEATS

    def rules(self, scenario: dict[str, Any], options: dict[str, Any]) -> RelayRules:
        return RelayRules(scenario, options)


GAME = RelayGame()
