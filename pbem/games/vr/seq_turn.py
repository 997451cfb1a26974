"""The frames of a Game Turn (§2): Turn -> Weather -> player turn ->
Supply, Support, (Stavka), Movement, Combat, Exploitation, R&R.

Each frame is a dict on ``state["stack"]`` with its own cursor; its
handlers are ``auto_K`` (work without asking: True when something
happened), ``ask_K`` (the one decision it owes) and ``do_K`` (an order
for it).  A phase ends when its frame is popped; the player-turn frame
then checks stacking (1.11.2), gives control by occupation (1.10) and
clears the phase's flags.  A switched-off (Advanced) rule pushes no frame.
"""
from __future__ import annotations

from typing import Any

from pbem.game import Decision, Event, IllegalOrder
from pbem.games.vr import approval, haltebefehl, moves, stacking, supply, supports
from pbem.games.vr.model import GERMAN, SIDE_NAME, SIDES, SOVIET, enemy_of
from pbem.games.vr.weather import effects, roll_weather

PHASES = ("supply", "support", "stavka", "movement", "combat", "exploit_move", "exploit_combat", "rr")
FRAME = {"supply": "supply", "support": "support", "stavka": "stavka", "movement": "movement", "combat": "combat",
         "exploit_move": "movement", "exploit_combat": "combat", "rr": "rr"}


# ---------------------------------------------------------------- the turn
def auto_turn(r: Any, state: dict[str, Any], top: dict[str, Any], rng: Any, events: list[Event]) -> bool:
    step = top["step"]
    if step == 0 and not top.get("go"):
        return False                                   # the game's first order: the Soviet rolls (3.1.1)
    if step == 0:
        if state.get("approval"):
            state["approval"]["flipped"] = False          # 15.3.1: flipped back at the start of the next turn
        dice = rng.roll(6, f"turn {state['turn']} weather, Soviet die 1") + \
            rng.roll(6, f"turn {state['turn']} weather, Soviet die 2")
        state["weather"], state["sky"] = roll_weather(r.scn, state["turn"], dice)
        state["phase"] = "weather"
        events.append(Event(f"Turn {state['turn']} ({r.scn.track.dates[state['turn']]}): weather roll {dice}: "
                            f"{state['weather']}, {state['sky']} (3.1)"))
        top["step"] = 1
    elif step in (1, 2):
        side = SOVIET if step == 1 else GERMAN
        top["step"] = step + 1
        state["phasing"] = side
        state["stack"].append({"k": "pturn", "side": side, "i": 0, "cur": None})
        events.append(Event(f"{SIDE_NAME[side]} player turn"))
    else:
        r.end_of_turn(state, events)
    return True


def ask_turn(r: Any, state: dict[str, Any], top: dict[str, Any]) -> Decision:
    return Decision(SOVIET, "weather", f"Turn {state['turn']}: roll the weather (3.1.1)", ("roll",))


def do_turn(r: Any, state: dict[str, Any], top: dict[str, Any], d: Decision, order: dict[str, Any],
            rng: Any, events: list[Event]) -> None:
    if order["verb"] != "roll":
        raise IllegalOrder("the game begins with the weather roll: roll")
    top["go"] = True                                   # every later turn rolls as the previous one ends


def auto_pturn(r: Any, state: dict[str, Any], top: dict[str, Any], rng: Any, events: list[Event]) -> bool:
    side = top["side"]
    if top["cur"] is not None:
        if end_of_phase(r, state, top["cur"], events):
            return True
        ended, top["cur"] = top["cur"], None
        if after_phase(r, state, side, ended, rng, events):
            return True
    if top["i"] == 0 and side == GERMAN and not top.get("begun"):
        top["begun"] = True
        from pbem.games.vr import seq_reich
        seq_reich.armistice(r, state, events)                  # 14.2: at the start of the German turn
    while top["i"] < len(PHASES):
        phase = PHASES[top["i"]]
        top["i"] += 1
        if phase == "stavka" and not (r.profile.stavka and side == SOVIET and state.get("tos")):
            continue                                   # §12 is Advanced: off, no frame
        top["cur"] = phase
        state["phase"] = phase
        frame: dict[str, Any] = {"k": FRAME[phase], "side": side, "phase": phase}
        if phase in ("movement", "exploit_move"):
            frame.update(moved=[], paid=False, rail=r.rail_left(state) if side == GERMAN else 0,
                         mode="exploit" if phase == "exploit_move" else "normal")
            if phase == "movement" and side == GERMAN:
                frame["naval"] = r.profile.naval_capacity            # 6.5.1
                a = state.get("approval")
                if a and a["moves"]:
                    a["moves"] = False
                    state["halved"] = True                            # 15.3.1
                    events.append(Event("After the Dismissal: German MP halved, no Strategic Movement (15.3.1)"))
        if phase in ("combat", "exploit_combat"):
            frame["mode"] = "exploit" if phase == "exploit_combat" else "combat"
        if phase == "supply":
            frame["stage"] = "hq"
        if phase == "support":
            frame["stage"] = "start"
            if side == SOVIET and r.profile.advanced_supports and state.get("tos"):
                frame["k"] = "tosupport"                  # §11: the Advanced Soviet Support phase
        state["stack"].append(frame)
        return True
    if side == SOVIET:
        from pbem.games.vr import victory
        if victory.after_soviet_turn(r, state, events):     # a card's sudden death (3.28)
            return True
    r.pop(state, top)
    return True


