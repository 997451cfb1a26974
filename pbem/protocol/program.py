"""Which program started a game: the header's ``program`` field.

Rule fixes ship under the same format, so a game signed under one reading of
a rule may stop replaying under a later pbem.  A new game names the program
that started it (``program = "pbem 0.3.0"``, signed with exchange 1), and a
file that no longer replays tells its player which version to finish it
with.  Files from before 0.3.0 name none; they replay as before.
"""
from __future__ import annotations

import re
from typing import Any

from pbem import __version__
from pbem.errors import InvalidFile, PbemError

PROGRAM = f"pbem {__version__}"
"""What this program writes in the header of a game it starts."""

PATTERN = re.compile(r"pbem [0-9]{1,4}\.[0-9]{1,4}\.[0-9]{1,4}[0-9A-Za-z.+-]{0,32}")
"""``pbem`` and a release (``0.3.0``, ``0.3.1rc1``, ``0.4.0.dev2+g1a2b``).
Bounded and plain: the field reaches the player's screen in the hint below,
and a hostile file must not put its own words there."""

FIRST = "0.3.0"
"""The first version to record itself."""

UNRECORDED = "0.2.0"
"""The version that wrote every ``pbem/2`` file without the field: the ones
before it wrote ``pbem/1`` (refused by format, see ``gamefile``)."""


def check_program(value: Any, where: str) -> None:
    """The header's ``program`` field, refused by name unless it matches
    :data:`PATTERN` (a schema check: ``where`` names the file and field)."""
    if not isinstance(value, str) or not PATTERN.fullmatch(value):
        raise InvalidFile(f"{where} should name the pbem that started the game, as {PROGRAM!r} does")


def started_by(header: dict[str, Any]) -> str | None:
    """The version named by the ``program`` field of ``header``; None for a
    file from before the field."""
    value = header.get("program")
    if isinstance(value, str) and PATTERN.fullmatch(value):
        return value.split(" ", 1)[1]
    return None


def finish_hint(header: dict[str, Any]) -> str:
    """What a player whose game no longer replays can do: finish it with the
    version that started it.  Empty when that is this version (the failure
    is then the file's, not an upgrade's)."""
    made = started_by(header)
    if made == __version__:
        return ""
    if made is None:
        return (f"this game was started before pbem {FIRST} (its file names no version) and this is pbem "
                f"{__version__}: install pbem {UNRECORDED} to finish this game")
    return f"this game was started by pbem {made} and this is pbem {__version__}: install pbem {made} to finish this game"


def with_hint(message: str, gf: Any) -> str:
    """``message`` (a replay failure of the game file ``gf``) with
    :func:`finish_hint` after it.  Only a header its creator signed is
    believed: a file edited in transit (its ``program`` too) fails at
    exchange 1's signature and names no version to install."""
    if not _creator_signed(gf):
        return message
    hint = finish_hint(gf.header)
    return f"{message}; {hint}" if hint else message


def _creator_signed(gf: Any) -> bool:
    from pbem.protocol.gamefile import signing_bytes
    from pbem.protocol.identity import PublicIdentity

    first = gf.exchanges[0]
    try:
        creator = PublicIdentity.from_dict(first.get("player"), where="exchange 1 player")
        return bool(creator.verify(signing_bytes(first), bytes.fromhex(first["sig"])))
    except (PbemError, KeyError, TypeError, ValueError):
        return False
