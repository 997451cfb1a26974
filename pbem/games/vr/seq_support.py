"""The Soviet Support phase of the Advanced game (§11, ``advanced_supports``)
as one frame ``tosupport``, in the strict order of 11.1:

1. played Supports back to the pool (5.2.1, R-48);
2. TO remoteness (11.2): a remote TO in Movement Mode may move up to five
   hexes along roads and railroads (``remote`` stage);
3. the draws (11.3): the Priority and the Secondary TO, perhaps a Large
   Offensive with its Support picked in secret (``order["secret"]``, sealed
   to the Soviet player), 2D6 halved down per TO in Offensive Mode on a
   City hex, then one Support for each TO in Movement Mode that asks
   (``take`` stage); every draw from the Soviet secret stream into the
   box of its TO (``supports.soviet.box``: public, 9.1.1);
4. placement and use (11.5.2, ``play`` stage) in the order Lend-Lease,
   Surprise Attack (a battle fought at once), other Events, reinforcing
   infantry corps (10.3.2, at most two Supports a TO);
5. TO movement (11.6, ``move`` stage, at most two Supports a TO);
6. mode switches (11.7, ``mode`` stage);
7. each box back to six (5.1.3 per box, R-49: ``discard`` stage).

The German Support phase keeps the frame of :mod:`seq_turn` (11.4 only
changes its count).  Each non-Priority box gives at most two Supports a
turn (11.5.3, R-50): :meth:`VrRules.charge`.
"""
from __future__ import annotations

from typing import Any

from pbem.game import Decision, Event, IllegalOrder
from pbem.games.vr import supports, tos, warsaw
from pbem.games.vr.model import SOVIET, TOS
from pbem.games.vr.tables import REMOTE_FREE_MOVE, to_draws, to_move

RANK = {"lendlease": 1, "surprise": 2, "attach": 3, "reinforce": 4}


def draw_into(r: Any, state: dict[str, Any], side: str, n: int, rng: Any, box: str | None = None,
              pick: str | None = None) -> list[str]:
    """``n`` face-down Supports from ``side``'s pool (its secret stream), or
    one picked by its owner (``pick``: the Support's id, in the owner's
    program only), into the Available box (``box``: a TO's)."""
    sup = state["supports"][side]
    n = max(0, min(n, supports.pool_size(r.scn, state["supports"], side)))
    srng = rng.secret(side) if pick is None else None
    mine = state["hidden"].get(side)
    new = []
    for _ in range(n):
        h = f"{supports.PREFIX[side]}-{sup['next']}"
        sup["next"] += 1
        if mine is not None:
            left = supports.pool(r.scn, state["supports"], side, mine["items"])
            if pick is not None:
                c = next((c for c in left if c[0] == pick), None)
                if c is None:
                    raise IllegalOrder(f"no {pick} Support is left in the pool to pick")
            elif srng is not None:
                c = left[srng.draw(left, f"{side} Support draw")]
            else:
                c = None
            if c is not None:
                mine["items"][h] = {"support": c[0], "copy": c[1], "turn": state["turn"]}
        sup["available"].append(h)
        sup["drawn_on"][h] = state["turn"]
        if box:
            sup.setdefault("box", {})[h] = box
        new.append(h)
    return new


def boxes(state: dict[str, Any]) -> dict[str, list[str]]:
    sup = state["supports"][SOVIET]
    box = sup.get("box", {})
    out: dict[str, list[str]] = {to: [] for to in state["tos"]}
    for h in sup["available"]:
        out.setdefault(box.get(h, ""), []).append(h)
    return out


