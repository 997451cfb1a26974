"""The Supply Check chit (AVA 11, 14.1, 16.2, 16.4, 18.2; FFS 11, 15.3(2),
15.5, 15.6), as the ``supply`` frame's stages:

1. ``start``: units without an LOC lose a step (AVA: the Soviet first,
   then the Axis on the board the Soviet losses leave; FFS: both at once);
   the Axis is exempt before the scenario's first Axis supply turn;
2. ``withdraw``: the Axis may send units with an LOC to the Available Box
   (11.2; FFS: not in enemy ZOC); ``transfer_axis``, ``transfer_soviet``:
   FFS 16.3 (option hq_transfer, notes #60): each side may send HQs with an
   LOC, not in enemy ZOC, to the next turn;
3. ``smolensk``: the scenario's withdrawal of mechanized attack strength
   (AVA 18.2 / FFS 15.3(2));
4. ``fortress``: Soviet fortress steps (14.1);
5. ``standfast``: the Soviet may remove a Stand Fast marker (16.2);
6. ``end``: the game ends after the last turn's Supply Check (16.4).

Each choice is a decision of its owner with a standing order; what is
legal is the reinforce, fortress and victory modules'.
"""
from __future__ import annotations

from typing import Any

from pbem.game import Decision, Event, IllegalOrder, Rng, State
from pbem.games.ava.model import AXIS, SIDE_NAME, SIDES, SOVIET
from pbem.games.ava.seqbase import SeqBase

STAGES = ("start", "withdraw", "transfer_axis", "transfer_soviet", "smolensk", "fortress", "standfast", "end")
TRANSFER = {"transfer_axis": AXIS, "transfer_soviet": SOVIET}


