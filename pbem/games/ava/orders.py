"""Terse order notation for A Victory Awaits and Fierce Fight! Smolensk, both ways.

One order per line, words separated by spaces, case-insensitive.  Units are
named by their printed name without spaces ("7Pz", "19A") or by their id;
hexes by their four digits; chits by their id.

    chits ID ID ...                  the chits for the cup (secret); an interrupt chit goes to the hand
    extra ID                         the Soviet Army chit made available this turn (18.x, FFS 15.2)
    reveal HANDLE                    turn up the chit drawn (the owner's program does it)
    interrupt ID | interrupt no      cancel the chit just drawn with a held interrupt (7.3)
    zhukov ID | zhukov no            the Soviet's held Reinforcements chit under Zhukov's Command (18.1)
    move 7Pz 3919 4019 4020          normal movement (the start hex may be left out)
    strat 7Pz 3919 4019              strategic movement along a road (9.3)
    end-move
    attack 4121 with 7Pz 20Pz        declare an attack (AVA: all first, 10.2) or make one (FFS)
    resolve 4121                     AVA: the declared attack to resolve next
    end-combat                       no more attacks
    convert yes | convert no         FFS 14.2.5: a fortress hex takes steps instead of retreating
    declare yes | declare no         AVA 18.1: the Soviet declares Zhukov's Command
    loss 7Pz 1 20Pz 1 [fortress 1]   step losses (10.5)
    retreat [7Pz] 4020 4021          a retreat path (start excluded); naming a unit splits the stack
    advance 7Pz 4121 4122            advance after combat (10.7)
    place 12A 3322                   reinforcement placement by rail (12)
    enter 19A-1 5504 5405            entry from the map edge (19A 15.3, Strategic Reserve 15.4)
    senter 19A-1 5504 5405           the same by strategic movement
    withdraw 7Pz 20Pz                Axis to the Available Box (11.2) / Smolensk withdrawal (18.2)
    fortress 4112 [4112]             Soviet fortress steps (14.1)
    standfast 4112 [3510]            remove Stand Fast markers, one a map (16.2)
    pick 7Pz 20Pz                    Reserve/OKH: the units the die allows (17.2)
    transfer 3A                      HQ transfer to the next turn (17.3)
    pass | done
"""
from __future__ import annotations

import re
from typing import Any

from pbem.board import notation
from pbem.game import IllegalOrder
from pbem.games.ava.model import Scenario

_HEX = re.compile(r"^(?:[A-Z]:)?\d{4}$")    # CCRR, with a map prefix on a board of several maps (S:4112)
_WORDS = notation.Notation(IllegalOrder, _HEX, "four digits, e.g. 4112, or S:4112 on the campaign maps")
hexid = _WORDS.hexid            # a typed hex, as typed; IllegalOrder if it is not one
FORTRESS = "fortress"          # the pseudo-unit a loss allocation gives fortress steps to
_TABLES: dict[int, tuple[Scenario, dict[str, str], dict[str, list[str]]]] = {}


def _tables(scn: Scenario) -> tuple[dict[str, str], dict[str, list[str]]]:
    """uid -> short name, and every accepted spelling -> uids."""
    hit = _TABLES.get(id(scn))
    if hit and hit[0] is scn:
        return hit[1], hit[2]
    # A player names a unit by its counter id ("10Pz", "AX-3PzG"), short
    # enough to type and to fit a map hex; the full name is also accepted.
    short = {uid: uid for uid in scn.units}
    spell = notation.spellings((uid, u.name) for uid, u in sorted(scn.units.items()))
    if len(_TABLES) > 32:
        _TABLES.clear()
    _TABLES[id(scn)] = (scn, short, spell)
    return short, spell


def short(scn: Scenario, uid: str) -> str:
    """The name a player types for ``uid``."""
    return _tables(scn)[0].get(uid, uid)


def unit(scn: Scenario, word: str) -> str:
    return _WORDS.unit(_tables(scn)[1], word)


def chit(scn: Scenario, word: str) -> str:
    return _WORDS.chit(scn.chits, word)


SIMPLE = ("end-move", "end-combat", "pass", "done")
_UNIT_LISTS = ("withdraw", "pick")
_PATHS = ("move", "strat", "advance", "enter", "senter")


def parse(text: str, scn: Scenario) -> dict[str, Any]:
    """Terse notation -> order dict (see the module doc)."""
    words = text.strip().split()
    if not words:
        raise IllegalOrder("empty order")
    verb, args = words[0].lower(), words[1:]
    if verb in SIMPLE:
        if args:
            raise IllegalOrder(f"{verb} takes nothing after it")
        return {"verb": verb}
    try:
        order = _parse(verb, args, scn)
    except IndexError:
        raise IllegalOrder(f"{verb}: something is missing (see the order list)") from None
    check_shape(order, scn)
    return order


