"""Standing orders: a seat's answers to its own future decisions, so that
a defender's choice in the enemy turn costs no email (plan item 2).  Each
decision names the policy that may answer it; a policy that does not fit
returns None and the seat is asked."""
from __future__ import annotations

from typing import Any

from pbem.game import Decision
from pbem.games.vr import orders

KINDS: dict[str, str] = {
    "terrain": "the defender's terrain pick in a hex of several types (1.8.1): best | ask",
    "declare": "the attacker's declarations in a battle once its odds and terrain are known (7.6, 7.5.6): none "
               "(no Elite bonus, no Armored Exploitation, no Support) | ask",
    "react": "a Support of the enemy turn when defending: never | odds3 (asked only at odds of three to one or "
             "more against you) | ask",
    "enemy-airlift": "a supply Event of the enemy turn before a battle's supply check (R-97): never | ask",
    "elite-defense": "the defender's Elite bonus (7.6.2): always | never | ask",
    "first-loss": "the attacker's unit for its first loss when it used Elite and Armored Exploitation (7.8.1): "
                  "strongest | weakest | ask",
    "losses": "step losses: spread (fewest units eliminated, strongest kept) | weakest (the weakest units first) | ask",
    "elite-result": "the Elite pick of a tactical result (7.9.3): best | ask",
    "river-row": "the row of the attacker's result behind a Major River (7.9.4): best | ask",
    "s-result": "an S result (R-38): loss | retreat | ask",
    "retreat": "a retreat path when several are legal (7.10): first | ask",
    "advance": "advance after combat (7.13): all | none | ask",
    "exploit": "Exploitation markers after an E result (7.14): most | none | ask",
    "kg": "replace an eliminated Elite division with a Kampfgruppe (7.15): always | never | ask",
    "survivor": "the Romanian unit that survives a DR2/DR3 (7.12.2): first | ask",
    "discard": "the Supports returned above six (5.1.3): newest | oldest | ask",
    "pontoon": "Pontoon flips in the Supply phase (4.1.3): none | ask",
    "place": "placing arriving units (R&R): first | ask",
    "overstack": "the unit eliminated from an overstacked hex (1.11.2): weakest | ask",
    "to-take": "a Movement-Mode TO's one Support (11.3.4): never | ask",
    "to-move": "moving TO markers in the Support phase (11.6): stay | ask",
    "to-mode": "switching a TO's mode (11.7): keep | ask",
    "to-discard": "the Supports returned above six in a TO box (5.1.3, R-49): newest | ask",
    "to-displace": "the city a displaced TO goes to among equally near ones (9.1.4): first | ask",
    "stavka-enter": "units put into the Stavka box (12.1.2): none | ask",
    "capitulate": "playing Ally Capitulation at the end of the Soviet Combat or Exploitation phase (14): never | ask",
    "mobilize": "the divisions of the last mobilization (16.2.1): first | ask",
    "withdrawal": "the divisions the schedule withdraws (18.1): first | ask",
    "stalin-to": "the TO the German names for the Stalin Support after Warsaw fell (19.1.2): never | priority | "
                 "first | ask",
    "replace": "spending Replacement Points in the R&R phase (17.3): none | first (the first rebuild that needs "
               "no Support) | ask",
}

VALUES: dict[str, tuple[str, ...]] = {k: tuple(w.strip() for w in v.split(":")[-1].replace("(", "|").split("|")
                                             if w.strip() and " " not in w.strip() and w.strip() != "ask") + ("ask",)
                                      for k, v in KINDS.items()}


def refusal(name: str, value: str) -> str | None:
    allowed = VALUES.get(name, ())
    if value.strip().lower() in allowed:
        return None
    return f"{value!r} is not one of its values: {', '.join(allowed)}"


def answer(r: Any, state: dict[str, Any], d: Decision, policies: dict[str, Any]) -> dict[str, Any] | None:
    if not d.policy or d.policy not in policies or not d.options:
        return None
    value = str(policies[d.policy]).strip().lower()
    if value == "ask":
        return None
    pick = _PICK.get(d.policy)
    text = pick(r, state, d, value) if pick else None
    return orders.parse(text, r.scn) if text else None


def _strength(r: Any, state: dict[str, Any], uid: str) -> int:
    b = r.board(state)
    return b.attack(uid) + b.defense(uid)


def _terrain(r, state, d, value):
    if value != "best":
        return None
    from pbem.games.vr import terrain
    f = state["stack"][-1]
    best = terrain.best_defense(r.scn, f["hex"], state["weather"], r.dropped_types(state, f))
    return f"terrain {best}" if f"terrain {best}" in d.options else d.options[0]


def _react(r, state, d, value):
    """never: pass; odds3: pass unless the battle stands at 3:1 or more, when
    the owner is asked (the Support he would show is his secret)."""
    if value == "never":
        return "pass"
    if value != "odds3":
        return None
    f = state["stack"][-1]
    col = r.battle_column(state, f)
    labels = r.scn.crt.ladder.labels
    return None if col is not None and "3:1" in labels and col >= labels.index("3:1") else "pass"


def _losses(r, state, d, value):
    parsed = [orders.parse(o, r.scn)["steps"] for o in d.options]
    if value == "spread":
        def key(o):
            dead = sum(1 for u, n in o.items() if n >= state["units"][u]["steps"])
            return (dead, -sum(_strength(r, state, u) * n for u, n in o.items()))
    elif value == "weakest":
        def key(o):
            return (sum(_strength(r, state, u) * n for u, n in o.items()),)
    else:
        return None
    return d.options[parsed.index(min(parsed, key=key))]


