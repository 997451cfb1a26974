"""Terse order notation for A Victory Denied, both ways.

One order per line, words separated by spaces, case-insensitive.  Units
are named by their printed name without spaces ("7Pz", "22A") or by their
id; hexes by their four digits.

    chits 3PzG-1 9A-1 Guderian       choose chits for the cup (Guderian: its box)
    guderian yes | guderian no       trump the chit just drawn with Guderian
    activate 9A-HQ                   the HQ a 9th Army chit activates
    seed 7Pz 19Pz                    one unit per Panzer Corps
    move 7Pz 3919 4019 4020          a path (the start hex may be left out)
    move 7Pz 4020                    a destination alone: the cheapest legal path
    strat 45C 2110 2111              strategic movement along a road
    end-move | end-combat | pass | done
    attack 4121 with 7Pz 20Pz stuka  an attack, with an attacking Stuka
    stuka yes | stuka no             a defensive Stuka
    elite KV1                        the attacker an elite draw stacks with
    loss 7Pz 1 20Pz 1                step losses
    retreat [7Pz] 4020 4021          a retreat path (start excluded)
    advance 7Pz 4121 4122            advance after combat
    relocate 22A 3322                HQ relocation
    oos 7Pz 20Pz | disband 45C | withdraw A B C D | stars A B
    buy 45C 3322 | buy 22A 3322 chit | place PVO-3 3919
    release 9A-HQ 5Inf buy 1         Minsk Pocket release
    air recover bomber 2620 | art 2717 | rocket 2518
    directive moscow | directive distracted
"""
from __future__ import annotations

import re
from typing import Any

from pbem.board import notation
from pbem.game import IllegalOrder
from pbem.games.avd.model import Scenario

_HEX = re.compile(r"^\d{4}$")
_HEX_MATCH = _HEX.match
# id(scenario) -> (short names, spellings, the scenario's units table as
# read, its size): the scenario is kept, so its id is not reused.
_SHORT_CACHE: dict[int, tuple[dict[str, str], dict[str, list[str]], Any, int]] = {}
# the words of a hex, and of a yes/no answer (guderian, stuka)
_WORDS = notation.Notation(IllegalOrder, _HEX, "four digits, e.g. 3919",
                           yes=("yes", "y", "true", "play", "use"), no=("no", "n", "false", "keep", "none"))
hexid = _WORDS.hexid            # a typed hex, as typed; IllegalOrder if it is not one


def _kept(scn: Scenario) -> Any:
    """The tables kept for ``scn``, if they are still its own (same units)."""
    hit = _SHORT_CACHE.get(id(scn))
    return hit if hit and hit[2] is scn.units and hit[3] == len(scn.units) else None


def _tables(scn: Scenario) -> tuple[dict[str, str], dict[str, list[str]]]:
    """uid -> short name, and every accepted spelling -> uids."""
    key = id(scn)
    hit = _kept(scn)
    if hit is not None:
        return hit[0], hit[1]
    names: dict[str, list[str]] = {}
    for uid, u in scn.units.items():
        names.setdefault(notation.squash(u.name or uid), []).append(uid)
    short: dict[str, str] = {}
    for uid, u in scn.units.items():
        s = re.sub(r"\s", "", u.name or uid)
        short[uid] = s if len(names[notation.squash(u.name or uid)]) == 1 else uid
    spell = notation.spellings(((uid, u.name) for uid, u in scn.units.items()), after_dash=True)
    if len(_SHORT_CACHE) >= 64:
        _SHORT_CACHE.clear()
    _SHORT_CACHE[key] = (short, spell, scn.units, len(scn.units))
    return short, spell


def short(scn: Scenario, uid: str) -> str:
    """The name a player types for ``uid`` (printed name without spaces,
    or the id when two counters print the same name)."""
    return shorts(scn).get(uid, uid)


