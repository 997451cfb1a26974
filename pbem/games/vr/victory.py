"""Victory (notes §3.28: only the scenario cards state it).  A card gives
its conditions as data in ``[card.victory]``, which the engine evaluates:

``text``
    the card's words, shown in every sitrep and with the result.
``turn`` or ``by_date``
    the last turn: a turn number, or a date prefix of the turn track
    (``"1945-04"``: the last turn of April 1945, the campaign's "end of
    April 1945"); the track's last turn when neither is given.
``soviet_controls``
    hexes the Soviet player must all control when the game ends.
``soviet_reaches``
    hexes the Soviet must "capture or reach" (Bagration's design note): a
    Soviet unit stands in each, or the Soviet controls it.
``when``
    ``"game_end"`` (default): checked at the end of the last turn;
    ``"soviet_turn"``: checked at the end of every Soviet player turn, the
    Soviet winning at once when every condition holds, the German when the
    Soviet player turn of the last turn ends without it (sudden death).
``objectives_lost``
    how many of the six Strategic Objectives of 16.1 the German must have
    lost (their control, :mod:`pbem.games.vr.endreich`).

Every condition named must hold for a Soviet victory; otherwise the
German wins (the published cards' values are MISSING: a file holding one
is refused by the loader, :mod:`pbem.games.vr.scenario`).
"""
from __future__ import annotations

from typing import Any

from pbem.game import Event
from pbem.games.vr.model import GERMAN, SOVIET

KEYS = ("text", "hint", "turn", "by_date", "soviet_controls", "soviet_reaches", "when", "objectives_lost")
WHEN = ("game_end", "soviet_turn")


def refusals(v: dict[str, Any], dates: dict[int, str], on_map: Any) -> list[str]:
    """What is wrong with a card's victory table (MISSING values pass: the
    gaps list names them), one line each."""
    out = []
    for k in v:
        if k not in KEYS and k != "missing":
            out.append(f"card.victory: unknown key {k!r} (known: {', '.join(KEYS)})")
    for k in ("soviet_controls", "soviet_reaches"):
        hexes = v.get(k, [])
        if hexes == "MISSING":
            continue
        if not isinstance(hexes, list):
            out.append(f"card.victory.{k}: a list of hexes")
            continue
        out += [f"card.victory.{k}: {h!r} is not a hex of the map" for h in hexes
                if h != "MISSING" and not on_map(h)]
    when = v.get("when", "game_end")
    if when not in WHEN + ("MISSING",):
        out.append(f"card.victory.when: {when!r} is not one of {', '.join(WHEN)}")
    d = v.get("by_date")
    if isinstance(d, str) and d != "MISSING" and dates and not any(x.startswith(d) for x in dates.values()):
        out.append(f"card.victory.by_date: no turn of the track falls in {d}")
    n = v.get("objectives_lost")
    if n is not None and n != "MISSING" and (not isinstance(n, int) or not 0 < n <= 6):
        out.append("card.victory.objectives_lost: a number from 1 to 6 (16.1)")
    return out


def last_turn(r: Any) -> int:
    v = r.scn.card.victory
    track = r.scn.track
    if isinstance(v.get("turn"), int):
        return min(int(v["turn"]), track.last)
    d = v.get("by_date")
    if isinstance(d, str):
        found = [t for t, x in track.dates.items() if x.startswith(d)]
        if found:
            return max(found)
    return track.last


def conditions(r: Any, state: dict[str, Any]) -> list[tuple[str, bool]]:
    """Each condition the card names: (its line, met now)."""
    v = r.scn.card.victory
    b = r.board(state)
    out = []
    need = list(v.get("soviet_controls", ()))
    if need:
        held = [h for h in need if state["control"].get(h) == SOVIET]
        out.append((f"Soviet control of {', '.join(need)}: {len(held)} of {len(need)}", len(held) == len(need)))
    reach = list(v.get("soviet_reaches", ()))
    if reach:
        got = [h for h in reach if state["control"].get(h) == SOVIET
               or any(b.side_of(u) == SOVIET for u in b.units_at(h))]
        out.append((f"Soviet units reached or captured {', '.join(reach)}: {len(got)} of {len(reach)}",
                    len(got) == len(reach)))
    n = v.get("objectives_lost")
    if isinstance(n, int):
        from pbem.games.vr import endreich
        lost = 6 - endreich.objectives_held(r, state)
        out.append((f"Strategic Objectives lost by the German: {lost} of the {n} needed (16.1)", lost >= n))
    return out


def check(r: Any, state: dict[str, Any]) -> tuple[str, list[str]]:
    """(winner, lines) at the end of the game."""
    conds = conditions(r, state)
    lines = [str(r.scn.card.victory.get("text", ""))] + [c for c, _ in conds]
    winner = SOVIET if conds and all(ok for _, ok in conds) else GERMAN
    lines.append(f"{'Soviet' if winner == SOVIET else 'German'} victory at the end of turn {state['turn']}")
    return winner, lines


def after_soviet_turn(r: Any, state: dict[str, Any], events: list[Event]) -> bool:
    """``when = "soviet_turn"``: the end of a Soviet player turn may end the
    game (True)."""
    if r.scn.card.victory.get("when") != "soviet_turn":
        return False
    conds = conditions(r, state)
    met = bool(conds) and all(ok for _, ok in conds)
    if not met and state["turn"] < last_turn(r):
        return False
    winner = SOVIET if met else GERMAN
    lines = [str(r.scn.card.victory.get("text", ""))] + [c for c, _ in conds]
    lines.append(f"{'Soviet' if met else 'German'} victory at the end of the Soviet player turn of turn "
                 f"{state['turn']}")
    state["winner"], state["result"], state["phase"], state["stack"] = winner, lines, "over", []
    events.append(Event(lines[-1], {"winner": winner}))
    return True
