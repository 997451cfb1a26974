"""Replacement points (§17.3, behind ``rr_procedure``).

At the start of a side's R&R phase the side receives its RP
(:func:`income`): the Soviet player the schedule's ``rp.sov`` (17.3.1); the
German player the Approval track's RP for German units, none on the
game's first turn or after a Dismissal this turn (17.3.2), plus the
schedule's ``rp.hun`` and ``rp.rum`` while those nations are allied
(17.3.3); nothing at all once a withdrawal failed (18.1.2, R-58).  RP are
kept by nationality in the R&R frame (``top["rp"]``) and die with it
(17.3.4: never carried over).

Each ``rebuild`` order spends one RP of the unit's nationality
(:func:`refusal` says why one cannot):

* a German-side division on the map, reduced, flips to full (17.3.6);
* an eliminated German-side division comes back reduced into a hex with a
  supplied HQ of its nationality (17.3.6, 17.3.11), an Elite one as next
  turn's reinforcement instead (17.3.11's exception, R-95);
* an armored German division, on the map or eliminated, also costs one
  Support, any but an End-of-Reich Support (17.3.7, 1.5.2);
* an eliminated HQ arrives in a Major City of its nationality (17.3.5);
* ``rebuild corps``: one Soviet infantry corps drawn from the pile in
  secret, Standard Mode (17.3.8, the draw of :mod:`pbem.games.vr.rr`);
* an eliminated Soviet armored corps goes to the Stavka box at full
  strength for one RP and one Support (17.3.9, 12.2.5);
* a reduced Soviet armored corps on the map within a TO's Operation Range
  flips for one RP and one Support from that TO's box (17.3.10).

17.3.12 (:func:`pbem.games.vr.rr.replacement_refusal`) refuses every step
for a unit on the map and, for a unit brought back, the hex it would stand
in (R-95).
"""
from __future__ import annotations

from typing import Any

from pbem.game import Event, IllegalOrder
from pbem.games.vr import rr, stacking, supply
from pbem.games.vr.model import GERMAN, SIDE_NAME, SOVIET

COUNTRY = {"ger": "germany", "sov": "ussr", "hun": "hungary", "rum": "romania"}


def active(r: Any) -> bool:
    return bool(r.profile.rr_procedure)


# ------------------------------------------------------------- income
def income(r: Any, state: dict[str, Any], side: str, events: list[Event]) -> dict[str, int]:
    """17.3.1-17.3.3: this R&R phase's RP by nationality (only those > 0)."""
    entry = r.scn.schedule.get(state["turn"])
    sched = dict(entry.rp) if entry else {}
    out: dict[str, int] = {}
    if side == SOVIET:
        out["sov"] = sched.get("sov", 0)
    else:
        if state.get("rp_forfeit"):
            events.append(Event("the German receives no RP: a withdrawal was not met (18.1.2, R-58)"))
            return {}
        a = state.get("approval")
        if state["turn"] == r.scn.track.first:
            why = "the first turn of the game"
        elif a is not None and a.get("no_rp"):
            why = "a Dismissal this turn"
        else:
            why = ""
        if why:
            events.append(Event(f"the German receives no RP for German units: {why} (17.3.2)"))
        elif a is not None and r.scn.approval is not None:
            out["ger"] = r.scn.approval.levels.get(a["level"], (0, 0))[1]
        else:
            out["ger"] = sched.get("ger", 0)
        for nat in ("hun", "rum"):
            if state["allies"].get(nat) == GERMAN:
                out[nat] = sched.get(nat, 0)           # 17.3.3: while allied
    out = {k: v for k, v in out.items() if v > 0}
    if out:
        events.append(Event(f"{SIDE_NAME[side]} Replacement Points: "
                            + ", ".join(f"{n} {k}" for k, n in sorted(out.items())) + " (17.3)"))
    return out


