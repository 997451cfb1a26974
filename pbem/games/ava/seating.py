"""Who sits where in a multiplayer *A Victory Awaits* game, and which seat
decides for a unit, an HQ, a chit or a hex (AVA 19.2, 20; notes A46, A49).

pbem plays 2 to 6 seats (``pbem.game.contract.MIN_SEATS``/``MAX_SEATS``):

* 2 seats: the standard game, one seat per side, named after it;
* 4, 5 or 6 seats with a Game Controller (19): the rows of the 19.2 table;
* 4, 5 or 6 seats without one (20, which replaces 19 whole and so has no
  role table of its own): pbem's splits below, made of 19.2's own player
  roles, every team of two or three players (A38: the only team sizes
  20.2 prices).

A scenario may give its own seats (``[seats.NAME]`` with ``side``,
``title``, ``hqs``, ``chits``, ``rows``/``cols``/``hexes``/``sectors``,
``roles``) and its own 19.2 table (``[multiplayer.roles]``, the rulebook's
wording); where it gives neither, the fact table here serves.

Sectors.  A seat commands one or more map sectors: in the campaign the
three maps (``leningrad``, ``smolensk``, ``kiev``; hex ids are
map-qualified, ``S:4112``, the prefix naming the map), in a one-map
scenario an area of rows, columns or listed hexes.  An Army Group is the
Axis name of a map: North = Leningrad, Center = Smolensk, South = Kiev.

Ownership (A46, A49 as ruled here):

* a chit or HQ named in a seat's roles belongs to that seat; any other HQ
  to the seat of its side commanding the sector it stands in (or started
  in), the first such seat in seat order where a sector is split;
* Manstein and Guderian belong to the seat holding 4PzG and 2PzG (A46);
* a unit belongs to the seat holding its formation's HQ, else to the seat
  commanding the sector it stands in;
* a side-wide command (Reinforcements, the Supply Check's choices, the
  Surprise Attack, OKH, the Reserve, the end-of-cup order) to the side's
  one commanding seat (A49): the scenario's ``[multiplayer.side_commands]``,
  else the side's first seat in seat order.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.board.multimap import map_of
from pbem.game import ScenarioError, SeatSpec
from pbem.game.contract import MAX_SEATS, MIN_SEATS
from pbem.games.ava.model import AXIS, SIDES, SOVIET, Scenario

State = dict[str, Any]

STANDARD, CONTROLLER, VARIANT = "standard", "controller", "variant"
MODES = (STANDARD, CONTROLLER, VARIANT)
CONTROLLER_ROLE = "controller"
SIDE_COMMANDS_ROLE = "side_commands"

MAPS = ("leningrad", "smolensk", "kiev")
ARMY_GROUP = {"north": "leningrad", "center": "smolensk", "south": "kiev"}
DEFAULT_PREFIXES = {"L": "leningrad", "S": "smolensk", "K": "kiev"}
COUNT_WORDS = {4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


@dataclass(frozen=True)
class Role:
    """One player of a 19.2 row: side, the map sectors he commands, the HQs
    the row names where a sector is split, and the Controller's star."""

    side: str
    sectors: tuple[str, ...]
    hqs: tuple[str, ...] = ()
    controller: bool = False


def _axis(group: str, *hqs: str, star: bool = False) -> Role:
    return Role(AXIS, (ARMY_GROUP[group],), tuple(hqs), star)


def _soviet(*maps: str, star: bool = False) -> Role:
    return Role(SOVIET, tuple(maps), (), star)


# FACT TABLE (AVA 19.2): the player roles for 4 to 8 players, P1 first; the
# numbers, sides, sectors, named HQs and the Controller's star are the
# rulebook's.  Only the seat names pbem derives from them are its own.
ROLES: dict[int, tuple[Role, ...]] = {
    4: (_axis("north"), _axis("center"), _axis("south"), _soviet(*MAPS, star=True)),
    5: (_axis("north"), _axis("center"), _axis("south"), _soviet("leningrad", "smolensk"),
        _soviet("kiev", star=True)),
    6: (_axis("north"), _axis("center", "3PzG", "9A"), _axis("center", "4A", "2PzG"), _axis("south"),
        _soviet("leningrad", "smolensk"), _soviet("kiev", star=True)),
    7: (_axis("north"), _axis("center", "3PzG", "9A"), _axis("center", "4A", "2PzG"), _axis("south"),
        _soviet("leningrad", star=True), _soviet("smolensk"), _soviet("kiev")),
    8: (_axis("north"), _axis("center", "3PzG", "9A"), _axis("center", "4A", "2PzG"),
        _axis("south", "6A", "1PzG", "17A"), _axis("south", "11A", "Rum", star=True),
        _soviet("leningrad"), _soviet("smolensk"), _soviet("kiev")),
}

