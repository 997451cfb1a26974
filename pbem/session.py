"""A player's side of the table: home folder, key, game folders, and the
steps of each command as library calls (the CLI only parses and prints).

Layout of ``$PBEM_HOME`` (default ``~/.pbem``)::

    key.toml                 the private key file (mode 0600)
    me.id.toml               the public identity
    games/<game id>/NNN.toml every version of every game, by exchange count
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Callable

from pbem import cycle
from pbem.protocol import early, gamefile
from pbem.errors import InvalidFile, KeyFileError, UsageError
from pbem.protocol.gamefile import GameFile
from pbem.protocol.types import Exchange


def home() -> Path:
    return Path(os.environ.get("PBEM_HOME") or Path.home() / ".pbem").expanduser()


def key_path() -> Path:
    return home() / "key.toml"


def my_public_path() -> Path:
    return home() / "me.id.toml"


def load_me(passphrase: Callable[[], str | None] | None = None,
            check_later: Callable[[bytes, bytes, str, str], bool] | None = None) -> Any:
    """The player's private identity.  ``passphrase`` is asked only when the
    key file is protected (``$PBEM_PASSPHRASE`` answers first).
    ``check_later``: see :func:`pbem.protocol.keyfile.load_private`."""
    from pbem.protocol import identity

    path = key_path()
    if not path.exists():
        raise UsageError(f"no key at {path}: run `pbem keygen` first (or set PBEM_HOME)")
    secret = None
    if identity.is_encrypted(path):
        secret = os.environ.get("PBEM_PASSPHRASE")
        if secret is None and passphrase is not None:
            secret = passphrase()
        if secret is None:
            raise KeyFileError(f"key file {path} is passphrase-protected: set PBEM_PASSPHRASE")
    return identity.load_private(path, secret, check_later)


def resolve_identity(spec: str, me: Any | None) -> Any:
    """``me``, a contact's name (``pavel``: :mod:`pbem.contacts`) or a path
    to a public identity file (refused if it changes a contact's key)."""
    from pbem import contacts
    from pbem.protocol import identity

    if spec == "me":
        if me is None:
            raise UsageError("`me` needs your key: run `pbem keygen` first")
        return me.public
    kept = contacts.resolve(spec)
    if kept is not None:
        return kept
    if contacts.NAME.fullmatch(spec) and not Path(spec).exists():
        raise UsageError(f"no contact {spec!r} and no file of that name: `pbem contacts add FILE` keeps one")
    found = identity.load_public(spec)
    contacts.check(found, spec)
    return found


# ------------------------------------------------------------------ scenarios


def load_scenario(name: str) -> dict[str, Any]:
    from pbem import cache, prefetch, scenario

    return prefetch.take_scenario(name) or cache.load_scenario(scenario.find(name))


def scenario_for(gf: GameFile, override: str | None = None) -> dict[str, Any]:
    """The scenario a game pins, found by name (or ``override``), checked
    against the pinned SHA-256 by the replay."""
    return load_scenario(override or gf.header["scenario"])


def log_heading(m: cycle.Match) -> Any:
    """What the turn log needs to know about a match, as data."""
    from pbem.render.turnlog import LogHeading

    head = m.scenario_head or {}
    notice = str(head.get("notice", "")) if head.get("practice") else ""
    return LogHeading(title=m.game.title, game_id=m.game_id, scenario=str(m.header["scenario"]), timing=m.timing,
                      notice=notice, now=now_line(m), format_order=m.rules.format)


def now_line(m: cycle.Match) -> str:
    """The log's last line: who must do what now."""
    if m.joined() and m.over():
        return f"Game over: {m.result()}"
    who = m.next_sender()
    d = m.pending() if m.joined() else None
    if d is not None and who == d.seat and not m.es.get("deferred"):
        return f"Now: {who} must decide: {d.prompt}"
    deferred = m.es.get("deferred")
    if m.joined() and deferred:
        return f"Now: {who}'s program resolves {deferred['by']}'s dice"
    return f"Now: waiting for {who}"


def turn_log(m: cycle.Match, records: Any) -> str:
    """The plain-text turn log of ``records`` for this program's reader
    (control characters a sender put in his message taken out)."""
    from pbem.render.turnlog import turn_log as draw

    return clean_text(draw(log_heading(m), records))


# Characters no message may bring to a reader's terminal or mail client:
# C0 and C1 controls (but line breaks and tabs), DEL, and the Unicode
# direction controls that can make text read other than it is (the
# right-to-left override, embeddings, isolates, marks).
# (Compiled on first use, by re's cache: `pbem verify` prints no message.)
_UNSAFE = "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"


def clean_text(text: str) -> str:
    """``text`` with every control character but line breaks and tabs
    removed, and the Unicode line and paragraph separators made line
    breaks: safe to print or mail."""
    return re.sub(_UNSAFE, "", text.replace("\r\n", "\n").replace("\u2028", "\n").replace("\u2029", "\n"))


def recipients(m: cycle.Match, seat: str | None = None) -> list[str]:
    """Every seat's player but ``seat`` (default: this program's), as mail
    addresses with display names."""
    from pbem.mail import address

    out = []
    invited = m.header.get("invited", {})
    for seat in m.others(seat or m.me):
        player = m.seats.get(seat)
        name, email = (player.identity.name, player.identity.email) if player else (
            invited.get(seat, {}).get("name", ""), invited.get(seat, {}).get("email", ""))
        if email:
            out.append(address(name, email))
    return list(dict.fromkeys(out))


def load_game(path: Path, cached: bool = False) -> GameFile:
    """A game file, or the game file attached to a saved email.
    ``cached``: bytes this player's program parsed and verified before are
    taken as it parsed them then (:func:`pbem.cache.parsed`)."""
    data = gamefile.read_bytes(path)
    if gamefile.looks_bare(data):       # the usual case: no mail parser to import
        return _parse(data, str(path), cached)
    from pbem.mail import extract_game

    _, toml_bytes = extract_game(data, bare_name=path.name)
    return _parse(toml_bytes, str(path), cached)


_PARSED: dict[bytes, GameFile] = {}
_DIGESTS: dict[int, bytes] = {}      # id of a GameFile in _PARSED -> the SHA-256 of its bytes
_UNKEPT: dict[bytes, bytes] = {}     # digest -> the parse as just made, for the cache once verified


def _parse(data: bytes, name: str, cached: bool = False) -> GameFile:
    """Game-file bytes parsed once per command, however often they are
    read (a received file and the version kept of it are the same bytes;
    a 300-exchange file takes about 0.1 s to parse)."""
    import hashlib

    key = hashlib.sha256(data).digest()
    if key not in _PARSED:
        if not cached:      # verify: no cache imported, read or written (the parse may be the worker's: speed only)
            kept = early.parsed(data) or gamefile.parse(gamefile.decode(data, name), name)
        else:
            from pbem import cache

            found = cache.parsed(key)
            if found is None:
                kept = gamefile.parse(gamefile.decode(data, name), name)
                _UNKEPT[key] = cache.freeze_parsed(kept)   # frozen now: nothing a replay adds to it is kept
            else:
                kept = found
        _PARSED[key] = kept
        _DIGESTS[id(kept)] = key
    return _PARSED[key]


def _keep_parsed(gf: GameFile) -> None:
    """A file just verified for this player: its parse is kept for the next
    command on the same bytes (when it was parsed here, not taken from the
    cache)."""
    digest = _DIGESTS.get(id(gf))
    frozen = _UNKEPT.pop(digest, None) if digest is not None else None
    if digest is not None and frozen is not None:
        from pbem import cache

        cache.keep_parsed(digest, frozen)


# ---------------------------------------------------------------- game folder


def game_dir(game_id: str) -> Path:
    if not re.fullmatch(r"[A-Za-z0-9._-]{1,80}", game_id):
        raise InvalidFile(f"game id {game_id!r} is not a safe folder name")
    return home() / "games" / game_id


def stored_versions(game_id: str) -> list[Path]:
    d = game_dir(game_id)
    return sorted(d.glob("[0-9][0-9][0-9][0-9].toml")) if d.is_dir() else []


def latest_stored(game_id: str) -> GameFile | None:
    versions = stored_versions(game_id)
    if not versions:
        return None
    return _parse(versions[-1].read_bytes(), str(versions[-1]))


def keep_version(gf: GameFile) -> Path:
    """Store this version in the game's folder (never replacing one)."""
    path = game_dir(gf.game_id) / f"{len(gf.exchanges):04d}.toml"
    if path.exists():
        held = _parse(path.read_bytes(), str(path))
        if cycle.exchange_hash(held.last) != cycle.exchange_hash(gf.last):
            raise InvalidFile(f"{path} holds a different exchange {len(gf.exchanges)}: refusing to replace it")
        return path
    gamefile.atomic_write(path, gf.to_toml().encode("utf-8"))
    return path


def compare_with_local(received: GameFile) -> None:
    """Refuse an old file or a fork of the game this player holds."""
    local = latest_stored(received.game_id)
    if local is None:
        return
    common = min(len(local.exchanges), len(received.exchanges))
    for i in range(common):
        a, b = local.exchanges[i], received.exchanges[i]
        if a is b:      # the same bytes parsed once (_parse): a file played again is not hashed twice over
            continue
        ha, hb = cycle.exchange_hash(a), cycle.exchange_hash(b)
        if ha != hb:
            raise InvalidFile(
                f"fork: exchange {i + 1} of this file ({hb[:16]}) differs from the one you hold ({ha[:16]}); "
                "nothing written"
            )
    if len(received.exchanges) < len(local.exchanges):
        raise InvalidFile(
            f"old file: it holds exchange {len(received.exchanges)} while you hold {len(local.exchanges)}; nothing written"
        )


def newest(gf: GameFile) -> GameFile:
    """The received file, or the local copy when that is further on (a
    player re-running `play` on the file he already answered)."""
    local = latest_stored(gf.game_id)
    if local is not None and len(local.exchanges) > len(gf.exchanges):
        return local
    return gf


# ------------------------------------------------------------------ writing


def file_stem(gf: GameFile) -> str:
    """``avd-anna-pavel-3f2a``: the game, its players (creator first) and
    a short part of the game id, so that two games between the same
    players never share a file name; the same from the first file to the
    last."""
    h = gf.header
    people = [(gf.exchanges[0]["side"], gf.exchanges[0]["player"]["name"])]
    people += [(side, ident.get("name", side)) for side, ident in h.get("invited", {}).items()]
    names = [re.sub(r"[^a-z0-9]+", "", name.lower()) or side for side, name in people]
    tail = re.sub(r"[^a-z0-9]+", "", str(gf.game_id).rsplit("-", 1)[-1].lower())[:4]
    return "-".join([h["game"], *names, *([tail] if tail else [])])


def refresh_reading_copies(gf: GameFile, m: cycle.Match) -> GameFile:
    out = GameFile(gf.exchanges)
    out.state = gamefile.state_table(m.public_state(), m.state_hash(), m.summary())
    return out


def write_outputs(gf: GameFile, m: cycle.Match, log_text: str, out_dir: Path) -> tuple[Path, Path]:
    """Keep the version, then write ``<stem>-NNN.toml`` and its turn log in
    ``out_dir`` (never replacing a file)."""
    gf = refresh_reading_copies(gf, m)
    keep_version(gf)
    n = len(gf.exchanges)
    stem = f"{file_stem(gf)}-{n:03d}"
    game_path = out_dir / f"{stem}.toml"
    log_path = out_dir / f"{stem}.txt"
    gamefile.atomic_write(game_path, gf.to_toml().encode("utf-8"))
    gamefile.atomic_write(log_path, log_text.encode("utf-8"))
    return game_path, log_path


class Loaded:
    # A plain class, not a dataclass: its generated methods (never used)
    # were made at every start of a command (~0.3 ms each class).
    __slots__ = ("gf", "match", "scenario")

    def __init__(self, gf: GameFile, match: cycle.Match, scenario: dict[str, Any]) -> None:
        self.gf, self.match, self.scenario = gf, match, scenario


def open_game(path: Path, me: Any | None, *, scenario: str | None = None, audit: bool = False,
              progress: Callable[[int, int], None] | None = None, gf: GameFile | None = None,
              cached: bool = False, snapshots: bool = True) -> Loaded:
    """The game in ``path``, verified.  ``cached``: start from this player's
    kept match when one is a verified prefix (:mod:`pbem.cache`); a verify
    or an audit replays cold.  ``snapshots=False``: the caller reads no past
    state of the match (a cold verify), see :func:`pbem.cycle.replay`."""
    gf = gf if gf is not None else load_game(path, cached=cached and not audit)
    sc = scenario_for(gf, scenario)
    try:
        if cached and not audit:
            from pbem import cache

            m = cache.open_match(gf, sc, me, progress=progress)
        else:
            m = cycle.replay(gf, sc, me, audit=audit, progress=progress, snapshots=snapshots)
    except cycle.Verification as exc:
        # A game started by another pbem may fail only because a rule was
        # fixed since: the player is told which version finishes it.
        from pbem.protocol.program import with_hint

        told = with_hint(str(exc), gf)
        if told == str(exc):
            raise
        raise cycle.Verification(told) from exc
    if gf.state:
        _check_reading_copy(gf, m)
    if cached and not audit and m.me is not None:      # only a player's own games are kept in his home
        _keep_parsed(gf)
    return Loaded(gf, m, sc)


def _check_reading_copy(gf: GameFile, m: cycle.Match) -> None:
    # Every field of the reading copy is checked: a reader who trusts the
    # TOML text must see what the signatures say.
    unknown = sorted(set(gf.state) - {"hash", "summary", "public"})
    if unknown:
        raise InvalidFile(f"[state] has an unknown field {unknown[0]!r}: the reading copy was edited")
    state_hash = m.state_hash()     # (not the last exchange's: a reseat after it changes the state)
    if gf.state.get("hash") not in (None, state_hash):
        raise InvalidFile("[state] hash differs from the replayed state's: the reading copy was edited")
    if gf.state.get("summary") not in (None, m.summary()):
        raise InvalidFile("[state] summary differs from the replayed game's: the reading copy was edited")
    text = gf.state.get("public")
    if text is None:
        return
    # The copy's hash against the state hash compares their canonical bytes
    # (speed only: the worker that parsed the file may have worked it out).
    found = early.public_digest(text) or gamefile.public_digest(text)
    if found is None:
        raise InvalidFile("[state] public copy is not valid JSON")
    if found != state_hash:
        raise InvalidFile("[state] differs from the replayed state: the reading copy was edited")


def already_answered(received: GameFile, my_side: str | None) -> GameFile | None:
    """The local version that answers ``received`` when this player already
    played on it (a re-run, or a run killed after keeping its exchange but
    before writing the file to send): received is a prefix of it and every
    later exchange is ours."""
    local = latest_stored(received.game_id)
    if local is None or my_side is None or len(local.exchanges) <= len(received.exchanges):
        return None
    k = len(received.exchanges)
    if cycle.exchange_hash(local.exchanges[k - 1]) != cycle.exchange_hash(received.last):
        return None
    if all(ex["side"] == my_side for ex in local.exchanges[k:]):
        return local
    return None


class Written:
    # A plain class for the reason Loaded is.
    __slots__ = ("path", "log_path", "log", "match")

    def __init__(self, path: Path, log_path: Path, log: str, match: cycle.Match) -> None:
        self.path, self.log_path, self.log, self.match = path, log_path, log, match


def append_and_write(loaded: Loaded, ex: Exchange, me: Any, out_dir: Path) -> Written:
    """Add one signed exchange of ours to a loaded game, verify it as the
    opponent's program will (on the match already verified, which it
    advances: no second replay of the whole game), keep it and write the
    file to send with its turn log."""

    m = loaded.match
    if m.me is None and ex.get("kind") != "join":
        raise UsageError("your key is not a player of this game")
    gf = GameFile(loaded.gf.exchanges + [ex])
    cycle.advance(m, ex, me)
    log = turn_log(m, m.records[-1:])
    path, log_path = write_outputs(gf, m, log, out_dir)
    from pbem import cache

    cache.keep(m, loaded.scenario, me)      # `pbem mail` on that file replays nothing
    return Written(path, log_path, log, m)
