"""The components of *Victory Roads* as data: map, charts, counters,
Supports, tracks, schedules and the scenario card.

Everything here is read from a scenario file (``scenarios/vr/*.toml``) by
:mod:`pbem.games.vr.scenario`; nothing printed on the publisher's map,
charts, counters or cards is hard-coded (the rule notes §0: the rulebook
text gives almost none of it).  What the rulebook *text* states exactly (the
Stavka table, the naval evacuation table, the TO draw modifiers, the
capitulation tables) is in :mod:`pbem.games.vr.tables`.  The objects are
frozen: one :class:`Scenario` serves every state of a game.

Units of measure
    Movement points are counted in **half MP** (``2`` = 1 MP): a road hex
    costs half an MP (6.1.9) and the state has no floats.  Combat strengths
    are whole numbers as printed; strength factors (forest doubles the
    defense) are fractions ``(num, den)`` applied with one rounding, up, at
    the end (1.9, :mod:`pbem.board.rounding`).

Sides and nationalities
    The sides are ``soviet`` and ``german``; the Soviet moves first (§2).
    A unit's nationality is ``sov``, ``ger``, ``hun`` or ``rum`` (1.7.1):
    Hungarians and Romanians start on the German side and may change sides
    (§14), so a unit's *side* is a state fact and its nationality a printed
    one.  Its ``branch`` is the counter's colour (Guards red, regular brown,
    Polish/Bulgarian/Czech light brown; Wehrmacht grey, Waffen SS black,
    Luftwaffe blue-grey, Kriegsmarine violet), which matters for SS
    replacements (17.3.12) and scenario set-ups.

Map geometry
    Flat-topped hexes numbered CCRR, even columns shoved half a hex down
    (``even-q``): the rulebook's examples fit it and no other (rule notes
    §1, T05).  A hex may hold several terrain types (1.8): movement pays the
    dearest, the defender picks one for combat
    (:mod:`pbem.board.terrain`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.board.crt2d6 import Crt2d6
from pbem.board.dietable import DieTable
from pbem.board.hexgrid import HexGrid, side_key

SOVIET, GERMAN = "soviet", "german"
SIDES = (SOVIET, GERMAN)
SIDE_NAME = {SOVIET: "Soviet", GERMAN: "German"}
NATIONALITIES = ("sov", "ger", "hun", "rum")
HOME_SIDE = {"sov": SOVIET, "ger": GERMAN, "hun": GERMAN, "rum": GERMAN}
BRANCHES = {"sov": ("guards", "regular", "allied"), "ger": ("wehrmacht", "ss", "luftwaffe", "kriegsmarine"),
            "hun": ("hungarian",), "rum": ("romanian",)}
KINDS = ("division", "hq", "kg")          # 1.1.2 (a Soviet army corps is a "division")
ARMS = ("armor", "infantry")              # 1.1.4 (Soviet cavalry is armor, Axis cavalry infantry)

WEATHERS = ("fair", "mud", "snow")        # 3.2
SKIES = ("clear", "overcast")             # 3.3 (the list is an image; the examples name these two)
TACTICAL_CODES = ("-", "D1", "E", "E2", "E3", "E4", "Eng", "S", "DR", "DR2", "DR3")   # 7.9 (notes §3.15)
CITY_CLASSES = ("major", "minor")
FORTIFICATIONS = ("basic", "advanced")    # 13.1, 13.2
HEXSIDE_FEATURES = ("minor_river", "major_river", "bridge", "impassable", "fortified")
SUPPORT_KINDS = ("airplane", "leader", "red_disk", "end_of_reich", "capitulation", "plain")
TOS = ("N", "CN", "CS", "S")              # 1.6.1 / 9.1.1
# The Supports the rule text names by name (11.5.2, 11.7, 14): the engine
# reads a Support's ``role``, never its id.
SUPPORT_ROLES = ("", "stalin", "lend_lease", "surprise_attack", "artillery", "zhukov", "ally_capitulation")


def enemy_of(side: str) -> str:
    return GERMAN if side == SOVIET else SOVIET


# --------------------------------------------------------------------- charts
@dataclass(frozen=True)
class TerrainSpec:
    """One row of the Terrain Effects Chart for a terrain *in* a hex.
    ``mp``: half MP to enter (None: no entry, e.g. sea); ``defense`` and
    ``attack``: strength factors for a defender in the hex / its attackers;
    ``tactical``: how the tactical results of both sides change (code ->
    code, "-" = ignored; codes not listed are unchanged); ``no_exploit``:
    no E result there (13.2-13.3 classes); ``counts_as``: the type it is
    read as in a weather (``{"snow": "forest"}`` for swamp, 3.2.3)."""

    name: str
    mp: int | None
    defense: tuple[int, int] = (1, 1)
    attack: tuple[int, int] = (1, 1)
    tactical: dict[str, str] = field(default_factory=dict)
    counts_as: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class HexsideSpec:
    """One TEC row for a hexside feature (minor or major river): ``mp``
    extra half MP to cross without a bridge; ``attack``: the factor when
    every attacker crosses it (Combat example 1); ``tactical``: the river
    row a defender may choose for the attacker's result (7.9.4)."""

    name: str
    mp: int
    attack: tuple[int, int] = (1, 2)
    tactical: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class HexMap:
    """The map: geometry and what each hex and hexside holds.  Hexes of the
    grid outside ``play_area`` are off the map."""

    grid: HexGrid
    play_area: frozenset[str]
    terrain: dict[str, tuple[str, ...]]       # hex -> its types (1.8); absent: ("clear",)
    cities: dict[str, str]                    # hex -> "major" | "minor"
    names: dict[str, str]                     # hex -> place name
    country: dict[str, str]                   # hex -> country ("germany", "ussr", "hungary", ...)
    hexsides: dict[str, frozenset[str]]       # side_key -> HEXSIDE_FEATURES
    road_sides: frozenset[str]
    rail_sides: frozenset[str]
    ports: dict[str, str]                     # hex -> sea ("baltic")
    fortifications: dict[str, str]            # hex -> "basic" | "advanced"
    east_edge: frozenset[str]                 # 4.3.1: road/rail hexes on the eastern map edge
    june_cities: frozenset[str]               # 4.3.1: cities Soviet-held at the start of June III
    objectives: dict[int, frozenset[str]]     # 16.1: strategic objective number -> hexes
    sites: dict[str, int]                     # strategic site hex -> Approval value (player aid)
    oil_fields: frozenset[str]                # Ploesti (16.1, 14.1)
    capitals: dict[str, frozenset[str]]       # 4.5: "hungary" -> Budapest's hexes, "romania" -> Bucharest's
    initial_control: dict[str, str]           # hex -> side at the start (every play-area hex)
    layout: dict[str, Any] = field(default_factory=dict)

    def on_map(self, h: str) -> bool:
        return h in self.play_area

    def neighbors(self, h: str) -> list[str]:
        return [n for n in self.grid.neighbors(h) if n in self.play_area]

    def distance(self, a: str, b: str) -> int:
        return self.grid.distance(a, b)

    def terrain_of(self, h: str) -> tuple[str, ...]:
        """The terrain types drawn in ``h`` (clear when none is listed)."""
        return self.terrain.get(h, ("clear",))

    def types(self, h: str) -> tuple[str, ...]:
        """Every terrain type of ``h`` that the TEC has a row for: the drawn
        types, plus the hex's city class (``major_city``/``minor_city``) and
        fortification (``basic_fortification``/``advanced_fortification``).
        A city or a fortification is one more type the defender may pick
        (1.8.1): a fortification "does not add" to other terrain (13.1.2,
        13.2.2) exactly because only one type counts in combat."""
        out = self.terrain_of(h)
        city, fort = self.cities.get(h), self.fortifications.get(h)
        if city:
            out += (f"{city}_city",)
        if fort:
            out += (f"{fort}_fortification",)
        return out

    def city_of(self, h: str) -> str | None:
        return self.cities.get(h)

    def country_of(self, h: str) -> str:
        return self.country.get(h, "")

    def side_features(self, a: str, b: str) -> frozenset[str]:
        return self.hexsides.get(side_key(a, b), frozenset())

    def river(self, a: str, b: str) -> str | None:
        """"major", "minor" or None for the hexside between a and b."""
        f = self.side_features(a, b)
        return "major" if "major_river" in f else "minor" if "minor_river" in f else None

    def bridge(self, a: str, b: str) -> bool:
        """A bridge drawn on the map (Pontoons, Bridgeheads and Bridge
        Engineers are state, not map: the board adds them)."""
        return "bridge" in self.side_features(a, b)

    def road(self, a: str, b: str) -> bool:
        return side_key(a, b) in self.road_sides

    def rail(self, a: str, b: str) -> bool:
        return side_key(a, b) in self.rail_sides

    def connected(self, a: str, b: str) -> bool:
        """A road or railroad runs across the hexside (6.1.9: railroads
        count as roads)."""
        k = side_key(a, b)
        return k in self.road_sides or k in self.rail_sides

    def on_rail(self, h: str) -> bool:
        return any(self.rail(h, n) for n in self.grid.neighbors(h))

    def on_road_or_rail(self, h: str) -> bool:
        return any(self.connected(h, n) for n in self.grid.neighbors(h))

    def border(self, a: str, b: str) -> bool:
        """A national border runs along the hexside (1.7.4)."""
        return self.country_of(a) != self.country_of(b)

    def impassable(self, a: str, b: str) -> bool:
        return "impassable" in self.side_features(a, b)


