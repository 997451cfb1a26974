"""What every phase module of the sequence of play shares: the bound
scenario and profile, the frame stack's push and pop, names, the board.
:class:`pbem.games.ava.rules.AvaRules` is one class made of the phase
mixins; the cross-phase calls are declared here for the type checker."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.game import Decision, Event, Rng, State
from pbem.games.ava import orders
from pbem.games.ava.board import Board
from pbem.games.ava.model import Scenario
from pbem.games.ava.profile import Profile


class SeqBase:
    scn: Scenario
    profile: Profile
    options: dict[str, Any]
    last_turn: int
    scoring_hexes: frozenset[str]
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

    def name(self, uid: str) -> str:
        return self.scn.units[uid].name or uid

    def short(self, uid: str) -> str:
        return orders.short(self.scn, uid)

    def side_of(self, uid: str) -> str:
        return self.scn.units[uid].side

    def seat_of(self, side: str) -> str:
        """The seat deciding for ``side`` (two seats: named after the sides)."""
        return side

    if TYPE_CHECKING:
        # -- defined by the phase mixins
        def pending(self, state: State) -> Decision | None: ...
        def not_yours(self, d: Decision | None, side: str) -> str | None: ...
        def play(self, state: State, cid: str, rng: Rng, events: list[Event]) -> None: ...
        def activate(self, state: State, uid: str) -> None: ...
        def clear_activation(self, state: State) -> None: ...
        def start_reserve(self, state: State, cid: str, rng: Rng, events: list[Event]) -> None: ...
        def movers(self, state: State) -> list[str]: ...
        def push_segments(self, state: State, surprise: bool = False) -> None: ...
        def move_along(self, state: State, uid: str, hexes: list[str]) -> None: ...
        def place(self, state: State, uid: str, h: str) -> None: ...
        def lose_steps(self, state: State, alloc: dict[str, int], cause: str, events: list[Event], *,
                       fortress_hex: str | None = None) -> None: ...
        def attack_refusal(self, state: State, attack: dict[str, Any], surprise: bool) -> str | None: ...
        def award_vp(self, state: State, supply_done: bool, events: list[Event]) -> None: ...
        def vp_breakdown(self, state: State) -> dict[str, int]: ...
        def short_game(self) -> bool: ...
