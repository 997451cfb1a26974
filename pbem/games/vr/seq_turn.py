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
from pbem.games.vr import moves, stacking, supply, supports
from pbem.games.vr.model import GERMAN, SIDE_NAME, SIDES, SOVIET, enemy_of
from pbem.games.vr.weather import effects, roll_weather

PHASES = ("supply", "support", "stavka", "movement", "combat", "exploit_move", "exploit_combat", "rr")
FRAME = {"supply": "supply", "support": "support", "movement": "movement", "combat": "combat",
         "exploit_move": "movement", "exploit_combat": "combat", "rr": "rr"}


# ---------------------------------------------------------------- the turn
def auto_turn(r: Any, state: dict[str, Any], top: dict[str, Any], rng: Any, events: list[Event]) -> bool:
    step = top["step"]
    if step == 0 and not top.get("go"):
        return False                                   # the game's first order: the Soviet rolls (3.1.1)
    if step == 0:
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
    if top["cur"] is not None:
        if end_of_phase(r, state, top["cur"], events):
            return True
        top["cur"] = None
    side = top["side"]
    while top["i"] < len(PHASES):
        phase = PHASES[top["i"]]
        top["i"] += 1
        if phase == "stavka" and not (r.profile.stavka and side == SOVIET):
            continue                                   # §12 is Advanced: off, no frame
        top["cur"] = phase
        state["phase"] = phase
        frame: dict[str, Any] = {"k": FRAME[phase], "side": side, "phase": phase}
        if phase in ("movement", "exploit_move"):
            frame.update(moved=[], paid=False, rail=r.rail_capacity(state) if side == GERMAN else 0,
                         mode="exploit" if phase == "exploit_move" else "normal")
        if phase in ("combat", "exploit_combat"):
            frame["mode"] = "exploit" if phase == "exploit_combat" else "combat"
        if phase == "supply":
            frame["stage"] = "hq"
        if phase == "support":
            frame["stage"] = "start"
        state["stack"].append(frame)
        return True
    r.pop(state, top)
    return True


def end_of_phase(r: Any, state: dict[str, Any], phase: str, events: list[Event]) -> bool:
    """1.11.2 and 1.10 at the end of every phase; True when an overstack
    decision was pushed (the check runs again once it is answered)."""
    b = r.board(state)
    for side in SIDES:
        for h in sorted({b.unit(u)["hex"] for u in b.on_map(side)}):
            here = [u for u in b.units_at(h) if b.side_of(u) == side]
            if stacking.problems([b.spec(u) for u in here], side, r.profile, bridgehead=h in state["bridgeheads"]):
                state["stack"].append({"k": "overstack", "side": side, "hex": h})
                return True
    r.occupy(state)
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
    r.pop(state, top)


# ------------------------------------------------------------------ supply
def auto_supply(r: Any, state: dict[str, Any], top: dict[str, Any], rng: Any, events: list[Event]) -> bool:
    side = top["side"]
    if top["stage"] == "hq":
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
        if pontoon_options(r, state, top):
            return False
        top["stage"] = "units"
        return True
    b = r.board(state)
    found = supply.unit_supply(b, side, state["weather"])
    out = sorted(u for u, ok in found.items() if not ok and not b.spec(u).is_hq)
    for uid, ok in found.items():
        if not b.spec(uid).is_hq:
            state["units"][uid]["oos"] = not ok
    if out:
        events.append(Event(f"Out of Supply (4.2): {', '.join(out)}"))
    r.pop(state, top)
    return True


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


def ask_supply(r: Any, state: dict[str, Any], top: dict[str, Any]) -> Decision:
    opts = pontoon_options(r, state, top)
    return Decision(top["side"], "pontoon", "Supply phase: flip an HQ to or from its Pontoon side (4.1.3), or done",
                    tuple(opts) + ("done",), policy="pontoon")


def do_supply(r: Any, state: dict[str, Any], top: dict[str, Any], d: Decision, order: dict[str, Any],
              rng: Any, events: list[Event]) -> None:
    if order["verb"] == "done":
        top["stage"] = "units"
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


# ----------------------------------------------------------------- support
def auto_support(r: Any, state: dict[str, Any], top: dict[str, Any], rng: Any, events: list[Event]) -> bool:
    side = top["side"]
    sup = state["supports"]
    if top["stage"] == "start":
        kept = [c for c in sup[side]["played"] if r.scn.supports[c[0]].stays]
        back = len(sup[side]["played"]) - len(kept)
        sup[side]["played"] = kept                      # 5.2.1, R-48
        n = draws(r, state, side, rng)
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
        top["new"] = new
        has_disk = any(s.kind == "red_disk" and s.side == side for s in r.scn.supports.values())
        top["stage"] = "redisk" if new and has_disk else "discard"
        return True
    if top["stage"] == "redisk":
        return False
    if top["stage"] == "discard":
        if len(sup[side]["available"]) > r.profile.supports_cap:
            return False
        r.pop(state, top)
        return True
    raise RuntimeError(f"support stage {top['stage']}")


