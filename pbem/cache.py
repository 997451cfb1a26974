"""Verified matches kept between commands, so that ``play``, ``mail``,
``sitrep``, ``log`` and ``dice`` replay only the exchanges they have not
verified yet (``pbem verify`` and ``pbem audit`` never use this: they always
replay the whole file cold).

Layout, under ``$PBEM_HOME/cache`` (folder mode 0700, files 0600)::

    mac.key                     32 random bytes: this home's MAC key
    <game id>/<tag>-NNNNN.bin   the match after exchange NNNNN, for one reader
    parsed/<sha256>.bin         a game file as parsed when it was verified (:func:`parsed`)
    scenarios/<sha256>.bin      a scenario file as parsed, for every command (:func:`load_scenario`)

An entry is trusted only when all of this holds, else it is ignored (and the
game replayed in full, as if there were no cache):

* its HMAC-SHA256, under this home's ``mac.key``, checks over the *context*
  (pbem version, Python version, a stamp of the code that replays - the pbem
  package and the game's module -, the game id, the scenario's SHA-256, the
  reader's public keys) and the whole entry; the MAC is checked before
  anything in the entry is decoded, so a corrupted file, a file from another
  home or one made for another reader, scenario or program is never
  unpickled;
* the file being opened holds, as its exchange NNNNN, the exchange whose
  hash the entry names, and each of its exchanges up to that one names its
  predecessor's hash (so the whole prefix is the one that was verified);
* for a player, the match (which holds that player's secrets: hidden state,
  dice seeds) is also encrypted (ChaCha20-Poly1305) under a key derived
  from the player's private key, so the cache is no easier to read than the
  key file itself.

The remaining exchanges are then verified one by one with
:func:`pbem.cycle.advance`, exactly as a full replay does.  Should that
refuse an exchange, the whole file is replayed cold and its verdict is the
one reported.  The match is kept again when it moved more than one exchange
past its entry (see :func:`open_match`).
"""
from __future__ import annotations

import hashlib
import hmac
import marshal
import os
import re
import sys
from contextlib import suppress
from pathlib import Path
from typing import Any, Callable

from pbem import cycle
from pbem.cycle.match import Match
from pbem.errors import PbemError
from pbem.protocol.canon import canonical
from pbem.protocol.gamefile import GameFile, exchange_hash

MAGIC = b"pbem-cache/1\n"
KEEP = 3                      # entries kept per game and reader (newest)
PARSED_MAGIC = b"pbem-parsed/1\n"
PARSED_KEEP = 8               # parsed game files kept, newest first (parsed/<sha256 of the bytes>.bin)
SCENARIO_MAGIC = b"pbem-scenario/1\n"
SCENARIO_KEEP = 8             # parsed scenario files kept, newest first (scenarios/<sha256 of the bytes>.bin)
_NOT_KEPT = ("game", "rules", "records_memo")  # rebuilt from the header and the scenario


def folder() -> Path:
    from pbem.session import home

    return home() / "cache"


# ------------------------------------------------------------------ opening


def open_match(gf: GameFile, scenario: dict[str, Any], me: Any = None, *,
               progress: Callable[[int, int], None] | None = None) -> Match:
    """The verified match of ``gf`` for the reader ``me`` (a private
    Identity, or None for a bystander): a kept match that is a verified
    prefix of ``gf``, advanced over the exchanges it lacks, or else a full
    replay.  The result is kept for the next command."""
    n = len(gf.exchanges)
    warm = _load(gf, scenario, me)
    if warm is not None:
        m, have = warm
        try:
            for ex in gf.exchanges[have:]:
                cycle.advance(m, ex, me)
        except PbemError:
            # The cold replay's verdict is the one reported, word for word.
            m = cycle.replay(gf, scenario, me, progress=progress)
            have = 0
        # An entry one exchange behind serves the next command as well (it
        # advances that one exchange, ~1/150 of a replay) while a new entry
        # costs ~25 ms (the whole match pickled and compressed): the usual
        # `pbem play` on the opponent's answer keeps none, and its own
        # exchange, once signed, is kept by session.append_and_write.
        if n > have + 1:
            keep(m, scenario, me)
        return m
    m = cycle.replay(gf, scenario, me, progress=progress)
    keep(m, scenario, me)
    return m


