"""What a seat may see of an A Victory Awaits / Fierce Fight! Smolensk
game, as data (:class:`pbem.game.View`).

Only chits are secret here (AVA 6.1, FFS 6.1): the view shows the cup's
count and each side's face-down handles by number, the played chits, the
interrupts held in hand (public by ruling, see seq_command), and the seat's
own face-down chits; it is built from a copy of the state in which every
other seat's hidden part is None.

The view works by seat, not by side: in a multiplayer game (AVA 19, 20) a
secret is sealed to one seat, so a seat sees its own hidden part and
nothing of any other seat's.  Under 19 the side's commanding seat (A49)
holds the side's face-down chits, and every seat sees the Game
Controller's queue with face-down entries by their backs only; under 20
each seat holds its own HQ cup, and every seat sees the Master cup's and
each HQ cup's counts.  What a team shares (20.2: how it split its HQ chits
among its cups, the hidden part ``team:SIDE``) each seat of that side sees
too, its partners' cups as filled this turn; the other side never does.
"""
from __future__ import annotations

from typing import Any

from pbem.game import HexMapBlock, TableBlock, TextBlock, View, seen_by, terrain_mark
from pbem.games.ava import mastercup, picture
from pbem.games.ava import seating as seatmod
from pbem.games.ava.model import SIDE_NAME, SIDES
from pbem.games.ava.seq_command import SEALED

WINDOW = 4


def view(rules: Any, state: dict[str, Any], seat: str | None) -> View:
    state = seen_by(state, seat, rules.side_of_seat(seat) if seat is not None else None)
    scn = rules.scn
    blocks: list[Any] = [_situation(rules, state, seat)]
    if rules.multi:
        blocks.append(_seats(rules, seat))
    blocks.append(_map_block(rules, state))
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
    lines += _cups(rules, state, seat)
    lines.append(f"Played: {', '.join(state['played']) or 'none'}")
    held = [f"{SIDE_NAME[s]} {', '.join(c)}" for s, c in state["hand"].items() if c]
    if held:
        lines.append(f"Held in hand: {'; '.join(held)}")
    if "zhukov" in state:
        lines.append(f"Zhukov's Command declared on Turn {state['zhukov']} (18.1)")
    chosen = _options_chosen(rules)
    if chosen:
        lines.append(f"Rule options: {', '.join(chosen)}")
    lines += _own(rules, state, seat)
    lines += _partners(rules, state, seat)
    return TextBlock("situation", tuple(lines))


def _side_of_token(rules: Any, state: dict[str, Any], token: str) -> str | None:
    """The side whose back a face-down token shows (its handle is sealed to
    a seat), None for a chit face up."""
    if not token.startswith(SEALED):
        return None
    seat = state["sealed"].get(token[len(SEALED):])
    return rules.side_of_seat(seat) if seat else None


def _cups(rules: Any, state: dict[str, Any], seat: str | None) -> list[str]:
    """The cup (6.1), the Controller's queue (19.4) or the Master cup and
    the HQ cups (20.2), as every seat sees them."""
    if rules.seating.mode == seatmod.VARIANT:
        return _master_cups(rules, state)
    down = {s: sum(1 for t in state["cup"] if _side_of_token(rules, state, t) == s) for s in SIDES}
    up = [t for t in state["cup"] if not t.startswith(SEALED)]
    lines = [f"Cup: {len(state['cup'])} chit(s): face down Axis {down['axis']}, Soviet {down['soviet']}"
             + (f"; known: {', '.join(sorted(up))}" if up else "")]
    queue = next((f for f in reversed(state["stack"]) if f["k"] == "queue"), None)
    if queue is not None:
        ctrl = seatmod.controller(rules.seating)
        lines.append(f"Game Controller {ctrl}'s queue (19.4): {_queue(rules, state, queue['q'], seat)}")
    return lines


def _queue(rules: Any, state: dict[str, Any], q: dict[str, Any], seat: str | None) -> str:
    """The queue's entries in order: a chit by name once known, a face-down
    one by its back only (19.4(5)), and to the seat holding it by name too."""
    mine = ((state["hidden"].get(seat) or {}).get("chits") or {}) if seat else {}
    parts = []
    for i, e in enumerate(q["entries"]):
        if e["chit"] is None:
            side = _side_of_token(rules, state, e["token"]) or "?"
            held = mine.get(e["token"][len(SEALED):])
            parts.append(f"{i + 1} face down ({SIDE_NAME.get(side, side)}"
                         + (f"; yours: {held[0]}" if held else "") + ")")
            continue
        how = "done" if e["done"] else "running" if e["running"] else "waiting" if e["revealed"] else "drawn"
        parts.append(f"{i + 1} {e['chit']} ({how})")
    return "; ".join(parts) or "empty"