# pbem's splits for the 20 variant (a ruling, not a fact): 19.2's roles
# regrouped into teams of two or three, the Soviet split of 19.2's five- and
# seven-player rows mirrored by the Axis where a team has two players.
VARIANT_ROLES: dict[int, tuple[Role, ...]] = {
    4: (Role(AXIS, ("leningrad", "smolensk")), _axis("south"), _soviet("leningrad", "smolensk"), _soviet("kiev")),
    5: (_axis("north"), _axis("center"), _axis("south"), _soviet("leningrad", "smolensk"), _soviet("kiev")),
    6: (_axis("north"), _axis("center"), _axis("south"), _soviet("leningrad"), _soviet("smolensk"),
        _soviet("kiev")),
}


@dataclass(frozen=True)
class Seat:
    """One seat as pbem plays it.  ``area``: rows, columns and hexes of a
    one-map scenario's sector (empty: the seat's ``sectors`` are maps)."""

    name: str
    side: str
    title: str = ""
    sectors: tuple[str, ...] = ()
    hqs: tuple[str, ...] = ()
    chits: tuple[str, ...] = ()
    controller: bool = False
    rows: tuple[int, int] | None = None
    cols: tuple[int, int] | None = None
    hexes: frozenset[str] = frozenset()

    @property
    def has_area(self) -> bool:
        return self.rows is not None or self.cols is not None or bool(self.hexes)


@dataclass(frozen=True)
class Seating:
    """The seats of one game in seat order, the map prefixes of
    map-qualified hex ids and the side-commanding seats (A49)."""

    mode: str
    seats: tuple[Seat, ...]
    side_commands: dict[str, str] = field(default_factory=dict)
    prefixes: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_PREFIXES))

    def seat(self, name: str) -> Seat:
        for s in self.seats:
            if s.name == name:
                return s
        raise KeyError(name)

    def names(self) -> list[str]:
        return [s.name for s in self.seats]


# ------------------------------------------------------------ building seats
def seat_name(role: Role) -> str:
    """pbem's name for a 19.2 player: ``ag_center_3pzg``, ``soviet_kiev``,
    ``soviet`` (all three maps)."""
    if role.side == AXIS:
        groups = [g for g, m in ARMY_GROUP.items() if m in role.sectors]
        return "_".join(["ag", *groups, *([role.hqs[0].lower()] if role.hqs else [])])
    if set(role.sectors) == set(MAPS):
        return SOVIET
    return "_".join([SOVIET, *role.sectors])


def role_title(role: Role) -> str:
    if role.side == AXIS:
        groups = " & ".join(f"Army Group {g.title()}" for g, m in ARMY_GROUP.items() if m in role.sectors)
        return f"Axis {groups}" + (f" ({', '.join(role.hqs)})" if role.hqs else "")
    if set(role.sectors) == set(MAPS):
        return "Soviet (all)"
    return "Soviet " + " & ".join(m.title() for m in role.sectors)


def _seat_of_role(role: Role, mode: str) -> Seat:
    return Seat(seat_name(role), role.side, role_title(role), role.sectors, role.hqs, (),
                role.controller and mode == CONTROLLER)


ROLE_RE = re.compile(r"^(Axis|Soviets?)\s*(.*?)(\*?)$")


def parse_role(text: str) -> Role:
    """One entry of a scenario's ``[multiplayer.roles]`` (the 19.2 wording:
    "Axis Army Group Center 3PzG, 9A", "Soviet Leningrad & Smolensk",
    "Soviets (all)*") as a :class:`Role`."""
    m = ROLE_RE.match(text.strip())
    if not m:
        raise ScenarioError(f"multiplayer.roles: cannot read {text!r} (Axis ... or Soviet ...)")
    side = AXIS if m.group(1) == "Axis" else SOVIET
    rest, star = m.group(2).strip(), bool(m.group(3))
    if side == SOVIET:
        if rest == "(all)":
            return Role(SOVIET, MAPS, (), star)
        maps = tuple(w.strip().lower() for w in rest.split("&"))
        if any(mp not in MAPS for mp in maps):
            raise ScenarioError(f"multiplayer.roles: {text!r} names a map other than {', '.join(MAPS)}")
        return Role(SOVIET, maps, (), star)
    g = re.match(r"^Army Group (North|Center|South)\s*(.*)$", rest)
    if not g:
        raise ScenarioError(f"multiplayer.roles: {text!r} names no Army Group North, Center or South")
    hqs = tuple(h.strip() for h in g.group(2).split(",") if h.strip())
    return Role(AXIS, (ARMY_GROUP[g.group(1).lower()],), hqs, star)


