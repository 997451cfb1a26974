"""Terrain in *Victory Roads*: which of a hex's types counts (1.8), what a
step costs (6.1.4, 6.1.9, 6.6), and how a terrain row changes a tactical
result (7.9.2).

A hex's types are its drawn terrain plus its city class and its
fortification (:meth:`HexMap.types`).  Movement pays the dearest of them;
in combat the defender picks one (:mod:`pbem.board.terrain`), after the
weather has turned swamp into forest in Snow (3.2.3, the ``counts_as``
column of the TEC).
"""
from __future__ import annotations

from pbem.board import terrain as kernel
from pbem.games.vr.model import Scenario


def counts_as(scn: Scenario, weather: str) -> dict[str, str]:
    """The substitutions a weather makes (Snow: swamp -> forest)."""
    return {name: spec.counts_as[weather] for name, spec in scn.terrain.items() if weather in spec.counts_as}


def entry_cost(scn: Scenario, h: str, weather: str) -> int | None:
    """Half MP to enter ``h`` off-road: the dearest of its types (None: no
    entry)."""
    return kernel.entry_cost(scn.map.types(h), lambda t: scn.terrain[t].mp, counts_as(scn, weather))


def _types(scn: Scenario, h: str, drop: tuple[str, ...]) -> tuple[str, ...]:
    """``h``'s types less ``drop`` (a fortification that does not count in
    this battle, §13); never nothing."""
    out = tuple(t for t in scn.map.types(h) if t not in drop)
    return out or ("clear",)


def combat_choices(scn: Scenario, h: str, weather: str, drop: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The types the defender in ``h`` may pick for the combat modifiers
    (1.8.1), types with no entry (a sea part) left out."""
    types = _types(scn, h, drop)
    closed = [t for t in types if scn.terrain[t].mp is None]
    return kernel.defender_choices(types, counts_as(scn, weather), closed)


def combat_terrain(scn: Scenario, h: str, weather: str, chosen: str | None, drop: tuple[str, ...] = ()) -> str:
    """The defender's pick, checked; the only choice when there is one."""
    types = _types(scn, h, drop)
    closed = [t for t in types if scn.terrain[t].mp is None]
    return kernel.combat_terrain(types, chosen, counts_as(scn, weather), closed)


def best_defense(scn: Scenario, h: str, weather: str, drop: tuple[str, ...] = ()) -> str:
    """A standing answer: the type with the highest defense factor."""
    types = _types(scn, h, drop)
    closed = [t for t in types if scn.terrain[t].mp is None]

    def rank(t: str) -> int:
        n, d = scn.terrain[t].defense
        return (n * 1000) // d

    return kernel.best_for_defender(types, rank, counts_as(scn, weather), closed)


def modify(code: str, row: dict[str, str]) -> str:
    """A tactical result after one TEC row (codes the row omits are unchanged)."""
    return row.get(code, code)
