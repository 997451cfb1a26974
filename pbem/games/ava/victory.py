"""Victory points and the result (AVA 16, 17.1, 18.x; FFS 15.5, 15.6, 16.1).

``profile.victory`` picks the schedule:

``threshold`` (AVA)
    Only the Axis scores: major cities 10/5 by LOC, Stand Fast +5/+2, a
    Soviet supply source 10/5 and a From Moscow source +10/+5 (A20), 1 per
    full-strength German mech unit on the map, 1 per Soviet mech unit in
    the Eliminated box, and in the Smolensk full game 10/5 per breakthrough
    hex.  The Axis wins with the scenario's threshold or more (the short
    game's, or his bid, 17.1).
``ffs`` (FFS)
    Both sides score their major cities 10/5; the Axis adds timed city
    bonuses (checked at that turn's Supply Order), the east-edge
    breakthrough (+15, +15 more for 5504/5507, 30 at most), the 4230/4730
    bonus graded by when it is first held, and loses 3 per German mech unit
    and 1 per other unit destroyed.  Short game: the higher total wins, a
    tie is a draw; full game: the Axis wins by a margin of 40 (notes #56).

Every number comes from ``VictorySpec.points`` where the scenario gives it,
else the rulebook's value below.  The LOC test is the caller's:
``has_loc(side, hex)`` (``supply.loc`` sets).  Control is
``state["control"]`` (``seq_ops.entered`` records who last entered any hex that
scores, supply sources included, notes A36).

State read: ``state["stand_fast"]``; ``state["vp_awards"]`` (FFS timed and
4230/4730 awards, key -> VP, written by :func:`record`);
``state["axis_losses"]`` (one unit id per Axis elimination by combat or
supply, appended by :func:`note_loss`: an Axis HQ that came back and died
again counts twice, FFS notes #65).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from pbem.games.ava.board import Board
from pbem.games.ava.model import AXIS, SIDES, SOVIET, Scenario
from pbem.games.ava.profile import Profile

State = dict[str, Any]
HasLoc = Callable[[str, str], bool]

AVA_POINTS: dict[str, Any] = {
    "city": [10, 5],                  # 16.1: with / without LOC
    "stand_fast": [5, 2],             # 16.2
    "breakthrough": [10, 5],          # 16.3: at least one Soviet source
    "from_moscow": [10, 5],           # 16.3: and a From Moscow one (source tag from_moscow)
    "german_mech": 1,                 # 16.1: each full-strength German mech unit on the map
    "soviet_mech_eliminated": 1,      # 16.1
    "hexes": [10, 5],                 # 18.2 full game: each hex of the vp_hexes tag below
    "hexes_tag": "breakthrough",
}
FFS_POINTS: dict[str, Any] = {
    "city": [10, 5],                  # 15.5(1)(2), both sides
    "timed": [],                      # 15.5(3)(1-3): [{"hex": "3510", "turn": 4, "vp": 10}, ...]
    "east_edge": 15,                  # 15.5(3)(4): a Soviet east-edge source held with LOC
    "moscow_pair": 15,                # 15.5(3)(5): one of the vp_hexes tag below held with LOC
    "moscow_pair_tag": "moscow_pair",
    "east_cap": 30,
    "hex_schedule": [[7, 20, 20], [8, 15, 10], [9, 5, 5]],   # last turn, before / after its Supply Order
    "hexes_tag": "breakthrough",
    "axis_mech_lost": 3,              # 15.5(5)
    "axis_other_lost": 1,
    "full_margin": 40,                # 15.6(2) "more than 39": Axis - Soviet >= 40 (notes #56)
}


def schedule(scn: Scenario, profile: Profile) -> dict[str, Any]:
    base = AVA_POINTS if profile.victory == "threshold" else FFS_POINTS
    return {**base, **scn.victory.points}


def controls(b: Board, side: str, h: str) -> bool:
    """``side`` controls ``h``: the recorded control, else a unit there."""
    c = b.control(h)
    return c == side if c is not None else b.side_at(h) == side


def _graded(pair: Any, loc: bool) -> int:
    return int(pair[0] if loc else pair[1])


def _held(b: Board, side: str, hexes: Iterable[str], has_loc: HasLoc) -> tuple[bool, bool]:
    """(some hex held, some hex held with LOC)."""
    held = [h for h in sorted(hexes) if controls(b, side, h)]
    return bool(held), any(has_loc(side, h) for h in held)


def _major_cities(b: Board) -> list[str]:
    return sorted(h for h, k in b.map.cities.items() if k == "major_city")


# ------------------------------------------------------------ the breakdown
def vp(b: Board, has_loc: HasLoc, *, short: bool = False) -> dict[str, int]:
    """The VP by source, "side:source" -> points, as they stand now."""
    if b.profile.victory == "threshold":
        return _ava(b, has_loc, short)
    return _ffs(b, has_loc)


def _ava(b: Board, has_loc: HasLoc, short: bool) -> dict[str, int]:
    pts = schedule(b.scn, b.profile)
    out: dict[str, int] = {}
    stand_fast = set(b.state.get("stand_fast", ()))
    cities = sf = 0
    for h in _major_cities(b):
        if controls(b, AXIS, h):
            loc = has_loc(AXIS, h)
            cities += _graded(pts["city"], loc)
            if h in stand_fast:
                sf += _graded(pts["stand_fast"], loc)
    out["axis:cities"] = cities
    out["axis:stand_fast"] = sf
    held, loc = _held(b, AXIS, b.map.supply.get(SOVIET, ()), has_loc)
    out["axis:breakthrough"] = _graded(pts["breakthrough"], loc) if held else 0
    held, loc = _held(b, AXIS, b.map.source_tags.get("from_moscow", ()), has_loc)
    out["axis:from_moscow"] = _graded(pts["from_moscow"], loc) if held else 0
    out["axis:german_mech"] = int(pts["german_mech"]) * sum(
        1 for u in b.on_map(AXIS) if b.spec(u).mech and b.spec(u).nationality == "ger" and b.full(u))
    out["axis:soviet_mech_eliminated"] = int(pts["soviet_mech_eliminated"]) * sum(
        1 for uid, spec in b.scn.units.items()
        if spec.side == SOVIET and spec.mech and b.unit(uid).get("box") == "eliminated")
    hexes = 0
    if not short:
        for h in sorted(b.map.vp_hexes.get(pts["hexes_tag"], ())):
            if controls(b, AXIS, h):
                hexes += _graded(pts["hexes"], has_loc(AXIS, h))
    out["axis:hexes"] = hexes
    return out


def _ffs(b: Board, has_loc: HasLoc) -> dict[str, int]:
    pts = schedule(b.scn, b.profile)
    out: dict[str, int] = {}
    for side in SIDES:
        out[f"{side}:cities"] = sum(_graded(pts["city"], has_loc(side, h))
                                    for h in _major_cities(b) if controls(b, side, h))
    awards = b.state.get("vp_awards") or {}
    out["axis:timed"] = sum(int(v) for k, v in awards.items() if k.startswith("timed:"))
    out["axis:east_edge"] = _east_edge(b, pts, has_loc)
    out["axis:hexes"] = int(awards.get("hexes", 0))
    lost = [b.scn.units[u] for u in b.state.get("axis_losses", ()) if u in b.scn.units]
    out["axis:losses"] = -sum(int(pts["axis_mech_lost"]) if s.mech else int(pts["axis_other_lost"]) for s in lost)
    return out


def _east_edge(b: Board, pts: dict[str, Any], has_loc: HasLoc) -> int:
    """FFS 15.5(3)(4)(5), evaluated at the end with LOC (notes #53)."""
    soviet = b.map.supply.get(SOVIET, frozenset())
    east = soviet & b.map.source_tags.get("east_edge", frozenset())
    total = 0
    if _held(b, AXIS, east, has_loc)[1]:
        total += int(pts["east_edge"])
    if _held(b, AXIS, b.map.vp_hexes.get(pts["moscow_pair_tag"], ()), has_loc)[1]:
        total += int(pts["moscow_pair"])
    return min(total, int(pts["east_cap"]))


def totals(breakdown: dict[str, int]) -> dict[str, int]:
    out = {s: 0 for s in SIDES}
    for k, v in breakdown.items():
        out[k.split(":", 1)[0]] += v
    return out


# ------------------------------------------------------------ FFS awards during play
def timed_awards(b: Board, turn: int, has_loc: HasLoc) -> dict[str, int]:
    """At this turn's Supply Order (FFS 15.5(3)(1-3); notes #55): the timed
    city bonuses the Axis earns now (held with LOC)."""
    if b.profile.victory != "ffs":
        return {}
    pts = schedule(b.scn, b.profile)
    done = b.state.get("vp_awards") or {}
    out = {}
    for t in pts["timed"]:
        key = f"timed:{t['hex']}"
        if int(t["turn"]) == turn and key not in done and controls(b, AXIS, t["hex"]) and has_loc(AXIS, t["hex"]):
            out[key] = int(t["vp"])
    return out


def hex_award(b: Board, turn: int, supply_done: bool, has_loc: HasLoc) -> dict[str, int]:
    """FFS 15.5(4): the first time the Axis holds 4230 or 4730 with LOC
    (checked after every activation and every Supply Order, notes #54), the
    bonus for that moment: Turns 1-7 20, Turn 8 before its Supply Order 15,
    after it 10, Turn 9 5.  Awarded once; {} otherwise."""
    if b.profile.victory != "ffs" or "hexes" in (b.state.get("vp_awards") or {}):
        return {}
    pts = schedule(b.scn, b.profile)
    if not _held(b, AXIS, b.map.vp_hexes.get(pts["hexes_tag"], ()), has_loc)[1]:
        return {}
    for last, before, after in pts["hex_schedule"]:
        if turn <= int(last):
            value = int(after if supply_done else before)
            return {"hexes": value} if value else {}
    return {}


def record(state: State, awards: dict[str, int]) -> None:
    state.setdefault("vp_awards", {}).update(awards)


def note_loss(state: State, scn: Scenario, uid: str) -> None:
    """An Axis unit eliminated by combat or supply (FFS 15.5(5)); withdrawn
    and transferred units are not losses.  Soviet units are not counted."""
    if scn.units[uid].side == AXIS:
        state.setdefault("axis_losses", []).append(uid)


# ------------------------------------------------------------ the end
def last_turn(scn: Scenario, short: bool = False) -> int:
    """The turn whose Supply Check ends the game (AVA 16.4, 18.2; FFS 15.6)."""
    if short:
        if not scn.params.short_game_turn:
            raise ValueError(f"{scn.id} has no short game")
        return scn.params.short_game_turn
    return scn.track.last_turn


def ends_after_supply(scn: Scenario, turn: int, short: bool = False) -> bool:
    """After this turn's Supply Check the game is over; chits left in the
    cup are not played (AVA 16.4, notes A3; FFS TD-22)."""
    return turn >= last_turn(scn, short)


def outcome(scn: Scenario, profile: Profile, breakdown: dict[str, int], *, short: bool = False,
            bid: int | None = None) -> tuple[str | None, str]:
    """(winner "axis" / "soviet" / None for a draw, one line)."""
    t = totals(breakdown)
    if profile.victory == "threshold":
        need = bid if bid is not None else (scn.victory.short_threshold if short else scn.victory.threshold)
        if t[AXIS] >= need:
            return AXIS, f"Axis victory: {t[AXIS]} VP, {need} needed"
        return SOVIET, f"Soviet victory: the Axis has {t[AXIS]} VP, {need} needed"
    score = f"Axis {t[AXIS]} VP, Soviet {t[SOVIET]} VP"
    if short and bid is None:
        if t[AXIS] == t[SOVIET]:
            return None, f"Draw: {score}"
        win = AXIS if t[AXIS] > t[SOVIET] else SOVIET
        return win, f"{'Axis' if win == AXIS else 'Soviet'} victory: {score}"
    margin = int(schedule(scn, profile)["full_margin"]) if bid is None else bid
    if t[AXIS] - t[SOVIET] >= margin:
        return AXIS, f"Axis victory: {score}, a lead of {margin} or more"
    return SOVIET, f"Soviet victory: {score}, the Axis needed a lead of {margin}"


def bid_threshold(state: State, margin: int | None) -> int | None:
    """What ``outcome`` compares with (its ``bid``): the winning VP bid
    under 17.1 / FFS 16.1 (AVA: the Axis VP must reach it; FFS #58: the
    Axis lead, the quantity of #56), else the FFS margin option, else None
    (the scenario's threshold)."""
    bid = (state.get("bid") or {}).get("value")
    return int(bid) if bid is not None else margin


def result(scn: Scenario, profile: Profile, breakdown: dict[str, int], *, short: bool = False,
           bid: int | None = None) -> str:
    return outcome(scn, profile, breakdown, short=short, bid=bid)[1]