def shorts(scn: Scenario) -> dict[str, str]:
    """uid -> the name :func:`short` gives, for the units of ``scn``
    (read only; a unit missing from it is named by its id, as short()
    names it).  Speed only: for lists that name many units."""
    hit = _kept(scn)
    return hit[0] if hit is not None else _tables(scn)[0]  # type: ignore[no-any-return]


def unit(scn: Scenario, word: str) -> str:
    """A typed unit name -> its id; IllegalOrder naming the problem."""
    return _WORDS.unit(_tables(scn)[1], word)


def chit(scn: Scenario, word: str) -> str:
    return _WORDS.chit(scn.chits, word)


_SIMPLE = ("end-move", "end-combat", "pass", "done")
_UNIT_LISTS = ("seed", "oos", "disband", "withdraw", "stars", "add-chit")


def parse(text: str, scn: Scenario, state: dict[str, Any] | None = None, side: str | None = None) -> dict[str, Any]:
    """Terse notation -> order dict (see the module doc)."""
    words = text.strip().split()
    if not words:
        raise IllegalOrder("empty order")
    verb, args = words[0].lower(), words[1:]
    if verb in ("endmove",):
        verb = "end-move"
    if verb in ("endcombat",):
        verb = "end-combat"
    if verb in _SIMPLE:
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
        _WORDS.once(ids, "chit")
        gud = [c for c in ids if scn.chits[c].kind == "guderian"]
        return {"verb": "chits", "guderian": bool(gud),
                "secret": {"chits": [c for c in ids if c not in gud]}}
    if verb == "reveal":
        return {"verb": "reveal", "open": [args[0]]}
    if verb == "guderian":
        return {"verb": "guderian", "play": _WORDS.yesno(args[0])}
    if verb == "stuka":
        return {"verb": "stuka", "use": _WORDS.yesno(args[0])}
    if verb == "activate":
        return {"verb": "activate", "unit": unit(scn, args[0])}
    if verb == "elite":
        return {"verb": "elite", "unit": unit(scn, args[0])}
    if verb in _UNIT_LISTS:
        if verb == "add-chit":
            return {"verb": verb, "chits": [chit(scn, w) for w in args]}
        return {"verb": verb, "units": [unit(scn, w) for w in args]}
    if verb in ("move", "strat"):
        if len(args) < 2:
            raise IllegalOrder(f"{verb} UNIT HEX ...: give the unit and at least one hex")
        return {"verb": verb, "unit": unit(scn, args[0]), "path": [hexid(w) for w in args[1:]]}
    if verb == "advance":
        if len(args) < 2:
            raise IllegalOrder("advance UNIT HEX [HEX]")
        return {"verb": verb, "unit": unit(scn, args[0]), "path": [hexid(w) for w in args[1:]]}
    if verb == "attack":
        if len(args) < 3 or args[1].lower() != "with":
            raise IllegalOrder("attack HEX with UNIT ... [stuka]")
        rest = args[2:]
        stuka = bool(rest) and rest[-1].lower() == "stuka"
        if stuka:
            rest = rest[:-1]
        if not rest:
            raise IllegalOrder("attack: name the attacking units")
        return {"verb": "attack", "hex": hexid(args[0]), "units": [unit(scn, w) for w in rest], "stuka": stuka}
    if verb == "loss":
        if len(args) % 2:
            raise IllegalOrder("loss UNIT STEPS [UNIT STEPS ...]")
        steps: dict[str, int] = {}
        for w, n in zip(args[::2], args[1::2]):
            if not n.isdigit():
                raise IllegalOrder(f"loss: {n!r} is not a number of steps")
            u = unit(scn, w)
            if u in steps:
                raise IllegalOrder(f"loss: {short(scn, u)} is named twice (give each unit's steps once)")
            steps[u] = int(n)
        return {"verb": "loss", "steps": steps}
    if verb == "retreat":
        if args and not _HEX.match(args[0]):
            return {"verb": "retreat", "unit": unit(scn, args[0]), "path": [hexid(w) for w in args[1:]]}
        return {"verb": "retreat", "path": [hexid(w) for w in args]}
    if verb in ("relocate", "place"):
        return {"verb": verb, "unit": unit(scn, args[0]), "hex": hexid(args[1])}
    if verb == "buy":
        out: dict[str, Any] = {"verb": "buy", "unit": unit(scn, args[0]), "hex": hexid(args[1]), "chit": False}
        if len(args) > 2:
            if args[2].lower() != "chit":
                raise IllegalOrder("buy UNIT HEX [chit]")
            out["chit"] = True
        return out
    if verb == "release":
        units, buy = [], 0
        i = 0
        while i < len(args):
            if args[i].lower() == "buy":
                if i + 1 >= len(args) or not args[i + 1].isdigit():
                    raise IllegalOrder("release ... buy N")
                buy = int(args[i + 1])
                i += 2
                continue
            units.append(unit(scn, args[i]))
            i += 1
        return {"verb": "release", "units": units, "buy": buy}
    if verb == "air":
        out = {"verb": "air", "recover": False, "bomber": None}
        i = 0
        while i < len(args):
            w = args[i].lower()
            if w == "recover":
                if out["recover"]:
                    raise IllegalOrder("air: one Stuka is recovered per Air Power chit (13.3)")
                out["recover"] = True
                i += 1
            elif w == "bomber":
                if out["bomber"] is not None:
                    raise IllegalOrder("air: one Bomber attack, on one hex (13.3)")
                out["bomber"] = hexid(args[i + 1])
                i += 2
            else:
                raise IllegalOrder("air [recover] [bomber HEX]")
        return out
    if verb in ("art", "rocket"):
        return {"verb": verb, "hex": hexid(args[0])}
    if verb == "directive":
        c = args[0].lower()
        if c not in ("moscow", "distracted"):
            raise IllegalOrder("directive moscow or directive distracted")
        return {"verb": "directive", "choice": c}
    raise IllegalOrder(f"unknown order {verb!r}")


