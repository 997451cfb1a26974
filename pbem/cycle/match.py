"""The match: a game as one program knows it after replaying its file.

A match has 2 to 6 *seats*.  Each seat is held by one player (an identity and
a dice chain) and plays for a *side*; in a two-seat game each seat is named
after its side.  Who acts next is whatever seat the game's ``pending()``
names; the only rule the engine adds is for sealed dice, where a roll that
one seat's order needs is resolved by the next exchange of a seat of another
side (:meth:`Match.resolver`).
"""
from __future__ import annotations

from typing import Any

from pbem.cycle.frozen import Snapshots as Snapshots
from pbem.cycle.frozen import fast_copy as fast_copy
from pbem.cycle.records import Record as Record
from pbem.cycle.records import Seat as Seat
from pbem.errors import InvalidFile
from pbem.game import Decision, Order, Rules, SeatSpec, public, team_part
from pbem.protocol.canon import RecordMemo, sha256
from pbem.protocol.types import EngineState as EngineState
from pbem.protocol.types import Exchange

DICE_TIMINGS = ("sealed", "immediate")
CHAIN_LENGTH = 256          # reveals per chain; a new anchor is published before it runs out
RENEW_WHEN_LEFT = 4



class Verification(InvalidFile):
    """A file that does not replay: says which exchange and why."""


def seat_specs(header: dict[str, Any]) -> tuple[SeatSpec, ...]:
    """The seats a header declares: ``sides`` lists the seat names in order;
    the optional ``[seats]`` table gives each seat's side and roles (absent:
    every seat is a side of its own name)."""
    table = header.get("seats") or {}
    out = []
    for name in header["sides"]:
        spec = table.get(name, {})
        out.append(SeatSpec(name, spec.get("side", name), tuple(spec.get("roles", ()))))
    return tuple(out)