# ------------------------------------------------------------------ frame
def auto_tosupport(r: Any, state: dict[str, Any], top: dict[str, Any], rng: Any, events: list[Event]) -> bool:
    st = top["stage"]
    t = tos.turn_state(state)
    if st == "start":
        from pbem.games.vr.seq_turn import return_played
        back = return_played(r, state, SOVIET)
        state["to_turn"] = None
        t = tos.turn_state(state)
        t["remote"] = [to for to in sorted(state["tos"]) if tos.remote(r, state, to)]
        events.append(Event(f"Soviet Support phase (§11): {back} played Support(s) back to the pool; remote TOs: "
                            f"{', '.join(t['remote']) or 'none'} (11.2)"))
        top["stage"] = "remote"
        top["new"] = []
        return True
    if st == "remote":
        if remote_movers(r, state):
            return False
        top["stage"] = "priority"
        return True
    if st == "draw":
        _draws(r, state, top, rng, events)
        top["stage"] = "take"
        return True
    if st == "take":
        if take_options(r, state):
            return False
        has_disk = any(s.kind == "red_disk" and s.side == SOVIET for s in r.scn.supports.values())
        top["stage"] = "redisk" if top["new"] and has_disk else "play"
        return True
    if st == "redisk":
        return False
    if st == "play":
        return False
    if st == "move":
        if movers(r, state):
            return False
        top["stage"] = "mode"
        return True
    if st == "mode":
        if flip_options(r, state):
            return False
        top["stage"] = "discard"
        return True
    if st == "discard":
        if over_cap(r, state):
            return False
        for u in state["units"].values():
            u["attacked"] = False                        # a Surprise Attack limits no later battle
        state["attacked_hexes"] = []
        r.pop(state, top)
        return True
    return False


def _draws(r: Any, state: dict[str, Any], top: dict[str, Any], rng: Any, events: list[Event]) -> None:
    """11.3.3: 2D6 halved down plus the modifiers, per TO in Offensive Mode
    on a City hex, not the Secondary, not remote (11.2); only the Priority
    TO in a Large Offensive turn; none off a City (R-51)."""
    t = tos.turn_state(state)
    m = r.scn.map
    for to in TOS:
        mk = state["tos"].get(to)
        if mk is None or mk["mode"] != "offensive" or to == t["secondary"]:
            continue
        if t["large"] and to != t["priority"]:
            continue
        city = m.cities.get(mk["hex"])
        if city is None or to in t["remote"]:
            why = "off a City hex (R-51)" if city is None else "remote (11.2)"
            events.append(Event(f"TO {to} draws nothing: {why}"))
            continue
        dice = rng.roll(6, f"TO {to} Support draw, die 1 (11.3.3)") + rng.roll(6, f"TO {to} Support draw, die 2")
        n = to_draws(dice, priority=to == t["priority"], large_offensive=t["large"], minor_city=city == "minor",
                     no_rail=not m.on_rail(mk["hex"]), weather=state["weather"])
        new = draw_into(r, state, SOVIET, n, rng, box=to)
        top["new"] += new
        if new:
            t.setdefault("drew", []).append(to)          # 12.3.1: no Stavka move this turn
        events.append(Event(f"TO {to}: 2D6 {dice} -> {n} draw(s) face down into its box ({', '.join(new) or 'none'}) "
                            "(11.3.3)"))


def remote_movers(r: Any, state: dict[str, Any]) -> list[str]:
    t = tos.turn_state(state)
    return [to for to in t["remote"] if state["tos"][to]["mode"] == "movement" and to not in t["remote_moved"]]


def take_options(r: Any, state: dict[str, Any]) -> list[str]:
    """11.3.4: a TO in Movement Mode, not the Secondary, may take one
    Support when the weather is not Mud (never in a Large Offensive turn)."""
    t = tos.turn_state(state)
    if state["weather"] == "mud" or t["large"]:
        return []
    return [f"take {to}" for to, mk in sorted(state["tos"].items())
            if mk["mode"] == "movement" and to != t["secondary"] and to not in t["no_move"]
            and to not in t.get("declined", [])]


def movers(r: Any, state: dict[str, Any]) -> list[str]:
    """11.6.1: TOs in Movement Mode that took no Support, not in a Large
    Offensive turn, not moved yet this phase."""
    t = tos.turn_state(state)
    if t["large"]:
        return []
    return [to for to, mk in sorted(state["tos"].items()) if mk["mode"] == "movement" and to not in t["no_move"]
            and to not in t["moved"] and to not in t.get("stayed", [])]


