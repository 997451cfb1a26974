"""The Advanced frames around the end of a phase: the capitulation of
Germany's allies (§14, ``profile.capitulation``) and the German pick of a
Support after a Dismissal (§16, ``profile.end_of_reich``).

Capitulation (``capitulate`` frame): at the end of the Soviet Combat phase
(Romania, 14.1) and of the Soviet Exploitation phase (Hungary, 14.2) the
Soviet player may play the *Ally Capitulation* Support from the TO South
box (a Support whose ``role`` is ``ally_capitulation``).  The opponent's
program cannot tell whether the box holds it, so the decision is asked
whenever the box is not empty and the nation may still be asked; its
standing order ``capitulate`` is ``never`` or ``ask``.  The Support goes
back to the pool at once, whatever the die (14.1).  A nation that changes
sides (14.3) fights for the Soviets: its HQs leave the game, 2D6 of its
units on the map are removed (full strength first; R-91: the weakest
first, the Soviet's interest), the rest wait in the Ally Capitulation box
and 1D6+3 come back each Soviet R&R phase (:mod:`rr`); the German may no
longer use Rail in that country.  Hungary's armistice removes every
Hungarian unit at the start of the next German player turn.
"""
from __future__ import annotations

from typing import Any

from pbem.game import Decision, Event, IllegalOrder
from pbem.games.vr import tables
from pbem.games.vr.model import GERMAN, SOVIET

NATION = {"rum": "Romania", "hun": "Hungary"}
WHEN = {"rum": "14.1", "hun": "14.2"}


def _names(r: Any, *words: str) -> set[str]:
    """Hexes whose place name is one of ``words`` (lower case)."""
    return {h for h, n in r.scn.map.names.items() if n.lower() in words}


def captured(r: Any, state: dict[str, Any]) -> set[str]:
    """What of 14.1's list the Soviets control now."""
    m = r.scn.map
    out = set()
    for key, words in (("iasi", ("iasi", "iași", "jassy")), ("chisinau", ("chisinau", "chișinău", "kishinev")),
                       ("galati", ("galati", "galați"))):
        hexes = _names(r, *words)
        if hexes and all(state["control"].get(h) == SOVIET for h in hexes):
            out.add(key)
    if any(state["control"].get(h) == SOVIET for h in m.capitals.get("romania", ())):
        out.add("bucharest")
    if any(state["control"].get(h) == SOVIET for h in m.oil_fields):
        out.add("oil")
    return out


def may_ask(r: Any, state: dict[str, Any], nat: str) -> bool:
    """The Soviet may try now: the rule is on, the nation is still
    Germany's ally (and Hungary has not refused for good), an Ally
    Capitulation Support exists, and the TO South box is not empty."""
    c = state.get("capitulation")
    if not r.profile.capitulation or c is None or state["allies"].get(nat) != GERMAN:
        return False
    if nat == "hun" and (c["hun_never"] or c["armistice"]):
        return False
    if nat == "hun" and not any(state["control"].get(h) == SOVIET for h in r.scn.map.capitals.get("hungary", ())):
        return False                                     # 14.2: a Budapest hex Soviet-controlled
    if not any(s.role == "ally_capitulation" and s.side == SOVIET for s in r.scn.supports.values()):
        return False
    box = state["supports"][SOVIET].get("box", {})
    return any(box.get(h) == "S" for h in state["supports"][SOVIET]["available"])


def ask_capitulate(r: Any, state: dict[str, Any], top: dict[str, Any]) -> Decision:
    nat = top["nation"]
    return Decision(SOVIET, "capitulate", f"play Ally Capitulation from TO S's box against {NATION[nat]} "
                    f"({WHEN[nat]}), or pass", ("pass",), policy="capitulate", hint="capitulate HANDLE")


def auto_capitulate(r: Any, state: dict[str, Any], top: dict[str, Any], rng: Any, events: list[Event]) -> bool:
    if top.get("done") or not may_ask(r, state, top["nation"]):
        r.pop(state, top)
        return True
    return False


def do_capitulate(r: Any, state: dict[str, Any], top: dict[str, Any], d: Decision, order: dict[str, Any],
                  rng: Any, events: list[Event]) -> None:
    if order["verb"] == "pass":
        top["done"] = True
        return
    if order["verb"] != "capitulate":
        raise IllegalOrder("capitulate HANDLE (the Ally Capitulation Support of TO S's box), or pass")
    shown = r.opened(state, SOVIET, order)
    h, val = next(iter(shown.items()))
    spec = r.scn.supports[val["support"]]
    if spec.role != "ally_capitulation":
        raise IllegalOrder(f"{spec.name} is not the Ally Capitulation Support (14)")
    if state["supports"][SOVIET].get("box", {}).get(h) != "S":
        raise IllegalOrder(f"{h} is not in TO S's box: Ally Capitulation is played from there (14)")
    nat = top["nation"]
    r.spend_support(state, SOVIET, h, val, events, why=f"Ally Capitulation against {NATION[nat]}; back to the "
                    "pool at once (14)")
    top["done"] = True
    die = rng.roll(6, f"{NATION[nat]} capitulation die ({WHEN[nat]})")
    if nat == "rum":
        took = captured(r, state)
        dead = sum(1 for u, x in state["units"].items() if r.scn.units[u].nationality == "rum"
                   and x["box"] == "eliminated")
        ok = tables.romania_capitulates(die, took, dead)
        events.append(Event(f"Romania: die {die}, captured {', '.join(sorted(took)) or 'nothing'}, "
                            f"{dead} Romanian unit(s) eliminated: " + ("Romania changes sides (14.1)" if ok else
                                                                        "no capitulation (14.1)")))
        if ok:
            change_sides(r, state, "rum", rng, events)
        return
    both = all(state["control"].get(h) == SOVIET for h in r.scn.map.capitals.get("hungary", ()))
    res = tables.hungary_result(die, both_budapest=both, romania_soviet=state["allies"].get("rum") == SOVIET)
    events.append(Event(f"Hungary: die {die}" + (" +1 (both Budapest hexes)" if both else "")
                        + (" -1 (Romania Soviet-allied)" if state["allies"].get("rum") == SOVIET else "")
                        + f": {res} (14.2)"))
    c = state["capitulation"]
    if res == "never":
        c["hun_never"] = True
        events.append(Event("Hungary will not capitulate until the end of the game (14.2)"))
    elif res == "armistice":
        c["armistice"] = True
        events.append(Event("armistice: every Hungarian unit leaves play at the start of the next German turn (14.2)"))
    elif res == "switch":
        change_sides(r, state, "hun", rng, events)