class Match:
    """A game as this program knows it after replaying its file: the verified
    exchanges, the current state, and who must act.

    ``me`` is the seat whose secrets this program holds (None for a
    bystander's verify); ``known`` is the set of seats whose hidden state is
    known (all, in an audit).
    """

    # A replay's first try, while it runs (speed only: pbem.cycle.run.Careful);
    # a class default, so that a match kept by an earlier pbem reads it too.
    optimistic = False

    def __init__(self, header: dict[str, Any], scenario: dict[str, Any]) -> None:
        from pbem import games

        self.header = header
        self.scenario_head: dict[str, Any] = scenario.get("scenario", {}) if isinstance(scenario, dict) else {}
        self.game = games.load(header["game"])
        self.rules: Rules = self.game.rules(scenario, header.get("options", {}))
        if "position" in header:     # a game started from a position: the header's, signed with it
            self.rules.start_from(header["position"])
        self.seat_specs = seat_specs(header)
        self.policy_kinds: dict[str, str] = dict(self.game.policy_kinds())
        self.seat_names: list[str] = [s.name for s in self.seat_specs]
        self.timing: str = header["dice"]
        self.seats: dict[str, Seat] = {}
        self.exchanges: list[Exchange] = []
        self.records: list[Record] = []
        self.es: EngineState = {}
        self.me: str | None = None
        self.known: set[str] = set()
        self.my_seeds: list[tuple[bytes, int]] = []     # (seed, chain_n), oldest first
        self.my_secrets: dict[int, dict[str, Any]] = {}  # exchange n -> {entry index: secret}
        self.disclosures: dict[str, Any] = {}
        self.disclosed_parts: dict[str, Any] = {}        # exchange n (text) -> its sender's disclosed part (audit)
        self.snapshots = Snapshots()                     # the engine state after each exchange
        self.rewind_offer: dict[str, Any] | None = None
        self.secret_seeds: dict[str, bytes] = {}         # seat -> secret seed, where this program knows it
        self.anchors_fixed_at = 0                        # the exchange of the last join (or the new game)
        self.forfeits: dict[str, int] = {}               # seat -> exchange that recorded its forfeit
        self.team_secrets: dict[int, dict[str, Any]] = {}  # exchange n -> {entry index: team secret}, where known
        self.sent_by: dict[int, str] = {}                # exchange n -> its sender's player (the seat he joined as)
        self.reseated_at = 0                             # the exchange after which players last moved
        self.chose_at: dict[str, int] = {}               # side -> the last play exchange with an order a seat of it chose
        # Speed only: the canonical bytes of unchanged parts of the state
        # (unit records...), reused by the state hash of every exchange
        # (never kept with the match).
        self.records_memo = RecordMemo()
        # Speed only: the last exchange verified and its hash, which the
        # next exchange's `prev` names.
        self.last_hash: tuple[Exchange, str] | None = None

    # -- seats ------------------------------------------------------------------

    def side_of(self, seat: str) -> str:
        return next(s.side for s in self.seat_specs if s.name == seat)

    def team(self, seat: str) -> list[str]:
        """The seats of ``seat``'s side, ``seat`` included, in seat order:
        who can open a part it seals to its team."""
        side = self.side_of(seat)
        return [s for s in self.seat_names if self.side_of(s) == side]

    def has_team(self, seat: str) -> bool:
        return len(self.team(seat)) > 1

    def sides_of(self) -> dict[str, str]:
        return {s.name: s.side for s in self.seat_specs}

    def player_seat(self, player: str) -> str:
        """The seat the player who joined as ``player`` holds now."""
        return next((name for name, seat in self.seats.items() if (seat.player or name) == player), player)

    def others(self, seat: str | None) -> list[str]:
        """Every seat but ``seat``, in seat order."""
        return [s for s in self.seat_names if s != seat]

    def stream_fresh(self, sender: str, n: int) -> bool:
        """Whether exchange ``n``'s stream may serve any order.  The seat
        whose anchor was fixed last chose it knowing every other anchor, so
        a stream keyed only by anchors and that seat's own reveals could have
        been ground by it offline; the stream is fresh once another seat has
        revealed since (``team-streams``: a seat of another side, since his
        team-mates could have shared their reveals with him)."""
        last = self.sent_by.get(self.anchors_fixed_at)
        knew = {last}
        if last in self.seat_names and "team-streams" in (self.header.get("features") or ()):
            knew = set(self.team(last))
        for name, seat in self.seats.items():
            if (seat.player or name) in knew:
                continue
            if (n if name == sender else seat.revealed_at) > self.anchors_fixed_at:
                return True
        return False

    def stream_foreseen(self, sender: str) -> bool:
        """Whether the next exchange's stream, sent by ``sender``, was known
        to the side that last chose the state it starts from: team-mates
        may share their reveals, so every reveal keying it but those of the
        other sides; it is unknown only if a seat of another side has
        revealed since a seat of the sender's side last chose (a seat
        without team-mates: as before, judged by ``stream_fresh``)."""
        if not self.has_team(sender):
            return False
        side = self.side_of(sender)
        last = self.chose_at.get(side, 0)
        return last > 0 and not any(seat.revealed_at > last for name, seat in self.seats.items()
                                    if self.side_of(name) != side)

    def last_rolled(self) -> int:
        """The last exchange that rolled a die, drew from a shared cup or
        drew in secret (0: none).  With ``rewind-keeps-dice`` a rewind may go
        back no further: the replayed turns would get fresh streams, and the
        seat that resolves first after the rewind knows every reveal keying
        its stream when it offers or accepts, so it could agree only to a
        re-roll that suits it; a seat that drew in secret alone knows what
        it drew, so it could offer a rewind only when its draw disappointed
        it."""
        return max((r.n for r in self.records if r.rolls or r.drew_secret), default=0)

    def dice_words(self, n: int) -> str:
        """What exchange ``n`` did that a rewind may not take back."""
        rec = next(r for r in self.records if r.n == n)
        return "rolled dice" if rec.rolls else "drew in secret"

    def rewind_floor(self) -> int:
        """The earliest exchange a rewind may go back to now."""
        floor = max(2, self.reseated_at)
        if "rewind-keeps-dice" in (self.header.get("features") or ()):
            floor = max(floor, self.last_rolled())
        return floor

    def resolver(self, seat: str) -> str:
        """The seat whose next exchange resolves dice deferred by ``seat``:
        the first seat after it, in seat order and round the table, that
        plays for another side.  A team-mate could have shared his reveal in
        advance, so he may not resolve his own side's roll."""
        i = self.seat_names.index(seat)
        ring = self.seat_names[i + 1:] + self.seat_names[:i]
        side = self.side_of(seat)
        return next(s for s in ring if self.side_of(s) != side)

    # -- reading the state ----------------------------------------------------

    @property
    def game_id(self) -> str:
        return str(self.header["id"])

    @property
    def state(self) -> dict[str, Any]:
        return self.es["game"]  # type: ignore[no-any-return]

    def public_state(self) -> dict[str, Any]:
        return public_engine_state(self.es)

    def state_hash(self) -> str:
        return sha256(self.records_memo.canonical(self.public_state())).hex()

    def joined(self) -> bool:
        return len(self.seats) == len(self.seat_names)

    def pending(self) -> Decision | None:
        """The next decision of the game, engine verdicts (resignation,
        agreed draw) included.  None when the game is over."""
        if self.es.get("ended"):
            return None
        return self.rules.pending(self.state)

    def over(self, asked: list[Decision | None] | None = None) -> bool:
        """Whether the game has ended.  ``asked`` (speed only): gets the
        decision pending() gave on the way, if it was asked."""
        if not self.joined():
            return False
        d = self.pending()
        if asked is not None:
            asked.append(d)
        return d is None and not self.es.get("deferred")

    def result(self) -> str:
        ended = self.es.get("ended")
        if ended:
            return str(ended["text"])
        return self.rules.result(self.state) or "game over"

    def next_sender(self, asked: list[Decision | None] | None = None) -> str | None:
        """The seat whose program must write the next exchange.  ``asked``:
        see :meth:`over`."""
        if not self.joined():
            return next(s for s in self.seat_names if s not in self.seats)
        deferred = self.es.get("deferred")
        if deferred:
            return self.resolver(deferred["by"])
        if self.over(asked):
            return None
        return self.records[-1].waiting or None

    def summary(self) -> str:
        """One line for the file's reading copy (its wording is part of
        every file already sent, so it does not change)."""
        if not self.joined():
            return f"waiting for {self.next_sender()} to join"
        if self.over():
            return f"game over: {self.result()}"
        d = self.pending()
        return f"{self.next_sender()} to play: {d.prompt if d else ''}"

    def who_acts(self) -> str:
        """Who must act next, for a player: a seat's program that must first
        resolve another seat's deferred dice is named as doing that."""
        deferred = self.es.get("deferred")
        if self.joined() and not self.over() and deferred:
            by = deferred["by"]
            return (f"{self.next_sender()}'s program first resolves the dice of {by}'s last order; "
                    "then the game shows who decides")
        return self.summary()


