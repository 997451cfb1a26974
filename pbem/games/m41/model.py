"""Moscow '41: the scenario model (components as data) and small facts about
blocks that every part of the rules needs.

Everything numeric (terrain table, firepower colours, replacement prices,
movement allowances, the map) comes from ``scenarios/m41/*.toml``; this
module only gives it shape.  A block's *strength* is its current number of
dots (or stars for an HQ; an exhausted HQ, the "heart" level, is 0).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.board.areagraph import AreaGraph
from pbem.game import ScenarioError

GERMAN = "german"
SOVIET = "soviet"
SIDES = (GERMAN, SOVIET)
MISSING = "MISSING"
WOOD = {GERMAN: "black", SOVIET: "red"}      # the block's wood: public, unlike its sticker
PREFIX = {GERMAN: "G", SOVIET: "S"}


def other(side: str) -> str:
    return SOVIET if side == GERMAN else GERMAN


@dataclass(frozen=True)
class BlockSpec:
    """One block's sticker.  ``steps[i]`` is the firepower colour printed at
    strength i+1 (black = single fire, white = double, red = triple, 4.2.2)."""

    id: str
    side: str
    name: str
    colour: str          # army/front colour, "white" reserves, "leader", "luftwaffe", "zhukov"
    type: str            # infantry | motorized | cavalry | tank | hq | lwhq | leader
    speed: str           # fast | slow | none
    max: int
    steps: tuple[str, ...]
    remnant: bool = False
    letter: str = ""
    blitz: bool = False

    @property
    def is_hq(self) -> bool:
        return self.type in ("hq", "lwhq")

    @property
    def is_combat(self) -> bool:
        return self.type in ("infantry", "motorized", "cavalry", "tank")

    @property
    def minimum(self) -> int:
        """Lowest strength the block can stand at (4.2.3): 1 dot for a combat
        block, the heart (0) for an HQ."""
        return 0 if self.is_hq or self.type == "leader" else 1

    def fire(self, strength: int) -> str | None:
        """Firepower colour at ``strength``; None when the block does not fire
        (leaders, Luftwaffe HQs, exhausted HQs).  HQ stars fire white (4.2.6)."""
        if self.type in ("leader", "lwhq") or strength <= 0:
            return None
        if self.type == "hq":
            return "white"
        return self.steps[strength - 1]

    def entry_strength(self) -> int:
        """Strength on arrival: full, a Remnant at its minimum (5.0)."""
        return self.minimum if self.remnant else self.max


def hq_down(strength: int) -> int | None:
    """One HQ step lost: 4 -> 3 -> 2 -> heart (0) -> destroyed (None).
    There is no one-star level (4.2.6)."""
    if strength <= 0:
        return None
    return 0 if strength <= 2 else strength - 1


def hq_up(strength: int) -> int:
    """One HQ step regenerated: the heart goes straight to two stars (7.2.2)."""
    return 2 if strength <= 0 else strength + 1


def step_down(spec: BlockSpec, strength: int) -> int | None:
    """One step lost; None when the block is destroyed (it was at minimum)."""
    if spec.is_hq:
        return hq_down(strength)
    return None if strength <= spec.minimum else strength - 1


@dataclass
class Scenario:
    id: str
    title: str
    practice: bool
    notice: str
    blocks: dict[str, BlockSpec]
    graph: AreaGraph
    terrain: dict[str, str]
    names: dict[str, str]
    cities: set[str]
    boxes: dict[str, str]
    road: list[str]
    staging: list[str]
    staging_colour: dict[str, str]
    victory: dict[str, str]
    victory_boxes: list[str]
    special_cities: dict[str, str]
    supply: dict[str, list[str]]
    control: dict[str, str]
    discs: dict[str, str]
    dls: list[dict[str, str]]
    placements: list[dict[str, Any]]
    pools: dict[str, list[str]]
    arrivals: list[dict[str, Any]]
    sequence: dict[str, Any]
    terrain_table: dict[str, dict[str, int]]
    weather_mp: dict[str, int]
    firepower: dict[str, int]
    replacement_cost: dict[str, int]
    movement: dict[str, int]
    limits: dict[str, int]
    victory_rules: dict[str, Any]
    published_lv: dict[str, int] = field(default_factory=dict)
    luftwaffe: dict[str, Any] = field(default_factory=dict)
    optional: dict[str, Any] = field(default_factory=dict)
    layout: dict[str, tuple[int, int]] = field(default_factory=dict)   # [map.layout]: area -> centre (pictures)

    def hoepner(self) -> str | None:
        """The Road HQ: the HQ marked 'L' (5.1)."""
        return next((b for b, s in self.blocks.items() if s.type == "hq" and s.letter == "L"), None)

    def zhukov(self) -> str | None:
        return next((b for b, s in self.blocks.items() if s.colour == "zhukov"), None)

    @property
    def road_in_play(self) -> bool:
        """Typhoon and Last Gasp take the Road to Leningrad out of play."""
        return bool(self.road) and self.sequence.get("road_in_play", True) is not False

    def spec(self, block: str) -> BlockSpec:
        return self.blocks[block]

    def area_name(self, area: str) -> str:
        return self.names.get(area, area)

    def area_label(self, area: str) -> str:
        """Number and name ("22 Vyazma"); a box, whose name is its id, once ("Pskov")."""
        name = self.area_name(area)
        return name if name == area else f"{area} {name}"

    def is_box(self, area: str) -> bool:
        return area in self.boxes

    @property
    def moscow(self) -> str:
        return self.victory["Moscow"]


def _missing_paths(value: Any, path: str) -> list[str]:
    if value == MISSING:
        return [path]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _missing_paths(v, f"{path}.{k}" if path else k)]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _missing_paths(v, f"{path}[{i}]")]
    return []


def check(data: dict[str, Any]) -> list[str]:
    """Everything that keeps a scenario from being played, one line each."""
    problems = [f"{p} is MISSING" for p in _missing_paths(data, "")]
    head = data.get("scenario", {})
    for key in ("id", "game", "title", "practice", "notice", "source"):
        if key not in head:
            problems.append(f"scenario.{key} is absent")
    if head.get("game") not in (None, "m41"):
        problems.append(f"scenario.game is {head.get('game')!r}, not 'm41'")
    for key in ("map", "blocks", "placements", "pools", "terrain", "sequence", "luftwaffe"):
        if key not in data:
            problems.append(f"{key} is absent")
    if problems:
        return problems
    try:
        load(data)
    except (ScenarioError, KeyError, TypeError, ValueError) as exc:
        problems.append(f"inconsistent: {exc}")
    return problems


def load(data: dict[str, Any]) -> Scenario:
    """Build the model from a parsed scenario TOML.  ScenarioError if a
    value is MISSING or a reference is dangling."""
    gaps = _missing_paths(data, "")
    if gaps:
        raise ScenarioError(f"{len(gaps)} values are MISSING, first {gaps[0]}")
    m = data["map"]
    blocks = {}
    for b in data["blocks"]:
        blocks[b["id"]] = BlockSpec(b["id"], b["side"], b["name"], b["colour"], b["type"], b["speed"], int(b["max"]),
                                    tuple(b["steps"]), bool(b.get("remnant", False)), b.get("letter", ""),
                                    bool(b.get("blitz", False)))
    areas = [a["id"] for a in m["areas"]]
    boxes = {x["id"]: x["kind"] for x in m["boxes"]}
    graph = AreaGraph(areas + list(boxes), [(e["a"], e["b"], {k: v for k, v in e.items() if k not in ("a", "b")})
                                            for e in m["edges"]])
    terrain = {a["id"]: a["terrain"] for a in m["areas"]}
    for t in terrain.values():
        if t not in data["terrain"]:
            raise ScenarioError(f"terrain {t!r} has no row in the terrain table")
    control = {a: data["control"]["default"] for a in areas + list(boxes)}
    for side in SIDES:
        for a in data["control"].get(side, []):
            if a not in control:
                raise ScenarioError(f"control names unknown area {a}")
            control[a] = side
    for p in data["placements"]:
        if "choose" in p:
            if p["choose"] not in ("adjacent", "near", "controlled", "frontline", "list"):
                raise ScenarioError(f"placement choice {p['choose']!r} is unknown")
            continue
        if p["area"] not in control:
            raise ScenarioError(f"placement in unknown area {p['area']}")
        if "block" in p and p["block"] not in blocks:
            raise ScenarioError(f"placement names unknown block {p['block']}")
    for side, ids in data["pools"].items():
        for i in ids:
            if i not in blocks:
                raise ScenarioError(f"{side} pool names unknown block {i}")
    return Scenario(
        id=data["scenario"]["id"], title=data["scenario"]["title"], practice=bool(data["scenario"]["practice"]),
        notice=data["scenario"]["notice"], blocks=blocks, graph=graph, terrain=terrain,
        names={a["id"]: a["name"] for a in m["areas"]} | {b: b for b in boxes},
        cities={a["id"] for a in m["areas"] if a.get("city")}, boxes=boxes, road=list(m["road"]),
        staging=list(m["staging"]), staging_colour=dict(m["staging_colour"]), victory=dict(m["victory"]),
        victory_boxes=list(m["victory_boxes"]), special_cities=dict(m["special_cities"]),
        supply={"east": m["supply_east"], "lightblue": m["supply_north_lightblue"], "blue": m["supply_north_blue"],
                "south": m["supply_south"]},
        control=control, discs=dict(data["discs"]), dls=list(data.get("dl", [])), placements=list(data["placements"]),
        pools={s: list(data["pools"].get(s, [])) for s in SIDES}, arrivals=list(data.get("arrivals", [])),
        sequence=dict(data["sequence"]), terrain_table=data["terrain"], weather_mp=dict(data["weather_mp"]),
        firepower=dict(data["firepower"]), replacement_cost=dict(data["replacement_cost"]),
        movement=dict(data["movement"]), limits=dict(data["limits"]), victory_rules=dict(data["victory"]),
        published_lv=dict(data.get("published_lv", {})), luftwaffe=dict(data.get("luftwaffe", {})),
        optional=dict(data.get("optional", {})),
        layout={a: (int(xy[0]), int(xy[1])) for a, xy in (m.get("layout") or {}).items()},
    )