def roles_for(players: int, mode: str, data: Mapping[str, Any] | None = None) -> tuple[Role, ...]:
    """The roles of ``players`` players: 19.2 (the scenario's wording where
    it gives one, else the fact table) with a Controller; pbem's teams of
    two or three without one (20)."""
    if mode == VARIANT:
        if players not in VARIANT_ROLES:
            raise ScenarioError(f"the multiplayer variant (20) is played by 4 to 6 seats here, not {players}")
        return VARIANT_ROLES[players]
    given = ((data or {}).get("multiplayer") or {}).get("roles") or {}
    word = COUNT_WORDS.get(players)
    if word in given:
        return tuple(parse_role(t) for t in given[word])
    if players not in ROLES:
        raise ScenarioError(f"19.2 has player roles for 4 to 8 players, not {players}")
    return ROLES[players]


def layout(players: int, mode: str = CONTROLLER, data: Mapping[str, Any] | None = None) -> Seating:
    """The seats of a game of ``players`` seats in ``mode`` (``standard``,
    ``controller`` for 19, ``variant`` for 20), from the scenario data
    (``[seats.*]``, ``[multiplayer.roles]``, ``[map] prefixes``) where it
    has them.  ScenarioError with one line for a count pbem does not seat."""
    if mode not in MODES:
        raise ScenarioError(f"multiplayer mode {mode!r}: one of {', '.join(MODES)}")
    if not MIN_SEATS <= players <= MAX_SEATS:
        raise ScenarioError(f"pbem seats {MIN_SEATS} to {MAX_SEATS} players, not {players} "
                            "(19.2's seven- and eight-player rows are not playable here)")
    data = data or {}
    prefixes = _prefixes(data)
    if players == 2 or mode == STANDARD:
        if players != 2:
            raise ScenarioError(f"the standard game has 2 seats, not {players}")
        return Seating(STANDARD, (Seat(AXIS, AXIS, "Axis", MAPS), Seat(SOVIET, SOVIET, "Soviet", MAPS)),
                       {AXIS: AXIS, SOVIET: SOVIET}, prefixes)
    given = data.get("seats") or {}
    if given and len(given) != players:
        # A scenario's own seats are its layout whole: no other count falls back on 19.2's table.
        raise ScenarioError(f"the seat layout seats {len(given)} players ({', '.join(given)}), not {players}")
    if given:
        seats = tuple(_seat_from_data(name, t, mode) for name, t in given.items())
        commands = dict(((data.get("multiplayer") or {}).get("side_commands") or {}))
        return _checked(Seating(mode, seats, _side_commands(seats, commands), prefixes))
    return from_roles(roles_for(players, mode, data), mode, data)


def from_roles(roles: Sequence[Role], mode: str = CONTROLLER, data: Mapping[str, Any] | None = None) -> Seating:
    """Seats for a row of roles (any row of the fact table, the seven- and
    eight-player ones included: pbem cannot seat those, but their owners
    can be asked)."""
    data = data or {}
    seats = tuple(_seat_of_role(r, mode) for r in roles)
    commands = dict(((data.get("multiplayer") or {}).get("side_commands") or {}))
    return _checked(Seating(mode, seats, _side_commands(seats, commands), _prefixes(data)))


def _prefixes(data: Mapping[str, Any]) -> dict[str, str]:
    """Map prefix -> map name: the joined maps' own names
    (``[map.maps.S] name = "smolensk"``), else an older ``prefixes`` table
    (name -> prefix), else the three AVA maps."""
    m = data.get("map") or {}
    maps = m.get("maps")
    if isinstance(maps, dict) and maps:
        return {str(p): str(g.get("name", p)) if isinstance(g, dict) else str(p) for p, g in maps.items()}
    given = m.get("prefixes")
    if isinstance(given, dict) and given:
        return {str(p): str(name) for name, p in given.items()}
    return dict(DEFAULT_PREFIXES)


