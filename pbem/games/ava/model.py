"""The components of a *Fierce Fight!* game as data: map, terrain chart,
CRT, counters, chits, turn track and scenario parameters.

Everything here is read from a scenario file (``scenarios/ava/*.toml``,
``scenarios/ffs/*.toml``) by :mod:`pbem.games.ava.scenario`; nothing is
hard-coded.  The objects are frozen: one :class:`Scenario` serves every
state of a game.

Units of measure
    Movement points are counted in **half MP** (``2`` = 1 MP) so that
    strategic movement (half an MP per road hex) stays in integers; the
    state has no floats.  Strengths are whole numbers as printed; halving
    is the combat module's business (the two rulebooks round differently).

Sides and nationalities
    The sides are ``axis`` and ``soviet``.  A unit's nationality (``ger``,
    ``rum``, ``sov``) matters for activation (AVA 8.3): an Axis HQ activates
    only its own nationality.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.board.hexgrid import HexGrid, side_key
from pbem.board.multimap import MultiMap

AXIS, SOVIET = "axis", "soviet"
SIDES = (AXIS, SOVIET)
SIDE_NAME = {AXIS: "Axis", SOVIET: "Soviet"}

TERRAINS = ("plains", "light_woods", "heavy_woods", "marsh", "lake", "mountain")
CITY_KINDS = ("city", "major_city")
HEXSIDE_FEATURES = ("minor_river", "major_river", "prohibited", "start_line", "border")


def enemy_of(side: str) -> str:
    return SOVIET if side == AXIS else AXIS


@dataclass(frozen=True)
class TerrainSpec:
    """One row of the Terrain Effects Chart.  ``mp_foot``/``mp_mech`` in
    half MP (None: no entry); ``shifts`` columns to the left for a defender
    in the hex; ``stops_advance``: a mechanized unit entering it first ends
    its advance there (AVA 10.7)."""

    name: str
    mp_foot: int | None
    mp_mech: int | None
    shifts: int
    stops_advance: bool


@dataclass(frozen=True)
class HexMap:
    """The map: geometry (a :class:`HexGrid`, or for the campaign's joined
    sheets a :class:`MultiMap` whose hex ids carry their map, "S:4112"),
    what each hex holds and what each hexside carries.  Hexes of the grid
    outside ``play_area`` are off the map (AVA 2.1: beyond a scenario
    border)."""

    grid: HexGrid | MultiMap
    play_area: frozenset[str]
    terrain: dict[str, str]                  # hex -> terrain name (plains when absent)
    cities: dict[str, str]                   # hex -> "city" | "major_city"
    names: dict[str, str]                    # hex -> place name
    hexsides: dict[str, frozenset[str]]      # side_key -> features (HEXSIDE_FEATURES)
    road_sides: frozenset[str]               # side_keys a road runs along
    rail_sides: frozenset[str]               # side_keys a railroad runs along
    rail_lines: dict[str, tuple[str, ...]]   # line name -> chain of hexes (AVA 17.6 tells lines apart)
    supply: dict[str, frozenset[str]]        # side -> its supply source hexes
    source_tags: dict[str, frozenset[str]]   # tag ("from_moscow", "east_edge") -> hexes
    initial_control: dict[str, str]          # city/major city hex -> side controlling it at the start
    stand_fast: frozenset[str]               # AVA 16.2: major cities with a Stand Fast marker at start
    fortress: dict[str, int]                 # hex -> fortress steps at start
    vp_hexes: dict[str, frozenset[str]]      # tag ("breakthrough", ...) -> hexes
    deployment: dict[str, frozenset[str]]    # zone name -> hexes (set-up zones)
    layout: dict[str, Any] = field(default_factory=dict)   # picture hints only

    # ------------------------------------------------------------ geometry
    def on_map(self, h: str) -> bool:
        return h in self.play_area

    def neighbors(self, h: str) -> list[str]:
        """Adjacent hexes inside the play area."""
        return [n for n in self.grid.neighbors(h) if n in self.play_area]

    def distance(self, a: str, b: str) -> int:
        return self.grid.distance(a, b)

    # ------------------------------------------------------------ contents
    def terrain_of(self, h: str) -> str:
        return self.terrain.get(h, "plains")

    def city_of(self, h: str) -> str | None:
        return self.cities.get(h)

    def side_features(self, a: str, b: str) -> frozenset[str]:
        return self.hexsides.get(side_key(a, b), frozenset())

    def has(self, a: str, b: str, feature: str) -> bool:
        return feature in self.side_features(a, b)

    def road(self, a: str, b: str) -> bool:
        return side_key(a, b) in self.road_sides

    def rail(self, a: str, b: str) -> bool:
        return side_key(a, b) in self.rail_sides

    def river(self, a: str, b: str) -> str | None:
        """"major", "minor" or None for the hexside between a and b."""
        f = self.side_features(a, b)
        if "major_river" in f:
            return "major"
        if "minor_river" in f:
            return "minor"
        return None

    def bridged(self, a: str, b: str) -> bool:
        """A river hexside a road or railroad crosses (AVA 2.1)."""
        k = side_key(a, b)
        return k in self.road_sides or k in self.rail_sides

    def prohibited(self, a: str, b: str) -> bool:
        """No movement, attack, ZOC or command range across (lake, all-sea)."""
        return "prohibited" in self.side_features(a, b) or self.terrain_of(b) == "lake"

    def on_road(self, h: str) -> bool:
        return any(self.road(h, n) for n in self.grid.neighbors(h))

    def on_rail(self, h: str) -> bool:
        return any(self.rail(h, n) for n in self.grid.neighbors(h))


@dataclass(frozen=True)
class UnitSpec:
    """A counter as printed.  ``kind`` is "mech", "foot" or "hq" (an HQ is a
    foot unit for movement and combat, AVA 2.2).  Reduced values are the
    back of a two-step counter; a one-step unit has ``steps`` 1.  ``start``
    is a hex id, or a box: ``available``, ``turn:N`` (on the turn track,
    e.g. 19th Army on Turn 3), ``zone:NAME`` (placed by its owner at set-up
    within that deployment zone)."""

    id: str
    name: str
    side: str
    nationality: str             # "ger", "rum", "sov"
    kind: str                    # "mech", "foot", "hq"
    type: str                    # "panzer", "motorized", "infantry", "rifle", "cavalry", "mountain", "army", "panzergruppe", ...
    steps: int
    attack: int
    defense: int
    move: int                    # half MP
    attack_reduced: int
    defense_reduced: int
    move_reduced: int
    formation: str               # the HQ id whose formation it belongs to ("" if none)
    start: str
    command_range: int | None = None   # FFS: printed on the HQ; AVA: the profile's 4
    flags: frozenset[str] = frozenset()    # "19A", "3PzG_transfer", "stand_fast_..."

    @property
    def is_hq(self) -> bool:
        return self.kind == "hq"

    @property
    def mech(self) -> bool:
        return self.kind == "mech"


@dataclass(frozen=True)
class ChitSpec:
    """A command chit.  ``kind``: "hq" (activates ``hq``), "interrupt"
    (Guderian/Manstein: held in hand, activates ``hq``), "reinforcement",
    "supply" (the common Supply Check), "reserve" / "okh" (optional 17.2),
    "army19" (the 19th Army entry chit).  ``turn``: first turn it may be
    selected; ``choice``: it becomes available only when the Soviet player
    picks it as his extra Army chit of a turn (AVA 18.x)."""

    id: str
    side: str                    # "axis", "soviet", or "common" for the Supply Check
    kind: str
    hq: str = ""
    turn: int = 1
    choice: bool = False


@dataclass(frozen=True)
class Crt:
    """The Combat Results Table: column labels left to right ("1:1",
    "1.5:1", ... "10:1") and, for each die face 1..6, one result per column
    (``A1``, ``-``, ``R``, ``RR``, ``1RR``...)."""

    columns: tuple[str, ...]
    rows: dict[int, tuple[str, ...]]


@dataclass(frozen=True)
class TurnTrack:
    """Per-turn numbers, index 0 = Turn 1.  ``soviet_chits``: how many
    Army chits the Soviet selects; ``axis_chits``: the Axis cap (FFS
    "Axis Com"; AVA lets the Axis cup every chit); reinforcement counts by
    nationality."""

    last_turn: int
    soviet_chits: tuple[int, ...]
    axis_chits: tuple[int, ...]
    reinforcements: dict[str, tuple[int, ...]]   # "ger"/"rum"/"sov" -> per turn


@dataclass(frozen=True)
class Params:
    """Scenario switches and numbers (AVA 15, 18; FFS 15)."""

    axis_supply_from_turn: int = 4          # AVA 15.1: Axis exempt from supply Turns 1-3
    reinforcements_from_turn: int = 4
    surprise_attack: bool = True            # AVA 15.1
    fortress_build_from_turn: int = 0       # 0: no construction
    fortress_steps_per_check: int = 0
    fortress_max_hexes: int = 0
    fortress_max_steps: int = 2
    fortress_markers: int | dict[str, int] = 0  # AVA 14.3: markers in the map's countermix (0: no cap but max hexes)
    strategic_reserve: int = 0              # AVA 15.4: up to N units with Soviet Reinforcements
    strategic_reserve_from_turn: int = 6
    army19_turn: int = 0                    # AVA 15.3: 0 = no 19th Army entry
    extra_army_chit_turns: tuple[int, ...] = ()   # turns on which the Soviet picks one more Army chit
    stand_fast_removal_from_turn: int = 6
    withdrawal_turn: int = 0                # AVA 18.2: Axis withdraws mech at this Supply Check (0: none)
    withdrawal_strength: int = 0
    reserve_table: tuple[int, ...] = (3, 3, 3, 3, 4, 5)   # d6 face 1..6 -> units (AVA 4.3 campaign)
    reserve_no_ezoc: bool = False           # AVA 18.1: Reserve units neither enter nor leave EZOC, never attack
    zhukov: bool = False                    # AVA 18.1
    short_game_turn: int = 0                # AVA 18.2: the short game ends after this Supply Check


@dataclass(frozen=True)
class VictorySpec:
    """AVA 16 / FFS 15.5.  ``threshold`` (and ``short_threshold``) for the
    Axis-only VP of AVA; ``points`` holds the per-source values so that the
    two books' schedules are data."""

    threshold: int = 0
    short_threshold: int = 0
    points: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Scenario:
    id: str
    game: str
    title: str
    practice: bool
    notice: str
    map: HexMap
    terrain: dict[str, TerrainSpec]
    crt: Crt
    units: dict[str, UnitSpec]
    chits: dict[str, ChitSpec]
    track: TurnTrack
    params: Params
    victory: VictorySpec
    missing: tuple[str, ...] = ()           # kinds of data the file still lacks
