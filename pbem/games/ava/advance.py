"""Advance after combat (AVA 10.7; FFS 10.7).

An attacker may advance only when the defender's hex has been vacated,
and its first hex is that hex.  Foot units and HQs go one hex; mechanized
units may go on to a second, limited by the profile's ``mech_advance``:

* ``first_hex`` (AVA 10.7): not after a first hex of city, major city,
  mountain, woods or marsh (the TEC's ``stops_advance``), nor after
  entering it across any river, bridged or not (notes A51); the second
  hex's terrain does not matter;
* ``both_clear`` (FFS 10.7.5): only when both hexes are clear and no
  river is crossed on either step.

Enemy ZOC is ignored; prohibited hexsides, off-map hexes and an
over-stacked end hex are not (10.7).  Options are worked out against the
board as it stands: ask again after each unit has advanced.
"""
from __future__ import annotations

from pbem.game import IllegalOrder
from pbem.games.ava.board import Board
from pbem.games.ava.combat import may_enter
from pbem.games.ava.model import Scenario
from pbem.games.ava.retreat import fits


def limits_advance(scn: Scenario, h: str) -> bool:
    """Whether ``h`` is terrain that ends a mechanized advance (TEC
    "Advance after combat": every row but plains says one hex)."""
    city = scn.map.city_of(h)
    if city and scn.terrain[city].stops_advance:
        return True
    return scn.terrain[scn.map.terrain_of(h)].stops_advance


def _river(b: Board, a: str, c: str, surprise: bool) -> bool:
    # 15.1 / notes A17: the Surprise Attack ignores every river effect
    return not surprise and b.map.river(a, c) is not None


def _may_go_on(b: Board, start: str, first: str, second: str | None, surprise: bool) -> bool:
    """The profile's test for a mechanized unit's second hex (``second``
    None: whether any second hex may follow the first)."""
    if limits_advance(b.scn, first) or _river(b, start, first, surprise):
        return False
    if b.profile.mech_advance == "first_hex" or second is None:
        return True
    return not limits_advance(b.scn, second) and not _river(b, first, second, surprise)


def options(b: Board, uid: str, vacated: str, *, surprise: bool = False) -> list[list[str]]:
    """Every advance ``uid`` may make into ``vacated`` and beyond (each path
    starts with ``vacated``); empty when it may not advance.  Staying put is
    always allowed and not listed."""
    start = b.unit(uid).get("hex")
    if not start or not b.map.grid.adjacent(start, vacated) or not may_enter(b, uid, start, vacated):
        return []
    out = [[vacated]] if fits(b, vacated, uid) else []
    if not b.spec(uid).mech or not _may_go_on(b, start, vacated, None, surprise):
        return out
    for n in b.map.neighbors(vacated):
        if n != start and may_enter(b, uid, vacated, n) and fits(b, n, uid) \
                and _may_go_on(b, start, vacated, n, surprise):
            out.append([vacated, n])
    return out


def check(b: Board, uid: str, vacated: str, path: list[str], *, surprise: bool = False) -> None:
    """IllegalOrder unless ``path`` is one of :func:`options`."""
    if path in options(b, uid, vacated, surprise=surprise):
        return
    name = b.spec(uid).name
    if not path or path[0] != vacated:
        raise IllegalOrder(f"{name}: an advance enters the vacated hex {vacated} first (10.7)")
    if len(path) > 1 and not b.spec(uid).mech:
        raise IllegalOrder(f"{name}: foot units and HQs advance one hex (10.7)")
    if len(path) > 2:
        raise IllegalOrder(f"{name}: an advance is at most two hexes (10.7)")
    raise IllegalOrder(f"{name} may not advance {'-'.join(path)} (10.7)")


__all__ = ["check", "limits_advance", "options"]
