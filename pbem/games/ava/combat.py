"""Combat of the *Fierce Fight!* family (AVA 10, 14.2; FFS 10, 14.2):
who may attack what, the odds column, the CRT, fortress conversion, step
losses and where eliminated units go.

Everything is a pure function of a :class:`Board` except
:func:`apply_losses`, which writes the owner's allocation into the state.
The Combat Segment (``seq_combat.py``) asks for odds and options and applies
the choices.  The AVA and FFS rulebooks part in a few places; each is a
field of the :class:`Profile` (``profile.halving``, ``fortress_defence``,
``fortress_conversion``, ``zero_defence_*``, ``lone_hq_attackable``,
``axis_hq_eliminated_to``).

Strengths are added in quarter points so that halving stays in integers
(no floats in the state or the arithmetic).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Collection, Iterable

from pbem.board import losses
from pbem.board import odds as kodds
from pbem.board import rounding
from pbem.game import IllegalOrder
from pbem.games.ava.board import Board
from pbem.games.ava.model import AXIS, SIDE_NAME, SOVIET, Scenario
from pbem.games.ava.profile import Profile

FORTRESS = "fortress"
"""The key a step-loss allocation uses for the fortress marker's steps."""

_QUARTER = 4   # strengths are summed in quarter points: a river and a 17.2 halving may meet


# ------------------------------------------------------------ crossings
def crossing_barred(b: Board, side: str, a: str, c: str, *, mountain_division: bool = False) -> str | None:
    """Why a unit of ``side`` may not attack, retreat or advance from ``a``
    into ``c``, or None.  Only the absolute bans count (AVA 10.1, 10.6(3),
    10.7; notes A5): off the map or across a scenario border, a prohibited
    hexside or a lake/all-sea hex, the red start line for Soviet units
    (AVA 2.1, notes A6) and a mountain hex off the road for all but
    mountain divisions (AVA 9.2)."""
    m = b.map
    if not m.on_map(c):
        return f"{c} is off the map"
    if m.prohibited(a, c):
        return f"the {a}-{c} hexside is prohibited"
    if m.has(a, c, "border"):
        return f"{a}-{c} crosses the scenario border"
    if side == SOVIET and b.profile.soviet_start_line and m.has(a, c, "start_line"):
        return f"Soviet units never cross the start line ({a}-{c})"
    if m.terrain_of(c) == "mountain" and not m.road(a, c) and not mountain_division:
        return f"{c} is a mountain hex entered off the road"
    return None


def _mountain_division(b: Board, uid: str) -> bool:
    return b.spec(uid).type == "mountain"


def may_enter(b: Board, uid: str, a: str, c: str) -> bool:
    """Whether ``uid`` may retreat or advance from ``a`` into ``c`` at all:
    no absolute ban (:func:`crossing_barred`) and no enemy unit there
    (3.1: the sides never stack).  Rivers and ZOC are the caller's."""
    side = b.spec(uid).side
    return crossing_barred(b, side, a, c, mountain_division=_mountain_division(b, uid)) is None \
        and not b.enemy_occupied(c, side)


# ----------------------------------------------------------- eligibility
def check_attack(b: Board, attackers: list[str], target: str, *, surprise: bool = False,
                 attacked_hexes: Collection[str] | None = None) -> None:
    """IllegalOrder if ``attackers`` may not attack ``target`` now (AVA
    10.0-10.1; FFS 10.0-10.1).  ``attacked_hexes``: hexes already attacked
    (or, in AVA, declared) this Combat Segment; by default the state's
    ``attacked_hexes`` list.  Odds below 1:1 are not refused here (a unit
    alone may join a stronger attack): :func:`check_odds` refuses the whole
    attack by profile, :func:`odds` reports it with ``column`` None."""
    del surprise    # 15.1: the Surprise Attack's eligibility is activation's business
    if not attackers:
        raise IllegalOrder(f"an attack on {target} needs at least one unit")
    twice = sorted({u for u in attackers if attackers.count(u) > 1})
    if twice:
        raise IllegalOrder(f"{_name(b, twice[0])} is named twice: each unit attacks once (10.1)")
    unknown = [u for u in attackers if u not in b.state["units"]]
    if unknown:
        raise IllegalOrder(f"no unit {unknown[0]}")
    side = b.spec(attackers[0]).side
    if not b.map.on_map(target):
        raise IllegalOrder(f"{target} is off the map")
    _check_target(b, side, target, attacked_hexes)
    for u in attackers:
        _check_attacker(b, side, u, target)


