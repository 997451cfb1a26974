"""The Luftwaffe (10.10, 10.12.3-10.12.4, 13.1): bomber commitments, Soviet
anti-aircraft fire and airstrikes.

Bombers are public counters, counted per type in ``state["air"]``::

    {"ready": {"he111": n, "stuka": n}, "aborted": {...}, "destroyed": {...}}

An activated LW HQ commits up to its (weather-adjusted) strength in bombers
to battles within its Air Range, traced over any area.  In the battle the
defender fires AA first; the German turns the hits into Aborted (one hit)
or Destroyed (two hits) bombers; the survivors strike, each rolling as many
dice as the HQ's strength.  Aborted bombers are back for the next German
impulse, Destroyed ones next turn.
"""
from __future__ import annotations

from typing import Any

from pbem.game import Event, IllegalOrder, Rng

from .mechanics import contested, hq_power, roll_hits, tokens_in
from .model import GERMAN, Scenario, other

State = dict[str, Any]
TYPES = ("he111", "stuka")


def initial(sc: Scenario) -> dict[str, dict[str, int]]:
    lw = sc.luftwaffe
    full = {t: int(lw.get(t, 0)) for t in TYPES}
    return {"ready": full, "aborted": {t: 0 for t in TYPES}, "destroyed": {t: 0 for t in TYPES}}


