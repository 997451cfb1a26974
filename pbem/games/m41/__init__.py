"""Moscow '41 (VentoNuovo Games, 1941 Army Group Centre): a block game with
fog of war on an area map.  ``GAME`` satisfies :class:`pbem.game.Game`."""
from __future__ import annotations

from .rules import M41Game


class _Registered(M41Game):
    """The game as registered (pyproject's "pbem.games" entry points): where
    its shipped scenarios are (the repository's scenarios/m41/, packaged as
    pbem_scenarios) and what `pbem demo m41` plays."""

    scenario_package = "pbem_scenarios.m41"
    demo_scenario = "m41/practice"


GAME = _Registered()

__all__ = ["GAME"]
