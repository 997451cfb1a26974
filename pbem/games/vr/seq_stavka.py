"""The Stavka phase (§12, ``profile.stavka``; Soviet only) as one frame:

1. ``announce``: for each TO the Soviet player names, before any die,
   "reserve" (12.1) or "move" (12.3, Movement Mode only) or nothing;
2. for each TO named, Priority first and Secondary last (the others in the
   order named): Supports spent from its box (+1 each, back to the pool)
   then one die on its column of the Stavka Table (``tables.stavka``;
   +2 for the Priority TO in a Large Offensive turn);
3. a reserve result is spent releasing units from the Stavka box (an
   armored corps with Attack above 8 costs two), each placed within the
   TO's range, next to a Soviet unit that was on the map before the phase,
   not next to the enemy, in supply; the box keeps four infantry corps and
   three armored corps (12.2.2); a move result moves the TO (9.1.4);
4. ``enter``: at most six units in supply, not next to the enemy, stacked
   with an HQ, go into the box (12.1.2): corps to Standard Mode, armor to
   full strength (12.2.3-12.2.4).
"""
from __future__ import annotations

from typing import Any

from pbem.game import Decision, Event, IllegalOrder
from pbem.games.vr import supply, tos
from pbem.games.vr.model import SOVIET
from pbem.games.vr.tables import stavka as stavka_table

ENTRY_LIMIT = 6          # 12.1.2
MINIMUM = {"infantry": 4, "armor": 3}     # 12.2.2


def cost(r: Any, uid: str) -> int:
    """12.1.1: an armored corps with Attack above 8 counts as two units."""
    spec = r.scn.units[uid]
    return 2 if spec.armor and spec.attack > 8 else 1


def in_box(state: dict[str, Any]) -> list[str]:
    return sorted(u for u, x in state["units"].items() if x["box"] == "stavka")


def minimum_refusal(r: Any, state: dict[str, Any], leaving: list[str]) -> str | None:
    left = [u for u in in_box(state) if u not in leaving]
    for arm, need in MINIMUM.items():
        have = sum(1 for u in left if r.scn.units[u].arm == arm and r.scn.units[u].kind == "division")
        if have < need:
            return f"the Stavka box must keep {need} {'armored' if arm == 'armor' else 'infantry'} corps (12.2.2)"
    return None


def column(state: dict[str, Any], to: str) -> str:
    t = tos.turn_state(state)
    return "priority" if to == t["priority"] else "secondary" if to == t["secondary"] else "normal"


def move_allowed(r: Any, state: dict[str, Any], to: str) -> str | None:
    t = tos.turn_state(state)
    if state["tos"][to]["mode"] != "movement":
        return f"TO {to} is not in Movement Mode: it cannot move (12.3)"
    if state["weather"] == "mud" or t["large"]:
        return "no TO moves in the Stavka phase in Mud or in a Large Offensive turn (12.3.1)"
    if to in t["no_move"]:
        return f"TO {to} took a Support this turn and cannot move (11.3.4)"
    if to in t.get("drew", []):
        return f"TO {to} drew Supports this turn: no Stavka move (12.3.1)"
    return None


def auto_stavka(r: Any, state: dict[str, Any], top: dict[str, Any], rng: Any, events: list[Event]) -> bool:
    st = top.setdefault("stage", "announce")
    if st == "announce" and "before" not in top:
        b = r.board(state)
        top["before"] = sorted({b.unit(u)["hex"] for u in b.on_map(SOVIET)})
        top["queue"], top["entered"] = [], 0
        return True
    if st == "next":
        if not top["queue"]:
            top["stage"] = "enter"
            return True
        to, choice = top["queue"][0]
        top.update(stage="boost", to=to, choice=choice, boost=0)
        return True
    if st == "release" and top["points"] <= 0:
        top["queue"].pop(0)
        top["stage"] = "next"
        return True
    if st == "enter" and (top["entered"] >= ENTRY_LIMIT or not entry_options(r, state)):
        r.pop(state, top)
        return True
    return False