def _load(gf: GameFile, scenario: dict[str, Any], me: Any) -> tuple[Match, int] | None:
    """A kept match for a prefix of ``gf`` and the number of exchanges it
    holds, or None.  Never raises: whatever is wrong with the cache means
    there is none."""
    try:
        header = gf.header
        d = _game_folder(header)
        if d is None or not d.is_dir():
            return None
        shell = Match(header, scenario)
        context = _context(shell, scenario, me)
        tag = _tag(context)
        found = []
        for path in d.iterdir():
            got = re.fullmatch(re.escape(tag) + r"-(\d{5})\.bin", path.name)
            if got and 1 <= int(got.group(1)) <= len(gf.exchanges):
                found.append((int(got.group(1)), path))
        key = _mac_key(create=False)
        if key is None or not found:
            return None
        hashes = _linked(gf.exchanges, max(k for k, _ in found))
        for k, path in sorted(found, reverse=True):
            if k > len(hashes):
                continue    # the file's chain breaks before exchange k: only a cold replay may judge it
            m = _read(path, key, context, shell, me, hashes[k - 1], k)
            if m is not None:
                return m, k
    except Exception:       # a cache is never worth a failure
        return None
    return None


def _linked(exchanges: list[Any], upto: int) -> list[str]:
    """The hashes of the first ``upto`` exchanges, as far as each names its
    predecessor's hash: where exchange k is the one an entry verified, so
    is every exchange before it (an exchange altered after signing, even
    one an entry's last exchange does not name, ends the list)."""
    hashes: list[str] = []
    for ex in exchanges[:upto]:
        if hashes and ex.get("prev") != hashes[-1]:
            break
        hashes.append(exchange_hash(ex))
    return hashes


def _read(path: Path, key: bytes, context: bytes, shell: Match, me: Any, last_hash: str, k: int) -> Match | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if not data.startswith(MAGIC) or len(data) < len(MAGIC) + 32 + 64:
        return None
    mac, body = data[len(MAGIC):len(MAGIC) + 32], data[len(MAGIC) + 32:]
    if not hmac.compare_digest(mac, hmac.new(key, context + body, hashlib.sha256).digest()):
        return None
    # Authenticated: written by this home for this reader and this program.
    if body[:64] != last_hash.encode("ascii"):
        return None
    payload = body[64:]
    if me is not None:
        payload = _aead(me).decrypt(payload[:12], payload[12:], context + body[:64])
    import pickle       # here: these imports are spared to commands that keep nothing (verify)
    import zlib
    fields = pickle.loads(zlib.decompress(payload))
    if not isinstance(fields, dict) or len(fields.get("exchanges", ())) != k:
        return None
    shell.__dict__.update(fields)
    return shell


# ------------------------------------------------------------------ keeping


def keep(m: Match, scenario: dict[str, Any], me: Any = None) -> None:
    """Keep ``m`` (a match verified by this program, for the reader ``me``)
    for the next command.  Best effort: a cache that cannot be written is
    simply not there next time."""
    try:
        d = _game_folder(m.header)
        if d is None or not m.exchanges or m.me is None:
            return      # only a player's own games are kept in his home
        context = _context(m, scenario, me)
        key = _mac_key(create=True)
        assert key is not None      # create=True: made when missing
        fields = {k: v for k, v in m.__dict__.items() if k not in _NOT_KEPT}
        last = exchange_hash(m.exchanges[-1]).encode("ascii")
        import pickle
        import zlib
        payload = zlib.compress(pickle.dumps(fields, protocol=pickle.HIGHEST_PROTOCOL), 1)
        if me is not None:
            nonce = os.urandom(12)
            payload = nonce + _aead(me).encrypt(nonce, payload, context + last)
        body = last + payload
        mac = hmac.new(key, context + body, hashlib.sha256).digest()
        from pbem.fsutil import atomic_write

        _private_dir(d)
        tag = _tag(context)
        atomic_write(d / f"{tag}-{len(m.exchanges):05d}.bin", MAGIC + mac + body, overwrite=True, mode=0o600)
        mine = sorted(p for p in d.iterdir() if p.name.startswith(tag + "-") and p.name.endswith(".bin"))
        for old in mine[:-KEEP]:
            old.unlink(missing_ok=True)
    except Exception:
        return


