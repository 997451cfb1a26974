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

from pbem.game import IllegalOrder
from pbem.games.avd.model import Scenario

_HEX = re.compile(r"^\d{4}$")
_SHORT_CACHE: dict[int, tuple[dict[str, str], dict[str, list[str]]]] = {}


def _squash(text: str) -> str:
    return re.sub(r"[\s._]", "", text).lower()


def _tables(scn: Scenario) -> tuple[dict[str, str], dict[str, list[str]]]:
    """uid -> short name, and every accepted spelling -> uids."""
    key = id(scn)
    hit = _SHORT_CACHE.get(key)
    if hit and hit[0].keys() == scn.units.keys():
        return hit
    names: dict[str, list[str]] = {}
    for uid, u in scn.units.items():
        names.setdefault(_squash(u.name or uid), []).append(uid)
    short: dict[str, str] = {}
    for uid, u in scn.units.items():
        s = re.sub(r"\s", "", u.name or uid)
        short[uid] = s if len(names[_squash(u.name or uid)]) == 1 else uid
    spell: dict[str, list[str]] = {}
    for uid, u in scn.units.items():
        forms = {uid.lower(), _squash(uid), _squash(u.name or uid)}
        if "-" in uid:
            forms.add(_squash(uid.split("-", 1)[1]))
        for f in forms:
            spell.setdefault(f, [])
            if uid not in spell[f]:
                spell[f].append(uid)
    _SHORT_CACHE[key] = (short, spell)
    return short, spell


def short(scn: Scenario, uid: str) -> str:
    """The name a player types for ``uid`` (printed name without spaces,
    or the id when two counters print the same name)."""
    return _tables(scn)[0].get(uid, uid)


def unit(scn: Scenario, word: str) -> str:
    """A typed unit name -> its id; IllegalOrder naming the problem."""
    _, spell = _tables(scn)
    w = word.lower()
    hits = spell.get(w) or spell.get(_squash(word))
    if not hits:
        raise IllegalOrder(f"no unit called {word!r}")
    exact = [u for u in hits if u.lower() == w]
    if len(hits) > 1 and len(exact) != 1:
        raise IllegalOrder(f"{word!r} could be {', '.join(sorted(hits))}: use the id")
    return exact[0] if len(hits) > 1 else hits[0]


def hexid(word: str) -> str:
    if not _HEX.match(word):
        raise IllegalOrder(f"{word!r} is not a hex (four digits, e.g. 3919)")
    return word


def chit(scn: Scenario, word: str) -> str:
    for c in scn.chits:
        if c.lower() == word.lower():
            return c
    raise IllegalOrder(f"no chit called {word!r}; chits: {', '.join(sorted(scn.chits))}")


def _yesno(word: str) -> bool:
    w = word.lower()
    if w in ("yes", "y", "true", "play", "use"):
        return True
    if w in ("no", "n", "false", "keep", "none"):
        return False
    raise IllegalOrder(f"expected yes or no, got {word!r}")


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
        return _parse(verb, args, scn)
    except IndexError:
        raise IllegalOrder(f"{verb}: something is missing (see the order list)") from None


def _parse(verb: str, args: list[str], scn: Scenario) -> dict[str, Any]:
    if verb == "chits":
        ids = [chit(scn, w) for w in args]
        gud = [c for c in ids if scn.chits[c].kind == "guderian"]
        return {"verb": "chits", "guderian": bool(gud),
                "secret": {"chits": [c for c in ids if c not in gud]}}
    if verb == "reveal":
        return {"verb": "reveal", "chit": chit(scn, args[0]), "salt": args[1]}
    if verb == "guderian":
        return {"verb": "guderian", "play": _yesno(args[0])}
    if verb == "stuka":
        return {"verb": "stuka", "use": _yesno(args[0])}
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
            steps[unit(scn, w)] = int(n)
        return {"verb": "loss", "steps": steps}
    if verb == "retreat":
        if args and not _HEX.match(args[0]):
            return {"verb": "retreat", "unit": unit(scn, args[0]), "path": [hexid(w) for w in args[1:]]}
        return {"verb": "retreat", "path": [hexid(w) for w in args]}
    if verb in ("relocate", "place"):
        return {"verb": verb, "unit": unit(scn, args[0]), "hex": hexid(args[1])}
    if verb == "buy":
        out = {"verb": "buy", "unit": unit(scn, args[0]), "hex": hexid(args[1]), "chit": False}
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
        out: dict[str, Any] = {"verb": "air", "recover": False, "bomber": None}
        i = 0
        while i < len(args):
            w = args[i].lower()
            if w == "recover":
                out["recover"] = True
                i += 1
            elif w == "bomber":
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
        if not order.get("commitments"):
            return "chits " + " ".join(ids + gud[:1])
        # Once sealed, the notation never shows the chits: it may reach a shared log (7.1.3).
        return f"chits ({len(order['commitments'])} sealed)" + (" Guderian" if gud else "")
    if v == "reveal":
        return f"reveal {order['chit']} {order['salt']}"
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
