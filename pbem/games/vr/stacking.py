"""Stacking (1.11): at the end of every phase, at most three divisions a
hex (a KG counts as one), one HQ (HQs do not count toward the three), no
Romanian with a Hungarian whoever they fight for, and six Soviet corps
under a Bridgeheads marker.  A Haltebefehl garrison is a marker, not a
unit, and does not count (6.7.8)."""
from __future__ import annotations

from typing import Iterable

from pbem.games.vr.model import SOVIET, UnitSpec
from pbem.games.vr.profile import Profile


def problems(specs: Iterable[UnitSpec], side: str, profile: Profile, *, kg: int = 0,
             bridgehead: bool = False) -> list[str]:
    """What is wrong with these units (all of ``side``) and ``kg``
    Kampfgruppen in one hex, one line each; empty when the stack is legal."""
    units = list(specs)
    out = []
    hqs = [u for u in units if u.is_hq]
    divisions = len([u for u in units if not u.is_hq]) + kg
    limit = profile.bridgehead_limit if (bridgehead and side == SOVIET) else profile.stacking_limit
    if divisions > limit:
        out.append(f"{divisions} divisions in one hex (limit {limit}, 1.11.3)")
    if len(hqs) > 1:
        out.append(f"{len(hqs)} HQs in one hex (limit 1, 1.11.4)")
    nats = {u.nationality for u in units}
    if {"hun", "rum"} <= nats:
        out.append("Romanian and Hungarian units in one hex (1.11.5)")
    return out