def _pair(v: Any) -> tuple[int, int] | None:
    if v is None:
        return None
    lo, hi = v
    return int(lo), int(hi)


def _seat_from_data(name: str, t: Mapping[str, Any], mode: str) -> Seat:
    roles = list(t.get("roles") or [])
    return Seat(name, str(t["side"]), str(t.get("title", "")), tuple(t.get("sectors") or ()),
                tuple(t.get("hqs") or ()), tuple(t.get("chits") or ()),
                CONTROLLER_ROLE in roles and mode == CONTROLLER,
                _pair(t.get("rows")), _pair(t.get("cols")), frozenset(t.get("hexes") or ()))


def _side_commands(seats: Sequence[Seat], given: Mapping[str, str]) -> dict[str, str]:
    out = {}
    for side in SIDES:
        mine = [s.name for s in seats if s.side == side]
        out[side] = str(given.get(side) or mine[0]) if mine else ""
    return out


def _checked(st: Seating) -> Seating:
    names = st.names()
    if len(set(names)) != len(names):
        raise ScenarioError("two seats share a name")
    for side in SIDES:
        if not any(s.side == side for s in st.seats):
            raise ScenarioError(f"no seat plays the {side} side")
        if st.side_commands[side] not in [s.name for s in st.seats if s.side == side]:
            raise ScenarioError(f"multiplayer.side_commands: {st.side_commands[side]!r} is not a {side} seat")
    if sum(s.controller for s in st.seats) > 1:
        raise ScenarioError("more than one seat is the Game Controller (19.3)")
    if st.mode == CONTROLLER and not any(s.controller for s in st.seats):
        raise ScenarioError("no seat is the Game Controller (19.2 marks one)")
    if st.mode == VARIANT:
        for side in SIDES:
            n = len(seats_of(st, side))
            if n not in (2, 3):
                raise ScenarioError(f"the multiplayer variant prices teams of 2 or 3 players (20.2, A38), "
                                    f"not a {side} team of {n}")
    return st


def specs(st: Seating) -> tuple[SeatSpec, ...]:
    """The seats as the core declares them: roles ``controller``,
    ``side_commands`` (A49), ``sector:NAME`` and ``hq:TAG``."""
    out = []
    for s in st.seats:
        roles = ([CONTROLLER_ROLE] if s.controller else []) \
            + ([SIDE_COMMANDS_ROLE] if st.side_commands.get(s.side) == s.name else []) \
            + [f"sector:{x}" for x in s.sectors] + [f"hq:{h}" for h in s.hqs]
        out.append(SeatSpec(s.name, s.side, tuple(roles)))
    return tuple(out)


# ------------------------------------------------------------ queries
def seats_of(st: Seating, side: str) -> list[str]:
    """The side's seats in seat order (20.2: the order its players draw)."""
    return [s.name for s in st.seats if s.side == side]


def controller(st: Seating) -> str | None:
    return next((s.name for s in st.seats if s.controller), None)


def side_seat(st: Seating, side: str) -> str:
    """A49: the seat deciding the side's side-wide commands."""
    return st.side_commands[side]


def sector_of(st: Seating, h: str) -> str | None:
    """The map of a map-qualified hex id (``S:4112`` -> smolensk), None for
    a one-map id."""
    prefix = map_of(h)
    return st.prefixes.get(prefix) if prefix else None


def _in_area(s: Seat, h: str) -> bool:
    if h in s.hexes:
        return True
    if s.rows is None and s.cols is None:
        return False
    digits = h.split(":", 1)[-1]
    if len(digits) != 4 or not digits.isdigit():
        return False
    col, row = int(digits[:2]), int(digits[2:])
    ok_r = s.rows is None or s.rows[0] <= row <= s.rows[1]
    ok_c = s.cols is None or s.cols[0] <= col <= s.cols[1]
    return ok_r and ok_c


def commands_hex(st: Seating, s: Seat, h: str) -> bool:
    if s.has_area:
        return _in_area(s, h)
    sector = sector_of(st, h)
    return sector is not None and sector in s.sectors


def owner_of_hex(st: Seating, side: str, h: str) -> str:
    """The ``side`` seat commanding the sector of hex ``h`` (A49): where a
    sector is split, the first such seat in seat order; a hex in no seat's
    sector goes to the side's commanding seat."""
    for s in st.seats:
        if s.side == side and commands_hex(st, s, h):
            return s.name
    return side_seat(st, side)