# --------------------------------------------------------------------- units
@dataclass(frozen=True)
class UnitSpec:
    """A counter as printed.  ``kind``: "division" (a German division or a
    Soviet army corps), "hq" or "kg"; ``arm``: "armor" or "infantry" (an HQ
    is neither: ""); ``steps``: 2 for a counter with a back, 1 without
    (1.3); ``corps``: a Soviet infantry corps under §10 (front Reinforced,
    back Standard).  ``start``: a hex, or a box ("eliminated", "pool",
    "stavka", "corps_pile", "turn:N" for the schedule)."""

    id: str
    name: str
    nationality: str
    branch: str
    kind: str
    arm: str
    steps: int
    attack: int
    defense: int
    move: int                        # half MP
    attack_reduced: int
    defense_reduced: int
    move_reduced: int
    start: str
    elite: bool = False
    cavalry: bool = False
    corps: bool = False              # Soviet infantry corps (§10)
    command_radius: int = 0          # HQ only (1.2)

    @property
    def is_hq(self) -> bool:
        return self.kind == "hq"

    @property
    def armor(self) -> bool:
        return self.arm == "armor"

    @property
    def home_side(self) -> str:
        return HOME_SIDE[self.nationality]


@dataclass(frozen=True)
class KgSpec:
    """A Kampfgruppe counter (7.15): ``arm`` armor (drawn at random) or
    infantry (all alike); ``hiwis``: the armored-pool blank that makes no
    KG (7.15.3)."""

    id: str
    arm: str
    steps: int
    attack: int
    defense: int
    move: int
    attack_reduced: int = 0
    defense_reduced: int = 0
    move_reduced: int = 0
    hiwis: bool = False


