"""One battle (§7.2, steps 1-6) as a frame with a cursor, and its
sub-frames (a retreat, an S choice, a KG, a Romanian survivor).

Cursor ``step``: supply -> terrain -> declare -> react -> delite -> roll ->
firstpick -> aloss -> dloss -> apick -> row -> atac -> dpick -> dtac ->
tasks -> dadvance -> aadvance -> exploit.  The tactical results become
``tasks`` worked one at a time (a free loss, an S choice, a retreat, an
Eng re-roll), each perhaps a decision of its owner.  The defender's
decisions are the non-phasing seat's, each with a standing order.
"""
from __future__ import annotations

from typing import Any

from pbem.board.crt2d6 import ATTACKER, DEFENDER
from pbem.game import Decision, Event, IllegalOrder
from pbem.games.vr import combat, losses, supply, terrain
from pbem.games.vr.model import GERMAN, SIDE_NAME, SOVIET, enemy_of

STEPS = ("supply", "terrain", "declare", "react", "delite", "roll", "firstpick", "aloss", "dloss", "apick", "row",
         "atac", "dpick", "dtac", "tasks", "dadvance", "aadvance", "exploit", "end")
A_PREF = ("E4", "E3", "E2", "E", "D1", "-", "Eng", "S", "DR", "DR2", "DR3")
D_PREF = ("-", "S", "Eng", "D1", "DR", "DR2", "DR3", "E", "E2", "E3", "E4")


def _next(f: dict[str, Any]) -> None:
    f["step"] = STEPS[STEPS.index(f["step"]) + 1]


def attackers(r: Any, state: dict[str, Any], f: dict[str, Any]) -> list[str]:
    return [u for u in f["att"] if state["units"][u]["hex"]]


def defenders(r: Any, state: dict[str, Any], f: dict[str, Any]) -> list[str]:
    b = r.board(state)
    return [u for u in b.units_at(f["hex"]) if b.side_of(u) == f["dside"]]


def _elite_units(r: Any, state: dict[str, Any], units: list[str]) -> list[str]:
    return [u for u in units if r.scn.units[u].elite and r.scn.units[u].kind == "division"]


# ------------------------------------------------------------------- auto
def auto_battle(r: Any, state: dict[str, Any], f: dict[str, Any], rng: Any, events: list[Event]) -> bool:
    step = f["step"]
    fn = _AUTO.get(step)
    if fn is None:
        return False
    return fn(r, state, f, rng, events)


def _supply(r, state, f, rng, events) -> bool:
    if enemy_airlift_possible(r, state, f):
        return False                                   # a supply Event of the enemy turn first
    b = r.board(state)
    if f["dside"] == GERMAN:
        from pbem.games.vr import haltebefehl
        f["isolated"] = haltebefehl.isolated(b, f["hex"])       # 6.7.5
        if f["isolated"]:
            events.append(Event(f"{f['hex']} is under an isolated Haltebefehl (6.7.5)"))
    found = supply.unit_supply(b, f["dside"], state["weather"])
    for u in defenders(r, state, f):
        x = state["units"][u]
        if not x["oos"] and not b.spec(u).is_hq and not found.get(u, True):
            x["oos"] = True                                # 7.4.3
            events.append(Event(f"{u} is found Out of Supply (7.4)"))
    _next(f)
    return True


def enemy_airlift_possible(r: Any, state: dict[str, Any], f: dict[str, Any]) -> bool:
    """R-97: before the battle's supply check (7.4.3) the defender may play
    a Support of the enemy turn whose Event supplies a hex (a Ju-52 with
    ``enemy_turn``): he has a face-down Support, his side has such an
    Event, and a defender would be found out of supply now."""
    side = f["dside"]
    if f.get("airlift_asked") or side != GERMAN or not state["supports"][side]["available"]:
        return False
    if not any(s.side == side and s.airlift and s.enemy_turn for s in r.scn.supports.values()):
        return False
    b = r.board(state)
    found = supply.unit_supply(b, side, state["weather"])
    return any(not found.get(u, True) and not b.spec(u).is_hq for u in defenders(r, state, f))