class SupplyMixin(SeqBase):
    """The Supply Check."""

    def _auto_supply(self, state: State, top: dict[str, Any], rng: Rng, events: list[Event]) -> bool:
        stage = top["stage"]
        if stage == "start":
            self._supply_losses(state, events)
        elif stage == "end":
            self._end_of_check(state, top, events)
            return True
        elif self.supply_choices(state, stage):
            return False
        top["stage"] = STAGES[STAGES.index(stage) + 1]
        return True

    def _supply_losses(self, state: State, events: list[Event]) -> None:
        """11.1: in AVA the Soviet losses come first, so an Axis line may run
        where a Soviet unit just died; in FFS both sides check the same board."""
        from pbem.games.ava import supply
        groups = ((SOVIET,), (AXIS,)) if self.profile.supply_check_order == "soviet_first" else (SIDES,)
        for sides in groups:
            b = self.board(state)
            lost = {u: 1 for side in sides for u in supply.out_of_loc(b, side, limited=self.loc_limited)}
            if lost:
                events.append(Event(f"Supply Check: {len(lost)} unit(s) without an LOC lose a step (11.1)"))
                self.lose_steps(state, lost, "supply", events)

    def supply_choices(self, state: State, stage: str) -> list[str]:
        """The options of this stage's decision, empty when none is due."""
        from pbem.games.ava import fortress, reinforce
        b = self.board(state)
        turn = state["turn"]
        if stage == "withdraw":
            units = self.voluntary_candidates(state)
            return ["pass"] + [f"withdraw {self.short(u)}" for u in units] if units else []
        if stage == "smolensk":
            return self.withdrawal_options(state) if reinforce.withdrawal_due(b, turn) else []
        if stage in TRANSFER:
            hqs = self.supply_transfers(state, TRANSFER[stage])
            return ["pass"] + [f"transfer {self.short(u)}" for u in hqs] if hqs else []
        lines = self.lines(state, SOVIET)
        if stage == "fortress":
            sites = fortress.build_sites(b, turn, lines)
            n = fortress.building(self.scn, turn)
            combos = [[h] for h in sites] + ([[h, k] for h in sites for k in sites if h <= k] if n > 1 else [])
            ok = []
            for c in combos:
                try:
                    fortress.check_build(b, turn, c, lines)
                except IllegalOrder:
                    continue
                ok.append("fortress " + " ".join(c))
            return ["pass"] + ok if ok else []
        if stage == "standfast":
            hexes = fortress.stand_fast_removable(b, turn, lines)
            return ["pass"] + [f"standfast {h}" for h in hexes] if hexes else []
        return []

    def voluntary_candidates(self, state: State) -> list[str]:
        """Axis units that may go to the Available Box now (11.2)."""
        from pbem.games.ava import reinforce, supply
        b = self.board(state)
        lines = supply.loc(b, AXIS)
        out = []
        for u in b.on_map(AXIS):
            try:
                reinforce.check_to_available(b, [u], lambda x: b.unit(x)["hex"] in lines)
            except IllegalOrder:
                continue
            out.append(u)
        return out

    def supply_transfers(self, state: State, side: str) -> list[str]:
        """FFS 16.3 (#60): the side's HQs that may go to the next turn now."""
        from pbem.games.ava import reinforce, supply
        if not self.options.get("hq_transfer") or self.profile.hq_transfer != "any":
            return []
        b = self.board(state)
        out = []
        for u in b.on_map(side):
            if not b.spec(u).is_hq:
                continue
            try:
                reinforce.check_hq_transfer(b, u, supply.has_loc(b, u))
            except IllegalOrder:
                continue
            out.append(u)
        return out

    def withdrawal_options(self, state: State) -> list[str]:
        """18.2: one withdrawal per set of mech units reaching the strength
        with no unit to spare (listed while few), weakest sets first."""
        from itertools import combinations

        from pbem.games.ava import reinforce
        b = self.board(state)
        need = reinforce.withdrawal_due(b, state["turn"])
        mech = sorted(u for u in b.on_map(AXIS) if b.spec(u).mech)
        out: list[tuple[int, str]] = []
        for k in range(1, len(mech) + 1):
            for combo in combinations(mech, k):
                total = sum(b.attack(u) for u in combo)
                if total >= need and all(total - b.attack(u) < need for u in combo):
                    out.append((total, "withdraw " + " ".join(self.short(u) for u in combo)))
            if len(out) > 60:
                break
        return [o for _, o in sorted(out)]

    def _ask_supply(self, state: State, top: dict[str, Any]) -> Decision:
        stage = top["stage"]
        opts = tuple(self.supply_choices(state, stage))
        if stage == "withdraw":
            return Decision(self.seat_of(AXIS), "withdraw", "Supply Check: Axis units with an LOC may go to the "
                            "Available Box (11.2): withdraw UNIT ... or pass", opts, policy="withdraw")
        if stage == "smolensk":
            need = self.scn.params.withdrawal_strength
            return Decision(self.seat_of(AXIS), "withdrawal", f"Supply Check: withdraw mechanized units of at least "
                            f"{need} attack strength (18.2)", opts, hint="withdraw UNIT ...")
        if stage in TRANSFER:
            side = TRANSFER[stage]
            return Decision(self.seat_of(side), "transfer", f"Supply Check: {SIDE_NAME[side]} HQs with an LOC, not "
                            "in enemy ZOC, may go to the next turn's Reinforcements (16.3): transfer UNIT or pass",
                            opts, policy="transfer")
        if stage == "fortress":
            return Decision(self.seat_of(SOVIET), "fortress", "Supply Check: build fortress steps (14.1): "
                            "fortress HEX [HEX] or pass", opts, policy="fortress-build")
        return Decision(self.seat_of(SOVIET), "standfast", "Supply Check: remove a Stand Fast marker (16.2)? "
                        "standfast HEX or pass", opts, policy="standfast")

    def _do_supply(self, state: State, top: dict[str, Any], d: Decision, order: dict[str, Any], rng: Rng,
                   events: list[Event]) -> None:
        from pbem.games.ava import fortress, reinforce, supply
        stage, verb = top["stage"], order["verb"]
        b = self.board(state)
        if verb in ("pass", "done") and stage != "smolensk":
            top["stage"] = STAGES[STAGES.index(stage) + 1]
            return
        if stage in ("withdraw", "smolensk"):
            if verb != "withdraw":
                raise IllegalOrder("answer withdraw UNIT ..." + (" or pass" if stage == "withdraw" else ""))
            units = list(order["units"])
            if stage == "withdraw":
                reinforce.check_to_available(b, units, lambda u: supply.has_loc(b, u))
                box = "available"
            else:
                reinforce.check_withdrawal(b, state["turn"], units)
                box = "withdrawn"
            reinforce.to_box(state, units, box)
            events.append(Event(f"Axis {'withdraws' if box == 'withdrawn' else 'sends to the Available Box'}: "
                                + ", ".join(self.name(u) for u in units)))
        elif stage in TRANSFER:
            if verb != "transfer" or order["unit"] not in self.supply_transfers(state, TRANSFER[stage]):
                raise IllegalOrder("answer transfer HQ (an HQ with an LOC, not in enemy ZOC, 16.3) or pass")
            self.transfer_hq(state, order["unit"], "", events)
            return                  # another HQ may follow: the stage stays
        elif stage == "fortress":
            if verb != "fortress":
                raise IllegalOrder("answer fortress HEX [HEX] or pass")
            before = dict(state.get("fortress", {}))
            after = fortress.check_build(b, state["turn"], list(order["hexes"]), self.lines(state, SOVIET))
            fortress.build(state, before, after)
            events.append(Event(f"Soviet builds fortress steps in {', '.join(order['hexes'])} (14.1)"))
        else:
            if verb != "standfast":
                raise IllegalOrder("answer standfast HEX or pass")
            fortress.check_stand_fast_removal(b, state["turn"], list(order["hexes"]), self.lines(state, SOVIET))
            fortress.remove_stand_fast(state, list(order["hexes"]))
            events.append(Event(f"Soviet removes the Stand Fast marker in {', '.join(order['hexes'])} (16.2)"))
        top["stage"] = STAGES[STAGES.index(stage) + 1]

    def has_loc_fn(self, state: State) -> Any:
        """victory's ``has_loc(side, hex)``, on LOCs traced once per side."""
        from pbem.games.ava import supply
        b = self.board(state)
        lines = {side: supply.loc(b, side) for side in SIDES}
        return lambda side, h: h in lines[side]

    def short_game(self) -> bool:
        return bool(self.options.get("short_game")) and bool(self.scn.params.short_game_turn)

    def award_vp(self, state: State, supply_done: bool, events: list[Event]) -> None:
        """FFS 15.5(3)-(4): the timed bonuses at the Supply Order and the
        4230/4730 bonus the first time it is held (notes #54, #55)."""
        from pbem.games.ava import victory
        b = self.board(state)
        has_loc = self.has_loc_fn(state)
        awards = victory.timed_awards(b, state["turn"], has_loc) if supply_done else {}
        awards.update(victory.hex_award(b, state["turn"], supply_done, has_loc))
        if awards:
            victory.record(state, awards)
            events.append(Event("Axis VP: " + ", ".join(f"{k} {v}" for k, v in sorted(awards.items()))))

    def vp_breakdown(self, state: State) -> dict[str, int]:
        from pbem.games.ava import victory
        found: dict[str, int] = victory.vp(self.board(state), self.has_loc_fn(state), short=self.short_game())
        return found

    def _end_of_check(self, state: State, top: dict[str, Any], events: list[Event]) -> None:
        """16.4 / FFS 15.6: the game ends after the last turn's Supply Check;
        the chits left in the cup are not played."""
        from pbem.games.ava import victory
        self.award_vp(state, True, events)
        if not victory.ends_after_supply(self.scn, state["turn"], self.short_game()):
            self.pop(state, top)
            return
        breakdown = self.vp_breakdown(state)
        margin = int(self.options.get("full_game_margin") or 0)      # FFS #56: 0 = the scenario's
        winner, line = victory.outcome(self.scn, self.profile, breakdown, short=self.short_game(),
                                       bid=victory.bid_threshold(state, margin if margin and self.profile.victory
                                                                 == "ffs" and not self.short_game() else None))
        parts = ", ".join(f"{k} {v}" for k, v in sorted(breakdown.items()) if v)
        self.finish(state, winner or "draw", [f"Game ends after the Turn {state['turn']} Supply Check (16.4)",
                                               f"VP: {parts or 'none'}", line], events)
