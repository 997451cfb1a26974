"""Shared helpers (no tests here): one practice position for every kind of
A Victory Denied decision that takes a named unit, hex or chit, each with
a legal order to start from.  Used by the order-refusal property tests and
the question-versus-order tests."""
from __future__ import annotations

import copy
from typing import Any, Callable

from pbem.game import IllegalOrder
from pbem.games.avd.bot import legal
from avd_fixtures import battle_setup, clear_map, frame, practice_rules, put
from fakedice import ScriptedDice

RULES = practice_rules()


def _run(st, rng=None):
    RULES._run(st, rng or ScriptedDice(), [])
    return st


def _with_stack(st, *frames, active=None):
    st["stack"] = [frame("endturn")] + list(frames)
    if active:
        st["active"] = active
    return st


def pos_chits():
    return RULES.initial_state()                                   # Turn 1, German first


def pos_chits_soviet():
    st = RULES.initial_state()
    st["turn"] = 2
    st["stack"] = [frame("chits", done=["german"])]
    return st


def pos_activate():
    st = RULES.initial_state()
    put(st, "G-3PzG-HQ", "3306")                                   # a second German HQ on the map
    return _with_stack(st, frame("hq9a", chit="G-9A-1"), active="german")


def pos_seed():
    return _with_stack(RULES.initial_state(), frame("seed", chit="G-3PzG-1", formation="3PzG"), active="german")


def pos_move():
    st, a, t = battle_setup(RULES, "G-3Pz", "S-45C", "german")
    put(st, "G-26ID", a, active=True)
    st["stack"] += [frame("move", mode="normal")]
    return st


def pos_combat():
    st, a, t = battle_setup(RULES, "G-3Pz", "S-45C", "german")
    put(st, "G-4Pz", a, active=True)
    return st


def pos_elite():
    st, a, t = battle_setup(RULES, "S-45C", "G-26ID", "soviet")
    b = RULES.board(st)
    other = next(n for n in b.grid.neighbors(t) if n != a and not b.hexside(n, t) and not b.terrain(n).shift)
    put(st, "S-44C", other, active=True)
    st["stukas_ready"] = 0
    elite = sorted(u for u, x in st["units"].items() if x["where"] == "elite_cup")[0]
    st, _ = RULES.apply(st, "soviet", {"verb": "attack", "hex": t, "units": ["S-45C", "S-44C"]},
                        ScriptedDice(rolls=[(10, 10)], draws=[elite]))
    return st


def pos_loss():
    st, a, t = battle_setup(RULES, "G-3Pz", "S-45C", "german", turn=1)
    put(st, "S-1MRD", t)
    put(st, "G-4Pz", a, active=True)
    # 3-1 shifted to 5-1 on Turn 1: a 5 reads 2DR (a German d6 cannot show the 9 once scripted here)
    st, _ = RULES.apply(st, "german", {"verb": "attack", "hex": t, "units": ["G-3Pz", "G-4Pz"]},
                        ScriptedDice(rolls=[(6, 5)]))
    return st


def pos_retreat():
    st = RULES.initial_state()
    clear_map(st)
    put(st, "G-3Pz", "1612", active=True)
    put(st, "G-4Pz", "1612", active=True)
    put(st, "S-45C", "1613")
    put(st, "S-1MRD", "1613")
    _with_stack(st, frame("combat", special=False), active="german")
    st["turn"] = 2
    # 18 against 6 is 3-1 and a 3 reads DR: three equal paths, and the stack may split
    st, _ = RULES.apply(st, "german", {"verb": "attack", "hex": "1613", "units": ["G-3Pz", "G-4Pz"]},
                        ScriptedDice(rolls=[(6, 3)]))
    return st


def pos_advance():
    st, a, t = battle_setup(RULES, "G-3Pz", "S-45C", "german")
    put(st, "G-4Pz", a, active=True)
    put(st, "G-9A-HQ", a)
    st, _ = RULES.apply(st, "german", {"verb": "attack", "hex": t, "units": ["G-3Pz", "G-4Pz"]},
                        ScriptedDice(rolls=[(6, 3)]))
    d = RULES.pending(st)
    while d.kind == "retreat":
        st, _ = RULES.apply(st, d.side, RULES.parse(d.options[0], st, d.side), ScriptedDice())
        d = RULES.pending(st)
    return st


def pos_relocate():
    st = RULES.initial_state()
    x = st["units"]["G-9A-HQ"]
    origin, x["where"], x["hex"] = x["hex"], "limbo", None
    return _run(_with_stack(st, frame("relocate", hq="G-9A-HQ", origin=origin, voluntary=False)))


def pos_air():
    st = RULES.initial_state()
    st["stukas_used"], st["stukas_ready"] = 1, 2
    return _with_stack(st, frame("air"), active="german")


