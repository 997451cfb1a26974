"""The contract between the protocol and a game's rules.

A game is a module (``pbem.games.<id>``) exposing one object named ``GAME``
that satisfies :class:`Game`.  Everything here is pure: no clock, no global
random, no files, keys or email.  The protocol side (``pbem.cycle``) drives a
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
    Whatever a seat may not see lives under ``state["hidden"][seat]``.  The
    public state is the state with every ``hidden`` part removed
    (:func:`public`); its hash is what each exchange signs.  A program that does
    not hold a seat's secrets replays that seat's orders with
    ``state["hidden"][seat] is None``: a game must then apply only the public
    effect of the order (a count, a token moved) and take the secret part on
    trust until an opening or the final audit checks it.  An order's secret
    part travels in ``order["secret"]``: sealed to its owner in the file,
    removed from the public copy of the order, restored at the audit.  The
    core commits each seat's hidden items and checks every opening
    (``hidden_items``, ``order["open"]``: see :class:`~pbem.game.BaseRules`
    and :mod:`pbem.cycle.hidden`); face-down draws come from ``rng.secret``.

Randomness
    Every roll and draw goes through the :class:`Rng` handed to ``apply``, with
    a purpose label.  A game must check an order completely *before* it draws
    anything: under sealed dice timing the engine may stop an order at its
    first draw and resolve it in another side's program, and an order found
    illegal only after a roll would waste that player's email.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Protocol, Sequence, TypeVar, runtime_checkable

from pbem.errors import PbemError
from pbem.game.frozen import freeze, thaw
from pbem.game.plainclass import Frozen, fields_later

if TYPE_CHECKING:
    from dataclasses import dataclass

    from pbem.game.view import View
else:
    def dataclass(*, init: bool, repr: bool, eq: bool) -> Callable[[type], type]:
        # Speed only: the registration the decorator made, made on its first
        # read (pbem.game.plainclass.fields_later: no dataclasses import).
        assert not (init or repr or eq), "only a registration of the fields here"
        return fields_later

State = dict[str, Any]
Order = dict[str, Any]

T = TypeVar("T")


# Tests set this: a Decision whose options are listed on first read
# (Decision.lazy) keeps a copy of its state and refuses to list them once
# that state has changed (a list worked out from a later state would be
# wrong, and silently).
CHECK_LAZY = False


class IllegalOrder(PbemError):
    """An order the rules refuse.  ``str(exc)`` is one line in the game's own
    terms, e.g. ``"7Pz: 4020 is 11 MP away, allowance 10"``."""


class ScenarioError(PbemError):
    """A scenario file that cannot be played (missing or inconsistent data)."""


class _Options:
    """``Decision.options``: the tuple given, or for a Decision made by
    :meth:`Decision.lazy` the one its function lists on the first read, then
    kept (speed only: most lists are never read)."""

    def __get__(self, d: "Decision | None", owner: Any) -> tuple[str, ...]:
        if d is None:
            return ()       # the field's default
        kept = d.__dict__
        listed: tuple[str, ...] | None = kept["_options"]
        if listed is None:
            listed = kept["_options"] = kept["_lazy"]()
            del kept["_lazy"]       # and the state it holds
        return listed

    def __set__(self, d: "Decision", value: tuple[str, ...]) -> None:
        # Never reached: a Decision refuses every assignment before any
        # descriptor sees it (its __init__ writes its dict).
        d.__dict__["_options"] = value


# Speed only: the dataclass decorator registers the fields (for
# dataclasses.fields and replace, on their first read) and writes no
# method: Frozen's behave as a frozen dataclass's
# (tests/test_decision_lazy.py), and __init__ fills the instance's dict in
# one call (a replay makes a thousand Decisions).
@dataclass(init=False, repr=False, eq=False)
class Decision(Frozen):
    """What a seat must decide now: the engine's only notion of whose turn
    it is (``seat``; in a two-seat game a seat is named after its side).

    ``kind`` names the decision in the game's terms ("retreat", "guderian",
    "chits", "move"...).  ``options`` lists the legal orders in terse notation
    where they can be listed (a retreat's hexes, yes/no); for open decisions
    such as a movement segment it lists the order templates and ``hint`` says
    how to ask for more (``reach 7Pz``).  ``private`` marks a decision that the
    side's own program answers from its secrets without asking the human (a
    block reveal at a showdown); ``policy`` names the standing order that may
    answer it, if any.

    ``forced`` says that the rules leave exactly one legal answer: then
    ``options`` holds exactly that one order (terse notation ``parse``
    reads), and the engine takes it without asking anyone and without an
    email (listed ``by = "forced"``).  A game sets it only where its rules
    force the answer, from the public state alone (every program must agree
    on it), never because ``options`` happens to list one entry: a lone
    option may be a template or a real choice (a secret set-up, a roll the
    player may still put off by resigning or offering a draw), and such a
    decision stays the player's.  ``plannable`` says that the deciding seat
    may answer it with a *plan*: several orders signed at once, in the
    order he chooses, that the next program resolves one after the other
    (docs/FILE-FORMAT.md, "Forced answers and plans").

    A game may have ``options`` listed only when someone reads them
    (:meth:`lazy`); to every reader they are the same tuple.
    """

    seat: str
    kind: str
    prompt: str
    options: _Options = _Options()      # reads as tuple[str, ...]
    private: bool = False
    policy: str | None = None
    hint: str = ""
    forced: bool = False
    plannable: bool = False

    def __init__(self, seat: str, kind: str, prompt: str, options: tuple[str, ...] = (), private: bool = False,
                 policy: str | None = None, hint: str = "", forced: bool = False, plannable: bool = False) -> None:
        self.__dict__.update(seat=seat, kind=kind, prompt=prompt, _options=options, private=private, policy=policy,
                             hint=hint, forced=forced, plannable=plannable)

    _FIELDS = ("seat", "kind", "prompt", "options", "private", "policy", "hint", "forced", "plannable")

    @property
    def side(self) -> str:
        """The deciding seat, by the name two-seat games give it (their
        seats are named after the sides)."""
        return self.seat

    @classmethod
    def lazy(cls, seat: str, kind: str, prompt: str, options: Callable[[], Iterable[str]], state: State, *,
             private: bool = False, policy: str | None = None, hint: str = "",
             plannable: bool = False) -> "Decision":
        """A decision whose ``options`` are listed by ``options()`` on their
        first read, then kept (speed only: most lists are read by nobody).
        ``options`` reads ``state``, the state this decision is asked of,
        as it is when the list is read: every reader (standing orders, the
        scripted players, ``pbem play``'s display) reads it before an order
        is applied to that state, never after.  Never ``forced``: the
        engine must know it holds one option without listing them; a game
        that forces a decision lists its one order itself.  With
        :data:`CHECK_LAZY` set, a list asked for once ``state`` has changed
        is refused."""
        d = cls(seat, kind, prompt, private=private, policy=policy, hint=hint, plannable=plannable)
        make = (lambda: tuple(options())) if not CHECK_LAZY else _checked(kind, options, state)
        d.__dict__.update(_options=None, _lazy=make)
        return d


def _checked(kind: str, options: Callable[[], Iterable[str]], state: State) -> Callable[[], tuple[str, ...]]:
    """``options`` listed only while ``state`` is still what it was now
    (:data:`CHECK_LAZY`)."""
    then = freeze(state)

    def make() -> tuple[str, ...]:
        if thaw(then) != state:
            raise AssertionError(f"the options of a {kind} decision were read after its state changed")
        return tuple(options())
    return make


class Event(Frozen):
    """Something that happened, for the turn log.  ``text`` is one line of an
    after-action report; ``data`` keeps the facts for renderers."""

    text: str
    data: dict[str, Any]
    _FIELDS = ("text", "data")

    def __init__(self, text: str, data: dict[str, Any] | None = None) -> None:
        self.__dict__.update(text=text, data={} if data is None else data)


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

    def secret(self, seat: str) -> "Rng | None":
        """``seat``'s secret stream (face-down draws, secret assignments of
        items to handles): an Rng, or None in a program that may not know
        it.  Call it wherever the rules make a face-down draw, in every
        program alike, then draw only if it is not None: under sealed
        timing the call itself may stop the order for dice, and every
        program must stop at the same point."""


class Rules(Protocol):
    """One game's rules bound to one scenario and its rule options: what
    ``Game.rules`` returns.  Every method is pure.  The hidden-item parts
    (``hidden_width``, ``hidden_items``, ``identity_of``, ``check_opening``)
    are described on :class:`BaseRules`."""

    hidden_width: int
    private_policies: frozenset[str]

    def check_policy(self, state: State, seat: str, name: str, value: str) -> str | None: ...

    def hidden_items(self, state: State, seat: str) -> dict[str, Any]: ...

    def identity_of(self, seat: str, value: Any) -> str | None: ...

    def check_opening(self, state: State, seat: str, handle: str, value: Any) -> str | None: ...

    def initial_state(self) -> State:
        """The state before the first decision."""

    def pending(self, state: State) -> Decision | None:
        """The decision due now; ``None`` when the game is over."""

    def apply(self, state: State, side: str, order: Order, rng: Rng) -> tuple[State, list[Event]]:
        """Push ``side``'s order.  Raises IllegalOrder with a one-line reason."""

    def apply_decided(self, state: State, seat: str, order: Order, rng: Rng,
                      decided: Decision) -> tuple[State, list[Event]]:
        """``apply`` given ``decided``, what ``pending`` has just answered
        for this very state object (the engine's hand-off; speed only)."""

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

    def seat_players(self, state: State) -> dict[str, str]:
        """Seats whose player the game has moved in play (a pre-game that
        decides who plays which side, AVA 17.1): seat -> the seat its player
        joined as; {} (the default) while every player holds the seat he
        joined.  The core moves the players (keys, dice chains, secret
        seeds) between exchanges: the exchange in which this changes ends
        there, and every hidden part must still be the initial state's."""

    def view(self, state: State, seat: str | None) -> "View":
        """What ``seat`` may see of ``state`` (None: anyone), as data that
        ``pbem.render.view`` draws; nothing the seat may not see."""

    def fill_secrets(self, state: State, seat: str, order: Order, new_salt: Callable[[], bytes]) -> Order:
        """Put the secret part (``order["secret"]``: which block a rebuild
        pays for, which chits were chosen) into an order of ``seat``'s own;
        the engine seals it to its owner, and the core's hidden-item service
        commits what it changes.  ``new_salt`` is for a game that keeps a
        commitment of its own (the test games do); the shipped games need
        none.  Like every method but ``apply``, it changes no state (the
        legality probe hands it the state itself).  :class:`BaseRules`
        returns the order unchanged."""

    def demo_order(self, state: State, decision: Decision) -> Order | str:
        """The scripted player's answer (``pbem demo``, engine tests).  Every
        choice it makes must pass :func:`probe`."""

    # Positions (optional: :class:`~pbem.game.BaseRules` refuses them).  A
    # position is a game's own TOML table describing a situation: where the
    # pieces stand, their states, the turn and the point in the sequence.

    def position_of(self, state: State, seat: str | None) -> dict[str, Any]:
        """``state`` as a position: its public part and whatever hidden
        parts ``state`` holds (a player's program hands a state with none;
        the audit's, with all).  ``state_from_position`` of it gives the
        same public state back."""

    def state_from_position(self, position: dict[str, Any]) -> State:
        """The state a position describes, checked whole (ScenarioError, one
        line, naming what is wrong).  Called on rules not yet bound to a
        position."""

    def start_from(self, position: dict[str, Any]) -> None:
        """Bind these rules to start from ``position``: ``initial_state``
        gives its state from now on (a game whose position changes what the
        rules are bound to, such as a smaller map, rebinds here)."""


