"""Reinforcements and the boxes around the map (AVA 11.2, 12, 15.3, 15.4,
17.3, 18.2, 5.0(5); FFS 11.2, 12, 15.3, 15.4, 16.3).

Pure checks over a :class:`Board`, and small writers the sequence of play calls
once a check has passed.  Where a unit is, in the state: ``hex`` on the map,
else ``box``: ``available`` (the side's Available Box), ``eliminated``,
``withdrawn`` (AVA 18.2), ``track:N`` (on the turn track, entering on Turn
N: the 19th Army, transferred HQs, AVA 18.1's 3PzG units).  A unit with
``"extra": True`` in the Available Box came there from the track and
enters outside the turn's count (17.3, 18.1; notes A31).

Where eliminated units go is :func:`pbem.games.ava.combat.eliminated_to`.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from pbem.game import IllegalOrder
from pbem.games.ava import movement
from pbem.games.ava.board import Board
from pbem.games.ava.model import AXIS, SIDE_NAME, SOVIET, Scenario

State = dict[str, Any]
NATIONALITIES = {AXIS: ("ger", "rum"), SOVIET: ("sov",)}
NAT_NAME = {"ger": "German", "rum": "Romanian", "sov": "Soviet"}


# ------------------------------------------------------------ the count (12.2)
def due(scn: Scenario, side: str, turn: int) -> dict[str, int]:
    """Units due at the side's Reinforcements chit, by nationality (the
    track's GER/RUM/SU); none before the reinforcements begin (12.0)."""
    out = {}
    for nat in NATIONALITIES[side]:
        per_turn = scn.track.reinforcements.get(nat, ())
        n = int(per_turn[turn - 1]) if turn >= scn.params.reinforcements_from_turn and turn <= len(per_turn) else 0
        out[nat] = n
    return out


def _box(b: Board, uid: str) -> str:
    return str(b.unit(uid).get("box") or "")


def _track_turn(box: str) -> int | None:
    return int(box[6:]) if box.startswith("track:") and box[6:].isdigit() else None


def extras(b: Board, side: str, turn: int) -> list[str]:
    """Units that enter with this side's Reinforcements outside the count:
    transferred HQs and scheduled transfers on the track (17.3, 18.1), and
    Axis ones the End Phase moved to the Available Box (5.0(5))."""
    out = []
    for uid, spec in sorted(b.scn.units.items()):
        if spec.side != side or "19A" in spec.flags or b.unit(uid).get("hex"):
            continue
        box = _box(b, uid)
        t = _track_turn(box)
        if (t is not None and t <= turn) or (box == "available" and b.unit(uid).get("extra")):
            out.append(uid)
    return out


def pool(b: Board, side: str) -> list[str]:
    """Units in the side's Available Box that count against the number."""
    return [uid for uid, spec in sorted(b.scn.units.items())
            if spec.side == side and _box(b, uid) == "available" and not b.unit(uid).get("hex")
            and not b.unit(uid).get("extra")]


def check_placement(b: Board, side: str, turn: int, placements: Mapping[str, str], rail_hexes: Collection[str]) -> None:
    """A Reinforcements order: ``placements`` unit -> hex.  Units from the
    Available Box (or the extras), at most the number due per nationality
    (a shortfall is lost, 12.2), each on a hex of ``rail_hexes``
    (``supply.rail_entry_hexes``: rail back to a source, clear of enemy
    ZOC), never on an enemy unit, two units a hex at most with those there."""
    counted = set(pool(b, side))
    extra = set(extras(b, side, turn))
    n = due(b.scn, side, turn)
    used = {nat: 0 for nat in n}
    added: dict[str, int] = {}
    for uid, h in placements.items():
        spec = b.scn.units.get(uid)
        name = spec.name if spec else uid
        if spec is None or (uid not in counted and uid not in extra):
            raise IllegalOrder(f"{name} is not in the {SIDE_NAME[side]} Available Box")
        if uid in counted:
            used[spec.nationality] = used.get(spec.nationality, 0) + 1
            if used[spec.nationality] > n.get(spec.nationality, 0):
                raise IllegalOrder(f"{n.get(spec.nationality, 0)} {NAT_NAME[spec.nationality]} reinforcement(s) "
                                   f"due on Turn {turn}, {used[spec.nationality]} placed")
        _check_hex(b, side, name, h, rail_hexes, added)


def _check_hex(b: Board, side: str, name: str, h: str, rail_hexes: Collection[str], added: dict[str, int]) -> None:
    if h not in rail_hexes:
        raise IllegalOrder(f"{name}: {h} is not a railroad hex linked by rail to a supply source clear of "
                           "enemy ZOC (12.1)")
    if b.in_enemy_zoc(h, side):
        raise IllegalOrder(f"{name}: {h} is in an enemy zone of control (12.1)")
    _check_room(b, side, name, h, added)