def after_phase(r: Any, state: dict[str, Any], side: str, phase: str, rng: Any, events: list[Event]) -> bool:
    """What the Advanced rules do once a phase is over: the Ally
    Capitulation Support (Romania after the Soviet Combat phase, 14.1;
    Hungary after the Soviet Exploitation phase, 14.2); the End of Reich
    check after the German Exploitation phase (16.1.2).  True when a frame
    was pushed."""
    from pbem.games.vr import endreich, seq_reich
    if side == SOVIET and phase in ("combat", "exploit_combat"):
        nat = "rum" if phase == "combat" else "hun"
        if seq_reich.may_ask(r, state, nat):
            state["stack"].append({"k": "capitulate", "nation": nat})
            return True
    if side == GERMAN and phase == "exploit_combat":
        endreich.check(r, state, rng, events)
        from pbem.games.vr import warsaw
        if warsaw.roll(r, state, rng, events):            # 19.1.2: after the objectives' check (R-96)
            return True
    return False


def end_of_phase(r: Any, state: dict[str, Any], phase: str, events: list[Event]) -> bool:
    """1.11.2 and 1.10 at the end of every phase; True when an overstack
    decision was pushed (the check runs again once it is answered)."""
    from pbem.games.vr.seq_support import check_displacement
    if check_displacement(r, state, events):
        return True                                    # 9.1.4: the Soviet player picks among equal cities
    b = r.board(state)
    for side in SIDES:
        for h in sorted({b.unit(u)["hex"] for u in b.on_map(side)}):
            here = [u for u in b.units_at(h) if b.side_of(u) == side]
            if stacking.problems([b.spec(u) for u in here], side, r.profile, bridgehead=h in state["bridgeheads"]):
                state["stack"].append({"k": "overstack", "side": side, "hex": h})
                return True
    r.occupy(state)
    approval.sites(r, state, events)                   # 15.2: a Strategic Site changed hands
    state.pop("halved", None)
    if phase in ("combat", "exploit_combat"):
        state["attacked_hexes"] = []
        state["autonomous"] = []
        for u in state["units"].values():
            u["attacked"] = False
            u["retreated"] = False
            if phase == "combat":
                u["no_attack"] = False
            if phase == "exploit_combat":
                u["exploit"] = False                   # 8.3.3
    return False


def ask_overstack(r: Any, state: dict[str, Any], top: dict[str, Any]) -> Decision:
    b = r.board(state)
    here = [u for u in b.units_at(top["hex"]) if b.side_of(u) == top["side"]]
    return Decision(top["side"], "overstack", f"{top['hex']} is overstacked (1.11): eliminate a unit",
                    tuple(f"eliminate {u}" for u in here), policy="overstack")


def do_overstack(r: Any, state: dict[str, Any], top: dict[str, Any], d: Decision, order: dict[str, Any],
                 rng: Any, events: list[Event]) -> None:
    if order["verb"] != "eliminate" or f"eliminate {order['unit']}" not in d.options:
        raise IllegalOrder(f"eliminate one of your units in {top['hex']}")
    r.eliminate(state, order["unit"], events, why="overstacked (1.11.2)")
    b = r.board(state)
    here = [b.spec(u) for u in b.units_at(top["hex"]) if b.side_of(u) == top["side"]]
    if not stacking.problems(here, top["side"], r.profile, bridgehead=top["hex"] in state["bridgeheads"]):
        r.pop(state, top)


# ------------------------------------------------------------------ supply
def auto_supply(r: Any, state: dict[str, Any], top: dict[str, Any], rng: Any, events: list[Event]) -> bool:
    side = top["side"]
    if top["stage"] == "hq":
        if side == GERMAN:
            state["airlift"] = []                      # a Ju-52 lasts until the next German Supply phase
        b = r.board(state)
        for hq in [u for u in b.on_map(side) if b.spec(u).is_hq]:
            if not supply.hq_supplied(b, hq):
                u = state["units"][hq]
                u.update(hex=None, box="returning", pontoon=None)
                events.append(Event(f"{hq} cannot trace a Supply Route: removed, it returns in this turn's "
                                    "R&R phase (4.1.2)"))
        top["stage"] = "pontoon"
        top["started_pontoon"] = sorted(u for u, x in state["units"].items() if x.get("pontoon"))
        return True
    if top["stage"] == "pontoon":
        if pontoon_options(r, state, top) or airlift_possible(r, state, top):
            return False
        top["stage"] = "units"
        return True
    if top["stage"] == "withdraw":
        return False
    b = r.board(state)
    found = supply.unit_supply(b, side, state["weather"])
    out = sorted(u for u, ok in found.items() if not ok and not b.spec(u).is_hq)
    for uid, ok in found.items():
        if not b.spec(uid).is_hq:
            state["units"][uid]["oos"] = not ok
    if out:
        events.append(Event(f"Out of Supply (4.2): {', '.join(out)}"))
    if side == GERMAN and approval.active(r) and not top.get("withdrawn"):
        top["stage"] = "withdraw"                      # 4.7.1: at the end of the Supply phase
        return True
    r.pop(state, top)
    return True


def airlift_possible(r: Any, state: dict[str, Any], top: dict[str, Any]) -> bool:
    """The Ju-52 Event may be played: a German Supply phase, a face-down
    Support in the box, and a Support with that Event in the game (the
    opponent's program cannot tell more, so the German is asked)."""
    if top["side"] != GERMAN or top.get("airlifted") or not state["supports"][GERMAN]["available"]:
        return False
    return any(s.side == GERMAN and s.airlift for s in r.scn.supports.values())


def pontoon_options(r: Any, state: dict[str, Any], top: dict[str, Any]) -> list[str]:
    """4.1.3-4.1.4: a supplied HQ next to a river may bridge one river
    hexside; one that started the phase on its Pontoon side may flip back."""
    b = r.board(state)
    out = []
    for hq in [u for u in b.on_map(top["side"]) if b.spec(u).is_hq]:
        x = state["units"][hq]
        if x.get("pontoon"):
            if hq in top["started_pontoon"]:
                out.append(f"unpontoon {hq}")
            continue
        if hq in top.get("flipped", []):
            continue
        for n in b.map.neighbors(x["hex"]):
            if b.map.river(x["hex"], n) and not b.bridged(x["hex"], n):
                out.append(f"pontoon {hq} {n}")
    return out