def flip_refusal(r: Any, state: dict[str, Any], to: str) -> str | None:
    """11.7: only on a Minor or Major City hex; not after an Artillery from
    an Offensive TO, not the Large Offensive's TO, not under Zhukov."""
    t = tos.turn_state(state)
    mk = state["tos"][to]
    if to in t.get("flipped", []):
        return f"TO {to} has switched its mode this phase"
    if r.scn.map.cities.get(mk["hex"]) is None:
        return f"TO {to} is not on a City hex: no mode switch (11.7)"
    if mk["mode"] == "offensive" and to in t["artillery"]:
        return f"TO {to} played an Artillery Support in Offensive Mode: no mode switch (11.7)"
    if t["large"] and to == t["priority"]:
        return f"TO {to} launched a Large Offensive: no mode switch (11.7)"
    if to in t["zhukov"]:
        return f"Zhukov keeps TO {to} in its mode (11.7)"
    return None


def flip_options(r: Any, state: dict[str, Any]) -> list[str]:
    t = tos.turn_state(state)
    if t.get("mode_done"):
        return []
    return [f"flip {to}" for to in sorted(state["tos"]) if flip_refusal(r, state, to) is None]


def over_cap(r: Any, state: dict[str, Any]) -> dict[str, int]:
    cap = r.profile.supports_cap
    return {to: len(hs) - cap for to, hs in boxes(state).items() if len(hs) > cap}


def reinforce_targets(r: Any, state: dict[str, Any], to: str) -> list[list[str]]:
    """10.3.2: the stacks of one or two Standard-Mode corps a Support from
    TO ``to``'s box may reinforce (supplied, within its range, on a road or
    railroad joined to it, outside every Movement-Mode TO's range)."""
    mk = state["tos"][to]
    if mk["mode"] != "offensive":
        return []
    m = r.scn.map
    out: dict[str, list[str]] = {}
    for uid, x in sorted(state["units"].items()):
        spec = r.scn.units[uid]
        h = x["hex"]
        if not h or x["side"] != SOVIET or not spec.corps or spec.steps < 2 or x["steps"] != 1 or x["oos"]:
            continue
        if not tos.within(r, state, to, h) or not m.on_road_or_rail(h):
            continue
        if any(o["mode"] == "movement" and tos.within(r, state, k, h) for k, o in state["tos"].items()):
            continue
        if not tos.road_linked(r, state, h, mk["hex"]):
            continue
        out.setdefault(h, []).append(uid)
    return [us[:2] for _, us in sorted(out.items())]


def play_options(r: Any, state: dict[str, Any], top: dict[str, Any]) -> list[str]:
    t = tos.turn_state(state)
    by_box = boxes(state)
    out = []
    for to in sorted(state["tos"]):
        if not by_box.get(to) or t["reinforce"].get(to, 0) >= 2:
            continue
        if to != t["priority"] and t["used"].get(to, 0) >= 2:
            continue
        for stack in reinforce_targets(r, state, to)[:2]:
            out.append(f"reinforce {by_box[to][0]} {' '.join(stack)}")
    return out


