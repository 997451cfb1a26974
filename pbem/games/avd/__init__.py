"""A Victory Denied: Crisis at Smolensk, July-September 1941 (MMP).

``GAME`` is the object the protocol drives (see :mod:`pbem.game`).
"""
from __future__ import annotations

from typing import Any

from pbem.game import BaseGame, ScenarioError
from pbem.games.avd.model import GERMAN, SOVIET

OPTIONS: dict[str, tuple[Any, str]] = {
    "strategic_cost": (1, "8.3.1: half-MP units per road hex in strategic movement (1 = 1/2 MP; 'one third' "
                          "reading not representable in half-MP, so 1 or 2)"),
    "turn1_special_all_2pzg": (True, "4.1.2 / default 25: every 2nd Panzer Group combat unit fights in the "
                                     "Turn 1 special segment (False: motorized only)"),
    "minsk_chits_doubled": (True, "16.3.1 / default 22: Minsk-escape chits are doubled under Objective Moscow!"),
    "minsk_chit_adds_value": (True, "14.0 / default 21: a bought 9th Army chit adds 1 to the release value"),
    "bomber_turn1_shift": (True, "13.3 / default 27: the Turn 1 two-column bonus applies to the Bomber"),
}

POLICY_KINDS: dict[str, str] = {}


class AvdGame(BaseGame):
    """The game package's entry point."""

    id = "avd"
    title = "A Victory Denied: Crisis at Smolensk, July-September 1941"
    sides = (GERMAN, SOVIET)
    # Registration (pyproject's "pbem.games" entry points): where the shipped
    # scenarios are (the repository's scenarios/avd/, packaged as
    # pbem_scenarios) and what `pbem demo avd` plays.
    scenario_package = "pbem_scenarios.avd"
    demo_scenario = "avd/practice"
    demo_first = True                  # what `pbem demo` plays when no game is named

    def check_scenario(self, data: dict[str, Any]) -> list[str]:
        from pbem.games.avd import scenario
        return scenario.check(data)

    def options(self) -> dict[str, tuple[Any, str]]:
        return dict(OPTIONS)

    def policy_kinds(self) -> dict[str, str]:
        from pbem.games.avd.policies import KINDS
        return dict(KINDS)

    def scenario_view(self, data: dict[str, Any]):
        from pbem.games.avd.picture import scenario_view
        return scenario_view(data)

    def rules(self, scenario_data: dict[str, Any], options: dict[str, Any]):
        from pbem.games.avd import scenario
        from pbem.games.avd.rules import AvdRules
        opts = {k: v for k, (v, _) in OPTIONS.items()}
        for k, v in (options or {}).items():
            if k not in OPTIONS:
                raise ScenarioError(f"unknown rule option {k!r} for avd (known: {', '.join(sorted(OPTIONS))})")
            opts[k] = v
        scn = scenario.load(scenario_data)
        if opts["strategic_cost"] != scn.strategic_cost and "strategic_cost" in (options or {}):
            from dataclasses import replace     # (only here: a verify imports no dataclasses, speed only)

            scn = replace(scn, strategic_cost=int(opts["strategic_cost"]))
        return AvdRules(scn, opts)


GAME = AvdGame()