# ------------------------------------------------------------ options
def _rp_of(r: Any, uid: str) -> str:
    return str(r.scn.units[uid].nationality)


def needs_support(r: Any, state: dict[str, Any], uid: str) -> bool:
    """17.3.7, 17.3.9, 17.3.10: an armored division or corps."""
    spec = r.scn.units[uid]
    return spec.kind == "division" and spec.armor


def arrival_cities(r: Any, state: dict[str, Any], uid: str) -> list[str]:
    """17.3.5: the Major Cities of the HQ's nationality its side holds."""
    b = r.board(state)
    m = r.scn.map
    side = state["units"][uid]["side"]
    country = COUNTRY[r.scn.units[uid].nationality]
    return sorted(h for h, c in m.cities.items() if c == "major" and m.country_of(h) == country
                  and b.control(h) == side and not b.enemy_occupied(h, side)
                  and not any(b.spec(u).is_hq for u in b.units_at(h)))


def elite_arrival_hexes(r: Any, state: dict[str, Any]) -> list[str]:
    """17.3.11's exception: a rebuilt Elite unit arrives in a City (Major or
    Minor) of Germany that the German player controls: never in an advanced
    fortification nor on a card's arrival hexes, where other reinforcements
    may come (17.2.1)."""
    b = r.board(state)
    m = r.scn.map
    return sorted(h for h in m.cities if m.country_of(h) == "germany" and b.control(h) == GERMAN
                  and not b.enemy_occupied(h, GERMAN))


def rebuild_hexes(r: Any, state: dict[str, Any], uid: str) -> list[str]:
    """17.3.11, R-95: a hex with a supplied HQ of the unit's nationality,
    where the unit would receive replacements (17.3.12) and stack."""
    b = r.board(state)
    side = state["units"][uid]["side"]
    nat = r.scn.units[uid].nationality
    out = []
    for hq in b.on_map(side):
        spec = b.spec(hq)
        if not spec.is_hq or spec.nationality != nat or not supply.hq_supplied(b, hq):
            continue
        h = b.unit(hq)["hex"]
        here = [b.spec(u) for u in b.units_at(h)] + [b.spec(uid)]
        if h in out or stacking.problems(here, side, r.profile):
            continue
        if _placed_refusal(r, state, uid, h) is None:
            out.append(h)
    return sorted(out)


def _placed_refusal(r: Any, state: dict[str, Any], uid: str, h: str) -> str | None:
    """17.3.12 for ``uid`` standing in ``h`` (tried, then put back)."""
    x = state["units"][uid]
    saved = dict(x)
    x.update(hex=h, box=None, steps=1, oos=False)
    try:
        return rr.replacement_refusal(r, state, uid)
    finally:
        x.clear()
        x.update(saved)


