"""A Victory Denied: the scenario model (components as data) and the shape of
the game state.  This file is the contract between the scenario loader
(``scenario.py``), the mechanics (``movement.py``, ``combat.py``, ``supply.py``,
``activation.py``) and the sequence of play (``rules.py``).

Components come from ``scenarios/avd/*.toml`` and are immutable here; the
state is a plain JSON-like dict (see :data:`STATE_SHAPE`).

Hex ids are the map's four-digit ``CCRR`` numbers as strings ("3919").
Movement points are counted in **half-MP units** throughout (strategic
movement costs 1/2 MP per road hex, and the canonical form forbids floats):
``MP2 = 2`` means 1 MP.
"""
from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any, Callable

from pbem.game.plainclass import Factory, frozen_error, field_names, fields_later

GERMAN = "german"
SOVIET = "soviet"
SIDES = (GERMAN, SOVIET)

_NO_DEFAULT = object()


def _frozen(cls: type[Any]) -> type[Any]:
    """Speed only: what ``@dataclass(frozen=True)`` makes of ``cls``, with its
    methods made of closures over the field list instead of the source
    dataclasses writes and compiles for each class at import (~7 ms of every
    command that loads an AVD scenario): the fields registered with
    dataclasses on their first read (pbem.game.plainclass.fields_later, so
    ``fields`` and ``replace`` work as before, and a verify imports no
    dataclasses), an ``__init__`` binding arguments as the generated one
    does (positional in field order, by name, defaults and default
    factories), the same ``__repr__``, ``__eq__`` (field tuples, within one
    class), ``__hash__`` (of that tuple), and the frozen
    ``__setattr__``/``__delattr__``.  tests/test_avd_model_specs.py checks
    each against a plain frozen dataclass."""
    names = field_names(cls)
    # What this stand-in does not do, refused rather than silently skipped.
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__qualname__}: _frozen makes no __post_init__ call")
    given = {name: cls.__dict__.get(name, _NO_DEFAULT) for name in names}
    defaults = {name: v for name, v in given.items() if v is not _NO_DEFAULT and not isinstance(v, Factory)}
    factories = {name: v.make for name, v in given.items() if isinstance(v, Factory)}
    key = attrgetter(*names) if len(names) > 1 else (lambda obj: (getattr(obj, names[0]),))
    known = frozenset(names)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(names):
            raise TypeError(f"{cls.__qualname__}() takes {len(names)} arguments but {len(args)} were given")
        values = dict(zip(names, args))
        if kwargs:
            # Speed only: every name checked at once (the loop below finds
            # the first wrong one in the usual order to name it).
            if not known.issuperset(kwargs) or not values.keys().isdisjoint(kwargs):
                for name in kwargs:
                    if name not in known or name in values:
                        raise TypeError(f"{cls.__qualname__}() got an unexpected or repeated argument {name!r}")
            values.update(kwargs)
        for name in names if len(values) < len(names) else ():     # (nothing to fill: speed only)
            if name not in values:
                if name in defaults:
                    values[name] = defaults[name]
                elif name in factories:
                    values[name] = factories[name]()
                else:
                    raise TypeError(f"{cls.__qualname__}() missing required argument {name!r}")
        self.__dict__.update({name: values[name] for name in names})        # in field order, as __init__ sets them

    def __repr__(self: Any) -> str:
        return f"{self.__class__.__qualname__}(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in names) + ")"

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(key(self))

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise frozen_error(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise frozen_error(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    for method in (__init__, __repr__, __eq__, __hash__, __setattr__, __delattr__):
        method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
        setattr(cls, method.__name__, method)
    return fields_later(cls)


if TYPE_CHECKING:       # the type checker reads the classes as the dataclasses they behave as
    from dataclasses import dataclass, field
else:
    def dataclass(*, frozen: bool) -> Callable[[type], type]:
        assert frozen, "only frozen specs here"
        return _frozen

    def field(*, default_factory: Callable[[], Any]) -> Any:
        return Factory(default_factory)


@dataclass(frozen=True)
class UnitSpec:
    """One counter.  Combat units have ``attack``/``defense`` (non-motorized
    counters print one combat value: both fields carry it) and, when they
    have two steps, reduced values.  HQs have ``command_range`` and no
    combat values."""

    id: str                      # unique, e.g. "G-7Pz", "S-22A-HQ"
    side: str                    # GERMAN | SOVIET
    name: str                    # as printed, e.g. "7 Pz", "22nd Army"
    kind: str                    # "combat" | "hq"
    motorized: bool
    movement: int                # printed MA in whole MP
    attack: int = 0
    defense: int = 0
    steps: int = 1               # 1 or 2
    reduced_attack: int = 0
    reduced_defense: int = 0
    command_range: int = 0       # HQs only
    formation: str = ""          # German: "2PzG" | "3PzG" | "9A"; Soviet: "tan" | "red"
    corps: str = ""              # German Panzer corps ("XXXIX"...), else ""
    pvo: bool = False
    code: str = ""               # reinforcement code: "", "M", "R", "*", "1", "6"
    chit: str = ""               # HQ's command chit id, if it has one
    setup: str = ""              # set-up hex, or "" when it starts off map


@dataclass(frozen=True)
class ChitSpec:
    """A command chit.  ``kind``: "hq" (Soviet HQ chit), "2PzG", "3PzG",
    "9A", "guderian", "timoshenko", "airpower", "art", "supply", "reinf"."""

    id: str
    side: str                    # GERMAN | SOVIET | "" for the neutral Supply/Reinf chits
    kind: str
    hq: str = ""                 # unit id of the HQ a Soviet HQ chit activates
    code: str = ""               # "R" / "1" when unavailable until its HQ is on map


@dataclass(frozen=True)
class TurnSpec:
    """One Turn Track space (R2.1.1).  Turn 8 has two values for German chits
    and OoS markers (Hitler Distracted / Objective Moscow!)."""

    turn: int
    german_chits: int
    soviet_chits: int
    soviet_rp: int
    pvo: int
    elite: int
    german_oos: int
    german_chits_moscow: int | None = None   # turn 8 right-hand value
    german_oos_moscow: int | None = None


@dataclass(frozen=True)
class Terrain:
    """A Terrain Effects Chart row.  Costs are in half-MP units."""

    name: str
    cost_foot: int               # non-motorized, half-MP units (2 = 1 MP)
    cost_motor: int
    shift: int                   # CRT columns to the left for a defender here


@dataclass(frozen=True)
class AvdMap:
    """Map data.  ``hexsides`` maps a canonical hexside key (see
    :func:`pbem.board.hexgrid.side_key`) to its features: "minor_river",
    "major_river", "road".  A river hexside with "road" is bridged (R2.1.3).
    ``roads`` is not separate: a road runs between two hexes when their
    hexside has "road"."""

    first_col: int
    last_col: int
    first_row: int
    last_row: int
    offset: str                  # "odd-q" | "even-q" | "odd-r" | "even-r"
    terrain: dict[str, str]      # hex -> terrain name (absent: "clear")
    hexsides: dict[str, frozenset[str]]
    victory: dict[str, str]      # hex -> "minor" | "major"
    names: dict[str, str]        # hex -> place name
    moscow: frozenset[str]
    minsk_pocket: frozenset[str]
    supply_german: frozenset[str]
    supply_soviet: frozenset[str]
    supply_soviet_until_turn4: frozenset[str]   # e.g. 1517 (R10.2.2)
    entry: dict[str, str]        # "9A" -> "3106", "3PzG" -> "3902", "2PzG_minsk" -> "2704"
    timoshenko_entry: frozenset[str]            # hexes adjacent to the Timoshenko box


@dataclass(frozen=True)
class Crt:
    """Combat Results Table: ``columns`` in order ("1-1", "1.5-1", ...,
    "10-1"), ``rows[die][column_index]`` a result string ("-", "A1", "2",
    "DR", "3DR2"...).  Dice rows 1..9 (row 10 is the Soviet elite draw)."""

    columns: tuple[str, ...]
    rows: dict[int, tuple[str, ...]]


@dataclass(frozen=True)
class Scenario:
    """A whole scenario: map, charts, counters, Turn Track and tables, as loaded."""

    id: str
    title: str
    practice: bool
    notice: str                  # shown in every sitrep of a practice game
    map: AvdMap
    terrain: dict[str, Terrain]
    crt: Crt
    units: dict[str, UnitSpec]
    chits: dict[str, ChitSpec]
    turns: dict[int, TurnSpec]
    vp_chits: dict[str, tuple[int, ...]]        # "minor" -> values, "major" -> values
    minsk_escape: dict[str, Any]                # table as given by the scenario (its shape checked on load)
    hitler_directive: dict[int, str]            # die roll -> "moscow" | "distracted" | "choice"
    hitler_die: int                             # sides of that die
    strategic_cost: int = 1                     # half-MP units per road hex (1 = 1/2 MP; rule option)
    options: dict[str, Any] = field(default_factory=dict)


# The game state (a JSON-like dict; no floats):
STATE_SHAPE = """
{
  "turn": int, "phase": str, "step": {...},          # where we are in the sequence of play (rules.py owns)
  "active": "german"|"soviet"|None,
  "units": { unit_id: {
      "where": "map"|"reserve"|"minsk"|"timoshenko"|"offmap"|"elite_cup"|"stars"|"turn_track"
               |"elim_motorized"|"removed"|"hitler_removed",
      "hex": str|None, "steps": int, "oos": bool, "isolated": bool,
      "active": bool, "moved": bool, "attacked": bool } },
  "attacked_hexes": [hex...],                        # this combat segment
  "cup": [chit ids or "sealed:<handle>"], "played": [...], "guderian_box": bool,
  "sealed": {handle: side},                          # this turn's chits still face down (handle "g3.2")
  "picks": {side: {"from": [chits selectable], "first": handle|None}},   # 7.1.1; Turn 1 set-aside (3.7)
  "shown": {handle: chit}, "dealt": bool,            # turned up this turn; mixed under handles yet (7.2)
  "unplayed": {"german": int, "soviet": int},        # counts only: contents hidden
  "stukas_ready": int, "stukas_used": int, "bomber": bool, "rocket": bool,
  "vp": { hex: "down"|"up:<value>"|None }, "vp_box": int, "vp_minsk": [values],
  "minsk_drm": bool, "directive": None|"moscow"|"distracted"|"choice_moscow"|"choice_distracted",
  "hidden": {"german": {"chits": {handle: [chit, turn]}}|None, "soviet": ...}   # hidden items, see rules.py
}
"""
