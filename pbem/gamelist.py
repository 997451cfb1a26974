"""Every game in ``$PBEM_HOME`` at a glance (``pbem games``), and a game
named by its id (``pbem play GAME``, ``pbem mail GAME``).

Each game is read from the newest version kept in its folder, through the
player's match cache, and described only with what the match offers every
game: the seat names, the game's view title (its turn), the pending
decision (its phase), who must act (``next_sender``; a seat's program
resolving another seat's sealed dice: ``es["deferred"]``), the result.
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pbem.errors import PbemError, UsageError

# Who must act, from the player's chair.
YOU = "you"                 # your decision, or your program must resolve their dice
THEM = "them"               # another seat decides (or has still to join)
THEIR_DICE = "their dice"   # their program resolves the dice of your last order
OVER = "over"
UNREADABLE = "unreadable"


@dataclass
class GameEntry:
    game_id: str
    game: str
    title: str
    scenario: str
    seat: str | None
    seats: dict[str, str] = field(default_factory=dict)       # seat -> player name
    opponents: list[str] = field(default_factory=list)        # "Pavel (soviet)"
    turn: str = ""
    phase: str = ""
    acts: str = ""
    who: str | None = None
    exchange: int = 0
    since: float = 0.0                                         # mtime of the newest kept version
    waiting: str = ""                                          # "3h", "2d"
    result: str = ""
    summary: str = ""
    error: str = ""
    path: str = ""

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def game_ids() -> list[str]:
    from pbem import session

    root = session.home() / "games"
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if p.is_dir() and session.stored_versions(p.name))


def newest_path(game_id: str) -> Path:
    from pbem import session

    versions = session.stored_versions(game_id)
    if not versions:
        raise UsageError(f"no game {game_id} in {session.home() / 'games'}")
    return versions[-1]


def describe(game_id: str, me: Any, now: float | None = None) -> GameEntry:
    """One game as the player sees it; a game that no longer replays is
    listed with the reason rather than stopping the whole listing."""
    from pbem import conversation, session

    path = newest_path(game_id)
    since = path.stat().st_mtime
    entry = GameEntry(game_id=game_id, game="", title="", scenario="", seat=None, since=since,
                      waiting=age(since, now), path=str(path))
    try:
        m = session.open_game(path, me, cached=True).match
    except PbemError as exc:
        entry.acts, entry.error = UNREADABLE, " ".join(str(exc).split())
        return entry
    entry.game, entry.title, entry.scenario = str(m.header["game"]), m.game.title, str(m.header["scenario"])
    entry.seat = m.me
    names = conversation.player_names(m)
    entry.seats = names
    entry.opponents = [f"{names[s]} ({s})" for s in m.others(m.me)]
    entry.exchange = len(m.exchanges)
    entry.summary = m.who_acts()
    who = m.next_sender()
    entry.who = who
    deferred: Any = m.es.get("deferred")
    if m.joined() and m.over():
        entry.acts, entry.result = OVER, m.result()
    elif m.joined() and deferred and deferred.get("by") == m.me and who != m.me:
        entry.acts = THEIR_DICE
    else:
        entry.acts = YOU if who == m.me else THEM
    if m.joined():
        entry.turn = _turn(m)
        d = m.pending()
        entry.phase = d.kind if d is not None else ""
    else:
        entry.phase = "joining"
    return entry


def _turn(m: Any) -> str:
    """The game's own words for where it stands: its view's title, less
    the game's name when the title starts with it."""
    try:
        title = str(m.rules.view(m.state, m.me).title)
    except Exception:       # a view is for reading; the listing never fails on one
        return ""
    for prefix in (str(m.scenario_head.get("title", "")), m.game.title):
        if prefix and title.startswith(prefix):
            title = title[len(prefix):].lstrip(" -,:")
    parts = [p.strip() for p in title.split(" - ") if p.strip()]
    return parts[-1] if parts else title


_ORDER = {YOU: 0, UNREADABLE: 1, THEIR_DICE: 2, THEM: 2, OVER: 3}