def entry_options(r: Any, state: dict[str, Any]) -> list[str]:
    b = r.board(state)
    out = []
    for u in b.on_map(SOVIET):
        spec = b.spec(u)
        h = b.unit(u)["hex"]
        if spec.is_hq or spec.kind != "division" or spec.nationality != "sov" or b.unit(u)["oos"]:
            continue
        if b.enemy_adjacent(h, SOVIET) or not any(b.spec(x).is_hq for x in b.units_at(h)):
            continue
        out.append(f"enter {u}")
    return out


def ask_stavka(r: Any, state: dict[str, Any], top: dict[str, Any]) -> Decision:
    st = top["stage"]
    if st == "announce":
        return Decision(SOVIET, "stavka", "Stavka phase (§12): announce for each TO 'reserve' or 'move', before any "
                        "die; or none", ("appeal none",), hint="appeal TO reserve|move [TO reserve|move...]")
    if st == "boost":
        return Decision(SOVIET, "stavka-roll", f"TO {top['to']} ({top['choice']}, {column(state, top['to'])} column): "
                        f"spend a Support of its box for +1 (+{top['boost']} so far), or roll", ("roll",),
                        hint="boost HANDLE; roll")
    if st == "release":
        opts = release_options(r, state, top)
        return Decision(SOVIET, "stavka-release", f"TO {top['to']}: {top['points']} unit point(s) may leave the "
                        "Stavka box (12.1.1): place units, or done", tuple(opts[:12]) + ("done",),
                        hint="release UNIT HEX")
    if st == "move":
        return Decision(SOVIET, "stavka-move", f"TO {top['to']} may move {top['points']} hex(es) (12.3), or done",
                        ("done",), hint="tomove TO HEX...")
    return Decision(SOVIET, "stavka-enter", f"put up to {ENTRY_LIMIT - top['entered']} more unit(s) into the Stavka "
                    "box (12.1.2), or done", tuple(entry_options(r, state)) + ("done",), policy="stavka-enter")


def release_refusal(r: Any, state: dict[str, Any], top: dict[str, Any], uid: str, h: str) -> str | None:
    x = state["units"].get(uid)
    if x is None or x["box"] != "stavka":
        return f"{uid} is not in the Stavka box"
    if cost(r, uid) > top["points"]:
        return f"{uid} counts as {cost(r, uid)} units, {top['points']} left (12.1.1)"
    why = minimum_refusal(r, state, [uid])
    if why:
        return why
    if not tos.within(r, state, top["to"], h):
        return f"{h} is outside TO {top['to']}'s Operation Range (12.1.1)"
    m = r.scn.map
    if not m.on_map(h) or not any(n in top["before"] for n in m.neighbors(h)):
        return f"{h} is not next to a Soviet unit that was on the map before the Stavka phase (12.1.1, Q-21)"
    b = r.board(state)
    if b.enemy_occupied(h, SOVIET) or b.enemy_adjacent(h, SOVIET):
        return f"{h} is next to the enemy (12.1.1)"
    from pbem.games.vr import stacking
    here = [b.spec(u) for u in b.units_at(h) if b.side_of(u) == SOVIET] + [b.spec(uid)]
    over = stacking.problems(here, SOVIET, r.profile)
    if over:
        return f"{h}: {over[0]}"
    x["hex"], x["box"] = h, None
    try:
        ok = supply.unit_supply(r.board(state), SOVIET, state["weather"]).get(uid, False)
    finally:
        x["hex"], x["box"] = None, "stavka"
    if not ok:
        return f"{uid} would be out of supply in {h} (12.1.1)"
    return None


def release_options(r: Any, state: dict[str, Any], top: dict[str, Any]) -> list[str]:
    m = r.scn.map
    spots = sorted({n for h in top["before"] for n in m.neighbors(h)})
    out = []
    for u in in_box(state):
        for h in spots:
            if release_refusal(r, state, top, u, h) is None:
                out.append(f"release {u} {h}")
                break
    return out