# ------------------------------------------------------------------- asks
def ask_tosupport(r: Any, state: dict[str, Any], top: dict[str, Any]) -> Decision:
    st = top["stage"]
    t = tos.turn_state(state)
    if st == "remote":
        opts = tuple(f"tomove {to} ..." for to in remote_movers(r, state))
        return Decision(SOVIET, "to-remote", "remote TOs in Movement Mode may move up to five hexes along roads and "
                        f"railroads (11.2): {', '.join(remote_movers(r, state))}; or done", ("done",),
                        hint="tomove TO HEX...; " + " ".join(opts))
    if st == "priority":
        ts = sorted(state["tos"])
        default = f"priority {ts[0]} {ts[-1]}" if len(ts) > 1 else ""
        return Decision(SOVIET, "priority", "name the Priority TO and the Secondary TO, and perhaps launch a Large "
                        "Offensive with the Priority TO, picking one Support of the pool in secret (11.3.1-11.3.2)",
                        (default,) if default else (), hint="priority TO SECONDARY [large SUPPORT-ID]")
    if st == "take":
        return Decision(SOVIET, "to-take", "a TO in Movement Mode may take one Support and then not move this turn "
                        "(11.3.4), or done", tuple(take_options(r, state)) + ("done",), policy="to-take")
    if st == "redisk":
        return Decision(SOVIET, "red-disk", "show the red-disk Supports just drawn: they are played at once (1.5.3)",
                        private=True)
    if st == "play" and warsaw.stalin_owed(r, state):
        return warsaw.stalin_decision(r, state)
    if st == "play":
        return Decision(SOVIET, "tosupport", "play Supports in the order of 11.5.2: Lend-Lease, Surprise Attack, "
                        "other Events, reinforcing infantry corps (10.3.2); then done",
                        tuple(play_options(r, state, top)) + ("done",),
                        hint="lendlease HANDLE TO; surprise HANDLE HEX with UNIT...; attach HANDLE UNIT; "
                             "reinforce HANDLE CORPS [CORPS]")
    if st == "move":
        return Decision(SOVIET, "to-move", f"move TOs in Movement Mode (11.6): {', '.join(movers(r, state))}; "
                        "or done", ("done",), policy="to-move",
                        hint="tomove TO HEX... [pay HANDLE [HANDLE]]")
    if st == "mode":
        return Decision(SOVIET, "to-mode", "switch a TO's mode on a City hex (11.7), or done",
                        tuple(flip_options(r, state)) + ("done",), policy="to-mode")
    extra = over_cap(r, state)
    by_box = boxes(state)
    default = " ".join(h for to, n in sorted(extra.items()) for h in by_box[to][-n:])
    what = ", ".join(f"TO {to}: {n}" for to, n in sorted(extra.items()))
    del t
    return Decision(SOVIET, "to-discard", f"each TO box keeps six Supports: return {what} to the pool (5.1.3, R-49)",
                    (f"return {default}",), policy="to-discard", hint="return HANDLE...")


def do_tosupport(r: Any, state: dict[str, Any], top: dict[str, Any], d: Decision, order: dict[str, Any],
                 rng: Any, events: list[Event]) -> None:
    st = top["stage"]
    t = tos.turn_state(state)
    v = order["verb"]
    if st == "remote":
        if v == "done":
            t["remote_moved"] += remote_movers(r, state)     # those not moved give up the free move
            return
        if v != "tomove" or order["to"] not in remote_movers(r, state):
            raise IllegalOrder(f"tomove one of {', '.join(remote_movers(r, state))}, or done")
        if order.get("handles"):
            raise IllegalOrder("the remoteness move is free: no Support is spent (11.2)")
        _move_to(r, state, order["to"], order["path"], REMOTE_FREE_MOVE, True, events, "11.2")
        return
    if st == "priority":
        _priority(r, state, top, order, rng, events)
        return
    if st == "take":
        if v == "done":
            t["declined"] = sorted(state["tos"])
            return
        if v != "take" or f"take {order['to']}" not in take_options(r, state):
            raise IllegalOrder(f"take one of: {', '.join(o[5:] for o in take_options(r, state))}, or done")
        new = draw_into(r, state, SOVIET, 1, rng, box=order["to"])
        top["new"] += new
        t["no_move"].append(order["to"])
        t.setdefault("drew", []).append(order["to"])
        events.append(Event(f"TO {order['to']} takes {len(new)} Support ({', '.join(new) or 'the pool is empty'}) "
                            "and will not move this turn (11.3.4)"))
        return
    if st == "redisk":
        _redisk(r, state, top, order, rng, events)
        return
    if st == "play" and d.kind == "stalin-to":
        warsaw.stalin_order(r, state, order, rng, events)
        return
    if st == "play":
        _play(r, state, top, order, rng, events)
        return
    if st == "move":
        if v == "done":
            t["stayed"] = sorted(state["tos"])
            top["stage"] = "mode"
            return
        if v != "tomove" or order["to"] not in movers(r, state):
            raise IllegalOrder(f"tomove one of {', '.join(movers(r, state)) or 'no TO'}, or done")
        to = order["to"]
        hs = list(order.get("handles") or [])
        if len(hs) > 2:
            raise IllegalOrder("at most two Supports for a TO's move (11.6.2)")
        box = state["supports"][SOVIET].get("box", {})
        if any(box.get(h) != to for h in hs):
            raise IllegalOrder(f"a TO's move is paid from its own box (11.6.2): {' '.join(hs)} not all in TO {to}'s")
        path = order["path"]
        rail = all(r.scn.map.rail(a, b) for a, b in zip([state["tos"][to]["hex"]] + path, path))
        allowance = to_move(rail_only=rail, supports=len(hs), weather=state["weather"])
        _check_path(r, state, to, path, allowance, False)
        shown = r.opened(state, SOVIET, order)
        for h, val in shown.items():
            r.spend_support(state, SOVIET, h, val, events, why=f"TO {to}'s move (11.6.2)")
        _move_to(r, state, to, path, allowance, False, events, "11.6")
        return
    if st == "mode":
        if v == "done":
            t["mode_done"] = True
            return
        if v != "flip" or order["to"] not in state["tos"]:
            raise IllegalOrder("flip TO, or done")
        why = flip_refusal(r, state, order["to"])
        if why:
            raise IllegalOrder(why)
        mk = state["tos"][order["to"]]
        mk["mode"] = "movement" if mk["mode"] == "offensive" else "offensive"
        t.setdefault("flipped", []).append(order["to"])
        events.append(Event(f"TO {order['to']} switches to {mk['mode'].title()} Mode (11.7)"))
        return
    extra = over_cap(r, state)
    if v != "return":
        raise IllegalOrder("return the Supports above six in each TO box (5.1.3)")
    hs = order["handles"]
    by_box = boxes(state)
    if len(set(hs)) != len(hs) or any(h not in state["supports"][SOVIET]["available"] for h in hs):
        raise IllegalOrder("return different handles of your TO boxes")
    for to, n in extra.items():
        got = sum(1 for h in hs if h in by_box[to])
        if got != n:
            raise IllegalOrder(f"return exactly {n} Support(s) of TO {to}'s box (5.1.3, R-49)")
    if len(hs) != sum(extra.values()):
        raise IllegalOrder("return only Supports above six in a box")
    for h in hs:
        r.return_handle(state, SOVIET, h)
    events.append(Event(f"Soviet returns {len(hs)} face-down Support(s) to the pool (5.1.3)"))