def withdrawal_units(r: Any, state: dict[str, Any], top: dict[str, Any]) -> list[str]:
    b = r.board(state)
    w = top["withdrawal"]
    return [u for u in b.on_map(GERMAN) if u not in w["moved"] and b.move(u) > 0
            and b.map.distance(b.unit(u)["hex"], w["hex"]) <= 3 and not b.unit(u).get("pontoon")]


def ask_supply(r: Any, state: dict[str, Any], top: dict[str, Any]) -> Decision:
    if top["stage"] == "withdraw":
        if top.get("withdrawal"):
            opts = tuple(f"move {u} ..." for u in withdrawal_units(r, state, top))
            return Decision(GERMAN, "withdrawal", f"Withdrawal from {top['withdrawal']['hex']} (4.7.1): move units "
                            "within three hexes as a retreat (two hexes or their MP), then done", ("done",),
                            hint="move UNIT HEX HEX...; " + " ".join(opts))
        a = state["approval"]
        return Decision(GERMAN, "withdraw", f"end of the Supply phase: place the Withdrawal marker (4.7; Approval "
                        f"{a['level']}, Freedom of Action box {a['foa']}), or done", ("done",),
                        hint="withdraw HEX")
    flips = pontoon_options(r, state, top)
    hint = "pontoon HQ HEX; unpontoon HQ" + ("; airlift HANDLE HEX (Ju-52)" if airlift_possible(r, state, top) else "")
    return Decision(top["side"], "pontoon", "Supply phase: flip an HQ to or from its Pontoon side (4.1.3), play a "
                    "supply Event, or done", tuple(flips) + ("done",), policy="pontoon", hint=hint)


def do_supply(r: Any, state: dict[str, Any], top: dict[str, Any], d: Decision, order: dict[str, Any],
              rng: Any, events: list[Event]) -> None:
    if top["stage"] == "withdraw":
        _do_withdrawal(r, state, top, order, events)
        return
    if order["verb"] == "done":
        top["stage"] = "units"
        return
    if order["verb"] == "airlift":
        _airlift(r, state, top, order, events)
        return
    if r.format(order) not in d.options:
        raise IllegalOrder("flip an HQ named in the options (4.1.3-4.1.4), or done")
    u = state["units"][order["unit"]]
    if order["verb"] == "pontoon":
        from pbem.board.hexgrid import side_key
        u["pontoon"] = side_key(u["hex"], order["hex"])
        events.append(Event(f"{order['unit']} bridges {u['hex']}|{order['hex']} on its Pontoon side (4.1.3)"))
    else:
        u["pontoon"] = None
        events.append(Event(f"{order['unit']} back on its regular side (4.1.4)"))
    top.setdefault("flipped", []).append(order["unit"])


def _airlift(r: Any, state: dict[str, Any], top: dict[str, Any], order: dict[str, Any], events: list[Event]) -> None:
    """4.2.1's exception, R-74: a Ju-52 played as its Event puts one hex's
    German-side units in supply until the next German Supply phase (an
    airplane: not under an Overcast sky, 5.4.2)."""
    if not airlift_possible(r, state, top):
        raise IllegalOrder("no supply Event can be played now")
    shown = r.opened(state, GERMAN, order)
    h, v = next(iter(shown.items()))
    spec = r.scn.supports[v["support"]]
    if not spec.airlift:
        raise IllegalOrder(f"{spec.name} has no supply Event (4.2.1)")
    if spec.kind == "airplane" and not effects(state["weather"], state["sky"]).airplane_events:
        raise IllegalOrder(f"{spec.name}: no airplane Event under an Overcast sky (5.4.2)")
    b = r.board(state)
    if not b.friendly_occupied(order["hex"], GERMAN):
        raise IllegalOrder(f"no German unit in {order['hex']} to supply")
    r.play_support(state, GERMAN, h, v, events, why=f"the units in {order['hex']} are in supply (4.2.1)")
    state["airlift"] = sorted(set(state["airlift"]) | {order["hex"]})
    top["airlifted"] = True


def _do_withdrawal(r: Any, state: dict[str, Any], top: dict[str, Any], order: dict[str, Any],
                   events: list[Event]) -> None:
    """4.7: the marker on any hex; units within three hexes move as a
    retreat; then the marker goes, Freedom of Action +1 and Approval down
    by the box's value (perhaps a Dismissal, 15.3)."""
    v = order["verb"]
    w = top.get("withdrawal")
    if v == "done":
        top["withdrawn"] = True
        top["stage"] = "units" if not w else "done"
        if w:
            events.append(Event(f"the Withdrawal marker leaves {w['hex']} (4.7.2)"))
            approval.freedom_of_action(r, state, events, "a Withdrawal against the Führer's will (4.7.2)")
        r.pop(state, top)
        return
    if w is None:
        if v != "withdraw":
            raise IllegalOrder("withdraw HEX (the Withdrawal marker), or done")
        if not r.scn.map.on_map(order["hex"]):
            raise IllegalOrder(f"{order['hex']} is not on the map")
        top["withdrawal"] = {"hex": order["hex"], "moved": []}
        events.append(Event(f"German Withdrawal marker on {order['hex']} (4.7.1)"))
        return
    if v != "move":
        raise IllegalOrder("move UNIT HEX... (a Withdrawal move), or done")
    b = r.board(state)
    units, path = order["units"], order["path"]
    for u in units:
        if u not in withdrawal_units(r, state, top):
            raise IllegalOrder(f"{u} cannot make a Withdrawal move now (4.7.1)")
        if state["units"][u]["hex"] != path[0]:
            raise IllegalOrder(f"{u} is not in {path[0]}")
        why = moves.withdrawal_refusal(b, u, path, w["hex"])
        if why:
            raise IllegalOrder(why)
    why = haltebefehl.leave_refusal(b, units, path[0])
    if why:
        raise IllegalOrder(why)
    here = [b.spec(u) for u in b.units_at(path[-1]) if u not in units] + [b.spec(u) for u in units]
    over = stacking.problems(here, GERMAN, r.profile)
    if over:
        raise IllegalOrder(f"{path[-1]}: {over[0]}")
    for u in units:
        state["units"][u].update(hex=path[-1], no_attack=True)
        w["moved"].append(u)
    events.append(Event(f"{' '.join(units)} withdraw {' '.join(path)}; they may not attack this turn (4.7.1)"))


