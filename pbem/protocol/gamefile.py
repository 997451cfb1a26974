"""The game file: one TOML file that is the whole game.

Layout (documented for other implementers in ``docs/FILE-FORMAT.md``)::

    [game]            a copy of the header of exchange 1, for reading
    [[exchange]]      the signed exchanges, oldest first
    [state]           the public state after the last exchange, for reading

Only the ``[[exchange]]`` tables are authoritative.  Each is signed over its
canonical form (``pbem.protocol.canon``) without its ``sig`` field, so the file
survives CRLF conversion, re-indentation and mail re-encoding.  ``[game]`` and
``[state]`` are checked against the replay on load: a reader who trusts the
TOML text sees what the signatures say.

This module knows no game: it reads, writes, signs and chains exchanges.
Replaying them is :mod:`pbem.cycle`'s job.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

from pbem.errors import InvalidFile
from pbem.fsutil import atomic_write as atomic_write  # re-exported: writers of game files use it
from pbem.fsutil import loads_toml, read_bounded
from pbem.protocol.canon import canonical, digest, sha256

FORMAT = "pbem/2"
# pbem/2 (pbem 0.2): seats on sides, secret seeds, sealed-part hashes,
# hidden-item roots.  pbem/1 files were written by pbem 0.1.
EARLIER_FORMATS = {"pbem/1": "0.1"}
SIG_TAG = b"pbem/exchange/v1\n"
ZERO_HASH = "0" * 64
MAX_FILE_BYTES = 20 * 1024 * 1024

from pbem.protocol.types import Exchange as Exchange  # noqa: E402  (the file format, typed)


_FLAT = frozenset({str, int, bool, float})


def drop_none(value: Any) -> Any:
    """TOML has no null: drop ``None`` members of tables before a value is
    signed or written.  ``None`` inside an array has no TOML form at all."""
    t = type(value)
    if (t is dict or t is list) and _FLAT.issuperset(map(type, value.values() if t is dict else value)):
        # Speed only (most orders): members of these types are neither
        # None nor dropped from within, so the answer is a plain copy.
        return t(value)
    if isinstance(value, dict):
        # (A member of those types is its own answer, taken without the
        # call: speed only, an order's list of hexes beside its words.)
        return {k: v if type(v) in _FLAT else drop_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        if any(v is None for v in value):
            raise InvalidFile("an array with an empty (null) member cannot be written to TOML")
        return [v if type(v) in _FLAT else drop_none(v) for v in value]
    return value


def unsigned(exchange: Exchange) -> Exchange:
    return cast(Exchange, {k: v for k, v in exchange.items() if k != "sig"})


def signing_bytes(exchange: Exchange) -> bytes:
    """What an exchange's Ed25519 signature covers (PROTOCOL.md)."""
    return SIG_TAG + canonical(unsigned(exchange))


def signing_and_hash(exchange: Exchange) -> tuple[bytes, str, dict[str, bytes]]:
    """``signing_bytes(exchange)`` and ``exchange_hash(exchange)`` from one
    encoding of its fields, and each field's canonical bytes (speed only:
    a replay needs both of every exchange, and its orders' bytes).  An
    exchange's canonical form is its fields' canonical forms joined in key
    order, when every key is ASCII text (NFC changes none); anything else,
    or a field canonical() refuses, takes the plain way (which refuses it
    naming the full path), with no field's bytes."""
    fields = cast(dict[Any, Any], exchange)
    if type(fields) is dict and all(type(k) is str and k.isascii() for k in fields):
        try:
            parts = {k: canonical(fields[k]) for k in sorted(fields)}
        except InvalidFile:
            parts = None
        if parts is not None:
            joined = [canonical(k) + b":" + v for k, v in parts.items()]
            whole = b"{" + b",".join(joined) + b"}"
            signed = b"{" + b",".join(j for k, j in zip(parts, joined) if k != "sig") + b"}"
            return SIG_TAG + signed, sha256(whole).hex(), parts
    return signing_bytes(exchange), exchange_hash(exchange), {}


def exchange_hash(exchange: Exchange) -> str:
    """``H(canonical(exchange with its signature))``: what the next exchange's
    ``prev`` names."""
    return digest(exchange)


class GameFile:
    """The parsed file.  ``exchanges`` are plain dicts as signed."""

    # A plain class, not a dataclass (speed only: its generated methods were
    # compiled at every start of a command); equal as a dataclass is, field
    # by field, and so unhashable.

    def __init__(self, exchanges: list[Exchange], state: dict[str, Any] | None = None) -> None:
        self.exchanges = exchanges
        self.state: dict[str, Any] = {} if state is None else state

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameFile) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.exchanges, self.state) == (other.exchanges, other.state)

    def __repr__(self) -> str:
        return f"GameFile(exchanges={self.exchanges!r}, state={self.state!r})"

    @property
    def header(self) -> dict[str, Any]:
        if not self.exchanges or "game" not in self.exchanges[0]:
            raise InvalidFile("exchange 1 carries no game header")
        return cast(dict[str, Any], self.exchanges[0]["game"])

    @property
    def game_id(self) -> str:
        return str(self.header.get("id", ""))

    @property
    def last(self) -> Exchange:
        return self.exchanges[-1]

    def to_toml(self) -> str:
        import tomli_w

        doc = {"game": self.header, "exchange": self.exchanges, "state": self.state}
        intro = (
            "# pbem game file: the whole game, signed.  Check it with `pbem verify FILE`;\n"
            "# play it with `pbem play FILE`.  Only the [[exchange]] tables count: [game]\n"
            "# and [state] are copies for reading and are checked on load.\n\n"
        )
        return intro + tomli_w.dumps(drop_none(doc))


