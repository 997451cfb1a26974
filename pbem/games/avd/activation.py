"""Command (rule 7): which HQs and combat units a chit activates.

An HQ chit wakes its HQ, every friendly HQ within that HQ's Command Range
(one level only: those HQs do not wake further HQs), and every friendly
combat unit within the Command Range of any of them.  German Panzer Group
motorized units ignore HQs: each Panzer Corps wakes from one unit the German
picks and spreads to corps mates within 3 hexes, unit by unit.
"""
from __future__ import annotations

from typing import Any

from pbem.game import IllegalOrder
from pbem.games.avd.board import Board
from pbem.games.avd.model import GERMAN, UnitSpec

PANZER_GROUPS = ("2PzG", "3PzG")
PANZER_CHAIN = 3        # 7.4.2: hexes between chained corps units


def map_hex(board: Board, uid: str) -> str:
    """The hex of ``uid``, a unit the caller knows to be on the map (every
    unit ``board.units_of`` lists is)."""
    h = board.hex_of(uid)
    assert h is not None, f"{uid} is not on the map"
    return h


def is_panzer_motorized(board: Board, uid: str) -> bool:
    return _panzer_motorized(board.spec(uid))


def _panzer_motorized(s: UnitSpec) -> bool:
    """A German motorized combat unit of a Panzer Group, which an HQ chit
    does not activate (7.3.3)."""
    return s.side == GERMAN and s.kind == "combat" and s.motorized and s.formation in PANZER_GROUPS


def hq_activation(board: Board, hq_uid: str) -> tuple[set[str], set[str]]:
    """(active HQs, active combat units) when ``hq_uid`` is activated by a
    chit (7.2.2, 7.3.2, 7.3.3)."""
    if not board.is_hq(hq_uid):
        raise IllegalOrder(f"{board.name(hq_uid)} is not an HQ")
    if not board.on_map(hq_uid):
        raise IllegalOrder(f"{board.name(hq_uid)} is not on the map")
    side = board.side_of(hq_uid)
    # 7.3.4-7.3.6: Command Range is plain hex distance, and nothing blocks
    # it.  For each HQ of the side, with the chit HQ's hex and range
    # read once (it is on the map: checked above); the side's units read
    # hex by hex from the position's index, each found in the scenario's
    # sets of the side's HQs and of the combat units an HQ chit may wake
    # (units_of, map_hex and each unit's spec: speed only, a few thousand
    # units a game).  A unit the scenario lacks is in neither, as units_of
    # leaves it out.
    hq_ids, wakeable = _chit_units(board.scn.units, side)
    at0, cr0 = map_hex(board, hq_uid), board.spec(hq_uid).command_range
    distance = board.grid.distance
    hqs = {hq_uid}
    combat: list[tuple[str, str]] = []      # (unit, hex): the side's combat units an HQ chit may wake
    for h, uids in board.hexes_and_units():
        for u in uids:
            if u in wakeable:
                combat.append((u, h))
            elif u in hq_ids and distance(at0, h) <= cr0:
                hqs.add(u)
    # Command Range (7.3.4-7.3.6) of every HQ woken: the axial coordinates
    # of every hex within it, so that each unit's hex is one look-up
    # (speed only: a few thousand pairs a game).
    ax = board.grid.axial
    covered: set[tuple[int, int]] = set()
    for h in hqs:
        at = board.hex_of(h)
        if at is not None:
            covered.update(_disk(*ax(at), board.spec(h).command_range))
    units = {u for u, h in combat if ax(h) in covered}
    return hqs, units


_TABLES: dict[int, tuple[Any, dict[Any, Any]]] = {}


def _scenario_table(units: dict[str, UnitSpec]) -> dict[Any, Any]:
    """Lists of the scenario's units that the functions below work out
    once per scenario (its units never change; kept by the scenario's
    unit table itself, so a new scenario at the same id gets its own)."""
    kept = _TABLES.get(id(units))
    if kept is None or kept[0] is not units:
        if len(_TABLES) >= 8:
            _TABLES.clear()
        kept = _TABLES[id(units)] = (units, {})
    return kept[1]


