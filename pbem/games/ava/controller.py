"""The Game Controller's chit queue (AVA 19.3-19.5) as a small state dict
and the Controller's legal choices over it.

How pbem plays "concurrent" commands (a ruling; see the report and
RULINGS.md).  At the table several players execute revealed chits at once.
By email one seat acts at a time, so here:

* revealed commands run one at a time, each to completion, in the order
  they were revealed (at the table a reveal starts the command);
* the Controller decides between commands: draw another chit, reveal the
  next face-down chit, hold a newly drawn chit face down, or stop drawing
  (the next revealed command then runs, and he is asked again when it
  ends);
* a revealed command counts as begun: an interrupt on a later reveal
  cancels only the face-down chits queued after it (A46);
* the Controller still decides WHEN a chit is revealed, which decides when
  the interrupt window opens (19.5) and what the other players know.
  Nothing can interfere when commands never overlap, so his choice needs
  no peek at a face-down chit: a handle shows its side only (the core's
  hidden-item service opens a chit to every seat at once).

The queue (``Queue``; JSON-able, kept in the game state)::

    {"entries": [{"token": "sealed:s2.3" | chit id, "chit": chit id | None,
                  "revealed": bool, "running": bool, "done": bool,
                  "seq": reveal number | None, "interrupt": bool}, ...],
     "fresh": bool,          # the last entry was just drawn: reveal or hold it
     "window": int | None,   # the entry just revealed: its 19.5 window is open
     "reveals": int}

Choices, as the Controller writes them: ``draw``, ``reveal N`` (N: the
entry's 1-based place in the queue), ``hold``, ``stop``.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.game import IllegalOrder

Queue = dict[str, Any]
Entry = dict[str, Any]

DRAW, REVEAL, HOLD, STOP = "draw", "reveal", "hold", "stop"


def new_queue() -> Queue:
    return {"entries": [], "fresh": False, "window": None, "reveals": 0}


# ------------------------------------------------------------ reading
def name(e: Entry) -> str:
    """How an entry shows to everyone: its chit once known, else "face down"."""
    return str(e["chit"]) if e["revealed"] and e["chit"] else "a face-down chit"


def under_way(q: Queue) -> list[int]:
    """Revealed entries not done (running or waiting their turn): what the
    rulebook calls commands being executed."""
    return [i for i, e in enumerate(q["entries"]) if e["revealed"] and not e["done"]]


def face_down(q: Queue) -> list[int]:
    return [i for i, e in enumerate(q["entries"]) if not e["revealed"]]


def running(q: Queue) -> int | None:
    return next((i for i, e in enumerate(q["entries"]) if e["running"]), None)


def next_face_down(q: Queue) -> int | None:
    """A48: the only face-down chit that may be revealed, the fresh one
    aside: the first in queue order."""
    fd = face_down(q)
    return fd[0] if fd else None


def next_to_run(q: Queue) -> int | None:
    """The revealed command to run next: the earliest revealed not done."""
    waiting = [i for i in under_way(q) if not q["entries"][i]["running"]]
    return min(waiting, key=lambda i: q["entries"][i]["seq"]) if waiting else None


def finished(q: Queue, cup_left: int) -> bool:
    """Every chit drawn and executed (19.4(8)): the queue is through."""
    return cup_left == 0 and all(e["done"] for e in q["entries"])


# ------------------------------------------------------------ choices
def pending_choice(q: Queue, cup_left: int) -> tuple[tuple[str, ...], bool]:
    """The Controller's legal choices now and whether the rules force the
    only one.  Nothing to choose (``()``) while a command runs, while a
    reveal's interrupt window is open, or once the queue is through.

    * A chit just drawn: reveal it or hold it face down (19.4(5)); forced
      to reveal when nothing is under way and nothing waits face down
      (19.4(2)).
    * Nothing under way but face-down chits: reveal the first, forced
      (19.4(6), A48).
    * Nothing under way, nothing face down: draw, forced (19.4(1)).
    * Otherwise: draw (while the cup holds chits, 19.4(4)), reveal the
      first face-down chit (19.4(6)), stop (19.4(7): the next revealed
      command runs).
    """
    if running(q) is not None or q["window"] is not None or finished(q, cup_left):
        return (), False
    busy = under_way(q)
    first = next_face_down(q)
    if q["fresh"]:
        last = len(q["entries"]) - 1
        if not busy:
            assert first is not None
            return (f"{REVEAL} {first + 1}",), True
        return (f"{REVEAL} {last + 1}", HOLD), False
    if not busy:
        if first is not None:
            return (f"{REVEAL} {first + 1}",), True
        return ((DRAW,), True) if cup_left else ((), False)
    opts = ([DRAW] if cup_left else []) + ([f"{REVEAL} {first + 1}"] if first is not None else []) + [STOP]
    return tuple(opts), False


def check_choice(q: Queue, cup_left: int, choice: str) -> None:
    """Refuse, in one line, a choice the rules do not allow now."""
    opts, forced = pending_choice(q, cup_left)
    if choice in opts:
        return
    if not opts:
        raise IllegalOrder("the Controller has nothing to decide now")
    verb, _, arg = choice.partition(" ")
    if verb == REVEAL and arg.isdigit():
        raise IllegalOrder(_reveal_refusal(q, int(arg) - 1, opts, forced))
    if forced:
        raise IllegalOrder(f"the Controller must {opts[0]} now (19.4)")
    raise IllegalOrder(f"the Controller may {' | '.join(opts)} now, not {choice!r}")


def _reveal_refusal(q: Queue, i: int, opts: tuple[str, ...], forced: bool) -> str:
    entries = q["entries"]
    if not 0 <= i < len(entries):
        return f"the queue has no entry {i + 1}"
    if entries[i]["revealed"]:
        return f"entry {i + 1} ({name(entries[i])}) is already revealed"
    first = next_face_down(q)
    if forced:
        return f"entry {(first or 0) + 1} must be revealed now: nothing revealed is under way (19.4(6))"
    return f"face-down chits are revealed in queue order: entry {(first or 0) + 1} comes first (A48)"


# ------------------------------------------------------------ acting
def draw(q: Queue, cup_left: int, token: str, chit: str | None = None) -> int:
    """The Controller draws ``token`` from the cup (its chit known to all if
    it was face up in the cup): it joins the queue face down, fresh."""
    check_choice(q, cup_left, DRAW)
    q["entries"].append({"token": token, "chit": chit, "revealed": False, "running": False, "done": False,
                         "seq": None, "interrupt": False})
    q["fresh"] = True
    return len(q["entries"]) - 1


def hold(q: Queue, cup_left: int) -> None:
    """19.4(5): the chit just drawn stays face down in the queue."""
    check_choice(q, cup_left, HOLD)
    q["fresh"] = False


def reveal(q: Queue, cup_left: int, i: int, chit: str) -> None:
    """Entry ``i`` is turned up as ``chit`` (the owner's opening for a
    face-down handle): its interrupt window opens (19.5)."""
    check_choice(q, cup_left, f"{REVEAL} {i + 1}")
    e = q["entries"][i]
    e["revealed"], e["chit"] = True, chit
    q["reveals"] += 1
    e["seq"] = q["reveals"]
    q["fresh"] = False
    q["window"] = i


def close_window(q: Queue) -> None:
    """Every holder passed: the revealed chit stands."""
    q["window"] = None


def cancel(q: Queue, interrupt: str) -> list[str]:
    """19.5 with A46: the chit just revealed is cancelled by ``interrupt``
    (Manstein, Guderian), whose command takes its place in the queue; the
    face-down chits queued after it go back to the cup; revealed ones
    (begun) and everything earlier stand.  Returns what goes back to the
    cup: the cancelled chit (now known) and the returned tokens."""
    i = q["window"]
    if i is None:
        raise IllegalOrder("an interrupt cancels a chit as it is revealed (19.5); none is being revealed")
    e = q["entries"][i]
    back = [str(e["chit"])]
    keep: list[Entry] = q["entries"][:i]
    keep.append({"token": interrupt, "chit": interrupt, "revealed": True, "running": False, "done": False,
                 "seq": e["seq"], "interrupt": True})
    for later in q["entries"][i + 1:]:
        if later["revealed"]:
            keep.append(later)
        else:
            back.append(str(later["token"]))
    q["entries"] = keep
    q["window"] = None
    q["fresh"] = False
    return back


def stop(q: Queue, cup_left: int) -> int:
    """19.4(7): the Controller stops drawing; the next revealed command runs
    (its place in the queue is returned)."""
    check_choice(q, cup_left, STOP)
    return start_next(q)


def start_next(q: Queue) -> int:
    i = next_to_run(q)
    if i is None or running(q) is not None:
        raise IllegalOrder("no revealed command is waiting to run")
    q["entries"][i]["running"] = True
    return i


def finish(q: Queue, i: int) -> None:
    """The command of entry ``i`` is complete."""
    e = q["entries"][i]
    if not e["running"]:
        raise IllegalOrder(f"entry {i + 1} ({name(e)}) is not running")
    e["running"], e["done"] = False, True


def apply_choice(q: Queue, cup_left: int, choice: str) -> None:
    """``hold`` and ``stop`` as written (``draw`` and ``reveal`` need the
    cup's token and the chit: :func:`draw`, :func:`reveal`)."""
    if choice == HOLD:
        hold(q, cup_left)
    elif choice == STOP:
        stop(q, cup_left)
    else:
        raise ValueError(f"{choice}: use draw() or reveal()")


# ------------------------------------------------------------ a default policy
def simple_policy(q: Queue, cup_left: int, owner: Mapping[int, str | None], *, depth: int = 3) -> str:
    """A choice for a scripted or standing-order Controller, the one policy
    both 19.4 examples fit (notes TC-21): reveal a fresh chit only when its
    seat (``owner``: entry -> seat, None when unknown) has nothing under way
    and no earlier face-down chit; draw while fewer than ``depth`` chits are
    under way; else reveal the next face-down chit whose seat is idle, else
    stop."""
    opts, forced = pending_choice(q, cup_left)
    if not opts:
        raise IllegalOrder("the Controller has nothing to decide now")
    if forced:
        return opts[0]
    busy = {owner.get(i) for i in under_way(q)}
    if q["fresh"]:
        last = len(q["entries"]) - 1
        seat = owner.get(last)
        earlier = [i for i in face_down(q) if i < last and owner.get(i) in (seat, None)]
        return opts[0] if seat is not None and seat not in busy and not earlier else HOLD
    if DRAW in opts and len(under_way(q)) < depth:
        return DRAW
    first = next_face_down(q)
    if first is not None and owner.get(first) is not None and owner.get(first) not in busy:
        return f"{REVEAL} {first + 1}"
    return STOP
