"""Activation (AVA 8; FFS 8): which units an HQ's chit puts into action.

Command range is counted in hexes from the HQ, but a range may not cross a
prohibited (all-sea) hexside nor pass through a lake, so it is a
breadth-first search on the map rather than the plain hex distance; that
search is the kernel's :func:`pbem.board.supply.traced` with a length cap.
Nothing else (enemy units, their ZOC, rivers, supply, the red start line:
notes A6) changes it.
"""
from __future__ import annotations

from collections.abc import Iterable
from weakref import WeakKeyDictionary

from pbem.board.supply import traced
from pbem.game import IllegalOrder
from pbem.games.ava.board import Board
from pbem.games.ava.model import AXIS

MECH_LIMIT = 10        # AVA 17.5 (optional): mech units a German HQ activates at most

# Boards are rebuilt after every change, so ranges kept per board stay true.
_RANGES: WeakKeyDictionary[Board, dict[str, dict[str, int]]] = WeakKeyDictionary()


def command_range(b: Board, hq_uid: str) -> int:
    """AVA 8.2: 4 for every HQ; FFS 8.2: printed on the counter."""
    if b.profile.command_range is not None:
        return b.profile.command_range
    printed = b.spec(hq_uid).command_range
    if printed is None:
        raise ValueError(f"HQ {hq_uid} has no printed command range")
    return printed


def _range_step(b: Board, a: str, c: str) -> bool:
    m = b.map
    return not (m.prohibited(a, c) or m.has(a, c, "border"))


def range_hexes(b: Board, hq_uid: str) -> dict[str, int]:
    """Hexes in the command range of ``hq_uid`` (on the map) -> hexes counted."""
    return dict(_range(b, hq_uid))


def _range(b: Board, hq_uid: str) -> dict[str, int]:
    per_board = _RANGES.setdefault(b, {})
    if hq_uid not in per_board:
        at = b.unit(hq_uid).get("hex")
        per_board[hq_uid] = traced([at], b.map.neighbors, lambda a, c: _range_step(b, a, c),
                                   command_range(b, hq_uid)) if at else {}
    return per_board[hq_uid]


def _may_activate(b: Board, hq_uid: str, uid: str, surprise: bool) -> bool:
    hq, u = b.spec(hq_uid), b.spec(uid)
    if u.side != hq.side or u.is_hq:
        return False                        # 8.1: HQs never activate HQs
    if hq.side == AXIS and u.nationality != hq.nationality:
        return False                        # 8.3: German HQs Germans only, Romanian HQs Romanians only
    return not surprise or u.formation == hq_uid   # 15.1: the formation's own units only


def activated_by(b: Board, hq_uid: str, *, surprise: bool = False) -> list[str]:
    """The units ``hq_uid``'s activation makes active, the HQ itself first;
    empty when the HQ is not on the map (FFS 13.2: the chit does nothing).
    ``surprise``: the Surprise Attack's formation-only activation (15.1),
    still within command range (notes A17)."""
    reach = _range(b, hq_uid)
    if not reach:
        return []
    units = [uid for h in sorted(reach) for uid in b.units_at(h)
             if uid != hq_uid and _may_activate(b, hq_uid, uid, surprise)]
    return [hq_uid] + sorted(units)


def in_command_range(b: Board, uid: str, *, exclude: str = "") -> bool:
    """Whether ``uid`` stands within the range of a friendly HQ on the map
    other than ``exclude`` and itself (AVA 17.2 / FFS 16.2: Reserve units)."""
    h = b.unit(uid).get("hex")
    side = b.spec(uid).side
    if not h:
        return False
    return any(h in _range(b, hq) for hq in b.on_map(side)
               if b.spec(hq).is_hq and hq not in (uid, exclude))


# ------------------------------------------------------------ optional 17.5
def mech_choice(b: Board, hq_uid: str, active: Iterable[str]) -> list[str]:
    """AVA 17.5: the mech units among ``active`` from which the owner picks
    at most ten, or [] when no pick is needed (not a German HQ, ten or fewer)."""
    if b.spec(hq_uid).nationality != "ger":
        return []
    mech = sorted(u for u in active if b.spec(u).mech)
    return mech if len(mech) > MECH_LIMIT else []


def apply_mech_choice(b: Board, hq_uid: str, active: list[str], chosen: Iterable[str]) -> list[str]:
    """``active`` with the mech units not in ``chosen`` dropped (17.5);
    IllegalOrder for more than ten or a unit not on offer."""
    offered = mech_choice(b, hq_uid, active)
    picked = set(chosen)
    if not offered:
        return list(active)
    stray = sorted(picked - set(offered))
    if stray:
        raise IllegalOrder(f"{b.spec(hq_uid).name}: {', '.join(stray)} is not a mech unit it activates")
    if len(picked) > MECH_LIMIT:
        raise IllegalOrder(f"{b.spec(hq_uid).name} activates at most {MECH_LIMIT} mech units (17.5), "
                           f"{len(picked)} named")
    return [u for u in active if not b.spec(u).mech or u in picked]