def tag_matches(scn: Scenario, tag: str, uid: str) -> bool:
    """Whether a role's HQ tag ("3PzG", "9A", "Rum", or a unit id) names the
    HQ ``uid``: its id, its id's last dash-part, or (``Rum``) its
    nationality."""
    spec = scn.units.get(uid)
    t = tag.lower()
    if t == uid.lower() or uid.lower().endswith("-" + t):
        return True
    return spec is not None and spec.is_hq and t in ("rum", "romanian") and spec.nationality == "rum"


def _unit_hex(scn: Scenario, state: State | None, uid: str) -> str | None:
    u = ((state or {}).get("units") or {}).get(uid) or {}
    h = u.get("hex")
    if h:
        return str(h)
    spec = scn.units.get(uid)
    if spec is not None and spec.start not in ("available", "") and not spec.start.startswith(("turn:", "zone:")):
        return spec.start
    return None


def hq_seat(st: Seating, scn: Scenario, state: State | None, hq: str) -> str:
    """The seat commanding HQ ``hq``: the seat whose roles name it, else the
    seat commanding its sector (where it stands, else where it starts),
    else the side's commanding seat."""
    spec = scn.units.get(hq)
    side = spec.side if spec is not None else _side_by_prefix(hq)
    for s in st.seats:
        if s.side == side and any(tag_matches(scn, t, hq) for t in s.hqs):
            return s.name
    h = _unit_hex(scn, state, hq)
    return owner_of_hex(st, side, h) if h else side_seat(st, side)


def _side_by_prefix(uid: str) -> str:
    return SOVIET if uid.upper().startswith("SU") else AXIS


def owner_of_chit(st: Seating, scn: Scenario, state: State | None, cid: str, *, side: str | None = None) -> str:
    """The seat that decides for chit ``cid`` under 19 (A46, A49): a chit a
    seat's roles list; an HQ's chit (Manstein, Guderian included) its HQ's
    seat; a side-wide chit the side's commanding seat.  The common Supply
    Check needs ``side``: each side decides its own part of it."""
    for s in st.seats:
        if cid in s.chits:
            return s.name
    c = scn.chits[cid]
    if c.side not in SIDES:
        if side is None:
            raise ValueError(f"{cid} is common to both sides: say which side decides")
        return side_seat(st, side)
    if c.hq:
        return hq_seat(st, scn, state, c.hq)
    return side_seat(st, c.side)


def owner_of_unit(st: Seating, scn: Scenario, state: State | None, uid: str) -> str:
    """The seat that decides for a unit when its side is not acting with it
    (step losses, retreats, placement): an HQ its own seat; another unit the
    seat of its formation's HQ where a seat's roles name it, else the seat
    commanding the sector it stands in (where it starts, off the map)."""
    spec = scn.units[uid]
    if spec.is_hq:
        return hq_seat(st, scn, state, uid)
    if spec.formation:
        for s in st.seats:
            if s.side == spec.side and any(tag_matches(scn, t, spec.formation) for t in s.hqs):
                return s.name
    h = _unit_hex(scn, state, uid)
    return owner_of_hex(st, spec.side, h) if h else side_seat(st, spec.side)


def owner_of(st: Seating, scn: Scenario, state: State | None, thing: str, *, side: str | None = None) -> str:
    """Which seat decides for ``thing``: a chit id, a unit id, or a hex (then
    ``side`` says whose seat)."""
    if thing in scn.chits:
        return owner_of_chit(st, scn, state, thing, side=side)
    if thing in scn.units:
        return owner_of_unit(st, scn, state, thing)
    if side is None:
        raise ValueError(f"{thing}: a hex has a seat on each side; say which side")
    return owner_of_hex(st, side, thing)


def interrupt_holders(st: Seating, scn: Scenario, state: State | None,
                      held: Sequence[str]) -> list[tuple[str, tuple[str, ...]]]:
    """The seats that may play the held interrupt chits (A46: Manstein with
    4PzG's seat, Guderian with 2PzG's), each with its chits, in seat order:
    the order their windows open after a reveal (19.5) or a draw (20.2)."""
    by_seat: dict[str, list[str]] = {}
    for cid in held:
        by_seat.setdefault(owner_of_chit(st, scn, state, cid), []).append(cid)
    return [(s, tuple(by_seat[s])) for s in st.names() if s in by_seat]
