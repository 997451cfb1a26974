"""The Warsaw uprising (§19, behind ``warsaw``; the campaign).

Warsaw is the hex ``[map.names]`` calls "Warsaw".  ``state["warsaw"]``
stays None until the uprising begins, then::

    {"hex": "4426", "start": 3,      # the Insurrection and Start markers (19.1.1)
     "active": True,                  # the Insurrection marker is on the city
     "stalin": False}                 # the German holds the Stalin Support (19.1.2)

* 19.1.1, Q-24: the first time, in a Soviet Movement phase, that a Soviet
  unit stands within two hexes of Warsaw while a German unit occupies it
  (checked after each Soviet move and when the phase ends).
* 19.1.2: while the marker is on the city, a Soviet attack on it gets two
  columns; a Soviet attack that empties it must advance into it, and then
  the markers go and the Stalin Support passes to the German player, who
  from then on names the TO it is played on in every Soviet Support phase
  (Q-13; a red disk is always face up or in the pool, so the handover is
  public).
* 19.1.2, R-59, R-96: at the end of each German Exploitation phase (after
  the objectives' check, 16.1.2) the Soviet rolls 1D6 plus the turns since
  the start: 5, the German loses a step of a unit of his pick in Warsaw; 6
  or more, the markers go; and they go whenever no German unit is left.
"""
from __future__ import annotations

from typing import Any

from pbem.game import Decision, Event, IllegalOrder
from pbem.games.vr.model import GERMAN, SOVIET

SHIFT = 2                    # 19.1.2
TRIGGER = 2                  # 19.1.1: within two hexes
NAMES = ("warsaw", "warszawa")


def city(r: Any) -> str | None:
    for h, name in sorted(r.scn.map.names.items()):
        if name.strip().lower() in NAMES:
            return str(h)
    return None


def active(r: Any, state: dict[str, Any]) -> bool:
    w = state.get("warsaw")
    return bool(r.profile.warsaw and w and w.get("active"))


def _germans(r: Any, state: dict[str, Any], h: str) -> list[str]:
    b = r.board(state)
    return [u for u in b.units_at(h) if b.side_of(u) == GERMAN and r.scn.units[u].nationality == "ger"]


def check_trigger(r: Any, state: dict[str, Any], events: list[Event]) -> None:
    """19.1.1 (called in the Soviet Movement phase)."""
    if not r.profile.warsaw or state.get("warsaw") is not None:
        return
    h = city(r)
    if h is None or not _germans(r, state, h):
        return
    b = r.board(state)
    near = sorted(u for u in b.on_map(SOVIET) if r.scn.map.distance(b.unit(u)["hex"], h) <= TRIGGER)
    if not near:
        return
    state["warsaw"] = {"hex": h, "start": state["turn"], "active": True, "stalin": False}
    events.append(Event(f"the Warsaw uprising begins: {near[0]} stands within two hexes of German-held Warsaw "
                        f"({h}); the Start marker goes on turn {state['turn']} (19.1.1)"))


def shift(r: Any, state: dict[str, Any], f: dict[str, Any]) -> int:
    """19.1.2: two columns for a Soviet attack on the city."""
    if active(r, state) and f["side"] == SOVIET and f["hex"] == state["warsaw"]["hex"]:
        return SHIFT
    return 0


def stormed(r: Any, state: dict[str, Any], f: dict[str, Any], events: list[Event]) -> None:
    """19.1.2: a Soviet attack on the city emptied it: the attacker must
    advance (``f["warsaw"]``), the markers go, the German gets Stalin."""
    if not active(r, state) or f["side"] != SOVIET or f["hex"] != state["warsaw"]["hex"]:
        return
    b = r.board(state)
    if any(b.side_of(u) == GERMAN for u in b.units_at(f["hex"])):
        return
    w = state["warsaw"]
    w.update(active=False, stalin=True)
    f["warsaw"] = True
    sup = state["supports"][SOVIET]
    gone = sup.setdefault("gone", [])
    for sid, spec in sorted(r.scn.supports.items()):
        if spec.side == SOVIET and spec.role == "stalin":
            counts = dict(r.scn.card.pools.get(SOVIET, {}))
            n = counts.get(sid, 0) + sup["extra"].get(sid, 0)
            for k in range(1, n + 1):
                if [sid, k] not in gone:
                    gone.append([sid, k])
            sup["played"] = [c for c in sup["played"] if c[0] != sid]
    events.append(Event(f"Warsaw ({w['hex']}) is stormed: the Soviet must advance into it; the uprising markers "
                        "are removed and the Stalin Support passes to the German player (19.1.2)"))