def draws(r: Any, state: dict[str, Any], side: str, rng: Any) -> int:
    """5.3: the Soviet 1D6 plus the card's modifiers; the German the
    card's number; the card's Mud/Snow modifiers (R-02)."""
    card = r.scn.card
    mod = {"mud": card.mud_draw_modifier, "snow": card.snow_draw_modifier}.get(state["weather"], {}).get(side, 0)
    if side == SOVIET:
        return rng.roll(6, "Soviet Support draws (5.3.1)") + card.soviet_draw_modifier + mod
    return card.german_draws + mod


def ask_support(r: Any, state: dict[str, Any], top: dict[str, Any]) -> Decision:
    side = top["side"]
    if top["stage"] == "redisk":
        return Decision(side, "red-disk", "show the red-disk Supports just drawn: they are played at once (1.5.3)",
                        private=True)
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
        top["stage"] = "discard"
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
    hint = "move UNIT [UNIT...] HEX...; strat ...; rail ...; pay HANDLE; ask `reach UNIT`"
    return Decision(side, "move", f"{SIDE_NAME[side]} {what}: move units, or end-move", tuple(opts), hint=hint)


def do_movement(r: Any, state: dict[str, Any], top: dict[str, Any], d: Decision, order: dict[str, Any],
                rng: Any, events: list[Event]) -> None:
    v = order["verb"]
    side = top["side"]
    if v == "end-move":
        r.pop(state, top)
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
        raise IllegalOrder("move, strat, rail, pay or end-move")
    r.do_move(state, top, order, events)


# ------------------------------------------------------------------ combat
def ask_combat(r: Any, state: dict[str, Any], top: dict[str, Any]) -> Decision:
    side = top["side"]
    opts = [f"attack {h} with {' '.join(us)}" for h, us in r.attack_options(state, top)]
    what = "Exploitation combat (8.3)" if top["mode"] == "exploit" else "Combat phase (§7)"
    return Decision(side, "combat", f"{SIDE_NAME[side]} {what}: attack a hex, or end-combat",
                    tuple(opts[:20]) + ("end-combat",), hint="attack HEX with UNIT...; ask `odds HEX with UNIT...`")


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
    side = top["side"]
    if "due" not in top:
        entry = r.scn.schedule.get(state["turn"])
        due = [u for u, x in sorted(state["units"].items()) if x["box"] == f"turn:{state['turn']}"
               and r.scn.units[u].home_side == side]
        for u in due:
            state["units"][u]["box"] = "arriving"
        if entry:
            for sid, n in entry.supports.items():
                if r.scn.supports[sid].side == side:
                    extra = state["supports"][side]["extra"]
                    extra[sid] = extra.get(sid, 0) + n
                    events.append(Event(f"{n} {sid} Support(s) join the {SIDE_NAME[side]} pool (17.1)"))
        top["due"] = True
    if place_options(r, state, side):
        return False
    r.pop(state, top)
    return True


def arrival_hexes(r: Any, state: dict[str, Any], side: str) -> list[str]:
    """17.1-17.2 (Basic: where the card puts them when it names hexes)."""
    b = r.board(state)
    m = r.scn.map
    named = r.scn.card.arrivals.get(side)
    if named:
        cand = list(named)
    elif side == SOVIET:
        cand = [h for h, c in m.cities.items() if c == "major" and m.country_of(h) == "ussr"]
    else:
        cand = [h for h in m.cities if m.country_of(h) == "germany"] + list(m.fortifications)
    return sorted(h for h in cand if b.control(h) == side and not b.enemy_occupied(h, side))


def place_options(r: Any, state: dict[str, Any], side: str) -> list[str]:
    b = r.board(state)
    out = []
    waiting = [u for u, x in sorted(state["units"].items()) if x["box"] in ("arriving", "returning")
               and b.side_of(u) == side]
    for uid in waiting:
        for h in arrival_hexes(r, state, side):
            here = [b.spec(u) for u in b.units_at(h)] + [b.spec(uid)]
            if not stacking.problems(here, side, r.profile):
                out.append(f"place {uid} {h}")
    return out


def ask_rr(r: Any, state: dict[str, Any], top: dict[str, Any]) -> Decision:
    opts = place_options(r, state, top["side"])
    return Decision(top["side"], "place", "R&R phase: place the arriving units (17.1-17.2, 4.1.2)", tuple(opts),
                    policy="place")


def do_rr(r: Any, state: dict[str, Any], top: dict[str, Any], d: Decision, order: dict[str, Any],
          rng: Any, events: list[Event]) -> None:
    if order["verb"] != "place" or r.format(order) not in d.options:
        raise IllegalOrder("place an arriving unit on one of the hexes the options name")
    u = state["units"][order["unit"]]
    u.update(hex=order["hex"], box=None, oos=False)
    events.append(Event(f"{order['unit']} arrives in {order['hex']}"))


def enemy(side: str) -> str:
    return enemy_of(side)
