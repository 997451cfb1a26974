"""The turn log: a plain-text after-action report of exchanges, for the body
of the email and for ``pbem log``.  No rich here: it must read the same in
any mail client.

It draws what it is handed: a :class:`LogHeading` (which game, for whom,
what happens now) and the records of the exchanges, each shaped as
:class:`LogRecord` says.  It knows neither the exchange engine nor a game.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Protocol, Sequence


class LogEvent(Protocol):
    @property
    def text(self) -> str: ...


class LogRecord(Protocol):
    """One exchange as the log needs it (``pbem.cycle.Record`` is one)."""

    @property
    def n(self) -> int: ...
    @property
    def side(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def entries(self) -> list[dict[str, Any]]: ...
    @property
    def events(self) -> Sequence[LogEvent]: ...
    @property
    def rolls(self) -> list[dict[str, Any]]: ...
    @property
    def deferred(self) -> dict[str, Any] | None: ...
    @property
    def message(self) -> str: ...
    @property
    def waiting(self) -> str: ...
    @property
    def marks(self) -> list[int]: ...
    @property
    def opening(self) -> int: ...
    @property
    def rewind_to(self) -> int: ...


@dataclass(frozen=True)
class LogHeading:
    """The facts around the records: the game, its practice notice, and the
    line saying what happens now."""

    title: str
    game_id: str
    scenario: str
    timing: str
    notice: str
    now: str
    format_order: Callable[[dict[str, Any]], str]


def _order_text(h: LogHeading, entry: dict[str, Any]) -> str:
    order = entry["order"]
    if order.get("verb") == "policy":
        # Never the value, not even in the sender's own log: that log is the
        # body of the email his opponents read.
        return f"sets a standing order ({order.get('name')})"
    if order.get("verb") == "plan":
        planned = order.get("orders") or []
        texts = []
        for o in planned:
            try:
                texts.append(h.format_order(o))
            except Exception:
                texts.append(str(o.get("verb", "order")))
        return f"signs a plan of {len(planned)} order(s): " + "; ".join(texts)
    try:
        return h.format_order(order)
    except Exception:  # a game that cannot format its own order still gets a log
        return str(order.get("verb", "order"))


def record_lines(m: LogHeading, rec: LogRecord) -> list[str]:
    lines = [f"Exchange {rec.n} - {rec.side} ({rec.kind})"]
    if rec.message:
        lines.append(f'  Message: "{rec.message}"')
    if rec.kind == "new":
        lines.append(f"  New game {m.game_id}: {m.title}, scenario {m.scenario}, dice {m.timing}")
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
        tag = {"policy": " (standing order)", "private": " (answered by the program)",
               "forced": " (forced: the only legal order)", "plan": " (planned)"}.get(entry["by"], "")
        if entry.get("skipped"):
            tag = " (planned; skipped)"
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


def turn_log(h: LogHeading, records: Iterable[LogRecord]) -> str:
    out: list[str] = [f"pbem - {h.title} - game {h.game_id}"]
    if h.notice:
        out.append(h.notice)
    out.append("")
    for rec in records:
        out.extend(record_lines(h, rec))
        out.append("")
    out.append(h.now)
    return "\n".join(out) + "\n"
