"""Terse order notation for Victory Roads, both ways.

One order per line, words separated by spaces, case-insensitive.  Units
are named by their scenario id (``tk_a``, ``fhh``); hexes by four digits;
face-down Supports by their handle (``s-3`` Soviet, ``g-2`` German).

    move tk_a 5327 5227 5127      a stack's path (the start may be left out)
    move tk_a cav 5127            a destination alone: the cheapest path
    strat 14id 5026 4926 4826     Strategic Movement (6.2)
    rail fhh 4827 4127            Rail Movement (6.4, German; also arriving units in the R&R phase, 6.4.5)
    naval 14id 4932               Naval Movement of one unit to another port (6.5, German)
    halt 4727 | unhalt 4727       a Haltebefehl marker, at the start of the German Movement phase (6.7)
    abandon ger_hq g-1 g-2        Abandon equipment and retreat: two Supports on an HQ (6.3)
    attach g-3 fhh                a leader Support attached to a unit in the Support phase (5.4.4)
    airlift g-4 4727              the Ju-52 Event: that hex's units in supply (4.2.1, practice Event)
    withdraw 4828                 the Withdrawal marker at the end of the German Supply phase (4.7)
    pay g-2                       spend a Support for this phase's Strategic Movement (6.2.3)
    end-move | end-combat | done | pass
    attack 5026 with fhh 14id     a battle: the hex and its attackers
    declare [elite fhh] [armored] [leader fhh] [support g-1 g-2]    attacker's declarations (7.6, 7.5.6, 5.4.4)
    react g-1 | pass              defender's Support in the enemy turn
    elite fhh | elite none        defender's Elite bonus
    terrain forest                defender's terrain pick (1.8)
    row river | row terrain       defender's row for the attacker's result (7.9.4)
    first fhh                     defender's pick of the attacker's first loss (7.8.1)
    loss tk_a 1 cav 1             step losses
    result E2                     an Elite pick (7.9.3)
    s-loss tk_a | s-retreat       an S result (R-38)
    retreat tk_a 5228 5229        a retreat path (start excluded)
    advance 14id | exploit tk_a tk_b | kg yes | kg no | survivor ROM1
    return s-3 s-5                Supports back to the pool above six (5.1.3)
    pontoon 1bf_hq 5227 | unpontoon 1bf_hq
    place tk_c 5527 | eliminate tk_a

Advanced Soviet Support phase (§11) and TO markers (§9):

    priority CS N                 the Priority and the Secondary TO (11.3.1)
    priority S N large ally_cap   ... with a Large Offensive; the picked Support is the order's sealed
                                  secret part, never shown in the public copy (11.3.2)
    take N                        a Movement-Mode TO takes one Support (11.3.4)
    lendlease s-3 CN              Lend-Lease on a TO (11.5.2)
    surprise s-4 6222 with c1 c2  a Surprise Attack from the attackers' hex, fought at once (11.5.2)
    reinforce s-5 c1 c2           one Support for one or two stacked corps (10.3.2)
    tomove N 5226 5227 [pay s-6]  a TO's move (11.2 remoteness, 11.6)
    flip CN                       a TO's mode switch (11.7)
    tocity N 5530                 where a displaced TO goes among equally near cities (9.1.4)
    appeal CS reserve N move      the Stavka appeals, before any die (§12); appeal none
    boost s-7 | roll              +1 on a TO's Stavka die for a Support of its box; then the die
    release tk_d 5426             a unit out of the Stavka box (12.1.1)
    enter c1 c2                   units into the Stavka box (12.1.2)

Reinforcements, capitulation, End of Reich (§10, §14, §16, §17):

    reserve c3                    an arriving Soviet division into the Stavka box (17.1)
    capitulate s-9                Ally Capitulation from TO S's box (14.1 Romania, 14.2 Hungary)
    pick luftwaffe                after a Dismissal, the Support picked from the pool; sealed (16.2, R-52)
    mobilize 211id                last mobilization: an eliminated division back reduced (16.2.1)
    remove 14id                   a division the schedule withdraws (18.1)
    rebuild 14id [4727] [with g-3]  one RP (and a Support for armor) rebuilds a unit (17.3)
    stalin CS                     the German names Stalin's TO after Warsaw fell (19.1.2)
    rebuild corps                 one Soviet RP: an infantry corps drawn from the pile (17.3.8)
"""
from __future__ import annotations

