"""Support markers (§1.5, §5) on the core's hidden-item service.

Every Support counter is a *copy* ``(id, n)``: the card's pool lists how
many of each (an Air Support may come three times) and the schedule adds
more (17.1).  Where a copy is, is public except for one thing: which copy
lies face down under each handle of an "Available Supports" box (5.1.2,
5.1.4).  So the public state keeps, per side::

    "available": ["s-3", "s-7"],        # face-down handles (the count is public)
    "drawn_on": {"s-3": 2, ...},        # the turn each handle was drawn
    "played": [["air_support", 2]],     # face up: Events played, back at the next own Support phase
    "attached": {"tk_a": ["rybalko", 1]},   # leaders on a unit (5.4.4)
    "extra": {"katyushas": 1},          # copies the schedule has added
    "next": 8                           # the next handle number

and the owner's hidden part ``state["hidden"][side]["items"]`` maps each
handle to ``{"support": id, "copy": n, "turn": t}``.  The pool is what is
left: every copy not under a handle and not face up; its *size* is public,
its contents known only to the owner (who knows his handles).  A draw is
the owner's secret stream picking from the pool (``rng.secret``); the other
programs only add a handle.  Playing or spending a Support opens its
handle: the core checks the opening against the committed root and
:func:`check_opening` checks the copy could be there.
"""
from __future__ import annotations

from typing import Any

from pbem.game import Event
from pbem.games.vr.model import SIDES, Scenario

Copy = tuple[str, int]
PREFIX = {"soviet": "s", "german": "g"}


def new_state(scn: Scenario) -> dict[str, Any]:
    return {side: {"available": [], "drawn_on": {}, "played": [], "attached": {}, "extra": {}, "next": 1}
            for side in SIDES}


def copies(scn: Scenario, sup: dict[str, Any], side: str) -> list[Copy]:
    """Every copy of ``side``'s Supports now in the game."""
    counts = dict(scn.card.pools.get(side, {}))
    for sid, n in sup[side]["extra"].items():
        counts[sid] = counts.get(sid, 0) + n
    gone = {(c[0], c[1]) for c in sup[side].get("gone", ())}      # 19.1.2: Stalin passed to the German
    return [(sid, k) for sid in sorted(counts) for k in range(1, counts[sid] + 1) if (sid, k) not in gone]


def face_up(sup: dict[str, Any], side: str) -> set[Copy]:
    s = sup[side]
    return {(c[0], c[1]) for c in s["played"]} | {(c[0], c[1]) for c in s["attached"].values()}


def pool_size(scn: Scenario, sup: dict[str, Any], side: str) -> int:
    """Public: copies neither face down in the box nor face up on the map
    (with the End-of-Reich Supports added face down to the pool, 16.2.1)."""
    return len(copies(scn, sup, side)) + len(sup[side].get("eor", ())) - len(sup[side]["available"]) \
        - len(face_up(sup, side))


def added(sup: dict[str, Any], side: str, items: dict[str, Any]) -> list[Copy]:
    """The End-of-Reich Supports added to the pool, as their owner knows
    them (``e-N`` handles: ``{"eor": id}``; one copy each)."""
    return sorted((items[h]["eor"], 1) for h in sup[side].get("eor", ()) if h in items)


def pool(scn: Scenario, sup: dict[str, Any], side: str, items: dict[str, Any]) -> list[Copy]:
    """The owner's view of the pool (needs his hidden items)."""
    held = {(v["support"], v["copy"]) for h, v in items.items() if h in sup[side]["available"]}
    return [c for c in copies(scn, sup, side) + added(sup, side, items)
            if c not in held and c not in face_up(sup, side)]


def check_value(scn: Scenario, sup: dict[str, Any], side: str, handle: str, value: Any) -> str | None:
    """Why ``value`` cannot be the Support under ``handle`` (an opening)."""
    s = sup[side]
    if handle not in s["available"]:
        return f"{handle} is not a face-down {side} Support"
    if not isinstance(value, dict) or set(value) != {"support", "copy", "turn"}:
        return "not a Support, its copy and its draw turn"
    sid, k, turn = value["support"], value["copy"], value["turn"]
    spec = scn.supports.get(sid) if isinstance(sid, str) else None
    if spec is None or spec.side != side:
        return f"{sid!r} is not a {side} Support"
    eor = spec.kind == "end_of_reich" and k == 1 and bool(s.get("eor"))     # 16.2.1: added face down
    if (sid, k) not in copies(scn, sup, side) and not eor:
        return f"the {side} pool never held a copy {k} of {sid}"
    if turn != s["drawn_on"].get(handle):
        return f"{handle} was drawn on turn {s['drawn_on'].get(handle)}, not {turn!r}"
    if (sid, k) in face_up(sup, side):
        return f"{sid} copy {k} is face up on the map, so it is not in the box"
    return None


def stalin_event(r: Any, state: dict[str, Any], sid: str, to: str, rng: Any, events: list[Event]) -> None:
    """11.5.2: Stalin is played first and its die is rolled at once, on the
    TO whose box drew it (19.1.2: or the TO the German names once Warsaw
    fell; none in Basic).  The roll is public (``state["stalin_event"]``);
    what each result does is the Supports player aid's, which the rulebook
    does not print: the scenario's ``results`` text, else MISSING (6.7.11:
    Haltebefehl markers may change it, also on the aid)."""
    die = rng.roll(6, "Stalin Event (11.5.2)")
    state["stalin_event"] = {"turn": state["turn"], "to": to, "die": die, "support": sid}
    events.append(Event(stalin_text(r, state["stalin_event"])))


def stalin_text(r: Any, se: dict[str, Any]) -> str:
    """One line for a Stalin roll (the log and the sitrep)."""
    spec = r.scn.supports[se.get("support") or next(s for s, x in sorted(r.scn.supports.items())
                                                    if x.role == "stalin")]
    die = int(se["die"])
    what = spec.results[die - 1] if spec.results else \
        "MISSING: the Supports player aid (not in the rulebook) gives what this result does, and how " \
        "Haltebefehl markers change it (6.7.11)"
    where = f" on TO {se['to']}" if se.get("to") else ""
    return f"{spec.name}{where}: die {die} (11.5.2): {what}"