# ------------------------------------------------------------ order shape
# What every order names, checked by the rules before anything else (and by
# the parser on what it builds): each name is known, of the right kind, and
# given once.  A name given twice would count twice where the rules add
# things up (9.3.1: a unit adds its strength to an attack once), so it is
# refused everywhere, whatever the verb.  Which names are legal *now* (the
# active side's units, an adjacent hex, a listed option) is the rules' part.
_K_UNIT, _K_UNITS, _K_HEX, _K_PATH, _K_BOOL, _K_COUNT, _K_TEXT, _K_CHITS, _K_STEPS, _K_BOMBER = range(10)
REQUIRED, OPTIONAL = True, False
_SHAPES: dict[str, tuple[tuple[str, int, bool], ...]] = {
    "end-move": (), "end-combat": (), "pass": (), "done": (),
    "chits": (("guderian", _K_BOOL, OPTIONAL), ("count", _K_COUNT, OPTIONAL)),
    "reveal": (),
    "guderian": (("play", _K_BOOL, REQUIRED),),
    "stuka": (("use", _K_BOOL, REQUIRED),),
    "activate": (("unit", _K_UNIT, REQUIRED),),
    "elite": (("unit", _K_UNIT, REQUIRED),),
    "seed": (("units", _K_UNITS, REQUIRED),),
    "oos": (("units", _K_UNITS, REQUIRED),),
    "disband": (("units", _K_UNITS, REQUIRED),),
    "withdraw": (("units", _K_UNITS, REQUIRED),),
    "stars": (("units", _K_UNITS, REQUIRED),),
    "add-chit": (("chits", _K_CHITS, REQUIRED),),
    "move": (("unit", _K_UNIT, REQUIRED), ("path", _K_PATH, REQUIRED)),
    "strat": (("unit", _K_UNIT, REQUIRED), ("path", _K_PATH, REQUIRED)),
    "advance": (("unit", _K_UNIT, REQUIRED), ("path", _K_PATH, REQUIRED)),
    "attack": (("hex", _K_HEX, REQUIRED), ("units", _K_UNITS, REQUIRED), ("stuka", _K_BOOL, OPTIONAL)),
    "loss": (("steps", _K_STEPS, REQUIRED),),
    "retreat": (("unit", _K_UNIT, OPTIONAL), ("path", _K_PATH, REQUIRED)),
    "relocate": (("unit", _K_UNIT, REQUIRED), ("hex", _K_HEX, REQUIRED)),
    "place": (("unit", _K_UNIT, REQUIRED), ("hex", _K_HEX, REQUIRED)),
    "buy": (("unit", _K_UNIT, REQUIRED), ("hex", _K_HEX, REQUIRED), ("chit", _K_BOOL, OPTIONAL)),
    "release": (("units", _K_UNITS, REQUIRED), ("buy", _K_COUNT, OPTIONAL)),
    "air": (("recover", _K_BOOL, OPTIONAL), ("bomber", _K_BOMBER, OPTIONAL)),
    "art": (("hex", _K_HEX, REQUIRED),),
    "rocket": (("hex", _K_HEX, REQUIRED),),
    "directive": (("choice", _K_TEXT, REQUIRED),),
}


