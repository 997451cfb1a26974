"""The words of a terse order notation shared by the chit-pull games (A Victory
Awaits / Fierce Fight! Smolensk and A Victory Denied): unit names, hexes,
chits, yes/no answers, and "each thing once".

A game makes one :class:`Notation` with its choices where the games differ
(the hex pattern and its hint, the words that mean yes or no) and the
exception its refusals raise (one line naming the problem); whether the
part of a unit id after the dash is a name of its own is an argument of
:func:`spellings`.  The rest is written once here.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable
from typing import Any

from pbem.board.frozen import Frozen

YES = ("yes", "y")
NO = ("no", "n")


def squash(text: str) -> str:
    """``text`` without spaces, dots or underscores, in lower case: "7. Pz" -> "7pz"."""
    return re.sub(r"[\s._]", "", text).lower()


def spellings(units: Iterable[tuple[str, str | None]], *, after_dash: bool = False) -> dict[str, list[str]]:
    """Every spelling a player may type -> the unit ids it names.

    ``units`` gives (id, printed name or None) pairs, in the order the ids
    are listed under a spelling.  A unit answers to its id in lower case,
    its id squashed and its printed name squashed; with ``after_dash`` also
    to the squashed part of its id after the first dash ("AX-3PzG" -> "3pzg").
    """
    spell: dict[str, list[str]] = {}
    for uid, name in units:
        forms = {uid.lower(), squash(uid), squash(name or uid)}
        if after_dash and "-" in uid:
            forms.add(squash(uid.split("-", 1)[1]))
        for form in sorted(forms):
            hits = spell.setdefault(form, [])
            if uid not in hits:
                hits.append(uid)
    return spell


class Notation(Frozen):
    """One game's reading of the words.

    ``refusal`` is the exception a bad word raises with its one line (the
    game passes the contract's IllegalOrder: the kernel does not import the
    contract); ``hex_pattern`` and ``hex_hint`` say what a hex looks like;
    ``yes`` and ``no`` are the words (lower case) of a yes/no answer.

    A plain class as :class:`pbem.board.odds.Result` is, with the methods
    ``@dataclass(frozen=True)`` would write (speed only).
    """

    __match_args__ = ("refusal", "hex_pattern", "hex_hint", "yes", "no")
    refusal: Callable[[str], Exception]
    hex_pattern: re.Pattern[str]
    hex_hint: str
    yes: Collection[str]
    no: Collection[str]

    def __init__(self, refusal: Callable[[str], Exception], hex_pattern: re.Pattern[str], hex_hint: str,
                 yes: Collection[str] = YES, no: Collection[str] = NO) -> None:
        object.__setattr__(self, "refusal", refusal)
        object.__setattr__(self, "hex_pattern", hex_pattern)
        object.__setattr__(self, "hex_hint", hex_hint)
        object.__setattr__(self, "yes", yes)
        object.__setattr__(self, "no", no)

    def _fields(self) -> tuple[Any, ...]:
        return (self.refusal, self.hex_pattern, self.hex_hint, self.yes, self.no)

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(refusal={self.refusal!r}, hex_pattern={self.hex_pattern!r}, "
                f"hex_hint={self.hex_hint!r}, yes={self.yes!r}, no={self.no!r})")


    def unit(self, spell: dict[str, list[str]], word: str) -> str:
        """A typed unit name -> its id, through a :func:`spellings` table.

        A spelling several units share must be the exact id (any case) of
        one of them; otherwise the refusal lists them.
        """
        w = word.lower()
        hits = spell.get(w) or spell.get(squash(word))
        if not hits:
            raise self.refusal(f"no unit called {word!r}")
        exact = [u for u in hits if u.lower() == w]
        if len(hits) > 1 and len(exact) != 1:
            raise self.refusal(f"{word!r} could be {', '.join(sorted(hits))}: use the id")
        return exact[0] if len(hits) > 1 else hits[0]

    def hexid(self, word: str) -> str:
        """``word`` if it is a hex; else a refusal ending in ``(hex_hint)``."""
        if not self.hex_pattern.match(word):
            raise self.refusal(f"{word!r} is not a hex ({self.hex_hint})")
        return word

    def chit(self, chits: Collection[str], word: str) -> str:
        """The chit id ``word`` names, in any case; the refusal lists the chits."""
        for c in chits:
            if c.lower() == word.lower():
                return c
        raise self.refusal(f"no chit called {word!r}; chits: {', '.join(sorted(chits))}")

    def yesno(self, word: str) -> bool:
        """True for a word of ``yes``, False for one of ``no`` (any case)."""
        w = word.lower()
        if w in self.yes:
            return True
        if w in self.no:
            return False
        raise self.refusal(f"expected yes or no, got {word!r}")

    def once(self, items: Iterable[Any], what: str, show: Callable[[Any], str] = str) -> None:
        """Refuse the first of ``items`` named a second time (``show`` writes it)."""
        seen: set[Any] = set()
        for x in items:
            if x in seen:
                raise self.refusal(f"{show(x)} is named twice: name each {what} once")
            seen.add(x)
