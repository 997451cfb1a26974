"""The Weather phase (§3): the Soviet player's two dice on the month's
column of the Weather Table give the weather (Fair, Mud, Snow) and the sky
(Clear, Overcast), and each has effects every other phase reads.

:func:`roll_weather` reads the table; :func:`effects` restates what a
weather and a sky change (3.2, 3.3, 5.4.2), as data the movement, combat and
Support modules consult rather than testing ``weather == "mud"`` themselves.
"""
from __future__ import annotations

from dataclasses import dataclass

from pbem.games.vr.model import SKIES, WEATHERS, Scenario


def roll_weather(scn: Scenario, turn: int, dice: int) -> tuple[str, str]:
    """(weather, sky) for a two-dice roll on ``turn``'s month (3.1.1)."""
    if not scn.track.first <= turn <= scn.track.last:
        raise ValueError(f"turn {turn} is not on the turn track ({scn.track.first}-{scn.track.last})")
    if not 2 <= dice <= 12:
        raise ValueError(f"two dice cannot roll {dice}")
    return scn.weather.roll(scn.track.month(turn), dice)


@dataclass(frozen=True)
class Effects:
    """What the weather and the sky change this turn.

    ``max_mp``: the most half-MP a unit may spend in a phase (None: its
    allowance; Mud: 2 MP, 3.2.2, R-26); ``strategic``: Strategic Movement
    allowed; ``attacker_terrain``: the attacker's tactical result is
    modified by terrain (Mud: no, and D1 is ignored and E/E2/E3 become Eng
    for the attacker only); ``minor_is_major``: Minor Rivers count as Major;
    ``river_attack_bridge_only``: attacks across a river only over a
    bridge, at a third of the attack; ``river_move_adjacent_ban``: no move
    into an enemy-adjacent hex across a river; ``e3_cap``: E3 after terrain
    becomes E2 (Snow); ``hourra``, ``large_offensive``: allowed;
    ``airplane_events``: airplane Supports may be played as Events (not
    under an Overcast sky)."""

    weather: str
    sky: str
    max_mp: int | None
    strategic: bool
    attacker_terrain: bool
    minor_is_major: bool
    river_attack_bridge_only: bool
    river_move_adjacent_ban: bool
    e3_cap: bool
    hourra: bool
    large_offensive: bool
    airplane_events: bool


def effects(weather: str, sky: str) -> Effects:
    if weather not in WEATHERS or sky not in SKIES:
        raise ValueError(f"unknown weather {weather!r} / sky {sky!r}")
    mud = weather == "mud"
    return Effects(weather=weather, sky=sky, max_mp=4 if mud else None, strategic=not mud,
                   attacker_terrain=not mud, minor_is_major=mud, river_attack_bridge_only=mud,
                   river_move_adjacent_ban=mud, e3_cap=weather == "snow", hourra=not mud,
                   large_offensive=not mud, airplane_events=sky != "overcast")