def _chit_units(units: dict[str, UnitSpec], side: str) -> tuple[frozenset[str], frozenset[str]]:
    """(the HQs of ``side``, its combat units an HQ chit may wake: all but
    the Panzer Group motorized ones, 7.3.3)."""
    table = _scenario_table(units)
    found = table.get(("chit units", side))
    if found is None:
        found = table[("chit units", side)] = (
            frozenset(u for u, s in units.items() if s.side == side and s.kind == "hq"),
            frozenset(u for u, s in units.items() if s.side == side and s.kind == "combat"
                      and not _panzer_motorized(s)))
    return found  # type: ignore[no-any-return]


def _motorized_of(units: dict[str, UnitSpec], kind: str, name: str) -> list[tuple[str, str]]:
    """(unit, its corps) for every Panzer Group motorized unit (7.3.3) of
    the group (``kind`` "formation") or corps ("corps") ``name``, in
    counter-manifest order."""
    table = _scenario_table(units)
    found = table.get((kind, name))
    if found is None:
        found = table[(kind, name)] = [(u, s.corps) for u, s in units.items()
                                       if getattr(s, kind) == name and _panzer_motorized(s)]
    return found  # type: ignore[no-any-return]


_DISKS: dict[tuple[int, int, int], frozenset[tuple[int, int]]] = {}


def _disk(q: int, r: int, radius: int) -> frozenset[tuple[int, int]]:
    """The axial coordinates (on the grid or not) at hex distance at most
    ``radius`` from (q, r): the cube distance, the largest of the three
    coordinate differences, as HexGrid.distance works it out.  Kept (HQs
    seldom move)."""
    key = (q, r, radius)
    found = _DISKS.get(key)
    if found is None:
        if len(_DISKS) >= 256:
            _DISKS.clear()
        found = _DISKS[key] = frozenset((q + dq, r + dr) for dq in range(-radius, radius + 1)
                                        for dr in range(max(-radius, -dq - radius), min(radius, radius - dq) + 1))
    return found


def panzer_corps(board: Board, group: str) -> list[str]:
    """The Panzer Corps of ``group`` with motorized units on the map, in
    counter-manifest order."""
    # Where the units stand decides it: kept with the position (every chit
    # decision asks for each Panzer chit).
    key = ("panzer corps", group)
    found = board.cache.get(key)
    if found is None:
        found = board.cache[key] = _panzer_corps(board, group)
    return list(found)


def _panzer_corps(board: Board, group: str) -> list[str]:
    # (the group's motorized units with a corps listed once per scenario,
    # each asked only whether it is on the map: speed only)
    out: list[str] = []
    for uid, corps in _motorized_of(board.scn.units, "formation", group):
        if corps and board.on_map(uid) and corps not in out:
            out.append(corps)
    return out


def corps_members(board: Board, corps: str) -> list[str]:
    """Motorized units of ``corps`` on the map (kept with the position)."""
    key = ("corps members", corps)
    found = board.cache.get(key)
    if found is None:
        # (the corps' motorized units listed once per scenario: speed only)
        found = board.cache[key] = [uid for uid, _ in _motorized_of(board.scn.units, "corps", corps)
                                    if board.on_map(uid)]
    return list(found)


def panzer_chain(board: Board, corps: str, seed_uid: str) -> set[str]:
    """7.4.2: the seed and every corps mate chained to it by steps of at
    most 3 hexes."""
    members = corps_members(board, corps)
    if seed_uid not in members:
        raise IllegalOrder(f"{board.name(seed_uid)} is not a motorized unit of the {corps} Corps on the map")
    # (each member's hex read once, not once per pair: speed only)
    at = {m: map_hex(board, m) for m in members}
    distance = board.grid.distance
    active = {seed_uid}
    frontier = [seed_uid]
    while frontier:
        u = frontier.pop()
        for m in members:
            if m not in active and distance(at[u], at[m]) <= PANZER_CHAIN:
                active.add(m)
                frontier.append(m)
    return active


def panzer_group_activation(board: Board, group: str, seeds: dict[str, str]) -> set[str]:
    """Every unit a Panzer Group chit wakes, from one seed per corps (a
    corps without a seed stays idle)."""
    corps = panzer_corps(board, group)
    out: set[str] = set()
    for c, seed in seeds.items():
        if c not in corps:
            raise IllegalOrder(f"the {c} Corps is not part of {group} on the map")
        out |= panzer_chain(board, c, seed)
    return out
