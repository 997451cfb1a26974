"""What a seat may see of an A Victory Denied game, as data
(:class:`pbem.game.View`); :mod:`pbem.render.view` draws it.

The view shows a side only what that side may see (7.1.3, 16.2): the number
of chits in the cup but not which, never the opponent's selection, never a
face-down VP chit's value.  It is built from a copy of the state in which
every other side's hidden part is None, so nothing secret of theirs can
leak into it; the public view (seat None) holds no hidden part at all.
"""
from __future__ import annotations

from typing import Any

from pbem.board.hexgrid import HexGrid
from pbem.game import HexMapBlock, TableBlock, TextBlock, View, seen_by
from pbem.games.avd import mapdata, orders
from pbem.games.avd.board import SIDE_NAME
from pbem.games.avd.model import GERMAN, SIDES, SOVIET

WINDOW = 4   # hexes around the action: nine columns fit an 80-column terminal
PRACTICE = "PRACTICE DATA - not the publisher's map or tables"
MAP_LEGEND = ("A stack lists its units, combat units first. Empty hexes: terrain (clear left blank), "
              "* minor / ** major Victory Hex.")


def view(rules: Any, state: dict[str, Any], seat: str | None) -> View:
    """What ``seat`` (None: anyone) may see of ``state``."""
    state = seen_by(state, seat)
    scn = rules.scn
    blocks: list[Any] = [_situation(rules, state, seat), _map_block(rules, state)]
    blocks += [_units_table(rules, state, s) for s in SIDES]
    blocks.append(_victory(rules, state))
    blocks.append(mapdata.picture(rules, state))     # the whole map: drawn on request (pbem map, --map all)
    return View(f"{scn.title or 'A Victory Denied'} - Turn {state['turn']}", tuple(blocks),
                practice=(scn.notice or PRACTICE) if scn.practice else "")


def _situation(rules: Any, state: dict[str, Any], seat: str | None) -> TextBlock:
    lines: list[str] = []
    d = rules.pending(state)
    if state.get("winner"):
        lines += ["Game over", *(rules.result(state) or "").splitlines()]
    elif d is not None:
        lines.append(f"Pending: {SIDE_NAME[d.side]} - {d.kind}: {d.prompt}")
    lines.append(f"Cup: {len(state['cup'])} chit(s); played: {', '.join(state['played']) or 'none'}; "
                 f"Guderian in box: {'yes' if state['guderian_box'] else 'no'}; unplayed chits: "
                 f"German {state['unplayed']['german']}, Soviet {state['unplayed']['soviet']}")
    lines.append(f"Stukas ready {state['stukas_ready']}, used {state['stukas_used']}; "
                 f"Bomber {'ready' if state['bomber'] else 'spent'}; Rocket {'ready' if state['rocket'] else 'spent'}"
                 + ("; Minsk +1 DRM active" if state.get("minsk_drm") else ""))
    if state.get("directive"):
        lines.append(f"Hitler Directive: {state['directive']}")
    own = state["hidden"].get(seat) if seat in SIDES else None
    if own:
        mine = sorted(c for c, _ in own["chits"].values())
        if mine:
            lines.append(f"Your chits this turn (secret): {', '.join(mine)}")
    return TextBlock("situation", tuple(lines))


def stack_text(rules: Any, state: dict[str, Any], h: str) -> str:
    """A hex's stack (its units joined by "+", combat units first), or,
    where no unit stands, its terrain and star."""
    b = rules.board(state)
    scn = rules.scn
    units = sorted(b.units_at(h), key=lambda u: (scn.units[u].kind == "hq", u))
    if units:
        return "+".join(orders.short(scn, u) for u in units)
    m = scn.map
    terrain = m.terrain.get(h, "clear")
    mark = "" if terrain == "clear" else terrain[:4].lower()
    return mark + {"minor": "*", "major": "**"}.get(m.victory.get(h, ""), "")


def focus(rules: Any, state: dict[str, Any]) -> list[str]:
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


def grid_of(scn: Any) -> tuple[int, int, int, int, str]:
    m = scn.map
    return (m.first_col, m.last_col, m.first_row, m.last_row, m.offset)


def _map_block(rules: Any, state: dict[str, Any]) -> HexMapBlock | TextBlock:
    hexes = focus(rules, state)
    if not hexes:
        return TextBlock("map", ("no units on the map",))
    b = rules.board(state)
    shown = [h for h in dict.fromkeys(hexes) if h in b.grid]
    cells = {h: stack_text(rules, state, h) for h in _rectangle(b.grid, shown)}
    return HexMapBlock("map", grid_of(rules.scn), tuple(shown), {h: t for h, t in cells.items() if t}, MAP_LEGEND)


def _rectangle(grid: HexGrid, hexes: list[str]) -> list[str]:
    """Every hex of the grid in the rectangle the picture draws around
    ``hexes`` (so that each drawn hex has its text)."""
    cr = [grid.col_row(h) for h in hexes]
    cols = range(min(c for c, _ in cr), max(c for c, _ in cr) + 1)
    rows = range(min(r for _, r in cr), max(r for _, r in cr) + 1)
    return [h for h in (grid.hex_id(c, r) for c in cols for r in rows) if h in grid]


def _units_table(rules: Any, state: dict[str, Any], side: str) -> TableBlock:
    scn = rules.scn
    b = rules.board(state)
    rows = []
    for uid in sorted(b.units_of(side)):
        spec = scn.units[uid]
        x = state["units"][uid]
        if spec.kind == "hq":
            strength = f"CR {spec.command_range}"
        else:
            strength = f"{b.attack(uid)}-{b.defense(uid)}-{spec.movement}"
        status = ", ".join(w for w, on in (("OoS", x["oos"]), ("isolated", x["isolated"]),
                                            ("active", x["active"])) if on)
        rows.append((orders.short(scn, uid), x["hex"], strength, f"{x['steps']}/{spec.steps}", status))
    return TableBlock(f"{SIDE_NAME[side]} units on the map", ("unit", "hex", "strength", "steps", "status"),
                      tuple(rows))


def _victory(rules: Any, state: dict[str, Any]) -> TextBlock:
    scn = rules.scn
    vp = rules.vp_known(state)
    elim = [u for u, x in state["units"].items() if x["where"] == "elim_motorized"]
    chits = (f"VP chits face up on the map: {vp['face_up']} VP; face down on the map: {vp['face_down']}; "
             f"in the German box: {vp['box']} (values hidden); taken through Minsk: {vp['minsk']}")
    names = ", ".join(orders.short(scn, u) for u in sorted(elim)) or "none"
    return TextBlock("victory", (chits, f"Eliminated German motorized units: {len(elim)} ({names})"))
