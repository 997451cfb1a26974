"""The plan at `pbem play`'s prompt (sealed dice, a decision the game
declares plannable): "now, and see the result, or add to the plan"; `plan`,
`plan done`, `plan clear`.  ``player`` is the interactive player
(`pbem.cli.play`): its turn, match, echo and push."""
from __future__ import annotations

from typing import Any

import click

from pbem.errors import UsageError
from pbem.game import IllegalOrder


def offer_plan(player: Any, order: Any) -> bool:
    """At a decision that may be planned (sealed dice): attack now and
    see the result (one email there and back), or add the order to the
    plan that the opponent's program resolves order after order.  True
    when the order went into the plan."""
    turn = player.turn
    if order.get("verb") == "plan" or not turn.may_plan():
        return False
    if not player.planned and not _ask_plan(player):
        return False
    if order in player.planned:
        # A unit attacks once and a hex is attacked once in every game that
        # plans: the same order twice would only stop the plan where it recurs.
        k = player.planned.index(order) + 1
        raise IllegalOrder(f"already in the plan ({k}): {player.m.rules.format(order)}")
    player.planned.append(order)
    player.echo(f"  added to the plan ({len(player.planned)}): " + "; ".join(
        player.m.rules.format(o) for o in player.planned))
    player.echo("  add more orders (end-combat too, to end the segment), `plan done` to sign the plan, "
              "`plan clear` to drop it")
    return True


def _ask_plan(player: Any) -> bool:
    """The now-or-plan question, asked until it gets n or p: anything else
    (an order typed too soon) must not sign an attack the player meant to
    plan."""
    while True:
        try:
            answer = click.prompt("  n = now, and see the result (its dice come back with the next email); "
                                  "p = add to the plan, resolved order after order by the opponent's program",
                                  default="n", show_default=True, prompt_suffix=" ").strip().lower()
        except click.exceptions.Abort:
            raise UsageError("interrupted; nothing written") from None
        if answer in ("p", "plan"):
            return True
        if answer in ("n", "now"):
            return False
        player.refuse(f"{answer!r}: answer n (now) or p (add to the plan)")


OPEN_PLAN_WORDS = ("p", "n", "now")
"""Answers to the now-or-plan question, typed again once a plan is open."""


def plan_command(player: Any, text: str) -> None:
    if text == "plan":
        player.echo("the plan: " + ("; ".join(player.m.rules.format(o) for o in player.planned) or "empty")
                  + ("" if player.turn.may_plan() else " (no plan may be given at this decision)"))
    elif text in OPEN_PLAN_WORDS:
        player.echo("the plan is open: each order you give now is added to it; `plan done` signs it, "
                    "`plan clear` drops it")
    elif text == "plan clear":
        player.planned = []
        player.echo("plan cleared")
    elif not player.planned:
        raise IllegalOrder("the plan is empty: give an order and answer p to add it")
    else:
        player._push({"verb": "plan", "orders": list(player.planned)})
        player.planned = []
