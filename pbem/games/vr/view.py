"""What a seat may see of a Victory Roads game (:class:`pbem.game.View`),
and the questions a player may ask (``reach``, ``odds``, ``supports``).

Built from :func:`pbem.game.seen_by`, so only the seat's own hidden part
is there: the opponent's Supports appear as counts per box, one's own by
name (5.1.4)."""
from __future__ import annotations

from typing import Any

from pbem.game import HexMapBlock, IllegalOrder, TableBlock, TextBlock, View, seen_by
from pbem.games.vr import mapdata, moves, orders, supports
from pbem.games.vr.model import SIDE_NAME, SIDES

WINDOW = 4


def view(r: Any, state: dict[str, Any], seat: str | None) -> View:
    state = seen_by(state, seat)
    blocks: list[Any] = [_situation(r, state, seat), _supports(r, state, seat), _map(r, state)]
    blocks += [_units(r, state, s) for s in SIDES]
    from pbem.games.vr import victory
    now = tuple(f"now: {c}" for c, _ in victory.conditions(r, state)) if state.get("units") else ()
    blocks.append(TextBlock("victory", (str(r.scn.card.victory.get("text", "")),
                                        f"last turn {victory.last_turn(r)}"
                                        + ("; checked at the end of every Soviet player turn"
                                           if r.scn.card.victory.get("when") == "soviet_turn" else "")) + now))
    blocks.append(mapdata.picture(r, state))
    return View(f"{r.scn.title} - Turn {state['turn']}", tuple(blocks),
                practice=r.scn.notice if r.scn.practice else "")


def _situation(r: Any, state: dict[str, Any], seat: str | None) -> TextBlock:
    lines = [f"Turn {state['turn']} ({r.scn.track.dates.get(state['turn'], '')}); weather {state['weather']}, "
             f"sky {state['sky']}; phase {state['phase']} ({SIDE_NAME.get(state.get('phasing', ''), '')} player turn)"]
    if state.get("winner"):
        lines += ["Game over", *(r.result(state) or "").splitlines()]
    else:
        d = r.pending(state)
        if d is not None:
            lines.append(f"Pending: {SIDE_NAME[d.seat]} - {d.kind}: {d.prompt}")
    a = state.get("approval")
    if a:
        lines.append(f"Führer's Approval {a['level']}" + (" (flipped: Dismissal this turn)" if a["flipped"] else "")
                     + f"; Freedom of Action box {a['foa']}; Maximum Satisfaction "
                     f"{a['max'] if a['max'] is not None else '-'}; Dismissals {a['dismissals']}"
                     + ("; the next German Movement phase is halved" if a["moves"] else ""))
    if state.get("tos"):
        from pbem.games.vr.seq_support import boxes
        by_box = boxes(state)
        lines.append("Theaters of Operation: " + ", ".join(
            f"{to} {m['hex']} ({m['mode'].title()} Mode, {len(by_box.get(to, []))} Support(s) in its box)"
            for to, m in sorted(state["tos"].items())))
        t = state.get("to_turn") or {}
        if t.get("turn") == state["turn"] and t.get("priority"):
            lines.append(f"Priority TO {t['priority']}, Secondary TO {t['secondary']}"
                         + ("; Large Offensive" if t.get("large") else ""))
    stavka = sorted(u for u, x in state["units"].items() if x["box"] == "stavka")
    if stavka:
        lines.append("Stavka box: " + " ".join(stavka))
    e = state.get("eor")
    if e:
        lines.append(f"End of Reich marker {e['square']}; End-of-Reich Supports added to the German pool "
                     f"{len(state['supports']['german'].get('eor', []))}"
                     + ("; last mobilization" if e["square"] < 6 else ""))
    c = state.get("capitulation")
    if c:
        allies = state["allies"]
        word = {"soviet": "Soviet-allied", "out": "out of the war"}
        lines.append("Axis allies: " + ", ".join(f"{n} {word.get(allies.get(k, ''), 'German-allied')}"
                                                  for k, n in (("rum", "Romania"), ("hun", "Hungary")))
                     + ("; Hungary never capitulates" if c["hun_never"] else "")
                     + ("; Hungarian armistice" if c["armistice"] else ""))
    w = state.get("warsaw")
    if w:
        lines.append(f"Warsaw uprising (started turn {w['start']}): "
                     + ("Insurrection marker on " + w["hex"] if w["active"] else "over")
                     + ("; the German holds the Stalin Support" if w.get("stalin") else ""))
    se = state.get("stalin_event")
    if se and se.get("turn") == state["turn"]:
        from pbem.games.vr import supports
        lines.append("This turn's " + supports.stalin_text(r, se))              # 11.5.2
    top_rr = state["stack"][-1] if state.get("stack") else {}
    if top_rr.get("k") == "rr" and any(n > 0 for n in (top_rr.get("rp") or {}).values()):
        lines.append("Replacement Points left: " + ", ".join(f"{n} {k}" for k, n in sorted(top_rr["rp"].items())
                                                              if n > 0))
    halt = state.get("haltebefehl") or {}
    if halt:
        lines.append("Haltebefehl: " + ", ".join(f"{h} ({k})" for h, k in sorted(halt.items())))
    if state.get("airlift"):
        lines.append("Ju-52 supply: " + ", ".join(state["airlift"]))
    top = state["stack"][-1] if state.get("stack") else {}
    if top.get("k") == "movement" and top.get("side") == "german" and top.get("mode") == "normal":
        lines.append(f"Rail Capacity left {top['rail']}; Naval Capacity left {top.get('naval', 0)}")
    return TextBlock("situation", tuple(lines))