def parse(text: str, name: str = "game file") -> GameFile:
    """Parse game-file text.  Every defect is one line naming ``name``;
    anything the format does not define (a top-level table, a header key, an
    exchange field for its kind, an order entry's key) is refused by name."""
    from pbem.protocol import fasttoml, schema

    # The fast reader takes the TOML this program writes; anything else is
    # tomllib's to parse or refuse.
    data = fasttoml.loads(text)
    if data is None:
        data = loads_toml(text, name)
    kind = data.get("kind")
    if isinstance(kind, str) and kind.startswith("pbem-"):
        raise InvalidFile(f"{name}: this is a {kind} file, not a game file")
    if "scenario" in data and "exchange" not in data:
        raise InvalidFile(f"{name}: this is a scenario file, not a game file; start a game with `pbem new`")
    exchanges = data.get("exchange")
    if not isinstance(exchanges, list) or not exchanges:
        raise InvalidFile(f"{name}: no [[exchange]] tables: not a pbem game file")
    extra = sorted(set(data) - {"game", "exchange", "state"})
    if extra:
        raise InvalidFile(f"{name}: unknown top-level entry {extra[0]!r} (a game file holds [game], "
                          "[[exchange]] and [state] only)")
    for i, ex in enumerate(exchanges, 1):
        if not isinstance(ex, dict):
            raise InvalidFile(f"{name}: exchange {i} is not a table")
        _check_fields(ex, i, name)
    state = data.get("state", {})
    if not isinstance(state, dict):
        raise InvalidFile(f"{name}: [state] is not a table")
    gf = GameFile(exchanges=exchanges, state=state)
    if exchanges[0].get("kind") != "new" or not isinstance(exchanges[0].get("game"), dict):
        raise InvalidFile(f"{name}: exchange 1 is not a 'new' exchange carrying the game header")
    header = gf.header
    if isinstance(header.get("format"), str) and header["format"] in EARLIER_FORMATS:
        made_by = EARLIER_FORMATS[header["format"]]
        raise InvalidFile(f"{name}: a {header['format']} file, written by pbem {made_by}; this pbem reads {FORMAT}: "
                          f"finish that game with pbem {made_by} (pip install 'pbem=={made_by}.*')")
    if header.get("format") != FORMAT:
        raise InvalidFile(f"{name}: unknown format {header.get('format')!r} (this program reads {FORMAT})")
    schema.check_header(header, name)
    for i, ex in enumerate(exchanges, 1):
        schema.check_exchange(ex, f"{name}: exchange {i} ({ex['kind']})")
    schema.check_state_copy(state, name)
    copy = data.get("game")
    if copy is not None and canonical(copy) != canonical(header):
        raise InvalidFile(f"{name}: the [game] table differs from the signed header of exchange 1")
    return gf


_REQUIRED: dict[str, type] = {"game_id": str, "n": int, "kind": str, "side": str, "prev": str, "state": str, "sig": str}


def _check_fields(ex: dict[str, Any], i: int, name: str) -> None:
    for key, typ in _REQUIRED.items():
        if key not in ex:
            raise InvalidFile(f"{name}: exchange {i} lacks its {key!r} field")
        if not isinstance(ex[key], typ) or isinstance(ex[key], bool):
            raise InvalidFile(f"{name}: exchange {i}: field {key!r} should be {typ.__name__}")
    if ex["n"] != i:
        raise InvalidFile(f"{name}: exchange {i} is numbered {ex['n']}: exchanges out of order")


def read_bytes(path: Path) -> bytes:
    """A file's bytes (a game file or a saved email), refusing what cannot
    be one (a folder, a FIFO, a device, more than 20 MB) before or while
    reading it, never by trusting its stated size."""
    return read_bounded(path, MAX_FILE_BYTES, "game file")


def looks_bare(data: bytes) -> bool:
    """True when ``data`` opens like a TOML file rather than a mail header."""
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    return head[:1] in (b"[", b"#") or not head


def decode(data: bytes, name: str) -> str:
    if b"\x00" in data:
        raise InvalidFile(f"{name}: binary data, not a game file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidFile(f"{name}: not UTF-8 text, not a game file") from None
    return text


def load(path: Path) -> GameFile:
    """Read a bare game file (``pbem.session.load_game`` also opens emails)."""
    return parse(decode(read_bytes(path), str(path)), str(path))


def public_digest(text: Any) -> str | None:
    """The state hash (the SHA-256 of the canonical bytes) of the state a
    ``[state]`` public copy (JSON text, see :func:`state_table`) holds; None
    if it is not JSON."""
    try:
        written = json.loads(text)
    except (TypeError, ValueError):
        return None
    return digest(written)


def state_table(public_state: dict[str, Any], state_hash: str, summary: str) -> dict[str, Any]:
    """The ``[state]`` table: hash, a one-line summary, and the public state
    as indented JSON (JSON because a game state may hold nulls, which TOML
    cannot)."""
    return {
        "hash": state_hash,
        "summary": summary,
        "public": json.dumps(public_state, sort_keys=True, indent=1, ensure_ascii=False),
    }