# ----------------------------------------------------------------- support
def auto_support(r: Any, state: dict[str, Any], top: dict[str, Any], rng: Any, events: list[Event]) -> bool:
    side = top["side"]
    sup = state["supports"]
    if top["stage"] == "start":
        from pbem.games.vr import endreich
        if "back" not in top:
            top["back"] = return_played(r, state, side)
            a = state.get("approval")
            if side == GERMAN and a is not None and a["eor_draw"] and endreich.active(r):
                total, chosen = endreich.dismissal_draws(r, state)           # 15.3.1, 16.2
                a["eor_draw"] = False
                top["eor"] = total
                events.append(Event(f"after the Dismissal the German draws {total} Support(s) on the End of Reich "
                                    f"track's square {state['eor']['square']}, {chosen} of them picked (16.2, R-52)"))
                chosen = min(chosen, total, supports.pool_size(r.scn, sup, side))
                if chosen > 0:
                    state["stack"].append({"k": "eorpick", "n": chosen})
                    return True
        back = top["back"]
        n = top["eor"] - top.get("picked", 0) if "eor" in top else draws(r, state, side, rng)
        n = max(0, min(n, supports.pool_size(r.scn, sup, side)))
        new = []
        srng = rng.secret(side)
        mine = state["hidden"].get(side)
        for _ in range(n):
            h = f"{supports.PREFIX[side]}-{sup[side]['next']}"
            sup[side]["next"] += 1
            if srng is not None and mine is not None:
                left = supports.pool(r.scn, sup, side, mine["items"])
                c = left[srng.draw(left, f"{side} Support draw")]
                mine["items"][h] = {"support": c[0], "copy": c[1], "turn": state["turn"]}
            sup[side]["available"].append(h)
            sup[side]["drawn_on"][h] = state["turn"]
            new.append(h)
        events.append(Event(f"{SIDE_NAME[side]} Support phase: {back} played Support(s) back to the pool; "
                            f"draws {n} face down ({', '.join(new) or 'none'}); {len(sup[side]['available'])} "
                            "in the Available box (5.1-5.3)"))
        new = top.get("picked_new", []) + new
        top["new"] = new
        has_disk = any(s.kind == "red_disk" and s.side == side for s in r.scn.supports.values())
        top["stage"] = "redisk" if new and has_disk else "events"
        return True
    if top["stage"] == "redisk":
        return False
    if top["stage"] == "events":
        if attach_possible(r, state, side):
            return False
        top["stage"] = "discard"
        return True
    if top["stage"] == "discard":
        if len(sup[side]["available"]) > r.profile.supports_cap:
            return False
        r.pop(state, top)
        return True
    raise RuntimeError(f"support stage {top['stage']}")


def return_played(r: Any, state: dict[str, Any], side: str) -> int:
    """5.2.1, R-48: the Supports played since the last own Support phase go
    back to the pool (the player aid's exceptions stay); an attached leader
    leaves with the others (5.4.4).  How many went back."""
    sup = state["supports"][side]
    kept = [c for c in sup["played"] if r.scn.supports[c[0]].stays]
    back = len(sup["played"]) - len(kept)
    sup["played"] = kept
    staying = {u: c for u, c in sup["attached"].items() if r.scn.supports[c[0]].stays}
    back += len(sup["attached"]) - len(staying)
    sup["attached"] = staying
    return back


def attach_possible(r: Any, state: dict[str, Any], side: str) -> bool:
    """A leader may be attached (5.4.4): a face-down Support in the box, a
    leader among the side's Supports, a unit on the map without one."""
    sup = state["supports"][side]
    if not sup["available"] or not any(s.side == side and s.kind == "leader" for s in r.scn.supports.values()):
        return False
    b = r.board(state)
    return any(u not in sup["attached"] and not b.spec(u).is_hq for u in b.on_map(side))


def draws(r: Any, state: dict[str, Any], side: str, rng: Any) -> int:
    """5.3: the Soviet 1D6 plus the card's modifiers; the German the
    card's number (or, with german_draws = "approval", the Approval
    track's, 11.4); the card's Mud/Snow modifiers (R-02)."""
    card = r.scn.card
    a = state.get("approval")
    if side == GERMAN and a is not None:
        a["eor_draw"] = False                           # 15.3.1 (the End of Reich draw is §16's)
        if r.profile.german_draws == "approval":
            from pbem.games.vr import endreich
            n = r.scn.approval.levels.get(a["level"], (0, 0))[0] + endreich.draw_bonus(r, state)    # 11.4.2
            pen = {"mud": 1, "snow": r.profile.german_snow_penalty}.get(state["weather"], 0)   # 11.4.2, R-02
            return max(0, n - pen)
    mod = {"mud": card.mud_draw_modifier, "snow": card.snow_draw_modifier}.get(state["weather"], {}).get(side, 0)
    if side == SOVIET:
        return rng.roll(6, "Soviet Support draws (5.3.1)") + card.soviet_draw_modifier + mod
    return card.german_draws + mod