def do_stavka(r: Any, state: dict[str, Any], top: dict[str, Any], d: Decision, order: dict[str, Any],
              rng: Any, events: list[Event]) -> None:
    st = top["stage"]
    v = order["verb"]
    t = tos.turn_state(state)
    if st == "announce":
        if v != "appeal":
            raise IllegalOrder("appeal TO reserve|move ... (or appeal none)")
        named: list[tuple[str, str]] = order["appeals"]
        seen = set()
        for to, choice in named:
            if to not in state["tos"] or to in seen:
                raise IllegalOrder(f"name each TO of {', '.join(sorted(state['tos']))} once")
            seen.add(to)
            if choice == "move":
                why = move_allowed(r, state, to)
                if why:
                    raise IllegalOrder(why)
            elif t["large"] and to != t["priority"]:
                raise IllegalOrder("in a Large Offensive turn only the Priority TO gets Stavka units (11.3.2)")
        rank = {t["priority"]: 0, t["secondary"]: 2}
        top["queue"] = [list(p) for p in sorted(named, key=lambda p: rank.get(p[0], 1))]
        events.append(Event("Stavka (§12): " + (", ".join(f"TO {a} {c}" for a, c in top["queue"]) or "no appeal")))
        top["stage"] = "next"
        return
    if st == "boost":
        if v == "boost":
            shown = r.opened(state, SOVIET, order)
            h, val = next(iter(shown.items()))
            if state["supports"][SOVIET].get("box", {}).get(h) != top["to"]:
                raise IllegalOrder(f"{h} is not in TO {top['to']}'s box (12.1.1)")
            r.spend_support(state, SOVIET, h, val, events, why=f"+1 on TO {top['to']}'s Stavka die (12.1.1)")
            top["boost"] += 1
            return
        if v != "roll":
            raise IllegalOrder("boost HANDLE, or roll")
        die = rng.roll(6, f"Stavka die for TO {top['to']} (12.1.1)")
        col = column(state, top["to"])
        n = stavka_table(col, die, supports=top["boost"], large_offensive=t["large"])
        events.append(Event(f"TO {top['to']}: Stavka die {die} + {top['boost']}"
                            + (" + 2 (Large Offensive)" if t["large"] and col == "priority" else "")
                            + f" on the {col} column: {n} (12.1.1)"))
        top["points"] = n
        top["stage"] = "release" if top["choice"] == "reserve" else "move"
        if top["choice"] == "move" and n <= 0:
            top["queue"].pop(0)
            top["stage"] = "next"
        return
    if st == "release":
        if v == "done":
            top["points"] = 0
            return
        if v != "release":
            raise IllegalOrder("release UNIT HEX, or done")
        why = release_refusal(r, state, top, order["unit"], order["hex"])
        if why:
            raise IllegalOrder(why)
        x = state["units"][order["unit"]]
        x.update(hex=order["hex"], box=None, oos=False)
        top["points"] -= cost(r, order["unit"])
        events.append(Event(f"{order['unit']} leaves the Stavka box for {order['hex']} (TO {top['to']}, 12.1.1)"))
        return
    if st == "move":
        if v == "tomove" and order["to"] == top["to"] and not order.get("handles"):
            from pbem.games.vr.seq_support import _move_to
            _move_to(r, state, top["to"], order["path"], top["points"], False, events, "12.3")
        elif v != "done":
            raise IllegalOrder(f"tomove {top['to']} HEX..., or done")
        top["queue"].pop(0)
        top["stage"] = "next"
        return
    if v == "done":
        top["entered"] = ENTRY_LIMIT
        return
    if v != "enter" or any(f"enter {u}" not in entry_options(r, state) for u in order["units"]):
        raise IllegalOrder("enter UNIT...: supplied, not next to the enemy, stacked with an HQ (12.1.2)")
    if top["entered"] + len(order["units"]) > ENTRY_LIMIT:
        raise IllegalOrder(f"at most {ENTRY_LIMIT} units enter the Stavka box a phase (12.1.2)")
    for u in order["units"]:
        x = state["units"][u]
        x.update(hex=None, box="stavka", oos=False, exploit=False)
        x["steps"] = 1 if (r.profile.infantry_modes and r.scn.units[u].corps) else r.scn.units[u].steps
    top["entered"] += len(order["units"])
    events.append(Event(f"{' '.join(order['units'])} enter the Stavka box (12.1.2-12.2.4)"))
