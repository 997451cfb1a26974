"""The games are plug-ins.  A game is any object satisfying
:class:`pbem.game.Game`, registered by its distribution under the
``pbem.games`` entry-point group::

    [project.entry-points."pbem.games"]
    mygame = "mygame_pkg:GAME"

The built-in games register the same way in pbem's own ``pyproject.toml``;
nothing outside a game's package names a game.  Optional attributes of a
``GAME`` object that pbem reads:

``scenario_package``
    an importable package (regular or namespace) whose ``*.toml`` files are
    the game's shipped scenarios, named ``<game id>/<file stem>``
    (read with :mod:`importlib.resources`; see :mod:`pbem.scenario`).
``demo_scenario``
    the scenario ``pbem demo <game id>`` plays ("avd/practice"); the
    scripted player is the rules object's ``demo_order``/``demo_policies``.
``demo_first``
    True for the game ``pbem demo`` plays when no game is named.

Discovery is lazy: nothing here imports :mod:`importlib.metadata` or a
game until a game is needed, so ``pbem --help`` stays fast.

``PBEM_GAME_MODULES`` (``id=module[:attr],id=module``) adds games, or
replaces registered ones, without installing anything; the test suite uses
it for its protocol-test game.
"""
from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any

from pbem.errors import UsageError

if TYPE_CHECKING:
    from pbem.game import Game

__all__ = ["GROUP", "ENV", "registered", "ids", "load", "load_all", "default_demo"]

GROUP = "pbem.games"
"""The entry-point group games register under."""

ENV = "PBEM_GAME_MODULES"

# The program's own distribution: its games come first, by id (the order
# its installed metadata lists them in).
_HOME_DIST = "pbem"

_scanned: dict[str, str] | None = None


def _from_env() -> dict[str, str]:
    out: dict[str, str] = {}
    for item in os.environ.get(ENV, "").split(","):
        if "=" in item:
            gid, target = item.split("=", 1)
            if gid.strip() and target.strip():
                out[gid.strip()] = target.strip()
    return out


def _scan() -> dict[str, str]:
    """game id -> "module:attr" from the installed distributions, scanned
    once per process."""
    global _scanned
    if _scanned is None:
        from importlib.metadata import entry_points

        own: list[tuple[str, str]] = []
        other: list[tuple[str, str, str]] = []
        for ep in entry_points(group=GROUP):
            dist = ep.dist.name if ep.dist is not None else ""
            if _normal(dist) == _HOME_DIST:
                own.append((ep.name, ep.value))
            else:
                other.append((ep.name, _normal(dist), ep.value))
        found: dict[str, str] = {}
        for name, value in own:
            found.setdefault(name, value)
        # Other distributions: by game id, then distribution name, so the
        # order (and who wins a clash) never depends on the file system.
        for name, _dist, value in sorted(other):
            found.setdefault(name, value)
        _scanned = found
    return dict(_scanned)


def _normal(dist_name: str) -> str:
    return dist_name.lower().replace("_", "-").replace(".", "-")


def registered() -> dict[str, str]:
    """Every game this installation knows: game id -> "module:attr", in
    order (pbem's own games by id, then other
    distributions' games by id; ``$PBEM_GAME_MODULES`` entries replace a
    registered game of the same id or come last)."""
    found = _scan()
    found.update(_from_env())
    return found


def ids() -> list[str]:
    """The registered game ids, in :func:`registered` order."""
    return list(registered())


def _target(game_id: str) -> str:
    found = registered()
    if game_id not in found:
        known = ", ".join(found) or "none"
        raise UsageError(f"unknown game {game_id!r}; installed games: {known}")
    return found[game_id]


def load(game_id: str) -> Game:
    """The ``GAME`` object of a registered game.  UsageError (one line) if
    the game is unknown or cannot be imported."""
    target = _target(game_id)
    module, _, attr = target.partition(":")
    try:
        obj: Any = importlib.import_module(module.strip())
    except ImportError as exc:
        raise UsageError(f"game {game_id!r} is not available in this installation ({exc})") from None
    try:
        for part in (attr.strip() or "GAME").split("."):
            obj = getattr(obj, part)
    except AttributeError:
        raise UsageError(f"game {game_id!r}: {target} names no object") from None
    if getattr(obj, "id", None) != game_id:
        raise UsageError(f"game {game_id!r} is registered as {target}, whose id is {getattr(obj, 'id', None)!r}")
    return obj  # type: ignore[no-any-return]


def load_all() -> tuple[dict[str, Game], dict[str, str]]:
    """Every registered game that loads, and for each that does not, the
    one-line reason: ``(games, failures)``."""
    loaded: dict[str, Game] = {}
    failed: dict[str, str] = {}
    for gid in registered():
        try:
            loaded[gid] = load(gid)
        except UsageError as exc:
            failed[gid] = str(exc)
    return loaded, failed


def default_demo() -> str:
    """The game ``pbem demo`` plays when none is named: the first registered
    game (in :func:`registered` order) whose ``GAME`` says ``demo_first``,
    else the first that names a ``demo_scenario``.  The flag, not the
    order, decides, because an installed distribution lists its entry points
    sorted by name whatever order its pyproject gave them."""
    offered: list[str] = []
    for gid in registered():
        try:
            game = load(gid)
        except UsageError:
            continue
        if game.demo_scenario:
            if getattr(game, "demo_first", False):
                return gid
            offered.append(gid)
    if offered:
        return offered[0]
    raise UsageError("no installed game offers a demo")