def _check_room(b: Board, side: str, name: str, h: str, added: dict[str, int]) -> None:
    other = b.side_at(h)
    if other is not None and other != side:
        raise IllegalOrder(f"{name}: {h} holds enemy units")
    added[h] = added.get(h, 0) + 1
    if len(b.units_at(h)) + added[h] > movement.STACK_LIMIT:
        raise IllegalOrder(f"{name}: {h} would hold more than {movement.STACK_LIMIT} units (3.1)")


def place(state: State, placements: Mapping[str, str]) -> None:
    """Write checked placements: on the map at the strength they had (FFS
    12.1.3), the extra tag dropped."""
    for uid, h in placements.items():
        u = state["units"][uid]
        u.update(hex=h, box=None)
        u.pop("extra", None)


def to_box(state: State, uids: Sequence[str], box: str) -> None:
    """Off the map into ``box`` ("available", "withdrawn", "track:N")."""
    for uid in uids:
        state["units"][uid].update(hex=None, box=box)


# ------------------------------------------------- entry from a map edge
def entry_cost(b: Board, uid: str, h: str, mode: str) -> int | None:
    """Half MP to enter ``h`` from off the map (19A, Strategic Reserve; notes
    A25, FFS #50): the movement module's price of an entry hex (its road when it has one,
    1 MP, 1/2 MP strategic; else its terrain, normal movement only; +2 MP
    into enemy ZOC, which strategic movement may not enter).  None: not
    allowed."""
    return movement.mover(b, uid, mode, entering=True).entry(h)[0]


def check_entry(b: Board, uid: str, path: Sequence[str], mode: str, sources: Collection[str]) -> int:
    """One unit entering the map at ``path[0]`` (one of ``sources``) and
    moving on along ``path``; returns the half MP spent.  The move is
    ``movement.check_move(entering=True)``: the entry hex paid first, and
    the move never began in a hex of the map, so no unbridged major-river
    crossing in it (AVA 9.2, FFS 9.2.1(1) #21).  The end hex's stacking is
    checked here whatever the profile: nothing later checks an entry."""
    name = b.spec(uid).name
    if not path or path[0] not in sources:
        raise IllegalOrder(f"{name} enters at one of {', '.join(sorted(sources))}, not {path[0] if path else 'nowhere'}")
    spent = movement.check_move(b, uid, list(path), mode, entering=True)
    end = path[-1]
    _check_room(b, b.spec(uid).side, name, end, {end: 0})
    return spent


# ------------------------------------------------- Strategic Reserve (15.4)
def strategic_reserve_size(scn: Scenario, turn: int) -> int:
    """Units the Soviet may add at his Reinforcements chit (AVA 15.4: 12, the
    Smolensk scenario 6; FFS 15.4: 12), from the scenario's first SR turn."""
    p = scn.params
    return p.strategic_reserve if p.strategic_reserve and turn >= p.strategic_reserve_from_turn else 0


def from_moscow(scn: Scenario) -> frozenset[str]:
    return scn.map.source_tags.get("from_moscow", frozenset())


def check_strategic_reserve(b: Board, turn: int, entries: Mapping[str, tuple[str, Sequence[str]]],
                            placed: Collection[str] = ()) -> None:
    """Strategic Reserve units: ``entries`` unit -> (mode, path from a From
    Moscow source).  Up to the turn's SR size, chosen freely from the
    Soviet Available Box beside the units ``placed`` as regular
    reinforcements.  Entries are checked one after another on ``b`` as
    given; the caller applies them in the same order."""
    size = strategic_reserve_size(b.scn, turn)
    if len(entries) > size:
        raise IllegalOrder(f"up to {size} Strategic Reserve unit(s) on Turn {turn}, not {len(entries)} (15.4)")
    avail = set(pool(b, SOVIET))
    for uid, (mode, path) in entries.items():
        name = b.spec(uid).name if uid in b.scn.units else uid
        if uid not in avail or uid in placed:
            raise IllegalOrder(f"{name} is not in the Soviet Available Box")
        check_entry(b, uid, path, mode, from_moscow(b.scn))


# ------------------------------------------------- 19th Army (15.3)
def army19_group(b: Board) -> list[str]:
    """The 19th Army still waiting on the track (data: units flagged 19A;
    AVA 11, FFS 10)."""
    return [uid for uid, spec in sorted(b.scn.units.items())
            if "19A" in spec.flags and _track_turn(_box(b, uid)) is not None]


def army19_sources(scn: Scenario) -> frozenset[str]:
    """Soviet supply sources on the eastern map edge (15.3)."""
    soviet = scn.map.supply.get(SOVIET, frozenset())
    east = scn.map.source_tags.get("east_edge")
    return soviet & east if east is not None else soviet