# ------------------------------------------------------------------ parsed files


def freeze_parsed(gf: GameFile) -> bytes:
    """A parsed game file as :func:`keep_parsed` keeps it."""
    import pickle
    return pickle.dumps((gf.exchanges, gf.state), protocol=pickle.HIGHEST_PROTOCOL)


def parsed(digest: bytes) -> GameFile | None:
    """The game file whose bytes have the SHA-256 ``digest`` as this
    program parsed it when a command verified it for this home's player
    (``parsed/<digest>.bin``: its MAC covers the digest, pbem and Python
    versions and the code stamp, checked before anything is decoded), or
    None.  The same bytes and the same parser give the same values, so it
    stands for parsing them again.  Never raises."""
    try:
        body = _read_entry(folder() / "parsed" / f"{digest.hex()}.bin", PARSED_MAGIC, lambda: _parsed_context(digest))
        if body is None:
            return None
        import pickle
        exchanges, state = pickle.loads(body)
        if not isinstance(exchanges, list) or not isinstance(state, dict):
            return None
        return GameFile(exchanges, state)
    except Exception:       # a cache is never worth a failure
        return None


def keep_parsed(digest: bytes, frozen: bytes) -> None:
    """Keep ``frozen`` (:func:`freeze_parsed` of the bytes with SHA-256
    ``digest``, just verified) for the next command on the same bytes; the
    newest :data:`PARSED_KEEP` are kept.  Best effort."""
    try:
        _write_entry(folder() / "parsed", digest, PARSED_MAGIC, _parsed_context(digest), frozen, PARSED_KEEP)
    except Exception:
        return


def _parsed_context(digest: bytes) -> bytes:
    import pbem

    return canonical({"format": PARSED_MAGIC.decode().strip(), "pbem": pbem.__version__, "python": sys.version,
                      "code": code_stamp(__name__), "file_sha256": digest.hex()})


# ------------------------------------------------------------------ parsed scenarios


def load_scenario(path: Path) -> dict[str, Any]:
    """``scenario.load_toml(path)`` with the fast reader, kept by every command
    (speed only) in a home that exists, like Python's bytecode cache (the same
    bytes and reader give the same values; the replay checks their SHA-256):
    an entry whose MAC (over digest, versions, :func:`_reader_stamp`, entry)
    fails is ignored and the file parsed again."""
    from pbem import scenario
    from pbem.protocol import fasttoml

    where = f"scenario {path.name}"
    raw = scenario.read_limited(path, where)
    digest = hashlib.sha256(raw).digest()
    with suppress(Exception):       # a cache is never worth a failure
        body = _read_entry(folder() / "scenarios" / f"{digest.hex()}.bin", SCENARIO_MAGIC,
                           lambda: _scenario_context(digest))
        values = marshal.loads(body) if body is not None else None
        if isinstance(values, dict):
            return values
    values = scenario.parse_toml(raw, where, fast=fasttoml.loads)
    with suppress(Exception):
        if folder().parent.is_dir():        # no home is made for this
            _write_entry(folder() / "scenarios", digest, SCENARIO_MAGIC, _scenario_context(digest),
                         marshal.dumps(values), SCENARIO_KEEP)
    return values


def _scenario_context(digest: bytes) -> bytes:
    import pbem

    return canonical({"format": SCENARIO_MAGIC.decode().strip(), "pbem": pbem.__version__, "python": sys.version,
                      "marshal": marshal.version, "code": _reader_stamp(), "file_sha256": digest.hex()})


def _reader_stamp() -> str:
    """Name, size and mtime of the files whose code makes a scenario's
    values (tomllib's is Python's): :func:`code_stamp` for a fraction of it."""
    stats = [(m, os.stat(str(sys.modules[m].__file__))) for m in ("pbem.scenario", "pbem.protocol.fasttoml", __name__)]
    return ";".join(f"{name}:{st.st_size}:{st.st_mtime_ns}" for name, st in stats)


# ------------------------------------------------------------------ helpers


