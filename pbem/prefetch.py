"""Speed only: what ``pbem verify`` can start on while the worker forked
at its start (:mod:`pbem.protocol.early`) still parses the game file:
importing the game's rules and loading the scenario the file names.

The names come from the file's first bytes (the ``[game]`` copy of the
signed header that pbem writes at the top): a hint, never trusted.  The
replay goes on from the signed header of the parse as always; a wrong or
missing hint only costs the work it started, and a scenario loaded here is
taken only under the name the replay asks for."""
from __future__ import annotations

import re
from typing import Any

_KEPT: dict[str, dict[str, Any]] = {}     # scenario name -> the scenario loaded ahead, for one taker
_HEAD = re.compile(rb"\A(?:#[^\n]*\n|\s)*\[game\]\n((?:[a-z_0-9]+ = [^\n]*\n)*)")
_FIELD = re.compile(rb'^(game|scenario) = "([a-z0-9_./-]{1,100})"$', re.M)


def hint(data: bytes) -> tuple[str, str] | None:
    """The game and scenario the ``[game]`` table at the top of a game
    file's ``data`` names, or None."""
    head = _HEAD.match(data[:8192])
    if head is None:
        return None
    fields = {key.decode(): value.decode() for key, value in _FIELD.findall(head.group(1))}
    return (fields["game"], fields["scenario"]) if len(fields) == 2 else None


def warm(game_id: str, scenario_name: str) -> None:
    """Load the scenario (kept for :func:`take_scenario`) and import the
    game's rules by making them once from another copy; whatever fails is
    met again in its place."""
    from pbem import cache, games, scenario

    try:
        path = scenario.find(scenario_name)
        _KEPT[scenario_name] = cache.load_scenario(path)
        games.load(game_id).rules(cache.load_scenario(path), {})
    except Exception:
        pass


def take_scenario(name: str) -> dict[str, Any] | None:
    """The scenario :func:`warm` loaded under ``name``, once; None if none."""
    return _KEPT.pop(name, None)


def forget() -> None:
    """Drop whatever was loaded ahead and not taken (the command is over)."""
    _KEPT.clear()