def ask_support(r: Any, state: dict[str, Any], top: dict[str, Any]) -> Decision:
    side = top["side"]
    if top["stage"] == "redisk":
        return Decision(side, "red-disk", "show the red-disk Supports just drawn: they are played at once (1.5.3)",
                        private=True)
    if top["stage"] == "events":
        return Decision(side, "events", "Support phase: attach a leader Support to a unit (5.4.4), or done",
                        ("done",), hint="attach HANDLE UNIT")
    avail = state["supports"][side]["available"]
    extra = len(avail) - r.profile.supports_cap
    return Decision(side, "discard", f"{len(avail)} Supports available: return {extra} to the pool (5.1.3)",
                    ("return " + " ".join(avail[:extra]),), policy="discard",
                    hint=f"return HANDLE x{extra} of {' '.join(avail)}")


def do_support(r: Any, state: dict[str, Any], top: dict[str, Any], d: Decision, order: dict[str, Any],
               rng: Any, events: list[Event]) -> None:
    side = top["side"]
    sup = state["supports"][side]
    if top["stage"] == "redisk":
        if order["verb"] != "reveal":
            raise IllegalOrder("the red-disk Supports drawn are shown by their owner's program")
        shown = r.opened(state, side, order)
        for h, v in shown.items():
            if h not in top["new"] or r.scn.supports[v["support"]].kind != "red_disk":
                raise IllegalOrder(f"{h} is not a red-disk Support drawn now (1.5.3)")
        mine = state["hidden"].get(side)
        if mine is not None:
            due = {h for h in top["new"] if r.scn.supports[mine["items"][h]["support"]].kind == "red_disk"}
            if due != set(shown):
                raise IllegalOrder("every red-disk Support drawn must be played at once (1.5.3)")
        for h, v in sorted(shown.items()):
            r.play_support(state, side, h, v, events, why="red disk: its Event at once (1.5.3)")
            if r.scn.supports[v["support"]].role == "stalin":
                from pbem.games.vr import supports
                supports.stalin_event(r, state, v["support"], "", rng, events)     # 11.5.2: the die at once
        top["stage"] = "events"
        return
    if top["stage"] == "events":
        if order["verb"] == "done":
            top["stage"] = "discard"
            return
        if order["verb"] != "attach":
            raise IllegalOrder("attach HANDLE UNIT, or done")
        _attach(r, state, side, order, events)
        return
    extra = len(sup["available"]) - r.profile.supports_cap
    if order["verb"] != "return":
        raise IllegalOrder(f"return {extra} Supports to the pool (5.1.3)")
    hs = order["handles"]
    if len(hs) != extra or len(set(hs)) != extra or any(h not in sup["available"] for h in hs):
        raise IllegalOrder(f"return exactly {extra} different handles of your Available box")
    for h in hs:
        r.return_handle(state, side, h)
    events.append(Event(f"{SIDE_NAME[side]} returns {extra} face-down Support(s) to the pool (5.1.3)"))
    r.pop(state, top)


def _attach(r: Any, state: dict[str, Any], side: str, order: dict[str, Any], events: list[Event]) -> None:
    """5.4.4: a leader played as its Event stays with one friendly unit
    until it leaves the map (the next own Support phase unless it stays,
    5.2.1) or the unit is eliminated; one leader a unit."""
    shown = r.opened(state, side, order)
    h, v = next(iter(shown.items()))
    spec = r.scn.supports[v["support"]]
    uid = order["unit"]
    x = state["units"][uid]
    if spec.kind != "leader":
        raise IllegalOrder(f"{spec.name} is not a leader: only leaders are attached to a unit (5.4.4)")
    if x["side"] != side or not x["hex"] or r.scn.units[uid].is_hq:
        raise IllegalOrder(f"{uid} is not one of your divisions on the map")
    if uid in state["supports"][side]["attached"]:
        raise IllegalOrder(f"{uid} already has a leader: one leader a unit (5.4.4)")
    why = r.to_label_refusal(state, h, v, x["hex"])       # 9.2.1
    if why:
        raise IllegalOrder(why)
    r.charge(state, side, h, v)                          # 11.5.3: an Event played from its box
    r._unhide(state, side, h)
    state["supports"][side]["attached"][uid] = [v["support"], v["copy"]]
    events.append(Event(f"{SIDE_NAME[side]} attaches {spec.name} ({h}) to {uid} (5.4.4)"))


# ---------------------------------------------------------------- movement
def ask_movement(r: Any, state: dict[str, Any], top: dict[str, Any]) -> Decision:
    side = top["side"]
    b = r.board(state)
    movers = [u for u in b.on_map(side) if u not in top["moved"] and r.may_move(state, u, top)]
    opts = []
    for uid in movers[:12]:
        reach = moves.reach(b, uid, "exploit" if top["mode"] == "exploit" else "normal")
        ends = sorted(h for h in reach.cost if h != b.unit(uid)["hex"])
        if ends:
            opts.append(f"move {uid} {ends[0]}")
    opts.append("end-move")
    what = "Exploitation movement (8.2)" if top["mode"] == "exploit" else "Movement phase (§6)"
    hint = "move UNIT [UNIT...] HEX...; strat ...; rail ...; naval UNIT PORT; pay HANDLE; halt HEX; unhalt HEX; " \
        "abandon HQ HANDLE HANDLE; ask `reach UNIT`"
    return Decision(side, "move", f"{SIDE_NAME[side]} {what}: move units, or end-move", tuple(opts), hint=hint)