import re
from typing import Any

from pbem.game import IllegalOrder
from pbem.games.vr.model import TOS, Scenario

HEX = re.compile(r"^\d{4}$")
HANDLE = re.compile(r"^(s|g|kg|cp|e)-\d+$")
CODES = ("-", "D1", "E", "E2", "E3", "E4", "Eng", "S", "DR", "DR2", "DR3")
SIMPLE = ("end-move", "end-combat", "done", "pass", "roll")


def unit(scn: Scenario, word: str) -> str:
    w = word.lower()
    for uid in scn.units:
        if uid.lower() == w:
            return uid
    raise IllegalOrder(f"no unit {word!r}")


def hexid(word: str) -> str:
    if not HEX.match(word):
        raise IllegalOrder(f"{word!r} is not a hex (four digits)")
    return word


def handle(word: str) -> str:
    w = word.lower()
    if not HANDLE.match(w):
        raise IllegalOrder(f"{word!r} is not a Support handle such as s-3 or g-2")
    return w


def _units_then_hexes(scn: Scenario, args: list[str]) -> tuple[list[str], list[str]]:
    units = [unit(scn, a) for a in args if not HEX.match(a)]
    hexes = [a for a in args if HEX.match(a)]
    if args and HEX.match(args[0]) and units:
        raise IllegalOrder("name the units first, then the hexes")
    return units, hexes


def to_name(word: str) -> str:
    w = word.upper()
    if w not in TOS:
        raise IllegalOrder(f"{word!r} is not a TO ({', '.join(TOS)})")
    return w


def _to_orders(verb: str, args: list[str], scn: Scenario) -> dict[str, Any] | None:
    """The orders of the Advanced Support phase (§9-11)."""
    if verb == "priority" and len(args) in (2, 3, 4):
        out: dict[str, Any] = {"verb": "priority", "to": to_name(args[0]), "secondary": to_name(args[1]),
                               "large": False}
        if len(args) >= 3:
            if args[2].lower() != "large":
                raise IllegalOrder("priority TO SECONDARY [large SUPPORT-ID]")
            out["large"] = True
            if len(args) == 4:
                out["secret"] = {"pick": args[3].lower()}
        return out
    if verb == "appeal" and args:
        if [a.lower() for a in args] == ["none"]:
            return {"verb": "appeal", "appeals": []}
        if len(args) % 2 or any(c.lower() not in ("reserve", "move") for c in args[1::2]):
            raise IllegalOrder("appeal TO reserve|move [TO reserve|move...] (or appeal none)")
        return {"verb": "appeal", "appeals": [[to_name(a), c.lower()] for a, c in zip(args[::2], args[1::2])]}
    if verb == "boost" and len(args) == 1:
        h = handle(args[0])
        return {"verb": "boost", "support": h, "open": [h]}
    if verb == "release" and len(args) == 2:
        return {"verb": "release", "unit": unit(scn, args[0]), "hex": hexid(args[1])}
    if verb == "enter" and args:
        return {"verb": "enter", "units": [unit(scn, a) for a in args]}
    if verb == "capitulate" and len(args) == 1:
        h = handle(args[0])
        return {"verb": "capitulate", "support": h, "open": [h]}
    if verb == "pick" and len(args) == 1:
        return {"verb": "pick", "secret": {"pick": args[0].lower()}}
    if verb == "rebuild" and args:
        return _rebuild(scn, args)
    if verb in ("mobilize", "reserve", "remove") and len(args) == 1:
        return {"verb": verb, "unit": unit(scn, args[0])}
    if verb == "stalin" and len(args) == 1:
        return {"verb": "stalin", "to": to_name(args[0])}
    if verb in ("take", "flip") and len(args) == 1:
        return {"verb": verb, "to": to_name(args[0])}
    if verb == "tocity" and len(args) == 2:
        return {"verb": "tocity", "to": to_name(args[0]), "hex": hexid(args[1])}
    if verb == "lendlease" and len(args) == 2:
        h = handle(args[0])
        return {"verb": "lendlease", "support": h, "to": to_name(args[1]), "open": [h]}
    if verb == "surprise" and len(args) >= 4 and args[2].lower() == "with":
        h = handle(args[0])
        return {"verb": "surprise", "support": h, "hex": hexid(args[1]), "units": [unit(scn, a) for a in args[3:]],
                "open": [h]}
    if verb == "reinforce" and len(args) in (2, 3):
        h = handle(args[0])
        return {"verb": "reinforce", "support": h, "units": [unit(scn, a) for a in args[1:]], "open": [h]}
    if verb == "tomove" and len(args) >= 2:
        to = to_name(args[0])
        rest = [a.lower() for a in args[1:]]
        hs: list[str] = []
        if "pay" in rest:
            i = rest.index("pay")
            hs = [handle(a) for a in rest[i + 1:]]
            rest = rest[:i]
        path = [hexid(a) for a in rest]
        if not path:
            raise IllegalOrder("tomove TO HEX... [pay HANDLE [HANDLE]]")
        out = {"verb": "tomove", "to": to, "path": path, "handles": hs}
        if hs:
            out["open"] = list(hs)
        return out
    return None


