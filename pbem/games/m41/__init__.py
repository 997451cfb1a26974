"""Moscow '41 (VentoNuovo Games, 1941 Army Group Centre): a block game with
fog of war on an area map.  ``GAME`` satisfies :class:`pbem.game.Game`."""
from __future__ import annotations

from .rules import M41Game

GAME = M41Game()

__all__ = ["GAME"]
