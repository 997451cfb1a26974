"""What a seat may see of an A Victory Awaits / Fierce Fight! Smolensk
game, as data (:class:`pbem.game.View`).

Only chits are secret here (AVA 6.1, FFS 6.1): the view shows the cup's
count and each side's face-down handles by number, the played chits, the
interrupts held in hand (public by ruling, see seq_command), and the seat's
own face-down chits; it is built from a copy of the state in which every
other seat's hidden part is None.
"""
from __future__ import annotations

from typing import Any

from pbem.game import HexMapBlock, TableBlock, TextBlock, View, seen_by
from pbem.games.ava import picture
from pbem.games.ava.model import SIDE_NAME, SIDES
from pbem.games.ava.seq_command import SEALED

WINDOW = 4


def view(rules: Any, state: dict[str, Any], seat: str | None) -> View:
    state = seen_by(state, seat)
    scn = rules.scn
    blocks: list[Any] = [_situation(rules, state, seat), _map_block(rules, state)]
    blocks += [_units(rules, state, s) for s in SIDES]
    blocks += [_boxes(rules, state), _victory(rules, state), picture.picture(rules, state)]
    notice = (scn.notice or picture.PRACTICE) if scn.practice else ""
    title = f"{scn.title} - Turn {state['turn']}" + (" - PRACTICE" if scn.practice else "")
    return View(title, tuple(blocks), practice=notice)


def _situation(rules: Any, state: dict[str, Any], seat: str | None) -> TextBlock:
    lines: list[str] = []
    d = rules.pending(state)
    if state.get("winner"):
        lines += ["Game over", *(rules.result(state) or "").splitlines()]
    elif d is not None:
        lines.append(f"Turn {state['turn']}, {state['phase']}: {SIDE_NAME.get(d.seat, d.seat)} to decide - "
                     f"{d.kind}: {d.prompt}")
    down = {s: sum(1 for t in state["cup"] if t.startswith(SEALED) and state["sealed"].get(t[len(SEALED):]) == s)
            for s in SIDES}
    up = [t for t in state["cup"] if not t.startswith(SEALED)]
    lines.append(f"Cup: {len(state['cup'])} chit(s): face down Axis {down['axis']}, Soviet {down['soviet']}"
                 + (f"; known: {', '.join(sorted(up))}" if up else ""))
    lines.append(f"Played: {', '.join(state['played']) or 'none'}")
    held = [f"{SIDE_NAME[s]} {', '.join(c)}" for s, c in state["hand"].items() if c]
    if held:
        lines.append(f"Held in hand: {'; '.join(held)}")
    if "zhukov" in state:
        lines.append(f"Zhukov's Command declared on Turn {state['zhukov']} (18.1)")
    chosen = _options_chosen(rules)
    if chosen:
        lines.append(f"Rule options: {', '.join(chosen)}")
    own = (state["hidden"].get(seat) or {}).get("chits") if seat in SIDES else None
    if own:
        lines.append(f"Your face-down chits this turn (secret): {', '.join(sorted(c for c, _ in own.values()))}")
    return TextBlock("situation", tuple(lines))


def _options_chosen(rules: Any) -> list[str]:
    """The rule options that differ from the game's defaults."""
    from pbem.games.ava import OPTIONS
    from pbem.games.ava.options import rule_options
    from pbem.games.ava.profile import PROFILES
    defaults = {k: d for k, (d, _) in {**OPTIONS, **rule_options(PROFILES[rules.profile.game])}.items()}
    return [f"{k}={v}" for k, v in sorted(rules.options.items()) if k in defaults and v != defaults[k]]