def _priority(r: Any, state: dict[str, Any], top: dict[str, Any], order: dict[str, Any], rng: Any,
              events: list[Event]) -> None:
    t = tos.turn_state(state)
    if order["verb"] != "priority":
        raise IllegalOrder("priority TO SECONDARY [large SUPPORT-ID] (11.3.1)")
    p, s = order["to"], order["secondary"]
    if p not in state["tos"] or s not in state["tos"] or p == s:
        raise IllegalOrder(f"name two different TOs of {', '.join(sorted(state['tos']))} (11.3.1)")
    large = bool(order.get("large"))
    if large:
        mk = state["tos"][p]
        box = boxes(state).get(p, [])
        if state["weather"] == "mud":
            raise IllegalOrder("no Large Offensive in Mud (11.3.2)")
        if mk["mode"] != "offensive":
            raise IllegalOrder(f"TO {p} is not in Offensive Mode: no Large Offensive (11.3.2)")
        if r.scn.map.cities.get(mk["hex"]) != "major":
            raise IllegalOrder(f"TO {p} is not on a Major City hex: no Large Offensive (11.3.2)")
        if len(box) < 6:
            raise IllegalOrder(f"TO {p} holds {len(box)} Supports, a Large Offensive needs six (11.3.2)")
        secret = order.get("secret")
        mine = state["hidden"].get(SOVIET)
        if mine is not None:
            if not isinstance(secret, dict) or not isinstance(secret.get("pick"), str):
                raise IllegalOrder("a Large Offensive names the Support it picks: priority TO SEC large SUPPORT-ID")
            spec = r.scn.supports.get(secret["pick"])
            if spec is None or spec.side != SOVIET:
                raise IllegalOrder(f"{secret['pick']!r} is not a Soviet Support")
    t.update(priority=p, secondary=s, large=large)
    events.append(Event(f"Priority TO {p}, Secondary TO {s}" + (": Large Offensive (11.3.2)" if large else
                                                                " (11.3.1)")))
    if large:
        pick = (order.get("secret") or {}).get("pick")
        new = draw_into(r, state, SOVIET, 1, rng, box=p, pick=pick or "?")
        top["new"] += new
        t.setdefault("drew", []).append(p)
        events.append(Event(f"TO {p} picks one Support of the pool in secret ({', '.join(new)}) (11.3.2)"))
    top["stage"] = "draw"


