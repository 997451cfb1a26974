"""Victory (rule 16) and the VP chits, kept apart from the sequence of play
so the arithmetic can be checked on its own.

VP chits are hidden from *both* players (3.4, 16.2).  Nobody needs to hold
a secret: a face-down chit's value is drawn from the pool of values not yet
seen at the moment it is turned up (DESIGN.md, "Hidden information"), which
gives the same odds as a shuffle at set-up.  The state keeps:

``vp``        hex -> "down" (a face-down chit), "up:<value>" (face up), None
``vp_box``    the German Victory Chits Box: "minor"/"major" for a chit whose
              value nobody has seen, or an int for one seen face up before
``vp_minsk``  the chits the Soviet took through the Minsk escape (same form)
``vp_pool``   class -> the values not yet seen (public: the counter mix)
"""
from __future__ import annotations

from typing import Any

from pbem.game import Rng

MOSCOW_MODES = ("moscow", "choice_moscow")


def draw_value(state: dict[str, Any], cls: str, rng: Rng, purpose: str) -> int:
    """Turn up one chit of class ``cls``: its value comes from the pool."""
    pool = state["vp_pool"][cls]
    if not pool:
        raise ValueError(f"no {cls} VP chit values left in the pool")
    i = rng.draw(pool, purpose)
    return int(pool.pop(i))


def resolve(state: dict[str, Any], entry: Any, rng: Rng, purpose: str) -> int:
    """The value of a box or Minsk entry, drawing it if nobody has seen it."""
    if isinstance(entry, int):
        return entry
    return draw_value(state, entry, rng, purpose)


def score(directive: str | None, german: int, uncaptured: int, minsk: int,
          eliminated_motorized: int, minsk_doubled: bool = True) -> tuple[str, list[str]]:
    """16.3: the winner ("german", "soviet" or "draw") and the count line by
    line.  Objective Moscow! (rolled or chosen) doubles the uncaptured and
    Minsk chits and gives 6 per eliminated Panzer-Group unit (Minsk chits
    doubled too: rule-notes default 8 item 22); Hitler Distracted counts them
    once and 4 per unit.  Ties: German win when Moscow was rolled, draw when
    it was chosen through Guderian's Choice, draw under Hitler Distracted."""
    moscow = directive in MOSCOW_MODES or directive is None
    mult, per_unit = (2, 6) if moscow else (1, 4)
    minsk_mult = mult if minsk_doubled else 1
    soviet = mult * uncaptured + minsk_mult * minsk + per_unit * eliminated_motorized
    label = {"moscow": "Objective Moscow!", "choice_moscow": "Objective Moscow! (Guderian's Choice)",
             "distracted": "Hitler Distracted", "choice_distracted": "Hitler Distracted (Guderian's Choice)",
             None: "Objective Moscow! (no directive rolled)"}[directive]
    lines = [f"Directive: {label}",
             f"German: captured VP chits = {german}",
             (f"Soviet: {mult} x (uncaptured {uncaptured} + Minsk {minsk})" if minsk_mult == mult else
              f"Soviet: {mult} x uncaptured {uncaptured} + Minsk {minsk}")
             + f" + {per_unit} x {eliminated_motorized} eliminated motorized = {soviet}"]
    if soviet > german:
        winner = "soviet"
    elif german > soviet:
        winner = "german" if directive != "choice_moscow" else "draw"
    else:
        winner = "german" if directive in ("moscow", None) else "draw"
    if directive == "choice_moscow" and german >= soviet:
        lines.append("Moscow chosen and not taken: German at least equal is a draw (16.3.1)")
    elif winner == "german" and german == soviet:
        lines.append("Tie under Objective Moscow!: German wins (16.3.1)")
    elif winner == "draw":
        lines.append("Tie: draw (16.3.2)")
    lines.append({"german": "German victory", "soviet": "Soviet victory", "draw": "Draw"}[winner])
    return winner, lines