def enemy_airlift(r: Any, state: dict[str, Any], f: dict[str, Any], order: dict[str, Any],
                  events: list[Event]) -> None:
    if order["verb"] == "pass":
        f["airlift_asked"] = True
        return
    if order["verb"] != "airlift" or order.get("hex") != f["hex"]:
        raise IllegalOrder(f"airlift HANDLE {f['hex']} (the attacked hex), or pass (R-97)")
    shown = r.opened(state, f["dside"], order)
    h, v = next(iter(shown.items()))
    spec = r.scn.supports[v["support"]]
    if not (spec.airlift and spec.enemy_turn):
        raise IllegalOrder(f"{spec.name} has no supply Event playable in the enemy turn (4.2.1, R-97)")
    from pbem.games.vr.weather import effects
    if spec.kind == "airplane" and not effects(state["weather"], state["sky"]).airplane_events:
        raise IllegalOrder(f"{spec.name}: no airplane Event under an Overcast sky (5.4.2)")
    f["airlift_asked"] = True
    r.play_support(state, f["dside"], h, v, events, why=f"the units in {f['hex']} are in supply (4.2.1, R-97)")
    state["airlift"] = sorted(set(state.get("airlift") or []) | {f["hex"]})


def _terrain(r, state, f, rng, events) -> bool:
    choices = terrain.combat_choices(r.scn, f["hex"], state["weather"], r.dropped_types(state, f))
    if len(choices) > 1 and f["terrain"] is None:
        return False
    if f["terrain"] is None:
        f["terrain"] = choices[0]
    _next(f)
    return True


def _react(r, state, f, rng, events) -> bool:
    if f["reacted"] or not r.react_possible(state, f):
        _next(f)
        return True
    return False


def _delite(r, state, f, rng, events) -> bool:
    if f["delite"] is not None or not _elite_units(r, state, defenders(r, state, f)):
        f["delite"] = f["delite"] or ""
        _next(f)
        return True
    return False


def _roll(r, state, f, rng, events) -> bool:
    col = r.battle_column(state, f)
    f["col"] = col
    dice = rng.roll(6, f"battle {f['hex']}, die 1") + rng.roll(6, f"battle {f['hex']}, die 2")
    cell = r.scn.crt.cell(col, dice)
    f["roll"] = dice
    a, d = cell.attacker_losses, cell.defender_losses
    if r.romanian_only(state, f) and f["side"] == SOVIET and a > 0:
        a -= 1                                             # 7.12.1, R-42: always to the Soviet's benefit
    f["a_n"], f["d_n"] = a, d
    f["a_code"], f["d_code"] = cell.result(ATTACKER).code, cell.result(DEFENDER).code
    events.append(Event(f"Battle {f['hex']} on {r.scn.crt.ladder.label(col)}: rolled {dice}: losses {a}/{d}, "
                        f"A {f['a_code']}, D {f['d_code']} (7.7)"))
    _range_clauses(r, state, f, events)
    _next(f)
    return True


def _range_clauses(r: Any, state: dict[str, Any], f: dict[str, Any], events: list[Event]) -> None:
    """7.7.9: Reinforced corps that attacked from outside every TO range go
    to Standard before attrition (not against a Romanian-only stack under
    three steps, 7.12.1); 7.8.4, R-41: Soviet armor attacking into a
    non-Clear hex, across a river or in Mud with one of them outside every
    range takes one more loss, on one of those outside."""
    from pbem.games.vr import tos
    if f["side"] != SOVIET or not r.profile.to_rules:
        return
    att = attackers(r, state, f)
    if not r.romanian_only(state, f):
        for u in att:
            if tos.reinforced(r, state, u) and tos.outside_every_range(r, state, state["units"][u]["hex"]):
                tos.to_standard(r, state, u, events, "it attacked from outside every TO range (7.7.9)")
    b = r.board(state)
    h = f["hex"]
    outside = [u for u in att if r.scn.units[u].armor and tos.outside_every_range(r, state, state["units"][u]["hex"])]
    rough = r.scn.map.types(h) != ("clear",) or state["weather"] == "mud" or any(
        b.river(state["units"][u]["hex"], h) for u in att if r.scn.units[u].armor)
    if outside and rough:
        f["armor_extra"] = sorted(outside)
        events.append(Event(f"Soviet armor outside every TO range: one more step loss on one of "
                            f"{', '.join(outside)} (7.8.4, R-41)"))


