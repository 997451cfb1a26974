"""Terse order notation for Moscow '41.  Segments are separated by ``;``::

    pass | pass; move G05 12 13 | pass; dl G07
    ti; activate G03 [AREA...]; move G05 13 14; dl G07; art G03 13; fight 17
    ti; activate G03; activate G09; air G09 14 he111 2 stuka 1; move G05 14
    aa abort | aa destroy stuka | aa destroyed he111 1 aborted stuka 1   (German: AA hits, 10.12.3)
    si A; move G05 13; dl G07             si B; draw 2     (draw 1..LV blocks, 11.0)
    logistics pause | logistics activate; regen G03 2; replace G05 1   (draws exactly LV, 5.0)
    reinforce G31 9A G32 Pskov G33 pool   (place the blocks just drawn; pool: it can enter nowhere)
    losses S07                            (which tied block takes a hit, 10.14)
    blitz | blitz; move G05 14; art G03 14  (Blitz Segment, 10.16)
    pass; disband 17; dl S05                (4.1: take back a DL to build another)
    ti; ...; no blitz; no exploit           (decline them in advance: no stop after the battles)
    exploit no | exploit; move G05 13 14   (Exploitation, 10.18)
    reveal | attrition | crusader | setup (answered by the side's own program; crusader: OR 14.8)
    setup; place S12 46; place S13 44; dl 17 18; pick G20 G-DR   (owner-chosen set-up areas, DLs, blocks)

Areas entered are listed in order; the starting area is not repeated.  The
Logistics Value an SI, a Leader Activation or an Exploitation spends is
computed by the player's own program, never typed (7.2.1).
Regeneration and replacement are secret and go in the order's secret part,
and so does which block builds a DL (the public order keeps its area,
``dl in AREA``).
"""
from __future__ import annotations

from typing import Any

from pbem.game import IllegalOrder