def pos_art():
    st, a, t = battle_setup(RULES, "S-45C", "G-26ID", "soviet")
    st["stack"] = [frame("endturn"), frame("art", left=2)]
    st["stukas_ready"] = 0
    return st


def _supply(stage: str, turn: int = 3):
    st = RULES.initial_state()
    st["turn"] = turn
    return _run(_with_stack(st, frame("supply", stage=stage)))


def pos_oos():
    return _supply("clear")


def pos_relocate_voluntary():
    return _supply("relocate_g")


def pos_disband():
    return _supply("disband")


def pos_buy():
    st = RULES.initial_state()
    st["turn"] = 2
    return _run(_with_stack(st, frame("reinf", stage="buy")))


def pos_place():
    st = RULES.initial_state()
    st["turn"] = 2
    st = _run(_with_stack(st, frame("reinf", stage="buy")))
    st["stack"][-1]["stage"] = "pvo"
    return _run(st)


def pos_release():
    st = RULES.initial_state()
    st["turn"] = 2
    return _run(_with_stack(st, frame("reinf", stage="minsk")))


def pos_stars():
    st = RULES.initial_state()
    st["turn"] = 4
    return _run(_with_stack(st, frame("reinf", stage="stars")), ScriptedDice(rolls=[(6, 3)]))


def pos_add9a():
    return _with_stack(RULES.initial_state(), frame("add9a", count=2))


def pos_withdraw():
    st = RULES.initial_state()
    st["turn"], st["directive"] = 7, "distracted"
    st["stack"] = [frame("endturn"), frame("distracted")]
    return st


# kind -> (position builder, a word the starting order must contain, or None: the first listed option)
POSITIONS: dict[str, tuple[Callable[[], dict[str, Any]], str | None]] = {
    "chits": (pos_chits, None),
    "chits-soviet": (pos_chits_soviet, None),
    "activate": (pos_activate, None),
    "seed": (pos_seed, None),
    "move": (pos_move, None),
    "combat": (pos_combat, None),
    "elite": (pos_elite, None),
    "loss": (pos_loss, None),
    "retreat": (pos_retreat, "1MRD"),
    "advance": (pos_advance, None),
    "relocate": (pos_relocate, None),
    "air": (pos_air, "bomber"),
    "art": (pos_art, None),
    "oos": (pos_oos, None),
    "relocate-voluntary": (pos_relocate_voluntary, None),
    "disband": (pos_disband, None),
    "buy": (pos_buy, None),
    "place": (pos_place, None),
    "release": (pos_release, None),
    "stars": (pos_stars, None),
    "add9a": (pos_add9a, None),
    "withdraw": (pos_withdraw, None),
}

_CACHE: dict[str, tuple[dict[str, Any], str, dict[str, Any]]] = {}


def _move_order(st, d) -> dict[str, Any]:
    b = RULES.board(st)
    from pbem.games.avd import movement
    uid = "G-26ID"
    r = movement.reach(b, uid)
    goal = next(h for h in sorted(r.endable) if h != b.hex_of(uid) and len(r.path_to(h)) >= 3)
    return {"verb": "move", "unit": uid, "path": r.path_to(goal)}


def position(kind: str) -> tuple[dict[str, Any], Any, dict[str, Any]]:
    """A fresh copy of the position for ``kind``, its decision and a legal
    order there (checked legal)."""
    if kind not in _CACHE:
        build, text = POSITIONS[kind]
        st = build()
        d = RULES.pending(st)
        if d.private:
            order = RULES.private_answer(st, d)
        elif kind == "move":
            order = _move_order(st, d)
        else:
            words = ("pass", "done", "end-combat", "end-move", "stuka", "guderian")
            pick = next(o for o in d.options if o.split()[0] not in words and (text or "") in o
                        and not any(w.isupper() and w.isalpha() for w in o.split()[1:]))
            order = RULES.parse(pick, st, d.side)
        if not legal(RULES, st, d.side, order):
            raise AssertionError(f"{kind}: the starting order {order} is not legal")
        _CACHE[kind] = (st, d.side, order)
    st, side, order = _CACHE[kind]
    return copy.deepcopy(st), RULES.pending(st), copy.deepcopy(order)


def refused(st, side: str, order: dict[str, Any]) -> str | None:
    """The one-line refusal apply gives ``order`` (on a copy), or None when
    it is accepted.  Any other exception propagates."""
    probe = copy.deepcopy(st)
    order = RULES.fill_secrets(probe, side, copy.deepcopy(order), lambda: bytes(16))
    from pbem.protocol.stream import FrozenRng, NeedDice
    try:
        RULES.apply(probe, side, order, FrozenRng())
    except NeedDice:
        return None
    except IllegalOrder as exc:
        return str(exc)
    return None