def _focus(rules: Any, state: dict[str, Any]) -> list[str]:
    """The current battle, else the active units, else every unit."""
    b = rules.board(state)
    top = state["stack"][-1] if state.get("stack") else {}
    if top.get("k") == "battle":
        centre = [top["hex"]]
    else:
        centre = [x["hex"] for x in state["units"].values() if x["active"] and x["hex"]] or sorted(b.at)
    if not centre:
        return []
    c = sorted(centre)[len(centre) // 2]
    grid = rules.scn.map.grid
    return [c] + grid.within(c, WINDOW)


def _map_block(rules: Any, state: dict[str, Any]) -> HexMapBlock | TextBlock:
    hexes = [h for h in dict.fromkeys(_focus(rules, state)) if h in rules.scn.map.grid]
    if not hexes:
        return TextBlock("map", ("no units on the map",))
    b = rules.board(state)
    grid = rules.scn.map.grid
    cr = [grid.col_row(h) for h in hexes]
    rect = [grid.hex_id(c, r) for c in range(min(c for c, _ in cr), max(c for c, _ in cr) + 1)
            for r in range(min(r for _, r in cr), max(r for _, r in cr) + 1)]
    cells = {}
    for h in rect:
        if h not in grid:
            continue
        here = sorted(b.units_at(h), key=lambda u: (rules.scn.units[u].is_hq, u))
        text = "+".join(rules.short(u) for u in here)
        if not text:
            t = rules.scn.map.terrain_of(h)
            text = "" if t == "plains" else t[:4]
        if b.fortress(h):
            text += f"[F{b.fortress(h)}]"
        if text:
            cells[h] = text
    return HexMapBlock("map", picture.grid_of(rules.scn), tuple(hexes), cells,
                       "A stack lists its units, HQs last; [F+N] a fortress; empty hexes show their terrain.")


def _units(rules: Any, state: dict[str, Any], side: str) -> TableBlock:
    from pbem.games.ava import supply
    b = rules.board(state)
    lines = supply.loc(b, side, limited=bool(rules.options.get("soviet_supply_limited")))
    rows = []
    for uid in b.on_map(side):
        x = state["units"][uid]
        spec = rules.scn.units[uid]
        status = ", ".join(w for w, on in (("active", x["active"]), ("moved", x["moved"]),
                                            ("attacked", x["attacked"])) if on)
        fort = b.fortress(x["hex"])
        rows.append((rules.short(uid), x["hex"], picture.strength(rules, state, uid), f"{x['steps']}/{spec.steps}",
                     "yes" if x["hex"] in lines else "NO", f"+{fort}" if fort else "-", status))
    return TableBlock(f"{SIDE_NAME[side]} units on the map",
                      ("unit", "hex", "strength", "steps", "LOC", "fortress", "status"), tuple(rows))


def _boxes(rules: Any, state: dict[str, Any]) -> TextBlock:
    boxes: dict[str, list[str]] = {}
    for uid, x in sorted(state["units"].items()):
        if not x["hex"] and x["box"]:
            key = f"{SIDE_NAME[rules.scn.units[uid].side]} {x['box'].replace('track:', 'Turn Track ')}"
            boxes.setdefault(key, []).append(rules.short(uid))
    lines = [f"{k}: {', '.join(v)}" for k, v in sorted(boxes.items())]
    forts = ", ".join(f"{h} +{n}" for h, n in sorted(state.get("fortress", {}).items()))
    lines.append(f"Fortresses: {forts or 'none'}; Stand Fast: {', '.join(state.get('stand_fast', [])) or 'none'}")
    return TextBlock("boxes", tuple(lines))


def _victory(rules: Any, state: dict[str, Any]) -> TextBlock:
    from pbem.games.ava import victory
    breakdown = rules.vp_breakdown(state)
    total = victory.totals(breakdown)
    parts = ", ".join(f"{k} {v}" for k, v in sorted(breakdown.items()) if v) or "none"
    scn = rules.scn
    if rules.profile.victory == "threshold":
        need = scn.victory.short_threshold if rules.short_game() else scn.victory.threshold
        goal = f"the Axis wins with {need} VP or more after the Turn {rules.last_turn} Supply Check (16)"
    else:
        goal = f"after the Turn {rules.last_turn} Supply Check: " + (
            "the higher total wins (15.6)" if rules.short_game() else "the Axis wins by a lead of 40 (15.6)")
    return TextBlock("victory", (f"VP now: Axis {total['axis']}, Soviet {total['soviet']} ({parts})", goal))