def _known_unit(scn: Scenario, verb: str, u: Any) -> str:
    if not isinstance(u, str) or u not in scn.units:
        raise IllegalOrder(f"{verb}: no unit {u!r}")
    return u


def _known_hex(verb: str, h: Any) -> str:
    if not isinstance(h, str) or not _HEX.match(h):
        raise IllegalOrder(f"{verb}: {h!r} is not a hex (four digits, e.g. 3919)")
    return h


def check_shape(order: Any, scn: Scenario) -> None:
    """IllegalOrder (one line) unless ``order`` is a well-formed order: a
    known verb, every name it needs present, every unit, hex and chit one
    that exists, and none given twice."""
    if not isinstance(order, dict) or not isinstance(order.get("verb"), str):
        raise IllegalOrder("an order needs a verb")
    verb = order["verb"]
    shape = _SHAPES.get(verb)
    if shape is None:
        raise IllegalOrder(f"unknown order {verb!r}")
    for key, kind, required in shape:
        v = order.get(key)
        if v is None:
            if required and kind != _K_BOMBER:
                raise IllegalOrder(f"{verb}: {key} is missing")
            continue
        if kind == _K_UNIT:
            _known_unit(scn, verb, v)
        elif kind == _K_UNITS:
            if not isinstance(v, list) or not v:
                raise IllegalOrder(f"{verb}: name the units")
            for u in v:
                _known_unit(scn, verb, u)
            _WORDS.once(v, "unit", lambda u: short(scn, u))
        elif kind in (_K_HEX, _K_BOMBER):
            _known_hex(verb, v)
        elif kind == _K_PATH:
            if not isinstance(v, list) or not v:
                raise IllegalOrder(f"{verb}: give the hexes of the path")
            # (_known_hex's test inline, its refusal only for a hex that
            # fails it: speed only, every hex of every path)
            for h in v:
                if not isinstance(h, str) or not _HEX_MATCH(h):
                    _known_hex(verb, h)
        elif kind == _K_BOOL:
            if not isinstance(v, bool):
                raise IllegalOrder(f"{verb}: {key} must be yes or no")
        elif kind == _K_COUNT:
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise IllegalOrder(f"{verb}: {key} must be a number")
        elif kind == _K_TEXT:
            if not isinstance(v, str):
                raise IllegalOrder(f"{verb}: {key} must be a word")
        elif kind == _K_CHITS:
            if not isinstance(v, list) or any(not isinstance(c, str) or c not in scn.chits for c in v):
                raise IllegalOrder(f"{verb}: name chits that exist")
            _WORDS.once(v, "chit")
        elif kind == _K_STEPS:
            if not isinstance(v, dict) or not v:
                raise IllegalOrder(f"{verb}: name the units and their steps")
            for u, n in v.items():
                _known_unit(scn, verb, u)
                if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                    raise IllegalOrder(f"{verb}: {n!r} is not a number of steps")
    if verb == "air" and not order.get("recover") and not order.get("bomber"):
        raise IllegalOrder("air: recover, bomber HEX or both (or pass)")
    if verb == "chits":
        _check_chit_selection(order, scn)