def must_advance(f: dict[str, Any]) -> bool:
    return bool(f.get("warsaw"))


def roll(r: Any, state: dict[str, Any], rng: Any, events: list[Event]) -> bool:
    """19.1.2 at the end of the German Exploitation phase; True when the
    German must pick the unit that loses a step."""
    if not active(r, state):
        return False
    w = state["warsaw"]
    elapsed = state["turn"] - w["start"]
    die = rng.roll(6, "Warsaw uprising (19.1.2)")
    total = die + elapsed
    here = _germans(r, state, w["hex"])
    if total >= 6:
        w["active"] = False
        events.append(Event(f"Warsaw uprising: die {die} + {elapsed} = {total}: the uprising is over, its markers "
                            "are removed (19.1.2)"))
        return False
    if total == 5 and here:
        events.append(Event(f"Warsaw uprising: die {die} + {elapsed} = 5: a German unit in Warsaw loses a step "
                            "(19.1.2)"))
        if len(here) == 1:
            lose_step(r, state, here[0], events)
            return False
        state["stack"].append({"k": "warsaw"})
        return True
    events.append(Event(f"Warsaw uprising: die {die} + {elapsed} = {total}: no effect (19.1.2)"))
    _emptied(r, state, events)
    return False


def lose_step(r: Any, state: dict[str, Any], uid: str, events: list[Event]) -> None:
    x = state["units"][uid]
    if x["steps"] > 1:
        x["steps"] -= 1
        events.append(Event(f"{uid} loses a step in the Warsaw uprising (19.1.2)"))
    else:
        r.eliminate(state, uid, events, why="the Warsaw uprising (19.1.2)")
    _emptied(r, state, events)


def _emptied(r: Any, state: dict[str, Any], events: list[Event]) -> None:
    w = state["warsaw"]
    if w["active"] and not _germans(r, state, w["hex"]):
        w["active"] = False
        events.append(Event("no German unit is left in Warsaw: the uprising markers are removed (19.1.2)"))


def ask_warsaw(r: Any, state: dict[str, Any], top: dict[str, Any]) -> Decision:
    here = _germans(r, state, state["warsaw"]["hex"])
    return Decision(GERMAN, "warsaw-loss", "the Warsaw uprising: one German unit in Warsaw loses a step (19.1.2)",
                    tuple(f"loss {u} 1" for u in here), policy="losses")


def do_warsaw(r: Any, state: dict[str, Any], top: dict[str, Any], d: Decision, order: dict[str, Any],
              rng: Any, events: list[Event]) -> None:
    if r.format(order) not in d.options:
        raise IllegalOrder(f"one German unit in Warsaw loses a step: {', '.join(d.options)} (19.1.2)")
    lose_step(r, state, next(iter(order["steps"])), events)
    r.pop(state, top)


# --------------------------------------------------------- Stalin (19.1.2)
def stalin_owed(r: Any, state: dict[str, Any]) -> bool:
    """The German names Stalin's TO in this Soviet Support phase."""
    from pbem.games.vr import tos
    w = state.get("warsaw")
    return bool(r.profile.warsaw and w and w.get("stalin") and state.get("tos")
                and tos.turn_state(state).get("stalin") is None)


def stalin_decision(r: Any, state: dict[str, Any]) -> Decision:
    return Decision(GERMAN, "stalin-to", "you hold the Stalin Support since Warsaw fell (19.1.2): name the TO the "
                    "Soviet player must play it on this Support phase, or pass",
                    tuple(f"stalin {to}" for to in sorted(state["tos"])) + ("pass",), policy="stalin-to")


def stalin_order(r: Any, state: dict[str, Any], order: dict[str, Any], rng: Any, events: list[Event]) -> None:
    from pbem.games.vr import supports, tos
    t = tos.turn_state(state)
    if order["verb"] == "pass":
        t["stalin"] = ""
        events.append(Event("the German does not force the Stalin Support this turn (19.1.2)"))
        return
    if order["verb"] != "stalin" or order.get("to") not in state["tos"]:
        raise IllegalOrder(f"stalin TO (one of {' '.join(sorted(state['tos']))}), or pass (19.1.2)")
    t["stalin"] = order["to"]
    events.append(Event(f"the German forces the Stalin Support on TO {order['to']}: the Soviet plays it there "
                        "(19.1.2)"))
    sid = next((s for s, x in sorted(r.scn.supports.items()) if x.side == SOVIET and x.role == "stalin"), None)
    if sid is not None:
        supports.stalin_event(r, state, sid, order["to"], rng, events)          # 11.5.2: its die at once
