"""Standing orders: a seat's answers to its own future decisions, so that a
question inside the other side's activation (a step loss, a retreat, a
fortress conversion) or a routine one (an interrupt window after every
draw) costs no email.  Each decision names the policy that may answer it
(``Decision.policy``); a policy that does not apply returns None and the
seat is asked.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.game import Decision
from pbem.games.ava import orders
from pbem.games.ava.model import AXIS, SOVIET

if TYPE_CHECKING:
    from pbem.games.ava.rules import AvaRules

KINDS: dict[str, str] = {
    "interrupt": "a held interrupt after a draw (7.3; Zhukov 18.1), and at the end of the cup: "
                 "never | enemy (cancel an enemy chit) | first | ask",
    "losses": "step losses (10.5): spread (flip before eliminating, strongest first) | "
              "concentrate (eliminate the weakest first) | ask",
    "retreat": "retreat route when several are legal (10.6): first | ask",
    "advance": "advance after combat (10.7): none | all | ask",
    "fortress": "FFS 14.2.5: a fortress hex takes steps instead of retreating: convert | keep | ask",
    "withdraw": "Axis units to the Available Box at a Supply Check (11.2): none | ask",
    "fortress-build": "Soviet fortress steps at a Supply Check (14.1): none | ask",
    "standfast": "Soviet Stand Fast removal at a Supply Check (16.2): none | ask",
    "transfer": "FFS 16.3: HQs sent to the next turn at a Supply Check (option hq_transfer): none | ask",
    "zhukov": "AVA 18.1: declare Zhukov's Command when an Axis unit enters a hex next to Leningrad: "
              "declare | never | ask",
}

VALUES: dict[str, tuple[str, ...]] = {
    "interrupt": ("never", "enemy", "first", "ask"),
    "losses": ("spread", "concentrate", "ask"),
    "retreat": ("first", "ask"),
    "advance": ("none", "all", "ask"),
    "fortress": ("convert", "keep", "ask"),
    "withdraw": ("none", "ask"),
    "fortress-build": ("none", "ask"),
    "standfast": ("none", "ask"),
    "transfer": ("none", "ask"),
    "zhukov": ("declare", "never", "ask"),
}

#: the side whose decisions a standing order answers (absent: either side's)
OWNER: dict[str, str] = {"withdraw": AXIS, "fortress": SOVIET, "fortress-build": SOVIET, "standfast": SOVIET,
                         "zhukov": SOVIET}


def refusal(rules: AvaRules, seat: str, name: str, value: str) -> str | None:
    owner = OWNER.get(name)
    if owner is not None and owner != seat:
        return f"{name} answers {owner} decisions, not {seat}'s"
    allowed = VALUES.get(name, ())
    if value.strip().lower() in allowed:
        return None
    return f"{value!r} is not one of its values: {', '.join(allowed)}"


def answer(rules: AvaRules, state: dict[str, Any], d: Decision, policies: dict[str, Any]) -> dict[str, Any] | None:
    if not d.policy or d.policy not in policies:
        return None
    value = str(policies[d.policy]).strip().lower()
    if value in ("ask", ""):
        return None
    fn = _ANSWERS.get(d.policy)
    return fn(rules, state, d, value) if fn else None


def _interrupt(rules: AvaRules, state: dict[str, Any], d: Decision, value: str) -> dict[str, Any] | None:
    verb = d.kind if d.kind in ("interrupt", "zhukov") else "interrupt"
    plays = [o for o in d.options if not o.endswith(" no")]
    if not plays:
        return None
    no = f"{verb} no" in d.options
    if value == "never":
        return {"verb": verb, "chit": None} if no else None
    if value == "first":
        return orders.parse(plays[0], rules.scn)
    if value == "enemy":
        top = state["stack"][-1]
        drawn = top.get("chit") if top.get("k") == "drawn" else None
        enemy = drawn is not None and rules.scn.chits[drawn].side not in (d.seat, "common")
        if enemy or not no:
            return orders.parse(plays[0], rules.scn)
        return {"verb": verb, "chit": None}
    return None


def _strength(rules: AvaRules, state: dict[str, Any], uid: str) -> int:
    if uid == orders.FORTRESS:
        return 0
    b = rules.board(state)
    return max(b.attack(uid), b.defense(uid))


def _losses(rules: AvaRules, state: dict[str, Any], d: Decision, value: str) -> dict[str, Any] | None:
    opts = [orders.parse(o, rules.scn)["steps"] for o in d.options]
    if not opts:
        return None

    def dead(o: dict[str, int]) -> int:
        return sum(1 for u, n in o.items() if u != orders.FORTRESS and n >= state["units"][u]["steps"])

    def weight(o: dict[str, int]) -> int:
        return sum(_strength(rules, state, u) * n for u, n in o.items())

    if value == "spread":
        best = min(opts, key=lambda o: (dead(o), -weight(o), sorted(o.items())))
    elif value == "concentrate":
        best = min(opts, key=lambda o: (weight(o), sorted(o.items())))
    else:
        return None
    return {"verb": "loss", "steps": best}


def _first(rules: AvaRules, state: dict[str, Any], d: Decision, value: str) -> dict[str, Any] | None:
    return orders.parse(d.options[0], rules.scn) if value == "first" and d.options else None


def _advance(rules: AvaRules, state: dict[str, Any], d: Decision, value: str) -> dict[str, Any] | None:
    if value == "none":
        return {"verb": "pass"}
    if value == "all":
        moves = [o for o in d.options if o.startswith("advance ")]
        return orders.parse(moves[0], rules.scn) if moves else {"verb": "pass"}
    return None


def _convert(rules: AvaRules, state: dict[str, Any], d: Decision, value: str) -> dict[str, Any] | None:
    return {"verb": "convert", "yes": value == "convert"} if value in ("convert", "keep") else None


def _zhukov(rules: AvaRules, state: dict[str, Any], d: Decision, value: str) -> dict[str, Any] | None:
    return {"verb": "declare", "yes": value == "declare"} if value in ("declare", "never") else None


def _none(rules: AvaRules, state: dict[str, Any], d: Decision, value: str) -> dict[str, Any] | None:
    return {"verb": "pass"} if value == "none" and "pass" in d.options else None


_ANSWERS = {"interrupt": _interrupt, "losses": _losses, "retreat": _first, "advance": _advance,
            "fortress": _convert, "zhukov": _zhukov, "transfer": _none, "withdraw": _none, "fortress-build": _none, "standfast": _none}
