"""Command (rule 7): which HQs and combat units a chit activates.

An HQ chit wakes its HQ, every friendly HQ within that HQ's Command Range
(one level only: those HQs do not wake further HQs), and every friendly
combat unit within the Command Range of any of them.  German Panzer Group
motorized units ignore HQs: each Panzer Corps wakes from one unit the German
picks and spreads to corps mates within 3 hexes, unit by unit.
"""
from __future__ import annotations

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
    # hex by hex from the position's index, each unit's spec once, instead
    # of asking each unit's hex (units_of and map_hex: speed only, a few
    # thousand units a game).  A unit the scenario lacks is no unit of the
    # side, as units_of leaves it out.
    specs = board.scn.units
    at0, cr0 = map_hex(board, hq_uid), board.spec(hq_uid).command_range
    distance = board.grid.distance
    hqs = {hq_uid}
    combat: list[tuple[str, str]] = []      # (unit, hex): the side's combat units an HQ chit may wake
    for h, uids in board.hexes_and_units():
        for u in uids:
            s = specs.get(u)
            if s is None or s.side != side:
                continue
            if s.kind == "hq":
                if distance(at0, h) <= cr0:
                    hqs.add(u)
            elif s.kind == "combat" and not _panzer_motorized(s):
                combat.append((u, h))
    # Command Range (7.3.4-7.3.6) of every HQ woken: its hex (as axial coordinates: the
    # hex distance is worked out inline, a few thousand pairs a game) and
    # Command Range read once.
    ax = board.grid.axial
    reach = [(*ax(at), board.spec(h).command_range) for h in hqs if (at := board.hex_of(h)) is not None]
    units = set()
    for u, h in combat:
        q, r = ax(h)
        for qa, ra, cr in reach:        # (any() without a generator per unit: speed only)
            if (abs(q - qa) + abs(r - ra) + abs(q - qa + r - ra)) >> 1 <= cr:
                units.add(u)
                break
    return hqs, units


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
    out: list[str] = []
    for uid, s in board.scn.units.items():
        if s.formation == group and s.corps and is_panzer_motorized(board, uid) \
                and board.on_map(uid) and s.corps not in out:
            out.append(s.corps)
    return out


def corps_members(board: Board, corps: str) -> list[str]:
    """Motorized units of ``corps`` on the map (kept with the position)."""
    key = ("corps members", corps)
    found = board.cache.get(key)
    if found is None:
        found = board.cache[key] = [uid for uid, s in board.scn.units.items()
                                    if s.corps == corps and is_panzer_motorized(board, uid) and board.on_map(uid)]
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
