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
