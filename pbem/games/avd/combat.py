"""Combat (rule 9): strengths, odds and shifts, the CRT, step losses, PVO
units, retreat and advance after combat.

Everything here is a pure function of a :class:`Board`; the sequence of
play (``rules.py``) asks for odds and options and applies the choices.
"""
from __future__ import annotations

import functools
from typing import Any

from pbem.board import losses
from pbem.board import odds as kodds
from pbem.board import retreat as kretreat
from pbem.game import IllegalOrder
from pbem.games.avd import model
from pbem.games.avd.board import SIDE_NAME, Board, enemy_of
from pbem.games.avd.model import GERMAN

STUKA_SHIFT = 2        # 9.3.4
TIMOSHENKO_SHIFT = 1   # 7.5.1
TURN1_SHIFT = 2        # 9.3.5
MAX_RETREAT_EXTRA = 6  # 9.5.5 extensions searched before a retreat is declared impossible


# ------------------------------------------------------------- strengths
def _attack_divisor(board: Board, uid: str, target: str) -> tuple[int, list[str]]:
    """9.3.1 / 10.3: every halving that applies to this attacker, each
    independent (rule-notes default, 8 item 13)."""
    d, why = 1, []
    h = board.hex_of(uid)
    if h is not None and board.is_river(h, target):
        d *= 2
        why.append("across river")
    if board.oos(uid):
        d *= 2
        why.append("out of supply")
    if board.isolated(uid):
        d *= 2
        why.append("isolated")
    return d, why


def _grouped(board: Board, uids: list[str], value, divisor, explain: bool = True) -> tuple[int, list[str]]:
    """Sum strengths hex by hex: units in one hex that share a divisor are
    added before dividing (1.3, 9.3.1); every hex is rounded on its own, as
    in the combat ratio example (1 + 1 + 3, not (3 + 3) / 2 + 3).  The
    parts say how, unless ``explain`` is False (then none)."""
    groups: dict[tuple[str, int], list[str]] = {}
    notes: dict[tuple[str, int], list[str]] = {}
    for u in uids:
        d, why = divisor(u)
        key = (board.hex_of(u) or "", d)
        groups.setdefault(key, []).append(u)
        notes[key] = why
    total, parts = 0, []
    for key in sorted(groups):
        members = groups[key]
        raw = sum(value(u) for u in members)
        got = kodds.divide(raw, key[1])
        total += got
        if not explain:
            continue
        names = "+".join(board.name(u) for u in members)
        if key[1] == 1:
            parts.append(f"{names} {raw}")
        else:
            parts.append(f"{names} {raw}/{key[1]}={got} ({', '.join(notes[key])})")
    return total, parts


def attack_strength(board: Board, attackers: list[str], target: str) -> int:
    return _attack(board, attackers, target)[0]


def _attack(board: Board, attackers: list[str], target: str, explain: bool = True) -> tuple[int, list[str]]:
    return _grouped(board, attackers, board.attack, lambda u: _attack_divisor(board, u, target), explain)


def defenders(board: Board, target: str) -> list[str]:
    return board.combat_units_at(target)


def defense_strength(board: Board, target: str) -> int:
    return _defense(board, target)[0]


def _defense(board: Board, target: str, explain: bool = True) -> tuple[int, list[str]]:
    def div(u: str) -> tuple[int, list[str]]:
        return (2, ["isolated"]) if board.isolated(u) else (1, [])
    return _grouped(board, defenders(board, target), board.defense, div, explain)


