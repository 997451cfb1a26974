"""Victory Roads: the sequence of play as a stack of frames (one engine for
the Basic and the Advanced game: a switched-off rule pushes no frame).

``state["stack"]`` holds frames (``seq_turn``: turn, player turn, the
phases; ``seq_battle``: a battle, a KG, a Romanian survivor).  After each
order :meth:`VrRules._run` works every automatic step until a decision is
due, so :meth:`pending` only reads the top frame.  Supports sit face down
under public handles on the core's hidden-item service
(:mod:`pbem.games.vr.supports`); draws come from the owner's secret stream;
playing or spending one opens its handle.  Rule numbers are the
rulebook's; R-nn are scenarios/vr/RULINGS.md.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable

from pbem.board.crt2d6 import ATTACKER, DEFENDER
from pbem.game import BaseRules, Decision, Event, IllegalOrder, State, View
from pbem.games.vr import approval, combat, haltebefehl, losses, moves, orders, profile as profile_mod, seq_battle
from pbem.games.vr import endreich, rr, seq_reich, seq_stavka, seq_support, seq_turn, stacking, supports as sup_mod
from pbem.games.vr import terrain, tos, warsaw
from pbem.games.vr.board import Board
from pbem.games.vr.combat import OOS, Part
from pbem.games.vr.model import GERMAN, SIDE_NAME, SIDES, SOVIET, TOS, Scenario, UnitSpec, enemy_of
from pbem.games.vr.weather import effects

MODULES = (seq_turn, seq_battle, seq_support, seq_stavka, seq_reich, warsaw)


def _with_kgs(scn: Scenario) -> Scenario:
    """The scenario with each Kampfgruppe counter (not the Hiwis blank) as a
    unit spec, so that a KG on the map is a unit like any other (7.15)."""
    extra = {}
    for kid, k in scn.kg.items():
        if k.hiwis:
            continue
        extra[kid] = UnitSpec(id=kid, name=f"KG {kid}", nationality="ger", branch="wehrmacht", kind="kg", arm=k.arm,
                              steps=k.steps, attack=k.attack, defense=k.defense, move=k.move,
                              attack_reduced=k.attack_reduced or k.attack,
                              defense_reduced=k.defense_reduced or k.defense,
                              move_reduced=k.move_reduced or k.move, start="kg_pool")
    return dataclasses.replace(scn, units={**scn.units, **extra})


class VrRules(BaseRules):
    def __init__(self, scn: Scenario, options: dict[str, Any] | None = None) -> None:
        self.scn = _with_kgs(scn)
        prof = profile_mod.with_switches(profile_mod.PROFILES[scn.card.rules], scn.card.switches)
        readings = {k: v for k, v in (options or {}).items() if k in profile_mod.CHOICES}
        self.profile = profile_mod.with_switches(prof, readings) if readings else prof
        most = max(len(sup_mod.copies(scn, {s: {"extra": self._all_extra(s)} for s in SIDES}, s)) for s in SIDES) + 2
        most += len(endreich.eor_supports(self)) if scn.end_of_reich is not None else 0    # 16.2.1: e-N handles
        self.hidden_width = 1
        while self.hidden_width < most:
            self.hidden_width *= 2
        self._handlers: dict[str, dict[str, Callable[..., Any]]] = {}
        for mod in MODULES:
            for name in dir(mod):
                for pre in ("auto_", "ask_", "do_"):
                    if name.startswith(pre):
                        self._handlers.setdefault(name[len(pre):], {})[pre[:-1]] = getattr(mod, name)

    def _all_extra(self, side: str) -> dict[str, int]:
        out: dict[str, int] = {}
        for entry in self.scn.schedule.values():
            for sid, n in entry.supports.items():
                if self.scn.supports[sid].side == side:
                    out[sid] = out.get(sid, 0) + n
        return out

    # ============================================================== setup
    def initial_state(self) -> State:
        start = self.positioned_start()
        if start is not None:
            return start
        scn = self.scn
        units: dict[str, Any] = {}
        for uid, s in sorted(scn.units.items()):
            on = s.start if scn.map.on_map(s.start) else None
            units[uid] = {"hex": on, "box": None if on else s.start, "steps": s.steps, "side": s.home_side,
                          "oos": False, "mode": None, "pontoon": None, "exploit": False, "attacked": False,
                          "retreated": False, "no_attack": False}
        halt = {h: haltebefehl.side_for(Board(scn, self.profile, {"units": units, "control": {}}), h) or "plain"
                for h in scn.card.markers.get("haltebefehl", ())}
        return {
            "approval": approval.new_state(self), "airlift": [], "eor": endreich.new_state(self),
            "capitulation": {"hun_never": False, "armistice": False} if self.profile.capitulation else None, "rail_left": None, "tos": tos.new_state(self),
            "turn": scn.track.first, "weather": "fair", "sky": "clear", "phase": "weather", "phasing": SOVIET,
            "stack": [{"k": "turn", "step": 0}], "units": units,
            "control": dict(scn.map.initial_control),
            "soviet_ever": sorted(h for h, s in scn.map.initial_control.items() if s == SOVIET),
            "haltebefehl": halt, "bridgeheads": [], "bridge_engineers": [], "allies": {"hun": GERMAN, "rum": GERMAN},
            "attacked_hexes": [], "autonomous": [],
            "supports": sup_mod.new_state(scn),
            "kg_pool": sorted(scn.kg), "kg_next": 1, "kg_sealed": {},
            "winner": None, "result": [],
            "hidden": {SOVIET: {"items": {}}, GERMAN: {"items": {}}},
        }

    # ========================================================== interface
    def pending(self, state: State) -> Decision | None:
        if state.get("winner") or not state["stack"]:
            return None
        top = state["stack"][-1]
        ask = self._handlers.get(top["k"], {}).get("ask")
        if ask is None:
            raise RuntimeError(f"frame {top['k']} has no decision")
        d: Decision = ask(self, state, top)
        return d

    def apply(self, state: State, side: str, order: dict[str, Any], rng: Any) -> tuple[State, list[Event]]:
        return self.apply_decided(state, side, order, rng, self.pending(state))

    def apply_decided(self, state: State, side: str, order: dict[str, Any], rng: Any,
                      d: Decision | None) -> tuple[State, list[Event]]:
        if d is None:
            raise IllegalOrder("the game is over")
        if side != d.seat:
            raise IllegalOrder(f"it is the {SIDE_NAME[d.seat]} player's decision ({d.kind}), not the "
                               f"{SIDE_NAME.get(side, side)}")
        check_shape(order, self.scn)
        order = {**DEFAULTS.get(order["verb"], {}), **order}    # a file drops empty (None) members
        top = state["stack"][-1]
        events: list[Event] = []
        self._handlers[top["k"]]["do"](self, state, top, d, order, rng, events)
        self._run(state, rng, events)
        return state, events

    def parse(self, text: str, state: State, side: str) -> dict[str, Any]:
        order = orders.parse(text, self.scn)
        if order["verb"] == "move" and state.get("units") and order["mode"] != "naval":
            order = self._route(order, state)
        return order

    def _route(self, order: dict[str, Any], state: State) -> dict[str, Any]:
        """A move naming only its destination takes the cheapest legal path;
        a path without its start hex gets it."""
        b = self.board(state)
        first = order["units"][0]
        start = state["units"][first]["hex"]
        path = list(order["path"])
        if start is None:
            raise IllegalOrder(f"{first} is not on the map")
        if path[0] != start:
            if len(path) == 1 and path[0] not in b.map.neighbors(start):
                exploit = self._moving_mode(state) == "exploit" and order["mode"] == "normal"
                mode = "exploit" if exploit else order["mode"]
                return dict(order, path=moves.path_to(b, first, path[0], mode))
            path = [start] + path
        return dict(order, path=path)

    def _moving_mode(self, state: State) -> str:
        top = state["stack"][-1] if state["stack"] else {}
        return str(top.get("mode", "normal"))

    def format(self, order: dict[str, Any]) -> str:
        return orders.format(order)

    def check_policy(self, state: State, seat: str, name: str, value: str) -> str | None:
        from pbem.games.vr import policies
        return policies.refusal(name, value)

    def standing_answer(self, state: State, decision: Decision, policies_: dict[str, Any]) -> dict[str, Any] | None:
        from pbem.games.vr import policies
        return policies.answer(self, state, decision, policies_)

    def private_answer(self, state: State, decision: Decision) -> dict[str, Any]:
        mine = state["hidden"].get(decision.seat)
        if mine is None:
            raise IllegalOrder(f"the {SIDE_NAME[decision.seat]} secrets are not held by this program")
        top = state["stack"][-1]
        if decision.kind == "red-disk":
            disks = [h for h in top["new"] if self.scn.supports[mine["items"][h]["support"]].kind == "red_disk"]
            return {"verb": "reveal", "open": disks}
        if decision.kind == "kg-reveal":
            return {"verb": "reveal", "open": [top["handle"]]}
        if decision.kind == "corps-reveal":
            return {"verb": "reveal", "open": [top["corps_handle"]]}
        raise IllegalOrder(f"{decision.kind} is not a private decision")

    # ----------------------------------------------------- hidden items
    def hidden_items(self, state: State, seat: str) -> dict[str, Any]:
        items: dict[str, Any] = dict(((state["hidden"].get(seat) or {}).get("items")) or {})
        return items

    def identity_of(self, seat: str, value: Any) -> str | None:
        """A Support copy is drawn at most once a turn (it returns to the
        pool only after the draws); a KG counter is drawn once a game."""
        if isinstance(value, dict) and "support" in value:
            return f"{value.get('support')}#{value.get('copy')}@{value.get('turn')}"
        if isinstance(value, dict) and "kg" in value:
            return f"kg:{value.get('kg')}"
        if isinstance(value, dict) and "corps" in value:
            return f"corps:{value.get('corps')}@{value.get('turn')}"
        if isinstance(value, dict) and "eor" in value:
            return f"eor:{value.get('eor')}"
        return None

    def check_opening(self, state: State, seat: str, handle: str, value: Any) -> str | None:
        if handle.startswith("kg-"):
            if state["kg_sealed"].get(handle) != seat:
                return f"{handle} is not a face-down KG draw"
            if not isinstance(value, dict) or set(value) != {"kg", "turn"}:
                return "not a KG and its turn"
            k = self.scn.kg.get(value["kg"]) if isinstance(value["kg"], str) else None
            if k is None or k.arm != "armor" or value["kg"] not in state["kg_pool"]:
                return f"{value['kg']!r} is not an armored KG of the pool (7.15.1)"
            return None
        if handle.startswith("cp-"):
            return rr.check_corps_opening(self, state, seat, handle, value)
        if handle.startswith("e-"):
            added = state["supports"].get(seat, {}).get("eor", [])
            if handle not in added or not isinstance(value, dict) or set(value) != {"eor"} \
                    or value["eor"] not in endreich.eor_supports(self):
                return f"{handle} is not an End-of-Reich Support added to the {seat} pool (16.2.1)"
            return None
        if seat not in state.get("supports", {}):
            return f"{seat} holds no Supports"
        return sup_mod.check_value(self.scn, state["supports"], seat, handle, value)

    def opened(self, state: State, seat: str, order: dict[str, Any]) -> dict[str, Any]:
        """The values of the handles ``order`` opens, as the core checked
        them (``order["openings"]``); a caller holding the seat's hidden
        part (a test) may leave the openings out."""
        handles = order.get("open") or []
        if not handles:
            return {}
        ops = order.get("openings")
        mine = state["hidden"].get(seat)
        if ops is None and mine is not None and all(h in mine["items"] for h in handles):
            ops = [{"handle": h, "value": mine["items"][h]} for h in handles]
        if not isinstance(ops, list) or [o.get("handle") if isinstance(o, dict) else None for o in ops] != handles:
            raise IllegalOrder("the order shows hidden items without their openings")
        out = {}
        for o in ops:
            why = self.check_opening(state, seat, o["handle"], o["value"])
            if why:
                raise IllegalOrder(f"{o['handle']}: {why}")
            out[o["handle"]] = o["value"]
        return out

    def demo_order(self, state: State, decision: Decision) -> dict[str, Any] | str:
        from pbem.games.vr import bot
        return bot.demo_order(self, state, decision)

    def demo_policies(self, side: str) -> dict[str, str]:
        from pbem.games.vr import bot
        return dict(bot.POLICIES)

    def query(self, state: State, side: str, text: str) -> str:
        from pbem.games.vr import view
        return view.query(self, state, side, text)

    def result(self, state: State) -> str | None:
        return "\n".join(state["result"]) if state.get("winner") else None

    def view(self, state: State, seat: str | None) -> View:
        from pbem.games.vr import view
        return view.view(self, state, seat)

    # ============================================================ helpers
    def board(self, state: State) -> Board:
        return Board(self.scn, self.profile, state)

    def top(self, state: State) -> dict[str, Any] | None:
        return state["stack"][-1] if state["stack"] else None

    def _run(self, state: State, rng: Any, events: list[Event]) -> None:
        for _ in range(100000):
            if state.get("winner") or not state["stack"]:
                return
            top = state["stack"][-1]
            auto = self._handlers.get(top["k"], {}).get("auto")
            if auto is None or not auto(self, state, top, rng, events):
                return
        raise RuntimeError("the sequence of play did not settle")

    def pop(self, state: State, frame: dict[str, Any]) -> None:
        assert state["stack"][-1] is frame
        state["stack"].pop()

    def rail_capacity(self, state: State) -> int:
        return self.scn.card.rail_capacity.get(state["turn"], self.scn.card.rail_default)

    def rail_left(self, state: State) -> int:
        """6.4.1: the turn's Rail Capacity points not spent yet (the German
        Movement phase and the R&R phase share them, 6.4.5)."""
        left = state.get("rail_left")
        if left and left.get("turn") == state["turn"]:
            return int(left["left"])
        return self.rail_capacity(state)

    def occupy(self, state: State) -> None:
        """1.10: a side controls every hex it occupies at the end of a phase."""
        b = self.board(state)
        for h in sorted(b.at):
            side = b.side_at(h)
            if side:
                self.control(state, h, side)
        haltebefehl.cleanup(state, b)

    def control(self, state: State, h: str, side: str) -> None:
        state["control"][h] = side
        if side == SOVIET and h not in state["soviet_ever"]:
            state["soviet_ever"].append(h)
            state["soviet_ever"].sort()

    def eliminate(self, state: State, uid: str, events: list[Event], why: str = "") -> None:
        u = state["units"][uid]
        spec = self.scn.units[uid]
        u.update(hex=None, steps=0, oos=False, exploit=False, pontoon=None,
                 box="removed" if spec.kind == "kg" else "corps_pile" if self.profile.infantry_modes and spec.corps
                 else "eliminated")                      # 1.3.3: a corps back to its draw pile
        att = state["supports"][u["side"]]["attached"]
        if att.pop(uid, None):
            events.append(Event(f"the leader attached to {uid} goes back to its pool (5.4.4)"))
        events.append(Event(f"{uid} is eliminated" + (f": {why}" if why else "")))
        if spec.is_hq and u["side"] == GERMAN and spec.nationality == "ger":
            approval.change(self, state, -1, events, f"German HQ {uid} eliminated")

    def end_of_turn(self, state: State, events: list[Event]) -> None:
        from pbem.games.vr import victory
        if state["turn"] >= victory.last_turn(self):
            winner, lines = victory.check(self, state)
            state["winner"], state["result"], state["phase"], state["stack"] = winner, lines, "over", []
            events.append(Event(lines[-1], {"winner": winner}))
            return
        state["turn"] += 1
        state["stack"][-1]["step"] = 0

    # ------------------------------------------------------- supports
    def play_support(self, state: State, side: str, h: str, value: dict[str, Any], events: list[Event],
                     why: str) -> None:
        """Its Event: face up, back to the pool at the owner's next Support
        phase (5.2.1, R-48)."""
        self.charge(state, side, h, value)
        box = state["supports"][side].get("box", {}).get(h)
        role = self.scn.supports[value["support"]].role
        if box and role in ("artillery", "zhukov") and side == SOVIET == state.get("phasing") \
                and self.profile.advanced_supports:
            t = tos.turn_state(state)
            if box not in t[role]:
                t[role].append(box)                      # 11.7: played as its Event, not expended
        self._unhide(state, side, h)
        state["supports"][side]["played"].append([value["support"], value["copy"]])
        events.append(Event(f"{SIDE_NAME[side]} plays {self.scn.supports[value['support']].name} ({h}): {why}"))

    def spend_support(self, state: State, side: str, h: str, value: dict[str, Any], events: list[Event],
                      why: str) -> None:
        """Expended to pay for an action (1.5.2): no Event, back to the pool
        at once (R-48); shown (Q-12)."""
        self.charge(state, side, h, value)
        self._unhide(state, side, h)
        events.append(Event(f"{SIDE_NAME[side]} expends {self.scn.supports[value['support']].name} ({h}) for {why}"))

    def charge(self, state: State, side: str, h: str, value: dict[str, Any]) -> None:
        """11.5.3, R-50: in the Soviet player turn a TO box other than the
        Priority TO's gives at most two Supports, as Events or payments
        (Stalin and other mandatory Events free)."""
        if side != SOVIET or not self.profile.advanced_supports or state.get("phasing") != SOVIET:
            return
        box = state["supports"][side].get("box", {}).get(h)
        if not box:
            return
        t = tos.turn_state(state)
        spec = self.scn.supports[value["support"]]
        if box == t["priority"] or spec.kind == "red_disk" or spec.role == "stalin":
            return
        n = t["used"].get(box, 0) + 1
        if n > 2:
            raise IllegalOrder(f"TO {box} is not the Priority TO: its box gives at most two Supports a turn (11.5.3)")
        t["used"][box] = n

    def return_handle(self, state: State, side: str, h: str) -> None:
        self._unhide(state, side, h)

    def _unhide(self, state: State, side: str, h: str) -> None:
        s = state["supports"][side]
        s["available"].remove(h)
        s["drawn_on"].pop(h, None)
        if "box" in s:
            s["box"].pop(h, None)                        # the TO box it lay in (9.1.1)
        mine = state["hidden"].get(side)
        if mine is not None:
            mine["items"].pop(h, None)

    # ------------------------------------------------------- movement
    def may_move(self, state: State, uid: str, top: dict[str, Any]) -> bool:
        u = state["units"][uid]
        if top["mode"] == "exploit" and not u["exploit"]:
            return False
        if u.get("stuck") == state["turn"]:
            return False
        return bool(u["hex"]) and self.scn.units[uid].move > 0 and not u.get("pontoon")

    def do_move(self, state: State, top: dict[str, Any], order: dict[str, Any], events: list[Event],
                rng: Any = None) -> None:
        b = self.board(state)
        units, path, mode = list(order["units"]), list(order["path"]), order["mode"]
        side = top["side"]
        if any(b.side_of(u) != side for u in units):
            raise IllegalOrder("move only your own units")
        if mode == "naval":
            self.naval_move(state, top, units, path[-1], events, rng)
            return
        if top["mode"] == "exploit":
            if mode != "normal":
                raise IllegalOrder("no Strategic, Rail or Naval movement in exploitation (8.2.3)")
            if any(not state["units"][u]["exploit"] for u in units):
                raise IllegalOrder("only exploiting units move in the Exploitation phase (8.2.1)")
            mode = "exploit"
        abandon = frozenset(top.get("abandon_units") or ())
        if mode == "strategic" and state.get("halved") and not set(units) <= abandon:
            raise IllegalOrder("no Strategic Movement in the Movement phase after a Dismissal (15.3.1)")
        if mode == "strategic" and side == GERMAN and not top["paid"] and not set(units) <= abandon:
            raise IllegalOrder("German Strategic Movement needs a Support spent first this phase: pay HANDLE (6.2.3)")
        if top.get("abandon_hq") in units:
            raise IllegalOrder(f"{top['abandon_hq']} carries the abandoned equipment and cannot move this turn (6.3)")
        if mode == "rail":
            lost = {rr.COUNTRY[n] for n, who in state["allies"].items() if who == SOVIET}
            crossed = sorted({self.scn.map.country_of(h) for h in path} & lost)
            if side == GERMAN and crossed:
                raise IllegalOrder(f"no German Rail Movement in {crossed[0]}: it changed sides (14.3)")
        moves.check_path(b, units, path, mode, top["moved"], abandon)
        self._halt_checks(b, units, path, side)
        if mode == "rail":
            rail = moves.transport(self.rail_capacity(state))
            classes = [moves.transport_class(b, u) for u in units]
            try:
                top["rail"] = rail.spend(top["rail"], classes)
            except ValueError:
                raise IllegalOrder(f"the rail move costs {rail.price(classes)} points, {top['rail']} left "
                                   "(6.4.2)") from None
        end = path[-1]
        stop = side == GERMAN and haltebefehl.isolated(b, end)
        here = [b.spec(u) for u in b.units_at(end) if u not in units] + [b.spec(u) for u in units]
        why = stacking.problems(here, side, self.profile, bridgehead=end in state["bridgeheads"])
        if why and not stop:
            raise IllegalOrder(f"{end}: {why[0]}")
        for u in units:
            if self.scn.units[u].is_hq and not moves.hq_may_end(b, u, end):
                raise IllegalOrder(f"{u} would end where it cannot trace a Supply Route (6.1.10)")
        spent = sum(moves.step_cost(b, units[0], a, c) or 0 for a, c in zip(path, path[1:]))
        for u in units:
            state["units"][u]["hex"] = end
            top["moved"].append(u)
        for h in path[1:]:
            self.control(state, h, side)                  # 1.10, R-24
        approval.sites(self, state, events)              # 15.2: a Strategic Site changed hands
        limit = 8 if mode == "strategic" else 4           # half MP: > 4 MP strategic, > 2 MP otherwise
        if mode in ("normal", "strategic", "exploit") and spent > limit and tos.outside_every_range(self, state, end):
            for u in units:
                if tos.reinforced(self, state, u):
                    tos.to_standard(self, state, u, events, "it spent more than "
                                    f"{limit // 2} MP and ends outside every TO range "
                                    f"({'6.2.4' if mode == 'strategic' else '6.1.11'})")
        events.append(Event(f"{' '.join(units)} {'moves' if mode in ('normal', 'exploit') else mode} "
                            f"{' '.join(path)}"))
        haltebefehl.cleanup(state, self.board(state))
        if side == GERMAN:
            seq_support.check_displacement(self, state, events)     # 9.1.4 at once
        if why:
            events.append(Event(f"{end} is an isolated Haltebefehl hex: overstacked, the German player "
                                "eliminates units at once (6.7.7)"))
            state["stack"].append({"k": "overstack", "side": side, "hex": end})

    def _halt_checks(self, b: Board, units: list[str], path: list[str], side: str) -> None:
        """6.7.6: one German division stays under a marker a Soviet division
        is next to; 6.7.7: a move ends in the first isolated Haltebefehl
        hex it enters."""
        if side != GERMAN:
            return
        why = haltebefehl.leave_refusal(b, units, path[0])
        if why:
            raise IllegalOrder(why)
        for h in path[1:-1]:
            if haltebefehl.isolated(b, h):
                raise IllegalOrder(f"{h} is an isolated Haltebefehl hex: a move entering it ends there (6.7.7)")

    def naval_move(self, state: State, top: dict[str, Any], units: list[str], dest: str, events: list[Event],
                   rng: Any) -> None:
        """6.5: one unit a naval move (R-70); the evacuation die when it is
        the last unit in a port next to the enemy (6.5.3); the points are
        spent even when the move is cancelled (the example, R-29)."""
        if top["mode"] != "normal":
            raise IllegalOrder("no Naval Movement in exploitation (8.2.3)")
        if len(units) != 1:
            raise IllegalOrder("a naval move carries one unit (R-70)")
        uid = units[0]
        b = self.board(state)
        why = moves.naval_refusal(b, uid, dest, top.get("naval", 0), top["moved"])
        if why:
            raise IllegalOrder(why)
        if self.scn.units[uid].is_hq and not moves.hq_may_end(b, uid, dest):
            raise IllegalOrder(f"{uid} would end where it cannot trace a Supply Route (6.1.10)")
        self._halt_checks(b, units, [state["units"][uid]["hex"], dest], GERMAN)
        here = [b.spec(u) for u in b.units_at(dest)] + [b.spec(uid)]
        over = stacking.problems(here, GERMAN, self.profile)
        if over:
            raise IllegalOrder(f"{dest}: {over[0]}")
        cost = moves.naval_cost(b, uid)
        top["naval"] = moves.transport(self.profile.naval_capacity).spend(top["naval"], [moves.transport_class(b, uid)])
        top["moved"].append(uid)
        start = state["units"][uid]["hex"]
        go = True
        if moves.evacuation_due(b, uid):
            from pbem.games.vr.tables import EVACUATION
            die = rng.roll(6, f"naval evacuation of {uid} (6.5.3)")
            loss, go = EVACUATION.lookup(die)
            events.append(Event(f"{uid} is the last unit in {start} next to the enemy: evacuation die {die}"
                                + (": a step lost" if loss else "") + ("" if go else ": the naval move is cancelled")
                                + " (6.5.3)"))
            if not go:
                state["units"][uid]["stuck"] = state["turn"]
            if loss:
                x = state["units"][uid]
                x["steps"] -= 1
                if x["steps"] <= 0:
                    self.eliminate(state, uid, events, why="naval evacuation (6.5.3)")
                    go = False
        if go:
            state["units"][uid]["hex"] = dest
            events.append(Event(f"{uid} sails {start} -> {dest} ({cost} naval point(s), {top['naval']} left) (6.5)"))
        haltebefehl.cleanup(state, self.board(state))

    # ------------------------------------------------------- combat
    def attack_options(self, state: State, top: dict[str, Any]) -> list[tuple[str, list[str]]]:
        """One legal attack for every enemy hex that has any (7.1): the
        adjacent units that may attack it, or, where their mix is refused
        (7.11.1 Hungarians with Romanians, 7.11.3 a spent autonomous
        attack), the first legal of the German-and-one-ally, German-only
        and one-ally groups.  A hex left out has no legal attack at all, so
        no option also means end-combat is the one answer."""
        b = self.board(state)
        side = top["side"]
        out = []
        for h in sorted(h for h in b.at if b.enemy_occupied(h, side)):
            if h in state["attacked_hexes"]:
                continue
            us = sorted(u for n in b.map.neighbors(h) for u in b.units_at(n)
                        if b.side_of(u) == side and self._unit_refusal(state, top, b, u, h) is None)
            nat = {u: b.spec(u).nationality for u in us}
            groups = [us, [u for u in us if nat[u] != "rum"], [u for u in us if nat[u] != "hun"],
                      [u for u in us if nat[u] not in ("hun", "rum")], [u for u in us if nat[u] == "hun"],
                      [u for u in us if nat[u] == "rum"]]
            legal = next((g for g in groups if g and self.attack_check(state, top, h, g) is None), None)
            if legal:
                out.append((h, legal))
        return out

    def attack_check(self, state: State, top: dict[str, Any], h: str, units: list[str]) -> str | None:
        """Why an attack of ``units`` on ``h`` is refused now (7.1, 7.11,
        3.2.2, 8.3), or None; the order and the ``odds`` question share it."""
        b = self.board(state)
        side = top["side"]
        if not units or len(set(units)) != len(units):
            return "name each attacking unit once"
        if not b.enemy_occupied(h, side):
            return f"no enemy unit in {h}"
        if h in state["attacked_hexes"]:
            return f"{h} was already attacked this phase (7.1.8)"
        for u in units:
            why = self._unit_refusal(state, top, b, u, h)
            if why:
                return why
        nats = {b.spec(u).nationality for u in units}
        if {"hun", "rum"} <= nats:
            return "Hungarian and Romanian units never attack together (7.11.1)"
        if top["mode"] == "combat":
            for minor in sorted(nats & {"hun", "rum"}):
                if minor in state["autonomous"] and self._autonomous(state, units, minor):
                    return f"the {minor} autonomous attack of this phase is spent (7.11.3)"
        return None

    def _unit_refusal(self, state: State, top: dict[str, Any], b: Any, u: str, h: str) -> str | None:
        """Why ``u`` may not take part in any attack on ``h`` now, whoever
        it attacks with (7.1, 3.2.2, 4.7.1, 6.7.5, 8.3)."""
        side = top["side"]
        x = state["units"][u]
        if b.side_of(u) != side or not x["hex"]:
            return f"{u} is not one of your units on the map"
        if self.scn.units[u].is_hq:
            return "HQs never attack (7.3.3)"
        if x["attacked"]:
            return f"{u} has already attacked this phase (7.1.9)"
        if x["no_attack"]:
            return f"{u} moved in a Withdrawal and may not attack (4.7.1)"
        if side == GERMAN and haltebefehl.isolated(b, x["hex"]):
            return f"{u} is under an isolated Haltebefehl and cannot attack (6.7.5)"
        if top["mode"] == "exploit" and not x["exploit"]:
            return f"{u} is not exploiting (8.3.1)"
        if h not in b.map.neighbors(x["hex"]):
            return f"{u} is not next to {h}"
        if b.map.impassable(x["hex"], h):
            return f"{u} cannot attack across an impassable hexside"
        if state["weather"] == "mud" and b.river(x["hex"], h) and not b.bridged(x["hex"], h):
            return f"{u} cannot attack across a river in Mud except over a bridge (3.2.2)"
        return None

    def _autonomous(self, state: State, units: list[str], minor: str) -> bool:
        b = self.board(state)
        steps = {True: 0, False: 0}
        for u in units:
            steps[b.spec(u).nationality == minor] += state["units"][u]["steps"]
        return combat.autonomous(steps[False], steps[True], self.profile)

    def start_battle(self, state: State, top: dict[str, Any], h: str, units: list[str], events: list[Event]) -> None:
        b = self.board(state)
        for u in units:
            state["units"][u]["attacked"] = True
        state["attacked_hexes"].append(h)
        if top["mode"] == "combat":
            for minor in sorted({b.spec(u).nationality for u in units} & {"hun", "rum"}):
                if self._autonomous(state, units, minor):
                    state["autonomous"].append(minor)
        f = {"k": "battle", "side": top["side"], "dside": enemy_of(top["side"]), "hex": h, "att": units,
             "mode": top["mode"], "step": "supply", "terrain": None, "elite": None, "armored": False,
             "supports": [], "shift": 0, "reacted": False, "delite": None, "first": None, "a_pick": None,
             "d_pick": None, "row": None, "tasks": [], "e": 0, "owed": {},
             "att_hexes": sorted({state["units"][u]["hex"] for u in units})}
        state["stack"].append(f)
        events.append(Event(f"{SIDE_NAME[top['side']]} attacks {h} with {' '.join(units)} (7.3)"))

    def dropped_types(self, state: State, f: dict[str, Any]) -> tuple[str, ...]:
        """§13 with ``fortification_classes``: a hex the Soviets captured has
        lost its fortification for good; a basic fortification counts (as a
        Major City, in the TEC) only when no attacker comes across an
        unfortified hexside (13.1.1)."""
        if not self.profile.fortification_classes:
            return ()
        h = f["hex"]
        b = self.board(state)
        if b.soviet_ever(h):
            return ("basic_fortification", "advanced_fortification")
        if self.scn.map.fortifications.get(h) == "basic":
            froms = [state["units"][u]["hex"] for u in f["att"] if state["units"][u]["hex"]]
            if any("fortified" not in self.scn.map.side_features(a, h) for a in froms):
                return ("basic_fortification",)
        return ()

    def _crossing(self, state: State, f: dict[str, Any], u: str) -> str | None:
        b = self.board(state)
        return b.river(state["units"][u]["hex"], f["hex"])

    def strengths(self, state: State, f: dict[str, Any]) -> tuple[int, int]:
        """(attack, defense) after every modifier, each rounded once (1.9)."""
        b = self.board(state)
        h = f["hex"]
        spec = self.scn.terrain[f["terrain"] or terrain.best_defense(self.scn, h, state["weather"],
                                                                     self.dropped_types(state, f))]
        dparts = []
        for u in seq_battle.defenders(self, state, f):
            x = state["units"][u]
            value = 1 if x["retreated"] else b.defense(u)      # 7.10.12
            dparts.append(Part(value, (OOS,) if x["oos"] and not b.spec(u).is_hq else ()))
        if f["dside"] == GERMAN and b.haltebefehl(h) == "garrison":
            dparts.append(Part(1))                               # 6.7.8: the 0-1-0 garrison (Q-03: never halved)
        defense = combat.strength(dparts, [spec.defense]) if dparts else 0
        att = seq_battle.attackers(self, state, f)
        mud = state["weather"] == "mud"
        aparts = []
        for u in att:
            fac: tuple[tuple[int, int], ...] = (OOS,) if state["units"][u]["oos"] else ()
            a = state["units"][u]["hex"]
            if mud and b.river(a, h):
                fac += (combat.MUD_BRIDGE,)                      # 3.2.2, R-34
            aparts.append(Part(b.attack(u), fac))
        common = [spec.attack]
        rivers = [b.river(state["units"][u]["hex"], h) for u in att]
        if att and all(rivers) and not mud:              # every attacker crosses (Combat ex. 1); a Major river's
            kind = "major" if set(rivers) == {"major"} else "minor"      # factor only if all cross one
            common.append(self.scn.hexside[f"{kind}_river"].attack)
        attack = combat.strength(aparts, common) if aparts else 0
        return attack, max(defense, 1)

    def battle_column(self, state: State, f: dict[str, Any], shift: int | None = None) -> int | None:
        a, d = self.strengths(state, f)
        s = f["shift"] if shift is None else shift
        return combat.odds(self.scn.crt.ladder, a, d, s)[1]

    def odds_text(self, state: State, f: dict[str, Any]) -> str:
        a, d = self.strengths(state, f)
        col = self.battle_column(state, f)
        return f"{a}:{d} -> " + (self.scn.crt.ladder.label(col) if col is not None else "below 1:2")

    def declare_options(self, state: State, f: dict[str, Any]) -> list[str]:
        att = seq_battle.attackers(self, state, f)
        opts = ["declare none"]
        for u in seq_battle._elite_units(self, state, att):
            opts.append(f"declare elite {u}")
        if sum(1 for u in att if self.scn.units[u].armor) >= 2:
            opts.append("declare armored")
        opts += [f"declare leader {u}" for u in att if u in state["supports"][f["side"]]["attached"]]
        if self.profile.to_rules and self.hourra_refusal(state, f) is None:
            opts.append("declare hourra")
        opts += [f"declare support {h}" for h in state["supports"][f["side"]]["available"]]
        return opts

    def declare(self, state: State, f: dict[str, Any], order: dict[str, Any], events: list[Event]) -> None:
        if order["verb"] != "declare":
            raise IllegalOrder("declare [elite UNIT] [armored] [support HANDLE...] (or declare none)")
        att = seq_battle.attackers(self, state, f)
        if order["elite"] and order["elite"] not in seq_battle._elite_units(self, state, att):
            raise IllegalOrder(f"{order['elite']} is not an Elite division of this attack (7.6.2)")
        if order["armored"] and sum(1 for u in att if self.scn.units[u].armor) < 2:
            raise IllegalOrder("Armored Exploitation needs at least two attacking armored units (7.6.3)")
        if order.get("hourra"):
            why = self.hourra_refusal(state, f)
            if why:
                raise IllegalOrder(why)
            f["hourra"] = True
            events.append(Event(f"Hourra! on {f['hex']} (7.6.4)"))
        shown = self.opened(state, f["side"], order) if order["supports"] else {}
        attached = state["supports"][f["side"]]["attached"]
        leaders = {}
        for u in order.get("leaders") or []:
            if u not in att or u not in attached:
                raise IllegalOrder(f"no leader is attached to an attacking unit {u} (5.4.4)")
            sid, copy = attached[u]
            leaders[f"leader:{u}"] = {"support": sid, "copy": copy, "leader": True}
        for h, v in shown.items():
            why = self.to_label_refusal(state, h, v, f["hex"])
            if why:
                raise IllegalOrder(why)
        shift = self._support_shift(state, {**shown, **leaders})
        f["elite"], f["armored"] = order["elite"], order["armored"]
        f["shift"] = shift + warsaw.shift(self, state, f)          # 19.1.2: +2 against Warsaw in revolt
        if f["shift"] > shift:
            events.append(Event(f"the Warsaw uprising: +{f['shift'] - shift} columns for the Soviet attack (19.1.2)"))
        for key, v in leaders.items():
            events.append(Event(f"{self.scn.supports[v['support']].name}, attached to {key[7:]}, leads the attack "
                                f"(+{self.scn.supports[v['support']].shift}, 5.4.4)"))
        if order["armored"] and f["side"] == GERMAN and sum(
                1 for u in att if self.scn.units[u].armor and self.scn.units[u].kind == "division"
                and self.scn.units[u].nationality == "ger") >= 2:
            approval.change(self, state, 1, events, f"an armored attack on {f['hex']} with Armored Exploitation")
        for h, v in shown.items():
            shift = self.scn.supports[v["support"]].shift
            self.play_support(state, f["side"], h, v, events, why=f"battle {f['hex']}, +{shift}")
        if order["elite"] or order["armored"]:
            events.append(Event("Attacker declares " + " and ".join(
                w for w in (f"Elite ({order['elite']})" if order["elite"] else "",
                            "Armored Exploitation" if order["armored"] else "") if w) + " (7.6)"))
        if self.battle_column(state, f) is None:
            events.append(Event(f"Battle {f['hex']}: the final odds are below 1:2, the combat is cancelled "
                                "(7.5.8, R-33)"))
            f["step"] = "end"
            return
        f["step"] = "react"

    def to_label_refusal(self, state: State, h: str, value: dict[str, Any], where: str) -> str | None:
        """9.2.1: a Support labelled TO is placed within the Operation Range
        of the TO whose box it comes from (Basic: the label is ignored, 5.4.3)."""
        spec = self.scn.supports[value["support"]]
        box = state["supports"][spec.side].get("box", {}).get(h)
        if not (self.profile.advanced_supports and spec.to and box and state.get("tos")):
            return None
        if not tos.within(self, state, box, where):
            return f"{spec.name} is labelled TO: {where} is outside the Operation Range of TO {box} (9.2.1)"
        return None

    def hourra_refusal(self, state: State, f: dict[str, Any]) -> str | None:
        """7.6.4: the Soviet player, in his Combat phase, within a TO's
        Operation Range (R-40: the attacked hex, or every attacker), not in
        Mud, not against an advanced fortification or a Major City in
        Germany."""
        if not self.profile.to_rules:
            return "Hourra! needs the Theaters of Operation (§9), which this scenario does not use (R-13)"
        if f["side"] != SOVIET or f["mode"] != "combat" or f.get("surprise"):
            return "Hourra! is declared by the Soviet player in his Combat phase (7.6.4, Q-09)"
        if state["weather"] == "mud":
            return "no Hourra! in Mud (3.2.2, 7.6.4)"
        m = self.scn.map
        h = f["hex"]
        held = self.profile.fortification_classes and self.board(state).soviet_ever(h)   # §13 intro, R-88
        if not held and (m.fortifications.get(h) == "advanced"
                         or (m.cities.get(h) == "major" and m.country_of(h) == "germany")):
            return "no Hourra! against an advanced fortification or a Major City in Germany (7.6.4)"
        where = [h] if self.profile.hourra_range == "hex" else \
            [state["units"][u]["hex"] for u in seq_battle.attackers(self, state, f)]
        if any(not tos.in_range(self, state, x) for x in where):
            return "Hourra! only within the Operation Range of a TO (7.6.4, R-40)"
        return None

    def _support_shift(self, state: State, shown: dict[str, Any]) -> int:
        """7.5.6 and 5.4.4: the Events' shifts; never two of one name nor two
        leaders in one battle; no airplane Event under an Overcast sky."""
        names, leaders, total = set(), 0, 0
        overcast = not effects(state["weather"], state["sky"]).airplane_events
        for v in shown.values():
            spec = self.scn.supports[v["support"]]
            if spec.kind == "leader" and not v.get("leader"):
                raise IllegalOrder(f"{spec.name} is a leader: attach it to a unit in your Support phase, then "
                                   "declare leader UNIT (5.4.4)")
            if spec.shift <= 0:
                raise IllegalOrder(f"{spec.name} has no Event for a battle (expend it instead)")
            if spec.kind == "airplane" and overcast:
                raise IllegalOrder(f"{spec.name}: no airplane Event under an Overcast sky (5.4.2)")
            base = spec.name.split(" [")[0]                  # T14: Artillery [1]/+2 and [1]/+3 share a name
            if base in names:
                raise IllegalOrder(f"two {base} Supports cannot be combined in one battle (5.4.4)")
            if spec.kind == "leader":
                leaders += 1
                if leaders > 1:
                    raise IllegalOrder("two leaders cannot be combined in one battle (5.4.4)")
            names.add(base)
            total += spec.shift
        return total

    def react_possible(self, state: State, f: dict[str, Any]) -> bool:
        side = f["dside"]
        return bool(state["supports"][side]["available"]) and any(
            s.side == side and s.enemy_turn and s.shift > 0 for s in self.scn.supports.values())

    def react(self, state: State, f: dict[str, Any], order: dict[str, Any], events: list[Event]) -> None:
        shown = self.opened(state, f["dside"], order)
        for v in shown.values():
            if not self.scn.supports[v["support"]].enemy_turn:
                raise IllegalOrder(f"{self.scn.supports[v['support']].name} is not playable in the enemy turn")
        for h, v in shown.items():
            why = self.to_label_refusal(state, h, v, f["hex"])         # 9.2.1 holds in the enemy turn too
            if why:
                raise IllegalOrder(why)
        shift = self._support_shift(state, shown)
        for h, v in shown.items():
            self.play_support(state, f["dside"], h, v, events, why=f"defending {f['hex']}, -{shift} (R-32)")
        f["shift"] -= shift
        f["reacted"] = True
        if self.battle_column(state, f) is None:
            events.append(Event(f"Battle {f['hex']}: below 1:2 now, the combat is cancelled (7.5.8)"))
            f["step"] = "end"

    def romanian_only(self, state: State, f: dict[str, Any]) -> bool:
        ds = seq_battle.defenders(self, state, f)
        return bool(ds) and all(self.scn.units[u].nationality == "rum" for u in ds) and \
            sum(state["units"][u]["steps"] for u in ds) < 3 and state["allies"]["rum"] == GERMAN

    def elite_choices(self, f: dict[str, Any], side: str) -> tuple[str, ...]:
        return combat.elite_choices(self.scn.crt, f["col"], f["roll"], side, self.profile)

    def _rows(self, state: State, f: dict[str, Any]) -> dict[str, dict[str, str]]:
        h = f["hex"]
        row = self.scn.terrain[f["terrain"]].tactical
        att = seq_battle.attackers(self, state, f) or f["att"]
        b = self.board(state)
        rivers = [b.river(state["units"][u]["hex"] or h, h) if state["units"][u]["hex"] else None for u in att]
        out = {"terrain": row}
        if att and all(r == "major" for r in rivers) and state["weather"] != "mud":
            out["river"] = self.scn.hexside["major_river"].tactical
        return out

    def river_row_choice(self, state: State, f: dict[str, Any]) -> bool:
        return len(self._rows(state, f)) > 1

    def tactical_codes(self, state: State, f: dict[str, Any], side: str) -> tuple[str, ...]:
        code = f["a_pick"] if side == ATTACKER else f["d_pick"]
        rows = self._rows(state, f)
        row = rows.get(f["row"] or "terrain", rows["terrain"]) if side == ATTACKER else rows["terrain"]
        no_e = moves.fortress(self.board(state), f["hex"]) in ("advanced", "city")      # 13.2.4, 13.3.1
        return combat.tactical(code, side, terrain_row=row, weather=state["weather"], no_exploit=no_e,
                               isolated_haltebefehl=bool(f.get("isolated")),
                               hourra=bool(f.get("hourra")) and side == ATTACKER)

    def take_losses(self, state: State, f: dict[str, Any], side: str, alloc: dict[str, int], events: list[Event],
                    n: int) -> None:
        b = self.board(state)
        units = seq_battle.attackers(self, state, f) if side == f["side"] else seq_battle.defenders(self, state, f)
        for u, k in alloc.items():
            if u not in units or k < 0 or k > state["units"][u]["steps"]:
                raise IllegalOrder(f"loss: {u} cannot take {k} step(s) here")
        total = sum(state["units"][u]["steps"] for u in units)
        owed = max(0, n - total)
        if owed and side == f["dside"] == GERMAN and b.haltebefehl(f["hex"]) == "garrison":
            del state["haltebefehl"][f["hex"]]               # 6.7.8: the garrison's step, once nothing else is left
            owed -= 1
            events.append(Event(f"the Haltebefehl garrison of {f['hex']} takes a step and is removed (6.7.8)"))
        if sum(alloc.values()) != min(n, total):
            raise IllegalOrder(f"allocate exactly {min(n, total)} step loss(es)")
        lost = []
        for u, k in sorted(alloc.items()):
            if not k:
                continue
            x = state["units"][u]
            x["steps"] -= k
            lost.append(f"{u} -{k}")
            if x["steps"] <= 0:
                spec = b.spec(u)
                hexh, oos = x["hex"], x["oos"]
                self.eliminate(state, u, events)
                if side == GERMAN and spec.elite and spec.kind == "division" and spec.nationality == "ger" \
                        and self._kg_left(state, spec.arm):                  # 7.15.1, R-403: German divisions only
                    state["stack"].append({"k": "kg", "uid": u, "arm": spec.arm, "hex": hexh, "oos": oos,
                                           "owed": owed, "handle": None})
                    owed = 0
        if lost:
            events.append(Event(f"{SIDE_NAME[side]} losses: {', '.join(lost)}"))

    def _kg_left(self, state: State, arm: str) -> bool:
        return any(self.scn.kg[k].arm == arm for k in state["kg_pool"])

    def kg_order(self, state: State, top: dict[str, Any], d: Decision, order: dict[str, Any], rng: Any,
                 events: list[Event]) -> None:
        if d.kind == "kg-reveal":
            if order["verb"] != "reveal":
                raise IllegalOrder("the KG drawn is shown by the German program")
            shown = self.opened(state, GERMAN, order)
            if list(shown) != [top["handle"]]:
                raise IllegalOrder(f"show the KG under {top['handle']}")
            kid = shown[top["handle"]]["kg"]
            del state["kg_sealed"][top["handle"]]
            mine = state["hidden"].get(GERMAN)
            if mine is not None:
                mine["items"].pop(top["handle"], None)
            self._place_kg(state, top, kid, events)
            return
        if order["verb"] != "kg":
            raise IllegalOrder("kg yes or kg no")
        if not order["take"]:
            self.pop(state, top)
            return
        if top["arm"] == "infantry":
            kid = next(k for k in state["kg_pool"] if self.scn.kg[k].arm == "infantry")
            self._place_kg(state, top, kid, events)
            return
        h = f"kg-{state['kg_next']}"
        state["kg_next"] += 1
        state["kg_sealed"][h] = GERMAN
        srng = rng.secret(GERMAN)                        # 7.15.1: drawn at random, in secret until shown
        mine = state["hidden"].get(GERMAN)
        if srng is not None and mine is not None:
            pool = [k for k in state["kg_pool"] if self.scn.kg[k].arm == "armor"]
            mine["items"][h] = {"kg": pool[srng.draw(pool, "armored KG draw (7.15.1)")], "turn": state["turn"]}
        top["handle"] = h

    def _place_kg(self, state: State, top: dict[str, Any], kid: str, events: list[Event]) -> None:
        state["kg_pool"].remove(kid)
        self.pop(state, top)
        if self.scn.kg[kid].hiwis:
            events.append(Event("The KG drawn is the Hiwis: no Kampfgruppe (7.15.1); it leaves play"))
            return
        x = state["units"][kid]
        x.update(hex=top["hex"], box=None, steps=self.scn.units[kid].steps, oos=top["oos"])
        battle = self.top(state)
        if battle is not None and battle.get("k") == "battle" and top["uid"] in battle["att"]:
            battle["att"].append(kid)                    # 7.15.1: it takes the attacker's place (7.1.9)
            x["attacked"] = True
        owed = min(top["owed"], x["steps"])
        events.append(Event(f"{kid} replaces {top['uid']} in {top['hex']} (7.15)"
                            + (f"; it takes the {owed} loss(es) still owed" if owed else "")))
        if owed:
            x["steps"] -= owed
            if x["steps"] <= 0:
                self.eliminate(state, kid, events)

    def retreat_paths(self, state: State, f: dict[str, Any], uid: str, n: int) -> list[list[str]]:
        b = self.board(state)
        attacked = f["hex"] if b.side_of(uid) == f["side"] else None

        def closed(h: str) -> bool:
            return h == attacked                         # an attacker's retreat never enters the hex it attacked

        if b.side_of(uid) == GERMAN:
            found = [h for h in state["haltebefehl"] if haltebefehl.isolated(b, h)]
            if found:
                return losses.retreat_options(b, uid, n, closed, stop=lambda h: h in found)      # 6.7.7
        return losses.retreat_options(b, uid, n, closed)

    def retreat(self, state: State, f: dict[str, Any], uid: str, path: list[str], events: list[Event],
                n: int | None = None) -> None:
        if path not in self.retreat_paths(state, f, uid, n or len(path)):
            raise IllegalOrder(f"retreat {uid}: not one of the legal paths (7.10)")
        state["units"][uid]["hex"] = path[-1]
        state["units"][uid]["retreated"] = True
        f.setdefault("retreaters", []).append(uid)
        events.append(Event(f"{uid} retreats {' '.join(path)} (7.10)"))
        b = self.board(state)
        side = b.side_of(uid)
        here = [b.spec(u) for u in b.units_at(path[-1]) if b.side_of(u) == side]
        if side == GERMAN and haltebefehl.isolated(b, path[-1]) and stacking.problems(here, side, self.profile):
            events.append(Event(f"{path[-1]}: the retreat stops under an isolated Haltebefehl; the German player "
                                "eliminates units at once (6.7.7)"))
            state["stack"].append({"k": "overstack", "side": side, "hex": path[-1]})

    def romanian_rout(self, state: State, f: dict[str, Any], events: list[Event]) -> bool:
        """7.12.2: Romanians under a DR2/DR3 before terrain are eliminated;
        with a German division in the hex all but one (German's pick)."""
        f["romanian_done"] = True
        ds = seq_battle.defenders(self, state, f)
        rum = [u for u in ds if self.scn.units[u].nationality == "rum" and state["allies"]["rum"] == GERMAN]
        if not rum:
            return False
        german = any(self.scn.units[u].nationality == "ger" and self.scn.units[u].kind == "division" for u in ds)
        if not german:
            for u in rum:
                self.eliminate(state, u, events, why="Romanian rout on DR2/DR3 (7.12.2)")
            return False
        if len(rum) > 1:
            state["stack"].append({"k": "survivor", "units": rum})
            return True
        return False

    def defender_advance_options(self, state: State, f: dict[str, Any]) -> list[str]:
        """7.13.1, R-47: when every attacking hex is empty, surviving
        defenders with MP may advance into one of them."""
        b = self.board(state)
        start = f["att_hexes"]
        if any(b.enemy_occupied(h, f["dside"]) for h in start):
            return []
        out = []
        for u in seq_battle.defenders(self, state, f):
            if b.spec(u).is_hq or b.move(u) <= 0:
                continue
            out += [f"advance {u} {h}" for h in start]
        return out

    def attacker_advance_options(self, state: State, f: dict[str, Any]) -> list[str]:
        b = self.board(state)
        if b.units_at(f["hex"]):
            return []
        if f["side"] == SOVIET and moves.fortress(b, f["hex"]) in ("advanced", "city") and f.get("d_pick") and \
                not set(self.tactical_codes(state, f, DEFENDER)) & {"S", "DR", "DR2", "DR3"}:
            return []                                    # 13.2.5, 13.3.2, R-43
        gone = set(f.get("retreaters", ()))                  # a unit that retreated has left its hex
        att = [u for u in seq_battle.attackers(self, state, f) if b.move(u) > 0 and u not in gone]
        return [f"advance {u}" for u in att]

    def advance(self, state: State, f: dict[str, Any], order: dict[str, Any], d: Decision, events: list[Event],
                defender: bool) -> None:
        b = self.board(state)
        if order["verb"] != "advance":
            raise IllegalOrder("advance UNIT..., or pass")
        if defender:                                     # 7.13.1: several units, one order a hex
            units, h = order["units"], order.get("hex")
            if not h or any(f"advance {x} {h}" not in d.options for x in units):
                raise IllegalOrder("advance defending units into an emptied attacking hex (advance UNIT... HEX), "
                                   "or pass")
            why = stacking.problems([b.spec(x) for x in b.units_at(h) + units], f["dside"], self.profile,
                                    bridgehead=h in state["bridgeheads"])
            if why:
                raise IllegalOrder(f"{h}: {why[0]} (7.13.1)")
            for x in units:
                state["units"][x]["hex"] = h
            events.append(Event(f"{' '.join(units)} advance into {h} (7.13.1)"))
            return
        if order.get("hex"):
            raise IllegalOrder("the attacker advances into the attacked hex: advance UNIT...")
        allowed = {o.split()[1] for o in d.options if o.startswith("advance ")}
        units = order["units"]
        if not units or any(u not in allowed for u in units) or len(set(units)) != len(units):
            raise IllegalOrder(f"advance some of: {' '.join(sorted(allowed))}")
        here = [b.spec(u) for u in units]
        why = stacking.problems(here, f["side"], self.profile)
        if why:
            raise IllegalOrder(f"{f['hex']}: {why[0]} (7.13.2)")
        for u in units:
            state["units"][u]["hex"] = f["hex"]
        events.append(Event(f"{' '.join(units)} advance into {f['hex']} (7.13.2)"))
        f["aadv_done"] = True

    def exploit_options(self, state: State, f: dict[str, Any]) -> list[str]:
        att = [u for u in seq_battle.attackers(self, state, f) if self.scn.units[u].kind != "hq"]
        if not att:
            return []
        return ["exploit " + " ".join(_fit(self, f, att))]

    def mark_exploit(self, state: State, f: dict[str, Any], order: dict[str, Any], d: Decision,
                     events: list[Event]) -> None:
        if order["verb"] != "exploit":
            raise IllegalOrder("exploit UNIT..., or pass")
        units = order["units"]
        att = seq_battle.attackers(self, state, f)
        if any(u not in att for u in units) or len(set(units)) != len(units):
            raise IllegalOrder("Exploitation markers go on units that took part in the battle (7.14.1)")
        half = bool(f["armored"] or f.get("hourra"))                 # 7.14.3
        arm = sum(1 for u in units if self.scn.units[u].armor)
        if not combat.exploitation_fits(f["e"], arm, len(units) - arm, half):
            raise IllegalOrder(f"E{f['e']} does not allow that many Exploitation markers (7.14.2-7.14.3)")
        for u in units:
            state["units"][u]["exploit"] = True
        events.append(Event(f"Exploitation markers: {' '.join(units)} (7.14)"))
        f["exp_done"] = True


def r_fmt(order: dict[str, Any]) -> str:
    return orders.format(order)


def _fit(r: VrRules, f: dict[str, Any], att: list[str]) -> list[str]:
    """The most attackers an E result marks: armor first under Armored
    Exploitation (it counts half), else the strongest."""
    half = bool(f["armored"] or f.get("hourra"))
    ranked = sorted(att, key=lambda u: (not r.scn.units[u].armor, -r.scn.units[u].attack, u))
    out: list[str] = []
    for u in ranked:
        trial = out + [u]
        arm = sum(1 for x in trial if r.scn.units[x].armor)
        if combat.exploitation_fits(f["e"], arm, len(trial) - arm, half):
            out = trial
    return out


# ---------------------------------------------------------------- shapes
DEFAULTS: dict[str, dict[str, Any]] = {
    "declare": {"elite": None, "armored": False, "supports": []},
    "elite": {"unit": None}, "s": {"unit": None}, "advance": {"hex": None},
}
_LISTS = {"units": "unit", "path": "hex", "supports": "handle", "handles": "handle", "open": "handle",
          "leaders": "unit"}


def check_shape(order: Any, scn: Scenario) -> None:
    """Refuse a malformed order (from a file) in one line before any rule
    reads it."""
    if not isinstance(order, dict) or not isinstance(order.get("verb"), str):
        raise IllegalOrder("an order is a table with a verb")
    if not order["verb"].isprintable() or not order["verb"].strip():
        # a refusal is one line: a verb that is not one printable word is named by its repr
        raise IllegalOrder(f"unknown order {order['verb']!r}")
    for key, kind in _LISTS.items():
        if key in order and key not in ("open",):
            v = order[key]
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                raise IllegalOrder(f"{order['verb']}: {key} must be a list of names")
            if kind == "unit" and any(x not in scn.units for x in v):
                raise IllegalOrder(f"{order['verb']}: unknown unit in {v}")
            if kind == "hex" and any(not orders.HEX.match(x) for x in v):
                raise IllegalOrder(f"{order['verb']}: {v} are not hexes")
            if kind == "unit" and len(set(v)) != len(v):
                raise IllegalOrder(f"{order['verb']}: a unit named twice")
    for key in ("unit", "elite", "first"):
        if order.get(key) is not None and (not isinstance(order[key], str) or order[key] not in scn.units):
            raise IllegalOrder(f"{order['verb']}: unknown unit {order[key]!r}")
    if "steps" in order:
        st = order["steps"]
        if not isinstance(st, dict) or not all(isinstance(k, str) and k in scn.units and isinstance(n, int)
                                               and not isinstance(n, bool) for k, n in st.items()):
            raise IllegalOrder(f"{order['verb']}: steps must map units to numbers")
    if "hex" in order and (not isinstance(order["hex"], str) or not orders.HEX.match(order["hex"])):
        raise IllegalOrder(f"{order['verb']}: {order['hex']!r} is not a hex")
    if order["verb"] == "move" and order.get("mode") not in moves.MODES[:4]:
        raise IllegalOrder("move: mode must be normal, strategic, rail or naval")
    if order["verb"] == "move" and (not order.get("units") or not order.get("path")):
        raise IllegalOrder("move: units and a path")
    if order["verb"] == "attack" and (not order.get("units") or not isinstance(order.get("hex"), str)):
        raise IllegalOrder("attack: a hex and its attackers")
    for key in ("code", "terrain", "row", "choice", "support"):
        if key in order and order[key] is not None and not isinstance(order[key], str):
            raise IllegalOrder(f"{order['verb']}: {key} must be a word")
    for key in ("armored", "take", "hourra", "corps"):
        if key in order and not isinstance(order[key], bool):
            raise IllegalOrder(f"{order['verb']}: {key} must be true or false")
    for key in ("to", "secondary"):
        if key in order and order[key] not in TOS:
            raise IllegalOrder(f"{order['verb']}: {order[key]!r} is not a TO")
    if order["verb"] == "appeal":
        ap = order.get("appeals")
        if not isinstance(ap, list) or not all(isinstance(p, list) and len(p) == 2 and p[0] in TOS
                                               and p[1] in ("reserve", "move") for p in ap):
            raise IllegalOrder("appeal: a list of [TO, reserve|move]")
    if order["verb"] in ("priority", "pick") and "secret" in order:
        sec = order["secret"]
        if not isinstance(sec, dict) or set(sec) != {"pick"} or not isinstance(sec["pick"], str):
            raise IllegalOrder(f"{order['verb']}: the sealed pick is malformed")
    if order["verb"] == "s" and order.get("choice") not in ("loss", "retreat"):
        raise IllegalOrder("s: choice is loss or retreat")
