"""A situation report for Moscow '41: areas with their blocks, as one side
(or the public) may see them.

What each viewer sees (1.5 fog of war): his own blocks with identity and
strength (from his hidden part); the opponent's blocks only as tokens with
their wood colour and position, unless face up (HQ activation until its
deactivation, 10.17; a showdown until the battle ends, and for attackers in
a still-contested area after it, 10.15; face-up set-up).  Once an enemy
block is concealed again the public state forgets it; the viewer's own
program keeps a dated note of what it last saw ("seen at turn T impulse
I: ..., may be out of date") in its own hidden part.  Leaders' strengths,
bombers, discs, pools and losses are public counts.
"""
from __future__ import annotations

from typing import Any

from . import mechanics as mx
from .model import SIDES, Scenario


def month_of(sc: Scenario, turn: int) -> str:
    """The month of ``turn``; once the last turn is over (the turn counter
    has moved past it), "after" the last month."""
    months = sc.sequence["months"]
    return months[turn - 1] if 1 <= turn <= len(months) else f"after {months[-1]}"


def block_text(sc: Scenario, state: dict[str, Any], tok: str, viewer: str | None) -> str:
    """One block as ``viewer`` may see it."""
    v = state["tokens"][tok]
    hidden = (state.get("hidden") or {}).get(viewer) if viewer else None
    if v["revealed"]:
        text = f"{tok} {v['block']} {sc.spec(v['block']).name}:{v['strength']}"
    elif hidden is not None and v["side"] == viewer and tok in hidden["blocks"]:
        e = hidden["blocks"][tok]
        text = f"{tok} [{e['block']} {sc.spec(e['block']).name}:{e['strength']}]"
    else:
        text = f"{tok} ({v['colour']})"
        seen = (hidden or {}).get("seen", {}).get(tok) if v["side"] != viewer else None
        if seen:
            # the viewer's own program remembers what it saw; the public state does not (10.15)
            text += (f" seen at turn {seen['turn']} impulse {seen['impulse']}: {sc.spec(seen['block']).name}, "
                     f"strength {seen['strength']} (may be out of date)")
    if v.get("cube"):
        text += " (isolated)"
    return text


def sitrep(sc: Scenario, state: dict[str, Any], side: str | None) -> Any:
    from rich.table import Table

    title = (f"Moscow '41 - turn {state['turn']} ({month_of(sc, state['turn'])}), "
             f"{state['phase']}, weather {state['weather']}, initiative {state['initiative']}")
    table = Table(title=title)
    for col in ("area", "control", "german", "soviet", "DL"):
        table.add_column(col)
    areas = sorted({v["area"] for v in state["tokens"].values() if v["area"]} | set(state["dl"]), key=mx.natural)
    for area in areas:
        cells = [", ".join(block_text(sc, state, tok, side) for tok in mx.tokens_in(state, area, s)) for s in SIDES]
        table.add_row(sc.area_label(area), state["control"].get(area, ""), *cells, state["dl"].get(area, ""))
    vps = {s: mx.vp(state, sc, s) for s in SIDES}
    air = state.get("air", {}).get("ready", {})
    table.caption = (f"VP german {vps['german']} soviet {vps['soviet']}; leaders {state['leaders']}; "
                     f"pools {state['pool_count']}; bombers ready {air}; discs {state['discs']}; "
                     f"lost german {state['german_lost']} soviet surrendered {state['surrendered']}")
    if sc.practice:
        from rich.console import Group
        from rich.text import Text

        return Group(Text(sc.notice or "PRACTICE DATA - not the publisher's map", style="bold yellow"), table)
    return table