def do_movement(r: Any, state: dict[str, Any], top: dict[str, Any], d: Decision, order: dict[str, Any],
                rng: Any, events: list[Event]) -> None:
    v = order["verb"]
    side = top["side"]
    if v == "end-move":
        if side == SOVIET and top["mode"] == "normal":
            from pbem.games.vr import warsaw
            warsaw.check_trigger(r, state, events)          # 19.1.1, Q-24
        if top.get("abandon_hq"):
            approval.freedom_of_action(r, state, events, f"Abandon equipment on {top['abandon_hq']} (6.3)")
        if side == GERMAN and top["mode"] == "normal":
            state["rail_left"] = {"turn": state["turn"], "left": top["rail"]}      # 6.4.1, 6.4.5
        r.pop(state, top)
        return
    if v in ("halt", "unhalt"):
        _halt(r, state, top, order, events)
        return
    if v == "abandon":
        _abandon(r, state, top, order, events)
        return
    if v == "pay":
        if side != GERMAN or top["mode"] == "exploit":
            raise IllegalOrder("only the German player pays for Strategic Movement, in his Movement phase (6.2.3)")
        if top["paid"]:
            raise IllegalOrder("Strategic Movement is already paid for this phase (6.2.3)")
        if not effects(state["weather"], state["sky"]).strategic:
            raise IllegalOrder("no Strategic Movement in Mud (3.2.2)")
        shown = r.opened(state, side, order)
        h, val = next(iter(shown.items()))
        if r.scn.supports[val["support"]].kind == "end_of_reich":
            raise IllegalOrder("an End-of-Reich Support is played only for its Event (1.5.3)")
        r.spend_support(state, side, h, val, events, why="Strategic Movement this phase (6.2.3)")
        top["paid"] = True
        return
    if v != "move":
        raise IllegalOrder("move, strat, rail, naval, pay, halt, abandon or end-move")
    r.do_move(state, top, order, events, rng)
    if side == SOVIET and top["mode"] == "normal":
        from pbem.games.vr import warsaw
        warsaw.check_trigger(r, state, events)              # 19.1.1


def _halt(r: Any, state: dict[str, Any], top: dict[str, Any], order: dict[str, Any], events: list[Event]) -> None:
    """6.7.1, R-30: Haltebefehl markers are placed or taken away at the
    start of the German Movement phase, before any unit moves."""
    if top["side"] != GERMAN or top["mode"] != "normal":
        raise IllegalOrder("Haltebefehl markers are the German player's, in his Movement phase (6.7.1)")
    if top["moved"] or top.get("abandon_hq"):
        raise IllegalOrder("Haltebefehl markers are placed or removed at the start of the Movement phase, "
                           "before any move (6.7.1, R-30)")
    b = r.board(state)
    h = order["hex"]
    if order["verb"] == "halt":
        why = haltebefehl.place_refusal(b, h)
        if why:
            raise IllegalOrder(why)
        state["haltebefehl"][h] = haltebefehl.side_for(b, h)
        events.append(Event(f"Haltebefehl on {h} ({state['haltebefehl'][h]} side): "
                            f"{' '.join(haltebefehl.divisions(b, h))} stand fast (6.7.1-6.7.4)"))
        return
    why = haltebefehl.remove_refusal(b, h)
    if why:
        raise IllegalOrder(why)
    del state["haltebefehl"][h]
    events.append(Event(f"the Haltebefehl on {h} is lifted (R-30)"))


def _abandon(r: Any, state: dict[str, Any], top: dict[str, Any], order: dict[str, Any],
             events: list[Event]) -> None:
    """6.3: two Supports spent on one German HQ, which may not move this
    turn; the units inside its Command Radius may move strategically from
    next to the enemy and without 6.2.3's Support.  Its price (Freedom of
    Action, Approval) falls when the Movement phase ends."""
    why = approval.refusal(r, state, "Abandon equipment (6.3)")
    if why:
        raise IllegalOrder(why)
    if top["side"] != GERMAN or top["mode"] != "normal":
        raise IllegalOrder("Abandon equipment is a German Movement-phase capability (6.3)")
    if top.get("abandon_hq"):
        raise IllegalOrder("equipment is already abandoned this phase")
    hq = order["unit"]
    b = r.board(state)
    if b.side_of(hq) != GERMAN or not b.spec(hq).is_hq or not b.unit(hq)["hex"]:
        raise IllegalOrder(f"{hq} is not a German HQ on the map (6.3)")
    if hq in top["moved"]:
        raise IllegalOrder(f"{hq} has moved this turn (6.3)")
    if len(set(order["handles"])) != 2:
        raise IllegalOrder("Abandon equipment takes two different Supports (6.3)")
    shown = r.opened(state, GERMAN, order)
    for h, v in shown.items():
        if r.scn.supports[v["support"]].kind == "end_of_reich":
            raise IllegalOrder("an End-of-Reich Support is played only for its Event (1.5.3)")
    for h, v in shown.items():
        r.spend_support(state, GERMAN, h, v, events, why=f"Abandon equipment on {hq} (6.3)")
    reach = supply.command_reach(b, hq)
    top["abandon_hq"] = hq
    top["abandon_units"] = sorted(u for u in b.on_map(GERMAN) if b.unit(u)["hex"] in reach
                                  and supply._serves(b, hq, u) and not b.spec(u).is_hq)
    events.append(Event(f"Abandon equipment on {hq}: {' '.join(top['abandon_units']) or 'no unit'} may move "
                        "strategically, even from next to the enemy (6.3)"))


# ------------------------------------------------------------------ combat
def ask_combat(r: Any, state: dict[str, Any], top: dict[str, Any]) -> Decision:
    side = top["side"]
    opts = [f"attack {h} with {' '.join(us)}" for h, us in r.attack_options(state, top)]
    what = "Exploitation combat (8.3)" if top["mode"] == "exploit" else "Combat phase (§7)"
    return Decision(side, "combat", f"{SIDE_NAME[side]} {what}: attack a hex, or end-combat",
                    tuple(opts[:20]) + ("end-combat",), hint="attack HEX with UNIT...; ask `odds HEX with UNIT...`",
                    # 7.1: with no enemy hex any unit may attack, ending the phase is the one answer, judged from
                    # the public map: no email is spent on it
                    forced=not opts,
                    # 7.1.7: battles go in the order the attacker chooses, undeclared in advance: he may sign several at
                    # once as a plan; the defender's program resolves them, his decisions by standing orders
                    plannable=bool(opts))