def public_engine_state(es: EngineState) -> dict[str, Any]:
    out: dict[str, Any] = {k: v for k, v in es.items() if k != "game"}
    out["game"] = public(es["game"])
    deferred = es.get("deferred")
    if deferred:
        out["deferred"] = dict(deferred, order=public_order(deferred["order"]))
    return out


def public_order(order: Order) -> Order:
    """An order as the file shows it: its secret part (sealed to its owner)
    and its team part (sealed to its owner's side) removed."""
    return {k: v for k, v in order.items() if k not in ("secret", "team_secret")}


def known_parts(known: set[str], sides: dict[str, str] | None = None) -> set[str]:
    """The hidden parts a program holding the secrets of the ``known`` seats
    may hold: theirs, and their sides' team parts."""
    sides = sides or {}
    return set(known) | {team_part(sides.get(s, s)) for s in known}


def mask_hidden(state: dict[str, Any], known: set[str], sides: dict[str, str] | None = None) -> None:
    """Blank every hidden part that this program may not hold: a seat's,
    unless known; a team's, unless a seat of that side is known."""
    hidden = state.get("hidden")
    if isinstance(hidden, dict):
        keep = known_parts(known, sides)
        for seat in list(hidden):
            if seat not in keep:
                hidden[seat] = None


def initial_engine_state(rules: Rules, seats: list[str], known: set[str],
                         sides: dict[str, str] | None = None) -> EngineState:
    """The engine state before exchange 1's effects: the game's initial state
    with every hidden part this program may not hold blanked, and (games with
    hidden items) the public record of commitments."""
    from pbem.cycle import hidden

    state = rules.initial_state()
    mask_hidden(state, known, sides)
    es = fresh_engine_state(state, seats)
    hidden.add_to_engine_state(es, rules, seats)
    return es