def _redisk(r: Any, state: dict[str, Any], top: dict[str, Any], order: dict[str, Any], rng: Any,
            events: list[Event]) -> None:
    if order["verb"] != "reveal":
        raise IllegalOrder("the red-disk Supports drawn are shown by their owner's program")
    shown = r.opened(state, SOVIET, order)
    for h, v in shown.items():
        if h not in top["new"] or r.scn.supports[v["support"]].kind != "red_disk":
            raise IllegalOrder(f"{h} is not a red-disk Support drawn now (1.5.3)")
    mine = state["hidden"].get(SOVIET)
    if mine is not None:
        due = {h for h in top["new"] if h in mine["items"]
               and r.scn.supports[mine["items"][h]["support"]].kind == "red_disk"}
        if due != set(shown):
            raise IllegalOrder("every red-disk Support drawn must be played at once (1.5.3)")
    box = state["supports"][SOVIET].get("box", {})
    for h, v in sorted(shown.items()):
        to = box.get(h, "")
        r.play_support(state, SOVIET, h, v, events, why="red disk: its Event at once, first (1.5.3, 11.5.2)")
        if r.scn.supports[v["support"]].role == "stalin":
            supports.stalin_event(r, state, v["support"], to, rng, events)      # 11.5.2: the die at once
    top["stage"] = "play"


def _play(r: Any, state: dict[str, Any], top: dict[str, Any], order: dict[str, Any], rng: Any,
          events: list[Event]) -> None:
    v = order["verb"]
    t = tos.turn_state(state)
    if v == "done":
        top["stage"] = "move"
        return
    if v not in RANK:
        raise IllegalOrder("lendlease, surprise, attach, reinforce, or done (11.5.2)")
    if RANK[v] < top.get("rank", 0):
        raise IllegalOrder("11.5.2 orders the plays: Lend-Lease, then Surprise Attack, then the other Events, "
                           "then reinforcing infantry corps")
    if v == "attach":
        from pbem.games.vr.seq_turn import _attach
        _attach(r, state, SOVIET, order, events)
        top["rank"] = RANK[v]
        return
    shown = r.opened(state, SOVIET, order)
    h, val = next(iter(shown.items()))
    spec = r.scn.supports[val["support"]]
    box = state["supports"][SOVIET].get("box", {}).get(h)
    if v == "lendlease":
        if spec.role != "lend_lease":
            raise IllegalOrder(f"{spec.name} is not Lend-Lease")
        if order["to"] not in state["tos"]:
            raise IllegalOrder(f"no TO {order['to']}")
        if not r.scn.card.lend_lease_range:
            raise IllegalOrder("this card gives no Lend-Lease range (R-81): expend it instead")
        r.play_support(state, SOVIET, h, val, events, why=f"on TO {order['to']}: its range grows by "
                       f"{r.scn.card.lend_lease_range} this turn (11.5.2, R-81)")
        t["lend_lease"] = order["to"]
    elif v == "surprise":
        if spec.role != "surprise_attack":
            raise IllegalOrder(f"{spec.name} is not a Surprise Attack")
        pseudo = {"side": SOVIET, "mode": "combat"}
        why = r.attack_check(state, pseudo, order["hex"], order["units"])
        if why:
            raise IllegalOrder(why)
        where = {state["units"][u]["hex"] for u in order["units"]}
        if len(where) != 1:
            raise IllegalOrder("a Surprise Attack goes in from the one hex its marker is on (11.5.2)")
        marker = where.pop()
        why = r.to_label_refusal(state, h, val, marker)
        if why:
            raise IllegalOrder(why)
        r.play_support(state, SOVIET, h, val, events, why=f"marker on {marker}: an attack on {order['hex']} "
                       "resolved now, in the Support phase (11.5.2)")
        r.start_battle(state, pseudo, order["hex"], list(order["units"]), events)
        state["stack"][-1]["surprise"] = marker
    else:
        if not box or box not in state["tos"]:
            raise IllegalOrder(f"{h} lies in no TO box")
        if state["tos"][box]["mode"] != "offensive":
            raise IllegalOrder(f"TO {box} is not in Offensive Mode: its Supports reinforce no corps (10.3.2)")
        if t["reinforce"].get(box, 0) >= 2:
            raise IllegalOrder(f"TO {box} has spent its two Supports on infantry corps (10.3.2)")
        stack = sorted(order["units"])
        if not 1 <= len(stack) <= 2 or not any(set(stack) <= set(s) for s in reinforce_targets(r, state, box)):
            raise IllegalOrder("one or two Standard-Mode corps stacked together, supplied, within TO "
                               f"{box}'s range on a road or railroad joined to it, outside every Movement-Mode "
                               "TO's range (10.3.2)")
        r.spend_support(state, SOVIET, h, val, events, why=f"Reinforced Mode for {' '.join(stack)} (10.3.2)")
        for u in stack:
            state["units"][u]["steps"] = r.scn.units[u].steps
        t["reinforce"][box] = t["reinforce"].get(box, 0) + 1
        events.append(Event(f"{' '.join(stack)} go to Reinforced Mode (10.3.2)"))
    top["rank"] = RANK[v]


