"""Victory (3.28, the scenario card): checked at the end of the card's last
turn.  A card states its conditions in ``[card.victory]``; the engine reads
the checks it knows (``soviet_controls``: every listed hex Soviet-controlled)
and the card's ``text`` says the rest."""
from __future__ import annotations

from typing import Any

from pbem.games.vr.model import GERMAN, SOVIET


def check(r: Any, state: dict[str, Any]) -> tuple[str, list[str]]:
    """(winner, lines) at the end of the game."""
    v = r.scn.card.victory
    need = list(v.get("soviet_controls", ()))
    held = [h for h in need if state["control"].get(h) == SOVIET]
    lines = [str(v.get("text", "")), f"Soviet control of {', '.join(need) or '-'}: {len(held)} of {len(need)}"]
    winner = SOVIET if need and len(held) == len(need) else GERMAN
    lines.append(f"{'Soviet' if winner == SOVIET else 'German'} victory at the end of turn {state['turn']}")
    return winner, lines
