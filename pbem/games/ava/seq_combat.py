"""The Combat Segment (AVA 10 / FFS 10) of an activation and the Surprise
Attack's (15.1), as frames: ``combat`` (declarations; in AVA every attack
is declared before the first roll and then resolved in the attacker's
order, 10.2; in FFS one at a time) and ``battle`` (one combat: roll, the
fortress conversion, attacker then defender step losses, retreats unit by
unit, advance after combat).

Who decides: the attacker declares, takes an ``A#`` loss and advances; the
DEFENDER allocates its step losses, converts a fortress retreat (FFS) and
chooses each retreat among the routes the rules leave open.  Each of those
has a standing order (``losses``, ``fortress``, ``retreat``, ``advance``).
Eligibility, odds, results, loss options, retreat routes and advance paths
are the combat, retreat and advance modules'.
"""
from __future__ import annotations

from typing import Any

from pbem.game import Decision, Event, IllegalOrder, Rng, State
from pbem.games.ava.model import SIDE_NAME, enemy_of
from pbem.games.ava.seqbase import SeqBase


class CombatMixin(SeqBase):
    """Declarations, battles, losses, retreats and advances."""

    # ----------------------------------------------------- declarations
    def ready_attackers(self, state: State) -> list[str]:
        b = self.board(state)
        return [u for u in b.on_map(state["active"]) if state["units"][u]["active"]
                and not state["units"][u]["attacked"] and state["units"][u].get("reserve_attack") != "none"]

    def attack_options(self, state: State, surprise: bool) -> list[str]:
        """Every target with all the ready adjacent units that may join."""
        b = self.board(state)
        side = state["active"]
        targets: dict[str, list[str]] = {}
        for u in self.ready_attackers(state):
            for n in b.map.neighbors(b.unit(u)["hex"]):
                if n not in state["attacked_hexes"] and b.enemy_occupied(n, side):
                    targets.setdefault(n, []).append(u)
        out = []
        for h, us in sorted(targets.items()):
            fit = [u for u in us if self._attack_refusal(b, [u], h, surprise) is None]
            if fit and self._attack_refusal(b, fit, h, surprise, self.halved(state, fit)) is None:
                out.append(f"attack {h} with " + " ".join(self.short(u) for u in fit))
        return out

    @staticmethod
    def halved(state: State, attackers: list[str]) -> list[str]:
        """AVA 17.2: Reserve units outside every HQ's range attack at half."""
        return [u for u in attackers if state["units"][u].get("reserve_attack") == "half"]

    @staticmethod
    def _attack_refusal(b: Any, units: list[str], h: str, surprise: bool,
                        halved: list[str] | None = None) -> str | None:
        """Eligibility; with ``halved`` (the whole attack is known) the odds
        too, refused below the first column by profile (FFS 10.3.4)."""
        from pbem.games.ava import combat
        try:
            combat.check_attack(b, units, h, surprise=surprise)
            if halved is not None:
                combat.check_odds(b, units, h, surprise=surprise, halved=halved)
        except IllegalOrder as exc:
            return str(exc)
        return None

    def _auto_combat(self, state: State, top: dict[str, Any], rng: Rng, events: list[Event]) -> bool:
        if top["stage"] == "declare":
            return False
        left = top["declared"]
        if not left:
            self._end_combat(state, top, events)
            return True
        if len(left) > 1:
            return False
        self._start_battle(state, top, left.pop(0), events)
        return True

    def _end_combat(self, state: State, top: dict[str, Any], events: list[Event]) -> None:
        self.pop(state, top)
        self.clear_activation(state)
        self.award_vp(state, False, events)
        if top.get("surprise"):
            state["phase"] = "selection"
        events.append(Event("End of combat"))

    def _ask_combat(self, state: State, top: dict[str, Any]) -> Decision:
        side = state["active"]
        seat = self.seat_of(side)
        if top["stage"] == "resolve":
            # Plannable: 10.2, every attack is declared before the first
            # roll, then resolved in the attacker's order: he may give that
            # order at once.  Never forced: the last attack left starts by
            # itself (_auto_combat).
            return Decision(seat, "resolve", "resolve which declared attack next? (10.2)",
                            tuple(f"resolve {a['hex']}" for a in top["declared"]), plannable=True)
        what = "Surprise Attack" if top.get("surprise") else f"{SIDE_NAME[side]} Combat Segment"
        first = self.profile.declare_all_attacks_first
        how = "declare every attack, then end-combat to resolve them (10.2)" if first else "attack one hex at a time"
        declared = "; declared: " + ", ".join(a["hex"] for a in top["declared"]) if top["declared"] else ""
        attacks = self.attack_options(state, bool(top.get("surprise")))
        # Forced when no attack is legal (from the public state: units,
        # activation, hexes attacked): end-combat is the one answer.
        # Plannable where each attack is resolved as it is made (FFS 10:
        # one at a time, in the attacker's order); AVA declares without
        # dice and plans the resolution order instead.
        return Decision(seat, "combat", f"{what}: {how}{declared}", tuple(attacks + ["end-combat"]),
                        hint="odds HEX with UNIT ... shows the column", forced=not attacks, plannable=not first)

    def _do_combat(self, state: State, top: dict[str, Any], d: Decision, order: dict[str, Any], rng: Rng,
                   events: list[Event]) -> None:
        verb = order["verb"]
        if top["stage"] == "resolve":
            if verb != "resolve":
                raise IllegalOrder("answer resolve HEX (a declared attack)")
            hit = [a for a in top["declared"] if a["hex"] == order["hex"]]
            if not hit:
                raise IllegalOrder(f"no attack on {order['hex']} was declared")
            top["declared"].remove(hit[0])
            self._start_battle(state, top, hit[0], events)
            return
        if verb in ("end-combat", "pass", "done"):
            if self.profile.declare_all_attacks_first and top["declared"]:
                top["stage"] = "resolve"
                events.append(Event(f"{len(top['declared'])} attack(s) declared"))
            else:
                self._end_combat(state, top, events)
            return
        if verb != "attack":
            raise IllegalOrder("expected attack HEX with UNIT ... or end-combat")
        attack = {"hex": order["hex"], "units": list(order["units"])}
        why = self.attack_refusal(state, attack, bool(top.get("surprise")))
        if why:
            raise IllegalOrder(why)
        for u in attack["units"]:
            state["units"][u]["attacked"] = True
        state["attacked_hexes"].append(attack["hex"])
        events.append(Event(f"Attack on {attack['hex']} by {', '.join(self.name(u) for u in attack['units'])}"))
        if self.profile.declare_all_attacks_first:
            top["declared"].append(attack)
        else:
            self._start_battle(state, top, attack, events)

    def attack_refusal(self, state: State, attack: dict[str, Any], surprise: bool) -> str | None:
        """Why the active player may not attack as ``attack`` says now; the
        one check the order and the ``odds`` question share."""
        for u in attack["units"]:
            x = state["units"][u]
            if self.side_of(u) != state["active"] or not x["hex"]:
                return f"{self.name(u)} is not one of your units on the map"
            if not x["active"]:
                return f"{self.name(u)} is not activated"
            if x["attacked"]:
                return f"{self.name(u)} has already attacked this segment (10.1)"
            if x.get("reserve_attack") == "none":
                return f"{self.name(u)} was activated by the Reserve outside any HQ's range: it may not attack (16.2)"
        return self._attack_refusal(self.board(state), attack["units"], attack["hex"], surprise,
                                    self.halved(state, attack["units"]))

    def _start_battle(self, state: State, top: dict[str, Any], attack: dict[str, Any], events: list[Event]) -> None:
        self.push(state, "battle", hex=attack["hex"], attackers=attack["units"], side=state["active"],
                  surprise=bool(top.get("surprise")), stage="roll", res=None, defenders=[], advanced=[])

    # ----------------------------------------------------- one battle
    def _auto_battle(self, state: State, f: dict[str, Any], rng: Rng, events: list[Event]) -> bool:
        stage = f["stage"]
        if stage == "roll":
            self._roll(state, f, rng, events)
            return True
        if stage == "convert":
            return False
        if stage in ("aloss", "dloss"):
            return self._auto_losses(state, f, events)
        if stage == "retreat":
            return self._auto_retreat(state, f, events)
        if stage == "advance":
            if self._advance_options(state, f):
                return False
            f["stage"] = "done"
            return True
        self.pop(state, f)
        return True

    def _roll(self, state: State, f: dict[str, Any], rng: Rng, events: list[Event]) -> None:
        from pbem.games.ava import combat
        b = self.board(state)
        h = f["hex"]
        f["defenders"] = sorted(b.units_at(h))
        attackers = [u for u in f["attackers"] if state["units"][u]["hex"]]
        if not f["defenders"] and not b.fortress(h):
            events.append(Event(f"{h} is empty now: the attack is off"))
            f["stage"] = "done"
            return
        o = combat.odds(b, attackers, h, surprise=f["surprise"], halved=self.halved(state, attackers))
        if o.column is None:
            events.append(Event(f"Attack on {h}: {'; '.join(o.notes)} (10.3)"))
            f["stage"] = "done"
            return
        roll = rng.roll(6, f"combat {h}, {SIDE_NAME[f['side']]} d6")
        res = combat.result(self.scn, o.column, roll)
        events.append(Event(f"Attack on {h} at {o.label}: d6 {roll} -> {self.scn.crt.rows[roll][o.column]}",
                            {"hex": h, "column": o.label, "roll": roll, "result": str(res)}))
        f["res"] = {"a": res.attacker_steps, "d": res.defender_steps, "r": res.retreat}
        f["stage"] = "aloss"
        if b.fortress(h) and res.retreat:
            if combat.conversion_choice_needed(self.profile, res, b.fortress(h)):
                f["stage"] = "convert"
            else:
                self._convert(state, f, None, events)

    def _convert(self, state: State, f: dict[str, Any], choice: bool | None, events: list[Event]) -> None:
        from pbem.board.odds import Result
        from pbem.games.ava import combat
        r = f["res"]
        res = combat.convert_for_fortress(Result(r["a"], r["d"], r["r"]), self.board(state).fortress(f["hex"]),
                                          self.profile, choice)
        if res.retreat != r["r"]:
            events.append(Event(f"The fortress in {f['hex']} converts the retreat: {res.defender_steps} step(s), "
                                "no retreat (14.2)"))
        f["res"] = {"a": res.attacker_steps, "d": res.defender_steps, "r": res.retreat}
        f["stage"] = "aloss"

    # ----------------------------------------------------- step losses (10.5)
    def _loss_pool(self, state: State, f: dict[str, Any]) -> tuple[list[str], int, str | None]:
        """Who takes the loss of the current stage, how many steps, and the
        fortress hex whose steps may take part (the defender's)."""
        b = self.board(state)
        if f["stage"] == "aloss":
            return [u for u in f["attackers"] if state["units"][u]["hex"]], f["res"]["a"], None
        here = sorted(b.units_at(f["hex"]))
        # FFS 14.3.2 (#47, option fortress_takes_combat_losses): a lone fortress takes them whatever the option
        takes = bool(self.options.get("fortress_takes_combat_losses", True)) or not here
        return here, f["res"]["d"], f["hex"] if b.fortress(f["hex"]) and takes else None

    def loss_choices(self, state: State, f: dict[str, Any]) -> list[dict[str, int]]:
        from pbem.games.ava import combat
        uids, n, fort = self._loss_pool(state, f)
        if n <= 0:
            return []
        return combat.loss_options(self.board(state), uids, n, fortress_hex=fort)

    def _auto_losses(self, state: State, f: dict[str, Any], events: list[Event]) -> bool:
        opts = self.loss_choices(state, f)
        if len(opts) > 1:
            return False
        if opts:
            self._take_losses(state, f, opts[0], events)
        self._next_after_losses(f)
        return True

    def _next_after_losses(self, f: dict[str, Any]) -> None:
        f["stage"] = "dloss" if f["stage"] == "aloss" else "retreat"

    def _take_losses(self, state: State, f: dict[str, Any], alloc: dict[str, int], events: list[Event]) -> None:
        _, _, fort = self._loss_pool(state, f)
        self.lose_steps(state, alloc, "combat", events, fortress_hex=fort)

    def lose_steps(self, state: State, alloc: dict[str, int], cause: str, events: list[Event], *,
                   fortress_hex: str | None = None) -> None:
        """Apply an allocation (combat's apply_losses) and note the Axis
        eliminations victory counts (FFS 15.5(5))."""
        from pbem.games.ava import combat, victory
        b = self.board(state)
        dying = [u for u, n in sorted(alloc.items()) if u in state["units"] and n >= state["units"][u]["steps"]]
        for line in combat.apply_losses(b, alloc, fortress_hex=fortress_hex, cause=cause):
            events.append(Event(line))
        for u in dying:
            victory.note_loss(state, self.scn, u)

    # ----------------------------------------------------- retreats (10.6)
    def retreat_choices(self, state: State, f: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
        """Each defender still in the hex -> its routes (empty: eliminated)."""
        from pbem.games.ava import retreat
        b = self.board(state)
        here = [u for u in sorted(b.units_at(f["hex"])) if u in f["defenders"]]
        if not here:
            return {}
        lines = self.lines(state, self.side_of(here[0]))
        return dict(retreat.options(b, here, f["res"]["r"], loc_distance=lines.get, surprise=f["surprise"]).paths)

    def _auto_retreat(self, state: State, f: dict[str, Any], events: list[Event]) -> bool:
        if f["res"]["r"] <= 0:
            f["stage"] = "advance"
            return True
        choices = self.retreat_choices(state, f)
        if not choices:
            f["stage"] = "advance"
            return True
        doomed = [u for u, p in choices.items() if not p]
        if doomed:      # 10.6(7): no route, or every route costs all its steps
            events.append(Event(f"{', '.join(self.name(u) for u in doomed)} cannot retreat (10.6)"))
            self.lose_steps(state, {u: state["units"][u]["steps"] for u in doomed}, "combat", events)
            return True
        if all(len(p) == 1 for p in choices.values()):
            uid = min(choices)
            self._retreat_unit(state, f, uid, choices[uid][0], events)
            return True
        return False

    def retreat_menu(self, state: State, f: dict[str, Any]) -> list[str]:
        """One option per unit and route; a unit with one route first."""
        out = []
        for u, paths in sorted(self.retreat_choices(state, f).items(), key=lambda kv: (len(kv[1]), kv[0])):
            for p in paths:
                out.append(f"retreat {self.short(u)} " + " ".join(p.hexes))
        return out

    def _retreat_unit(self, state: State, f: dict[str, Any], uid: str, path: Any, events: list[Event]) -> None:
        name = self.name(uid)
        events.append(Event(f"{name} retreats {' '.join(path.hexes)}"
                            + (f", losing {path.steps} step(s) in enemy ZOC" if path.steps else "")))
        self.move_along(state, uid, list(path.hexes))
        state["units"][uid]["retreated"] = True
        f["defenders"].remove(uid)
        if path.steps:
            self.lose_steps(state, {uid: path.steps}, "combat", events)

    # ----------------------------------------------------- advance (10.7)
    def vacated(self, state: State, f: dict[str, Any]) -> bool:
        b = self.board(state)
        return not b.units_at(f["hex"]) and not b.fortress(f["hex"])

    def _advance_options(self, state: State, f: dict[str, Any]) -> dict[str, list[list[str]]]:
        from pbem.games.ava import advance
        if not self.vacated(state, f) and not f["advanced"]:
            return {}
        b = self.board(state)
        out = {}
        for u in f["attackers"]:
            if u in f["advanced"] or not state["units"][u]["hex"]:
                continue
            paths = advance.options(b, u, f["hex"], surprise=f["surprise"])
            if paths:
                out[u] = paths
        return out

    # ----------------------------------------------------- battle decisions
    def _ask_battle(self, state: State, f: dict[str, Any]) -> Decision:
        stage = f["stage"]
        att, dfn = self.seat_of(f["side"]), self.seat_of(enemy_of(f["side"]))
        if stage == "convert":
            return Decision(dfn, "convert", f"the fortress in {f['hex']}: take {f['res']['r']} step loss(es) "
                            "instead of retreating? (14.2.5)", ("convert yes", "convert no"), policy="fortress")
        if stage in ("aloss", "dloss"):
            who = att if stage == "aloss" else dfn
            n = f["res"]["a"] if stage == "aloss" else f["res"]["d"]
            from pbem.games.ava import orders
            return Decision(who, "loss", f"{'attacker' if stage == 'aloss' else 'defender'} at {f['hex']} loses "
                            f"{n} step(s) (10.5)",
                            tuple(orders.format_loss(self.scn, o) for o in self.loss_choices(state, f)),
                            policy="losses")
        if stage == "retreat":
            return Decision(dfn, "retreat", f"retreat {f['res']['r']} hex(es) from {f['hex']}, unit by unit (10.6)",
                            tuple(self.retreat_menu(state, f)), policy="retreat")
        moves = ["pass"] + [f"advance {self.short(u)} {' '.join(p)}"
                            for u, ps in sorted(self._advance_options(state, f).items()) for p in ps]
        return Decision(att, "advance", f"advance after combat into {f['hex']} (10.7)", tuple(moves),
                        policy="advance")

    def _do_battle(self, state: State, f: dict[str, Any], d: Decision, order: dict[str, Any], rng: Rng,
                   events: list[Event]) -> None:
        stage, verb = f["stage"], order["verb"]
        if stage == "convert":
            if verb != "convert":
                raise IllegalOrder("answer convert yes or convert no")
            self._convert(state, f, bool(order["yes"]), events)
        elif stage in ("aloss", "dloss"):
            self._do_loss(state, f, order, events)
        elif stage == "retreat":
            self._do_retreat(state, f, order, events)
        else:
            self._do_advance(state, f, order, events)

    def _do_loss(self, state: State, f: dict[str, Any], order: dict[str, Any], events: list[Event]) -> None:
        from pbem.games.ava import combat
        if order["verb"] != "loss":
            raise IllegalOrder("answer loss UNIT N ... (the steps each unit loses)")
        uids, n, fort = self._loss_pool(state, f)
        alloc = {u: int(k) for u, k in order["steps"].items() if int(k)}
        combat.check_losses(self.board(state), uids, n, alloc, fortress_hex=fort)
        self._take_losses(state, f, alloc, events)
        self._next_after_losses(f)

    def _do_retreat(self, state: State, f: dict[str, Any], order: dict[str, Any], events: list[Event]) -> None:
        from pbem.games.ava import retreat
        if order["verb"] != "retreat":
            raise IllegalOrder("answer retreat UNIT HEX ... (the route, start excluded)")
        choices = self.retreat_choices(state, f)
        uid = order.get("unit")
        if uid is None:
            movable = [u for u, p in choices.items() if p]
            if len(movable) != 1:
                raise IllegalOrder("name the unit that retreats (retreat UNIT HEX ...): the stack may split")
            uid = movable[0]
        if uid not in choices:
            raise IllegalOrder(f"{self.name(uid)} is not retreating from {f['hex']}")
        b = self.board(state)
        lines = self.lines(state, self.side_of(uid))
        path = retreat.check_path(b, uid, list(order["path"]), f["res"]["r"], loc_distance=lines.get,
                                  surprise=f["surprise"])
        self._retreat_unit(state, f, uid, path, events)

    def _do_advance(self, state: State, f: dict[str, Any], order: dict[str, Any], events: list[Event]) -> None:
        from pbem.games.ava import advance
        verb = order["verb"]
        if verb in ("pass", "done"):
            f["stage"] = "done"
            return
        if verb != "advance":
            raise IllegalOrder("answer advance UNIT HEX [HEX] or pass")
        uid = order["unit"]
        if uid not in f["attackers"] or uid in f["advanced"] or not state["units"][uid]["hex"]:
            raise IllegalOrder(f"{self.name(uid)} did not attack {f['hex']} or has already advanced")
        if not self.vacated(state, f) and not f["advanced"]:
            raise IllegalOrder(f"{f['hex']} was not vacated: no advance (10.7)")
        advance.check(self.board(state), uid, f["hex"], list(order["path"]), surprise=f["surprise"])
        f["advanced"].append(uid)
        self.move_along(state, uid, list(order["path"]))
        events.append(Event(f"{self.name(uid)} advances {' '.join(order['path'])}"))
