"""The ``GAME`` object of Victory Roads (the contract's entry point)."""
from __future__ import annotations

from typing import Any

from pbem.game import BaseGame, ScenarioError
from pbem.games.vr import profile as profile_mod
from pbem.games.vr.model import GERMAN, SOVIET

OPTIONS: dict[str, tuple[Any, str]] = {
    "autonomous_threshold": ("half", "R-01 / 7.11.3: 'half' (the rule) or 'majority' (the example's words)"),
    "elite_group": ("own", "R-36 / 7.9.3: the Elite pick from the side's 'own' sub-column or the 'whole' column"),
    "eng_losses": ("free", "R-39: Eng losses placed 'free'ly (7.9.6) or as 'attrition' (7.8)"),
}


class VrGame(BaseGame):
    id = "vr"
    title = "Victory Roads: from Bagration to the fall of Berlin, 1944-1945"
    sides = (SOVIET, GERMAN)
    scenario_package = "pbem_scenarios.vr"
    demo_scenario = "vr/practice-basic"

    def check_scenario(self, data: dict[str, Any]) -> list[str]:
        from pbem.games.vr import scenario
        return scenario.check(data)

    def options(self) -> dict[str, tuple[Any, str]]:
        return dict(OPTIONS)

    def policy_kinds(self) -> dict[str, str]:
        from pbem.games.vr.policies import KINDS
        return dict(KINDS)

    def scenario_view(self, data: dict[str, Any]) -> Any:
        from pbem.games.vr.mapdata import scenario_view
        return scenario_view(data)

    def rules(self, scenario_data: dict[str, Any], options: dict[str, Any]) -> Any:
        from pbem.games.vr import scenario
        from pbem.games.vr.rules import VrRules
        for k, v in (options or {}).items():
            if k not in OPTIONS:
                raise ScenarioError(f"unknown rule option {k!r} for vr (known: {', '.join(sorted(OPTIONS))})")
            if v not in profile_mod.CHOICES.get(k, (v,)):
                raise ScenarioError(f"rule option {k}: {v!r} is not one of {profile_mod.CHOICES[k]}")
        return VrRules(scenario.load(scenario_data), dict(options or {}))


GAME = VrGame()
