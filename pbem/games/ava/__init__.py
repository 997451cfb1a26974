"""A Victory Awaits (MMP; game id ``ava``) and Fierce Fight! Smolensk
Blitzkrieg (Game Journal 53; game id ``ffs``): one engine, two rule
profiles (see profile.py).

``GAME`` and ``FFS_GAME`` are the objects the protocol drives (see
:mod:`pbem.game`); they differ only in their profile, title and shipped
scenarios.
"""
from __future__ import annotations

from typing import Any

from pbem.game import BaseGame, ScenarioError, SeatSpec, View
from pbem.games.ava import options as ava_options
from pbem.games.ava.model import AXIS, SOVIET
from pbem.games.ava.profile import AVA, FFS, Profile

OPTIONS: dict[str, tuple[Any, str]] = {
    "short_game": (False, ("AVA 18.2 / FFS 15.6: the short game, ending after the scenario's short-game "
                           "Supply Check (Smolensk: Turn 6), where the scenario has one")),
    "reserve_okh": (False, ("AVA 17.2 / FFS 16.2: the Soviet Reserve and Axis OKH chits (a d6 of units "
                            "activated directly), where the scenario has them")),
    "vp_bidding": (False, ("AVA 17.1 / FFS 16.1: sealed VP bids decide who plays the Axis (the higher; a tie "
                           "by a coin flip, A52); he wins if the Axis VP (FFS: the Axis lead, #58) reach his bid; "
                           "two seats only")),
}

# Multiplayer (AVA 19, 20): how many seats, which rules seat them, and where
# the seat layout comes from (see seating.py).
MULTI_OPTIONS: dict[str, tuple[Any, str]] = {
    "players": (2, "AVA 19.2 / 20: seats at the table, 2 (the standard game) to 6"),
    "multiplayer": ("standard", "standard (2 seats) | controller (19: a Game Controller draws the chits) | "
                                "variant (20: a Master cup and an HQ cup per seat)"),
    "seat_layout": ("", "the shipped scenario whose [seats.*] seat the players (e.g. ava/practice-multi); "
                        "empty: the 19.2 roles (controller) or pbem's teams (variant)"),
}
MULTI_GAMES = ("ava",)        # FFS has no multiplayer rules


def seat_layout_data(name: str) -> dict[str, Any] | None:
    """The scenario data a ``seat_layout`` option names: a shipped scenario
    only (a path would seat the players differently on each machine)."""
    if not name:
        return None
    from pbem import scenario
    if "/" not in name or name.endswith(".toml") or name.startswith((".", "/", "~")):
        raise ScenarioError(f"seat_layout {name!r}: name a shipped scenario such as ava/practice-multi")
    return scenario.load_toml(scenario.find(name))


def seating_for(options: dict[str, Any], data: dict[str, Any] | None = None) -> Any:
    """The :class:`~pbem.games.ava.seating.Seating` of these options.  With
    a ``seat_layout`` the seats are the bound scenario's (``data``), else
    the named scenario's; without one, the fact tables' (the core seats a
    game before it reads the scenario, so nothing else of it may count)."""
    from pbem.games.ava import seating
    players = int(options.get("players", 2))
    mode = str(options.get("multiplayer", seating.STANDARD))
    layout = str(options.get("seat_layout", ""))
    if mode != seating.STANDARD and players < 4:
        raise ScenarioError(f"multiplayer {mode} seats 4 to 6 players (19.2, 20.2), not {players}")
    if not layout:
        return seating.layout(players, mode)
    return seating.layout(players, mode, data if data is not None else seat_layout_data(layout))


class AvaFamilyGame(BaseGame):
    """One game of the family, bound to its rule profile."""

    id = ""
    title = ""
    profile: Profile = AVA
    sides = (AXIS, SOVIET)

    def check_scenario(self, data: dict[str, Any]) -> list[str]:
        from pbem.games.ava import scenario
        head = data.get("scenario") or {}
        if head.get("game") not in (None, self.id):
            return scenario.gaps(data) + [f"scenario: a {head.get('game')} scenario, not {self.id}"]
        # gaps by kind, else why it cannot be read, else its inconsistencies
        return scenario.check(data)

    def options(self) -> dict[str, tuple[Any, str]]:
        return {**OPTIONS, **ava_options.rule_options(self.profile),
                **(MULTI_OPTIONS if self.id in MULTI_GAMES else {})}

    def validate_options(self, options: dict[str, Any]) -> dict[str, Any]:
        from pbem.errors import UsageError
        out = super().validate_options(options)
        if out.get("vp_bidding") and (int(out.get("players", 2)) != 2 or out.get("multiplayer", "standard") != "standard"):
            raise UsageError("vp_bidding (17.1) is for the two-player game: the multiplayer games seat their teams")
        try:
            ava_options.check(out)
        except ScenarioError as exc:
            raise UsageError(str(exc)) from None
        return out

    def seats(self, options: dict[str, Any]) -> tuple[SeatSpec, ...]:
        """Two seats named after the sides; AVA 19/20: the seats of the
        ``players``/``multiplayer``/``seat_layout`` options."""
        from pbem.games.ava import seating
        if self.id not in MULTI_GAMES or (options.get("multiplayer", seating.STANDARD) == seating.STANDARD
                                          and int(options.get("players", 2)) == 2):
            return super().seats(options)
        return seating.specs(seating_for(options))

    def demo_setup(self, seats: int) -> tuple[str, dict[str, Any]]:
        """``pbem demo ava --seats N``: the scenario and options of a
        multiplayer demo (19 with a Game Controller)."""
        if self.id not in MULTI_GAMES or seats == 2:
            if seats != 2:
                raise ScenarioError(f"{self.id} is a two-player game")
            return str(self.demo_scenario), {}
        if seats == 4:
            return "ava/practice-multi", {"players": 4, "multiplayer": "controller",
                                          "seat_layout": "ava/practice-multi"}
        return "ava/practice-multi", {"players": seats, "multiplayer": "controller"}

    def policy_kinds(self) -> dict[str, str]:
        from pbem.games.ava.policies import KINDS
        from pbem.games.ava.seq_queue import POLICY_TEXT
        return {**KINDS, **(POLICY_TEXT if self.id in MULTI_GAMES else {})}

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
        seats = None
        if self.id in MULTI_GAMES:
            seats = seating_for(opts, scenario_data)
            named = [s.name for s in self.seats(opts)]
            if seats.names() != named:
                raise ScenarioError(f"{scn.id} seats {', '.join(seats.names())}, the options {', '.join(named)}")
        from pbem.games.ava.mastercup import master_table
        return AvaRules(scn, ava_options.bind(self.profile, opts), opts, seating=seats,
                        master_table=master_table(scenario_data))


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