def do_combat(r: Any, state: dict[str, Any], top: dict[str, Any], d: Decision, order: dict[str, Any],
              rng: Any, events: list[Event]) -> None:
    if order["verb"] == "end-combat":
        r.pop(state, top)
        return
    if order["verb"] != "attack":
        raise IllegalOrder("attack HEX with UNIT..., or end-combat")
    why = r.attack_check(state, top, order["hex"], order["units"])
    if why:
        raise IllegalOrder(why)
    r.start_battle(state, top, order["hex"], list(order["units"]), events)


# --------------------------------------------------------------------- R&R
def auto_rr(r: Any, state: dict[str, Any], top: dict[str, Any], rng: Any, events: list[Event]) -> bool:
    from pbem.games.vr import endreich, rr
    side = top["side"]
    if "due" not in top:
        a = state.get("approval")
        if side == GERMAN and a is not None and not approval.objective_one_lost(r, state):
            approval.change(r, state, -1, events, "the German R&R phase begins")
        entry = r.scn.schedule.get(state["turn"])
        due = [u for u, x in sorted(state["units"].items()) if x["box"] == f"turn:{state['turn']}"
               and r.scn.units[u].home_side == side]
        for u in due:
            state["units"][u]["box"] = "arriving"
            if r.profile.infantry_modes and r.scn.units[u].corps:
                state["units"][u]["steps"] = 1             # 10.1.2: a corps arrives in Standard Mode
        if entry:
            for sid, n in entry.supports.items():
                if r.scn.supports[sid].side == side:
                    extra = state["supports"][side]["extra"]
                    extra[sid] = extra.get(sid, 0) + n
                    events.append(Event(f"{n} {sid} Support(s) join the {SIDE_NAME[side]} pool (17.1)"))
        top["due"] = True
        top["arrived"] = []
        top["corps_due"] = entry.corps if entry and side == SOVIET and r.profile.infantry_modes else 0
        top["corps_handle"] = None
        top["ally_due"] = 0
        top["mobilize"] = 0
        if side == SOVIET and r.profile.capitulation:
            rr.ally_arrivals(r, state, top, rng, events)            # 14.3
        if r.profile.withdrawals:
            rr.transform(r, state, side, events)                      # 18.2
            if side == GERMAN and entry:
                top["withdraw"] = [dict(w) for w in entry.withdrawals]   # 18.1
        if side == GERMAN and endreich.mobilization(r, state):
            top["mobilize"] = min(rr.MOBILIZATION, len(rr.mobilizable(r, state)))     # 16.2.1
            if not top["mobilize"]:
                events.append(Event("last mobilization: no eligible division in the Eliminated box (16.2.1)"))
        from pbem.games.vr import replace
        top["rp"] = replace.income(r, state, side, events) if replace.active(r) else {}     # 17.3.1-17.3.3
    if top.get("corps_handle"):
        return False
    if top.get("corps_due", 0) > 0:
        if rr.pile(r, state):
            rr.draw_corps(r, state, top, rng, events)
            return True
        events.append(Event(f"the corps pile is empty: {top['corps_due']} corps do not arrive (10.1)"))
        top["corps_due"] = 0
    if top.get("mobilize", 0) > 0 and rr.mobilizable(r, state):
        return False
    if place_options(r, state, side, top):
        return False
    if side == GERMAN and rail_options(r, state, top) and not top.get("rail_done"):
        return False
    if rr.next_withdrawal(r, state, top, events):      # Detailed Sequence: the withdrawals follow the arrivals
        return False
    from pbem.games.vr import replace
    if replace.owed(r, state, top):
        return False                                   # 17.3: spend the RP (or done: they are lost, 17.3.4)
    if side == GERMAN and state.get("approval"):
        state["approval"]["no_rp"] = False               # 15.3.1: this R&R phase was the one without RP
    r.pop(state, top)
    return True


def rail_options(r: Any, state: dict[str, Any], top: dict[str, Any]) -> list[str]:
    """6.4.5: German reinforcements placed this phase may go on by rail
    with the turn's Rail Capacity points left."""
    left = r.rail_left(state)
    if left <= 0:
        return []
    b = r.board(state)
    out = []
    for u in top.get("arrived", []):
        if not state["units"][u]["hex"] or u in top.get("railed", []):
            continue
        if moves.transport_cost(b, [u]) > left:
            continue
        ends = sorted(moves.rail_ends(b, u))
        if ends:
            out.append(f"rail {u} {ends[-1]}")
    return out


def arrival_hexes(r: Any, state: dict[str, Any], side: str) -> list[str]:
    """17.1-17.2 (Basic: where the card puts them when it names hexes)."""
    from pbem.games.vr import rr
    b = r.board(state)
    m = r.scn.map
    named = r.scn.card.arrivals.get(side)
    if named:
        cand = list(named)
    elif side == SOVIET:
        cand = [h for h, c in m.cities.items() if c == "major" and m.country_of(h) == "ussr"]
    else:
        cand = rr.german_arrival_hexes(r, state)              # 17.2.1
    return sorted(h for h in set(cand) if b.control(h) == side and not b.enemy_occupied(h, side))


