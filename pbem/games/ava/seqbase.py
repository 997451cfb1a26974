"""What every phase module of the sequence of play shares: the bound
scenario and profile, the frame stack's push and pop, names, the board.
:class:`pbem.games.ava.rules.AvaRules` is one class made of the phase
mixins; the cross-phase calls are declared here for the type checker."""
from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING, Any

from pbem.game import Decision, Event, Rng, State
from pbem.games.ava import orders
from pbem.games.ava import seating as seatmod
from pbem.games.ava.board import Board
from pbem.games.ava.model import SIDES, Scenario
from pbem.games.ava.profile import Profile

# Decisions of the seat executing the command under way (A49: the seat
# executing an HQ chit orders every unit it activates), and those of the
# defender in a battle (A49: the seat owning the defending units).
COMMAND_KINDS = frozenset({"move", "combat", "resolve", "pick", "advance"})
DEFENDER_KINDS = frozenset({"retreat", "convert"})
COMBO_LIST_LIMIT = 200     # list every selection while there are at most this many


def selection_options(verb: str, pool: list[str], n: int, word: str = "ID") -> tuple[list[str], str]:
    """Every choice of ``n`` of ``pool`` while few; else one worked example,
    the template and the pool in the hint."""
    n = min(n, len(pool))
    if comb(len(pool), n) <= COMBO_LIST_LIMIT:
        return [f"{verb} " + " ".join(c) for c in combinations(pool, n)], ""
    return [f"{verb} " + " ".join(pool[:n]), f"{verb} " + " ".join([word] * n)], \
        f"{word}: {n} different of {' '.join(pool)}"