# ------------------------------------------------------------------ odds
class Odds:
    """The CRT column an attack is resolved on, and how it was reached.
    ``column`` indexes the scenario's CRT columns (None when illegal).

    A plain class with the methods ``@dataclass`` would write (the same
    arguments, repr and equality; unhashable), not the decorator: speed
    only, the decorator compiles them at every cold start
    (tests/test_avd_speed_plain_classes.py)."""

    __match_args__ = ("column", "label", "attack", "defense", "steps", "legal", "reason")
    __hash__ = None     # type: ignore[assignment]      # (mutable and compared by value, as a dataclass)

    def __init__(self, column: int | None, label: str, attack: int, defense: int,
                 steps: list[str] | None = None, legal: bool = True, reason: str = "") -> None:
        self.column = column
        self.label = label
        self.attack = attack
        self.defense = defense
        self.steps: list[str] = [] if steps is None else steps
        self.legal = legal
        self.reason = reason

    def _fields(self) -> tuple[Any, ...]:
        return (self.column, self.label, self.attack, self.defense, self.steps, self.legal, self.reason)

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(column={self.column!r}, label={self.label!r}, "
                f"attack={self.attack!r}, defense={self.defense!r}, steps={self.steps!r}, "
                f"legal={self.legal!r}, reason={self.reason!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._fields() == other._fields()  # type: ignore[attr-defined,no-any-return]
        return NotImplemented


@functools.lru_cache(maxsize=64)
def _column_index(columns: tuple[str, ...], label: str) -> int:
    # Kept per table and label: every odds calculation asks again.
    want = kodds.parse_column(label)
    for i, c in enumerate(columns):
        if kodds.parse_column(c) == want:
            return i
    raise ValueError(f"the CRT has no {label} column")


@functools.lru_cache(maxsize=16)
def _floor_column(columns: tuple[str, ...]) -> int:
    """Index of the 1-1 column (9.3.6), or the first column when the table
    has none."""
    return _column_index(columns, "1-1") if any(kodds.parse_column(c) == (1, 1) for c in columns) else 0


def odds(board: Board, attackers: list[str], target: str, *, stuka: int = 0,
         timoshenko: bool = False, turn1: bool = False, fixed_column: str | None = None,
         explain: bool = True) -> Odds:
    """The final CRT column (9.3).

    Order: raw ratio rounded down and capped at the last column (9.3.2);
    terrain shifts of the defender's hex (9.3.3); the attack is illegal if
    that is below 1-1 (9.3.6); then Stuka (``stuka`` +1 when the German
    attacks, -1 when he defends), Timoshenko and Turn 1 shifts are netted
    and applied once, clamped at the table edges (rule-notes default, 8
    item 11).  A total defense of 0 goes straight to the last column
    (9.3.7).  ``fixed_column`` (artillery 3-1, Rocket 7-1, Bomber 8-1)
    replaces the ratio; terrain and later shifts still apply.  With
    ``explain`` False the steps do not name the units (a legality check)."""
    columns = board.scn.crt.columns
    n = len(columns)
    floor = _floor_column(columns)
    d, dparts = _defense(board, target, explain)
    steps: list[str] = []
    if fixed_column is None:
        a, aparts = _attack(board, attackers, target, explain)
        steps.append(f"attack {a} ({'; '.join(aparts)})")
    else:
        a = 0
        steps.append(f"fixed {fixed_column} column")
    steps.append(f"defense {d} ({'; '.join(dparts)})")
    if d == 0:
        steps.append("defense 0: resolved on the last column (9.3.7)")
        return Odds(n - 1, columns[n - 1], a, d, steps)
    if fixed_column is None:
        raw = kodds.ratio_column(a, d, columns)
        if raw is None or raw < floor:
            why = f"odds {a}:{d} are below 1-1 (9.3.6)"
            return Odds(None, "", a, d, steps + [why], False, why)
        steps.append(f"{a}:{d} -> {columns[raw]}")
    else:
        raw = _column_index(columns, fixed_column)
    t = board.terrain(target)
    col = raw - t.shift
    if t.shift:
        steps.append(f"{t.name}: {t.shift} left")
    if col < floor:
        why = f"below 1-1 after the {t.name} shift (9.3.6)"
        return Odds(None, "", a, d, steps + [why], False, why)
    net = 0
    if stuka:
        net += STUKA_SHIFT * (1 if stuka > 0 else -1)
        steps.append(f"Stuka: {STUKA_SHIFT} {'right' if stuka > 0 else 'left'}")
    if timoshenko:
        net += TIMOSHENKO_SHIFT
        steps.append(f"Timoshenko: {TIMOSHENKO_SHIFT} right")
    if turn1:
        net += TURN1_SHIFT
        steps.append(f"Turn 1: {TURN1_SHIFT} right")
    final = kodds.shift(col, net, n)
    steps.append(f"-> {columns[final]}")
    return Odds(final, columns[final], a, d, steps)


def can_attack(board: Board, attackers: list[str], target: str,
               attacked_hexes: list[str] | set[str]) -> str | None:
    """Why these units may not attack ``target`` now (9.1), or None."""
    if not attackers:
        return "no attacking units"
    twice = sorted({u for u in attackers if attackers.count(u) > 1})
    if twice:
        # 9.3.1: each attacking unit adds its strength once
        return f"{board.name(twice[0])} is named twice: each unit attacks once (9.3.1)"
    side = board.side_of(attackers[0])
    if target not in board.grid:
        return f"{target} is off the map"
    if not any(board.side_of(u) != side for u in board.combat_units_at(target)):
        return f"{target} holds no {SIDE_NAME[enemy_of(side)]} combat units"
    if target in attacked_hexes:
        return f"{target} was already attacked this Combat Segment (9.1.4)"
    for u in attackers:
        name = board.name(u)
        if board.side_of(u) != side:
            return f"{name} is not on the attacking side"
        if not board.is_combat(u):
            return f"{name} is not a combat unit"
        h = board.hex_of(u)
        if h is None:
            return f"{name} is not on the map"
        if not board.unit(u).get("active"):
            return f"{name} is not activated (9.1.1)"
        if board.unit(u).get("attacked"):
            return f"{name} has already attacked this Combat Segment (9.1.1)"
        if not board.grid.adjacent(h, target):
            return f"{name} in {h} is not adjacent to {target}"
    o = odds(board, attackers, target, explain=False)
    return None if o.legal else o.reason


def read_crt(scn: model.Scenario, column: int | str, roll: int) -> kodds.Result:
    """The CRT cell for ``column`` (index or label) and a modified roll
    1..9; a Soviet 10 is handled by the caller (9.4.3)."""
    idx = column if isinstance(column, int) else _column_index(scn.crt.columns, column)
    return kodds.parse_result(kodds.crt_lookup(scn.crt.rows, idx, roll))


# ----------------------------------------------------------- step losses
def loss_options(board: Board, uids: list[str], steps: int) -> list[dict[str, int]]:
    """Every way the owner may take ``steps`` step losses among ``uids``
    (9.4.2): each entry maps a unit to the steps it loses (units losing none
    are left out).  More losses than steps eliminates everyone."""
    return losses.allocations({u: board.steps(u) for u in uids if board.is_combat(u)}, steps)


def eliminated_destination(board: Board, uid: str) -> str:
    """Where an eliminated combat unit goes (9.4.2): German motorized to the
    Eliminated Motorized box (Soviet VP); Soviet tan to the Reserve Box and
    red non-PVO to the Elite cup unless Isolated; PVO, "*" units and
    Isolated Soviet units leave the game; German non-motorized units leave
    the game too (rule-notes default, 8 item 31)."""
    spec = board.spec(uid)
    if spec.kind != "combat":
        raise ValueError(f"{uid} is an HQ: HQs are relocated, not eliminated by steps")
    if spec.side == GERMAN:
        return "elim_motorized" if spec.motorized else "removed"
    if spec.pvo or spec.code == "*" or board.isolated(uid):
        return "removed"
    return "elite_cup" if spec.formation == "red" else "reserve"


class PvoEffect:
    """9.5.2: how a DR/DR2 lands on a hex holding PVO units.  ``options``
    lists the owner's choices of PVO step losses; the hex's other units
    then retreat ``others_retreat`` hexes (0: they ignore the result).
    A plain class as :class:`Odds` is (speed only)."""

    __match_args__ = ("options", "others_retreat")
    __hash__ = None     # type: ignore[assignment]

    def __init__(self, options: list[dict[str, int]], others_retreat: int) -> None:
        self.options = options
        self.others_retreat = others_retreat

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(options={self.options!r}, others_retreat={self.others_retreat!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return (self.options, self.others_retreat) == (other.options, other.others_retreat)  # type: ignore[attr-defined]
        return NotImplemented


def pvo_effect(board: Board, h: str, retreat: int) -> PvoEffect | None:
    """None when no PVO unit is in ``h`` (normal retreat)."""
    if retreat <= 0:
        return None
    pvos = [u for u in board.combat_units_at(h) if board.spec(u).pvo]
    if not pvos:
        return None
    others = [u for u in board.combat_units_at(h) if not board.spec(u).pvo]
    if retreat == 1:
        return PvoEffect([{p: 1} for p in pvos], 0)
    if len(pvos) >= 2:
        return PvoEffect([{p: 1 for p in pvos}], 0)
    p = pvos[0]
    if board.steps(p) == 1 and others:
        # A PVO with one step left absorbs only one of the two hexes; the
        # rest falls on its companion as a DR (rule-notes reading, 8 item 33).
        return PvoEffect([{p: 1}], 1)
    return PvoEffect([{p: min(2, board.steps(p))}], 0)


# --------------------------------------------------------------- retreat
def zoc_losses(board: Board, uid: str, path: list[str]) -> int:
    """Steps ``uid`` loses retreating along ``path`` (start excluded): one
    per hex in enemy ZOC (9.5.4), none for a German motorized unit entering
    a hex that already holds a German unit.  HQs have no steps."""
    if not board.is_combat(uid):
        return 0
    side = board.side_of(uid)
    spec = board.spec(uid)
    lost = 0
    for h in path:
        if not board.in_enemy_zoc(h, side):
            continue
        if side == GERMAN and spec.motorized and any(
                board.side_of(o) == GERMAN and o != uid for o in board.units_at(h)):
            continue
        lost += 1
    return lost


def _retreat_can_enter(board: Board, uids: list[str], from_hex: str, side: str):
    has_combat = any(board.is_combat(u) for u in uids)

    def can_enter(a: str, b: str) -> bool:
        if b not in board.grid:
            return False
        if side == GERMAN and board.in_minsk_pocket(b):
            return False
        if board.enemy_occupied(b, side) and not (has_combat and board.lone_enemy_hq(b, side)):
            return False
        features = board.hexside(a, b)      # (read once for is_major and is_road: speed only)
        if "major_river" in features:
            if board.in_enemy_zoc(a, side) and board.in_enemy_zoc(b, side):
                return False                       # 9.5.6, bridged or not
            if "road" not in features and a != from_hex:
                return False                       # 9.5.6: only from the start hex
        return True

    return can_enter


def _closer_each_hex(board: Board, from_hex: str, path: list[str], sources) -> bool:
    """9.5.3 (1): every hex entered is nearer, by hex distance, to one and
    the same friendly supply source (rule-notes default, 8 item 16)."""
    distance = board.grid.distance      # (what board.distance asks, without its call: speed only)
    for s in sources:
        d = distance(from_hex, s)
        ok = True
        for h in path:
            dh = distance(h, s)
            if dh >= d:
                ok = False
                break
            d = dh
        if ok:
            return True
    return False


def retreat_options(board: Board, uids: list[str], from_hex: str, length: int,
                    side: str) -> list[list[str]]:
    """The retreat paths (start excluded) the owner may choose among after
    the 9.5.3 priorities: fewest ZOC step losses; then every hex closer to
    one friendly supply source; then a legal stack at the end.  A stack
    over the limit goes on hex by hex (9.5.5).  An empty list means the
    units cannot retreat and are eliminated (9.5.8)."""
    if length <= 0:
        return [[]]
    # Where the units stand (and the turn, for the sources) decide it: kept
    # with the position, since the frame, the decision and the answer each
    # ask again.
    key = ("retreat", tuple(uids), from_hex, length, side, board.turn)
    found = board.cache.get(key)
    if found is None:
        found = board.cache[key] = _retreat_options(board, uids, from_hex, length, side)
    return [list(p) for p in found]


def _retreat_options(board: Board, uids: list[str], from_hex: str, length: int,
                     side: str) -> list[list[str]]:
    can_enter = _retreat_can_enter(board, uids, from_hex, side)
    sources = sorted(board.supply_sources(side))
    combat = [u for u in uids if board.is_combat(u)]

    def losses(p: list[str]) -> int:
        return sum(zoc_losses(board, u, p) for u in combat)

    def not_closer(p: list[str]) -> int:
        return 0 if _closer_each_hex(board, from_hex, p, sources) else 1

    def overstacked(p: list[str]) -> int:
        return 0 if board.stacking_ok(p[-1], side, list(uids)) is None else 1

    priorities = [losses, not_closer, overstacked]
    frontier = kretreat.best_paths(
        kretreat.retreat_paths(from_hex, length, board.grid.neighbors, can_enter), priorities)
    for _ in range(MAX_RETREAT_EXTRA + 1):
        if not frontier:
            return []
        if not overstacked(frontier[0]):
            return frontier
        longer = [p + [n] for p in frontier for n in board.grid.neighbors(p[-1])
                  if n != from_hex and n not in p and can_enter(p[-1], n)]
        frontier = kretreat.best_paths(longer, priorities)
    return []


# --------------------------------------------------------------- advance
def advance_options(board: Board, uids_attacking: list[str], attacked_hex: str,
                    crossed: dict[str, bool] | None = None) -> dict[str, list[list[str]]]:
    """Where each attacker may advance after combat (9.6): the attacked hex
    first; motorized units may go one hex further, unless they crossed an
    unbridged major river into the attacked hex, and never across one on
    the second hex (9.6.5).  ZOC is ignored; PVO units never advance;
    stacking is checked by the caller once the whole advance is known.
    ``crossed`` overrides the board's own answer to "did this unit cross an
    unbridged major river to reach the attacked hex"."""
    out: dict[str, list[list[str]]] = {}
    if not uids_attacking:
        return out
    side = board.side_of(uids_attacking[0])
    # Whether the attacked hex is still held and which hexes lie beyond it
    # depend on the hex and the side alone: each worked out once, when a
    # unit first asks (speed only).
    held: bool | None = None
    beyond: list[str] | None = None
    for u in uids_attacking:
        spec = board.spec(u)
        if spec.pvo or board.hex_of(u) is None:
            out[u] = []
            continue
        if held is None:
            held = board.enemy_occupied(attacked_hex, side) and not board.lone_enemy_hq(attacked_hex, side)
        if held:
            out[u] = []
            continue
        opts = [[attacked_hex]]
        src = board.hex_of(u)
        assert src is not None          # off-map units were skipped above
        did_cross = crossed.get(u) if crossed and u in crossed else board.unbridged_major(src, attacked_hex)
        if spec.motorized and spec.kind == "combat" and not did_cross:
            if beyond is None:
                beyond = _beyond(board, attacked_hex, side)
            opts.extend([attacked_hex, n] for n in beyond)
        out[u] = opts
    return out


def _beyond(board: Board, attacked_hex: str, side: str) -> list[str]:
    """9.6.5: the hexes a motorized unit may go on to past the attacked
    hex: not across an unbridged major river, not into the Minsk Pocket
    (German), not into a hex enemy units hold (but a lone HQ)."""
    out = []
    for n in board.grid.neighbors(attacked_hex):
        if board.unbridged_major(attacked_hex, n):
            continue
        if side == GERMAN and board.in_minsk_pocket(n):
            continue
        if board.enemy_occupied(n, side) and not board.lone_enemy_hq(n, side):
            continue
        out.append(n)
    return out


def check_attackers_side(board: Board, attackers: list[str]) -> str:
    """The attacking side, or IllegalOrder if the list mixes sides."""
    sides = {board.side_of(u) for u in attackers}
    if len(sides) != 1:
        raise IllegalOrder("attackers must all be on one side")
    return sides.pop()


__all__ = ["Odds", "PvoEffect", "attack_strength", "defense_strength", "odds", "can_attack",
           "read_crt", "loss_options", "eliminated_destination", "pvo_effect", "zoc_losses",
           "retreat_options", "advance_options", "defenders"]
