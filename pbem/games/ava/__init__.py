"""A Victory Awaits (MMP; game id ``ava``) and Fierce Fight! Smolensk
Blitzkrieg (Game Journal 53; game id ``ffs``): one engine, two rule
profiles (see profile.py).

``GAME`` and ``FFS_GAME`` are the objects the protocol drives (see
:mod:`pbem.game`); they differ only in their profile, title and shipped
scenarios.
"""
from __future__ import annotations

from typing import Any

from pbem.game import BaseGame, ScenarioError, View
from pbem.games.ava import options as ava_options
from pbem.games.ava.model import AXIS, SOVIET
from pbem.games.ava.profile import AVA, FFS, Profile

OPTIONS: dict[str, tuple[Any, str]] = {
    "short_game": (False, ("AVA 18.2 / FFS 15.6: the short game, ending after the scenario's short-game "
                           "Supply Check (Smolensk: Turn 6), where the scenario has one")),
    "reserve_okh": (False, ("AVA 17.2 / FFS 16.2: the Soviet Reserve and Axis OKH chits (a d6 of units "
                            "activated directly), where the scenario has them")),
}


class AvaFamilyGame(BaseGame):
    """One game of the family, bound to its rule profile."""

    id = ""
    title = ""
    profile: Profile = AVA
    sides = (AXIS, SOVIET)

    def check_scenario(self, data: dict[str, Any]) -> list[str]:
        from pbem.games.ava import scenario
        out = scenario.gaps(data)
        head = data.get("scenario") or {}
        if head.get("game") not in (None, self.id):
            out.append(f"scenario: a {head.get('game')} scenario, not {self.id}")
        if out:
            return out
        try:
            scenario.load(data)
        except ScenarioError as exc:
            return [str(exc)]
        return []

    def options(self) -> dict[str, tuple[Any, str]]:
        return {**OPTIONS, **ava_options.rule_options(self.profile)}

    def validate_options(self, options: dict[str, Any]) -> dict[str, Any]:
        from pbem.errors import UsageError
        out = super().validate_options(options)
        try:
            ava_options.check(out)
        except ScenarioError as exc:
            raise UsageError(str(exc)) from None
        return out

    def policy_kinds(self) -> dict[str, str]:
        from pbem.games.ava.policies import KINDS
        return dict(KINDS)

    def scenario_view(self, data: dict[str, Any]) -> View:
        from pbem.games.ava import scenario
        from pbem.games.ava.picture import scenario_view
        return scenario_view(scenario.load(data))

    def rules(self, scenario_data: dict[str, Any], options: dict[str, Any]) -> Any:
        from pbem.games.ava import scenario
        from pbem.games.ava.rules import AvaRules
        known = self.options()
        opts = {k: v for k, (v, _) in known.items()}
        for k, v in (options or {}).items():
            if k not in known:
                raise ScenarioError(f"unknown rule option {k!r} for {self.id} (known: {', '.join(sorted(known))})")
            opts[k] = v
        scn = scenario.load(scenario_data)
        if scn.game != self.id:
            raise ScenarioError(f"{scn.id} is a {scn.game} scenario, not {self.id}")
        return AvaRules(scn, ava_options.bind(self.profile, opts), opts)


class AvaGame(AvaFamilyGame):
    id = "ava"
    title = "A Victory Awaits: Operation Barbarossa 1941"
    profile = AVA
    scenario_package = "pbem_scenarios.ava"
    demo_scenario = "ava/practice"


class FfsGame(AvaFamilyGame):
    id = "ffs"
    title = "Fierce Fight! Smolensk Blitzkrieg"
    profile = FFS
    scenario_package = "pbem_scenarios.ffs"
    demo_scenario = "ffs/practice"


GAME = AvaGame()
FFS_GAME = FfsGame()
