"""Adapters between the sequence of play (``rules.py``) and the mechanics
modules (``movement``, ``combat``, ``supply``, ``activation``,
``relocation``).

The sequence asks a handful of questions — what column does this attack
use, which ways may this unit retreat, who does this chit activate — and
this module answers each one.  Where the mechanics module offers the answer
its function is called; where it does not (yet), a small fallback written
here gives the rule's plain reading, so the game stays playable.  Every
fallback cites its rule.
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Any

from pbem.game import IllegalOrder
from pbem.games.avd import movement
from pbem.games.avd.board import Board, enemy_of
from pbem.games.avd.model import GERMAN, SOVIET

try:  # the mechanics helper's modules; optional until they land
    from pbem.games.avd import combat as _combat  # type: ignore
except Exception:  # pragma: no cover - depends on the tree
    _combat = None
try:
    from pbem.games.avd import supply as _supply  # type: ignore
except Exception:  # pragma: no cover
    _supply = None
try:
    from pbem.games.avd import activation as _activation  # type: ignore
except Exception:  # pragma: no cover
    _activation = None
try:
    from pbem.games.avd import relocation as _relocation  # type: ignore
except Exception:  # pragma: no cover
    _relocation = None

PANZER_RANGE = 3   # 7.4.2: chaining reaches 3 hexes
RELOCATE_MIN = 4   # 12.6: at least 4 hexes from where the HQ stood


# ----------------------------------------------------------------- odds
@dataclass
class Odds:
    """An attack's CRT column and how it was reached (for ``query odds``)."""

    attack: int
    defense: int
    column: int | None            # index into the CRT columns; None: illegal
    lines: list[str] = field(default_factory=list)
    reason: str = ""


def column_ratio(label: str) -> tuple[int, int]:
    """"1.5-1" -> (3, 2); "10-1" or "10+-1" -> (10, 1)."""
    left, right = label.replace("+", "").split("-")
    if "." in left:
        whole, frac = left.split(".")
        den = 10 ** len(frac)
        return int(whole) * den + int(frac), den * int(right)
    return int(left), int(right)


def raw_column(scn, attack: int, defense: int) -> int | None:
    """9.3.2: the ratio rounds down to the printed column; beyond the last
    column it is the last (9.3.3).  None below the first column."""
    best = None
    for i, label in enumerate(scn.crt.columns):
        p, q = column_ratio(label)
        if attack * q >= defense * p:
            best = i
    return best


def _divisor_attack(board: Board, uid: str, target: str) -> int:
    d = movement.supply_divisor(board, uid)
    if board.is_river(board.hex_of(uid), target):  # 9.3.1: across any river hexside
        d *= 2
    return d