def _check_chit_selection(order: dict[str, Any], scn: Scenario) -> None:
    """The secret part of a selection (the owner's program and the audit
    see it): the chits, known, each once."""
    secret = order.get("secret")
    if secret is not None:
        if not isinstance(secret, dict) or set(secret) != {"chits"}:
            raise IllegalOrder("chits: the selection is malformed")
        chits = secret["chits"]
        if not isinstance(chits, list) or any(not isinstance(c, str) or c not in scn.chits for c in chits):
            raise IllegalOrder("chits: name chits that exist")
        _WORDS.once(chits, "chit")


def format_loss(scn: Scenario, alloc: dict[str, int]) -> str:
    return "loss " + " ".join(f"{short(scn, u)} {n}" for u, n in sorted(alloc.items()))


def format(order: dict[str, Any], scn: Scenario) -> str:  # noqa: A001 - the interface's name
    """Order dict -> terse notation (the inverse of :func:`parse`)."""
    v = order.get("verb", "?")
    s = lambda u: short(scn, u)  # noqa: E731
    if v in _SIMPLE:
        return v
    if v == "chits":
        secret = order.get("secret") or {}
        ids = list(secret.get("chits", []))
        gud = [c for c, x in scn.chits.items() if x.kind == "guderian"] if order.get("guderian") else []
        if "count" not in order:
            return "chits " + " ".join(ids + gud[:1])
        # Once sealed, the notation never shows the chits: it may reach a shared log (7.1.3).
        return f"chits ({order['count']} sealed)" + (" Guderian" if gud else "")
    if v == "reveal":
        return " ".join(["reveal"] + [str(h) for h in order.get("open") or []])
    if v == "guderian":
        return "guderian " + ("yes" if order.get("play") else "no")
    if v == "stuka":
        return "stuka " + ("yes" if order.get("use") else "no")
    if v in ("activate", "elite"):
        return f"{v} {s(order['unit'])}"
    if v == "add-chit":
        return " ".join([v] + list(order.get("chits", [])))
    if v in _UNIT_LISTS:
        return " ".join([v] + [s(u) for u in order.get("units", [])])
    if v in ("move", "strat", "advance"):
        return " ".join([v, s(order["unit"])] + list(order["path"]))
    if v == "attack":
        return f"attack {order['hex']} with " + " ".join(s(u) for u in order["units"]) + (
            " stuka" if order.get("stuka") else "")
    if v == "loss":
        return format_loss(scn, order.get("steps", {}))
    if v == "retreat":
        return " ".join(["retreat"] + ([s(order["unit"])] if order.get("unit") else []) + list(order["path"]))
    if v in ("relocate", "place"):
        return f"{v} {s(order['unit'])} {order['hex']}"
    if v == "buy":
        return f"buy {s(order['unit'])} {order['hex']}" + (" chit" if order.get("chit") else "")
    if v == "release":
        return " ".join(["release"] + [s(u) for u in order["units"]]) + (
            f" buy {order['buy']}" if order.get("buy") else "")
    if v == "air":
        parts = ["air"] + (["recover"] if order.get("recover") else []) + (
            ["bomber", order["bomber"]] if order.get("bomber") else [])
        return " ".join(parts)
    if v in ("art", "rocket"):
        return f"{v} {order['hex']}"
    if v == "directive":
        return f"directive {order['choice']}"
    raise IllegalOrder(f"cannot write order {v!r}")