def _parse(verb: str, args: list[str], scn: Scenario) -> dict[str, Any]:
    if verb == "chits":
        ids = [chit(scn, w) for w in args]
        # an interrupt is held in hand (6.3), so is the Reinforcements chit under Zhukov's Command (18.1)
        hand = [c for c in ids if scn.chits[c].kind in ("interrupt", "reinforcement")]
        return {"verb": "chits", "hand": hand, "secret": {"chits": [c for c in ids if c not in hand]}}
    if verb == "reveal":
        return {"verb": "reveal", "open": [args[0]]}
    if verb == "extra":
        return {"verb": "extra", "chits": [chit(scn, w) for w in args]}
    if verb in ("interrupt", "zhukov"):
        return {"verb": verb, "chit": None if args[0].lower() == "no" else chit(scn, args[0])}
    if verb in ("convert", "declare"):
        return {"verb": verb, "yes": _WORDS.yesno(args[0])}
    if verb in _UNIT_LISTS:
        return {"verb": verb, "units": [unit(scn, w) for w in args]}
    if verb in _PATHS:
        if len(args) < 2:
            raise IllegalOrder(f"{verb} UNIT HEX ...: give the unit and at least one hex")
        return {"verb": verb, "unit": unit(scn, args[0]), "path": [hexid(w) for w in args[1:]]}
    if verb == "attack":
        if len(args) < 3 or args[1].lower() != "with":
            raise IllegalOrder("attack HEX with UNIT ...")
        return {"verb": "attack", "hex": hexid(args[0]), "units": [unit(scn, w) for w in args[2:]]}
    if verb == "resolve":
        return {"verb": verb, "hex": hexid(args[0])}
    if verb in ("fortress", "standfast"):
        return {"verb": verb, "hexes": [hexid(w) for w in args]}
    if verb in ("place",):
        return {"verb": verb, "unit": unit(scn, args[0]), "hex": hexid(args[1])}
    if verb == "transfer":
        return {"verb": verb, "unit": unit(scn, args[0])}
    if verb == "loss":
        return {"verb": "loss", "steps": _loss_steps(args, scn)}
    if verb == "retreat":
        if args and not _HEX.match(args[0]):
            return {"verb": "retreat", "unit": unit(scn, args[0]), "path": [hexid(w) for w in args[1:]]}
        return {"verb": "retreat", "path": [hexid(w) for w in args]}
    raise IllegalOrder(f"unknown order {verb!r}")


def _loss_steps(args: list[str], scn: Scenario) -> dict[str, int]:
    if not args or len(args) % 2:
        raise IllegalOrder("loss UNIT STEPS [UNIT STEPS ...] [fortress STEPS]")
    steps: dict[str, int] = {}
    for w, n in zip(args[::2], args[1::2]):
        if not n.isdigit():
            raise IllegalOrder(f"loss: {n!r} is not a number of steps")
        u = FORTRESS if w.lower() == FORTRESS else unit(scn, w)
        if u in steps:
            raise IllegalOrder(f"loss: {w} is named twice (give each unit's steps once)")
        steps[u] = int(n)
    return steps


# ------------------------------------------------------------ order shape
# Every name an order carries is checked before the rules look at it: known,
# of the right kind, and given once (a unit named twice in an attack would
# count twice, 10.3).  Which names are legal now is the rules' part.
_UNIT, _UNITS, _HEXV, _HEXES, _BOOL, _COUNT, _CHIT, _CHITS, _STEPS = range(9)
_SHAPES: dict[str, tuple[tuple[str, int, bool], ...]] = {
    "end-move": (), "end-combat": (), "pass": (), "done": (), "reveal": (),
    "chits": (("hand", _CHITS, False), ("count", _COUNT, False)),
    "extra": (("chits", _CHITS, True),),
    "interrupt": (("chit", _CHIT, False),),
    "zhukov": (("chit", _CHIT, False),),
    "convert": (("yes", _BOOL, True),),
    "declare": (("yes", _BOOL, True),),
    "withdraw": (("units", _UNITS, True),),
    "pick": (("units", _UNITS, True),),
    "move": (("unit", _UNIT, True), ("path", _HEXES, True)),
    "strat": (("unit", _UNIT, True), ("path", _HEXES, True)),
    "advance": (("unit", _UNIT, True), ("path", _HEXES, True)),
    "enter": (("unit", _UNIT, True), ("path", _HEXES, True)),
    "senter": (("unit", _UNIT, True), ("path", _HEXES, True)),
    "attack": (("hex", _HEXV, True), ("units", _UNITS, True)),
    "resolve": (("hex", _HEXV, True),),
    "standfast": (("hexes", _HEXES, True),),
    "fortress": (("hexes", _HEXES, True),),
    "place": (("unit", _UNIT, True), ("hex", _HEXV, True)),
    "transfer": (("unit", _UNIT, True),),
    "loss": (("steps", _STEPS, True),),
    "retreat": (("unit", _UNIT, False), ("path", _HEXES, True)),
}


