"""The scripted player (``pbem demo vr``, the engine tests): it plays to
show the rules at work, not to win.  Units close on the nearest enemy (the
Soviet on the card's objectives), attacks go in at 2:1 or better with one
Support when it has one, the German pays for Strategic Movement once a
phase when it can (keeping the Supports of the enemy turn for defence).
In the Advanced game the Soviet launches a Large Offensive whenever his
Priority TO may (11.3.2), switches a TO with an empty box to the other
mode every third turn (11.7), moves a Movement-Mode TO towards the enemy
in the Support phase every other turn (11.6), sends a unit to the Stavka box
every third turn (12.1.2), and both sides spend their RP (17.3).  Every
other decision takes the first legal option.
Every choice passes :func:`pbem.game.probe`, the one legality check."""
from __future__ import annotations

from typing import Any

from pbem.game import Decision, IllegalOrder, probe
from pbem.games.vr import moves

POLICIES = {"terrain": "best", "react": "never", "elite-defense": "always", "first-loss": "strongest",
            "losses": "spread", "elite-result": "best", "river-row": "best", "s-result": "loss",
            "retreat": "first", "advance": "all", "exploit": "most", "kg": "always", "survivor": "first",
            "discard": "newest", "pontoon": "none", "place": "first", "overstack": "weakest", "mobilize": "first"}
MOVES_A_PHASE = 6


def legal(r: Any, state: dict[str, Any], seat: str, order: dict[str, Any]) -> bool:
    return probe(r, state, seat, order) is None


def demo_order(r: Any, state: dict[str, Any], d: Decision) -> dict[str, Any] | str:
    if d.kind == "move":
        return _move(r, state, d)
    if d.kind == "combat":
        return _attack(r, state, d)
    if d.kind == "declare":
        return _declare(r, state, d)
    if d.kind == "events":
        return _attach(r, state, d)
    if d.kind == "eor-pick":
        return _pick(r, state, d)
    if d.kind == "capitulate":
        return _capitulate(r, state, d)
    if d.kind in ("priority", "stavka", "to-mode", "stavka-enter"):
        return _advanced(r, state, d)
    if d.kind == "to-move":
        return _to_move(r, state, d)
    if d.kind == "replace":
        return _replace(r, state, d)
    for text in d.options + ("pass", "done"):
        try:
            order = r.parse(text, state, d.seat)
        except IllegalOrder:
            continue
        if legal(r, state, d.seat, order):
            return order
    raise IllegalOrder(f"demo player: no legal choice for {d.kind}")


def _pick(r: Any, state: dict[str, Any], d: Decision) -> dict[str, Any]:
    """After a Dismissal: the Support of the pool with the biggest Event."""
    from pbem.games.vr import supports
    mine = (state["hidden"].get(d.seat) or {}).get("items") or {}
    left = supports.pool(r.scn, state["supports"], d.seat, mine)
    best = sorted(left, key=lambda c: (-r.scn.supports[c[0]].shift, c))
    for sid, _ in best:
        order = {"verb": "pick", "secret": {"pick": sid}}
        if legal(r, state, d.seat, order):
            return order
    raise IllegalOrder("demo player: nothing to pick")


def _capitulate(r: Any, state: dict[str, Any], d: Decision) -> dict[str, Any]:
    """Ally Capitulation whenever TO S's box holds it (14)."""
    mine = (state["hidden"].get(d.seat) or {}).get("items") or {}
    box = state["supports"][d.seat].get("box", {})
    for h in state["supports"][d.seat]["available"]:
        v = mine.get(h)
        if v and box.get(h) == "S" and r.scn.supports[v["support"]].role == "ally_capitulation":
            order = {"verb": "capitulate", "support": h, "open": [h]}
            if legal(r, state, d.seat, order):
                return order
    return {"verb": "pass"}


