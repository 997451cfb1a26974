"""Multiplayer A Victory Awaits games (AVA 19, 20) through the exchange
engine, for tests/test_ava_multi*.py: one generated player per seat (the
scripted demo player with its standing orders), each seat's program
verifying every exchange."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem import cycle
from pbem.protocol.gamefile import GameFile
from pbem.protocol.identity import generate
from pbem.scenario import load_toml

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = load_toml(ROOT / "scenarios" / "ava" / "practice-multi.toml")
LAYOUT = "ava/practice-multi"
SEATS = ("axis_north", "axis_south", "soviet_north", "soviet_south")
BYSTANDER = "bystander"


def options(mode: str) -> dict[str, Any]:
    return {"players": 4, "multiplayer": mode, "seat_layout": LAYOUT}


def table(mode: str, dice: str) -> tuple[GameFile, dict[str, Any]]:
    """A new four-seat game, every seat joined."""
    ids = {s: generate(s.replace("_", " ").title(), f"{s}@example.org") for s in SEATS}
    gf = cycle.new_game(game_id=f"ava-multi-{mode}-{dice}", game="ava", scenario_name=LAYOUT, scenario=SCENARIO,
                        options=options(mode), dice=dice, creator=ids[SEATS[0]], creator_side=SEATS[0],
                        invited={s: ids[s].public for s in SEATS[1:]})
    for seat in SEATS[1:]:
        m = cycle.replay(gf, SCENARIO, ids[seat])
        gf = GameFile(gf.exchanges + [cycle.join_exchange(m, ids[seat], seat)])
    return gf, ids


def play(mode: str, dice: str, *, limit: int = 6000, until_turn: int | None = None,
         check: Any = None) -> tuple[GameFile, dict[str, Any], dict[str, Any]]:
    """Play with the scripted player until the game ends (or Turn
    ``until_turn`` begins); every seat's program and a bystander's (no
    secrets) verify each exchange; ``check(matches, exchange)`` after each."""
    gf, ids = table(mode, dice)
    matches = {s: cycle.replay(gf, SCENARIO, ids[s]) for s in SEATS}
    matches[BYSTANDER] = cycle.replay(gf, SCENARIO)
    first = matches[SEATS[0]]
    configured: dict[str, set[str]] = {s: set() for s in SEATS}
    for _ in range(limit):
        seat = first.next_sender()
        if seat is None or (until_turn is not None and first.state["turn"] >= until_turn):
            break
        turn = cycle.Turn(matches[seat], ids[seat])
        rules: Any = turn.m.rules
        # Standing orders first; one may answer the decision at hand and end
        # the exchange, so the rest wait for the seat's next exchange.
        for name, value in rules.demo_policies(seat).items():
            if not turn.done and name not in configured[seat]:
                turn.push(f"policy {name} {value}")
                configured[seat].add(name)
        while not turn.done:
            turn.push(rules.demo_order(turn.es["game"], turn.pending()))
        ex = turn.finish()
        for s, m in matches.items():
            cycle.advance(m, ex, ids.get(s))
        if check is not None:
            check(matches, ex)
    else:
        raise AssertionError("the game did not end")
    return GameFile(list(first.exchanges)), ids, matches