def _rebuild(scn: Scenario, args: list[str]) -> dict[str, Any]:
    """rebuild corps | rebuild UNIT [HEX] [with HANDLE] (17.3)."""
    if [a.lower() for a in args] == ["corps"]:
        return {"verb": "rebuild", "corps": True}
    words = list(args)
    out: dict[str, Any] = {"verb": "rebuild", "unit": unit(scn, words.pop(0))}
    if words and HEX.match(words[0]):
        out["hex"] = words.pop(0)
    if words:
        if len(words) != 2 or words[0].lower() != "with":
            raise IllegalOrder("rebuild UNIT [HEX] [with HANDLE], or rebuild corps (17.3)")
        h = handle(words[1])
        out.update(support=h, open=[h])
    return out


def parse(text: str, scn: Scenario) -> dict[str, Any]:
    words = text.strip().split()
    if not words:
        raise IllegalOrder("empty order")
    verb, args = words[0].lower(), words[1:]
    if verb in SIMPLE:
        return {"verb": verb}
    found = _to_orders(verb, args, scn)
    if found is not None:
        return found
    if verb in ("move", "strat", "rail", "naval"):
        units, hexes = _units_then_hexes(scn, args)
        if not units or not hexes:
            raise IllegalOrder(f"{verb} UNIT [UNIT...] HEX [HEX...]")
        if verb == "naval" and (len(units) != 1 or len(hexes) != 1):
            raise IllegalOrder("naval UNIT PORT: one unit to one port (6.5, R-70)")
        return {"verb": "move", "mode": {"move": "normal", "strat": "strategic", "rail": "rail",
                                         "naval": "naval"}[verb], "units": units, "path": hexes}
    if verb in ("halt", "unhalt", "withdraw") and len(args) == 1:
        return {"verb": verb, "hex": hexid(args[0])}
    if verb == "abandon" and len(args) == 3:
        hs = [handle(a) for a in args[1:]]
        return {"verb": "abandon", "unit": unit(scn, args[0]), "handles": hs, "open": hs}
    if verb == "attach" and len(args) == 2:
        h = handle(args[0])
        return {"verb": "attach", "support": h, "unit": unit(scn, args[1]), "open": [h]}
    if verb == "airlift" and len(args) == 2:
        h = handle(args[0])
        return {"verb": "airlift", "support": h, "hex": hexid(args[1]), "open": [h]}
    if verb == "pay" and len(args) == 1:
        h = handle(args[0])
        return {"verb": "pay", "support": h, "open": [h]}
    if verb == "attack":
        if len(args) < 3 or args[1].lower() != "with":
            raise IllegalOrder("attack HEX with UNIT [UNIT...]")
        return {"verb": "attack", "hex": hexid(args[0]), "units": [unit(scn, a) for a in args[2:]]}
    if verb == "declare":
        return _declare(scn, args)
    if verb == "react":
        hs = [handle(a) for a in args]
        if not hs:
            raise IllegalOrder("react HANDLE [HANDLE...] (or pass)")
        return {"verb": "react", "supports": hs, "open": hs}
    if verb == "elite" and len(args) == 1:
        return {"verb": "elite", "unit": None if args[0].lower() == "none" else unit(scn, args[0])}
    if verb == "terrain" and len(args) == 1:
        return {"verb": "terrain", "terrain": args[0].lower()}
    if verb == "row" and len(args) == 1 and args[0].lower() in ("river", "terrain"):
        return {"verb": "row", "row": args[0].lower()}
    if verb == "first" and len(args) == 1:
        return {"verb": "first", "unit": unit(scn, args[0])}
    if verb == "loss":
        return {"verb": "loss", "steps": _steps(scn, args)}
    if verb == "result" and len(args) == 1:
        code = {c.lower(): c for c in CODES}.get(args[0].lower())
        if code is None:
            raise IllegalOrder(f"{args[0]!r} is not a tactical result")
        return {"verb": "result", "code": code}
    if verb == "s-loss" and len(args) == 1:
        return {"verb": "s", "choice": "loss", "unit": unit(scn, args[0])}
    if verb == "s-retreat" and not args:
        return {"verb": "s", "choice": "retreat", "unit": None}
    if verb == "retreat":
        units, hexes = _units_then_hexes(scn, args)
        if not units or not hexes:
            raise IllegalOrder("retreat UNIT [UNIT...] HEX [HEX...]")
        return {"verb": "retreat", "units": units, "path": hexes}
    if verb == "advance":
        units, hexes = _units_then_hexes(scn, args)
        if not units or len(hexes) > 1:
            raise IllegalOrder("advance UNIT [UNIT...] (a defender: advance UNIT HEX)")
        return {"verb": "advance", "units": units, **({"hex": hexes[0]} if hexes else {})}
    if verb in ("exploit", "return"):
        if not args:
            raise IllegalOrder(f"{verb} needs what it marks (or pass)")
        if verb == "return":
            return {"verb": "return", "handles": [handle(a) for a in args]}
        return {"verb": verb, "units": [unit(scn, a) for a in args]}
    if verb == "kg" and len(args) == 1 and args[0].lower() in ("yes", "no"):
        return {"verb": "kg", "take": args[0].lower() == "yes"}
    if verb in ("survivor", "eliminate", "unpontoon") and len(args) == 1:
        return {"verb": verb, "unit": unit(scn, args[0])}
    if verb in ("pontoon", "place") and len(args) == 2:
        return {"verb": verb, "unit": unit(scn, args[0]), "hex": hexid(args[1])}
    raise IllegalOrder(f"cannot read {text.strip()!r}: see the decision's options")