def _advanced(r: Any, state: dict[str, Any], d: Decision) -> dict[str, Any] | str:
    """The Advanced Soviet decisions: the Priority TO turns with the turns
    (11.3.1); the Priority TO appeals to the strategic reserve and the
    Movement-Mode TOs ask to move (§12); modes stay; nothing enters the
    Stavka box."""
    from pbem.games.vr import tos
    ts = sorted(state["tos"])
    if d.kind == "priority" and len(ts) > 1:
        from pbem.games.vr import supports
        from pbem.games.vr.seq_support import boxes
        by_box = boxes(state)
        full = [to for to in ts if len(by_box.get(to, [])) >= 6]
        k = ts.index(full[0]) if full else state["turn"] % len(ts)
        order = {"verb": "priority", "to": ts[k], "secondary": ts[(k + 1) % len(ts)], "large": False}
        if full:                                           # 11.3.2: the pick, the best Event left in the pool
            mine = (state["hidden"].get(d.seat) or {}).get("items") or {}
            left = sorted(supports.pool(r.scn, state["supports"], d.seat, mine),
                          key=lambda c: (-r.scn.supports[c[0]].shift, c))
            for sid, _ in left[:3]:
                big = dict(order, large=True, secret={"pick": sid})
                if legal(r, state, d.seat, big):
                    return big
        if legal(r, state, d.seat, order):
            return order
    if d.kind == "stavka":
        t = tos.turn_state(state)
        wish = [[t["priority"], "reserve"]] if t.get("priority") else []
        wish += [[to, "move"] for to in ts if state["tos"][to]["mode"] == "movement" and to != t.get("priority")]
        for appeals in (wish, wish[:1]):
            order = {"verb": "appeal", "appeals": appeals}
            if appeals and legal(r, state, d.seat, order):
                return order
    if d.kind == "stavka-enter" and state["turn"] % 3 == 0:
        for o in d.options:
            if o.startswith("enter "):
                order = r.parse(o, state, d.seat)
                if legal(r, state, d.seat, order):
                    return order
    if d.kind == "to-mode":
        from pbem.games.vr.seq_support import boxes
        by_box = boxes(state)
        for o in d.options:                                # 11.7: an idle TO switches mode every third turn
            if o.startswith("flip ") and state["turn"] % 3 == 1 and not by_box.get(o.split()[1]):
                order = r.parse(o, state, d.seat)
                if legal(r, state, d.seat, order):
                    return order
    if d.kind in ("to-mode", "stavka-enter"):
        return {"verb": "done"}
    return d.options[0] if d.options else {"verb": "done"}


def _to_move(r: Any, state: dict[str, Any], d: Decision) -> dict[str, Any]:
    """Every other turn, a Movement-Mode TO one hex nearer the enemy along
    a road or railroad, unpaid (11.6)."""
    from pbem.games.vr.seq_support import movers
    if state["turn"] % 2:
        return {"verb": "done"}
    b = r.board(state)
    enemy = [b.unit(u)["hex"] for u in b.on_map("german")]
    for to in movers(r, state):
        here = state["tos"][to]["hex"]
        if not enemy:
            break
        near = min(b.map.distance(here, e) for e in enemy)
        steps = sorted((n for n in b.map.neighbors(here) if b.map.connected(here, n)),
                       key=lambda n: min(b.map.distance(n, e) for e in enemy))
        for n in steps:
            if min(b.map.distance(n, e) for e in enemy) >= near:
                break
            order = {"verb": "tomove", "to": to, "path": [n], "handles": []}
            if legal(r, state, d.seat, order):
                return order
    return {"verb": "done"}


def _replace(r: Any, state: dict[str, Any], d: Decision) -> dict[str, Any]:
    """The first rebuild the rules allow (an armored one paid with a
    Support that is not the enemy turn's), then done."""
    mine = (state["hidden"].get(d.seat) or {}).get("items") or {}
    for text in d.options:
        if text == "done":
            continue
        order = r.parse(text, state, d.seat)
        if order.get("open"):
            for h in state["supports"][d.seat]["available"]:
                v = mine.get(h)
                if v and "support" in v and not r.scn.supports[v["support"]].enemy_turn:
                    paid = dict(order, support=h, open=[h])
                    if legal(r, state, d.seat, paid):
                        return paid
            continue
        if legal(r, state, d.seat, order):
            return order
    return {"verb": "done"}


def _keep(r: Any, state: dict[str, Any], seat: str, h: str) -> bool:
    """A Support of the enemy turn is kept for defence."""
    v = ((state["hidden"].get(seat) or {}).get("items") or {}).get(h)
    return bool(v and "support" in v and r.scn.supports[v["support"]].enemy_turn)


def _targets(r: Any, state: dict[str, Any], side: str) -> list[str]:
    b = r.board(state)
    enemy = sorted({b.unit(u)["hex"] for u in b.on_map("german" if side == "soviet" else "soviet")})
    v = r.scn.card.victory
    goals = [h for h in list(v.get("soviet_controls", ())) + list(v.get("soviet_reaches", ()))
             if state["control"].get(h) != "soviet"]
    return (goals + enemy) if side == "soviet" else enemy


