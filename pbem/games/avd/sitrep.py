"""Situation report and questions (``reach``, ``odds``) for A Victory Denied.

The sitrep shows a side only what that side may see (7.1.3, 16.2): the
number of chits in the cup but not which, never the opponent's selection,
never a face-down VP chit's value.
"""
from __future__ import annotations

from typing import Any

from pbem.game import IllegalOrder
from pbem.games.avd import movement, orders
from pbem.games.avd.board import SIDE_NAME
from pbem.games.avd.model import GERMAN, SIDES, SOVIET

WINDOW = 4   # hexes around the action: nine columns fit an 80-column terminal


def query(rules, state: dict[str, Any], side: str, text: str) -> str:
    """``reach UNIT``: reachable hexes and their MP cost; ``odds HEX with
    UNIT ... [stuka]``: the column and every shift."""
    words = text.strip().split()
    if not words:
        raise IllegalOrder("ask reach UNIT or odds HEX with UNIT ...")
    verb = words[0].lower()
    scn = rules.scn
    b = rules.board(state)
    if verb == "reach" and len(words) == 2:
        uid = orders.unit(scn, words[1])
        r = movement.reach(b, uid)
        cells = sorted((c, h) for h, c in r.cost.items() if h in r.endable and c > 0)
        lines = [f"{rules.name(uid)} from {b.hex_of(uid)}, allowance {movement.mp(movement.allowance(b, uid))} MP:"]
        lines += [f"  {h}  {movement.mp(c)} MP" for c, h in cells]
        return "\n".join(lines)
    if verb == "odds":
        # The same reading and the same check as the attack order itself
        # (rules.attack_refusal), so the answer is "illegal" exactly when
        # the order would be refused, and says why in the order's words.
        try:
            o = orders.parse("attack " + " ".join(words[1:]), scn)
        except IllegalOrder as exc:
            return f"attack on {words[1] if len(words) > 1 else '?'}: illegal - {exc}"
        why = rules.attack_refusal(state, side, o)
        # the column and its shifts, where there is one to show (units on the map, a hex on it)
        odds = rules.attack_odds(state, o) if o["hex"] in b.grid and all(
            b.on_map(u) and b.grid.adjacent(b.hex_of(u), o["hex"]) for u in o["units"]) else None
        if why is None and odds is not None and odds.legal:
            head = f"attack on {o['hex']}: {odds.label}"
        else:
            head = f"attack on {o['hex']}: illegal - {why or (odds.reason if odds else 'no column')}"
        return "\n".join([head] + [f"  {s}" for s in (odds.steps if odds else [])])
    raise IllegalOrder(f"unknown question {verb!r}: ask reach UNIT or odds HEX with UNIT ...")


def _stack_text(rules, state, h: str) -> str:
    """A hex's stack, or, where no unit stands, its terrain and star."""
    b = rules.board(state)
    units = sorted(b.units_at(h))
    if units:
        return "+".join(orders.short(rules.scn, u) for u in units)
    m = rules.scn.map
    terrain = m.terrain.get(h, "clear")
    mark = "" if terrain == "clear" else terrain[:4].lower()
    return mark + {"minor": "*", "major": "**"}.get(m.victory.get(h, ""), "")