def _master_cups(rules: Any, state: dict[str, Any]) -> list[str]:
    """20.2: the Master cup's Master chits by side and the chits beside
    them; each seat's HQ cup by count (a chit sent back by an interrupt
    shows face up)."""
    cup = state["cup"]
    masters = {s: cup.count(mastercup.MASTER + s) for s in SIDES}
    others = sorted(t for t in cup if not t.startswith(mastercup.MASTER))
    lines = [f"Master cup: {len(cup)} chit(s): Axis Master {masters['axis']}, Soviet Master {masters['soviet']}"
             + (f"; also {', '.join(others)}" if others else "")]
    cups = state.get("hqcups") or {}
    parts = []
    for seat in rules.seat_names():
        if seat not in cups:
            parts.append(f"{seat} not filled")
            continue
        up = [t for t in cups[seat] if not t.startswith(SEALED)]
        parts.append(f"{seat} {len(cups[seat])}" + (f" (face up: {', '.join(sorted(up))})" if up else ""))
    lines.append(f"HQ cups: {', '.join(parts)}")
    drawing = next((f for f in reversed(state["stack"]) if f["k"] == "mdraw"), None)
    if drawing is not None:
        drawn = [f"{d['seat'] or 'Master cup'}: {_chit_name(d['chit']) if d['chit'] else 'face down'}"
                 for d in drawing["draws"]]
        lines.append(f"Drawn now: {'; '.join(drawn)}")
    return lines


def _own(rules: Any, state: dict[str, Any], seat: str | None) -> list[str]:
    """The seat's own hidden part: its chits still face down (19: the side's
    commanding seat holds them, A49; 20: the seat's own HQ cup)."""
    own = ((state["hidden"].get(seat) or {}).get("chits") or {}) if seat else {}
    down = {h: c for h, (c, _) in own.items() if state["sealed"].get(h) == seat}
    if not down:
        return []
    if rules.seating.mode != seatmod.VARIANT:
        return [f"Your face-down chits this turn (secret): {', '.join(sorted(down.values()))}"]
    in_cup = {t[len(SEALED):] for t in (state.get("hqcups") or {}).get(seat, ())}
    name = {h: _chit_name(c) for h, c in down.items()}
    lines = [f"Your HQ cup (secret): {', '.join(sorted(name[h] for h in down if h in in_cup)) or 'empty'}"]
    drawn = sorted(name[h] for h in down if h not in in_cup)
    if drawn:
        lines.append(f"Drawn from it, still face down (secret): {', '.join(drawn)}")
    return lines


def _partners(rules: Any, state: dict[str, Any], seat: str | None) -> list[str]:
    """20.2: the HQ cups the seat's team-mates filled this turn, from the
    team's hidden part (held by the seats of the side alone: for any other
    seat it is None here, and the team's cups read as none)."""
    if seat is None or rules.seating.mode != seatmod.VARIANT:
        return []
    cups = rules.team_cups(state, rules.side_of_seat(seat))
    return [f"{mate}'s HQ cup as filled this turn (team secret, 20.2): "
            f"{', '.join(sorted(_chit_name(c) for c in cup)) or 'empty'}"
            for mate, cup in sorted(cups.items()) if mate != seat]


def _chit_name(chit: str) -> str:
    return "dummy" if chit.startswith(mastercup.DUMMY) else chit


def _seats(rules: Any, seat: str | None) -> TextBlock:
    """Who sits where: side, roles (the Game Controller 19.3, the side's
    commanding seat A49) and the seat's title."""
    st = rules.seating
    mode = "19, with a Game Controller" if st.mode == seatmod.CONTROLLER else "20, no Game Controller"
    lines = [f"Multiplayer ({mode}): {len(st.seats)} seats"]
    for s in st.seats:
        roles = (["Game Controller (19.3)"] if s.controller else []) \
            + (["side commands (A49)"] if st.side_commands.get(s.side) == s.name else [])
        lines.append(f"{s.name}{' (you)' if s.name == seat else ''}: {SIDE_NAME[s.side]}"
                     + "".join(f", {r}" for r in roles) + (f" - {s.title}" if s.title else ""))
    return TextBlock("seats", tuple(lines))


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
            text = "" if t == "plains" else terrain_mark(t)
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
