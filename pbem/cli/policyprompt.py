"""Standing orders at `pbem play`'s prompt: `policy NAME [VALUE]`, and the
hint shown at a decision a standing order could answer.  ``player`` is the
interactive player (`pbem.cli.play`): its turn, match, echo and push."""
from __future__ import annotations

from typing import Any


def policy_command(player: Any, words: list[str]) -> None:
    """``policy NAME`` shows the kind and its setting; ``policy NAME
    VALUE`` sets it (and may answer the decision pending at once)."""
    from pbem.game import IllegalOrder

    turn, m = player.turn, player.m
    kinds = m.game.policy_kinds()
    if len(words) < 2:
        raise IllegalOrder(f"usage: policy NAME VALUE (or `policy NAME` to see it); kinds: "
                           f"{', '.join(sorted(kinds)) or 'none'}")
    name = words[1]
    if name not in kinds:
        raise IllegalOrder(f"no standing order {name!r}; kinds: {', '.join(sorted(kinds)) or 'none'}")
    private = name in m.rules.private_policies
    if len(words) == 2:
        now = own_policies(turn.es, turn.side, m).get(name)
        player.echo(f"{name}: {kinds[name]}")
        player.echo(f"  now: {now if now is not None else 'not set'}"
                    f"{' (sealed: only your program reads it)' if private else ''}")
        return
    value = " ".join(words[2:])
    if turn.done:
        raise IllegalOrder("this exchange is complete, so this standing order goes in your next one; or `undo` "
                           "the order that completed it, set this first, then answer again")
    player._push(" ".join(words))
    if value == "off":
        player.echo(f"standing order {name} cleared")
    elif private:
        player.echo(f"standing order {name} = {value} set, sealed: only your program reads it")
    else:
        player.echo(f"standing order {name} = {value} set: your opponent's program will read this")
    if player._answered_by_policy and turn.done:
        player._hold_sign = True
        player.echo("It answered the decision that was pending, which completes this exchange: `sign` signs and "
                    "writes it, `undo` takes the standing order back.")


def standing_order_hint(player: Any, d: Any) -> None:
    """Tell a player who has not set the standing order that would
    answer this decision how to: each one set spares emails."""
    kinds = player.m.game.policy_kinds()
    if not d.policy or d.policy not in kinds or d.seat != player.turn.side:
        return
    if own_policies(player.turn.es, player.turn.side, player.m).get(d.policy) is not None:
        return
    player.echo(f"  (to answer this without being asked: policy {d.policy} VALUE - {kinds[d.policy]})")


def own_policies(es: dict[str, Any], side: str | None, m: Any) -> dict[str, Any]:
    """``side``'s standing orders with their values, sealed ones read from
    the side's own hidden part (this program holds it)."""
    pols = dict((es.get("policies") or {}).get(side) or {})
    hidden = ((es.get("game") or {}).get("hidden") or {}).get(side) if side else None
    standing = hidden.get("standing") if isinstance(hidden, dict) else None
    for name, value in list(pols.items()):
        if value == "sealed" and name in m.rules.private_policies:
            pols[name] = standing.get(name, "sealed") if isinstance(standing, dict) else "sealed"
    return pols
