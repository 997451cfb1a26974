"""The AVA retreat tests' boards, shared with the FFS retreat tests: the
rulebook's retreat example (10.6), a stand-in for the LOC, and a corridor of
blocked hexsides."""
from __future__ import annotations

from typing import Any

from pbem.games.ava.board import Board
from pbem.games.ava.profile import AVA, Profile
from tests import avahelp
from tests.avahelp import board

U = avahelp.unit


def towards(b: Board, source: str):
    """A stand-in for supply.loc: every hex traces, the LOC as long as the distance to ``source``."""
    return lambda h: b.map.distance(h, source)


# The rulebook's example (10.6): the 179th Rifle in 1523 after RR; 36th Mot in 1522, 21st and 217th
# Inf in 1423 and 1424 put 1524 and 1623 in enemy ZOC; 1624 (heavy woods) is free; 1625 is the hex
# with the shortest LOC.
EXAMPLE_UNITS = {"36mot": U("axis", "mech", 5, 5, 10), "21inf": U("axis", "foot", 3),
                 "217inf": U("axis", "foot", 3), "179r": U("soviet", "foot", 2, name="179th Rifle")}
EXAMPLE_PLACED = {"36mot": "1522", "21inf": "1423", "217inf": "1424", "179r": "1523"}


def example(profile: Profile = AVA, **kw: Any) -> Board:
    return board(EXAMPLE_UNITS, EXAMPLE_PLACED, profile=profile, terrain={"heavy_woods": ["1624"]}, **kw)


# 1510 opens only onto 1511, and 1511 only onto 1510 and 1512
CORRIDOR = ["1509|1510", "1410|1510", "1411|1510", "1510|1610", "1510|1611",
            "1411|1511", "1412|1511", "1511|1611", "1511|1612"]
