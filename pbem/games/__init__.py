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
game until a game is needed, so ``pbem --help`` stays fast.  Loading one of
pbem's own games reads only pbem's own ``entry_points.txt`` (in the first
``pbem-*.dist-info`` or ``pbem.egg-info`` on ``sys.path``, where
:mod:`importlib.metadata` finds it); every distribution is scanned only to
list the games or to find a game pbem does not ship.  The answer is the
same either way, since pbem's own games win a clash with another
distribution's.

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

__all__ = ["GROUP", "ENV", "registered", "ids", "known", "load", "load_all", "default_demo"]

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


_own: dict[str, str] | None = None


def _own_games() -> dict[str, str] | None:
    """pbem's own games (id -> "module:attr", in the order its metadata
    lists them) read straight from its ``entry_points.txt``, or None where
    that file cannot be found plainly (no install, an egg link, two
    candidates in one folder, a line this reader does not know): then only
    the full scan answers."""
    global _own
    if _own is None:
        _own = _read_own() or {}
    return _own or None


def _read_own() -> dict[str, str] | None:
    import sys

    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except (OSError, TypeError):
            continue
        mine = [n for n in names if n.lower().endswith((".dist-info", ".egg-info", ".egg-link"))
                and _normal(n.rsplit(".", 1)[0].split("-", 1)[0]) == _HOME_DIST]
        if not mine:
            continue
        if len(mine) != 1 or mine[0].lower().endswith(".egg-link"):
            return None
        try:
            with open(os.path.join(entry or ".", mine[0], "entry_points.txt"), encoding="utf-8") as f:
                text = f.read()
        except OSError:
            return None
        return _group_of(text)
    return None


def _group_of(text: str) -> dict[str, str] | None:
    """The ``pbem.games`` section of an ``entry_points.txt`` (None when a
    line is not the plain ``name = value`` form)."""
    out: dict[str, str] = {}
    section = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif section == GROUP:
            name, eq, value = line.partition("=")
            if not eq or not name.strip() or raw[0].isspace():
                return None
            out.setdefault(name.strip(), value.strip())
    return out


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


def _fast_target(game_id: str) -> str | None:
    """What :func:`registered` says of ``game_id`` when that needs no scan:
    a ``$PBEM_GAME_MODULES`` entry, else one of pbem's own games (which win
    a clash with other distributions); None otherwise."""
    env = _from_env()
    if game_id in env:
        return env[game_id]
    own = _own_games()
    if own is not None and game_id in own:
        return own[game_id]
    return None


def known(game_id: str) -> bool:
    """``game_id in registered()``, scanning the installed distributions
    only when it is not one of pbem's own games or an override."""
    return _fast_target(game_id) is not None or game_id in registered()


def _target(game_id: str) -> str:
    fast = _fast_target(game_id)
    if fast is not None:
        return fast
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
