"""A deterministic scripted player for Moscow '41: the choice ``pbem demo``
makes and the automated campaign test plays.  It is not good play: it
attacks from an HQ's area into the nearest enemy area while the HQ has
stars, otherwise steps a block towards the enemy, and passes once in a
while so that turns end.

Every candidate is tried on a copy of the state (secrets filled, dice
fixed) and the first legal one is chosen: the rules, not the bot, say what
is legal.  Only the side's own view is read.
"""
from __future__ import annotations

from typing import Any

from pbem.game import Decision, probe

from . import mechanics as mx
from .model import SOVIET, other

State = dict[str, Any]

#: standing orders the scripted player sets: the answers it gives anyway
#: (a tie's hit on the lowest token, no Blitz, no Exploitation)
POLICIES = {"losses": "first", "blitz": "no", "exploit": "no"}


def legal(rules: Any, state: State, side: str, order: dict[str, Any]) -> bool:
    """The contract's legality probe; a malformed scripted order counts as
    illegal too."""
    try:
        return probe(rules, state, side, order) is None
    except (KeyError, ValueError, StopIteration):
        return False


def choose(rules: Any, state: State, decision: Decision) -> dict[str, Any]:
    side = decision.side
    if decision.private or decision.kind == "setup":
        return {"verb": decision.kind}
    if decision.kind == "losses":
        return {"verb": "losses", "token": decision.options[0].split()[1]}
    if decision.kind == "reinforce":
        return rules.parse(decision.options[0], state, side)      # where each drawn block first may go
    if decision.kind == "logistics":
        candidates = _logistics(rules, state, side)
    elif decision.kind == "exploit":
        candidates = [{"verb": "exploit", "moves": []}]
    elif decision.kind == "blitz":
        candidates = [{"verb": "blitz", "moves": []}]
    elif decision.kind == "aa":
        candidates = [{"verb": "aa", "destroyed": [], "aborted": []}]
    else:
        candidates = _impulse(rules, state, side)
    for order in candidates:
        if legal(rules, state, side, order):
            return order
    return candidates[-1]


def _logistics(rules: Any, state: State, side: str) -> list[dict[str, Any]]:
    sc = rules.sc
    pause = {"verb": "logistics", "choice": "pause"}
    lv = mx.logistics_value(state, sc, side)
    if lv is None or state["leaders"][side] <= 1 or not state["pool_count"][side]:
        return [pause]
    if side == SOVIET and not any(a in mx.supplied_areas(state, sc, side) and mx.friendly_uncontested(state, a, side)
                                  for a in set(sc.cities) | set(sc.victory.values())):
        return [pause]
    return [{"verb": "logistics", "choice": "activate", "lv": lv}, pause]


def _impulse(rules: Any, state: State, side: str) -> list[dict[str, Any]]:
    sc = rules.sc
    enemy = other(side)
    mine = sorted((t for t, v in state["tokens"].items() if v["side"] == side and not sc.is_box(v["area"])
                   and not v.get("cube")), key=mx.natural)
    ident = {t: mx.known(state, t) for t in mine}
    hqs = [t for t in mine if (it := ident[t]) and sc.spec(it[0]).type == "hq" and it[1] > 0]
    out: list[dict[str, Any]] = []
    quiet = state["impulse"] % 3 == 0 or state["impulse"] > 6     # pass now and then, so that turns end
    if not quiet:
        for hq in hqs:
            area = state["tokens"][hq]["area"]
            movers = [t for t in mine if t != hq and state["tokens"][t]["area"] == area and (it := ident[t])
                      and sc.spec(it[0]).is_combat]
            targets = [n for n in sorted(sc.graph.neighbors(area), key=mx.natural)
                       if mx.has_units(state, n, enemy) and not sc.is_box(n)]
            for target in targets:
                if movers:
                    out.append({"verb": "ti", "activate": [{"token": hq, "path": []}],
                                "moves": [{"token": t, "path": [target]} for t in movers[:2]]})
    for tok in mine:
        here = state["tokens"][tok]["area"]
        if mx.contested(state, here):
            continue
        for n in sorted(sc.graph.neighbors(here), key=mx.natural):
            if sc.is_box(n) or mx.has_units(state, n, enemy):
                continue
            if state["control"].get(n) == enemy or (side == SOVIET and quiet):
                out.append({"verb": "pass", "moves": [{"token": tok, "path": [n]}]})
    return out[:6] + [{"verb": "pass"}]
