"""The rule options of the family beyond the core's: the optional rules
(AVA 17 / FFS 16) and the readings the RULINGS files leave open.

``rule_options(profile)`` gives name -> (default, description) for the
profile's game (an option a book does not have is left out); ``VALUES``
the legal values of the options that are not plain yes/no or numbers;
``check(options)`` refuses a bad value in one line; ``profile_for`` turns
the options that choose between the two books' readings into the profile
the mechanics read (their default is the profile's own value).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from pbem.game import ScenarioError
from pbem.games.ava.profile import Profile

# name -> (default, description, the books that have it)
_OPTIONAL = {
    "hq_transfer": (False, "AVA 17.3 / FFS 16.3: HQ transfer to the next turn's Reinforcements", ("ava", "ffs")),
    "soviet_supply_limited": (False, "AVA 17.4: Soviet LOC along roads only or railroads only, after up to 12 "
                                     "hexes", ("ava",)),
    "mech_limit": (False, "AVA 17.5: a German HQ activates at most 10 mechanized units", ("ava",)),
    "pzg_second_activation": (False, "AVA 17.6: a Panzergruppe HQ's second activation needs an LOC not on "
                                     "another PzG HQ's railroad of this turn", ("ava",)),
    "zhukov_in_campaign": (False, "AVA 18.1 (A29): Zhukov's Command also where the map has Leningrad", ("ava",)),
    "reactivate_same_hq": (True, "AVA 8.1 (A4) / FFS 8.1.2 (#62): a unit may act again under a second "
                                 "activation by the same HQ (false: only a different HQ re-activates it)",
                           ("ava", "ffs")),
    "fortress_takes_combat_losses": (True, "FFS 14.3.2 (#47): combat step losses may be put on the fortress",
                                     ("ffs",)),
    "full_game_margin": (0, "FFS 15.6(2) (#56): the Axis lead that wins the full game (0: the scenario's, 40; "
                            "39 reads 'more than 39' as AVA's 'or more')", ("ffs",)),
    "army19_turn3_only": (False, "AVA 15.3 (A24): the 19th Army is lost if not entered by the end of Turn 3",
                          ("ava",)),
}

# options that pick one of the readings the two books (or the text) allow: the profile field they set
_PROFILE = {
    "stacking_check": ("stacking_checked_at", {"unit": "move", "segment": "segment"},
                       "3.1 (AVA ruling, FFS #64): stacking checked at the end of each unit's move (unit) or of "
                       "the Movement Segment (segment)"),
    "chits_exact": ("chit_quota_exact", None,
                    "6.2 (AVA A42 soviet_chits_exact, FFS #13 chits_up_to): a side selects exactly its number "
                    "of chits (AVA: the Soviet's SU; FFS: each side's Com)"),
    "axis_chit_limit": ("axis_may_select_all", "negate",
                        "AVA 6.2 (A2): cap the Axis at the track's chit numbers"),
    "lone_hq_attackable": ("lone_hq_attackable", None, "10.0 (FFS #3): a hex holding only an HQ may be attacked"),
}

VALUES: dict[str, tuple[Any, ...]] = {"stacking_check": ("unit", "segment")}


def _profile_default(profile: Profile, name: str) -> Any:
    field, mapping, _ = _PROFILE[name]
    value = getattr(profile, field)
    if mapping == "negate":
        return not value
    if isinstance(mapping, dict):
        return next(k for k, v in mapping.items() if v == value)
    return value


def rule_options(profile: Profile) -> dict[str, tuple[Any, str]]:
    out = {k: (d, text) for k, (d, text, books) in _OPTIONAL.items() if profile.game in books}
    for name, (_, _, text) in _PROFILE.items():
        out[name] = (_profile_default(profile, name), text)
    return out


def check(options: dict[str, Any]) -> None:
    """ScenarioError (one line) for an option value outside its values."""
    for name, allowed in VALUES.items():
        if name in options and options[name] not in allowed:
            raise ScenarioError(f"rule option {name} is one of {', '.join(map(str, allowed))}, "
                                f"not {options[name]!r}")


def profile_for(profile: Profile, options: dict[str, Any]) -> Profile:
    """The profile with the reading each profile option chose."""
    changes: dict[str, Any] = {}
    for name, (field, mapping, _) in _PROFILE.items():
        if name not in options:
            continue
        value = options[name]
        if mapping == "negate":
            value = not value
        elif isinstance(mapping, dict):
            value = mapping[value]
        changes[field] = value
    return replace(profile, **changes) if changes else profile


def bind(profile: Profile, options: dict[str, Any]) -> Profile:
    """Check the values, then the profile the options make."""
    check(options)
    return profile_for(profile, options)