def _check_target(b: Board, side: str, target: str, attacked_hexes: Collection[str] | None) -> None:
    here = b.units_at(target)
    if here and b.spec(here[0]).side == side:
        raise IllegalOrder(f"{target} holds {SIDE_NAME[side]} units, not the enemy's")
    if not here and not (side == AXIS and b.fortress(target)):
        raise IllegalOrder(f"{target} is empty: empty hexes cannot be attacked (10.0)")
    if here and not b.fortress(target) and all(b.spec(u).is_hq for u in here) \
            and not b.profile.lone_hq_attackable:
        raise IllegalOrder(f"{target} holds only HQs, which cannot be attacked alone (10.0)")
    done = b.state.get("attacked_hexes", ()) if attacked_hexes is None else attacked_hexes
    if target in done:
        raise IllegalOrder(f"{target} has already been attacked this Combat Segment (10.1)")


def _check_attacker(b: Board, side: str, u: str, target: str) -> None:
    name, st = _name(b, u), b.unit(u)
    if b.spec(u).side != side:
        raise IllegalOrder(f"{name} is not on the attacking side")
    h = st.get("hex")
    if not h:
        raise IllegalOrder(f"{name} is not on the map")
    if not st.get("active"):
        raise IllegalOrder(f"{name} is not activated: only activated units attack (10.1)")
    if st.get("attacked"):
        raise IllegalOrder(f"{name} has already attacked this Combat Segment (10.1)")
    if not b.map.grid.adjacent(h, target):
        raise IllegalOrder(f"{name} in {h} is not adjacent to {target}")
    why = crossing_barred(b, side, h, target, mountain_division=_mountain_division(b, u))
    if why:
        raise IllegalOrder(f"{name} cannot attack from {h}: {why} (10.1)")


# ------------------------------------------------------------- strengths
def _divisor(b: Board, uid: str, target: str, surprise: bool, halved: Collection[str]) -> int:
    """How many times the unit's attack is halved: across any river,
    bridged or not (10.3(1)), unless in the Surprise Attack (15.1); once
    more for a unit the caller names (AVA 17.2 Reserve outside range)."""
    d = 1
    h = b.unit(uid)["hex"]
    if not surprise and b.map.river(h, target) is not None:
        d *= 2
    if uid in halved:
        d *= 2
    return d