def check_commitments(state: State, sc: Scenario, commits: list[dict[str, Any]], lw_hqs: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Public checks of the airstrike commitments of a Tactical Impulse;
    returns them by area.  A missing ``air`` state means no bombers."""
    by_area: dict[str, list[dict[str, Any]]] = {}
    used = {t: 0 for t in TYPES}
    per_hq: dict[str, int] = {}
    for c in commits:
        hq, area = c.get("hq"), c.get("area")
        assert isinstance(area, str)    # M41Rules._check_names: each commitment names a known area
        if hq not in lw_hqs:
            raise IllegalOrder(f"{hq}: only an LW HQ activated this impulse commits bombers (10.10)")
        h = state["tokens"][hq]
        power = hq_power(state, GERMAN, h["strength"])
        n = {t: int(c.get(t, 0)) for t in TYPES}
        if min(n.values()) < 0 or sum(n.values()) == 0:
            raise IllegalOrder(f"{hq}: commit at least one bomber")
        if n["stuka"] and h["block"] != sc.luftwaffe.get("stuka_hq"):
            raise IllegalOrder(f"{hq}: Stukas fly only for the {sc.luftwaffe.get('stuka_hq')} (10.10.1)")
        per_hq[hq] = per_hq.get(hq, 0) + sum(n.values())
        if per_hq[hq] > power:
            raise IllegalOrder(f"{hq}: commits {per_hq[hq]} bombers, its strength allows {power} (10.10)")
        if area not in sc.graph.within(h["area"], power) or not contested(state, area):
            raise IllegalOrder(f"{hq}: {sc.area_name(area)} is not a contested area within Air Range {power}")
        for t in TYPES:
            used[t] += n[t]
            if used[t] > state["air"]["ready"][t]:
                raise IllegalOrder(f"only {state['air']['ready'][t]} {t} ready")
        by_area.setdefault(area, []).append({"hq": hq, **n})
    for t in TYPES:
        state["air"]["ready"][t] -= used[t]
    return by_area


def aa_fire(state: State, sc: Scenario, area: str, rng: Rng, events: list[Event]) -> int:
    """Defender AA (10.12.3): every unit fires its own strength in dice of
    its colour (HQ stars double fire), a DL one single-fire die; Stalin and
    exhausted HQs none.  Weather never changes it."""
    df = other(state["active"])
    hits, all_rolls = 0, []
    for t in tokens_in(state, area, df):
        v = state["tokens"][t]
        colour = sc.spec(v["block"]).fire(v["strength"])
        if colour is None:
            continue
        h, rolls = roll_hits(rng, sc, v["strength"], colour, f"AA {sc.area_name(area)}, {t}")
        hits += h
        all_rolls += rolls
    if state["dl"].get(area) == df:
        h, rolls = roll_hits(rng, sc, 1, "black", f"AA {sc.area_name(area)}, DL")
        hits += h
        all_rolls += rolls
    events.append(Event(f"AA in {sc.area_name(area)}: {all_rolls} -> {hits} hits", {"rolls": all_rolls}))
    return hits


def committed(b: dict[str, Any]) -> dict[str, int]:
    return {t: sum(c[t] for c in b["bombers"]) for t in TYPES}


def check_aa_result(b: dict[str, Any], order: dict[str, Any]) -> tuple[dict[str, int], dict[str, int]]:
    """The German's split of the AA hits (10.12.3): one hit aborts a bomber,
    two destroy one; every hit counts until every bomber is hit."""
    hits = b["aa_hits"]
    flying = committed(b)
    dead = {t: int(order.get("destroyed", {}).get(t, 0)) for t in TYPES}
    back = {t: int(order.get("aborted", {}).get(t, 0)) for t in TYPES}
    for t in TYPES:
        if dead[t] < 0 or back[t] < 0 or dead[t] + back[t] > flying[t]:
            raise IllegalOrder(f"AA: more {t} hit than flew")
    used = 2 * sum(dead.values()) + sum(back.values())
    all_hit = sum(dead.values()) + sum(back.values()) == sum(flying.values())
    if used > hits or (used < hits and not all_hit):
        raise IllegalOrder(f"AA: {hits} hits must be taken as aborts (1 hit) or destructions (2 hits)")
    return dead, back


def aa_policy(b: dict[str, Any], policy: str) -> dict[str, Any]:
    """A standing AA order: ``abort`` (every hit an abort) or ``destroy``
    (pairs of hits destroy), He-111s hit before Stukas unless ``stuka``
    comes first in the words."""
    words = policy.split()
    stuka_first = "stuka" in words and ("he111" not in words or words.index("stuka") < words.index("he111"))
    order_types = ["stuka", "he111"] if stuka_first else ["he111", "stuka"]
    hits = b["aa_hits"]
    left = dict(committed(b))
    dead = {t: 0 for t in TYPES}
    back = {t: 0 for t in TYPES}
    pair = "destroy" in words
    for t in order_types:
        while left[t] and hits:
            if pair and hits >= 2:
                dead[t] += 1
                hits -= 2
            else:
                back[t] += 1
                hits -= 1
            left[t] -= 1
    return {"verb": "aa", "destroyed": dead, "aborted": back}


def take_aa_result(state: State, b: dict[str, Any], dead: dict[str, int], back: dict[str, int],
                   events: list[Event]) -> None:
    for t in TYPES:
        state["air"]["destroyed"][t] += dead[t]
        state["air"]["aborted"][t] += back[t]
    b["air_lost"] = {t: dead[t] + back[t] for t in TYPES}
    events.append(Event(f"bombers destroyed {dead}, aborted {back}", {}))


def airstrike(state: State, sc: Scenario, b: dict[str, Any], rng: Rng, events: list[Event]) -> int:
    """Surviving bombers strike (10.12.4); returns the hits on the defender.
    Losses come off the commitments in order."""
    lost = dict(b.get("air_lost", {t: 0 for t in TYPES}))
    hits = 0
    for c in b["bombers"]:
        h = state["tokens"].get(c["hq"])
        dice = hq_power(state, GERMAN, h["strength"]) if h else 0
        for t in TYPES:
            gone = min(lost[t], c[t])
            lost[t] -= gone
            survivors = c[t] - gone
            colour = sc.luftwaffe[f"{t}_fire"]
            for _ in range(survivors):
                n, rolls = roll_hits(rng, sc, dice, colour, f"airstrike {sc.area_name(b['area'])}, {t}")
                hits += n
                events.append(Event(f"{t} bombs {rolls}: {n} hits", {"rolls": rolls}))
            state["air"]["ready"][t] += survivors
            if t == "stuka" and survivors:      # 10.16: they may follow a Blitz out of this area
                state["combat"].setdefault("stukas", []).append({"hq": c["hq"], "area": b["area"], "n": survivors})
    return hits


def check_blitz_stukas(state: State, sc: Scenario, commits: list[dict[str, Any]], battles: list[str],
                       origins: dict[str, set[str]]) -> dict[str, list[dict[str, Any]]]:
    """10.16: Stukas that survived a battle of this impulse may follow a
    Fast block blitzing out of that battle's area and support its Blitz
    battle; no new Air Range is traced (AMB-7).  He-111s never follow."""
    left = {(s["hq"], s["area"]): s["n"] for s in state["combat"].get("stukas", [])}
    by_area: dict[str, list[dict[str, Any]]] = {}
    for c in commits:
        hq, area, n = c.get("hq"), c.get("area"), int(c.get("stuka", 0))
        assert isinstance(area, str)    # M41Rules._check_names: each commitment names a known area
        if int(c.get("he111", 0)) or n <= 0:
            raise IllegalOrder(f"{hq}: only Stukas follow a Blitz (10.16)")
        if area not in battles:
            raise IllegalOrder(f"{hq}: {sc.area_name(area)} is no Blitz battle")
        for src in sorted(origins.get(area, set())):
            take = min(n, left.get((hq, src), 0))
            left[(hq, src)] = left.get((hq, src), 0) - take
            n -= take
        if n:
            raise IllegalOrder(f"{hq}: only Stukas that survived the battle a blitzing block left follow it (10.16)")
        if int(c["stuka"]) > state["air"]["ready"]["stuka"]:
            raise IllegalOrder("not so many Stukas ready")
        state["air"]["ready"]["stuka"] -= int(c["stuka"])
        by_area.setdefault(area, []).append({"hq": hq, "he111": 0, "stuka": int(c["stuka"])})
    return by_area


def aborted_return(state: State) -> None:
    for t in TYPES:
        state["air"]["ready"][t] += state["air"]["aborted"][t]
        state["air"]["aborted"][t] = 0


def destroyed_return(state: State) -> None:
    """Final Phase 13.1: destroyed bombers are available again."""
    for t in TYPES:
        state["air"]["ready"][t] += state["air"]["destroyed"][t]
        state["air"]["destroyed"][t] = 0
