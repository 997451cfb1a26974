"""Shared helpers for the A Victory Denied sequence-of-play tests (no tests
here): the practice scenario, scripted and seeded fake random streams, and
a way to set a position up by hand."""
from __future__ import annotations

import random
import tomllib
from pathlib import Path
from typing import Any, Sequence

from pbem.games.avd import scenario
from pbem.games.avd.rules import AvdRules

ROOT = Path(__file__).resolve().parent.parent
PRACTICE = ROOT / "scenarios" / "avd" / "practice.toml"


def practice_scenario():
    with open(PRACTICE, "rb") as fh:
        return scenario.load(tomllib.load(fh))


def practice_rules(**options: Any) -> AvdRules:
    return AvdRules(practice_scenario(), options)


class AsChosen:
    """A side's secret stream as these tests fix it: the face-down chits
    stay under their handles in the order they were named (so a scripted
    draw from the cup meets the chits in that order)."""

    def shuffle(self, items: Sequence[Any], purpose: str) -> list[Any]:
        return list(items)

    def draw(self, items: Sequence[Any], purpose: str) -> int:
        return 0

    def roll(self, sides: int, purpose: str) -> int:
        raise AssertionError(f"unexpected secret roll: {purpose}")

    def secret(self, seat: str) -> AsChosen:
        return self


class SeededRng:
    """A deterministic stand-in for the shared stream (tests only)."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.log: list[tuple[str, int]] = []

    def roll(self, sides: int, purpose: str) -> int:
        v = self.r.randint(1, sides)
        self.log.append((purpose, v))
        return v

    def draw(self, items: Sequence[Any], purpose: str) -> int:
        v = self.r.randrange(len(items))
        self.log.append((purpose, v))
        return v

    def shuffle(self, items: Sequence[Any], purpose: str) -> list[Any]:
        out = list(items)
        self.r.shuffle(out)
        return out

    def secret(self, seat: str) -> AsChosen:
        return AsChosen()


class ScriptRng:
    """Rolls and draws given in advance; a draw may name the item wanted."""

    def __init__(self, rolls: Sequence[int] = (), draws: Sequence[Any] = ()) -> None:
        self.rolls = list(rolls)
        self.draws = list(draws)
        self.log: list[str] = []

    def roll(self, sides: int, purpose: str) -> int:
        self.log.append(purpose)
        if not self.rolls:
            raise AssertionError(f"unexpected roll: {purpose}")
        return self.rolls.pop(0)

    def draw(self, items: Sequence[Any], purpose: str) -> int:
        self.log.append(purpose)
        if not self.draws:
            return 0
        want = self.draws.pop(0)
        if isinstance(want, int) and not isinstance(want, bool) and want not in items:
            return want
        return list(items).index(want)

    def shuffle(self, items: Sequence[Any], purpose: str) -> list[Any]:
        return list(items)

    def secret(self, seat: str) -> AsChosen:
        return AsChosen()


def chits_order(rules: AvdRules, state, side: str, text: str) -> dict[str, Any]:
    """A chit selection as the side's own program makes it (the chits in
    its secret part, how many are sealed in its public part)."""
    return rules.fill_secrets(state, side, rules.parse(text, state, side), lambda: b"")


def with_openings(rules: AvdRules, state, seat: str, order: dict[str, Any]) -> dict[str, Any]:
    """An order that shows hidden items (``open``) as the core hands it to
    every program: with the opening of each handle from ``seat``'s hidden
    items (the root and its proof are the core's business, tested there)."""
    if not order.get("open"):
        return order
    items = rules.hidden_items(state, seat)
    return dict(order, openings=[{"handle": h, "value": items[h]} for h in order["open"]])


def select_both(rules: AvdRules, state, german: str, soviet: str, rng=None):
    """Both chit selections; returns the state after them."""
    rng = rng or ScriptRng()
    state, _ = rules.apply(state, "german", chits_order(rules, state, "german", german), rng)
    state, _ = rules.apply(state, "soviet", chits_order(rules, state, "soviet", soviet), rng)
    return state


def clear_map(state, keep: Sequence[str] = ()) -> None:
    """Take every unit but ``keep`` off the map (a clean board to test on)."""
    for uid, u in state["units"].items():
        if uid not in keep and u["where"] == "map":
            u["where"], u["hex"] = "removed", None


def put(state, uid: str, hex_: str, active: bool = False) -> None:
    u = state["units"][uid]
    u["where"], u["hex"], u["active"], u["moved"], u["attacked"] = "map", hex_, active, False, False


def frame(kind: str, **kw: Any) -> dict[str, Any]:
    return {"k": kind, **kw}


def answer_all(rules: AvdRules, state, rng, policies: dict[str, Any] | None = None, limit: int = 500,
               stop=None):
    """Answer decisions with standing orders, private answers or the first
    option until ``stop(decision)`` is true or the game ends."""
    for _ in range(limit):
        d = rules.pending(state)
        if d is None or (stop and stop(d)):
            return state, d
        if d.private:
            o = with_openings(rules, state, d.side, rules.private_answer(state, d))
        else:
            o = rules.standing_answer(state, d, policies or {})
            if o is None:
                first = next((x for x in d.options if "UNIT" not in x and "HQ HEX" not in x), "pass")
                o = rules.parse(first, state, d.side)
                o = rules.fill_secrets(state, d.side, o, lambda: b"")
        state, _ = rules.apply(state, d.side, o, rng)
    raise AssertionError("too many decisions")
