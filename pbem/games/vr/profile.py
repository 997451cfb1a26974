"""One engine, four rule sets: the rule profiles of *Victory Roads*.

The rulebook grows in stages (rule notes §1 and §8.2 item 13): the Basic
rules (§1-8) play *Hungary 1945*, *Berlin 1945* and *Budapest-Wien*;
§9-14 add Theaters of Operation (TO), Soviet infantry-corps modes, the
Advanced Support phase, the Stavka, fortification classes and the
capitulation of Germany's allies (*Bessarabia 1944*); §15-18 add the
Führer's Approval, End of Reich, the Reinforcement & Replacement procedure
and withdrawals (*Bagration 1944*); §19, the Warsaw uprising, completes the
campaign.

A Basic game is **not** a second engine.  It is the Advanced engine with
each Advanced rule switched off, one field of :class:`Profile` per rule.
"Off" means the clause is not in force, which is not the same as "every
unit is out of range": the Basic paragraphs that mention TO ranges (6.1.11,
6.2.4, 7.6.4, 7.7.9, 7.8.4, 7.10.14, 7.12.1) simply do not apply when
``to_rules`` is off, so there is no Hourra!, no range flip and no extra
armor loss (RULINGS.md, R-13).  The mechanics read ``profile.x``, never the
scenario's name.

A scenario card may switch a rule on for a Basic scenario (a card that
places the Approval and Freedom-of-Action markers makes §4.7 and §6.3
playable): ``[scenario.switches]`` in the file, applied with
:func:`with_switches`.

The second half of the fields are the rulings where the text allows two
readings (RULINGS.md names each); their defaults are the rulings, and a game
may choose the other reading as a rule option.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Mapping


@dataclass(frozen=True)
class Profile:
    """The rule switches.  Comments give rule numbers; R-nn names the ruling."""

    name: str
    # -- the Advanced rules, one switch each (notes §8.2 item 13)
    to_rules: bool                 # §9: TO markers and every TO-range clause of §1-8
    infantry_modes: bool           # §10: Reinforced/Standard corps, the corps draw pile (1.3.1, 1.3.3)
    advanced_supports: bool        # §11 replaces §5: TO boxes, Priority/Secondary TO, Large Offensive
    stavka: bool                   # §12: the Stavka phase and box
    fortification_classes: bool    # §13: no E, restricted Soviet advance, Soviet Control of forts
    capitulation: bool             # §14: Ally Capitulation of Romania and Hungary
    approval_track: bool           # §15: Approval, Freedom of Action, Dismissal (and 4.7, 6.3, 6.7.10)
    end_of_reich: bool             # §16: the six objectives, End-of-Reich Supports, last mobilization
    rr_procedure: bool             # §17: the R&R phase with RP (Basic: the card's schedule only)
    withdrawals: bool              # §18: mandatory withdrawals and transformations
    warsaw: bool                   # §19: the Warsaw uprising
    german_draws: str              # "scenario" (5.3.2, or a card's number) or "approval" (11.4: the track)
    # -- readings (rule options; the default is the ruling)
    autonomous_threshold: str      # "half" (7.11.3: the ally gives fewer than half) or "majority" (example)
    german_snow_penalty: int       # 0 (11.4 names only Mud) or 1 (3.2.3 "players")
    elite_group: str               # "own" sub-column or "whole" odds column (7.9.3)
    hourra_range: str              # "hex" (attacked hex in range) or "attackers" (every attacker)
    eng_losses: str                # "free" (7.9.6) or "attrition" (7.8 constraints)
    odds_columns: str              # "simple" (no 3:2 column until the CRT shows one)
    naval_capacity: int            # 6.5.1: three points a turn (a rule constant, kept beside the rest)
    stacking_limit: int            # 1.11.3
    bridgehead_limit: int          # 1.11.6
    supports_cap: int              # 5.1.3 (per TO box when advanced_supports, R-49)


BASIC = Profile(
    name="basic",
    to_rules=False, infantry_modes=False, advanced_supports=False, stavka=False,
    fortification_classes=False, capitulation=False, approval_track=False, end_of_reich=False,
    rr_procedure=False, withdrawals=False, warsaw=False, german_draws="scenario",
    autonomous_threshold="half", german_snow_penalty=0, elite_group="own", hourra_range="hex",
    eng_losses="free", odds_columns="simple", naval_capacity=3, stacking_limit=3,
    bridgehead_limit=6, supports_cap=6,
)

# §1-14: Bessarabia.  §11.4 reads the Approval Track, which only arrives with
# §15, so the German draws stay the card's number (notes §8.2 item 13).
BESSARABIA = replace(BASIC, name="bessarabia", to_rules=True, infantry_modes=True, advanced_supports=True,
                     stavka=True, fortification_classes=True, capitulation=True)

# §1-18: Bagration.
BAGRATION = replace(BESSARABIA, name="bagration", approval_track=True, end_of_reich=True, rr_procedure=True,
                    withdrawals=True, german_draws="approval")

# §1-19: the whole campaign.
CAMPAIGN = replace(BAGRATION, name="campaign", warsaw=True)

PROFILES = {p.name: p for p in (BASIC, BESSARABIA, BAGRATION, CAMPAIGN)}

ADVANCED_RULES = ("to_rules", "infantry_modes", "advanced_supports", "stavka", "fortification_classes",
                  "capitulation", "approval_track", "end_of_reich", "rr_procedure", "withdrawals", "warsaw")
"""The switches that are the Advanced rules, in rulebook order (§9-19)."""

# The values each reading takes; anything else is refused.
CHOICES: dict[str, tuple[Any, ...]] = {
    "german_draws": ("scenario", "approval"),
    "autonomous_threshold": ("half", "majority"),
    "german_snow_penalty": (0, 1),
    "elite_group": ("own", "whole"),
    "hourra_range": ("hex", "attackers"),
    "eng_losses": ("free", "attrition"),
    "odds_columns": ("simple",),
}

# A rule that needs another one: switching it on alone would leave the
# engine reading a track or a marker that is not there.
REQUIRES: dict[str, tuple[str, ...]] = {
    "infantry_modes": ("to_rules",),
    "advanced_supports": ("to_rules",),
    "stavka": ("to_rules", "advanced_supports"),
    "end_of_reich": ("approval_track",),
    "warsaw": ("advanced_supports",),
}


def check(profile: Profile) -> list[str]:
    """What is inconsistent in a profile, one line each."""
    out = []
    for f in fields(Profile):
        v = getattr(profile, f.name)
        if f.name in CHOICES and v not in CHOICES[f.name]:
            out.append(f"{f.name} = {v!r}: expected one of {CHOICES[f.name]}")
    for rule, needs in REQUIRES.items():
        if getattr(profile, rule):
            out.extend(f"{rule} needs {n}" for n in needs if not getattr(profile, n))
    if profile.german_draws == "approval" and not profile.approval_track:
        out.append("german_draws = 'approval' needs approval_track")
    return out


def with_switches(profile: Profile, switches: Mapping[str, Any]) -> Profile:
    """``profile`` with some fields changed (a scenario card's switches or a
    game's rule options); ValueError for an unknown field, a value of the
    wrong type or an inconsistent result."""
    known = {f.name: f for f in fields(Profile)}
    for k, v in switches.items():
        if k not in known or k == "name":
            raise ValueError(f"unknown rule switch {k!r}")
        current = getattr(profile, k)
        if type(v) is not type(current):
            raise ValueError(f"rule switch {k} takes a {type(current).__name__}, got {v!r}")
    out = replace(profile, **dict(switches))
    problems = check(out)
    if problems:
        raise ValueError("; ".join(problems))
    return out
