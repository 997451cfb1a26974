"""The Advanced parts of the Reinforcement & Replacements phase (§17, with
§10, §14 and §16 where they act in it), each behind its switch.

* 10.1, 17.1: Soviet infantry corps arrive (the schedule's ``corps``) or are
  rebuilt drawn **at random from the pile**: a face-down draw from the
  Soviet secret stream under a sealed handle ``cp-N`` (like the armored KG,
  7.15.1), shown by the Soviet program at once (``corps-reveal``); the
  corps arrives in Standard Mode, on the map or in the Stavka box.
* 14.3: each Soviet R&R phase, 1D6+3 units of a former ally leave the Ally
  Capitulation box, placed in their own country on or next to an in-supply
  Soviet unit.
* 16.2.1, 17.2.3: last mobilization, two reduced German infantry divisions
  with a reduced Attack of 0 or 1 out of the Eliminated box, the German's
  pick, in every German R&R phase once an objective is lost.
* 17.2.1: German reinforcements arrive in a German-controlled City in
  Germany or an advanced fortification; 17.3.12: no replacements there
  (:func:`replacement_refusal`).
"""
from __future__ import annotations

from typing import Any

from pbem.game import Event, IllegalOrder
from pbem.games.vr import supply
from pbem.games.vr.model import GERMAN, SOVIET

COUNTRY = {"rum": "romania", "hun": "hungary"}
MOBILIZATION = 2              # 16.2.1: two divisions a German R&R phase


# ------------------------------------------------------------- the pile
def pile(r: Any, state: dict[str, Any]) -> list[str]:
    """The Soviet infantry corps in the draw pile (1.3.3, 10.1)."""
    return sorted(u for u, x in state["units"].items() if x["box"] == "corps_pile" and r.scn.units[u].corps)


def draw_corps(r: Any, state: dict[str, Any], top: dict[str, Any], rng: Any, events: list[Event]) -> None:
    """One corps drawn at random from the pile under a sealed handle: the
    Soviet secret stream picks, every program adds the handle; the Soviet
    program shows it next (``corps-reveal``)."""
    h = f"cp-{state.setdefault('corps_next', 1)}"
    state["corps_next"] += 1
    state.setdefault("corps_sealed", {})[h] = SOVIET
    srng = rng.secret(SOVIET)                        # 10.1: at random, known once drawn
    mine = state["hidden"].get(SOVIET)
    if srng is not None and mine is not None:
        left = pile(r, state)
        mine["items"][h] = {"corps": left[srng.draw(left, "infantry corps from the pile (10.1)")],
                            "turn": state["turn"]}
    top["corps_handle"] = h
    top["corps_due"] -= 1
    events.append(Event(f"a Soviet infantry corps is drawn at random from the pile ({h}) (10.1, 17.1)"))


def check_corps_opening(r: Any, state: dict[str, Any], seat: str, handle: str, value: Any) -> str | None:
    if (state.get("corps_sealed") or {}).get(handle) != seat:
        return f"{handle} is not a face-down corps draw"
    if not isinstance(value, dict) or set(value) != {"corps", "turn"}:
        return "not an infantry corps and its turn"
    uid = value["corps"]
    if not isinstance(uid, str) or uid not in r.scn.units or not r.scn.units[uid].corps:
        return f"{uid!r} is not a Soviet infantry corps"
    if state["units"][uid]["box"] != "corps_pile":
        return f"{uid} is not in the draw pile (10.1)"
    if value["turn"] != state["turn"]:
        return f"{handle} was drawn on turn {state['turn']}, not {value['turn']!r}"
    return None