def _firstpick(r, state, f, rng, events) -> bool:
    if f["first"] is None and f["elite"] and f["armored"] and f["a_n"] > 0 and len(_first_pool(r, state, f)) > 1:
        return False
    _next(f)
    return True


def _first_pool(r, state, f) -> list[str]:
    units = attackers(r, state, f)
    pool = set()
    if f["elite"]:
        pool |= set(_elite_units(r, state, units))
    if f["armored"]:
        pool |= {u for u in units if r.scn.units[u].armor}
    return sorted(pool)


def attrition_options(r: Any, state: dict[str, Any], f: dict[str, Any], side: str,
                      n: int | None = None) -> list[dict[str, int]]:
    """7.8: the ways ``side`` may take its attrition losses (``n``: so
    many instead of the battle's Losses number)."""
    b = r.board(state)
    if side == f["side"]:
        units, n = attackers(r, state, f), f["a_n"] if n is None else n
        first: set[str] | None = None
        if f["first"]:
            first = {f["first"]}
        elif f["elite"] or f["armored"]:
            first = set(_first_pool(r, state, f))
        if f["mode"] == "exploit" and side == SOVIET:
            armor = {u for u in units if r.scn.units[u].armor}
            first = armor or first                          # 8.3.2, R-45
        mixed = len({b.spec(u).nationality for u in units}) > 1
        return losses.allocations(b, units, n, first=first, majors_first=mixed)
    units, n = defenders(r, state, f), f["d_n"] if n is None else n
    first = set(_elite_units(r, state, units)) if f["delite"] else None
    return losses.allocations(b, units, n, first=first)


def free_options(r: Any, state: dict[str, Any], f: dict[str, Any], t: dict[str, Any],
                 units: list[str]) -> list[dict[str, int]]:
    """A tactical loss task's choices: placed freely (7.9.6), but the
    losses of an Eng re-roll as attrition when the game reads R-39 so
    (option ``eng_losses = "attrition"``)."""
    if t.get("eng") and r.profile.eng_losses == "attrition" and not t.get("only"):
        return attrition_options(r, state, f, t["side"], t["n"])
    return losses.allocations(r.board(state), units, t["n"], spread=False)


def _loss_step(side_key: str):
    def run(r, state, f, rng, events) -> bool:
        side = f["side"] if side_key == "a" else f["dside"]
        opts = attrition_options(r, state, f, side)
        if len(opts) > 1:
            return False
        r.take_losses(state, f, side, opts[0], events, f[f"{side_key}_n"])
        _next(f)
        return True
    return run


def _apick(r, state, f, rng, events) -> bool:
    if f["mode"] == "exploit":
        if f.get("armor_extra"):                            # 7.8.4 is attrition, not a tactical result:
            f["tasks"].append({"t": "free", "side": f["side"], "n": 1, "only": f["armor_extra"]})   # owed here too
        f["step"] = "dpick"                                 # 8.3.2: no attacker tactical result
        return True
    if f["elite"] and f["a_pick"] is None and len(r.elite_choices(f, ATTACKER)) > 1:
        return False
    f["a_pick"] = f["a_pick"] or f["a_code"]
    _next(f)
    return True


def _row(r, state, f, rng, events) -> bool:
    if f["row"] is None and r.river_row_choice(state, f):
        return False
    f["row"] = f["row"] or "terrain"
    _next(f)
    return True