def _focus(rules, state) -> list[str]:
    """Hexes worth drawing: the current battle, else the active units, else
    every unit on the map (clipped to a window)."""
    b = rules.board(state)
    top = state["stack"][-1] if state.get("stack") else None
    if top and top.get("k") == "battle":
        centre = [top["hex"]]
    else:
        centre = [b.hex_of(u) for u, x in state["units"].items() if x["active"] and b.on_map(u)]
        if not centre:
            centre = [b.hex_of(u) for u in b.units_of(GERMAN) + b.units_of(SOVIET)]
    centre = [h for h in centre if h]
    if not centre:
        return []
    c = sorted(centre)[len(centre) // 2]
    return [c] + b.grid.within(c, WINDOW)


def render(rules, state: dict[str, Any], side: str | None):
    """A rich renderable for ``side`` (None: public view)."""
    from rich.console import Group
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    scn = rules.scn
    parts: list[Any] = []
    if scn.practice:
        parts.append(Panel(Text(scn.notice or "PRACTICE DATA - not the publisher's map or tables", style="bold yellow"),
                           title="practice scenario"))
    d = rules.pending(state)
    head = Text()
    head.append(f"{scn.title or 'A Victory Denied'} - Turn {state['turn']}\n", style="bold")
    if state.get("winner"):
        head.append("Game over\n" + (rules.result(state) or ""))
    elif d is not None:
        head.append(f"Pending: {SIDE_NAME[d.side]} - {d.kind}: {d.prompt}\n")
    head.append(f"Cup: {len(state['cup'])} chit(s); played: {', '.join(state['played']) or 'none'}; "
                f"Guderian in box: {'yes' if state['guderian_box'] else 'no'}; unplayed chits: "
                f"German {state['unplayed']['german']}, Soviet {state['unplayed']['soviet']}\n")
    head.append(f"Stukas ready {state['stukas_ready']}, used {state['stukas_used']}; "
                f"Bomber {'ready' if state['bomber'] else 'spent'}; Rocket {'ready' if state['rocket'] else 'spent'}"
                + ("; Minsk +1 DRM active" if state.get("minsk_drm") else "") + "\n")
    if state.get("directive"):
        head.append(f"Hitler Directive: {state['directive']}\n")
    if side in SIDES and state["hidden"].get(side):
        mine = sorted(c for c, _ in state["hidden"][side]["chits"].values())
        if mine:
            head.append(f"Your chits this turn (secret): {', '.join(mine)}\n")
    parts.append(Panel(head, title="situation"))
    parts.append(_map_panel(rules, state))
    for s in SIDES:
        parts.append(_units_table(rules, state, s, Table))
    vp = rules.vp_known(state)
    elim = [u for u, x in state["units"].items() if x["where"] == "elim_motorized"]
    vpt = Text(f"VP chits face up on the map: {vp['face_up']} VP; face down on the map: {vp['face_down']}; "
               f"in the German box: {vp['box']} (values hidden); taken through Minsk: {vp['minsk']}\n"
               f"Eliminated German motorized units: {len(elim)} "
               f"({', '.join(orders.short(scn, u) for u in sorted(elim)) or 'none'})")
    parts.append(Panel(vpt, title="victory"))
    return Group(*parts)


def _map_panel(rules, state):
    from rich.panel import Panel
    from rich.table import Table
    hexes = _focus(rules, state)
    if not hexes:
        return Panel("no units on the map", title="map")
    b = rules.board(state)
    try:
        from pbem.render import hexmap
        pic = hexmap.render(b.grid, hexes, lambda h: _stack_text(rules, state, h))
        return Panel(pic, title="map", subtitle="empty hexes: terrain (clear left blank), * minor / ** major Victory Hex")
    except Exception:   # the picture is a convenience; a table says the same
        t = Table(title="map")
        t.add_column("hex")
        t.add_column("stack")
        for h in sorted(set(hexes)):
            s = _stack_text(rules, state, h)
            if s:
                t.add_row(h, s)
        return t


def _units_table(rules, state, side, Table):
    scn = rules.scn
    t = Table(title=f"{SIDE_NAME[side]} units on the map")
    for col in ("unit", "hex", "strength", "steps", "status"):
        t.add_column(col)
    b = rules.board(state)
    for uid in sorted(b.units_of(side)):
        spec = scn.units[uid]
        x = state["units"][uid]
        if spec.kind == "hq":
            strength = f"CR {spec.command_range}"
        else:
            strength = f"{b.attack(uid)}-{b.defense(uid)}-{spec.movement}"
        status = ", ".join(w for w, on in (("OoS", x["oos"]), ("isolated", x["isolated"]),
                                            ("active", x["active"])) if on)
        t.add_row(orders.short(scn, uid), x["hex"], strength, f"{x['steps']}/{spec.steps}", status)
    return t