def _declare(scn: Scenario, args: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {"verb": "declare", "elite": None, "armored": False, "supports": []}
    # "leaders" (5.4.4) only when named, so that older orders keep their shape
    i = 0
    words = [a.lower() for a in args]
    while i < len(words):
        w = words[i]
        if w == "none":
            i += 1
        elif w == "elite" and i + 1 < len(words):
            out["elite"] = unit(scn, args[i + 1])
            i += 2
        elif w == "armored":
            out["armored"] = True
            i += 1
        elif w == "hourra":
            out["hourra"] = True
            i += 1
        elif w == "leader" and i + 1 < len(words):
            out.setdefault("leaders", []).append(unit(scn, args[i + 1]))
            i += 2
        elif w == "support":
            i += 1
            while i < len(words) and HANDLE.match(words[i]):
                out["supports"].append(words[i])
                i += 1
        else:
            raise IllegalOrder(f"declare [elite UNIT] [armored] [support HANDLE...], not {args[i]!r}")
    if out["supports"]:
        out["open"] = list(out["supports"])
    return out


def _steps(scn: Scenario, args: list[str]) -> dict[str, int]:
    if len(args) % 2:
        raise IllegalOrder("loss UNIT N [UNIT N...]")
    out: dict[str, int] = {}
    for u, n in zip(args[::2], args[1::2]):
        if not n.isdigit():
            raise IllegalOrder(f"loss: {n!r} is not a number of steps")
        uid = unit(scn, u)
        if uid in out:
            raise IllegalOrder(f"loss: {uid} named twice")
        out[uid] = int(n)
    return out


def format(order: dict[str, Any]) -> str:  # noqa: A001 - the contract's name
    v = order.get("verb")
    order = {"elite": None, "armored": False, "supports": [], "unit": None, **order}
    if v in SIMPLE:
        return str(v)
    if v == "move":
        word = {"normal": "move", "strategic": "strat", "rail": "rail", "naval": "naval"}[order["mode"]]
        return " ".join([word, *order["units"], *order["path"]])
    if v == "pay":
        return f"pay {order['support']}"
    if v == "attack":
        return f"attack {order['hex']} with {' '.join(order['units'])}"
    if v == "declare":
        parts = ["declare"]
        if order.get("elite"):
            parts += ["elite", order["elite"]]
        if order.get("armored"):
            parts.append("armored")
        for u in order.get("leaders") or []:
            parts += ["leader", u]
        if order.get("hourra"):
            parts.append("hourra")
        if order.get("supports"):
            parts += ["support", *order["supports"]]
        return " ".join(parts if len(parts) > 1 else ["declare", "none"])
    if v == "react":
        return "react " + " ".join(order["supports"])
    if v == "elite":
        return f"elite {order['unit'] or 'none'}"
    if v in ("terrain", "row"):
        return f"{v} {order[v]}"
    if v == "first":
        return f"first {order['unit']}"
    if v == "loss":
        return "loss " + " ".join(f"{u} {n}" for u, n in order["steps"].items())
    if v == "result":
        return f"result {order['code']}"
    if v == "s":
        return f"s-loss {order['unit']}" if order["choice"] == "loss" else "s-retreat"
    if v == "retreat":
        return " ".join(["retreat", *order["units"], *order["path"]])
    if v in ("advance", "exploit"):
        return " ".join([v, *order["units"], *([order["hex"]] if order.get("hex") else [])])
    if v == "return":
        return " ".join(["return", *order["handles"]])
    if v == "kg":
        return f"kg {'yes' if order['take'] else 'no'}"
    if v in ("survivor", "eliminate", "unpontoon"):
        return f"{v} {order['unit']}"
    if v in ("halt", "unhalt", "withdraw"):
        return f"{v} {order['hex']}"
    if v == "abandon":
        return " ".join(["abandon", order["unit"], *order["handles"]])
    if v == "attach":
        return f"attach {order['support']} {order['unit']}"
    if v == "airlift":
        return f"airlift {order['support']} {order['hex']}"
    if v in ("pontoon", "place"):
        return f"{v} {order['unit']} {order['hex']}"
    if v == "reveal":
        return "reveal " + " ".join(order.get("open") or [])
    if v == "appeal":
        return "appeal " + (" ".join(f"{a} {c}" for a, c in order["appeals"]) or "none")
    if v == "boost":
        return f"boost {order['support']}"
    if v == "release":
        return f"release {order['unit']} {order['hex']}"
    if v == "enter":
        return " ".join(["enter", *order["units"]])
    if v == "priority":
        return f"priority {order['to']} {order['secondary']}" + (" large" if order.get("large") else "")
    if v in ("take", "flip", "stalin"):
        return f"{v} {order['to']}"
    if v == "capitulate":
        return f"capitulate {order['support']}"
    if v == "pick":
        return "pick"
    if v in ("mobilize", "reserve", "remove"):
        return f"{v} {order['unit']}"
    if v == "rebuild":
        if order.get("corps"):
            return "rebuild corps"
        return " ".join(["rebuild", order["unit"], *([order["hex"]] if order.get("hex") else []),
                         *(["with", order["support"]] if order.get("support") else [])])
    if v == "tocity":
        return f"tocity {order['to']} {order['hex']}"
    if v == "lendlease":
        return f"lendlease {order['support']} {order['to']}"
    if v == "surprise":
        return f"surprise {order['support']} {order['hex']} with {' '.join(order['units'])}"
    if v == "reinforce":
        return " ".join(["reinforce", order["support"], *order["units"]])
    if v == "tomove":
        return " ".join(["tomove", order["to"], *order["path"], *(["pay", *order["handles"]] if order.get("handles")
                                                                  else [])])
    return str(order)