def _check_path(r: Any, state: dict[str, Any], to: str, path: list[str], allowance: int, roads: bool) -> None:
    m = r.scn.map
    here = state["tos"][to]["hex"]
    if not path or len(path) > allowance:
        raise IllegalOrder(f"TO {to} moves at most {allowance} hex(es) now")
    for a, b in zip([here] + path, path):
        if b not in m.neighbors(a):
            raise IllegalOrder(f"{a} and {b} are not adjacent")
        if roads and not m.connected(a, b):
            raise IllegalOrder(f"{a}-{b}: the remoteness move follows roads and railroads (11.2)")
        why = tos.spot_refusal(r, state, b)            # 9.1.4 at all times: every hex of the path
        if why:
            raise IllegalOrder(f"TO {to} cannot " + ("end" if b == path[-1] else "pass") + f" in {b}: {why}")


def _move_to(r: Any, state: dict[str, Any], to: str, path: list[str], allowance: int, roads: bool,
             events: list[Event], rule: str) -> None:
    _check_path(r, state, to, path, allowance, roads)
    t = tos.turn_state(state)
    old = state["tos"][to]["hex"]
    state["tos"][to]["hex"] = path[-1]
    t["moved" if rule == "11.6" else "remote_moved"].append(to)     # the free move comes on top
    events.append(Event(f"TO {to} moves {old} -> {' '.join(path)} ({rule})"))


# ---------------------------------------------------- 9.1.4 displacement
def ask_todisplace(r: Any, state: dict[str, Any], top: dict[str, Any]) -> Decision:
    return Decision(SOVIET, "to-displace", f"TO {top['to']} must leave {state['tos'][top['to']]['hex']}: pick the "
                    "nearest Major City eastwards (9.1.4)", tuple(f"tocity {top['to']} {h}" for h in top["cities"]),
                    policy="to-displace")


def do_todisplace(r: Any, state: dict[str, Any], top: dict[str, Any], d: Decision, order: dict[str, Any],
                  rng: Any, events: list[Event]) -> None:
    if order["verb"] != "tocity" or order["to"] != top["to"] or order["hex"] not in top["cities"]:
        raise IllegalOrder(f"tocity {top['to']} one of {' '.join(top['cities'])} (9.1.4)")
    r.pop(state, top)
    tos.move_to(r, state, order["to"], order["hex"], events)


def check_displacement(r: Any, state: dict[str, Any], events: list[Event]) -> bool:
    """9.1.4 at once: a TO whose hex a German unit entered, or that cannot
    trace a Supply Route, goes to the nearest friendly Major City
    eastwards; True when the Soviet player must pick among equals."""
    if not state.get("tos"):
        return False
    for to in tos.displaced(r, state):
        cities = tos.refuges(r, state, to)
        if len(cities) == 1:
            tos.move_to(r, state, to, cities[0], events)
        elif len(cities) > 1:
            state["stack"].append({"k": "todisplace", "to": to, "cities": cities})
            return True
        else:
            events.append(Event(f"TO {to} breaks 9.1.4 and no Major City can take it: it stays (R-83)"))
    return False
