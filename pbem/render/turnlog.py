"""The turn log: a plain-text after-action report of exchanges, for the body
of the email and for ``pbem log``.  No rich here: it must read the same in
any mail client."""
from __future__ import annotations

from typing import Any, Iterable

from pbem.cycle import Match, Record


def _order_text(m: Match, entry: dict[str, Any]) -> str:
    order = entry["order"]
    if order.get("verb") == "policy":
        return "sets a standing order" if entry["side"] != m.me else f"standing order {order.get('name')} = {order.get('value') or 'off'}"
    try:
        return m.rules.format(order)
    except Exception:  # a game that cannot format its own order still gets a log
        return str(order.get("verb", "order"))


def record_lines(m: Match, rec: Record) -> list[str]:
    lines = [f"Exchange {rec.n} - {rec.side} ({rec.kind})"]
    if rec.message:
        lines.append(f'  Message: "{rec.message}"')
    if rec.kind == "new":
        lines.append(f"  New game {m.game_id}: {m.game.title}, scenario {m.header['scenario']}, dice {m.timing}")
    elif rec.kind == "join":
        lines.append(f"  {rec.side} joins the game")
    elif rec.kind == "disclose":
        lines.append(f"  {rec.side} discloses its secrets for the audit")
    elif rec.kind == "rewind-offer":
        lines.append(f"  {rec.side} offers to take the game back to after exchange {rec.rewind_to}")
    elif rec.kind == "rewind":
        lines.append(f"  {rec.side} agrees: the game goes back to after exchange {rec.rewind_to}"
                     " (the later exchanges stay in the record)")
    marks = rec.marks if len(rec.marks) == len(rec.entries) else [len(rec.events)] * len(rec.entries)
    # Events before the first entry's resolve another seat's deferred order.
    for ev in rec.events[:rec.opening]:
        lines.append(f"  - {ev.text}")
    shown = rec.opening
    for entry, mark in zip(rec.entries, marks):
        tag = {"policy": " (standing order)", "private": " (answered by the program)"}.get(entry["by"], "")
        late = f"  [waits for {rec.waiting or 'the next'}'s dice]" if entry.get("deferred") else ""
        lines.append(f"  {entry['side']}: {_order_text(m, entry)}{tag}{late}")
        for ev in rec.events[shown:mark]:
            lines.append(f"    - {ev.text}")
        shown = max(shown, mark)
    for ev in rec.events[shown:]:
        lines.append(f"    - {ev.text}")
    for roll in rec.rolls:
        lines.append(f"    roll: {roll['purpose']}: {roll['op']} -> {_roll_result(roll)}  (stream {rec.n}, value {roll['pos']})")
    if rec.deferred:
        lines.append(f"  Dice pending: {rec.waiting or 'the next'}'s program rolls for {rec.deferred['side']}'s last order")
    return lines


def _roll_result(roll: dict[str, Any]) -> str:
    if roll["op"] == "draw":
        return f"{roll.get('item')} (of {roll.get('size')})"
    if roll["op"] == "shuffle":
        return "shuffled"
    return str(roll["result"])


def now_line(m: Match) -> str:
    if m.joined() and m.over():
        return f"Game over: {m.result()}"
    who = m.next_sender()
    d = m.pending() if m.joined() else None
    if d is not None and who == d.side:
        return f"Now: {who} must decide: {d.prompt}"
    return f"Now: waiting for {who}"


def turn_log(m: Match, records: Iterable[Record]) -> str:
    out: list[str] = [f"pbem - {m.game.title} - game {m.game_id}"]
    notice = practice_notice(m)
    if notice:
        out.append(notice)
    out.append("")
    for rec in records:
        out.extend(record_lines(m, rec))
        out.append("")
    out.append(now_line(m))
    return "\n".join(out) + "\n"


def practice_notice(m: Match) -> str:
    head = getattr(m, "scenario_head", None) or {}
    return str(head.get("notice", "")) if head.get("practice") else ""