class Game(Protocol):
    """What a game package provides as ``GAME``."""

    id: str            # "avd", "m41", ...
    title: str
    sides: tuple[str, ...]   # in the order the game names them, e.g. ("german", "soviet")
    scenario_package: str | None    # where its shipped scenarios are (see BaseGame)
    demo_scenario: str | None       # what `pbem demo <id>` plays

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

    def seats(self, options: dict[str, Any]) -> tuple["SeatSpec", ...]:
        """The seats of a game with these rule options, in play order: 2 to
        6, each on a side (a team), some with roles (AVA's Game Controller).
        :class:`BaseGame` gives one seat per side, named after it."""

    def validate_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Every rule option with its value: unknown names and values of the
        wrong type refused (UsageError), defaults filled in."""

    def scenario_view(self, data: dict[str, Any]) -> "View":
        """A picture of a scenario's map (``pbem scenario map``)."""


TEAM_PART = "team:"
"""The hidden part a team shares: ``state["hidden"]["team:" + side]`` is
known to the program of every seat of that side (and to no other), the way
``state["hidden"][seat]`` is known to that seat's alone.  An order's part
for the team travels in ``order["team_secret"]``: sealed to every seat of
the sender's side (one copy each), removed from the public copy of the
order, restored at the audit."""


def team_part(side: str) -> str:
    """The key of ``side``'s shared hidden part in ``state["hidden"]``."""
    return TEAM_PART + side


def seen_by(state: State, seat: str | None, side: str | None = None) -> State:
    """``state`` with every hidden part but ``seat``'s own (and, given its
    ``side``, its team's: :func:`team_part`) set to None (seat None: all of
    them): everything a view for ``seat`` may draw on."""
    hidden = state.get("hidden") or {}
    keep = {seat} | ({team_part(side)} if side is not None and seat is not None else set())
    return {**state, "hidden": {s: (h if s in keep else None) for s, h in hidden.items()}}


def public(state: State) -> State:
    """The state as anyone may see it: every side's hidden part removed."""
    return {k: v for k, v in state.items() if k != "hidden"}


# ------------------------------------------------------------------ seats

MIN_SEATS, MAX_SEATS = 2, 6


class SeatSpec(Frozen):
    """One seat at the table: its name (what decisions name), its side (the
    team it plays for) and any roles the rules give it, e.g.
    ``SeatSpec("p4", "soviet", ("controller",))``."""

    name: str
    side: str
    roles: tuple[str, ...]
    _FIELDS = ("name", "side", "roles")

    def __init__(self, name: str, side: str, roles: tuple[str, ...] = ()) -> None:
        self.__dict__.update(name=name, side=side, roles=roles)