def place_options(r: Any, state: dict[str, Any], side: str, top: dict[str, Any] | None = None) -> list[str]:
    from pbem.games.vr import rr
    b = r.board(state)
    out = []
    waiting = [u for u, x in sorted(state["units"].items()) if x["box"] in ("arriving", "returning")
               and b.side_of(u) == side]
    if top is not None and top.get("ally_due", 0) > 0:
        waiting += [u for u, x in sorted(state["units"].items()) if x["box"] == "ally_box"]
    for uid in waiting:
        ally = state["units"][uid]["box"] == "ally_box"
        if ally:
            spots = rr.ally_hexes(r, state, uid)
        elif state["units"][uid].get("rebuilt"):
            from pbem.games.vr import replace
            spots = replace.elite_arrival_hexes(r, state)        # 17.3.11: a rebuilt Elite unit
        else:
            spots = arrival_hexes(r, state, side)
        for h in spots:
            here = [b.spec(u) for u in b.units_at(h)] + [b.spec(uid)]
            if not stacking.problems(here, side, r.profile):
                out.append(f"place {uid} {h}")
        if side == SOVIET and not ally and r.profile.stavka and b.spec(uid).kind == "division" \
                and b.spec(uid).nationality == "sov":
            out.append(f"reserve {uid}")                   # 17.1: or into the Stavka box
    return out


def _rail_decision(r: Any, state: dict[str, Any], top: dict[str, Any]) -> Decision:
    return Decision(GERMAN, "rr-rail", f"R&R phase: move arriving units by rail ({r.rail_left(state)} Rail "
                        "Capacity points left, 6.4.5), or done", tuple(rail_options(r, state, top)) + ("done",),
                        hint="rail UNIT HEX...")


def ask_rr(r: Any, state: dict[str, Any], top: dict[str, Any]) -> Decision:
    from pbem.games.vr import rr
    if top.get("corps_handle"):
        return Decision(SOVIET, "corps-reveal", "show the infantry corps drawn from the pile (10.1)", private=True)
    if top.get("mobilize", 0) > 0 and rr.mobilizable(r, state):
        return Decision(GERMAN, "mobilize", f"last mobilization: pick {top['mobilize']} reduced infantry "
                        "division(s) of the Eliminated box (16.2.1)",
                        tuple(f"mobilize {u}" for u in rr.mobilizable(r, state)), policy="mobilize")
    opts = place_options(r, state, top["side"], top)
    if not opts and top["side"] == GERMAN and rail_options(r, state, top) and not top.get("rail_done"):
        return _rail_decision(r, state, top)
    if not opts and top.get("withdraw") and rr.withdrawal_candidates(r, state, top["withdraw"][0]):
        w = top["withdraw"][0]
        return Decision(GERMAN, "withdrawal-pick", f"withdraw {w['count']} division(s) ({w.get('arm') or 'any arm'}, "
                        f"Attack {w.get('min_attack', 0)}+, in supply) (18.1)",
                        tuple(f"remove {u}" for u in rr.withdrawal_candidates(r, state, w)), policy="withdrawal")
    from pbem.games.vr import replace
    if not opts and replace.owed(r, state, top):
        left = ", ".join(f"{n} {k}" for k, n in sorted(top["rp"].items()) if n > 0)
        return Decision(top["side"], "replace", f"R&R phase: spend your Replacement Points ({left}), or done: "
                        "RP are not carried over (17.3)", tuple(replace.options(r, state, top)) + ("done",),
                        policy="replace", hint="rebuild UNIT [HEX] [with HANDLE]; rebuild corps")
    if not opts:
        return _rail_decision(r, state, top)
    return Decision(top["side"], "place", "R&R phase: place the arriving units (17.1-17.2, 4.1.2, 14.3)",
                    tuple(opts), policy="place")


def do_rr(r: Any, state: dict[str, Any], top: dict[str, Any], d: Decision, order: dict[str, Any],
          rng: Any, events: list[Event]) -> None:
    from pbem.games.vr import rr
    if d.kind == "corps-reveal":
        rr.reveal_corps(r, state, top, order, events)
        return
    if d.kind == "mobilize":
        rr.mobilize(r, state, top, order, events)
        return
    if d.kind == "withdrawal-pick":
        rr.withdraw(r, state, top, order, events)
        return
    if d.kind == "replace":
        from pbem.games.vr import replace
        replace.rebuild(r, state, top, order, events)
        return
    if d.kind == "rr-rail":
        if order["verb"] == "done":
            top["rail_done"] = True
            return
        if order["verb"] != "move" or order["mode"] != "rail":
            raise IllegalOrder("rail UNIT HEX... (an arriving unit by rail, 6.4.5), or done")
        if any(u not in top["arrived"] or u in top.get("railed", []) for u in order["units"]):
            raise IllegalOrder("only units that arrived in this R&R phase go by rail now (6.4.5)")
        frame = {"side": GERMAN, "mode": "normal", "moved": [], "paid": False, "rail": r.rail_left(state)}
        r.do_move(state, frame, order, events, rng)
        state["rail_left"] = {"turn": state["turn"], "left": frame["rail"]}
        top.setdefault("railed", []).extend(order["units"])
        return
    if order["verb"] not in ("place", "reserve") or r.format(order) not in d.options:
        raise IllegalOrder("place an arriving unit on one of the hexes the options name (or reserve UNIT)")
    u = state["units"][order["unit"]]
    if u["box"] == "ally_box":
        top["ally_due"] -= 1
    if order["verb"] == "reserve":
        u.update(hex=None, box="stavka", oos=False)
        events.append(Event(f"{order['unit']} arrives in the Stavka box (17.1)"))
        return
    u.update(hex=order["hex"], box=None, oos=False)
    u.pop("rebuilt", None)
    top.setdefault("arrived", []).append(order["unit"])
    events.append(Event(f"{order['unit']} arrives in {order['hex']}"))


def enemy(side: str) -> str:
    return enemy_of(side)