def _atac(r, state, f, rng, events) -> bool:
    codes = r.tactical_codes(state, f, ATTACKER)
    f["a_final"] = list(codes)
    events.append(Event(f"Attacker's tactical result: {' + '.join(codes)}"))
    if f.get("armor_extra"):
        f["tasks"].append({"t": "free", "side": f["side"], "n": 1, "only": f["armor_extra"]})   # 7.8.4
    for c in codes:
        if c in combat.E_LEVELS:
            f["e"] = combat.E_LEVELS[c]
        elif c == "D1":
            f["tasks"].append({"t": "free", "side": f["dside"], "n": 1})
        elif c == "S":
            f["tasks"].append({"t": "s", "side": f["side"]})
        elif c.startswith("DR"):
            f["tasks"].append({"t": "retreat", "side": f["side"], "n": int(c[2:] or 1)})
        elif c == "Eng":
            f["tasks"].append({"t": "eng", "only": f["side"] if state["weather"] == "mud" else None})
    if f.get("hourra"):
        f["tasks"].append({"t": "free", "side": f["side"], "n": 1})     # 7.9.5: the Hourra! step
    f["a_tasks"] = len(f["tasks"])
    _next(f)
    return True


def _dpick(r, state, f, rng, events) -> bool:
    if f["delite"] and f["d_pick"] is None and len(r.elite_choices(f, DEFENDER)) > 1:
        return False
    f["d_pick"] = f["d_pick"] or f["d_code"]
    _next(f)
    return True


def _dtac(r, state, f, rng, events) -> bool:
    if f["d_pick"] in ("DR2", "DR3") and not f.get("romanian_done"):
        if r.romanian_rout(state, f, events):
            return True                                     # a survivor decision was pushed
    codes = r.tactical_codes(state, f, DEFENDER)
    events.append(Event(f"Defender's tactical result: {' + '.join(codes)}"))
    for c in codes:
        if c == "S":
            f["tasks"].append({"t": "s", "side": f["dside"]})
        elif c.startswith("DR"):
            f["tasks"].append({"t": "retreat", "side": f["dside"], "n": int(c[2:] or 1)})
        elif c == "Eng":
            f["tasks"].append({"t": "eng", "only": None})
        elif c == "D1":
            f["tasks"].append({"t": "free", "side": f["dside"], "n": 1})
    _next(f)
    return True


def _tasks(r, state, f, rng, events) -> bool:
    while f["tasks"]:
        t = f["tasks"][0]
        units = attackers(r, state, f) if t.get("side") == f["side"] else \
            defenders(r, state, f) if t.get("side") == f["dside"] else []
        if t.get("only"):
            units = [u for u in units if u in t["only"]]
        if t["t"] == "eng":
            if "a_n" not in t:
                dice = rng.roll(6, f"battle {f['hex']} Eng, die 1") + rng.roll(6, f"battle {f['hex']} Eng, die 2")
                cell = r.scn.crt.cell(f["col"], dice)
                a, d = cell.attacker_losses, cell.defender_losses
                t["a_n"], t["d_n"] = a, (0 if t["only"] else d)
                events.append(Event(f"Eng: re-roll {dice}: losses {a}/{t['d_n']} (7.9, R-39)"))
            f["tasks"].pop(0)
            if t["a_n"]:
                f["tasks"].insert(0, {"t": "free", "side": f["side"], "n": t["a_n"], "eng": True})
            if t["d_n"]:
                f["tasks"].insert(1 if t["a_n"] else 0, {"t": "free", "side": f["dside"], "n": t["d_n"], "eng": True})
            continue
        if not units:
            f["tasks"].pop(0)                               # 7.9.1: nothing happens to absent units
            continue
        if t["t"] == "free":
            opts = free_options(r, state, f, t, units)
            if len(opts) > 1:
                return False
            r.take_losses(state, f, t["side"], opts[0], events, t["n"])
            f["tasks"].pop(0)
            if r.top(state) is not f:
                return True                                 # a KG decision came up
            continue
        if t["t"] == "s":
            return False
        if t["t"] == "retreat":
            left = t.setdefault("units", sorted(units))
            left[:] = [u for u in left if state["units"][u]["hex"]]
            if not left:
                f["tasks"].pop(0)
                continue
            paths = r.retreat_paths(state, f, left[0], t["n"])
            if not paths:
                r.eliminate(state, left[0], events, why="cannot retreat (7.10.11, 7.10.13)")
                left.pop(0)
                continue
            if len(paths) == 1:
                r.retreat(state, f, left[0], paths[0], events, t["n"])
                left.pop(0)
                if r.top(state) is not f:
                    return True                             # an overstack under a Haltebefehl (6.7.7)
                continue
            return False
    _next(f)
    return True


