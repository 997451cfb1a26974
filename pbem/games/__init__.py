"""The games.  Each is a package ``pbem.games.<id>`` whose ``GAME`` object
satisfies :class:`pbem.game.Game`.  Imported lazily so that ``pbem --help``
stays fast."""
from __future__ import annotations

import importlib

from pbem.errors import UsageError
from pbem.game import Game

KNOWN = {
    "avd": "A Victory Denied",
    "m41": "Moscow '41",
}


def load(game_id: str) -> Game:
    if game_id not in KNOWN:
        raise UsageError(f"unknown game {game_id!r}; known: {', '.join(sorted(KNOWN))}")
    return importlib.import_module(f"pbem.games.{game_id}").GAME