def grouped_strength(board: Board, uids: list[str], value, divisor) -> int:
    """1.3 / 9.3.1: units in one hex sharing a modifier are summed before
    halving; each hex (and each divisor group) rounds down on its own."""
    groups: dict[tuple[str, int], int] = {}
    for u in uids:
        key = (board.hex_of(u) or "", divisor(u))
        groups[key] = groups.get(key, 0) + value(u)
    return sum(total // d for (_, d), total in groups.items())


def odds(board: Board, attackers: list[str], target: str, *, stuka: int = 0,
         timoshenko: bool = False, turn1: bool = False, fixed_column: str | None = None) -> Odds:
    """The final CRT column of an attack (9.3).  ``stuka`` is +1 for a German
    attacking Stuka, -1 for a defensive one.  ``fixed_column`` names the
    column of an ART, Rocket or Bomber attack (13.2, 13.3)."""
    scn = board.scn
    cols = scn.crt.columns
    defenders = board.combat_units_at(target)
    lines: list[str] = []
    if fixed_column is not None:
        att = dfn = 0
        col = cols.index(fixed_column)
        lines.append(f"fixed column {fixed_column}")
    else:
        att = grouped_strength(board, attackers, board.attack, lambda u: _divisor_attack(board, u, target))
        dfn = grouped_strength(board, defenders, board.defense,
                               lambda u: 2 if board.isolated(u) else 1)
        lines.append(f"attack {att} : defense {dfn}")
        if dfn == 0:
            # 9.3.7: a defense of zero fights on the last column whatever the shifts
            return Odds(att, dfn, len(cols) - 1, lines + [f"defense 0: column {cols[-1]} (9.3.7)"])
        col = raw_column(scn, att, dfn)
        if col is None:
            return Odds(att, dfn, None, lines, f"{att}:{dfn} is below {cols[0]} (9.3.6)")
        lines.append(f"ratio column {cols[col]}")
    shift = board.terrain(target).shift
    if shift:
        col -= shift
        lines.append(f"terrain {board.terrain(target).name}: {shift} left")
        if col < 0 and fixed_column is None:
            return Odds(att, dfn, None, lines, f"below {cols[0]} after terrain (9.3.6)")
    net = 0
    if stuka:
        net += 2 * stuka
        lines.append(f"Stuka: 2 {'right' if stuka > 0 else 'left'}")
    if timoshenko:
        net += 1
        lines.append("Timoshenko: 1 right (7.5)")
    if turn1:
        net += 2
        lines.append("Turn 1: 2 right (9.3.5)")
    # 8 item 11: net every post-terrain shift, then clamp once at the table edges
    col = max(0, min(len(cols) - 1, col + net))
    lines.append(f"final column {cols[col]}")
    return Odds(att, dfn, col, lines)


_RESULT = re.compile(r"^(?:A(?P<a>\d+))?/?(?P<d>\d+)?(?P<dr>DR2?)?$")


@dataclass(frozen=True)
class Result:
    attacker_steps: int = 0
    defender_steps: int = 0
    retreat: int = 0
    text: str = "-"


def parse_result(text: str) -> Result:
    """9.4.1: "-" nothing, "A1" attacker loses a step, "2" defender loses
    two, "DR"/"DR2" defender retreats 1/2 hexes, combined as "3DR2"."""
    t = text.strip().upper().replace(" ", "")
    if t in ("-", "", "NE"):
        return Result(text=text)
    m = _RESULT.match(t)
    if not m:
        raise IllegalOrder(f"CRT result {text!r} is not understood")
    dr = m.group("dr")
    return Result(int(m.group("a") or 0), int(m.group("d") or 0),
                  2 if dr == "DR2" else 1 if dr else 0, text)


def read_crt(scn, die: int, column: int) -> Result:
    row = scn.crt.rows.get(die)
    if row is None:
        raise IllegalOrder(f"CRT has no row {die}")
    return parse_result(row[column])


# --------------------------------------------------------------- losses
def loss_options(board: Board, uids: list[str], steps: int) -> list[dict[str, int]]:
    """9.4.2: every way to take ``steps`` step losses among ``uids`` (all of
    them if there are fewer steps than that)."""
    have = [board.steps(u) for u in uids]
    need = min(steps, sum(have))
    out = []
    for combo in itertools.product(*[range(h + 1) for h in have]):
        if sum(combo) == need:
            out.append({u: n for u, n in zip(uids, combo) if n})
    return out


def eliminated_destination(board: Board, uid: str) -> str:
    """9.4.2: where an eliminated unit goes."""
    spec = board.spec(uid)
    if spec.side == GERMAN:
        return "elim_motorized" if spec.motorized and spec.formation in ("2PzG", "3PzG") else "removed"
    if spec.pvo or spec.code == "*" or board.isolated(uid):
        return "removed"
    return "elite_cup" if spec.formation == "red" else "reserve"


# -------------------------------------------------------------- retreat
def _closer_all(board: Board, path: list[str], sources) -> bool:
    for s in sources:
        d = [board.distance(h, s) for h in path]
        if all(b < a for a, b in zip(d, d[1:])):
            return True
    return False


def retreat_paths(board: Board, uid: str, start: str, length: int) -> list[list[str]]:
    """9.5.3: the retreat paths of ``uid`` from ``start`` that the priorities
    leave open (fewest enemy-ZOC step losses, then each hex closer to a
    friendly supply source, then no overstacking).  Empty: eliminated."""
    side = board.side_of(uid)
    spec = board.spec(uid)
    candidates: list[list[str]] = []

    def extend(path: list[str]) -> None:
        if len(path) == length + 1:
            candidates.append(path)
            return
        a = path[-1]
        for b in board.grid.neighbors(a):
            if b in path:
                continue
            if board.enemy_occupied(b, side) and not board.lone_enemy_hq(b, side):
                continue
            if side == GERMAN and board.in_minsk_pocket(b):
                continue
            if board.is_major(a, b):
                if not board.is_road(a, b) and len(path) > 1:
                    continue   # 9.5.6: only if the retreat starts beside it
                if board.in_enemy_zoc(a, side) and board.in_enemy_zoc(b, side):
                    continue
            extend(path + [b])

    extend([start])
    if not candidates:
        return []
    sources = board.supply_sources(side)

    def zoc_loss(path: list[str]) -> int:
        n = 0
        for h in path[1:]:
            if board.in_enemy_zoc(h, side):
                if spec.motorized and side == GERMAN and any(
                        board.side_of(u) == GERMAN for u in board.units_at(h) if u != uid):
                    continue   # 9.5.4: the German motorized exception
                n += 1
        return n

    def score(path: list[str]) -> tuple[int, int, int]:
        over = 1 if board.stacking_ok(path[-1], side, [uid]) else 0
        return (zoc_loss(path), 0 if _closer_all(board, path, sources) else 1, over)

    best = min(score(p) for p in candidates)
    return [p for p in candidates if score(p) == best]


def zoc_losses(board: Board, uid: str, path: list[str]) -> int:
    side = board.side_of(uid)
    spec = board.spec(uid)
    n = 0
    for h in path[1:]:
        if board.in_enemy_zoc(h, side):
            if spec.motorized and side == GERMAN and any(
                    board.side_of(u) == GERMAN for u in board.units_at(h) if u != uid):
                continue
            n += 1
    return n


# -------------------------------------------------------------- advance
def advance_paths(board: Board, uid: str, target: str) -> list[list[str]]:
    """9.6: the attacked hex, and for a motorized unit one hex more."""
    start = board.hex_of(uid)
    side = board.side_of(uid)
    spec = board.spec(uid)
    if start is None or spec.pvo:
        return []
    out = []
    if board.stacking_ok(target, side, [uid]) is None:
        out.append([target])
    if spec.motorized and not board.unbridged_major(start, target):
        for b in board.grid.neighbors(target):
            if b == start or board.unbridged_major(target, b):
                continue
            if side == GERMAN and board.in_minsk_pocket(b):
                continue
            if board.stacking_ok(b, side, [uid]) is None:
                out.append([target, b])
    return out


# --------------------------------------------------------------- supply
def traces_supply(board: Board, h: str, side: str) -> bool:
    """10.2.2: whether a supply line of ``side`` can be traced from ``h``
    (one search from the sources, cached on the board)."""
    return _supply.traces_supply(board, side, h)


# ------------------------------------------------------------ activation
def hq_activation(board: Board, hq: str) -> tuple[list[str], list[str]]:
    """7.2.2 / 7.3: the HQs and combat units a drawn HQ activates: the HQ,
    every friendly HQ within its Command Range, and every friendly combat
    unit within range of any of those (German Panzer-Group motorized units
    excepted)."""
    side = board.side_of(hq)
    here = board.hex_of(hq)
    cr = board.spec(hq).command_range
    hqs = [hq] + [u for u in board.units_of(side) if u != hq and board.is_hq(u)
                  and board.distance(here, board.hex_of(u)) <= cr]
    units = []
    for u in board.units_of(side):
        if not board.is_combat(u):
            continue
        s = board.spec(u)
        if side == GERMAN and s.motorized and s.formation in ("2PzG", "3PzG"):
            continue
        if any(board.distance(board.hex_of(h), board.hex_of(u)) <= board.spec(h).command_range for h in hqs):
            units.append(u)
    return sorted(hqs), sorted(units)


def panzer_clusters(board: Board, formation: str) -> dict[str, list[list[str]]]:
    """7.4.2: for each Panzer Corps of the Group, the groups of its motorized
    units on the map that chain together at 3 hexes; one group per corps
    may be activated."""
    corps: dict[str, list[str]] = {}
    for u in board.units_of(GERMAN):
        s = board.spec(u)
        if s.kind == "combat" and s.motorized and s.formation == formation and s.corps:
            corps.setdefault(s.corps, []).append(u)
    out: dict[str, list[list[str]]] = {}
    for c, uids in sorted(corps.items()):
        left = sorted(uids)
        clusters = []
        while left:
            group = [left.pop(0)]
            grew = True
            while grew:
                grew = False
                for u in list(left):
                    if any(board.distance(board.hex_of(u), board.hex_of(g)) <= PANZER_RANGE for g in group):
                        group.append(u)
                        left.remove(u)
                        grew = True
            clusters.append(sorted(group))
        out[c] = clusters
    return out


def formation_units(board: Board, formation: str) -> list[str]:
    """Every combat unit of a German formation on the map (turn-1 special
    combat segment, 4.1.2; rule-notes default 25: motorized and not)."""
    return sorted(u for u in board.units_of(GERMAN)
                  if board.is_combat(u) and board.spec(u).formation == formation)


# ------------------------------------------------------------ relocation
def relocation_options(board: Board, hq: str, origin: str) -> list[str]:
    """12.6: where an HQ may be re-placed (rule-notes default 18)."""
    return _relocation.relocation_options(board, hq, origin=origin)


def hq_has_units_in_range(board: Board, hq: str) -> bool:
    """12.5: an HQ survives the turn's end with a friendly combat unit in
    Command Range."""
    side = board.side_of(hq)
    here = board.hex_of(hq)
    cr = board.spec(hq).command_range
    return any(board.is_combat(u) and board.distance(here, board.hex_of(u)) <= cr
               for u in board.units_of(side))


def enemy(side: str) -> str:
    return enemy_of(side)


__all__ = ["Odds", "odds", "read_crt", "parse_result", "loss_options", "retreat_paths", "zoc_losses",
           "advance_paths", "traces_supply", "hq_activation", "panzer_clusters", "relocation_options",
           "hq_has_units_in_range", "eliminated_destination", "formation_units", "SOVIET", "Any"]


def isolated(board: Board, side: str) -> set[str]:
    """10.2 / 10.2.4: the combat units of ``side`` that trace no supply line."""
    return set(_supply.isolated_units(board, side))
