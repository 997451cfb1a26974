"""Moscow '41 positions (see docs/FILE-FORMAT.md, "Positions").

Every block stands face down under a token whose identity only its owner
knows, so a position that starts a game cannot name blocks (the creator
would know his opponent's).  A Moscow '41 position therefore starts at the
set-up, where each side places its own blocks in secret on the scenario's
spots, and describes the public situation around it as ``[markers]``: any
part of the public state that differs from the scenario's start (the turn,
the weather, the initiative, area control, defensive lines, discs...)::

    game = "m41"
    scenario = "m41/practice"
    [markers]
    turn = 3
    weather = "mud"
    control = {"12" = "german", "37" = "soviet"}

``pbem position`` writes the whole public state the same way (and, after
the audit, each side's ``hidden`` part); such a position starts a game only
while the game is still at its set-up.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.game import ScenarioError, State
from pbem.game.base import check_position, encode_none, set_markers

if TYPE_CHECKING:
    from pbem.games.m41.rules import M41Rules

KEYS = {"game", "scenario", "markers", "hidden"}
# Set by the set-up itself, from the scenario's spots: a position cannot move them.
FIXED = {"hidden", "tokens", "setup_group", "setup_done", "next_token", "phase", "scenario", "options"}


def position_of(rules: "M41Rules", state: State, seat: str | None) -> dict[str, Any]:
    start = rules.scenario_start()
    out: dict[str, Any] = {"game": "m41", "scenario": rules.sc.id}
    out["markers"] = {k: encode_none(v) for k, v in sorted(state.items())
                      if k != "hidden" and (k not in start or start[k] != v)}
    hidden = {s: encode_none(h) for s, h in sorted((state.get("hidden") or {}).items())
              if h is not None and h != (start.get("hidden") or {}).get(s)}
    if hidden:                      # only the audit's state holds them all
        out["hidden"] = hidden
    return out


def state_from_position(rules: "M41Rules", position: dict[str, Any]) -> State:
    check_position(position, "m41", KEYS, "hidden blocks")
    st = rules.scenario_start()
    set_markers(st, position.get("markers", {}), FIXED, "comes from the set-up (a position starts at it)")
    for area, side in (st.get("control") or {}).items():
        if area not in rules.sc.graph.areas or side not in ("german", "soviet", None):
            raise ScenarioError(f"position: control {area!r} = {side!r}: an area of the map and a side")
    try:
        rules.pending(st)
    except Exception as exc:
        raise ScenarioError(f"position: the sequence of play cannot go on from it ({type(exc).__name__}: {exc})") \
            from None
    return st
