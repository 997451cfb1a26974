"""The tables the *Victory Roads* rulebook text gives in full.

Unlike the CRT, the TEC or the weather table (printed on the map and the
player aids, so scenario data), these few are stated in the rule text and
are the same in every scenario.  They are restated here as
:class:`~pbem.board.dietable.DieTable` data, each with its rule number.
"""
from __future__ import annotations

from pbem.board.dietable import DieTable

# 12.1.1: units released from the Stavka box (or hexes a TO moves, 12.3) by
# the modified die, for the Priority TO, an ordinary TO and the Secondary TO.
STAVKA: dict[str, DieTable[int]] = {
    "priority": DieTable.parse({"1-": 1, "2": 2, "3": 3, "4": 4, "5": 4, "6+": 5}),
    "normal": DieTable.parse({"1-": 0, "2": 1, "3": 2, "4": 2, "5": 3, "6+": 3}),
    "secondary": DieTable.parse({"2-": 0, "3": 1, "4": 2, "5": 2, "6+": 3}),
}

# 6.5.3: the die a lone unit in a port next to the enemy rolls before its
# naval move: (step lost, move goes ahead).
EVACUATION: DieTable[tuple[bool, bool]] = DieTable.parse(
    {"1": (True, False), "2": (False, False), "3": (True, True), "4-6": (False, True)})

# 14.2: Hungary's capitulation die, modified.
HUNGARY: DieTable[str] = DieTable.parse({"3-": "never", "4-5": "none", "6": "armistice", "7+": "switch"})

# 11.3.3: modifiers of a TO's Support draw (half of 2D6, rounded down).
TO_DRAW = {"priority": 2, "large_offensive": 2, "minor_city": -2, "no_rail": -1, "snow": -1, "mud": -3}

# 11.6: hexes a TO in Movement Mode moves in the Support phase.
TO_MOVE = {"base": 3, "rail_only": 1, "per_support": 1, "max_supports": 2, "snow": -1, "mud": -2}

# 14.1: Romania's capitulation modifiers (cumulative; R-54: the -3 once).
ROMANIA = {"iasi_and_chisinau": -1, "galati": -2, "bucharest_or_oil": -3}

# 9.1.2 Operation Ranges; 11.2 remoteness; 19.1 Warsaw.
OPERATION_RANGE = {"offensive": 9, "movement": 5}
REMOTE = 10
REMOTE_FREE_MOVE = 5
WARSAW_TRIGGER = 2
WARSAW_SHIFT = 2


def to_draws(dice: int, *, priority: bool = False, large_offensive: bool = False, minor_city: bool = False,
             no_rail: bool = False, weather: str = "fair") -> int:
    """11.3.3: Supports a TO in Offensive Mode draws: half the two dice,
    rounded **down** (the one exception to 1.9.1), plus the modifiers; none
    when the total is not positive."""
    total = dice // 2
    total += TO_DRAW["priority"] if priority else 0
    total += TO_DRAW["large_offensive"] if large_offensive else 0
    total += TO_DRAW["minor_city"] if minor_city else 0
    total += TO_DRAW["no_rail"] if no_rail else 0
    total += TO_DRAW.get(weather, 0)
    return max(0, total)


def to_move(*, rail_only: bool = False, supports: int = 0, weather: str = "fair") -> int:
    """11.6: hexes a TO in Movement Mode moves in the Support phase."""
    if not 0 <= supports <= TO_MOVE["max_supports"]:
        raise ValueError(f"a TO move takes 0-{TO_MOVE['max_supports']} Supports, not {supports}")
    return max(0, TO_MOVE["base"] + (TO_MOVE["rail_only"] if rail_only else 0)
               + supports * TO_MOVE["per_support"] + TO_MOVE.get(weather, 0))


def romania_capitulates(die: int, captured: set[str], eliminated_romanians: int) -> bool:
    """14.1: the die plus the cumulative modifiers must be below the number
    of Romanian units in the Eliminated box.  ``captured`` names what the
    Soviets took: "iasi", "chisinau", "galati", "bucharest", "oil"."""
    total = die
    if {"iasi", "chisinau"} <= captured:
        total += ROMANIA["iasi_and_chisinau"]
    if "galati" in captured:
        total += ROMANIA["galati"]
    if captured & {"bucharest", "oil"}:
        total += ROMANIA["bucharest_or_oil"]
    return total < eliminated_romanians


def hungary_result(die: int, *, both_budapest: bool, romania_soviet: bool) -> str:
    """14.2: "never", "none", "armistice" or "switch"."""
    return HUNGARY.lookup(die + (1 if both_budapest else 0) - (1 if romania_soviet else 0))


def stavka(column: str, die: int, *, supports: int = 0, large_offensive: bool = False) -> int:
    """12.1.1: units released (or hexes moved, 12.3) for a TO's column
    ("priority", "normal", "secondary"); +1 per Support, +2 for the
    Priority TO in a Large Offensive turn."""
    bonus = supports + (2 if large_offensive and column == "priority" else 0)
    return STAVKA[column].lookup(die + bonus)


def dismissal_reset(dismissals: int, resets: tuple[int, ...] = (10, 9, 8, 7)) -> int:
    """15.3: where Approval (and the Maximum Satisfaction marker) goes after
    the ``dismissals``-th Dismissal: 10, 9, 8, then 7 for ever."""
    if dismissals < 1:
        raise ValueError("the first Dismissal is number 1")
    return resets[min(dismissals, len(resets)) - 1]