def change_sides(r: Any, state: dict[str, Any], nat: str, rng: Any, events: list[Event]) -> None:
    """14.3: the side change."""
    state["allies"][nat] = SOVIET
    mine = sorted(u for u, x in state["units"].items() if r.scn.units[u].nationality == nat)
    for u in mine:
        state["units"][u]["side"] = SOVIET
    on_map = [u for u in mine if state["units"][u]["hex"]]
    for u in [u for u in on_map if r.scn.units[u].is_hq]:
        state["units"][u].update(hex=None, box="removed", oos=False)
        events.append(Event(f"{u} (HQ) is removed from the game (14.3)"))
    rest = [u for u in on_map if not r.scn.units[u].is_hq]
    n = rng.roll(6, "former-ally units removed, die 1 (14.3)") + rng.roll(6, "former-ally units removed, die 2")

    def key(u: str) -> tuple[int, int, str]:
        full = state["units"][u]["steps"] >= r.scn.units[u].steps
        return (0 if full else 1, r.scn.units[u].attack + r.scn.units[u].defense, u)
    gone = sorted(rest, key=key)[:n]
    for u in gone:
        state["units"][u].update(hex=None, box="removed", oos=False, exploit=False)
    for u in rest:
        if u not in gone:
            state["units"][u].update(hex=None, box="ally_box", oos=False, exploit=False)
    events.append(Event(f"{NATION[nat]} joins the Soviet side: 2D6 {n}: removed from the game "
                        f"{' '.join(gone) or 'none'} (full strength first, R-91); to the Ally Capitulation box "
                        f"{' '.join(u for u in rest if u not in gone) or 'none'} (14.3)"))
    for h in list(state["haltebefehl"]):
        if not any(x["hex"] == h and x["side"] == GERMAN for x in state["units"].values()):
            del state["haltebefehl"][h]


def armistice(r: Any, state: dict[str, Any], events: list[Event]) -> None:
    """14.2: at the start of the German player turn after a 6."""
    c = state.get("capitulation")
    if not c or not c["armistice"] or c.get("armistice_done"):
        return
    c["armistice_done"] = True
    gone = sorted(u for u, x in state["units"].items() if r.scn.units[u].nationality == "hun"
                  and x["box"] not in ("removed",))
    for u in gone:
        state["units"][u].update(hex=None, box="removed", oos=False, exploit=False)
    state["allies"]["hun"] = "out"
    events.append(Event(f"Hungarian armistice: {' '.join(gone) or 'no unit'} removed from play (14.2)"))


# ------------------------------------------------ the Dismissal pick (§16)
def ask_eorpick(r: Any, state: dict[str, Any], top: dict[str, Any]) -> Decision:
    return Decision(GERMAN, "eor-pick", f"after the Dismissal: pick {top['n']} Support(s) of the pool in secret "
                    "(15.3.1, 16.2, R-52)", (), hint="pick SUPPORT-ID (sealed: never shown in the public copy)")


def do_eorpick(r: Any, state: dict[str, Any], top: dict[str, Any], d: Decision, order: dict[str, Any],
               rng: Any, events: list[Event]) -> None:
    from pbem.games.vr.seq_support import draw_into
    if order["verb"] != "pick":
        raise IllegalOrder("pick SUPPORT-ID: the Support taken from the pool after the Dismissal (16.2)")
    mine = state["hidden"].get(GERMAN)
    pick = (order.get("secret") or {}).get("pick")
    if mine is not None:
        if not isinstance(pick, str):
            raise IllegalOrder("pick SUPPORT-ID: name the Support you take")
        spec = r.scn.supports.get(pick)
        if spec is None or spec.side != GERMAN:
            raise IllegalOrder(f"{pick!r} is not a German Support")
    new = draw_into(r, state, GERMAN, 1, rng, pick=pick or "?")
    top["new"] = top.get("new", []) + new
    top["n"] -= 1
    events.append(Event(f"the German picks one Support of the pool in secret ({', '.join(new)}) (16.2, R-52)"))
    if top["n"] <= 0 or not new:
        r.pop(state, top)
        parent = state["stack"][-1]
        parent["picked"] = parent.get("picked", 0) + len(top["new"])
        parent.setdefault("picked_new", []).extend(top["new"])