def _check_value(verb: str, key: str, kind: int, v: Any, scn: Scenario) -> None:
    if kind == _UNIT:
        if not isinstance(v, str) or v not in scn.units:
            raise IllegalOrder(f"{verb}: no unit {v!r}")
    elif kind == _UNITS:
        if not isinstance(v, list) or not v:
            raise IllegalOrder(f"{verb}: name the units")
        for u in v:
            _check_value(verb, key, _UNIT, u, scn)
        _WORDS.once(v, "unit", lambda u: short(scn, u))
    elif kind == _HEXV:
        if not isinstance(v, str) or not _HEX.match(v):
            raise IllegalOrder(f"{verb}: {v!r} is not a hex (four digits)")
    elif kind == _HEXES:
        if not isinstance(v, list) or not v:
            raise IllegalOrder(f"{verb}: give the hexes")
        for h in v:
            _check_value(verb, key, _HEXV, h, scn)
    elif kind == _BOOL:
        if not isinstance(v, bool):
            raise IllegalOrder(f"{verb}: {key} must be yes or no")
    elif kind == _COUNT:
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise IllegalOrder(f"{verb}: {key} must be a number")
    elif kind == _CHIT:
        if not isinstance(v, str) or v not in scn.chits:
            raise IllegalOrder(f"{verb}: no chit {v!r}")
    elif kind == _CHITS:
        if not isinstance(v, list) or any(not isinstance(c, str) or c not in scn.chits for c in v):
            raise IllegalOrder(f"{verb}: name chits that exist")
        _WORDS.once(v, "chit")
    elif kind == _STEPS:
        _check_steps(verb, v, scn)


def _check_steps(verb: str, v: Any, scn: Scenario) -> None:
    if not isinstance(v, dict) or not v:
        raise IllegalOrder(f"{verb}: name the units and their steps")
    for u, n in v.items():
        if u != FORTRESS:
            _check_value(verb, "steps", _UNIT, u, scn)
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise IllegalOrder(f"{verb}: {n!r} is not a number of steps")


def check_shape(order: Any, scn: Scenario) -> None:
    """IllegalOrder (one line) unless ``order`` is a well-formed order."""
    if not isinstance(order, dict) or not isinstance(order.get("verb"), str):
        raise IllegalOrder("an order needs a verb")
    verb = order["verb"]
    shape = _SHAPES.get(verb)
    if shape is None:
        raise IllegalOrder(f"unknown order {verb!r}")
    for key, kind, required in shape:
        if order.get(key) is None:
            if required:
                raise IllegalOrder(f"{verb}: {key} is missing")
            continue
        _check_value(verb, key, kind, order[key], scn)
    if verb == "chits":
        _check_selection(order, scn)


def _check_selection(order: dict[str, Any], scn: Scenario) -> None:
    secret = order.get("secret")
    if secret is None:
        return
    if not isinstance(secret, dict) or set(secret) != {"chits"}:
        raise IllegalOrder("chits: the selection is malformed")
    _check_value("chits", "chits", _CHITS, secret["chits"], scn)
    _WORDS.once(list(secret["chits"]) + list(order.get("hand") or []), "chit")


def format_loss(scn: Scenario, alloc: dict[str, int]) -> str:
    return "loss " + " ".join(f"{u if u == FORTRESS else short(scn, u)} {n}" for u, n in sorted(alloc.items()))


def format(order: dict[str, Any], scn: Scenario) -> str:
    """Order dict -> terse notation (the inverse of :func:`parse`).  A sealed
    selection never shows its chits: the notation may reach a shared log."""
    v = order.get("verb", "?")

    def s(uid: str) -> str:
        return short(scn, uid)

    if v in SIMPLE:
        return str(v)
    if v == "chits":
        hand = list(order.get("hand") or [])
        if "count" in order:
            return f"chits ({order['count']} sealed)" + "".join(f" {c}" for c in hand)
        return " ".join(["chits"] + list((order.get("secret") or {}).get("chits", [])) + hand)
    if v == "reveal":
        return " ".join(["reveal"] + [str(h) for h in order.get("open") or []])
    if v in ("interrupt", "zhukov"):
        return f"{v} {order.get('chit') or 'no'}"
    if v == "extra":
        return " ".join(["extra"] + list(order["chits"]))
    if v in ("convert", "declare"):
        return f"{v} " + ("yes" if order.get("yes") else "no")
    if v in _UNIT_LISTS:
        return " ".join([v] + [s(u) for u in order["units"]])
    if v in _PATHS:
        return " ".join([v, s(order["unit"])] + list(order["path"]))
    if v == "attack":
        return f"attack {order['hex']} with " + " ".join(s(u) for u in order["units"])
    if v == "resolve":
        return f"{v} {order['hex']}"
    if v in ("fortress", "standfast"):
        return " ".join([v] + list(order["hexes"]))
    if v == "place":
        return f"place {s(order['unit'])} {order['hex']}"
    if v == "transfer":
        return f"transfer {s(order['unit'])}"
    if v == "loss":
        return format_loss(scn, order["steps"])
    if v == "retreat":
        return " ".join(["retreat"] + ([s(order["unit"])] if order.get("unit") else []) + list(order["path"]))
    raise IllegalOrder(f"cannot write order {v!r}")