def _move(r: Any, state: dict[str, Any], d: Decision) -> dict[str, Any]:
    top = state["stack"][-1]
    b = r.board(state)
    side = d.seat
    spare = [h for h in state["supports"][side]["available"] if not _keep(r, state, side, h)]
    if side == "german" and top["mode"] == "normal" and not top["paid"] and spare and state["weather"] != "mud":
        order = {"verb": "pay", "support": spare[0], "open": [spare[0]]}
        if legal(r, state, side, order):
            return order
    if side == "german" and top["mode"] == "normal" and not top["moved"]:
        halt = _halt(r, state, side)
        if halt:
            return halt
    if side == "german" and top["mode"] == "normal" and top.get("naval"):
        sail = _sail(r, state, top)
        if sail:
            return sail
    if len(top["moved"]) >= MOVES_A_PHASE:
        return {"verb": "end-move"}
    targets = _targets(r, state, side)
    if not targets:
        return {"verb": "end-move"}
    modes = ["strategic", "normal"] if top["paid"] or side == "soviet" else ["normal"]
    if top["mode"] == "exploit":
        modes = ["normal"]
    for uid in b.on_map(side):
        if uid in top["moved"] or not r.may_move(state, uid, top) or r.scn.units[uid].is_hq:
            continue
        here = b.unit(uid)["hex"]
        if b.enemy_adjacent(here, side):
            continue
        near = min(b.map.distance(here, t) for t in targets)
        for mode in modes:
            try:
                reach = moves.reach(b, uid, "exploit" if top["mode"] == "exploit" else mode)
            except IllegalOrder:
                continue
            ends = sorted((h for h in reach.cost if h != here),
                          key=lambda h: (min(b.map.distance(h, t) for t in targets), reach.cost[h], h))
            for goal in ends[:4]:
                if min(b.map.distance(goal, t) for t in targets) >= near:
                    break
                order = {"verb": "move", "mode": mode, "units": [uid], "path": reach.path_to(goal)}
                if legal(r, state, side, order):
                    return order
    return {"verb": "end-move"}


def _halt(r: Any, state: dict[str, Any], side: str) -> dict[str, Any] | None:
    """A Haltebefehl on a Major City or port held by a German division next
    to the enemy (6.7.1)."""
    from pbem.games.vr import haltebefehl
    b = r.board(state)
    for h in sorted(b.at):
        if haltebefehl.place_refusal(b, h) is None and b.enemy_adjacent(h, side):
            order = {"verb": "halt", "hex": h}
            if legal(r, state, side, order):
                return order
    return None


def _sail(r: Any, state: dict[str, Any], top: dict[str, Any]) -> dict[str, Any] | None:
    """Evacuate a unit from a port next to the enemy (6.5)."""
    b = r.board(state)
    for uid in b.on_map("german"):
        here = b.unit(uid)["hex"]
        if here not in r.scn.map.ports or not b.enemy_adjacent(here, "german") or uid in top["moved"]:
            continue
        for dest in sorted(r.scn.map.ports):
            order = {"verb": "move", "mode": "naval", "units": [uid], "path": [dest]}
            if dest != here and legal(r, state, "german", order):
                return order
    return None


def _attach(r: Any, state: dict[str, Any], d: Decision) -> dict[str, Any]:
    """A leader on the strongest division without one (5.4.4)."""
    mine = (state["hidden"].get(d.seat) or {}).get("items") or {}
    b = r.board(state)
    free = sorted((u for u in b.on_map(d.seat) if not b.spec(u).is_hq
                   and u not in state["supports"][d.seat]["attached"]), key=lambda u: (-b.attack(u), u))
    for h in state["supports"][d.seat]["available"]:
        v = mine.get(h)
        if v and r.scn.supports[v["support"]].kind == "leader" and free:
            order = {"verb": "attach", "support": h, "unit": free[0], "open": [h]}
            if legal(r, state, d.seat, order):
                return order
    return {"verb": "done"}


def _attack(r: Any, state: dict[str, Any], d: Decision) -> dict[str, Any]:
    top = state["stack"][-1]
    for h, units in r.attack_options(state, top):
        f = {"hex": h, "att": units, "side": d.seat, "dside": "german" if d.seat == "soviet" else "soviet",
             "terrain": None, "shift": 0}
        col = r.battle_column(state, f, 1)
        if col is not None and col >= r.scn.crt.ladder.labels.index("2:1") - 1:
            order = {"verb": "attack", "hex": h, "units": units}
            if legal(r, state, d.seat, order):
                return order
    return {"verb": "end-combat"}


def _declare(r: Any, state: dict[str, Any], d: Decision) -> dict[str, Any]:
    f = state["stack"][-1]
    mine = (state["hidden"].get(d.seat) or {}).get("items") or {}
    elite = next((o.split()[2] for o in d.options if o.startswith("declare elite")), None)
    armored = "declare armored" in d.options
    leaders = [o.split()[2] for o in d.options if o.startswith("declare leader")][:1]
    for h in state["supports"][d.seat]["available"]:
        v = mine.get(h)
        if v and "support" in v and r.scn.supports[v["support"]].shift > 0 and not _keep(r, state, d.seat, h):
            order = {"verb": "declare", "elite": elite, "armored": armored, "supports": [h], "open": [h],
                     "leaders": leaders}
            if legal(r, state, d.seat, order):
                return order
    order = {"verb": "declare", "elite": elite, "armored": armored, "supports": [], "leaders": leaders}
    if legal(r, state, d.seat, order):
        return order
    return {"verb": "declare", "elite": None, "armored": False, "supports": []}
