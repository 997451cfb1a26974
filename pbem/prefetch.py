"""Speed only: what ``pbem verify`` can start on while the worker forked
at its start (:mod:`pbem.protocol.early`) still parses the game file:
importing the game's rules and loading the scenario the file names.

The names come from the file's first bytes (the ``[game]`` copy of the
signed header that pbem writes at the top): a hint, never trusted.  The
replay goes on from the signed header of the parse as always; a wrong or
missing hint only costs the work it started, and a scenario loaded here is
taken only under the name the replay asks for."""
from __future__ import annotations

from typing import Any

_KEPT: dict[str, dict[str, Any]] = {}     # scenario name -> the scenario loaded ahead, for one taker
_NAME = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789_./-")


def hint(data: bytes) -> tuple[str, str] | None:
    """The game and scenario the ``[game]`` table at the top of a game
    file's ``data`` names, or None.  (Read line by line: compiling a
    pattern would cost more than the read.)"""
    lines = iter(data[:8192].split(b"\n"))
    line = next((line for line in lines if line.strip() and line[:1] != b"#"), b"")
    if line != b"[game]":
        return None
    fields: dict[bytes, str] = {}
    for line in lines:
        key, equals, value = line.partition(b" = ")
        if not equals or line[:1] == b"[":
            break
        if key in (b"game", b"scenario") and 2 < len(value) < 100 and value[:1] == value[-1:] == b'"' \
                and _NAME.issuperset(value[1:-1]):
            fields[key] = value[1:-1].decode()
    return (fields[b"game"], fields[b"scenario"]) if len(fields) == 2 else None


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
