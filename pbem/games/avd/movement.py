"""Movement (rule 8): Movement Points, terrain, rivers, ZOC and strategic
movement along roads.

MP are counted in half-MP units throughout (2 = 1 MP) because strategic
movement costs half an MP per road hex and the game state holds no floats.
"""
from __future__ import annotations

from pbem.board import movement as kernel
from pbem.game import IllegalOrder
from pbem.games.avd.board import SIDE_NAME, Board, enemy_of
from pbem.games.avd.model import GERMAN, UnitSpec

ZOC_COST = 4          # 8.2.1: 2 MP to enter an enemy ZOC hex, and 2 MP to leave one
MINOR_FOOT = 2        # 8.1.3: +1 MP for a non-motorized unit across an unbridged minor river
MINOR_MOTOR = 4       # 8.1.3: +2 MP for a motorized unit


def mp(half: int) -> str:
    """Half-MP units as the players say them: 7 -> "3 1/2"."""
    whole, rest = divmod(half, 2)
    if not rest:
        return str(whole)
    return f"{whole} 1/2" if whole else "1/2"


def supply_divisor(board: Board, uid: str) -> int:
    """10.3: Out of Supply halves, Isolated halves; both apply independently
    (rule-notes default, 8 item 13), so a unit that is both is quartered."""
    d = 1
    if board.oos(uid):
        d *= 2
    if board.isolated(uid):
        d *= 2
    return d