@dataclass(frozen=True)
class SupportSpec:
    """A Support marker (1.5).  ``kind``: airplane (no Event under an
    Overcast sky, 5.4.2), leader (attached to a unit, one per unit, 5.4.4),
    red_disk (played for its Event when drawn, 1.5.3), end_of_reich (Event
    only, 1.5.3), capitulation (§14), plain.  ``to``: the TO label, ignored
    in Basic (5.4.3); ``enemy_turn``: may be played in the other side's
    turn; ``event``: the player aid's text, by reference."""

    id: str
    name: str
    side: str
    kind: str
    to: str = ""
    enemy_turn: bool = False
    stays: bool = False              # 5.2.1 exception (Model...)
    event: str = ""
    shift: int = 0                   # the Event as the engine plays it: odds columns in its player's favour
    airlift: bool = False            # the Event supplies one hex's units (4.2.1's Ju-52 exception, R-74)
    role: str = ""                   # the Support a rule names (SUPPORT_ROLES): stalin, lend_lease, ...
    results: tuple[str, ...] = ()    # the Event's die results 1-6, as text (Stalin, 11.5.2); () = not given


# -------------------------------------------------------------------- tracks
@dataclass(frozen=True)
class TurnTrack:
    """Turn numbers ``first``..``last`` and each turn's date: ``dates[t]``
    = "1945-03-I" (year, month, third).  The month keys the weather table."""

    first: int
    last: int
    dates: dict[int, str]

    def month(self, turn: int) -> str:
        return self.dates[turn].split("-")[1]