def attack_strength(b: Board, attackers: Iterable[str], target: str, *, surprise: bool = False,
                    halved: Collection[str] = ()) -> int:
    """The attack total after halving, rounded down as the profile says:
    ``total`` (AVA 1.2: exact halves summed, the fraction dropped once at
    the end: 5 + 1.5 + 1.5 = 8) or ``per_hex`` (FFS 1.3, 10.3.1: the
    halved units of one hex are added, then halved and rounded down)."""
    groups: dict[tuple[str, int], int] = {}
    for u in attackers:
        key = (b.unit(u)["hex"], _divisor(b, u, target, surprise, halved))
        groups[key] = groups.get(key, 0) + b.attack(u)
    if b.profile.halving == "total":
        quarters = sum(v * (_QUARTER // d) for (_, d), v in groups.items())
        return rounding.scaled(quarters, ((1, _QUARTER),), "down")
    return sum(rounding.scaled(v, ((1, d),), "down") for (_, d), v in groups.items())


def fortress_defence(profile: Profile, steps: int) -> int:
    """A fortress's defence: 1 a step (AVA 14.2) or, in FFS 14.2.1, 1 for
    a two-step marker and nothing for a one-step one."""
    if steps <= 0:
        return 0
    return steps if profile.fortress_defence == "per_step" else steps - 1


def defence_strength(b: Board, target: str) -> int:
    """Units that retreated earlier this segment add nothing (10.3(1);
    FFS 10.6.6); the fortress adds by profile."""
    units = sum(b.defense(u) for u in b.units_at(target) if not b.unit(u).get("retreated"))
    return units + fortress_defence(b.profile, b.fortress(target))


def terrain_shifts(scn: Scenario, h: str) -> int:
    """Columns left for a defender in ``h`` (10.3(3), TEC): the terrain's
    row, a city's shift added over it, a major city's own shift instead."""
    city = scn.map.city_of(h)
    if city == "major_city":
        return scn.terrain["major_city"].shifts
    base = scn.terrain[scn.map.terrain_of(h)].shifts
    return base + (scn.terrain["city"].shifts if city == "city" else 0)


# ------------------------------------------------------------------ odds
@dataclass(frozen=True)
class Odds:
    """The CRT column an attack is resolved on.  ``raw``: the column the
    ratio rounds down to (capped at the last; None below the first);
    ``column``: after the terrain shifts, None when the attack is
    cancelled (10.3(4))."""

    attack: int
    defense: int
    raw: int | None
    shifts: int
    column: int | None
    label: str
    notes: tuple[str, ...] = field(default=())

    @property
    def cancelled(self) -> bool:
        return self.column is None


def odds(b: Board, attackers: list[str], target: str, *, surprise: bool = False,
         halved: Collection[str] = ()) -> Odds:
    """Ratio rounded down to a column with the kernel (10.3(2)); above the
    last column start there and shift (10.3(3)); below the first column
    after the shifts the attack is cancelled (10.3(4)).  A defence of 0
    goes to the last column, with or without the shifts by profile."""
    columns = b.scn.crt.columns
    a = attack_strength(b, attackers, target, surprise=surprise, halved=halved)
    d = defence_strength(b, target)
    shifts = terrain_shifts(b.scn, target)
    notes = [f"attack {a}, defence {d}"]
    if d == 0 and b.profile.zero_defence_top_column:
        raw: int | None = len(columns) - 1
        if not b.profile.zero_defence_shifts:
            shifts = 0
        notes.append("defence 0: the last column")
    else:
        raw = kodds.ratio_column(a, d, columns)
    if raw is None:
        notes.append(f"{a}:{d} is below {columns[0]}: cancelled")
        return Odds(a, d, None, shifts, None, "cancelled", tuple(notes))
    final = raw - shifts
    if shifts:
        notes.append(f"{columns[raw]} shifted {shifts} left for the terrain of {target}")
    if final < 0:
        notes.append(f"below {columns[0]} after the shifts: cancelled")
        return Odds(a, d, raw, shifts, None, "cancelled", tuple(notes))
    return Odds(a, d, raw, shifts, final, columns[final], tuple(notes))


def check_odds(b: Board, attackers: list[str], target: str, *, surprise: bool = False,
               halved: Collection[str] = ()) -> Odds:
    """The attack's :func:`odds`; IllegalOrder when they fall below the
    first column and the profile makes such an attack impossible (FFS
    10.3.4: refused when declared, the units stay free) rather than
    cancelled when resolved (AVA 10.3(4))."""
    o = odds(b, attackers, target, surprise=surprise, halved=halved)
    if o.cancelled and b.profile.below_first_column == "refused":
        raise IllegalOrder(f"{target}: attack {o.attack} against defence {o.defense} is below "
                           f"{b.scn.crt.columns[0]} after the shifts: no attack (10.3.4)")
    return o


# ------------------------------------------------------------------- CRT
def result(scn: Scenario, column: int, roll: int) -> kodds.Result:
    """The CRT cell for a column index and a d6 roll (10.4)."""
    return kodds.parse_result(kodds.crt_lookup(scn.crt.rows, column, roll))


def conversion_choice_needed(profile: Profile, res: kodds.Result, fortress_steps: int) -> bool:
    """Whether the defender chooses to convert (FFS 14.2.5 "may")."""
    return profile.fortress_conversion == "optional" and fortress_steps > 0 and res.retreat > 0


def convert_for_fortress(res: kodds.Result, fortress_steps: int, profile: Profile,
                         defender_choice: bool | None = None) -> kodds.Result:
    """A retreat result against a fortress hex becomes one step loss per
    hex and no retreat (AVA 14.2 always: 1RR -> 3 steps; FFS 14.2.5 when
    the defender chooses: 2RR -> 4).  Attacker losses are untouched."""
    if fortress_steps <= 0 or res.retreat == 0:
        return res
    if profile.fortress_conversion == "optional":
        if defender_choice is None:
            raise ValueError("the defender chooses whether the fortress converts the retreat")
        if not defender_choice:
            return res
    return kodds.Result(res.attacker_steps, res.defender_steps + res.retreat, 0, res.special)


# ----------------------------------------------------------- step losses
def _step_pool(b: Board, uids: Iterable[str], fortress_hex: str | None) -> dict[str, int]:
    """The steps each unit sharing a loss has left, the fortress marker's
    under :data:`FORTRESS`; sorted by key, which orders the options."""
    pool = {u: int(b.unit(u)["steps"]) for u in uids}
    if fortress_hex is not None and b.fortress(fortress_hex):
        pool[FORTRESS] = b.fortress(fortress_hex)
    return dict(sorted(pool.items()))


def loss_options(b: Board, uids: Iterable[str], steps: int, *,
                 fortress_hex: str | None = None) -> list[dict[str, int]]:
    """Every allocation of ``steps`` losses the owner may choose (10.5), by
    the kernel (:func:`pbem.board.losses.allocations`): each maps a unit (or
    :data:`FORTRESS`, the marker in ``fortress_hex``, AVA 14.2 / FFS 14.3.2
    notes #47) to the steps it loses, never more than it has; more losses
    than steps take them all."""
    return losses.allocations(_step_pool(b, uids, fortress_hex), steps)


def check_losses(b: Board, uids: Iterable[str], steps: int, alloc: dict[str, int], *,
                 fortress_hex: str | None = None) -> None:
    """IllegalOrder unless ``alloc`` is one of :func:`loss_options`."""
    why = losses.fault(_step_pool(b, uids, fortress_hex), steps, alloc, lambda k: _name(b, k))
    if why:
        raise IllegalOrder(f"{why} (10.5)")


def eliminated_to(b: Board, uid: str, cause: str = "combat") -> str:
    """The box an eliminated unit goes to.  By combat (retreat losses and a
    failed retreat included, AVA 12.3): Soviet foot units and HQs to the
    Available Box (AVA 10.8; FFS 12.3.1), Axis HQs as the profile says
    (FFS 13.3), everyone else to the Eliminated box; by a supply check,
    always the Eliminated box (AVA 11.1, 13.0; FFS 12.3.2, 13.4)."""
    spec = b.spec(uid)
    if cause != "combat":
        return "eliminated"
    if spec.side == SOVIET and spec.kind in ("foot", "hq"):
        return "available"
    if spec.side == AXIS and spec.is_hq:
        return b.profile.axis_hq_eliminated_to
    return "eliminated"


def apply_losses(b: Board, alloc: dict[str, int], *, fortress_hex: str | None = None,
                 cause: str = "combat") -> list[str]:
    """Write an allocation into ``b.state`` and return one line per unit
    affected.  A unit with no step left leaves the map for
    :func:`eliminated_to`'s box; one sent to the Available Box is back at
    full strength for its return (FFS 2.2.3, notes #63).  A fortress with
    no step left is gone for good (14.3).  The Board's index is stale
    afterwards: build a new one."""
    lines = []
    for k, n in sorted(alloc.items()):
        if n <= 0:
            continue
        if k == FORTRESS:
            lines.append(_fortress_loss(b, fortress_hex, n))
            continue
        u = b.unit(k)
        u["steps"] = max(0, int(u["steps"]) - n)
        if u["steps"] > 0:
            lines.append(f"{_name(b, k)} loses {n} step(s)")
            continue
        box = eliminated_to(b, k, cause)
        u.update({"hex": None, "box": box, "steps": b.spec(k).steps if box == "available" else 0})
        lines.append(f"{_name(b, k)} is eliminated ({'Available Box' if box == 'available' else 'Eliminated box'})")
    return lines


def _fortress_loss(b: Board, h: str | None, n: int) -> str:
    if h is None:
        raise ValueError("a fortress loss needs the fortress hex")
    forts = b.state.setdefault("fortress", {})
    left = max(0, int(forts.get(h, 0)) - n)
    if left:
        forts[h] = left
        return f"the fortress in {h} loses {n} step(s)"
    forts.pop(h, None)
    return f"the fortress in {h} is destroyed"


def _name(b: Board, uid: str) -> str:
    return b.spec(uid).name if uid in b.scn.units else uid


def defender_side(b: Board, target: str) -> str | None:
    """The side defending ``target``: its units', or the Soviet for a lone fortress."""
    side = b.side_at(target)
    if side is None and b.fortress(target):
        return SOVIET
    return side


__all__ = ["FORTRESS", "Odds", "apply_losses", "attack_strength", "check_attack", "check_losses", "check_odds",
           "conversion_choice_needed", "convert_for_fortress", "crossing_barred", "defence_strength",
           "defender_side", "eliminated_to", "fortress_defence", "loss_options", "may_enter", "odds",
           "result", "terrain_shifts"]