def _dadvance(r, state, f, rng, events) -> bool:
    if not r.defender_advance_options(state, f) or f.get("dadv_done"):
        _next(f)
        return True
    return False


def _aadvance(r, state, f, rng, events) -> bool:
    if not f.get("warsaw_checked"):
        from pbem.games.vr import warsaw
        f["warsaw_checked"] = True
        warsaw.stormed(r, state, f, events)                 # 19.1.2
    if not r.attacker_advance_options(state, f) or f.get("aadv_done"):
        _next(f)
        return True
    return False


def _exploit(r, state, f, rng, events) -> bool:
    if f["mode"] == "exploit" or f["e"] <= 0 or not r.exploit_options(state, f) or f.get("exp_done"):
        _next(f)
        return True
    return False


def _end(r, state, f, rng, events) -> bool:
    from pbem.games.vr import tos
    if f["dside"] == SOVIET and tos.outside_every_range(r, state, f["hex"]):
        for u in f.get("retreaters", []):
            if state["units"][u]["hex"] and tos.reinforced(r, state, u):
                tos.to_standard(r, state, u, events, "it retreated from outside every TO range (7.10.14)")
    r.pop(state, f)
    from pbem.games.vr import haltebefehl
    haltebefehl.cleanup(state, r.board(state))                # 6.7.9
    return True


_AUTO = {"supply": _supply, "terrain": _terrain, "react": _react, "delite": _delite, "roll": _roll,
         "firstpick": _firstpick, "aloss": _loss_step("a"), "dloss": _loss_step("d"), "apick": _apick,
         "row": _row, "atac": _atac, "dpick": _dpick, "dtac": _dtac, "tasks": _tasks, "dadvance": _dadvance,
         "aadvance": _aadvance, "exploit": _exploit, "end": _end}


# ------------------------------------------------------------------- asks
def ask_battle(r: Any, state: dict[str, Any], f: dict[str, Any]) -> Decision:
    step, att, dfd = f["step"], f["side"], f["dside"]
    h = f["hex"]
    if step == "supply":
        return Decision(dfd, "enemy-airlift", f"battle {h}: defenders would be found out of supply (7.4.3): play a "
                        "supply Event of the enemy turn on the hex, or pass", ("pass",), policy="enemy-airlift",
                        hint=f"airlift HANDLE {h}")
    if step == "terrain":
        ch = terrain.combat_choices(r.scn, h, state["weather"], r.dropped_types(state, f))
        return Decision(dfd, "terrain", f"battle {h}: pick the terrain type that counts (1.8.1)",
                        tuple(f"terrain {t}" for t in ch), policy="terrain")
    if step == "declare":
        return Decision(att, "declare", f"battle {h} at {r.odds_text(state, f)}: declare Elite, Armored "
                        "Exploitation, Supports (7.6, 7.5.6)", tuple(r.declare_options(state, f)),
                        hint="declare [elite UNIT] [armored] [support HANDLE...]", policy="declare")
    if step == "react":
        mine = state["supports"][dfd]["available"]
        return Decision(dfd, "react", f"battle {h}: play a Support of the enemy turn?",
                        ("pass",) + tuple(f"react {x}" for x in mine), policy="react")
    if step == "delite":
        el = _elite_units(r, state, defenders(r, state, f))
        return Decision(dfd, "elite-defense", f"battle {h}: use a defending Elite unit's bonus? (7.6.2)",
                        tuple(f"elite {u}" for u in el) + ("elite none",), policy="elite-defense")
    if step == "firstpick":
        return Decision(dfd, "first-loss", f"battle {h}: pick the attacker's unit for its first loss (7.8.1)",
                        tuple(f"first {u}" for u in _first_pool(r, state, f)), policy="first-loss")
    if step in ("aloss", "dloss"):
        side = att if step == "aloss" else dfd
        opts = attrition_options(r, state, f, side)
        return Decision(side, "losses", f"battle {h}: allocate {f['a_n' if step == 'aloss' else 'd_n']} step "
                        "loss(es) (7.8)", tuple(_loss_text(o) for o in opts), policy="losses")
    if step == "apick":
        return Decision(att, "elite-result", f"battle {h}: pick the attacker's result (7.9.3)",
                        tuple(f"result {c}" for c in r.elite_choices(f, ATTACKER)), policy="elite-result")
    if step == "dpick":
        return Decision(dfd, "elite-result", f"battle {h}: pick the defender's result (7.9.3)",
                        tuple(f"result {c}" for c in r.elite_choices(f, DEFENDER)), policy="elite-result")
    if step == "row":
        return Decision(dfd, "river-row", f"battle {h}: every attacker crosses a Major River: modify the attacker's "
                        "result by the river or by the terrain (7.9.4)", ("row river", "row terrain"),
                        policy="river-row")
    if step == "tasks":
        return _ask_task(r, state, f)
    if step == "dadvance":
        return Decision(dfd, "advance", f"battle {h}: advance defenders into an emptied attacking hex (7.13.1)?",
                        tuple(r.defender_advance_options(state, f)) + ("pass",), policy="advance",
                        hint="advance UNIT [UNIT...] HEX (several units a hex, within stacking), or pass")
    if step == "aadvance":
        if f.get("warsaw"):
            return Decision(att, "advance", f"battle {h}: Warsaw is stormed: advance into it (19.1.2)",
                            tuple(r.attacker_advance_options(state, f)), policy="advance")
        return Decision(att, "advance", f"battle {h}: advance into the emptied hex (7.13.2)?",
                        tuple(r.attacker_advance_options(state, f)) + ("pass",), policy="advance")
    if step == "exploit":
        return Decision(att, "exploit", f"battle {h}: E{f['e'] if f['e'] > 1 else ''}: place Exploitation markers "
                        "(7.14)", tuple(r.exploit_options(state, f)) + ("pass",), policy="exploit")
    raise RuntimeError(f"battle step {step} has no decision")


