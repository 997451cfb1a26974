"""What a seat may see of a Moscow '41 game, as data (a
:class:`pbem.game.View` that :mod:`pbem.render.view` draws): areas with
their blocks, as one side (or the public) may see them.

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

from pbem.game import TableBlock, TextBlock, View, seen_by

from . import mapdata
from . import mechanics as mx
from .model import SIDES, Scenario

PRACTICE = "PRACTICE DATA - not the publisher's map"


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


def view(sc: Scenario, state: dict[str, Any], seat: str | None) -> View:
    """What ``seat`` (None: anyone) may see: every area with its blocks and
    DL, and below it the public counts."""
    state = seen_by(state, seat)
    title = (f"Moscow '41 - turn {state['turn']} ({month_of(sc, state['turn'])}), "
             f"{state['phase']}, weather {state['weather']}, initiative {state['initiative']}")
    areas = sorted({v["area"] for v in state["tokens"].values() if v["area"]} | set(state["dl"]), key=mx.natural)
    rows = tuple((sc.area_label(area), state["control"].get(area, ""),
                  *(", ".join(block_text(sc, state, tok, seat) for tok in mx.tokens_in(state, area, s)) for s in SIDES),
                  state["dl"].get(area, "")) for area in areas)
    table = TableBlock("areas", ("area", "control", *SIDES, "DL"), rows, _footer(sc, state))
    # a bystander has no concealed blocks of his own and no sightings: only the lines that apply
    legend = LEGEND if seat is not None else (LEGEND[0], LEGEND[2])
    picture = mapdata.picture(sc, state, seat)      # the whole map: drawn on request (pbem map, --map all)
    return View(title, (table, TextBlock("legend", legend), picture),
                practice=(sc.notice or PRACTICE) if sc.practice else "")


LEGEND = (
    "G07 24PzK Panzer Corps:4  a block shown face up (a showdown, an active HQ): its identity and strength",
    "G07 [24PzK Panzer Corps:4]  your own concealed block: only you see inside the brackets",
    "G07 (black)  a concealed block of the other side: only its wood colour shows",
    "seen at turn T impulse I ...  what your program saw when it was last face up (may be out of date)",
)


def _words(mapping: dict[str, Any]) -> str:
    """``{"german": 2, "soviet": 1}`` as ``german 2, soviet 1``."""
    return ", ".join(f"{k} {v}" for k, v in mapping.items()) or "none"


def _footer(sc: Scenario, state: dict[str, Any]) -> str:
    vps = {s: mx.vp(state, sc, s) for s in SIDES}
    air = state.get("air", {}).get("ready", {})
    leaders = state["leaders"]
    leader_text = _words(leaders) if isinstance(leaders, dict) else str(leaders)
    return (f"VP: {_words(vps)}.  Leaders: {leader_text}.  Pools: {_words(state['pool_count'])}.  "
            f"Bombers ready: {_words(air)}.  Discs: {_words(state['discs'])}.  "
            f"German blocks lost: {state['german_lost']}; Soviet blocks surrendered: {state['surrendered']}.")
