"""A shared chit cup with face-down selections: the mechanism of the chit-pull
games (A Victory Denied, the *Fierce Fight!* family).

Each side chooses its chits in secret; the chits go into one cup that both
sides draw from at random; the owner of a drawn chit turns it up.  In a
play-by-email game that is four steps, each a pure function over one JSON
dict (the *cup*) kept in the public state:

``seal``
    The owner's chosen chits become public *handles* ("axis.3.1", ...), one
    per chit; the cup holds the token ``"sealed:<handle>"`` for each and
    ``sealed`` remembers who owns it.  The chits under the handles are the
    owner's secret, returned for the game to keep in its hidden state (the
    core's hidden-item service commits and seals them).  The handles carry
    only the owner, the turn tag and a running number: the public cup is
    the same whatever chits were chosen, in whatever order.
``deal``
    Before the first draw each owner's secrets are mixed under his handles
    by his *secret* stream (``rng.secret(owner)``), so that neither the
    order the chits were named in nor the place of a handle in the cup
    says which chit it holds.  A program without the owner's stream (his
    opponent's) leaves that owner's secret alone: it never had it.
``draw``
    The public stream picks a place in the cup uniformly; the token there
    leaves the cup.  A face-up token (a common chit such as the Supply
    Check, or a chit put back after an interrupt) is known at once; a
    sealed one names only its owner.
``reveal``
    The owner opens the handle (the core checks the opening against the
    commitment); the chit is recorded under ``shown``.

``put_back`` returns a drawn chit to the cup face up (an interrupt: AVD
7.2.2, AVA 7.3): it has been seen, so it stays known, and it is drawn again
at random like any other.

A cup dict::

    {"cup": ["sealed:axis.3.1", "supply", ...],   # tokens still in the cup
     "sealed": {"axis.3.1": "axis", ...},         # handle -> owner, still face down
     "shown": {"axis.3.2": "2PzG", ...},          # handle -> chit, turned up
     "dealt": False}                              # mixed for this turn yet?
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Collection, Protocol, Sequence, TypeVar

SEALED = "sealed:"
T = TypeVar("T")

Cup = dict[str, Any]


class _Stream(Protocol):
    def draw(self, items: Sequence[T], purpose: str) -> int: ...

    def shuffle(self, items: Sequence[T], purpose: str) -> list[T]: ...


class _Rng(_Stream, Protocol):
    def secret(self, seat: str) -> Any: ...


@dataclass(frozen=True)
class Drawn:
    """The token drawn: ``chit`` when it was face up, else ``handle`` and
    ``owner`` (the chit still to be revealed by its owner)."""

    token: str
    chit: str | None
    handle: str | None
    owner: str | None


def new_cup() -> Cup:
    return {"cup": [], "sealed": {}, "shown": {}, "dealt": False}


def seal(cup: Cup, owner: str, secrets: Sequence[Any], tag: str) -> dict[str, Any]:
    """Put ``len(secrets)`` face-down tokens of ``owner`` in the cup and
    return handle -> secret (the owner's hidden part).  ``tag`` makes the
    handles unique (owner and turn, e.g. "axis.3"); it must not name the
    chits."""
    out: dict[str, Any] = {}
    for i, value in enumerate(secrets, start=1):
        h = f"{tag}.{i}"
        if h in cup["sealed"] or h in cup["shown"]:
            raise ValueError(f"handle {h} is already in use")
        cup["sealed"][h] = owner
        cup["cup"].append(SEALED + h)
        out[h] = value
    cup["dealt"] = False
    return out


def add_open(cup: Cup, chit: str) -> None:
    """A chit that goes in face up (a common chit known to be there)."""
    cup["cup"].append(chit)


def deal(cup: Cup, secrets: dict[str, dict[str, Any]], rng: _Rng, *, fixed: Collection[str] = ()) -> None:
    """Mix each owner's secrets under his face-down handles with his secret
    stream (see the module docstring).  ``secrets``: owner -> handle ->
    value, the hidden parts this program holds (an owner it lacks is simply
    absent; the stream is still asked for, so that every program stops at
    the same point under sealed dice).  Handles in ``fixed`` keep their
    chit (AVD 3.7: a chit set aside to be played first).  Mutates the
    dicts in place."""
    cup["dealt"] = True
    for owner in sorted(set(cup["sealed"].values())):
        handles = sorted(h for h, o in cup["sealed"].items() if o == owner and h not in fixed)
        if len(handles) < 2:
            continue
        stream = rng.secret(owner)
        mine = secrets.get(owner)
        if stream is None or mine is None:
            continue
        mixed = stream.shuffle([mine[h] for h in handles], f"{owner} chits face down in the cup")
        mine.update(zip(handles, mixed))


def draw(cup: Cup, rng: _Stream, purpose: str) -> Drawn:
    """One token drawn at random from the cup and removed (deal first)."""
    if not cup["cup"]:
        raise ValueError("the cup is empty")
    i = rng.draw(cup["cup"], purpose)
    token: str = cup["cup"].pop(i)
    if token.startswith(SEALED):
        h = token[len(SEALED):]
        return Drawn(token, None, h, cup["sealed"][h])
    return Drawn(token, token, None, None)


def reveal(cup: Cup, handle: str, chit: str) -> None:
    """Record the chit under a drawn handle (the opening already checked)."""
    if handle not in cup["sealed"]:
        raise ValueError(f"{handle} is not a face-down handle")
    if SEALED + handle in cup["cup"]:
        raise ValueError(f"{handle} is still in the cup")
    del cup["sealed"][handle]
    cup["shown"][handle] = chit


def put_back(cup: Cup, chit: str) -> None:
    """A drawn chit returned to the cup; it is known now, so face up."""
    cup["cup"].append(chit)


def remaining(cup: Cup, owner: str | None = None) -> int:
    """Tokens still in the cup (of one owner's face-down ones, if given)."""
    if owner is None:
        return len(cup["cup"])
    return sum(1 for t in cup["cup"] if t.startswith(SEALED) and cup["sealed"][t[len(SEALED):]] == owner)


def empty(cup: Cup) -> bool:
    return not cup["cup"]


def clear(cup: Cup) -> None:
    """End of turn: everything drawn or left goes back to the pools."""
    cup.update(new_cup())