def check_army19(b: Board, turn: int, entries: Mapping[str, tuple[str, Sequence[str]]]) -> str:
    """The 19th Army's entry when its chit is drawn (AVA 15.3 on Turn 3;
    notes A24 and FFS 15.3(1): a later draw will do): the whole waiting
    group, every unit through the same eastern-edge source of the Soviet's
    choice, normal or strategic movement.  Returns the source hex."""
    if not b.scn.params.army19_turn or turn < b.scn.params.army19_turn:
        raise IllegalOrder(f"the 19th Army enters from Turn {b.scn.params.army19_turn or '-'} (15.3)")
    group = army19_group(b)
    if sorted(entries) != group:
        missing = sorted(set(group) - set(entries))
        extra = sorted(set(entries) - set(group))
        raise IllegalOrder("the whole 19th Army enters together (15.3): "
                           + (f"missing {', '.join(missing)}" if missing else f"not of it: {', '.join(extra)}"))
    starts = {path[0] for _, path in entries.values() if path}
    if len(starts) != 1:
        raise IllegalOrder("the 19th Army enters through one supply source hex (15.3)")
    source = starts.pop()
    for uid, (mode, path) in entries.items():
        check_entry(b, uid, path, mode, army19_sources(b.scn))
    return source


# ------------------------------------------------- Supply Check actions
def check_to_available(b: Board, uids: Sequence[str], has_loc: Callable[[str], bool]) -> None:
    """Axis units sent to the Axis Available Box at a Supply Check (AVA 11.2:
    any unit that traces an LOC; FFS 11.2.1: and not in enemy ZOC).
    ``has_loc(uid)`` is ``supply.has_loc`` bound to the board."""
    for uid in uids:
        spec = b.scn.units.get(uid)
        if spec is None or spec.side != AXIS or not b.unit(uid).get("hex"):
            raise IllegalOrder(f"{uid} is not an Axis unit on the map")
        if not has_loc(uid):
            raise IllegalOrder(f"{spec.name} traces no LOC, so it cannot go to the Available Box (11.2)")
        if b.profile.axis_available_needs_no_ezoc and b.in_enemy_zoc(b.unit(uid)["hex"], AXIS):
            raise IllegalOrder(f"{spec.name} is in an enemy zone of control (11.2.1)")


def withdrawal_due(b: Board, turn: int) -> int:
    """Attack strength the Axis must withdraw at this Supply Check (AVA
    18.2, FFS 15.3(2): mech units, at least 18, full or reduced), capped by
    what his mech units on the map have (he withdraws them all then)."""
    p = b.scn.params
    if not p.withdrawal_turn or turn != p.withdrawal_turn:
        return 0
    have = sum(b.attack(u) for u in b.on_map(AXIS) if b.spec(u).mech)
    return min(p.withdrawal_strength, have)


def check_withdrawal(b: Board, turn: int, uids: Sequence[str]) -> int:
    """The Turn 6 withdrawal: Axis mech units on the map totalling at least
    the due attack strength (current values).  Returns the total."""
    need = withdrawal_due(b, turn)
    if len(set(uids)) != len(uids):
        raise IllegalOrder("a unit was named twice")
    for uid in uids:
        spec = b.scn.units.get(uid)
        if spec is None or spec.side != AXIS or not spec.mech or not b.unit(uid).get("hex"):
            raise IllegalOrder(f"{uid} is not an Axis mechanized unit on the map")
    total = sum(b.attack(u) for u in uids)
    if not need and uids:
        raise IllegalOrder(f"no withdrawal is due on Turn {turn}")
    if total < need:
        raise IllegalOrder(f"withdraw mechanized units of at least {need} attack strength, not {total} (18.2)")
    return total


def check_hq_transfer(b: Board, uid: str, has_loc: bool, *, in_range: bool = True, activated: str = "") -> str:
    """Optional HQ transfer to the next turn's space of the track; returns
    that box.  AVA 17.3: another HQ within command range of the HQ just
    activated (``in_range``, from :mod:`activation`), with an LOC.  FFS 16.3:
    any HQ with an LOC, not in enemy ZOC (taken at the owner's Supply
    Check, notes #60)."""
    spec = b.scn.units.get(uid)
    if spec is None or not spec.is_hq or not b.unit(uid).get("hex"):
        raise IllegalOrder(f"{uid} is not an HQ on the map")
    if not has_loc:
        raise IllegalOrder(f"{spec.name} traces no LOC, so it cannot transfer (17.3)")
    if b.profile.hq_transfer == "in_range":
        if uid == activated or not in_range:
            raise IllegalOrder(f"{spec.name} is not another HQ in command range of the activated HQ (17.3)")
    elif b.in_enemy_zoc(b.unit(uid)["hex"], spec.side):
        raise IllegalOrder(f"{spec.name} is in an enemy zone of control (16.3)")
    return f"track:{b.state['turn'] + 1}"


# ------------------------------------------------- End Phase (5.0(5))
def end_phase(scn: Scenario, state: State, new_turn: int) -> list[str]:
    """The turn marker enters ``new_turn``: Axis units in that space go to
    the Axis Available Box, tagged to enter outside the count (A31).
    Returns them.  Soviet units on the track wait for their chit (19A) or
    their Reinforcements (17.3)."""
    moved = []
    for uid, spec in sorted(scn.units.items()):
        u = state["units"][uid]
        if spec.side == AXIS and not u.get("hex") and _track_turn(str(u.get("box") or "")) == new_turn:
            u.update(box="available", extra=True)
            moved.append(uid)
    return moved