def reveal_corps(r: Any, state: dict[str, Any], top: dict[str, Any], order: dict[str, Any],
                 events: list[Event]) -> None:
    if order["verb"] != "reveal":
        raise IllegalOrder("the corps drawn is shown by the Soviet program")
    h = top["corps_handle"]
    shown = r.opened(state, SOVIET, order)
    if list(shown) != [h]:
        raise IllegalOrder(f"show the corps under {h}")
    uid = shown[h]["corps"]
    del state["corps_sealed"][h]
    mine = state["hidden"].get(SOVIET)
    if mine is not None:
        mine["items"].pop(h, None)
    state["units"][uid].update(box="arriving", steps=1, hex=None, oos=False)     # 10.1: Standard Mode
    top["corps_handle"] = None
    events.append(Event(f"{h} is {uid}: it arrives in Standard Mode (10.1, 17.1)"))


# ------------------------------------------------- former allies (14.3)
def ally_arrivals(r: Any, state: dict[str, Any], top: dict[str, Any], rng: Any, events: list[Event]) -> None:
    waiting = [u for u, x in state["units"].items() if x["box"] == "ally_box"]
    if not waiting:
        return
    die = rng.roll(6, "former-ally reinforcements (14.3)")
    top["ally_due"] = min(len(waiting), die + 3)
    events.append(Event(f"former allies: die {die} + 3: {top['ally_due']} unit(s) leave the Ally Capitulation "
                        "box (14.3)"))


def ally_hexes(r: Any, state: dict[str, Any], uid: str) -> list[str]:
    """14.3: a hex of the unit's own country, on or next to a Soviet unit
    in supply."""
    b = r.board(state)
    m = r.scn.map
    country = COUNTRY.get(r.scn.units[uid].nationality, "")
    found = supply.unit_supply(b, SOVIET, state["weather"])
    anchors = {b.unit(u)["hex"] for u, ok in found.items() if ok and not b.spec(u).is_hq}
    near = anchors | {n for h in anchors for n in m.neighbors(h)}
    return sorted(h for h in near if m.country_of(h) == country and not b.enemy_occupied(h, SOVIET))


# ------------------------------------------- last mobilization (16.2.1)
def mobilizable(r: Any, state: dict[str, Any]) -> list[str]:
    return sorted(u for u, x in state["units"].items() if x["box"] == "eliminated"
                  and r.scn.units[u].nationality == "ger" and r.scn.units[u].kind == "division"
                  and r.scn.units[u].arm == "infantry" and r.scn.units[u].steps >= 2
                  and r.scn.units[u].attack_reduced in (0, 1))


def mobilize(r: Any, state: dict[str, Any], top: dict[str, Any], order: dict[str, Any], events: list[Event]) -> None:
    if order["verb"] != "mobilize" or order["unit"] not in mobilizable(r, state):
        raise IllegalOrder("mobilize an eliminated German infantry division with a reduced Attack of 0 or 1 "
                           "(16.2.1)")
    state["units"][order["unit"]].update(box="arriving", steps=1)
    top["mobilize"] -= 1
    events.append(Event(f"last mobilization: {order['unit']} comes back on its reduced side (16.2.1, 17.2.3)"))


# ------------------------------------------------------ replacements
def german_arrival_hexes(r: Any, state: dict[str, Any]) -> list[str]:
    """17.2.1: a City (Major or Minor) in Germany or an advanced
    fortification (one the Soviets never captured, R-88)."""
    m = r.scn.map
    b = r.board(state)
    forts = [h for h, k in m.fortifications.items() if k == "advanced" and not b.soviet_ever(h)]
    return [h for h in m.cities if m.country_of(h) == "germany"] + forts