def refusal(r: Any, state: dict[str, Any], top: dict[str, Any], uid: str, h: str | None) -> str | None:
    """Why ``rebuild uid [h]`` cannot be done now, in one line."""
    side = top["side"]
    spec = r.scn.units[uid]
    x = state["units"][uid]
    if side == GERMAN and state.get("rp_forfeit"):
        return "a withdrawal was not met: the German has no RP for the rest of the game (18.1.2, R-58)"
    if x["side"] != side:
        return f"{uid} is not a {SIDE_NAME[side]} unit"
    nat = _rp_of(r, uid)
    if top["rp"].get(nat, 0) <= 0:
        return f"no {nat} RP left for {uid} (17.3)"
    if spec.kind == "kg":
        return f"{uid} is a Kampfgruppe: RP rebuild divisions and HQs (17.3.5-17.3.6)"
    if spec.branch == "ss":
        return f"{uid} is an SS unit: no replacements (17.3.12, R-57)"
    if side == SOVIET and spec.kind == "division" and not spec.armor:
        return f"{uid}: Soviet infantry come back only as corps drawn from the pile: rebuild corps (17.3.8)"
    if x["hex"]:
        if spec.is_hq or x["steps"] >= spec.steps:
            return f"{uid} is at full strength"
        if side == SOVIET:
            if not any(to for to in (state.get("tos") or {}) if _in_range(r, state, to, x["hex"])):
                return f"{uid} is outside every TO's Operation Range (17.3.10)"
        return rr.replacement_refusal(r, state, uid)
    if x["box"] != "eliminated":
        return f"{uid} is not on the map nor in the Eliminated box"
    if spec.is_hq:
        if h is None or h not in arrival_cities(r, state, uid):
            cities = arrival_cities(r, state, uid)
            return f"{uid} arrives in a Major City of its nationality: one of {' '.join(cities) or 'none'} (17.3.5)"
        return None
    if side == SOVIET:
        if not r.profile.stavka:
            return f"{uid}: a rebuilt armored corps arrives in the Stavka box, which this scenario does not use (17.3.9)"
        return None if h is None else f"{uid} arrives in the Stavka box, not on a hex (17.3.9)"
    if spec.elite:
        return None if h is None else f"{uid} is Elite: it arrives next turn as a reinforcement, name no hex " \
            "(17.3.11)"
    spots = rebuild_hexes(r, state, uid)
    if h is None or h not in spots:
        return f"{uid} comes back in a hex with a supplied {spec.nationality} HQ where it may receive " \
            f"replacements: one of {' '.join(spots) or 'none'} (17.3.11-17.3.12, R-95)"
    return None


def _in_range(r: Any, state: dict[str, Any], to: str, h: str) -> bool:
    from pbem.games.vr import tos
    return tos.within(r, state, to, h)


def options(r: Any, state: dict[str, Any], top: dict[str, Any]) -> list[str]:
    """The rebuilds open now, as orders (an armored one names the first
    face-down handle it could be paid with)."""
    side = top["side"]
    out: list[str] = []
    if side == GERMAN and state.get("rp_forfeit"):
        return out                                     # 18.1.2: this phase's RP are lost with the rest
    if side == SOVIET and top["rp"].get("sov", 0) > 0 and r.profile.infantry_modes and rr.pile(r, state):
        out.append("rebuild corps")
    avail = list(state["supports"][side]["available"])
    box = state["supports"][side].get("box", {})
    for uid, x in sorted(state["units"].items()):
        if x["side"] != side or (not x["hex"] and x["box"] != "eliminated"):
            continue
        spec = r.scn.units[uid]
        if top["rp"].get(spec.nationality, 0) <= 0:
            continue
        hexes: list[str | None]
        if x["hex"] or spec.elite or (side == SOVIET and not spec.is_hq):
            hexes = [None]
        else:
            found = arrival_cities(r, state, uid) if spec.is_hq else rebuild_hexes(r, state, uid)
            hexes = [h for h in found[:1]]
        for h in hexes:
            if refusal(r, state, top, uid, h) is not None:
                continue
            text = f"rebuild {uid}" + (f" {h}" if h else "")
            if needs_support(r, state, uid):
                pay = [p for p in avail if side != SOVIET or not x["hex"] or box.get(p) in _tos_over(r, state, uid)]
                if not pay:
                    continue
                text += f" with {pay[0]}"
            out.append(text)
    return out


def _tos_over(r: Any, state: dict[str, Any], uid: str) -> list[str]:
    h = state["units"][uid]["hex"]
    return [to for to in sorted(state.get("tos") or {}) if _in_range(r, state, to, h)]


def owed(r: Any, state: dict[str, Any], top: dict[str, Any]) -> bool:
    """RP left and something to spend them on (else they are lost)."""
    return active(r) and not top.get("rp_done") and any(n > 0 for n in top.get("rp", {}).values()) \
        and bool(options(r, state, top))


