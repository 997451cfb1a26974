"""Movement in *Victory Roads* (§6): what one step costs, where a unit can
go, and the checks of a move order.

Costs are in half MP (model docstring).  A step along a road or railroad
hexside costs half an MP whatever else is in the hex or on the hexside
(6.1.9); otherwise the dearest terrain type of the hex entered (1.8) plus
the river's penalty unless a bridge cancels it (6.6; in Mud a Minor River
counts as Major, 3.2.2).  There are no zones of control: only an
enemy-occupied hex is closed (6.1.7).

Modes (R-28: one a unit a phase): ``normal``; ``strategic`` (6.2: double
MP, every hex inside the Command Radius of a supplied HQ that commands the
unit, never next to an enemy, Soviets kept out of fortifications and German
cities they do not control); ``rail`` (6.4, German: railroad hexsides only,
along a Supply Route, never next to an enemy, never into a Major City the
Soviets ever held; any length); ``exploit`` (8.2: halved MP, an OOS unit 1
MP).  Mud caps a phase at 2 MP (R-26) and forbids entering an
enemy-adjacent hex across a river (3.2.2).  An OOS unit moves only towards
a supply source or a friendly HQ unless it is Elite (4.6.4, R-18); every
unit may always move one hex when the step is otherwise legal (6.1.8).
"""
from __future__ import annotations

from typing import Any, Iterable

from pbem.board.movement import Reach, reachable
from pbem.board.transport import Capacity, rail_reach
from pbem.game import IllegalOrder
from pbem.games.vr import supply, terrain
from pbem.games.vr.board import Board
from pbem.games.vr.model import GERMAN, SOVIET
from pbem.games.vr.weather import effects

MODES = ("normal", "strategic", "rail", "naval", "exploit", "withdraw")

# 6.4.2, 6.5.1: Rail and Naval Capacity points a unit costs, by its class
# (an infantry unit or an HQ one, an armored unit two, on either side)
TRANSPORT_COST = {"infantry": 1, "hq": 1, "armor": 2}


def transport(per_turn: int) -> Capacity:
    """The kernel's capacity bookkeeping with the 6.4.2/6.5.1 prices."""
    return Capacity(per_turn, TRANSPORT_COST)


def transport_class(b: Board, uid: str) -> str:
    spec = b.spec(uid)
    return "armor" if spec.armor else "hq" if spec.is_hq else "infantry"


def transport_cost(b: Board, units: Iterable[str]) -> int:
    """Capacity points to carry ``units`` by rail or by sea."""
    return transport(0).price(transport_class(b, u) for u in units)