@dataclass(frozen=True)
class WeatherTable:
    """3.1: two dice, one column per month; each result is a weather and a
    sky ("mud/overcast")."""

    columns: dict[str, DieTable[tuple[str, str]]]    # month ("01".."12") -> table

    def roll(self, month: str, dice: int) -> tuple[str, str]:
        if month not in self.columns:
            raise ValueError(f"the weather table has no column for month {month}")
        return self.columns[month].lookup(dice)


@dataclass(frozen=True)
class ApprovalTrack:
    """15.1: Approval level -> (German Supports drawn, German RP); the
    Freedom-of-Action boxes' values (box 0 first); the Dismissal resets
    (15.3: 10, 9, 8, then 7)."""

    levels: dict[int, tuple[int, int]]
    foa_values: tuple[int, ...]
    resets: tuple[int, ...] = (10, 9, 8, 7)


@dataclass(frozen=True)
class EndOfReichTrack:
    """16.2: square (objectives held, 0-6) -> End-of-Reich Supports added
    the first time the marker enters it, Supports drawn after a Dismissal,
    and how many of those are chosen rather than drawn (R-52)."""

    added: dict[int, int]
    dismissal_draws: dict[int, int]
    dismissal_chosen: dict[int, int]


@dataclass(frozen=True)
class Reinforcement:
    """One turn of the Reinforcement Schedule (17): units arriving,
    Supports into a pool, RP by nationality, withdrawals (18.1: count, arm,
    minimum attack) and transformations (18.2: old -> new)."""

    turn: int
    units: tuple[str, ...] = ()
    supports: dict[str, int] = field(default_factory=dict)
    rp: dict[str, int] = field(default_factory=dict)
    withdrawals: tuple[dict[str, Any], ...] = ()
    transformations: dict[str, str] = field(default_factory=dict)
    corps: int = 0                   # 17.1, 10.1: Soviet infantry corps drawn at random from the pile


@dataclass(frozen=True)
class Card:
    """The scenario card: rule set, Support pools, draws, rail capacity,
    starting markers, victory conditions and special rules."""

    rules: str                                     # profile name
    switches: dict[str, Any]
    pools: dict[str, dict[str, int]]               # side -> support id -> count
    soviet_draw_modifier: int                      # 5.3.1 (Basic)
    german_draws: int                              # 5.3.2 (Basic, or Bessarabia's card)
    mud_draw_modifier: dict[str, int]              # Basic: the card's Mud/Snow penalties
    snow_draw_modifier: dict[str, int]
    rail_capacity: dict[int, int]                  # turn -> points (6.4.1); missing turns: "default"
    rail_default: int
    markers: dict[str, Any]                        # approval, foa, max_satisfaction, end_of_reich, tos, haltebefehl
    victory: dict[str, Any]
    special: tuple[str, ...] = ()
    arrivals: dict[str, tuple[str, ...]] = field(default_factory=dict)   # side -> hexes a card names (17.1/17.2)
    lend_lease_range: int = 0                      # 11.5.2: hexes Lend-Lease adds to its TO's range (player aid)


@dataclass(frozen=True)
class Scenario:
    id: str
    game: str
    title: str
    practice: bool
    notice: str
    map: HexMap
    terrain: dict[str, TerrainSpec]
    hexside: dict[str, HexsideSpec]
    crt: Crt2d6
    weather: WeatherTable
    track: TurnTrack
    units: dict[str, UnitSpec]
    kg: dict[str, KgSpec]
    supports: dict[str, SupportSpec]
    approval: ApprovalTrack | None
    end_of_reich: EndOfReichTrack | None
    schedule: dict[int, Reinforcement]
    card: Card
    missing: tuple[str, ...] = ()
