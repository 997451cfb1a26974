"""The Führer's Approval track (§15): the Approval level, the Freedom of
Action marker, the Maximum Satisfaction marker and Dismissals, as data in
``state["approval"]`` read from the card's markers and the file's
``[approval]`` track.

It is an Advanced rule (``profile.approval_track``) that the Basic rules
lean on: Withdrawal against the Führer's will (4.7) and Abandon equipment
(6.3) are priced on it, so a Basic card that places the markers switches it
on (R-13) and then §15 applies as written::

    state["approval"] = {"level": 8, "foa": 0, "max": None, "dismissals": 0,
                         "flipped": False,     # 15.3.1 the reminder, flipped back next turn
                         "moves": False,       # the next German Movement phase is halved, no Strategic
                         "no_rp": False,       # no replacements in the next (or this) R&R phase
                         "eor_draw": False}    # the next German draw reads the End of Reich track

:func:`change` moves the level; reaching 0 is a Dismissal at once (15.3),
and a loss beyond 0 is taken after the reset (the Memel example, T27).
"""
from __future__ import annotations

from typing import Any

from pbem.game import Event
from pbem.games.vr.tables import dismissal_reset


def active(r: Any) -> bool:
    return bool(r.profile.approval_track and r.scn.approval is not None)


def new_state(r: Any) -> dict[str, Any] | None:
    if not active(r):
        return None
    m = r.scn.card.markers
    return {"level": int(m.get("approval", top(r))), "foa": int(m.get("foa", 0)),
            "max": int(m["max_satisfaction"]) if "max_satisfaction" in m else None,
            "dismissals": int(m.get("dismissals", 0)), "flipped": False, "moves": False, "no_rp": False,
            "eor_draw": False}


def top(r: Any) -> int:
    """The highest square of the track."""
    return max(r.scn.approval.levels)


def cap(r: Any, a: dict[str, Any]) -> int:
    """15.3.2: never above the Maximum Satisfaction marker (R-61: none
    before the second Dismissal places it), nor the track's top."""
    return min(top(r), a["max"]) if a["max"] is not None else top(r)


def change(r: Any, state: dict[str, Any], delta: int, events: list[Event], why: str) -> None:
    """Move the Approval level by ``delta`` (15.2); a Dismissal when it
    reaches 0 (15.3), any further loss applied after the reset."""
    a = state.get("approval")
    if a is None or delta == 0:
        return
    before = a["level"]
    if delta > 0:
        a["level"] = min(cap(r, a), before + delta)
        events.append(Event(f"Führer's Approval {before} -> {a['level']}: {why} (15.2.2)"))
        return
    level = before + delta
    if level > 0:
        a["level"] = level
        events.append(Event(f"Führer's Approval {before} -> {level}: {why} (15.2.1)"))
        return
    leftover = -level
    events.append(Event(f"Führer's Approval {before} -> 0: {why} (15.2.1)"))
    dismiss(r, state, events)
    if leftover:
        reset = a["level"]
        a["level"] = max(0, reset - leftover)
        events.append(Event(f"Führer's Approval {reset} -> {a['level']}: the rest of the loss (15.3, T27)"))
        if a["level"] <= 0:
            dismiss(r, state, events)


def dismiss(r: Any, state: dict[str, Any], events: list[Event]) -> None:
    """15.3: every German Available Support back to the pool; no
    replacements; the next draw from the End of Reich track; the next
    German Movement phase halved without Strategic Movement; the marker
    reset (10, 9, 8, then 7; the Maximum Satisfaction marker with it from
    the second Dismissal) and flipped."""
    a = state["approval"]
    a["dismissals"] += 1
    reset = dismissal_reset(a["dismissals"], r.scn.approval.resets)
    a["level"] = reset
    if a["dismissals"] >= 2:
        a["max"] = reset
    a.update(flipped=True, moves=True, no_rp=True, eor_draw=True)
    sup = state["supports"]["german"]
    lost = list(sup["available"])
    for h in lost:
        r.return_handle(state, "german", h)
    events.append(Event(f"Dismissal no. {a['dismissals']} (15.3): {len(lost)} German Available Support(s) back to "
                        f"the pool; Approval reset to {reset}; the next German Movement phase is halved without "
                        "Strategic Movement; no replacements"))


def sites(r: Any, state: dict[str, Any], events: list[Event]) -> None:
    """15.2.1, 15.2.2: a Strategic Site (``[map.sites]``, hex -> value) the
    Soviet takes from the German lowers Approval by its value; one of those
    the German takes back raises it by the same value (R-300).  Called
    whenever control may have changed; ``a["lost"]`` lists the sites the
    Soviet holds after taking them from the German.  6.7.10's Haltebefehl
    variant is on the missing player aid (R-301)."""
    a = state.get("approval")
    if a is None or not r.scn.map.sites:
        return
    held = a.setdefault("sites", {h: r.scn.map.initial_control.get(h) for h in r.scn.map.sites})
    lost = a.setdefault("lost", [])
    for h, value in sorted(r.scn.map.sites.items()):
        now, before = state["control"].get(h), held.get(h)
        if now == before:
            continue
        held[h] = now
        name = r.scn.map.names.get(h, h)
        if now == "soviet" and before == "german":
            lost.append(h)
            change(r, state, -value, events, f"the Soviet captures the Strategic Site {name}")
        elif now == "german" and h in lost:
            lost.remove(h)
            change(r, state, value, events, f"the German takes back the Strategic Site {name}")


def objective_one_lost(r: Any, state: dict[str, Any]) -> bool:
    """15.2.1: Strategic Objective 1 (every City in Germany but Berlin,
    16.1.1) is lost, or was lost once: the automatic loss of the German R&R
    phase stops for good (R-306); never on a map that names no such
    objective."""
    a = state.get("approval")
    if a is not None and a.get("obj1_lost"):
        return True
    hexes = r.scn.map.objectives.get(1)
    lost = bool(hexes) and any(state["control"].get(h) != "german" for h in hexes)
    if lost and a is not None:
        a["obj1_lost"] = True
    return lost


def freedom_of_action(r: Any, state: dict[str, Any], events: list[Event], why: str) -> None:
    """4.7.2 / 6.3: Freedom of Action one box on, then Approval down by the
    value of the box reached (15.1.4)."""
    a = state["approval"]
    values = r.scn.approval.foa_values
    a["foa"] = min(a["foa"] + 1, len(values) - 1)
    value = values[a["foa"]]
    events.append(Event(f"Freedom of Action to box {a['foa']} (value {value}) after {why}"))
    change(r, state, -value, events, f"{why} (Freedom of Action box {a['foa']})")


def refusal(r: Any, state: dict[str, Any], what: str) -> str | None:
    if not active(r):
        return f"{what} needs the Führer's Approval track, which this scenario does not use (R-13)"
    return None
