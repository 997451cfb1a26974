"""The contract between the protocol and a game's rules.

A game is a module (``pbem.games.<id>``) exposing one object named ``GAME``
that satisfies :class:`Game`.  Everything here is pure: no clock, no global
random, no files, keys or email.  The protocol side (``pbem.exchange``) drives a
game only through this interface, so the same exchange cycle serves a hex game
with an odds table and an area game with hidden blocks.

The shape follows python-chess: a state, the decision that is pending on it
(with its legal choices), and ``apply`` to push an order.

State
    A game's state is a plain JSON-like tree (dicts with string keys, lists,
    str, int, bool, None; **no floats**) so that it can be hashed in canonical
    form and copied cheaply.  The engine hands ``apply`` a private copy, so a
    game may mutate the state it is given.

Hidden information
    Whatever a side may not see lives under ``state["hidden"][side]``.  The
    public state is the state with every ``hidden`` part removed
    (:func:`public`); its hash is what each exchange signs.  A program that does
    not hold a side's secrets replays that side's orders with
    ``state["hidden"][side] is None``: a game must then apply only the public
    effect of the order (a new commitment, a count) and take the secret part on
    trust until a reveal or the final audit checks it.  An order's secret part
    travels in ``order["secret"]``: sealed to its owner in the file, removed
    from the public copy of the order, restored at audit.

Randomness
    Every roll and draw goes through the :class:`Rng` handed to ``apply``, with
    a purpose label.  A game must check an order completely *before* it draws
    anything: under sealed dice timing the engine may stop an order at its
    first draw and resolve it in the opponent's program, and an order found
    illegal only after a roll would waste the opponent's email.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, Sequence, TypeVar, runtime_checkable

from pbem.errors import PbemError

State = dict[str, Any]
Order = dict[str, Any]

T = TypeVar("T")


class IllegalOrder(PbemError):
    """An order the rules refuse.  ``str(exc)`` is one line in the game's own
    terms, e.g. ``"7Pz: 4020 is 11 MP away, allowance 10"``."""


class ScenarioError(PbemError):
    """A scenario file that cannot be played (missing or inconsistent data)."""


@dataclass(frozen=True)
class Decision:
    """What a side must decide now.

    ``kind`` names the decision in the game's terms ("retreat", "guderian",
    "chits", "move"...).  ``options`` lists the legal orders in terse notation
    where they can be listed (a retreat's hexes, yes/no); for open decisions
    such as a movement segment it lists the order templates and ``hint`` says
    how to ask for more (``reach 7Pz``).  ``private`` marks a decision that the
    side's own program answers from its secrets without asking the human (a
    block reveal at a showdown); ``policy`` names the standing order that may
    answer it, if any.
    """

    side: str
    kind: str
    prompt: str
    options: tuple[str, ...] = ()
    private: bool = False
    policy: str | None = None
    hint: str = ""


@dataclass(frozen=True)
class Event:
    """Something that happened, for the turn log.  ``text`` is one line of an
    after-action report; ``data`` keeps the facts for renderers."""

    text: str
    data: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class Rng(Protocol):
    """The shared random stream, as a game sees it.  Each call is recorded with
    its purpose ("combat 4121, German d6")."""

    def roll(self, sides: int, purpose: str) -> int:
        """One die of ``sides`` faces, 1..sides (a d10 gives 10 for its 0)."""

    def draw(self, items: Sequence[T], purpose: str) -> int:
        """Index of one item drawn uniformly from ``items`` (the caller
        removes it: a draw without replacement)."""

    def shuffle(self, items: Sequence[T], purpose: str) -> list[T]:
        """A uniformly shuffled copy of ``items``."""


class Rules(Protocol):
    """One game's rules bound to one scenario and its rule options: what
    ``Game.rules`` returns.  Every method is pure."""

    def initial_state(self) -> State:
        """The state before the first decision."""

    def pending(self, state: State) -> Decision | None:
        """The decision due now; ``None`` when the game is over."""

    def apply(self, state: State, side: str, order: Order, rng: Rng) -> tuple[State, list[Event]]:
        """Push ``side``'s order.  Raises IllegalOrder with a one-line reason."""

    def parse(self, text: str, state: State, side: str) -> Order:
        """Terse notation to an order (``move 7Pz 3919 4019``).  IllegalOrder
        if it does not parse."""

    def format(self, order: Order) -> str:
        """An order in terse notation."""

    def standing_answer(self, state: State, decision: Decision, policies: dict[str, Any]) -> Order | None:
        """The order a side's standing orders give for ``decision``, or None."""

    def private_answer(self, state: State, decision: Decision) -> Order:
        """Answer a ``private`` decision from the side's own hidden state."""

    def query(self, state: State, side: str, text: str) -> str:
        """Answer a question that changes nothing (``reach 7Pz``, ``odds 4121
        with 7Pz 20Pz``).  IllegalOrder if it is not understood."""

    def result(self, state: State) -> str | None:
        """Who won and why, once the game is over."""

    def sitrep(self, state: State, side: str | None) -> Any:
        """A rich renderable for ``side`` (None: the public view).  Must show
        nothing that side may not see."""


class Game(Protocol):
    """What a game package provides as ``GAME``."""

    id: str            # "avd", "m41", ...
    title: str
    sides: tuple[str, ...]   # in the order the game names them, e.g. ("german", "soviet")

    def check_scenario(self, data: dict[str, Any]) -> list[str]:
        """Everything a scenario file still lacks or gets wrong, one line
        each; empty when it can be played."""

    def options(self) -> dict[str, tuple[Any, str]]:
        """Rule options: name -> (default, one-line description)."""

    def policy_kinds(self) -> dict[str, str]:
        """Standing orders the game accepts: name -> one-line description of
        the value expected."""

    def rules(self, scenario: dict[str, Any], options: dict[str, Any]) -> Rules:
        """Bind the rules to a scenario (the parsed TOML) and rule options.
        Raises ScenarioError when the scenario cannot be played."""


def public(state: State) -> State:
    """The state as anyone may see it: every side's hidden part removed."""
    return {k: v for k, v in state.items() if k != "hidden"}
