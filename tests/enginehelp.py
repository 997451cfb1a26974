"""Helpers for protocol tests: two generated players playing the duel test
game through the library (no CLI)."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

from pbem import cycle
from pbem.protocol import gamefile
from pbem.protocol.identity import generate
from pbem.scenario import load_toml

DATA = Path(__file__).parent / "data"
os.environ.setdefault("PBEM_GAME_MODULES", "duel=duelgame,trio=triogame,vault=vaultgame")


def duel_scenario() -> dict[str, Any]:
    return load_toml(DATA / "scenarios" / "duel" / "test.toml")


def players():
    return generate("Anna", "anna@example.org"), generate("Pavel", "pavel@example.org")


def start(dice: str = "sealed", scenario: dict[str, Any] | None = None, game_id: str = "g-test-duel"):
    scenario = scenario or duel_scenario()
    red, blue = players()
    gf = cycle.new_game(
        game_id=game_id, game="duel", scenario_name="duel/test", scenario=scenario,
        options={}, dice=dice, creator=red, creator_side="red", invited={"blue": blue.public},
    )
    m = cycle.replay(gf, scenario, blue)
    gf = gamefile.GameFile(gf.exchanges + [cycle.join_exchange(m, blue, "blue")])
    return gf, scenario, {"red": red, "blue": blue}


def first_option(d) -> str:
    return d.options[-1] if d.kind == "pick" else d.options[0]


def one_exchange(gf, scenario, ids, choose: Callable = first_option, before: Callable | None = None):
    """The side whose turn it is writes its exchange; returns the new file."""
    probe = cycle.replay(gf, scenario)
    side = probe.next_sender()
    me = ids[side]
    m = cycle.replay(gf, scenario, me)
    t = cycle.Turn(m, me)
    if before:
        before(t)
    while not t.done:
        t.push(choose(t.pending()))
    return gamefile.GameFile(gf.exchanges + [t.finish()])


def play_out(gf, scenario, ids, limit: int = 200, **kw):
    for _ in range(limit):
        if cycle.replay(gf, scenario).over():
            return gf
        gf = one_exchange(gf, scenario, ids, **kw)
    raise AssertionError("game did not end")


def disclose_all(gf, scenario, ids):
    """At game end every seat discloses, in the turn the audit gives."""
    from pbem.cycle import audit

    while True:
        m = cycle.replay(gf, scenario)
        due = audit.next_discloser(m)
        if due is None:
            return gf
        mine = cycle.replay(gf, scenario, ids[due])
        gf = gamefile.GameFile(gf.exchanges + [cycle.disclose_exchange(mine, ids[due])])