def _supports(r: Any, state: dict[str, Any], seat: str | None) -> TextBlock:
    lines = []
    sup = state["supports"]
    for side in SIDES:
        s = sup[side]
        played = ", ".join(r.scn.supports[c[0]].name for c in s["played"]) or "none"
        lines.append(f"{SIDE_NAME[side]}: {len(s['available'])} Available (face down), pool "
                     f"{supports.pool_size(r.scn, sup, side)}, played this turn: {played}")
        if s["attached"]:
            lines.append(f"{SIDE_NAME[side]} leaders: " + ", ".join(
                f"{r.scn.supports[c[0]].name} with {uid}" for uid, c in sorted(s["attached"].items())))
    mine = (state["hidden"].get(seat) or {}).get("items") if seat else None
    if mine:
        own = [f"{h} {r.scn.supports[v['support']].name}" for h, v in sorted(mine.items()) if "support" in v]
        lines.append("Your Available Supports: " + (", ".join(own) or "none"))
    return TextBlock("supports", tuple(lines))


def _map(r: Any, state: dict[str, Any]) -> HexMapBlock | TextBlock:
    b = r.board(state)
    top = state["stack"][-1] if state.get("stack") else {}
    centre = top.get("hex") or (sorted(b.at)[len(b.at) // 2] if b.at else None)
    if centre is None:
        return TextBlock("map", ("no units on the map",))
    hexes = [centre] + b.map.grid.within(centre, WINDOW)
    cells = {}
    for h in hexes:
        us = b.units_at(h)
        if us:
            cells[h] = "+".join(us)
        elif h in b.map.cities:
            cells[h] = b.map.cities[h][:3] + "city"
    return HexMapBlock("map", mapdata.grid_of(r.scn), tuple(hexes), cells,
                       "A stack lists its units; empty hexes show a city class.")


def _units(r: Any, state: dict[str, Any], side: str) -> TableBlock:
    b = r.board(state)
    rows = []
    for uid in b.on_map(side):
        x = state["units"][uid]
        status = ", ".join(w for w, on in (("OoS", x["oos"]), ("exploit", x["exploit"]),
                                            ("elite", r.scn.units[uid].elite)) if on)
        rows.append((uid, x["hex"], mapdata.strength(r, state, uid), f"{x['steps']}/{r.scn.units[uid].steps}",
                     "in supply" if not x["oos"] else "OoS", status))
    return TableBlock(f"{SIDE_NAME[side]} units on the map", ("unit", "hex", "strength", "steps", "supply", "status"),
                      tuple(rows))


def query(r: Any, state: dict[str, Any], side: str, text: str) -> str:
    words = text.split()
    if len(words) == 2 and words[0] == "reach":
        uid = orders.unit(r.scn, words[1])
        b = r.board(state)
        if not state["units"][uid]["hex"]:
            raise IllegalOrder(f"{uid} is not on the map")
        top = state["stack"][-1] if state["stack"] else {}
        mode = "exploit" if top.get("mode") == "exploit" else "normal"
        costs = moves.describe(b, uid, mode)
        return f"{uid} reaches ({mode}): " + ", ".join(f"{h} ({c / 2:g} MP)" for h, c in costs.items())
    if words and words[0] == "odds":
        order = orders.parse("attack " + " ".join(words[1:]), r.scn)
        top = state["stack"][-1] if state["stack"] else {}
        if top.get("k") != "combat":
            raise IllegalOrder("odds are asked in a Combat or Exploitation combat segment")
        why = r.attack_check(state, top, order["hex"], order["units"])
        if why:
            return f"refused: {why}"
        f = {"hex": order["hex"], "att": order["units"], "side": top["side"],
             "dside": "german" if top["side"] == "soviet" else "soviet", "terrain": None, "shift": 0}
        return f"attack on {order['hex']}: {r.odds_text(state, f)} (before Supports and the defender's terrain pick)"
    raise IllegalOrder("questions: reach UNIT | odds HEX with UNIT...")