def replacement_refusal(r: Any, state: dict[str, Any], uid: str) -> str | None:
    """17.3.12: who receives no replacement step: units out of supply, in an
    advanced fortification, next to the enemy, outside every HQ's Command
    Radius (R-89: in supply through an HQ or a source), SS units, units
    under an isolated Haltebefehl."""
    from pbem.games.vr import haltebefehl
    b = r.board(state)
    x = state["units"][uid]
    spec = r.scn.units[uid]
    if spec.branch == "ss":
        return f"{uid} is an SS unit: no replacements (17.3.12)"
    if x["hex"] is None:
        return None
    side = b.side_of(uid)
    if x["oos"]:
        return f"{uid} is out of supply: no replacements (17.3.12)"
    if r.profile.fortification_classes and r.scn.map.fortifications.get(x["hex"]) == "advanced" \
            and not b.soviet_ever(x["hex"]):
        return f"{uid} stands in an advanced fortification: no replacements (13.2, 17.3.12)"
    if b.enemy_adjacent(x["hex"], side):
        return f"{uid} is next to the enemy: no replacements (17.3.12)"
    if side == GERMAN and haltebefehl.isolated(b, x["hex"]):
        return f"{uid} is under an isolated Haltebefehl: no replacements (17.3.12)"
    if not supply.unit_supply(b, side, state["weather"]).get(uid, False):
        return f"{uid} is outside the Command Radius of a supplied HQ: no replacements (17.3.12)"
    return None


# ------------------------------------------- withdrawals, transformations (§18)
def transform(r: Any, state: dict[str, Any], side: str, events: list[Event]) -> None:
    """18.2: the schedule swaps counters; the new one keeps the old one's
    status (hex or box, steps, supply)."""
    entry = r.scn.schedule.get(state["turn"])
    if not entry:
        return
    for old, new in sorted(entry.transformations.items()):
        if r.scn.units[old].home_side != side:
            continue
        x, y = state["units"][old], state["units"][new]
        steps = min(x["steps"], r.scn.units[new].steps) if x["steps"] else 0
        y.update(hex=x["hex"], box=x["box"], steps=steps, oos=x["oos"], exploit=x["exploit"])
        x.update(hex=None, box="removed", oos=False, exploit=False)
        events.append(Event(f"{old} becomes {new}, keeping its status (18.2)"))


def withdrawal_candidates(r: Any, state: dict[str, Any], w: dict[str, Any]) -> list[str]:
    """18.1: German divisions on the map (18.1.1: of Germany, never a
    Hungarian or Romanian one), of the arm asked (any when none is named),
    with at least the Attack asked on the side showing (Q-18), in supply."""
    b = r.board(state)
    out = []
    for u in b.on_map(GERMAN):
        spec = b.spec(u)
        if spec.kind != "division" or spec.nationality != "ger" or state["units"][u]["oos"]:
            continue
        if w.get("arm") and spec.arm != w["arm"]:
            continue
        if b.attack(u) < int(w.get("min_attack", 0)):
            continue
        out.append(u)
    return out


def next_withdrawal(r: Any, state: dict[str, Any], top: dict[str, Any], events: list[Event]) -> bool:
    """The first withdrawal still owed has candidates (True: ask); one that
    cannot be met costs every German RP for the rest of the game (18.1.2,
    R-58)."""
    while top.get("withdraw"):
        w = top["withdraw"][0]
        if w["count"] <= 0:
            top["withdraw"].pop(0)
            continue
        if withdrawal_candidates(r, state, w):
            return True
        state["rp_forfeit"] = True
        events.append(Event(f"the German cannot withdraw {w['count']} more division(s) "
                            f"({w.get('arm') or 'any arm'}, Attack {w.get('min_attack', 0)}+): he loses all his RP "
                            "for the rest of the game (18.1.2, R-58)"))
        top["withdraw"].pop(0)
    return False


def withdraw(r: Any, state: dict[str, Any], top: dict[str, Any], order: dict[str, Any], events: list[Event]) -> None:
    w = top["withdraw"][0]
    if order["verb"] != "remove" or order["unit"] not in withdrawal_candidates(r, state, w):
        raise IllegalOrder(f"remove one of: {' '.join(withdrawal_candidates(r, state, w))} (18.1)")
    state["units"][order["unit"]].update(hex=None, box="removed", oos=False, exploit=False)
    w["count"] -= 1
    events.append(Event(f"{order['unit']} is withdrawn: Units Removed From Play (18.1)"))