def _loss_text(alloc: dict[str, int]) -> str:
    return "loss " + " ".join(f"{u} {n}" for u, n in sorted(alloc.items())) if alloc else "loss"


def _ask_task(r: Any, state: dict[str, Any], f: dict[str, Any]) -> Decision:
    t = f["tasks"][0]
    side = t["side"]
    units = attackers(r, state, f) if side == f["side"] else defenders(r, state, f)
    if t.get("only"):
        units = [u for u in units if u in t["only"]]
    if t["t"] == "free":
        opts = free_options(r, state, f, t, units)
        return Decision(side, "losses", f"battle {f['hex']}: {t['n']} tactical step loss(es), placed freely (7.9.6)",
                        tuple(_loss_text(o) for o in opts), policy="losses")
    if t["t"] == "s":
        return Decision(side, "s-result", f"battle {f['hex']}: S: lose one step, or retreat one hex (R-38)",
                        tuple(f"s-loss {u}" for u in units if not r.scn.units[u].is_hq) + ("s-retreat",),
                        policy="s-result")
    uid = t["units"][0]
    paths = r.retreat_paths(state, f, uid, t["n"])
    return Decision(side, "retreat", f"battle {f['hex']}: retreat {uid} {t['n']} hex(es) (7.10)",
                    tuple(f"retreat {uid} {' '.join(p)}" for p in paths), policy="retreat")


