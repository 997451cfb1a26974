"""A Victory Denied's whole map as data (:class:`pbem.game.HexMapPicture`):
what ``pbem map`` and the mail draw as a picture and ``pbem sitrep --map
all`` draws in the terminal.

The map itself (terrain, rivers, roads and bridges, places, Victory Hexes,
supply sources) is the same for everyone and is worked out once per
scenario; the stacks come from a state that :func:`pbem.games.avd.view.view`
has already reduced to what the seat may see (no other side's hidden
part), and carry only what is printed on the counters and the public
markers (Out of Supply, isolated, active), and VP chits as face up (their
value) or face down ("VP?": the value is drawn only when turned up).
"""
from __future__ import annotations

import weakref
from typing import Any

from pbem.game import HexMapPicture, Piece
from pbem.games.avd import orders

LEGEND = ("Each hex: its id, its terrain colour, place name; blue star minor, gold star major Victory Hex; "
          "blue lines rivers (thick: major), brown lines roads, a grey bar a bridge. A stack shows its top unit "
          "(combat units first) and +N for the units under it; a counter shows its name, strength "
          "(attack-defence-movement, or CR for an HQ) and, when reduced, its steps. Markers: OoS out of "
          "supply, ISO isolated, ACT active.")

# id(scenario) -> (a weak reference to it, its static parts): a scenario
# holds dicts, so it cannot be a dictionary key itself.
_STATIC: dict[int, tuple[Any, dict[str, Any]]] = {}


def _static(scn: Any) -> dict[str, Any]:
    """The parts of the picture that never change in a game of ``scn``."""
    ref, found = _STATIC.get(id(scn), (None, None))
    if ref is not None and ref() is scn and found is not None:
        return found
    m = scn.map
    marks: dict[str, list[str]] = {}

    def mark(h: str, word: str) -> None:
        marks.setdefault(h, []).append(word)

    for h, level in m.victory.items():
        mark(h, f"victory-{level}")
    for h in m.moscow:
        mark(h, "Moscow")
    for h in m.minsk_pocket:
        mark(h, "Minsk pocket")
    for h in m.supply_german:
        mark(h, "supply-german")
    for h in sorted(m.supply_soviet | m.supply_soviet_until_turn4):
        mark(h, "supply-soviet")
    for h in m.timoshenko_entry:
        mark(h, "Timoshenko entry")
    found = {
        "grid": (m.first_col, m.last_col, m.first_row, m.last_row, m.offset),
        "terrain": {h: t for h, t in m.terrain.items() if t != "clear"},
        "hexsides": {k: tuple(sorted(v)) for k, v in m.hexsides.items()},
        "places": dict(m.names),
        "marks": {h: tuple(ws) for h, ws in marks.items()},
    }
    if len(_STATIC) > 16:
        _STATIC.clear()
    _STATIC[id(scn)] = (weakref.ref(scn), found)
    return found


def piece(rules: Any, state: dict[str, Any], uid: str) -> Piece:
    """One counter as printed, with its public markers."""
    scn = rules.scn
    spec = scn.units[uid]
    x = state["units"][uid]
    b = rules.board(state)
    if spec.kind == "hq":
        strength = f"CR {spec.command_range}"
    else:
        strength = f"{b.attack(uid)}-{b.defense(uid)}-{spec.movement}"
    steps = f"{x['steps']}/{spec.steps}" if spec.steps > 1 and x["steps"] < spec.steps else ""
    markers = tuple(w for w, on in (("OoS", x["oos"]), ("isolated", x["isolated"]), ("active", x["active"])) if on)
    return Piece(spec.side, orders.short(scn, uid), strength, steps, markers=markers)


def picture(rules: Any, state: dict[str, Any]) -> HexMapPicture:
    """The whole map of ``state`` (already what one seat may see)."""
    scn = rules.scn
    static = _static(scn)
    b = rules.board(state)
    stacks: dict[str, tuple[Piece, ...]] = {}
    for h in sorted({b.hex_of(u) for u in state["units"] if b.on_map(u)} - {None}):
        units = sorted(b.units_at(h), key=lambda u: (scn.units[u].kind == "hq", u))
        if units:
            stacks[h] = tuple(piece(rules, state, u) for u in units)
    marks = dict(static["marks"])
    for h, chit in (state.get("vp") or {}).items():
        if chit == "down":
            marks[h] = marks.get(h, ()) + ("VP?",)
        elif isinstance(chit, str) and chit.startswith("up:"):
            marks[h] = marks.get(h, ()) + (f"VP {chit[3:]}",)
    return HexMapPicture("map", static["grid"], static["terrain"], static["hexsides"], static["places"], marks,
                         stacks, LEGEND)