def _rank(pref: tuple[str, ...]):
    def pick(r, state, d, value):
        if value != "best":
            return None
        codes = [o.split()[1] for o in d.options]
        return f"result {min(codes, key=lambda c: pref.index(c) if c in pref else 99)}"
    return pick


def _river(r, state, d, value):
    if value != "best":
        return None
    from pbem.games.vr import combat
    f = state["stack"][-1]
    rows = r._rows(state, f)

    def level(row: str) -> int:
        codes = combat.tactical(f["a_pick"], "attacker", terrain_row=rows[row], weather=state["weather"])
        return max([combat.E_LEVELS.get(c, 0) for c in codes] + [0])
    return min(("row terrain", "row river"), key=lambda o: level(o.split()[1]))


def _first_loss(r, state, d, value):
    units = [o.split()[1] for o in d.options]
    if value not in ("strongest", "weakest"):
        return None
    best = max(units, key=lambda u: _strength(r, state, u)) if value == "strongest" else \
        min(units, key=lambda u: _strength(r, state, u))
    return f"first {best}"


def _choice(mapping: dict[str, str]):
    def pick(r, state, d, value):
        want = mapping.get(value)
        if want is None:
            return None
        if want == "FIRST":
            return d.options[0]
        if want == "LAST":
            return d.options[-1]
        found = [o for o in d.options if o.startswith(want)]
        return found[0] if found else ("pass" if "pass" in d.options else None)
    return pick


def _advance(r: Any, state: dict[str, Any], d: Decision, value: str) -> str | None:
    if value == "none" and "pass" not in d.options:
        value = "all"                                    # 19.1.2: an advance the rules order
    if value == "none":
        return "pass"
    if value != "all":
        return None
    # the attacker's options name a unit (7.13.2), the defender's a unit and
    # an emptied attacking hex (7.13.1): each hex in turn takes all that fit
    b = r.board(state)
    targets: dict[str | None, list[str]] = {}
    for o in d.options:
        w = o.split()
        if w[0] == "advance" and len(w) in (2, 3):
            targets.setdefault(w[2] if len(w) == 3 else None, []).append(w[1])
    for h, units in targets.items():
        keep = _fitting(r, state, d.seat, units, b.units_at(h) if h else [], bool(h and h in state["bridgeheads"]))
        if keep:
            return "advance " + " ".join(keep) + (f" {h}" if h else "")
    return "pass"


def _fitting(r: Any, state: dict[str, Any], seat: str, units: list[str], there: list[str],
             bridgehead: bool) -> list[str]:
    """The strongest of ``units`` that stack legally with ``there``."""
    from pbem.games.vr import stacking
    b = r.board(state)
    keep: list[str] = []
    for u in sorted(units, key=lambda u: -_strength(r, state, u)):
        if not stacking.problems([b.spec(x) for x in there + keep + [u]], seat, r.profile, bridgehead=bridgehead):
            keep.append(u)
    return keep


def _s_result(r, state, d, value):
    if value == "retreat":
        return "s-retreat"
    if value == "loss":
        units = [o.split()[1] for o in d.options if o.startswith("s-loss")]
        if not units:
            return "s-retreat"
        b = r.board(state)
        full = [u for u in units if b.full(u) and b.spec(u).steps > 1]
        pick = max(full or units, key=lambda u: _strength(r, state, u))
        return f"s-loss {pick}"
    return None


def _discard(r, state, d, value):
    avail = state["supports"][d.seat]["available"]
    n = int(d.prompt.split("return ")[1].split()[0])
    if value == "newest":
        return "return " + " ".join(avail[-n:])
    if value == "oldest":
        return "return " + " ".join(avail[:n])
    return None


_PICK = {
    "terrain": _terrain, "declare": _choice({"none": "declare none"}), "react": lambda r, state, d, value: _react(r, state, d, value),
    "enemy-airlift": _choice({"never": "pass"}),
    "elite-defense": _choice({"always": "elite ", "never": "elite none"}),
    "first-loss": _first_loss, "losses": _losses, "river-row": _river,
    "s-result": _s_result, "retreat": _choice({"first": "FIRST"}), "advance": _advance,
    "exploit": _choice({"most": "exploit", "none": "pass"}), "kg": _choice({"always": "kg yes", "never": "kg no"}),
    "survivor": _choice({"first": "FIRST"}), "discard": _discard, "pontoon": _choice({"none": "done"}),
    "place": _choice({"first": "FIRST"}), "overstack": _choice({"weakest": "LAST"}),
    "to-take": _choice({"never": "done"}), "to-move": _choice({"stay": "done"}), "to-mode": _choice({"keep": "done"}),
    "to-discard": _choice({"newest": "FIRST"}), "to-displace": _choice({"first": "FIRST"}),
    "stavka-enter": _choice({"none": "done"}),
    "capitulate": _choice({"never": "pass"}), "mobilize": _choice({"first": "FIRST"}),
    "withdrawal": _choice({"first": "FIRST"}),
    "stalin-to": lambda r, state, d, value: {"never": "pass", "first": d.options[0]}.get(value) or (
        f"stalin {(state.get('to_turn') or {}).get('priority')}" if value == "priority"
        and f"stalin {(state.get('to_turn') or {}).get('priority')}" in d.options else None),
    "replace": lambda r, state, d, value: "done" if value == "none" else next(
        (o for o in d.options if " with " not in o), "done") if value == "first" else None,
}


def elite_pick(r: Any, state: dict[str, Any], d: Decision, value: str) -> str | None:
    from pbem.games.vr.seq_battle import A_PREF, D_PREF
    f = state["stack"][-1]
    return _rank(A_PREF if d.seat == f["side"] else D_PREF)(r, state, d, value)


_PICK["elite-result"] = elite_pick