# -------------------------------------------------------------------- dos
def do_battle(r: Any, state: dict[str, Any], f: dict[str, Any], d: Decision, order: dict[str, Any],
              rng: Any, events: list[Event]) -> None:
    step, v = f["step"], order["verb"]
    text = r.format(order)
    if step == "declare":
        r.declare(state, f, order, events)
        return
    if step == "supply":
        enemy_airlift(r, state, f, order, events)
        return
    if step == "react":
        if v == "pass":
            f["reacted"] = True
            return
        if v != "react":
            raise IllegalOrder("react HANDLE..., or pass")
        r.react(state, f, order, events)
        return
    if step == "tasks":
        _do_task(r, state, f, d, order, events)
        return
    if step == "aadvance" and v == "pass" and f.get("warsaw"):
        raise IllegalOrder("Warsaw is stormed: the Soviet must advance into it (19.1.2)")
    if step in ("dadvance", "aadvance", "exploit") and v == "pass":
        f[{"dadvance": "dadv_done", "aadvance": "aadv_done", "exploit": "exp_done"}[step]] = True
        return
    if step in ("aadvance", "dadvance"):
        r.advance(state, f, order, d, events, defender=step == "dadvance")
        return
    if step == "exploit":
        r.mark_exploit(state, f, order, d, events)
        return
    if text not in d.options:
        raise IllegalOrder(f"not one of the choices for {d.kind}: {', '.join(d.options)}")
    if step == "terrain":
        f["terrain"] = order["terrain"]
    elif step == "delite":
        f["delite"] = order["unit"] or ""
        if order["unit"]:
            events.append(Event(f"The defender uses {order['unit']}'s Elite bonus (7.6.2)"))
    elif step == "firstpick":
        f["first"] = order["unit"]
    elif step in ("aloss", "dloss"):
        side = f["side"] if step == "aloss" else f["dside"]
        r.take_losses(state, f, side, order["steps"], events, f[f"{step[0]}_n"])
        _next(f)
    elif step == "apick":
        f["a_pick"] = order["code"]
    elif step == "dpick":
        f["d_pick"] = order["code"]
    elif step == "row":
        f["row"] = order["row"]


def _do_task(r: Any, state: dict[str, Any], f: dict[str, Any], d: Decision, order: dict[str, Any],
             events: list[Event]) -> None:
    t = f["tasks"][0]
    if r.format(order) not in d.options:
        raise IllegalOrder(f"not one of the choices for {d.kind}: {', '.join(d.options)}")
    if t["t"] == "free":
        f["tasks"].pop(0)
        r.take_losses(state, f, t["side"], order["steps"], events, t["n"])
    elif t["t"] == "s":
        f["tasks"].pop(0)
        if order["choice"] == "loss":
            r.take_losses(state, f, t["side"], {order["unit"]: 1}, events, 1)
        else:
            f["tasks"].insert(0, {"t": "retreat", "side": t["side"], "n": 1})
            events.append(Event(f"{SIDE_NAME[t['side']]} turns S into a one-hex retreat (R-38)"))
    else:
        uid = t["units"][0]
        r.retreat(state, f, uid, order["path"], events, t["n"])
        t["units"].pop(0)


# -------------------------------------------------------------- sub-frames
def ask_kg(r: Any, state: dict[str, Any], top: dict[str, Any]) -> Decision:
    if top.get("handle"):
        return Decision(GERMAN, "kg-reveal", "show the armored KG drawn (7.15)", private=True)
    return Decision(GERMAN, "kg", f"{top['uid']} (Elite) is eliminated: replace it with a Kampfgruppe? (7.15)",
                    ("kg yes", "kg no"), policy="kg")


def do_kg(r: Any, state: dict[str, Any], top: dict[str, Any], d: Decision, order: dict[str, Any],
          rng: Any, events: list[Event]) -> None:
    r.kg_order(state, top, d, order, rng, events)


def ask_survivor(r: Any, state: dict[str, Any], top: dict[str, Any]) -> Decision:
    return Decision(GERMAN, "survivor", "DR2/DR3 on Romanians stacked with a German division: which Romanian "
                    "survives? (7.12.2)", tuple(f"survivor {u}" for u in top["units"]), policy="survivor")


def do_survivor(r: Any, state: dict[str, Any], top: dict[str, Any], d: Decision, order: dict[str, Any],
                rng: Any, events: list[Event]) -> None:
    if r.format(order) not in d.options:
        raise IllegalOrder("name the Romanian unit that survives")
    for u in top["units"]:
        if u != order["unit"]:
            r.eliminate(state, u, events, why="Romanian rout on DR2/DR3 (7.12.2)")
    r.pop(state, top)


def enemy(side: str) -> str:
    return enemy_of(side)
