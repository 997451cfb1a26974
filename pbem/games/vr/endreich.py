"""End of Reich (§16, ``profile.end_of_reich``).

``state["eor"] = {"square": 6, "entered": [6], "next": 1}``: the End of
Reich marker's square (the objectives held when last checked; it never
moves back, 16.1.3) and the squares it has entered; the sealed handles of
the End-of-Reich Supports added to the German pool are
``state["supports"]["german"]["eor"]`` (the pool's public part).

* The six Strategic Objectives (16.1.1) are ``[map.objectives]`` "1".."6";
  how many hexes of each the German must control is :data:`NEED`
  (objective 1 every City in Germany but Berlin, 2 one Major City in the
  USSR or Baltic port, 3 two of the Silesian cities, 4 the oil field, 5 one
  hex of Budapest, 6 Berlin).  An objective a map does not show counts as
  held (R-90).
* They are checked at the end of the German Exploitation phase (16.1.2):
  the first time the marker enters a square, that square's number of
  End-of-Reich Supports join the German pool **at random, in secret**: the
  German secret stream picks which, every program adds only a sealed
  handle ``e-N`` (the pool's size is public, its contents the owner's).
* While all six are held: +1 German draw (11.4.2, not after a Dismissal;
  Q-14: the objectives held now).
* After a Dismissal the German draws what the track's square gives, of
  which ``dismissal_chosen`` are picked from the pool in secret (R-52),
  the pick sealed in the order like the Large Offensive's (11.3.2).
* Last mobilization (16.2.1) from the first objective lost: see
  :mod:`pbem.games.vr.rr`.
"""
from __future__ import annotations

from typing import Any

from pbem.game import Event
from pbem.games.vr.model import GERMAN

NEED: dict[int, int | None] = {1: None, 2: 1, 3: 2, 4: None, 5: 1, 6: None}     # None: every hex listed


def active(r: Any) -> bool:
    return bool(r.profile.end_of_reich and r.scn.end_of_reich is not None)


def new_state(r: Any) -> dict[str, Any] | None:
    if not active(r):
        return None
    square = int(r.scn.card.markers.get("end_of_reich", 6))
    return {"square": square, "entered": [square], "next": 1}


def held(r: Any, state: dict[str, Any], k: int) -> bool:
    hexes = r.scn.map.objectives.get(k)
    if not hexes:
        return True                                  # not on this map
    mine = sum(1 for h in hexes if state["control"].get(h) == GERMAN)
    need = NEED[k]
    return mine == len(hexes) if need is None else mine >= min(need, len(hexes))


def objectives_held(r: Any, state: dict[str, Any]) -> int:
    return sum(1 for k in range(1, 7) if held(r, state, k))


def mobilization(r: Any, state: dict[str, Any]) -> bool:
    """16.2.1: last mobilization runs from the first objective lost."""
    e = state.get("eor")
    return e is not None and int(e["square"]) < 6


def eor_supports(r: Any) -> list[str]:
    return sorted(s.id for s in r.scn.supports.values() if s.side == GERMAN and s.kind == "end_of_reich")


def check(r: Any, state: dict[str, Any], rng: Any, events: list[Event]) -> None:
    """16.1.2: the end of the German Exploitation phase."""
    e = state.get("eor")
    if not e:
        return
    n = objectives_held(r, state)
    if n >= e["square"]:
        events.append(Event(f"End of Reich: the German holds {n} Strategic Objective(s); the marker stays on "
                            f"{e['square']} (16.1.2)"))
        return
    before = e["square"]
    e["square"] = n
    events.append(Event(f"End of Reich: the German holds {n} Strategic Objective(s): the marker moves "
                        f"{before} -> {n} and never moves back (16.1.3)"))
    if n in e["entered"]:
        return
    e["entered"].append(n)
    add = r.scn.end_of_reich.added.get(n, 0)
    _add_supports(r, state, add, rng, events)


def _add_supports(r: Any, state: dict[str, Any], n: int, rng: Any, events: list[Event]) -> None:
    """16.2.1: ``n`` End-of-Reich Supports into the German pool at random."""
    e = state["eor"]
    added = state["supports"][GERMAN].setdefault("eor", [])
    n = min(n, len(eor_supports(r)) - len(added))
    if n <= 0:
        return
    srng = rng.secret(GERMAN)
    mine = state["hidden"].get(GERMAN)
    new = []
    for _ in range(n):
        h = f"e-{e['next']}"
        e["next"] += 1
        if srng is not None and mine is not None:
            taken = {v["eor"] for k, v in mine["items"].items() if k in added}
            left = [s for s in eor_supports(r) if s not in taken]
            mine["items"][h] = {"eor": left[srng.draw(left, "End-of-Reich Support added (16.2.1)")]}
        added.append(h)
        new.append(h)
    events.append(Event(f"End of Reich: {n} End-of-Reich Support(s) join the German pool at random, face down "
                        f"({', '.join(new)}) (16.2.1)"))


def draw_bonus(r: Any, state: dict[str, Any]) -> int:
    """11.4.2: +1 while all six objectives are held."""
    return 1 if active(r) and objectives_held(r, state) == 6 else 0


def dismissal_draws(r: Any, state: dict[str, Any]) -> tuple[int, int]:
    """15.3.1, 16.2, R-52, R-53: (Supports drawn, of which chosen) after a
    Dismissal, read on the marker's square."""
    sq = state["eor"]["square"]
    t = r.scn.end_of_reich
    return t.dismissal_draws.get(sq, 0), t.dismissal_chosen.get(sq, 0)
