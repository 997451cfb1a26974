"""Defaults for a game's optional parts, the one legality probe every
scripted player uses, and the commitment helpers games may need."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence, TypeVar

from pbem.errors import UsageError
from pbem.game.contract import (
    Decision, IllegalOrder, Order, Rules, ScenarioError, SeatSpec, State, MAX_SEATS, MIN_SEATS,
)

if TYPE_CHECKING:   # the view's data types are loaded only where a view is drawn
    from pbem.game.view import View

T = TypeVar("T")


def commit(item: Any, salt: bytes) -> str:
    """The public commitment to a hidden item (PROTOCOL.md, "Commitments")."""
    from pbem.protocol import commit as _commit

    return _commit.commit(item, salt)


def check_commitment(item: Any, salt: bytes, commitment: str) -> bool:
    """Whether ``item`` and ``salt`` open ``commitment``."""
    from pbem.protocol import commit as _commit

    return _commit.check(item, salt, commitment)


# Sealed simultaneous choices (a VP bid, AVA 17.1): each seat's choice goes
# into its order as a public commitment with the value and its salt in the
# order's secret part; once every seat has committed, each opening is
# checked against its commitment in every program.

def sealed_choice(value: Any, salt: bytes) -> tuple[str, dict[str, Any]]:
    """(the public commitment, the secret part) of a sealed choice."""
    return commit(value, salt), {"value": value, "salt": salt.hex()}


def opened_choice(commitment: Any, opening: Any, what: str) -> Any:
    """The value an opening ``{"value", "salt"}`` shows, if it opens
    ``commitment``; IllegalOrder naming ``what`` otherwise."""
    import re

    if not isinstance(opening, dict) or set(opening) != {"value", "salt"} \
            or not isinstance(opening["salt"], str) or not re.fullmatch(r"[0-9a-f]{32}", opening["salt"]):
        raise IllegalOrder(f"{what}: an opening is a value and its 16-byte salt")
    if not isinstance(commitment, str) or not check_commitment(opening["value"], bytes.fromhex(opening["salt"]),
                                                                commitment):
        raise IllegalOrder(f"{what}: {opening['value']!r} does not open the commitment made before "
                           "(changed after the other choices were seen?)")
    return opening["value"]


class ProbeStop(Exception):
    """Raised by the probing Rng at the first roll: everything before the
    dice was legal (games check an order whole before rolling)."""


class _ProbeRng:
    def roll(self, sides: int, purpose: str) -> int:
        raise ProbeStop(purpose)

    def secret(self, seat: str) -> "_ProbeRng":
        raise ProbeStop(f"secret draw for {seat}")

    def draw(self, items: Sequence[T], purpose: str) -> int:
        raise ProbeStop(purpose)

    def shuffle(self, items: Sequence[T], purpose: str) -> list[T]:
        raise ProbeStop(purpose)


def probe(rules: "Rules", state: State, seat: str, order: Order) -> str | None:
    """Why ``order`` is illegal for ``seat`` now, or None if the rules accept
    it (up to its first roll).  The one legality check every scripted player
    uses, so a bot never proposes what ``apply`` refuses, and the one a plan's
    first order must pass.  ``state`` is not changed: ``apply`` works on a
    fresh copy (:mod:`pbem.game.frozen`, several times faster than
    copy.deepcopy); ``fill_secrets``, which changes no state (the
    contract), reads ``state`` itself, and its order is copied so that
    ``apply`` changes no part of ``state`` it may hold."""
    from pbem.game.frozen import fast_copy

    trial = fast_copy(state)
    try:
        filled = fast_copy(rules.fill_secrets(state, seat, fast_copy(order), lambda: bytes(16)))
        rules.apply(trial, seat, filled, _ProbeRng())
    except ProbeStop:
        return None
    except IllegalOrder as exc:
        return str(exc) or "illegal"
    return None


def attack_plan(rules: "Rules", state: State, seat: str, options: Sequence[str]) -> Order | None:
    """A scripted attacker's combat planned at once: each listed ``attack``
    (templates such as ``attack HEX with UNIT`` left out), in the listed
    order, made by the units no earlier attack of the plan took, while it
    is legal now (:func:`probe`); then end-combat.  An attack an earlier
    result makes illegal is skipped by the engine when the plan runs.
    None when there is no attack to plan."""
    planned: list[Order] = []
    used: set[str] = set()
    for text in options:
        if not text.startswith("attack ") or "UNIT" in text or " HEX" in text:
            continue
        try:
            order = rules.parse(text, state, seat)
        except IllegalOrder:
            continue
        units = [u for u in order["units"] if u not in used]
        if not units:
            continue
        order = dict(order, units=units)
        if probe(rules, state, seat, order) is None:
            planned.append(order)
            used.update(units)
    if not planned:
        return None
    return {"verb": "plan", "orders": planned + [{"verb": "end-combat"}]}


class BaseRules:
    """Defaults for the optional parts of :class:`Rules`; a game's rules
    class inherits them so the engine never probes for a method."""

    hidden_width: int = 0
    """How many hidden items a seat's commit holds (a power of two): every
    commit has this width, so its size tells nothing.  0: no hidden items."""

    private_policies: frozenset[str] = frozenset()
    """Standing orders that answer a private decision: sealed to their
    owner, who alone applies them; the core keeps their values in
    ``state["hidden"][seat]["standing"]`` (a key reserved for it), where
    ``private_answer`` reads them."""

    def check_policy(self, state: State, seat: str, name: str, value: str) -> str | None:
        """Why ``seat`` may not set standing order ``name`` to ``value`` (a
        value the kind does not take, a kind of the other side's
        decisions), or None.  The core has already checked that the kind
        exists and the value is not empty."""
        return None

    def hidden_items(self, state: State, seat: str) -> dict[str, Any]:
        """``seat``'s hidden items, public handle -> secret value, from its
        hidden part of ``state`` (called only where that part is known).
        The core commits them all at once after each exchange of the seat
        and whenever an order of the seat opens some (``order["open"]``):
        see :mod:`pbem.cycle.hidden`.  No hidden items by default."""
        return {}

    def identity_of(self, seat: str, value: Any) -> str | None:
        """What makes a hidden item unique (a block's name), so that the
        same item opened under two handles is refused; None if nothing."""
        return None

    def check_opening(self, state: State, seat: str, handle: str, value: Any) -> str | None:
        """The constraints any opening must meet, checked in every program
        before ``apply`` sees it: a strength within the item's limits, a
        type allowed at the handle's public spot...  Why it fails, or None."""
        return None

    def fill_secrets(self, state: State, seat: str, order: Order, new_salt: Callable[[], bytes]) -> Order:
        return order

    def seat_players(self, state: State) -> dict[str, str]:
        """No game moves its players unless it says so (see Rules.seat_players)."""
        return {}

    def apply_decided(self, state: State, seat: str, order: Order, rng: Any, decided: Decision) -> tuple[State, list[Any]]:
        """``apply`` when the engine has just asked ``pending`` on this very
        state object and hands over its answer (``decided``); a game may
        skip asking again.  By default, plain ``apply``."""
        return self.apply(state, seat, order, rng)  # type: ignore[attr-defined,no-any-return]

    def demo_order(self, state: State, decision: Decision) -> Order | str:
        if not decision.options:
            raise IllegalOrder(f"the scripted player cannot answer {decision.kind}")
        return decision.options[0]

    def view(self, state: State, seat: str | None) -> View:
        from pbem.game.view import TextBlock, View

        return View("situation", (TextBlock("situation", ("(this game draws no situation report)",)),))

    # -- positions: see Rules.position_of.  A game without them says so.

    position_start: State | None = None
    """The state a position gave (:meth:`start_from`); None: the scenario's."""

    def position_of(self, state: State, seat: str | None) -> dict[str, Any]:
        raise ScenarioError(f"{_game_name(self)} has no positions yet")

    def state_from_position(self, position: dict[str, Any]) -> State:
        raise ScenarioError(f"{_game_name(self)} has no positions yet: it cannot start from one")

    def start_from(self, position: dict[str, Any]) -> None:
        self.position_start = self.state_from_position(position)

    def positioned_start(self) -> State | None:
        """A fresh copy of the position's state, or None when the rules start
        from the scenario (a game's ``initial_state`` returns it first)."""
        if self.position_start is None:
            return None
        import pickle

        return pickle.loads(pickle.dumps(self.position_start))  # type: ignore[no-any-return]

    def scenario_start(self) -> State:
        """The scenario's own initial state, even where a position is bound
        (a position is described as changes to it)."""
        kept, self.position_start = self.position_start, None
        try:
            return self.initial_state()  # type: ignore[attr-defined,no-any-return]
        finally:
            self.position_start = kept


NONE = "none"      # a position's spelling of "no value": TOML has no null


def encode_none(value: Any) -> Any:
    """``value`` with every None written as :data:`NONE`, for a position."""
    if value is None:
        return NONE
    if isinstance(value, dict):
        return {k: encode_none(v) for k, v in value.items()}
    if isinstance(value, list):
        return [encode_none(v) for v in value]
    return value


def decode_none(value: Any) -> Any:
    """The inverse of :func:`encode_none`."""
    if value == NONE:
        return None
    if isinstance(value, dict):
        return {k: decode_none(v) for k, v in value.items()}
    if isinstance(value, list):
        return [decode_none(v) for v in value]
    return value


def check_position(position: Any, game: str, keys: set[str], items: str) -> None:
    """The checks every game's position shares (ScenarioError, one line):
    a table, of known entries, of this game, holding no hidden ``items``
    (a game cannot start from secrets: whoever creates it would know
    them)."""
    if not isinstance(position, dict):
        raise ScenarioError("a position is a table")
    unknown = sorted(set(position) - keys)
    if unknown:
        raise ScenarioError(f"position: unknown entry {unknown[0]!r} (known: {', '.join(sorted(keys))})")
    if position.get("game", game) != game:
        raise ScenarioError(f"position: it is a position of {position['game']!r}, not of {game}")
    if position.get("hidden"):
        raise ScenarioError(f"position: a game cannot start from {items} (whoever creates it would know them)")


def set_markers(state: State, markers: Any, fixed: set[str], why: str = "") -> None:
    """Put a position's ``[markers]`` into ``state``: each an existing key
    not in ``fixed`` (``why`` says why those are refused), of the type the
    scenario's start gives it."""
    markers = decode_none(markers)
    if not isinstance(markers, dict):
        raise ScenarioError("position: [markers] is a table")
    for key, value in sorted(markers.items()):
        if key in fixed and why:
            raise ScenarioError(f"position: {key} {why}")
        if key in fixed or key not in state:
            raise ScenarioError(f"position: no marker {key!r} (markers: "
                                f"{', '.join(sorted(k for k in state if k not in fixed))})")
        was = state[key]
        if was is not None and value is not None and type(value) is not type(was):
            raise ScenarioError(f"position: marker {key} takes a {type(was).__name__}, not {value!r}")
        state[key] = value


def _game_name(rules: Any) -> str:
    """A game's package name, for a message (its rules class lives in it)."""
    parts = type(rules).__module__.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["pbem", "games"] else "this game"


class BaseGame:
    """Defaults for the optional parts of :class:`Game`."""

    sides: tuple[str, ...] = ()
    scenario_package: str | None = None
    """The package whose ``*.toml`` files are the game's shipped scenarios."""
    demo_scenario: str | None = None
    """The scenario ``pbem demo <id>`` plays; None: the game has no demo."""

    def options(self) -> dict[str, tuple[Any, str]]:
        return {}

    def seats(self, options: dict[str, Any]) -> tuple[SeatSpec, ...]:
        return tuple(SeatSpec(s, s) for s in self.sides)

    def validate_options(self, options: dict[str, Any]) -> dict[str, Any]:
        known = self.options()
        for key, value in options.items():
            if key not in known:
                raise UsageError(f"unknown rule option {key!r}; options: {', '.join(sorted(known)) or 'none'}")
            default = known[key][0]
            if type(value) is not type(default):
                raise UsageError(f"rule option {key} takes a {type(default).__name__}, not {value!r}")
        return {k: options.get(k, default) for k, (default, _) in known.items()}

    def scenario_view(self, data: dict[str, Any]) -> View:
        from pbem.game.view import TextBlock, View

        return View("map", (TextBlock("map", ("(this game draws no map picture)",)),))


def validate_seats(seats: Sequence[SeatSpec]) -> None:
    """2 to 6 seats with distinct names, on at least two sides."""
    names = [s.name for s in seats]
    if not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise ScenarioError(f"a game has {MIN_SEATS} to {MAX_SEATS} seats, not {len(seats)}")
    if len(set(names)) != len(names):
        raise ScenarioError("two seats share a name")
    if len({s.side for s in seats}) < 2:
        raise ScenarioError("every seat is on the same side")