class SeqBase:
    scn: Scenario
    profile: Profile
    options: dict[str, Any]
    last_turn: int
    scoring_hexes: frozenset[str]
    seating: seatmod.Seating = seatmod.layout(2, seatmod.STANDARD)
    # Speed only: while a question is answered (the state does not change)
    # one board per state object instead of one per call.
    _scope: dict[int, Board] | None = None

    @staticmethod
    def push(state: State, kind: str, **kw: Any) -> dict[str, Any]:
        frame = {"k": kind, **kw}
        state["stack"].append(frame)
        return frame

    @staticmethod
    def pop(state: State, frame: dict[str, Any]) -> None:
        assert state["stack"][-1] is frame
        state["stack"].pop()

    def finish(self, state: State, winner: str, lines: list[str], events: list[Event]) -> None:
        state.update(winner=winner, result=lines, phase="over", stack=[])
        events.append(Event(lines[-1], {"winner": winner}))

    def board(self, state: State) -> Board:
        scope = self._scope
        if scope is None:
            return Board(self.scn, self.profile, state)
        b = scope.get(id(state))
        if b is None or b.state is not state:
            b = scope[id(state)] = Board(self.scn, self.profile, state)
        return b

    @property
    def loc_limited(self) -> bool:
        """Optional AVA 17.4: Soviet lines of communication run along roads
        only or railroads only after their first twelve hexes."""
        return bool(self.options.get("soviet_supply_limited"))

    def lines(self, state: State, side: str) -> dict[str, int]:
        """The hexes where a unit of ``side`` traces an LOC now (supply.loc,
        with 17.4's Soviet limits when that option is on)."""
        from pbem.games.ava import supply
        return supply.loc(self.board(state), side, limited=self.loc_limited)

    def name(self, uid: str) -> str:
        return self.scn.units[uid].name or uid

    def short(self, uid: str) -> str:
        return orders.short(self.scn, uid)

    def side_of(self, uid: str) -> str:
        return self.scn.units[uid].side

    # ----------------------------------------------------- seats (19, 20)
    @property
    def multi(self) -> bool:
        """More than one seat a side (AVA 19 or 20)."""
        return self.seating.mode != seatmod.STANDARD

    def seat_names(self) -> list[str]:
        return self.seating.names()

    def seat_of(self, side: str) -> str:
        """The seat deciding ``side``'s side-wide commands (A49; two seats:
        named after the sides)."""
        return seatmod.side_seat(self.seating, side)

    def side_of_seat(self, seat: str) -> str:
        for s in self.seating.seats:
            if s.name == seat:
                return s.side
        return seat

    def chit_seat(self, state: State, cid: str) -> str | None:
        """The seat executing chit ``cid`` (A46, A49): its HQ's seat, a
        side-wide chit the side's seat; the common Supply Check none."""
        side = self.scn.chits[cid].side
        if side not in SIDES:
            return None
        if not self.multi:
            return side
        return seatmod.owner_of_chit(self.seating, self.scn, state, cid)

    def set_commander(self, state: State, seat: str | None) -> None:
        """Who orders the activated units until the command ends (multiplayer
        only: two-seat states keep their shape)."""
        if self.multi:
            state["commander"] = seat

    def address(self, state: State, top: dict[str, Any], d: Decision) -> Decision:
        """A decision the phase modules address to a side's seat goes to the
        seat that owns it (A49): the commander's for the active side's
        movement, combat and advance; the defending units' owner for the
        defender's losses and retreat."""
        if not self.multi or d.seat not in self.seating.side_commands.values():
            return d
        side = self.side_of_seat(d.seat)
        seat = d.seat
        attacker = top.get("k") != "battle" or top.get("side") == side
        if (d.kind in COMMAND_KINDS or (d.kind == "loss" and attacker)) and side == state.get("active"):
            seat = state.get("commander") or seat
        elif d.kind in DEFENDER_KINDS or (d.kind == "loss" and not attacker):
            seat = self.defender_seat(state, str(top.get("hex")), side)
        return d if seat == d.seat else replace(d, seat=seat)

    def defender_seat(self, state: State, h: str, side: str) -> str:
        """The owner of the first defending unit in ``h`` (units of two seats
        in one hex: the first in id order decides for all), else of the hex."""
        here = sorted(u for u, x in state["units"].items() if x["hex"] == h and self.scn.units[u].side == side)
        if here:
            return seatmod.owner_of_unit(self.seating, self.scn, state, here[0])
        return seatmod.owner_of_hex(self.seating, side, h)

    if TYPE_CHECKING:
        # -- defined by the phase mixins
        def pending(self, state: State) -> Decision | None: ...
        def not_yours(self, d: Decision | None, side: str) -> str | None: ...
        # -- the multiplayer frames (seq_command, seq_queue, seq_master)
        def ask_cup(self, state: State, top: dict[str, Any]) -> Decision: ...
        def do_cup(self, state: State, top: dict[str, Any], d: Decision, order: dict[str, Any],
                   events: list[Event]) -> None: ...
        def hq_opening_refusal(self, state: State, seat: str, chit: Any) -> str | None: ...
        def open_token(self, state: State, token: str, d: Decision, order: dict[str, Any],
                       events: list[Event]) -> str: ...
        def token_owner(self, state: State, token: str) -> str: ...
        def token_side(self, state: State, token: str) -> str: ...
        def a_chit(self, state: State, token: str) -> str: ...
        def kind(self, cid: str) -> str: ...
        def _deal(self, state: State, rng: Rng) -> None: ...
        def play(self, state: State, cid: str, rng: Rng, events: list[Event]) -> None: ...
        def activate(self, state: State, uid: str) -> None: ...
        def clear_activation(self, state: State) -> None: ...
        def start_reserve(self, state: State, cid: str, rng: Rng, events: list[Event]) -> None: ...
        def movers(self, state: State) -> list[str]: ...
        def transfer_hq(self, state: State, uid: str, hq: str, events: list[Event]) -> None: ...
        def push_segments(self, state: State, surprise: bool = False) -> None: ...
        def move_along(self, state: State, uid: str, hexes: list[str]) -> None: ...
        def place(self, state: State, uid: str, h: str) -> None: ...
        def lose_steps(self, state: State, alloc: dict[str, int], cause: str, events: list[Event], *,
                       fortress_hex: str | None = None) -> None: ...
        def attack_refusal(self, state: State, attack: dict[str, Any], surprise: bool) -> str | None: ...
        def award_vp(self, state: State, supply_done: bool, events: list[Event]) -> None: ...
        def vp_breakdown(self, state: State) -> dict[str, int]: ...
        def short_game(self) -> bool: ...
