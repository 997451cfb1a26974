"""The game file's parts as types, where they cross module boundaries
(``schema.py`` checks them at load; these describe them to the checker).

Every exchange carries the common fields; the rest depend on its kind
(docs/FILE-FORMAT.md).  ``total=False`` because no one kind has them all.
"""
# Speed only: the TypedDicts exist for the type checker alone; at run time
# each name is the plain dict its values are (a TypedDict is called and
# cast as one), so no class of the typing machinery is made at every start
# of a command (~2.4M instructions, a cold verify included).
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing import TypedDict


    class Identity(TypedDict):
        """A player's public identity as a file carries it."""

        name: str
        email: str
        sign_pub: str
        seal_pub: str
        fingerprint: str


    class SeatEntry(TypedDict, total=False):
        side: str
        roles: list[str]


    class Header(TypedDict, total=False):
        """Exchange 1's ``game`` table."""

        format: str
        id: str
        game: str
        scenario: str
        scenario_sha256: str
        dice: str
        options: dict[str, Any]
        sides: list[str]
        seats: dict[str, SeatEntry]
        invited: dict[str, Identity]
        position: dict[str, Any]
        features: list[str]


    class OrderEntry(TypedDict, total=False):
        """One order as an exchange lists it."""

        side: str
        by: str
        order: dict[str, Any]
        deferred: bool
        skipped: bool


    class Exchange(TypedDict, total=False):
        """One signed exchange."""

        game_id: str
        n: int
        kind: str
        side: str
        prev: str
        state: str
        sig: str
        game: Header
        player: Identity
        anchor: str
        chain_n: int
        secret_commit: str
        sealed: str
        sealed_hash: str
        team_sealed: dict[str, str]
        team_hash: str
        reveal: str
        orders: list[OrderEntry]
        hidden_root: str
        message: str
        to: int
        who: str
        secrets: dict[str, dict[str, Any]]


    class Deferred(TypedDict):
        """An order waiting for another side's dice."""

        side: str
        order: dict[str, Any]
        by: str


    class EngineState(TypedDict, total=False):
        """What the engine keeps beside the game's own state; its public part is
        what every exchange's ``state`` hashes."""

        game: dict[str, Any]
        policies: dict[str, dict[str, Any]]
        ended: dict[str, Any] | None
        draw_offer: str | None
        draw_agreed: list[str]
        abandon_offer: str | None
        abandon_agreed: list[str]
        deferred: Deferred | None
        hidden_roots: dict[str, str]
        opened: dict[str, dict[str, str]]
else:
    Identity = SeatEntry = Header = OrderEntry = Exchange = Deferred = EngineState = dict
