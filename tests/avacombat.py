"""The AVA combat tests' boards, shared with the FFS combat tests: one
attacker against one defender (``duel``) and the rulebook's combat example
(10.3-10.7), under either profile."""
from __future__ import annotations

from typing import Any

from pbem.games.ava import combat
from pbem.games.ava.board import Board
from pbem.games.ava.profile import AVA, Profile
from tests import avahelp
from tests.avahelp import board

U = avahelp.unit


def duel(att: int, dfn: int, *, profile: Profile = AVA, **kw: Any) -> combat.Odds:
    """One attacker of ``att`` in 1522 against one defender of ``dfn`` in 1523."""
    b = board({"a": U("axis", "foot", att), "d": U("soviet", "foot", dfn)}, {"a": "1522", "d": "1523"},
              profile=profile, active=("a",), **kw)
    return combat.odds(b, ["a"], "1523")


# The rulebook's combat example (10.3-10.7): 36th Mot 5 from 1522; 21st and 217th Inf 3 each across
# minor rivers from 1423 and 1424 against the 179th Rifle (2) in 1523; 1624 heavy woods.
EXAMPLE_UNITS = {"36mot": U("axis", "mech", 5, 5, 10, name="36th Mot"),
                 "21inf": U("axis", "foot", 3, name="21st Inf"), "217inf": U("axis", "foot", 3, name="217th Inf"),
                 "4pzg": U("axis", "hq", 2, name="4PzG"), "179r": U("soviet", "foot", 2, name="179th Rifle")}
EXAMPLE_PLACED = {"36mot": "1522", "21inf": "1423", "217inf": "1424", "179r": "1523"}
ATTACKERS = ["36mot", "21inf", "217inf"]


def example(profile: Profile = AVA, *, terrain: dict[str, list[str]] | None = None,
            placed: dict[str, str] | None = None) -> Board:
    return board(EXAMPLE_UNITS, placed or EXAMPLE_PLACED, profile=profile, active=tuple(ATTACKERS) + ("4pzg",),
                 terrain=terrain or {"heavy_woods": ["1624"]},
                 hexsides={"minor_river": ["1423|1523", "1424|1523"]})