def allowance(board: Board, uid: str) -> int:
    """The unit's MP for a Movement Segment, in half-MP units.  Halving
    rounds down in whole MP (1.3), so a 5 MP unit Out of Supply has 2 MP."""
    spec = board.spec(uid)
    if spec.pvo:
        return 0            # 8.1.6: PVO units never move
    return (spec.movement // supply_divisor(board, uid)) * 2


def _enterable(board: Board, uid: str, side: str, b: str) -> str | None:
    """Why ``uid`` may not enter hex ``b`` at all, or None."""
    if b not in board.grid:
        return f"{b} is off the map"
    if side == GERMAN and board.in_minsk_pocket(b):
        return f"{b} is in the Minsk Pocket, closed to German units"
    if board.enemy_occupied(b, side):
        if board.is_combat(uid) and board.lone_enemy_hq(b, side):
            return None                     # 8.1.4 overrun
        return f"{b} holds {SIDE_NAME[enemy_of(side)]} units"
    return None


def step_reason(board: Board, uid: str, start: str, a: str, b: str,
                explain: bool = True) -> tuple[int | None, str]:
    """The half-MP cost of stepping from ``a`` into ``b`` for ``uid`` whose
    move began in ``start``, with an explanation; cost None when the step is
    prohibited (the explanation says why).  With ``explain`` False a legal
    step's explanation is "" (speed only: the cost alone is wanted)."""
    side = board.side_of(uid)
    return _step(board, uid, side, board.spec(uid), start, a, b, None, explain)


def _step(board: Board, uid: str, side: str, spec: UnitSpec, start: str, a: str, b: str,
          features: frozenset[str] | None, explain: bool) -> tuple[int | None, str]:
    """:func:`step_reason` with the unit's side and spec read, and the
    hexside's features when the caller has read them (check_move: speed
    only, it reads them for the step after too)."""
    why = _enterable(board, uid, side, b)
    if why:
        return None, why
    zoc_a = board.in_enemy_zoc(a, side)
    zoc_b = board.in_enemy_zoc(b, side)
    # The hexside's rivers and road, read once (what is_major, is_minor and
    # is_road each read again: speed only)
    if features is None:
        features = board.hexside(a, b)
    road = "road" in features
    if "major_river" in features:
        if zoc_a and zoc_b:
            return None, f"{a}-{b} crosses a major river from enemy ZOC into enemy ZOC (8.2.2)"
        if not road and a != start:
            return None, f"{a}-{b}: an unbridged major river may only be crossed from the starting hex (8.1.3)"
    t = board.terrain(b)
    cost = t.cost_motor if spec.motorized else t.cost_foot
    parts = [f"{mp(cost)} {t.name}"] if explain else None
    if "minor_river" in features and not road:
        extra = MINOR_MOTOR if spec.motorized else MINOR_FOOT
        cost += extra
        if parts is not None:
            parts.append(f"{mp(extra)} minor river")
    if zoc_a:
        cost += ZOC_COST
        if parts is not None:
            parts.append(f"{mp(ZOC_COST)} to leave {SIDE_NAME[enemy_of(side)]} ZOC at {a}")
    if zoc_b:
        cost += ZOC_COST
        if parts is not None:
            parts.append(f"{mp(ZOC_COST)} to enter {SIDE_NAME[enemy_of(side)]} ZOC")
    return cost, " + ".join(parts) if parts is not None else ""


def step_cost_fn(board: Board, uid: str, start: str | None = None) -> kernel.StepCost:
    """The kernel step-cost callable for ``uid`` moving from ``start``
    (default: its hex)."""
    origin = start or board.hex_of(uid)

    def cost(a: str, b: str) -> int | None:
        return step_reason(board, uid, origin, a, b, explain=False)[0]  # type: ignore[arg-type]

    return cost


def must_stop_fn(board: Board, uid: str):
    """8.1.3: crossing an unbridged major river ends the move; 12.1: so does
    nothing else (an overrun HQ is simply relocated)."""
    def stop(a: str, b: str) -> bool:
        return board.unbridged_major(a, b)
    return stop


def reach(board: Board, uid: str) -> kernel.Reach:
    """Every hex ``uid`` can enter this Movement Segment; ``endable`` are the
    hexes where the stacking limit lets it stop (5.4)."""
    start = board.hex_of(uid)
    if start is None:
        raise IllegalOrder(f"{board.name(uid)} is not on the map")
    side = board.side_of(uid)
    return kernel.reachable(start, allowance(board, uid), board.grid.neighbors,
                            step_cost_fn(board, uid, start), must_stop_fn(board, uid),
                            lambda h: h == start or board.stacking_ok(h, side, [uid]) is None)


def check_move(board: Board, uid: str, path: list[str]) -> int:
    """The half-MP cost of moving ``uid`` along ``path`` (its hex first);
    IllegalOrder with the reason when the move breaks a rule."""
    name = board.name(uid)
    start = board.hex_of(uid)
    if start is None:
        raise IllegalOrder(f"{name} is not on the map")
    if not path or path[0] != start:
        raise IllegalOrder(f"{name}: a move must start in its hex {start}")
    spec = board.spec(uid)
    if spec.pvo and len(path) > 1:
        raise IllegalOrder(f"{name}: PVO units never move (8.1.6)")
    side = board.side_of(uid)
    limit = allowance(board, uid)
    total = 0
    adjacent = board.grid.adjacent
    # Each step's hexside read once, for its cost and for the next step's
    # unbridged major river test (board.unbridged_major of it: speed only).
    crossed: frozenset[str] = frozenset()
    for i, (a, b) in enumerate(zip(path, path[1:])):
        if i and "major_river" in crossed and "road" not in crossed:
            raise IllegalOrder(f"{name}: must stop in {a} after crossing the major river (8.1.3)")
        if not adjacent(a, b):
            raise IllegalOrder(f"{name}: {b} is not adjacent to {a}")
        crossed = board.hexside(a, b)
        cost, why = _step(board, uid, side, spec, start, a, b, crossed, False)
        if cost is None:
            raise IllegalOrder(f"{name}: {why}")
        total += cost
        if total > limit:
            why = step_reason(board, uid, start, a, b)[1]    # the explanation, only for the refusal
            raise IllegalOrder(f"{name}: {b} costs {mp(cost)} MP ({why}) - {mp(total)} of {mp(limit)} MP")
    end = path[-1]
    if end != start:
        refusal = board.stacking_ok(end, side, [uid])
        if refusal:
            raise IllegalOrder(f"{name}: cannot end in {end}: {refusal}")
    return total


def overrun_hq(board: Board, uid: str, h: str) -> str | None:
    """The lone enemy HQ that ``uid`` overruns by entering ``h`` (12.1)."""
    if not board.is_combat(uid):
        return None
    return board.lone_enemy_hq(h, board.side_of(uid))


def strategic_ok(board: Board, uid: str, path: list[str], *, from_offmap: bool = False) -> int:
    """The half-MP cost of a strategic move along ``path`` (8.3.1), or
    IllegalOrder.  Each road hex entered costs the scenario's
    ``strategic_cost`` (rule option; default 1 = 1/2 MP).  With
    ``from_offmap`` the unit arrives from off the map into ``path[0]``
    (reinforcements, 11.1.2), paying for that hex too."""
    name = board.name(uid)
    spec = board.spec(uid)
    side = board.side_of(uid)
    if spec.motorized:
        raise IllegalOrder(f"{name}: motorized units may not use strategic movement (8.3)")
    if spec.pvo:
        raise IllegalOrder(f"{name}: PVO units never move (8.1.6)")
    if not path:
        raise IllegalOrder(f"{name}: empty strategic move")
    start = path[0]
    if not from_offmap and start != board.hex_of(uid):
        raise IllegalOrder(f"{name}: a move must start in its hex {board.hex_of(uid)}")
    if start not in board.grid:
        raise IllegalOrder(f"{name}: {start} is off the map")
    if not board.road_hex(start):
        raise IllegalOrder(f"{name}: strategic movement must start on a road ({start} has none)")
    if board.in_enemy_zoc(start, side):
        raise IllegalOrder(f"{name}: strategic movement may not start in enemy ZOC ({start})")
    entered = path if from_offmap else path[1:]
    for a, b in zip(path, path[1:]):
        if not board.grid.adjacent(a, b):
            raise IllegalOrder(f"{name}: {b} is not adjacent to {a}")
        if not board.is_road(a, b):
            raise IllegalOrder(f"{name}: {a}-{b} leaves the road")
    enemy = board.hexes_with(side)[0]       # what enemy_occupied reads, read once (speed only)
    for b in entered:
        why = _enterable(board, uid, side, b)
        if why or b in enemy:
            raise IllegalOrder(f"{name}: {why or b + ' holds enemy units'}")
        for n in [b] + board.grid.neighbors(b):
            if n in enemy:
                raise IllegalOrder(f"{name}: {b} is next to enemy units in {n}; no strategic movement there")
            if board.enemy_controlled_vh(n, side):
                raise IllegalOrder(f"{name}: {b} is next to the enemy-controlled Victory Hex {n}")
    total = len(entered) * board.scn.strategic_cost
    limit = allowance(board, uid)
    if total > limit:
        raise IllegalOrder(f"{name}: strategic move costs {mp(total)} MP, allowance {mp(limit)}")
    end = path[-1]
    if end != board.hex_of(uid):
        why = board.stacking_ok(end, side, [uid])
        if why:
            raise IllegalOrder(f"{name}: cannot end in {end}: {why}")
    return total


__all__ = ["allowance", "step_cost_fn", "must_stop_fn", "reach", "check_move", "strategic_ok",
           "overrun_hq", "mp", "supply_divisor", "step_reason"]
