"""The contract between the core and a game's rules (see
:mod:`pbem.game.contract` for the whole story), the data a game shows
(:mod:`pbem.game.view`), and the defaults and probe games build on
(:mod:`pbem.game.base`).  A game imports this package and the kernel
(:mod:`pbem.board`), nothing else of pbem."""
from __future__ import annotations

from pbem.game.base import (
    BaseGame, BaseRules, ProbeStop, attack_plan, check_commitment, commit, opened_choice, probe, sealed_choice, validate_seats,
)
from pbem.game.contract import (
    MAX_SEATS, MIN_SEATS, Decision, Event, Game, IllegalOrder, Order, Rng, Rules, ScenarioError, SeatSpec, State,
    TEAM_PART, public, seen_by, team_part,
)
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pbem.game.view import (
        Area, AreaLink, AreaMapPicture, Block, HexMapBlock, HexMapPicture, MapPicture, Piece, TableBlock, TextBlock,
        View, terrain_mark,
    )

# The view's data types load when first named (speed only: a command that
# draws nothing, such as verify, does not pay for their classes).
_VIEW_NAMES = frozenset({
    "Area", "AreaLink", "AreaMapPicture", "Block", "HexMapBlock", "HexMapPicture", "MapPicture", "Piece",
    "TableBlock", "TextBlock", "View", "terrain_mark",
})


def __getattr__(name: str) -> Any:
    if name in _VIEW_NAMES:
        from pbem.game import view

        value = getattr(view, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "MAX_SEATS", "MIN_SEATS", "TEAM_PART", "opened_choice", "sealed_choice", "team_part", "Area", "AreaLink", "AreaMapPicture", "BaseGame", "BaseRules", "Block", "Decision",
    "Event", "Game", "HexMapBlock", "HexMapPicture", "IllegalOrder", "MapPicture", "Order", "Piece", "ProbeStop",
    "Rng", "Rules", "ScenarioError", "SeatSpec", "State", "TableBlock", "TextBlock", "View", "check_commitment",
    "attack_plan", "commit", "probe", "public", "seen_by", "terrain_mark", "validate_seats",
]