def _int(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise IllegalOrder(f"{what}: {word!r} is not a number") from None


def _put(table: dict[str, Any], key: str, value: Any, word: str) -> None:
    """One entry of a part that names each block (bomber type) once: a
    second mention would silently replace the first."""
    if key in table:
        raise IllegalOrder(f"{word}: {key} named twice")
    table[key] = value


def parse(text: str) -> dict[str, Any]:
    segs = [s.split() for s in text.split(";") if s.strip()]
    if not segs:
        raise IllegalOrder("empty order")
    head = segs[0]
    verb = head[0].lower()
    order: dict[str, Any] = {"verb": verb}
    if verb in ("reveal", "attrition", "crusader") or (verb == "setup" and len(segs) == 1):
        return order
    if verb == "setup":
        for seg in segs[1:]:
            if seg[0] == "place" and len(seg) == 3:
                _put(order.setdefault("place", {}), seg[1], seg[2], "place")
            elif seg[0] == "dl" and len(seg) >= 2:
                order.setdefault("dls", []).extend(seg[1:])
            elif seg[0] == "pick" and len(seg) == 3:
                _put(order.setdefault("secret", {}).setdefault("assign", {}), seg[1], seg[2], "pick")
            else:
                raise IllegalOrder(f"setup: cannot read {' '.join(seg)!r} (place TOK AREA | dl AREA... | pick TOK BLOCK)")
        return order
    if verb == "aa":
        words = head[1:]
        if words[:1] in (["destroyed"], ["aborted"]):
            key = None
            for w in words:
                if w in ("destroyed", "aborted"):
                    key = w
                    order.setdefault(w, {})
                elif key and w in ("he111", "stuka"):
                    _put(order[key], w, 0, f"aa {key}")
                    last = w
                elif key:
                    order[key][last] = _int(w, "aa")
            return order
        order["policy"] = " ".join(words) or "abort"
        return order
    if verb == "reinforce":
        if len(segs) != 1 or len(head) < 3 or len(head) % 2 == 0:
            raise IllegalOrder("reinforce TOK AREA [TOK AREA ...] (AREA `pool`: it can enter nowhere)")
        for tok, area in zip(head[1::2], head[2::2]):
            _put(order.setdefault("place", {}), tok, area, "reinforce")
        return order
    if verb == "losses":
        if len(head) != 2 or len(segs) != 1:
            raise IllegalOrder("losses TOKEN")
        order["token"] = head[1]
        return order
    # 7.2.1: the Logistics Value is computed by the player's own program
    # (fill_secrets); an "lv N" typed after the head is still read and checked
    if verb == "si":
        if len(head) not in (2, 4) or head[1] not in ("A", "B") or (len(head) == 4 and head[2] != "lv"):
            raise IllegalOrder("si A; move TOK AREA... | si B; draw N")
        order["option"] = head[1]
        if len(head) == 4:
            order["lv"] = _int(head[3], "lv")
    elif verb == "logistics":
        if len(head) < 2 or head[1] not in ("pause", "activate"):
            raise IllegalOrder("logistics pause | logistics activate; regen TOK N; replace TOK N")
        order["choice"] = head[1]
        if head[1] == "activate" and len(head) > 2:
            if len(head) != 4 or head[2] != "lv":
                raise IllegalOrder("logistics activate; regen TOK N; replace TOK N")
            order["lv"] = _int(head[3], "lv")
    elif verb == "exploit":
        if head[1:] == ["no"] or (head[1:] == [] and len(segs) == 1):
            if len(segs) > 1:
                raise IllegalOrder("exploit no | exploit; move TOK AREA...")
            return order
        if head[1:] and (len(head) != 3 or head[1] != "lv"):
            raise IllegalOrder("exploit no | exploit; move TOK AREA...")
        if head[1:]:
            order["lv"] = _int(head[2], "lv")
    elif verb not in ("pass", "ti", "blitz") or len(head) != 1:
        raise IllegalOrder(f"unknown order {' '.join(head)!r}")
    for seg in segs[1:]:
        word, args = seg[0].lower(), seg[1:]
        if word == "move" and args:
            order.setdefault("moves", []).append({"token": args[0], "path": args[1:]})
        elif word == "activate" and args:
            order.setdefault("activate", []).append({"token": args[0], "path": args[1:]})
        elif word == "dl" and len(args) == 2 and args[0] == "in":
            order.setdefault("dl_in", []).append(args[1])
        elif word == "dl" and len(args) == 1:
            order.setdefault("dl", []).append(args[0])
        elif word == "draw" and len(args) == 1:
            order["draw"] = _int(args[0], "draw")
        elif word == "air" and len(args) >= 4:
            c: dict[str, Any] = {"hq": args[0], "area": args[1]}
            for kind, n in zip(args[2::2], args[3::2]):
                if kind not in ("he111", "stuka"):
                    raise IllegalOrder(f"air: {kind!r} is not he111 or stuka")
                _put(c, kind, _int(n, "air"), f"air {args[0]}")
            order.setdefault("air", []).append(c)
        elif word == "rail" and len(args) == 2:
            order.setdefault("rails", []).append({"token": args[0], "to": args[1]})
        elif word == "offroad" and len(args) == 2:
            order.setdefault("offroad", []).append({"token": args[0], "to": args[1]})
        elif word == "recall" and len(args) == 2:
            order.setdefault("recall", []).append({"token": args[0], "to": args[1]})
        elif word == "zhukov" and args == ["leningrad"]:
            order["zhukov_leningrad"] = True
        elif word == "disband" and args:
            order.setdefault("disband", []).extend(args)
        elif word == "no" and len(args) == 1 and args[0] in ("blitz", "exploit"):
            order.setdefault("skip", []).append(args[0])     # decided now: no stop after the battles
        elif word == "art" and len(args) == 2:
            _put(order.setdefault("artillery", {}), args[0], args[1], "art")
        elif word == "fight" and args:
            order.setdefault("fight", []).extend(args)
        elif word == "reinforce" and args:
            order.setdefault("reinforce", []).extend(args)
        elif word in ("regen", "replace") and len(args) == 2:
            key = "regenerate" if word == "regen" else "replace"
            _put(order.setdefault("secret", {}).setdefault(key, {}), args[0], _int(args[1], word), word)
        else:
            raise IllegalOrder(f"cannot read {' '.join(seg)!r}")
    return order


def format_order(order: dict[str, Any]) -> str:
    verb = order["verb"]
    head = [verb]
    if verb == "setup":
        return "; ".join(["setup"] + [f"place {t} {a}" for t, a in order.get("place", {}).items()]
                         + ([" ".join(["dl", *order["dls"]])] if order.get("dls") else [])
                         + [f"pick {t} {b}" for t, b in order.get("secret", {}).get("assign", {}).items()])
    if verb == "si":
        head.append(order["option"])
    elif verb == "exploit":
        head += [] if order.get("moves") else ["no"]
    elif verb == "logistics":
        head.append(order["choice"])
    if verb == "losses":
        return f"losses {order['token']}"
    if verb == "reinforce":
        return " ".join(["reinforce"] + [f"{t} {a}" for t, a in order.get("place", {}).items()])
    if verb == "aa":
        if "policy" in order:
            return f"aa {order['policy']}"
        return " ".join(["aa"] + [" ".join([k] + [f"{t} {n}" for t, n in order[k].items()])
                                  for k in ("destroyed", "aborted") if k in order])
    segs = [" ".join(head)]
    for a in order.get("activate", []):
        segs.append(" ".join(["activate", a["token"], *a.get("path", [])]))
    for m in order.get("moves", []):
        segs.append(" ".join(["move", m["token"], *m["path"]]))
    for key, word in (("rails", "rail"), ("offroad", "offroad"), ("recall", "recall")):
        for m in order.get(key, []):
            segs.append(f"{word} {m['token']} {m['to']}")
    if order.get("disband"):
        segs.append(" ".join(["disband", *order["disband"]]))
    for t in order.get("dl", []):
        segs.append(f"dl {t}")
    for a in order.get("dl_in", []):
        segs.append(f"dl in {a}")
    if order.get("draw"):
        segs.append(f"draw {order['draw']}")
    for c in order.get("air", []):
        segs.append(" ".join(["air", c["hq"], c["area"]] + [f"{k} {c[k]}" for k in ("he111", "stuka") if k in c]))
    for hq, area in order.get("artillery", {}).items():
        segs.append(f"art {hq} {area}")
    for k in order.get("skip", []):
        segs.append(f"no {k}")
    if order.get("fight"):
        segs.append(" ".join(["fight", *order["fight"]]))
    secret = order.get("secret", {})
    for t, n in secret.get("regenerate", {}).items():
        segs.append(f"regen {t} {n}")
    for t, n in secret.get("replace", {}).items():
        segs.append(f"replace {t} {n}")
    if order.get("reinforce"):
        segs.append(" ".join(["reinforce", *order["reinforce"]]))
    if order.get("zhukov_leningrad"):
        segs.append("zhukov leningrad")
    return "; ".join(segs)