def halve_mp(half_mp: int) -> int:
    """An allowance in half MP with its MP halved, rounded up (1.9.1): a
    3-MP unit keeps 2 MP."""
    return 2 * ((half_mp + 3) // 4)


def allowance(b: Board, uid: str, mode: str) -> int:
    """Half MP ``uid`` may spend in ``mode`` this phase."""
    u = b.unit(uid)
    mp = b.move(uid)
    halvings = 0
    if mode == "exploit":
        mp = 2 if u["oos"] else halve_mp(mp)           # 8.2.2, 4.6.3
    elif u["oos"] and mode != "withdraw":
        halvings += 1                                  # 4.6.2 (4.7.1: not for a Withdrawal)
    if b.state.get("halved") and mode not in ("exploit", "withdraw"):
        halvings += 1                                  # 15.3.1: the Movement phase after a Dismissal
    if mode == "strategic":
        if halvings:
            halvings -= 1                              # 1.9.2: halved and doubled is unchanged
        else:
            mp *= 2                                    # 6.2.2
    for _ in range(halvings):
        mp = halve_mp(mp)                              # each halving rounds up
    cap = effects(b.state["weather"], b.state["sky"]).max_mp
    if cap is not None and mode != "rail":
        mp = min(mp, cap)                              # 3.2.2, R-26
    return mp


def step_cost(b: Board, uid: str, a: str, c: str) -> int | None:
    """Half MP to step from ``a`` into ``c`` (None: not allowed)."""
    m = b.map
    side = b.side_of(uid)
    if not m.on_map(c) or m.impassable(a, c) or b.enemy_occupied(c, side):
        return None
    if minor_border_closed(b, uid, c):
        return None
    weather = b.state["weather"]
    entry = terrain.entry_cost(b.scn, c, weather)
    if entry is None:
        return None
    river = b.river(a, c)
    if river and weather == "mud" and b.enemy_adjacent(c, side):
        return None                                    # 3.2.2: no river crossing into an enemy-adjacent hex
    if side == SOVIET and fortress(b, c) == "advanced":
        return 8                                       # 13.2.3: four MP, roads ignored
    if m.connected(a, c):
        return 1                                       # 6.1.9
    if river and not b.bridged(a, c):
        entry += b.scn.hexside[f"{river}_river"].mp
    return entry


def fortress(b: Board, h: str) -> str | None:
    """§13 with ``fortification_classes``: "advanced" for an advanced
    fortification, "city" for a Major City in Germany, "basic" for a basic
    fortification, while the Soviets have never captured the hex (13: a
    captured hex loses them for good); None otherwise."""
    if not b.profile.fortification_classes or b.soviet_ever(h):
        return None
    m = b.map
    fort = m.fortifications.get(h)
    if fort:
        return fort
    if m.cities.get(h) == "major" and m.country_of(h) == "germany":
        return "city"
    return None


def minor_border_closed(b: Board, uid: str, c: str) -> bool:
    """1.7.5: while Hungary and Romania both fight for Germany, neither's
    units enter the other's country (its border is impassable to them)."""
    nat = b.spec(uid).nationality
    if nat not in ("hun", "rum") or b.ally_side("hun") != GERMAN or b.ally_side("rum") != GERMAN:
        return False
    return b.map.country_of(c) == ("romania" if nat == "hun" else "hungary")


def _strategic_hexes(b: Board, uid: str) -> frozenset[str]:
    """The hexes inside the Command Radius of a supplied HQ commanding
    ``uid`` (6.2.1; Q-30: the HQs that supply it)."""
    side = b.side_of(uid)
    out: set[str] = set()
    for hq in b.on_map(side):
        if not b.spec(hq).is_hq or not supply.hq_supplied(b, hq) or not supply._serves(b, hq, uid):
            continue
        out.update(supply.command_reach(b, hq))
    return frozenset(out)


def _strategic_ok(b: Board, uid: str, c: str, zone: frozenset[str]) -> bool:
    side = b.side_of(uid)
    if c not in zone or b.enemy_adjacent(c, side):
        return False
    if side == SOVIET and b.control(c) != SOVIET:
        # 6.2.1, R-30b: fortifications and German cities only once Soviet-held
        if b.map.fortifications.get(c) or (b.map.cities.get(c) and b.map.country_of(c) == "germany"):
            return False
    return True


def _rail_enter(b: Board, c: str, routes: frozenset[str]) -> bool:
    """6.4.3: a rail move enters only hexes of a German Supply Route, never
    next to or on an enemy unit, never a Major City the Soviets ever held."""
    if c not in routes or b.enemy_adjacent(c, GERMAN) or b.enemy_occupied(c, GERMAN):
        return False
    return not (b.map.cities.get(c) == "major" and b.soviet_ever(c))


def _rail_ok(b: Board, a: str, c: str, routes: frozenset[str]) -> bool:
    return b.map.rail(a, c) and _rail_enter(b, c, routes)


def rail_ends(b: Board, uid: str) -> set[str]:
    """Every hex a rail move of ``uid`` may end in, at any distance (the
    kernel's rail search; :func:`reach` in ``rail`` mode gives the paths)."""
    routes = supply.route_hexes(b, GERMAN)
    return rail_reach(b.unit(uid)["hex"], b.map.neighbors, b.map.rail, lambda c: _rail_enter(b, c, routes))


def reach(b: Board, uid: str, mode: str = "normal") -> Reach:
    """Every hex ``uid`` can reach in ``mode`` (stacking not checked)."""
    start = b.unit(uid)["hex"]
    if mode == "rail":
        routes = supply.route_hexes(b, GERMAN)
        return reachable(start, 10 ** 6, b.map.neighbors,
                         lambda a, c: 0 if _rail_ok(b, a, c, routes) else None)
    zone = _strategic_hexes(b, uid) if mode == "strategic" else frozenset()

    def cost(a: str, c: str) -> int | None:
        if mode == "strategic" and not _strategic_ok(b, uid, c, zone):
            return None
        return step_cost(b, uid, a, c)

    return reachable(start, allowance(b, uid, mode), b.map.neighbors, cost)


def check_path(b: Board, uids: list[str], path: list[str], mode: str, moved: Iterable[str],
               abandon: frozenset[str] = frozenset()) -> None:
    """Refuse (IllegalOrder, one line) a move of the stack ``uids`` along
    ``path`` (start hex first) in ``mode``; ``abandon``: units that may move
    strategically from next to the enemy (6.3)."""
    done = set(moved)
    start = path[0]
    side = b.side_of(uids[0])
    for uid in uids:
        u = b.unit(uid)
        if u["hex"] != start:
            raise IllegalOrder(f"{uid} is not in {start}: a stack moves from one hex (6.1.1)")
        if uid in done:
            raise IllegalOrder(f"{uid} has already moved this phase (6.1.3)")
        if b.side_of(uid) != side:
            raise IllegalOrder("units of both sides cannot move together")
        if u.get("pontoon"):
            raise IllegalOrder(f"{uid} is on its Pontoon side and cannot move (6.1.8)")
        if b.move(uid) <= 0:
            raise IllegalOrder(f"{uid} has 0 MP (6.1.8)")
        if u.get("stuck") == b.state.get("turn"):
            raise IllegalOrder(f"{uid} failed its naval evacuation and cannot move again this turn (6.5.3)")
        _check_mode(b, uid, mode, uid in abandon)
    if len(path) < 2:
        raise IllegalOrder("a move needs at least one hex to enter")
    for uid in uids:
        _check_one(b, uid, path, mode, uid in abandon)


def _check_mode(b: Board, uid: str, mode: str, abandon: bool = False) -> None:
    spec = b.spec(uid)
    eff = effects(b.state["weather"], b.state["sky"])
    if mode == "strategic":
        if spec.is_hq:
            raise IllegalOrder("HQs never use Strategic Movement (6.2.1)")
        if not eff.strategic:
            raise IllegalOrder("no Strategic Movement in Mud (3.2.2)")
        if b.state.get("halved") and not abandon:
            raise IllegalOrder("no Strategic Movement in the Movement phase after a Dismissal (15.3.1)")
    if mode == "rail":
        if b.side_of(uid) != GERMAN:
            raise IllegalOrder("only the German player moves by rail (6.4)")
        if b.move(uid) <= 0:
            raise IllegalOrder(f"{uid} has no printed MP (6.4.3)")


def _check_one(b: Board, uid: str, path: list[str], mode: str, abandon: bool = False) -> None:
    side = b.side_of(uid)
    for a, c in zip(path, path[1:]):
        if c not in b.map.neighbors(a):
            raise IllegalOrder(f"{a} -> {c}: not adjacent")
    if mode == "rail":
        routes = supply.route_hexes(b, GERMAN)
        if b.enemy_adjacent(path[0], side):
            raise IllegalOrder(f"{uid} starts next to the enemy: no rail move (6.4.3)")
        for a, c in zip(path, path[1:]):
            if not _rail_ok(b, a, c, routes):
                raise IllegalOrder(f"{a} -> {c}: not a railroad step along a German Supply Route away from the "
                                   "enemy, or a Major City the Soviets once held (6.4.3)")
        return
    if mode == "strategic":
        zone = _strategic_hexes(b, uid)
        if b.enemy_adjacent(path[0], side) and not abandon:
            raise IllegalOrder(f"{uid} starts next to the enemy: no Strategic Movement (6.2.1)")
        if path[0] not in zone:
            raise IllegalOrder(f"{uid} starts outside the Command Radius of a supplied HQ: the whole strategic move "
                               "stays inside one (6.2.1)")
        for c in path[1:]:
            if not _strategic_ok(b, uid, c, zone):
                raise IllegalOrder(f"{c}: outside a supplied HQ's Command Radius, next to the enemy, or closed "
                                   "to Soviet Strategic Movement (6.2.1)")
    spent = 0
    for a, c in zip(path, path[1:]):
        cost = step_cost(b, uid, a, c)
        if cost is None:
            raise IllegalOrder(f"{uid} cannot enter {c} from {a} (enemy unit, impassable, or a Mud river "
                               "crossing next to the enemy)")
        spent += cost
    limit = allowance(b, uid, mode)
    if spent > limit and not (len(path) == 2 and limit > 0):       # 6.1.8: one hex always
        raise IllegalOrder(f"{uid}: the path costs {spent / 2:g} MP, it has {limit / 2:g}")
    if b.unit(uid)["oos"] and not b.spec(uid).elite and not towards_supply(b, uid, path):
        raise IllegalOrder(f"{uid} is out of supply: each hex must bring it nearer to a supply source or a "
                           "friendly HQ (4.6.4)")


def towards_supply(b: Board, uid: str, path: list[str]) -> bool:
    """R-18: some friendly HQ or supply source to which every hex of the
    path is strictly nearer than the one before."""
    side = b.side_of(uid)
    targets = set(supply.sources(b, side)) | {b.unit(h)["hex"] for h in b.on_map(side)
                                              if b.spec(h).is_hq and h != uid}
    dist = b.map.distance
    return any(all(dist(c, t) < dist(a, t) for a, c in zip(path, path[1:])) for t in sorted(targets))


def hq_may_end(b: Board, uid: str, h: str) -> bool:
    """6.1.10: an HQ ends its move where it can trace a Supply Route,
    judged with the HQ standing there (its own hex is then friendly-held,
    4.1.1)."""
    units = dict(b.state["units"])
    units[uid] = dict(units[uid], hex=h)
    there = Board(b.scn, b.profile, {**b.state, "units": units})
    side = there.side_of(uid)
    return h in supply.sources(there, side) or h in supply.route_hexes(there, side)


def path_to(b: Board, uid: str, goal: str, mode: str) -> list[str]:
    """The cheapest legal path to ``goal`` (for an order naming only the
    destination), or IllegalOrder."""
    r = reach(b, uid, mode)
    if goal in r.cost:
        return r.path_to(goal)
    start = b.unit(uid)["hex"]
    if mode != "rail" and goal in b.map.neighbors(start) and step_cost(b, uid, start, goal) is not None:
        return [start, goal]                           # 6.1.8
    raise IllegalOrder(f"{uid} cannot reach {goal} this phase ({mode}); ask `reach {uid}`")


def describe(b: Board, uid: str, mode: str = "normal") -> dict[str, Any]:
    r = reach(b, uid, mode)
    return {h: c for h, c in sorted(r.cost.items()) if h != b.unit(uid)["hex"]}


# ----------------------------------------------------------- naval (6.5)
def naval_cost(b: Board, uid: str) -> int:
    """6.5.1: one point an infantry unit or HQ, two an armored one."""
    return transport_cost(b, [uid])


def surrounded(b: Board, port: str) -> bool:
    """R-29: every neighbouring land hex holds a Soviet unit."""
    land = [n for n in b.map.neighbors(port) if terrain.entry_cost(b.scn, n, b.state["weather"]) is not None]
    return bool(land) and all(b.enemy_occupied(n, GERMAN) for n in land)


def naval_refusal(b: Board, uid: str, dest: str, left: int, moved: Iterable[str]) -> str | None:
    """Why ``uid`` may not sail to ``dest`` now (6.5.1-6.5.2), or None."""
    u = b.unit(uid)
    start = u["hex"]
    sea = b.map.ports.get(start or "")
    if b.side_of(uid) != GERMAN:
        return "only the German player moves by sea (6.5)"
    if uid in set(moved):
        return f"{uid} has already moved this phase: a naval move starts the phase in a port (6.5.2, R-28)"
    if u.get("stuck") == b.state.get("turn"):
        return f"{uid} failed its naval evacuation and cannot move again this turn (6.5.3)"
    if sea != "baltic":
        return f"{uid} is not in a port on the Baltic Sea (6.5.2)"
    if dest == start or b.map.ports.get(dest) != sea:
        return f"{dest} is not another port of the same sea (6.5.2)"
    if b.control(dest) != GERMAN or b.soviet_ever(dest):
        return f"{dest} is not a German port the Soviets never held (6.5.2)"
    if surrounded(b, dest):
        return f"{dest} is surrounded by Soviet units (6.5.2, R-29)"
    if naval_cost(b, uid) > left:
        return f"the naval move costs {naval_cost(b, uid)} points, {left} left (6.5.1)"
    return None


def evacuation_due(b: Board, uid: str) -> bool:
    """6.5.3, R-29: the moving unit is the only one left in its port and an
    enemy unit is next to it."""
    h = b.unit(uid)["hex"]
    return b.units_at(h) == [uid] and b.enemy_adjacent(h, b.side_of(uid))


# ------------------------------------------------- Withdrawal (4.7)
def withdrawal_refusal(b: Board, uid: str, path: list[str], marker: str) -> str | None:
    """4.7.1: a unit within three hexes of the marker (R-19) moves as a
    retreat does (7.10.5-7.10.6: each hex entered of the best priority
    class open from the hex left, R-15), either two hexes or within its
    printed MP (OOS and a Dismissal disregarded; Mud's cap, Q-04)."""
    from pbem.games.vr import losses
    if b.map.distance(b.unit(uid)["hex"], marker) > 3:
        return f"{uid} is more than three hexes from the Withdrawal marker (4.7.1, R-19)"
    if len(path) < 2:
        return "a Withdrawal move enters at least one hex"
    spent = 0
    for a, c in zip(path, path[1:]):
        if c not in b.map.neighbors(a):
            return f"{a} -> {c}: not adjacent"
        cost = step_cost(b, uid, a, c)
        if cost is None:
            return f"{uid} cannot enter {c} from {a}"
        best = min((losses.retreat_class(b, uid, a, n) for n in b.map.neighbors(a)
                    if step_cost(b, uid, a, n) is not None), default=9)
        if losses.retreat_class(b, uid, a, c) != best or best == 9:
            return f"{a} -> {c}: not the best retreat direction open (4.7.1, 7.10.5)"
        spent += cost
    if len(path) - 1 > 2 and spent > allowance(b, uid, "withdraw"):
        return f"{uid}: a Withdrawal moves two hexes or within its MP ({spent / 2:g} MP asked) (4.7.1)"
    return None