# -------------------------------------------------------------- orders
def rebuild(r: Any, state: dict[str, Any], top: dict[str, Any], order: dict[str, Any], events: list[Event]) -> None:
    side = top["side"]
    if order["verb"] == "done":
        left = {k: n for k, n in top["rp"].items() if n > 0}
        if left:
            events.append(Event(f"{SIDE_NAME[side]} leaves {', '.join(f'{n} {k}' for k, n in sorted(left.items()))} "
                                "RP unspent: they are lost (17.3.4)"))
        top["rp_done"] = True
        return
    if order["verb"] != "rebuild":
        raise IllegalOrder("rebuild UNIT [HEX] [with HANDLE], rebuild corps, or done (17.3)")
    if order.get("corps"):
        if side != SOVIET or not r.profile.infantry_modes:
            raise IllegalOrder("only the Soviet player rebuilds infantry corps from the pile (17.3.8)")
        if top["rp"].get("sov", 0) <= 0:
            raise IllegalOrder("no Soviet RP left (17.3.8)")
        if not rr.pile(r, state):
            raise IllegalOrder("the infantry corps pile is empty (17.3.8)")
        if order.get("open"):
            raise IllegalOrder("an infantry corps costs one RP and no Support (17.3.8)")
        top["rp"]["sov"] -= 1
        top["corps_due"] = top.get("corps_due", 0) + 1
        events.append(Event("the Soviet spends 1 RP: an infantry corps is drawn from the pile (17.3.8)"))
        return
    uid, h = order["unit"], order.get("hex")
    why = refusal(r, state, top, uid, h)
    if why:
        raise IllegalOrder(why)
    x = state["units"][uid]
    spec = r.scn.units[uid]
    handles = list(order.get("open") or [])
    if needs_support(r, state, uid) != bool(handles) or len(handles) > 1:
        raise IllegalOrder(f"{uid} costs one RP and one Support: rebuild {uid} ... with HANDLE (17.3.7, 17.3.9)"
                           if needs_support(r, state, uid) else f"{uid} costs one RP and no Support (17.3.6)")
    shown = r.opened(state, side, order) if handles else {}
    for hd, v in shown.items():
        if r.scn.supports[v["support"]].kind == "end_of_reich":
            raise IllegalOrder("an End-of-Reich Support is played only for its Event (1.5.3)")
        if side == SOVIET and x["hex"]:
            box = state["supports"][side].get("box", {}).get(hd)
            if box not in _tos_over(r, state, uid):
                raise IllegalOrder(f"{hd} is not in the box of a TO whose Operation Range holds {uid} (17.3.10)")
    nat = spec.nationality
    top["rp"][nat] -= 1
    for hd, v in shown.items():
        r.spend_support(state, side, hd, v, events, why=f"rebuilding {uid} (17.3.7, 17.3.9, 17.3.10)")
    if x["hex"]:
        x["steps"] = spec.steps
        events.append(Event(f"{uid} gets back a step: full strength (1 {nat} RP, 17.3.6, 17.3.10)"))
    elif spec.is_hq:
        x.update(hex=h, box=None, steps=1, oos=False)
        events.append(Event(f"{uid} is rebuilt in {h} (1 {nat} RP, 17.3.5)"))
    elif side == SOVIET:
        x.update(hex=None, box="stavka", steps=spec.steps, oos=False)
        events.append(Event(f"{uid} is rebuilt at full strength in the Stavka box (1 RP, 17.3.9, 12.2.5)"))
    elif spec.elite:
        x.update(hex=None, box=f"turn:{state['turn'] + 1}", steps=1, oos=False, rebuilt=True)
        events.append(Event(f"{uid} (Elite) is rebuilt on its reduced side: it arrives next turn as a "
                            f"reinforcement in a German-held City of Germany (1 {nat} RP, 17.3.11)"))
    else:
        x.update(hex=h, box=None, steps=1, oos=False)
        events.append(Event(f"{uid} comes back on its reduced side in {h} (1 {nat} RP, 17.3.6, 17.3.11)"))