def list_games(me: Any, now: float | None = None) -> list[GameEntry]:
    """Every game, those waiting for you first (longest waiting first),
    then the others, then the finished ones (most recent first).

    A game's line is kept in ``$PBEM_HOME/cache/games.json`` under the
    SHA-256 of its newest kept file (and the program's version and the
    reader's key): a game that has not moved is not opened again.  The
    line only describes; ``play`` verifies everything itself."""
    kept = _read_listing()
    fresh: dict[str, Any] = {}
    entries = []
    for g in game_ids():
        path = newest_path(g)
        key = _listing_key(path, me)
        old = kept.get(g)
        if isinstance(old, dict) and old.get("key") == key:
            try:
                entry = GameEntry(**old["entry"])
            except (TypeError, KeyError):
                entry = describe(g, me, now)
            entry.since = path.stat().st_mtime
            entry.waiting, entry.path = age(entry.since, now), str(path)
        else:
            entry = describe(g, me, now)
        if entry.acts != UNREADABLE:          # a missing scenario may be back tomorrow
            fresh[g] = {"key": key, "entry": entry.as_json()}
        entries.append(entry)
    if fresh != kept:
        _write_listing(fresh)
    return sorted(entries, key=lambda e: (_ORDER.get(e.acts, 2), -e.since if e.acts == OVER else e.since, e.game_id))


def _listing_path() -> Path:
    from pbem import cache

    return cache.folder() / "games.json"


def _listing_key(path: Path, me: Any) -> str:
    import hashlib
    from importlib.metadata import PackageNotFoundError, version

    try:
        v = version("pbem")
    except PackageNotFoundError:  # pragma: no cover
        v = "?"
    reader = getattr(getattr(me, "public", None), "sign_pub", "")
    return hashlib.sha256(path.read_bytes() + f"|{v}|{reader}|{Path(__file__).stat().st_mtime_ns}".encode()).hexdigest()


def _read_listing() -> dict[str, Any]:
    import json

    try:
        data = json.loads(_listing_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_listing(data: dict[str, Any]) -> None:
    import json

    from pbem.fsutil import atomic_write

    try:
        path = _listing_path()
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        atomic_write(path, json.dumps(data, sort_keys=True).encode("utf-8"), overwrite=True, mode=0o600)
    except (OSError, PbemError):
        pass                # a listing not kept is only slower next time


def age(since: float, now: float | None = None) -> str:
    seconds = max(0, int((now if now is not None else time.time()) - since))
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def resolve(name: str) -> str:
    """The game id ``name`` stands for: the id itself, or a part of it
    (as the file names carry it: ``avd-anna-pavel-3f2a``'s ``3f2a``) that
    only one game's id contains."""
    from pbem import session

    ids = game_ids()
    if name in ids:
        return name
    tail = name.rsplit("-", 1)[-1].lower()
    found = [g for g in ids if name.lower() in g.lower()] or (
        [g for g in ids if len(tail) >= 4 and tail in g.lower().rsplit("-", 1)[-1]])
    if len(found) == 1:
        return found[0]
    if not found:
        raise UsageError(f"no game {name!r} in {session.home() / 'games'} (`pbem games` lists them)")
    raise UsageError(f"{name!r} names {len(found)} games ({', '.join(found[:4])}): give more of the id")


def lines(entries: list[GameEntry]) -> list[str]:
    """The plain-text listing, one game a line."""
    out = []
    label = {YOU: "YOUR MOVE", THEM: "their move", THEIR_DICE: "their program rolls your dice",
             OVER: "finished", UNREADABLE: "UNREADABLE"}
    for e in entries:
        if e.acts == UNREADABLE:
            out.append(f"{e.game_id}  UNREADABLE: {e.error}")
            continue
        vs = ", ".join(e.opponents) or "-"
        where = ", ".join(x for x in (e.turn, e.phase) if x)
        head = f"{e.game_id}  {e.scenario}  you: {e.seat} v {vs}"
        if e.acts == OVER:
            out.append(f"{head}  finished: {e.result}  (exchange {e.exchange}, {e.waiting} ago)")
            continue
        who = "" if e.acts in (YOU, THEIR_DICE) or not e.who else f" ({e.seats.get(e.who, e.who)})"
        out.append(f"{head}  {where}  {label[e.acts]}{who}  exchange {e.exchange}, waiting {e.waiting}")
    return out