def fresh_engine_state(game_state: dict[str, Any], seats: list[str]) -> EngineState:
    return {"game": game_state, "policies": {s: {} for s in seats}, "ended": None,
            "draw_offer": None, "deferred": None}


# ------------------------------------------------------------- moving players

def reseat(m: Match, moved: dict[str, str], n: int) -> None:
    """After exchange ``n``: the players move as the game's ``seat_players``
    says (seat -> the seat its player joined as; a seat it does not name
    keeps, or gets back, the player who joined as it).  Each player takes
    his identity, dice chain and secret seed along; the seats' hidden parts
    must still be the initial state's (the game's contract), so a player's
    program takes the initial part of the seat it now holds and blanks the
    one it left."""
    want = {seat: moved.get(seat, seat) for seat in m.seat_names}
    if sorted(want.values()) != sorted(m.seat_names):
        raise Verification(f"exchange {n}: the game moves the players to no proper seating ({want})")
    current = {seat: (m.seats[seat].player or seat) for seat in m.seat_names}
    if want == current:
        return
    if not m.joined():
        raise Verification(f"exchange {n}: players move before every seat has joined")
    by_player = {(s.player or name): s for name, s in m.seats.items()}
    seeds = {(m.seats[name].player or name): v for name, v in m.secret_seeds.items()}
    mine = (m.seats[m.me].player or m.me) if m.me else None
    known_players = {(m.seats[k].player or k) for k in m.known if k in m.seats}
    fresh = m.rules.initial_state().get("hidden") or {}
    hidden = m.es["game"].get("hidden")
    if isinstance(hidden, dict) and len(known_players) == len(m.seat_names):
        for seat in m.seat_names:      # every part known (the audit): each must be as it started
            if seat in fresh and canonical_equal(hidden.get(seat), fresh[seat]) is False:
                raise Verification(f"exchange {n}: {seat}'s hidden part changed before its player moved")
    m.seats = {}
    m.secret_seeds = {}
    for seat in m.seat_names:
        s = by_player[want[seat]]
        s.side = seat
        m.seats[seat] = s
        if want[seat] in seeds:
            m.secret_seeds[seat] = seeds[want[seat]]
    old_policies = dict(m.es.get("policies") or {})
    m.es["policies"] = {seat: old_policies.get(current_seat(current, want[seat]), {}) for seat in m.seat_names}
    m.me = next((seat for seat in m.seat_names if want[seat] == mine), None) if mine else None
    m.known = {seat for seat in m.seat_names if want[seat] in known_players}
    if isinstance(hidden, dict):
        keep = known_parts(m.known, m.sides_of())
        for part in list(hidden):
            if part not in keep:
                hidden[part] = None
            elif hidden[part] is None and part in fresh:
                hidden[part] = fast_copy(fresh[part])
    m.reseated_at = n


def current_seat(current: dict[str, str], player: str) -> str:
    return next(seat for seat, p in current.items() if p == player)


def canonical_equal(a: Any, b: Any) -> bool | None:
    """Whether two hidden parts are the same (None: ``a`` is not known)."""
    if a is None:
        return None
    from pbem.protocol.canon import canonical

    return canonical(a) == canonical(b)
