"""A game's emails as one conversation: the subject a mail client shows and
the headers that thread every exchange of a game together.

Each exchange's ``Message-ID`` is derived from the game id and the exchange
number alone, so both players' programs name the same message the same way
without telling each other: exchange 12's mail replies to exchange 11's
(``In-Reply-To``) and lists the first exchange and the latest ones before it
(``References``), and a mail sent twice is the same message twice.
"""
from __future__ import annotations

from typing import Any

DOMAIN = "pbem.invalid"          # reserved (RFC 2606): no real host claims it
REFERENCES_KEPT = 10             # the first exchange and the nine before the reply


def message_id(game_id: str, n: int) -> str:
    return f"<{game_id}.{n}@{DOMAIN}>"


def thread_headers(game_id: str, n: int) -> tuple[str, str | None, str | None]:
    """``(Message-ID, In-Reply-To, References)`` of exchange ``n``."""
    if n <= 1:
        return message_id(game_id, n), None, None
    earlier = sorted({1, *range(max(1, n - REFERENCES_KEPT + 1), n)})
    return message_id(game_id, n), message_id(game_id, n - 1), " ".join(message_id(game_id, k) for k in earlier)


def player_names(m: Any) -> dict[str, str]:
    """Seat -> the name of its player (joined or invited), in seat order."""
    invited = m.header.get("invited", {})
    out = {}
    for seat in m.seat_names:
        player = m.seats.get(seat)
        name = player.identity.name if player is not None else invited.get(seat, {}).get("name", "")
        out[seat] = str(name or seat)
    return out


def subject(m: Any) -> str:
    """``[pbem avd] Anna v Pavel, exchange 12: your move, Pavel``."""
    names = player_names(m)
    people = " v ".join(dict.fromkeys(names.values()))
    n = len(m.exchanges)
    if m.joined() and m.over():
        what = f"game over: {m.result()}"
    else:
        who = m.next_sender()
        name = names.get(who, who) if who else ""
        what = f"please join, {name}" if not m.joined() else f"your move, {name}"
    return _one_line(f"[pbem {m.header['game']}] {people}, exchange {n}: {what}")


def _one_line(text: str) -> str:
    from pbem.session import clean_text

    return " ".join(clean_text(text).split())
