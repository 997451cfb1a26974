"""``pbem fetch``: game files collected from where a player receives them,
checked, and kept as ``pbem play`` keeps them.

Sources: a folder (``*.toml`` game files and saved ``*.eml`` mails, such as
the downloads folder), a Maildir, an mbox file, or an IMAP mailbox over TLS
(``$PBEM_HOME/imap.toml``).  In a mailbox only messages carrying the
``X-Pbem-Game`` header are read, and only unseen ones unless asked; nothing
is ever deleted or moved out of a mailbox, and a message is flagged seen
only with ``mark_seen`` (IMAP and Maildir; an mbox is only read).

Each game file found is verified (signatures, chain, every rule: the same
replay as ``play``, through the match cache) and kept in the game's folder
(:func:`pbem.session.keep_version` after
:func:`pbem.session.compare_with_local`).  An old file, a fork, a file of a
game the player does not hold or a stranger's file is reported and kept
nowhere; an invitation to a new game is put in ``$PBEM_HOME/invitations``
for ``pbem join``.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from email import policy as _policy
from email.parser import BytesHeaderParser
from pathlib import Path
from typing import Any, Callable, Iterator

from pbem.errors import PbemError, UsageError

STORED = "stored"           # a newer version, verified and kept
HELD = "held"               # the very version already kept
OLD = "old"                 # an earlier version of a game you hold
FORK = "fork"               # differs from what you hold: kept nowhere
UNKNOWN = "unknown"         # a game you do not hold, not inviting you
INVITATION = "invitation"   # a new game inviting your key
STRANGER = "stranger"       # your key plays no seat in it
INVALID = "invalid"         # does not read or does not verify

HANDLED = (STORED, HELD, OLD, INVITATION)     # what --mark-seen flags as seen
MAX_MESSAGE = 20 * 1024 * 1024 + 65536        # a game file's limit and room for the mail around it


@dataclass
class Item:
    """One candidate: where it came from, its bytes, and how to flag it
    seen there (None where a source has no flags)."""

    origin: str
    data: bytes
    mark_seen: Callable[[], None] | None = None
    from_mailbox: bool = False


@dataclass
class Outcome:
    origin: str
    status: str
    game_id: str = ""
    exchange: int = 0
    text: str = ""
    path: str = ""
    yours: bool = False         # the game now waits for you
    marked: bool = False


@dataclass
class Report:
    outcomes: list[Outcome] = field(default_factory=list)

    def count(self, *statuses: str) -> int:
        return sum(1 for o in self.outcomes if o.status in statuses)


# ------------------------------------------------------------------ sources


def items_from_path(path: Path, *, include_seen: bool = False) -> Iterator[Item]:
    """Candidates in a folder, a Maildir or an mbox file (or one file)."""
    path = Path(path).expanduser()
    if path.is_dir():
        if all((path / sub).is_dir() for sub in ("new", "cur", "tmp")):
            yield from _maildir(path, include_seen)
        else:
            yield from _folder(path)
    elif path.is_file():
        with path.open("rb") as fh:
            head = fh.read(5)
        if head == b"From ":
            yield from _mbox(path, include_seen)
        else:
            data = _read(path)
            if data is not None:
                yield Item(str(path), data)
    else:
        raise UsageError(f"{path}: no such folder, Maildir, mbox or file")


def _read(path: Path) -> bytes | None:
    from pbem.fsutil import read_bounded

    try:
        return read_bounded(path, MAX_MESSAGE, "received file")
    except PbemError:
        return None


def _folder(path: Path) -> Iterator[Item]:
    from pbem import session

    games = (session.home() / "games").resolve()
    for p in sorted(path.iterdir()):
        if p.suffix.lower() not in (".toml", ".eml") or p.name.endswith(".id.toml") or not p.is_file():
            continue
        if games in p.resolve().parents:
            continue
        data = _read(p)
        if data is not None:
            yield Item(str(p), data)


def _is_pbem_mail(head: Any) -> bool:
    from pbem.mail import GAME_HEADER

    return head.get(GAME_HEADER) is not None


def _maildir(path: Path, include_seen: bool) -> Iterator[Item]:
    """Maildir messages with the pbem header: those in ``new/`` and those
    in ``cur/`` without the S flag (all, with ``include_seen``).  Marking
    one seen renames it into ``cur/`` with ``:2,S`` added, as mail
    readers do; nothing else is touched."""
    parser = BytesHeaderParser(policy=_policy.compat32)
    for sub in ("new", "cur"):
        for p in sorted((path / sub).iterdir()):
            if p.name.startswith(".") or not p.is_file():
                continue
            info = p.name.split(":2,", 1)[1] if ":2," in p.name else ""
            if sub == "cur" and "S" in info and not include_seen:
                continue
            data = _read(p)
            if data is None or not _is_pbem_mail(parser.parsebytes(data)):
                continue
            yield Item(str(p), data, _maildir_marker(p, sub, info), from_mailbox=True)


def _maildir_marker(p: Path, sub: str, info: str) -> Callable[[], None]:
    def mark() -> None:
        if "S" in info and sub == "cur":
            return
        base = p.name.split(":2,", 1)[0]
        flags = "".join(sorted(set(info) | {"S"}))
        os.rename(p, p.parent.parent / "cur" / f"{base}:2,{flags}")
    return mark


def _mbox(path: Path, include_seen: bool) -> Iterator[Item]:
    """An mbox is only read (flagging would rewrite the whole file): every
    message with the pbem header whose Status does not say read."""
    import mailbox

    box = mailbox.mbox(str(path), create=False)
    try:
        for i, key in enumerate(box.keys(), 1):
            raw = box.get_bytes(key)
            if len(raw) > MAX_MESSAGE:
                continue
            head = BytesHeaderParser(policy=_policy.compat32).parsebytes(raw)
            if not _is_pbem_mail(head):
                continue
            if "R" in str(head.get("Status", "")) and not include_seen:
                continue
            yield Item(f"{path} message {i}", raw, None, from_mailbox=True)
    finally:
        box.close()


# ------------------------------------------------------------------ checking


def check_and_store(items: list[Item], me: Any) -> Report:
    """Check every candidate and keep what is new: the newest version of
    each game first, so that the earlier ones need no replay."""
    from pbem import mail, session

    report = Report()
    parsed: list[tuple[Item, Any]] = []
    for item in items:
        try:
            _, toml_bytes = mail.extract_game(item.data, bare_name=Path(item.origin).name)
        except PbemError as exc:
            if item.from_mailbox:
                report.outcomes.append(Outcome(item.origin, INVALID, text=_line(exc)))
            continue
        if not mail._GAME_TABLE.search(toml_bytes):
            if item.from_mailbox:
                report.outcomes.append(Outcome(item.origin, INVALID, text="the attachment is not a pbem game file"))
            continue            # an identity, orders or settings file in a folder
        try:
            gf = session._parse(toml_bytes, item.origin)
            session.game_dir(gf.game_id)
        except PbemError as exc:
            report.outcomes.append(Outcome(item.origin, INVALID, text=_line(exc)))
            continue
        parsed.append((item, gf))
    parsed.sort(key=lambda p: (str(p[1].game_id), -len(p[1].exchanges)))
    for item, gf in parsed:
        try:
            outcome = _one(item, gf, me)
        except PbemError as exc:
            outcome = Outcome(item.origin, INVALID, str(gf.game_id), len(gf.exchanges), _line(exc))
        report.outcomes.append(outcome)
    return report


def _one(item: Item, gf: Any, me: Any) -> Outcome:
    from pbem import cycle, session

    game_id, n = str(gf.game_id), len(gf.exchanges)
    local = session.latest_stored(game_id)
    if local is None:
        return _new_game(item, gf, me)
    have = len(local.exchanges)
    if n <= have and cycle.exchange_hash(local.exchanges[n - 1]) == cycle.exchange_hash(gf.last):
        if n == have:
            return Outcome(item.origin, HELD, game_id, n, f"exchange {n} is the one you hold")
        return Outcome(item.origin, OLD, game_id, n, f"old file: exchange {n}, you hold {have}; nothing written")
    try:
        session.compare_with_local(gf)
    except PbemError as exc:
        return Outcome(item.origin, FORK, game_id, n, _line(exc))
    loaded = session.open_game(Path(item.origin), me, gf=gf, cached=True)
    m = loaded.match
    if m.me is None:
        return Outcome(item.origin, STRANGER, game_id, n, "your key is not a player of this game; nothing written")
    path = session.keep_version(session.refresh_reading_copies(gf, m))
    return Outcome(item.origin, STORED, game_id, n, m.who_acts(), str(path), yours=m.next_sender() == m.me)


def _new_game(item: Item, gf: Any, me: Any) -> Outcome:
    """A game this player holds nothing of: an invitation to his key is
    verified and put aside for ``pbem join``; anything else is reported."""
    from pbem import session
    from pbem.fsutil import atomic_write

    game_id, n = str(gf.game_id), len(gf.exchanges)
    invited = gf.header.get("invited", {}) if isinstance(gf.header, dict) else {}
    mine = me is not None and any(isinstance(i, dict) and i.get("sign_pub") == me.public.sign_pub
                                  for i in invited.values())
    if not mine:
        return Outcome(item.origin, UNKNOWN, game_id, n,
                       "a game you do not hold and that does not invite you; nothing written")
    loaded = session.open_game(Path(item.origin), me, gf=gf, cached=False)
    m = loaded.match
    if m.me is not None or m.joined():
        return Outcome(item.origin, UNKNOWN, game_id, n,
                       "a game you joined elsewhere (not in this PBEM_HOME); nothing written")
    from pbem import contacts

    for player in m.seats.values():
        contacts.check(player.identity, "this invitation")
    dest = session.home() / "invitations" / f"{game_id}-{n:03d}.toml"
    atomic_write(dest, gf.to_toml().encode("utf-8"))
    who = ", ".join(f"{p.identity.name} ({s})" for s, p in m.seats.items())
    return Outcome(item.origin, INVITATION, game_id, n, f"invitation from {who}: `pbem join {dest}`", str(dest))


def mark(items: list[Item], report: Report) -> int:
    """Flag seen every message whose file was dealt with; returns how many."""
    by_origin = {o.origin: o for o in report.outcomes}
    done = 0
    for item in items:
        o = by_origin.get(item.origin)
        if o is None or o.status not in HANDLED or item.mark_seen is None:
            continue
        try:
            item.mark_seen()
        except (OSError, PbemError) as exc:
            raise PbemError(f"could not flag {item.origin} seen: {_line(exc)}") from None
        o.marked = True
        done += 1
    return done


def _line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


def safe_origin(text: str) -> str:
    return re.sub(r"[\x00-\x1f\x7f]", "?", text)
