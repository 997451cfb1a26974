"""Hexes with more than one terrain type, and the rule that picks one.

On a large-scale map one hex often shows forest in one corner, a swamp in
another and a town in the middle.  Rulebooks then say which type counts
for what.  The common rule, used by Victory Roads (1.8) and others:

Movement: the most expensive type
    A unit entering the hex pays the highest cost among the types present
    (:func:`entry_cost`).  A type that cannot be entered at all (the sea in
    a coastal hex) does not make the hex impassable when another type in it
    can be entered: the unit goes through the land part.  Only a hex whose
    every type is closed is closed.  Roads and railroads that cancel the
    terrain are hexside matters the game's step cost handles before it asks
    this module.

Combat: the defender chooses
    The defending player picks which type the combat modifiers come from
    (:func:`defender_choices`, :func:`combat_terrain`); the choice is made
    after the attack is declared, so it is a decision of the defending
    player, answered by a standing order where the game allows one
    (:func:`best_for_defender` gives a default from a ranking).  Hexside
    features such as rivers are not terrain *in* the hex: they apply on top
    of whichever type is picked.

Weather can turn one type into another (VR 3.2.3: in snow a swamp counts
as forest).  Every function takes ``counts_as``, a mapping applied to each
type before anything else, so the substitution is data.
"""
from __future__ import annotations

from typing import Callable, Iterable, Mapping

CostOf = Callable[[str], int | None]


def effective(types: Iterable[str], counts_as: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The hex's types after substitution, each once, in the order given
    (a hex listing swamp and forest in snow has just forest)."""
    sub = counts_as or {}
    out: list[str] = []
    for t in types:
        e = sub.get(t, t)
        if e not in out:
            out.append(e)
    if not out:
        raise ValueError("a hex needs at least one terrain type")
    return tuple(out)


def entry_cost(types: Iterable[str], cost_of: CostOf, counts_as: Mapping[str, str] | None = None) -> int | None:
    """The cost of entering a hex with these types: the highest cost among
    the types that can be entered, or None if none can."""
    costs = [c for t in effective(types, counts_as) if (c := cost_of(t)) is not None]
    if any(c < 0 for c in costs):
        raise ValueError(f"negative terrain cost in {costs}")
    return max(costs) if costs else None


def defender_choices(types: Iterable[str], counts_as: Mapping[str, str] | None = None,
                     excluded: Iterable[str] = ()) -> tuple[str, ...]:
    """The types a defender may pick for combat, in the hex's order.
    ``excluded``: types that never count for combat (the sea part of a
    coastal hex).  A hex left with nothing falls back on all its types."""
    eff = effective(types, counts_as)
    skip = set(excluded)
    kept = tuple(t for t in eff if t not in skip)
    return kept or eff


def combat_terrain(types: Iterable[str], chosen: str | None,
                   counts_as: Mapping[str, str] | None = None, excluded: Iterable[str] = ()) -> str:
    """The type combat uses: ``chosen`` if it is one of the choices; the only
    choice when there is just one (``chosen`` may then be None).
    ValueError naming the choices otherwise."""
    options = defender_choices(types, counts_as, excluded)
    if chosen is None:
        if len(options) == 1:
            return options[0]
        raise ValueError(f"the defender must choose one of {', '.join(options)}")
    picked = (counts_as or {}).get(chosen, chosen)
    if picked not in options:
        raise ValueError(f"{chosen} is not a terrain of this hex ({', '.join(options)})")
    return picked


def best_for_defender(types: Iterable[str], rank: Callable[[str], int],
                      counts_as: Mapping[str, str] | None = None, excluded: Iterable[str] = ()) -> str:
    """A default choice: the type with the highest ``rank`` (the game says
    what "best" means, e.g. the defense multiplier), the first listed on a
    tie so the answer never depends on set order."""
    options = defender_choices(types, counts_as, excluded)
    best = options[0]
    for t in options[1:]:
        if rank(t) > rank(best):
            best = t
    return best
