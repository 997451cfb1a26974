"""The games.  Each is a package ``pbem.games.<id>`` whose ``GAME`` object
satisfies :class:`pbem.game.Game`.  Imported lazily so that ``pbem --help``
stays fast.

``PBEM_GAME_MODULES`` (``id=module,id=module``) adds games from elsewhere;
the test suite uses it for a small protocol-test game.
"""
from __future__ import annotations

import importlib
import os

from pbem.errors import UsageError
from pbem.game import Game

KNOWN = {
    "avd": "A Victory Denied",
    "m41": "Moscow '41",
}


def _extra() -> dict[str, str]:
    out: dict[str, str] = {}
    for item in os.environ.get("PBEM_GAME_MODULES", "").split(","):
        if "=" in item:
            gid, mod = item.split("=", 1)
            out[gid.strip()] = mod.strip()
    return out


def load(game_id: str) -> Game:
    extra = _extra()
    if game_id in extra:
        module = extra[game_id]
    elif game_id in KNOWN:
        module = f"pbem.games.{game_id}"
    else:
        known = sorted(set(KNOWN) | set(extra))
        raise UsageError(f"unknown game {game_id!r}; known: {', '.join(known)}")
    try:
        return importlib.import_module(module).GAME
    except ImportError as exc:
        raise UsageError(f"game {game_id!r} is not available in this installation ({exc})") from None