def _read_entry(path: Path, magic: bytes, context: Callable[[], bytes]) -> bytes | None:
    """The entry's body if its MAC (this home's key) checks over
    ``context()`` and the body, else None; OSError if it cannot be read."""
    key = _mac_key(create=False)
    if key is None:
        return None
    data = path.read_bytes()
    head = len(magic) + 32
    if not data.startswith(magic) or len(data) < head:
        return None
    mac, body = data[len(magic):head], data[head:]
    if not hmac.compare_digest(mac, hmac.new(key, context() + body, hashlib.sha256).digest()):
        return None
    return body


def _write_entry(d: Path, digest: bytes, magic: bytes, context: bytes, body: bytes, keep: int) -> None:
    """``body`` as ``d/<digest>.bin`` under its MAC; the newest ``keep`` kept."""
    key = _mac_key(create=True)
    assert key is not None      # create=True: made when missing
    _private_dir(d)
    mac = hmac.new(key, context + body, hashlib.sha256).digest()
    from pbem.fsutil import atomic_write

    atomic_write(d / f"{digest.hex()}.bin", magic + mac + body, overwrite=True, mode=0o600)
    kept = sorted(d.glob("*.bin"), key=lambda p: p.stat().st_mtime_ns)
    for old in kept[:-keep]:
        old.unlink(missing_ok=True)


def _game_folder(header: dict[str, Any]) -> Path | None:
    game_id = str(header.get("id", ""))
    if not re.fullmatch(r"[A-Za-z0-9._-]{1,80}", game_id) or game_id in (".", ".."):
        return None
    return folder() / game_id


def _private_dir(d: Path) -> None:
    for p in (d.parent, d):
        p.mkdir(mode=0o700, parents=True, exist_ok=True)


def _mac_key(create: bool) -> bytes | None:
    """This home's random MAC key (made on first use, mode 0600)."""
    path = folder() / "mac.key"
    try:
        key = path.read_bytes()
        if len(key) == 32:
            return key
    except OSError:
        pass
    if not create:
        return None
    _private_dir(folder())
    key = os.urandom(32)
    from pbem.fsutil import atomic_write

    atomic_write(path, key, overwrite=True, mode=0o600)
    return key


def _aead(me: Any) -> Any:
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    return ChaCha20Poly1305(hmac.new(me.seal_key, b"pbem/cache/v1", hashlib.sha256).digest())


def _tag(context: bytes) -> str:
    return hashlib.sha256(context).hexdigest()[:24]


def _context(m: Match, scenario: dict[str, Any], me: Any) -> bytes:
    """Everything a kept match depends on besides the exchanges."""
    import pbem
    from pbem.scenario import scenario_sha256

    reader = None
    if me is not None:
        pub = me.public
        reader = [pub.sign_pub, pub.seal_pub]
    return canonical({
        "format": MAGIC.decode().strip(), "pbem": pbem.__version__, "python": sys.version,
        "code": code_stamp(type(m.rules).__module__), "game": str(m.header.get("id")),
        "scenario_sha256": scenario_sha256(scenario), "reader": reader,
        "game_modules": os.environ.get("PBEM_GAME_MODULES", ""),
    })


_STAMPS: dict[tuple[Path, ...], str] = {}     # the folders stamped -> their stamp, made once per command


def code_stamp(module: str) -> str:
    """A digest of the name, size and modification time of every Python
    file of pbem and of the package holding ``module`` (a game from outside
    pbem): an edited rule never meets a match replayed by the old one.
    Made once per command for the same folders (the code it stamps is the
    code running)."""
    roots = {Path(__file__).resolve().parent}
    mod = sys.modules.get(module)
    where = getattr(mod, "__file__", None)
    if where:
        parent = Path(where).resolve().parent
        if not any(r in parent.parents or r == parent for r in roots):
            roots.add(parent)
    key = tuple(sorted(roots))
    if key not in _STAMPS:
        _STAMPS[key] = _stamp(key)
    return _STAMPS[key]


def _stamp(roots: tuple[Path, ...]) -> str:
    h = hashlib.sha256()
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(n for n in dirnames if n != "__pycache__")
            for name in sorted(filenames):
                if name.endswith(".py"):
                    st = os.stat(os.path.join(dirpath, name))
                    h.update(f"{dirpath}/{name}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    return h.hexdigest()
