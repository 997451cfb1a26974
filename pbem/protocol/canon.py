"""Canonical form: the one byte string every signature and commitment covers.

A game file is TOML, but TOML text changes in transit (re-indentation, CRLF,
a mail client's re-encoding).  So nothing is ever signed or hashed over the
text; it is signed over the canonical bytes of the *values*, which any program
can rebuild (PROTOCOL.md, "Canonical form"):

* JSON with keys sorted, no whitespace (``,`` and ``:`` separators);
* UTF-8, non-ASCII characters written as themselves, not ``\\u`` escapes;
* every string, keys included, in Unicode NFC, so "é" typed as one code point
  or as "e" plus a combining accent hashes the same.

Only strings, integers, booleans, arrays and tables may appear, plus ``None``
(JSON null), which the game-state contract in :mod:`pbem.game` allows.  Floats
are refused outright: their text form differs between languages, so a float
would make two honest programs disagree about a hash.

This module uses only the standard library, so importing it stays cheap.
"""
from __future__ import annotations

import hashlib
import json
import unicodedata
from typing import Any

from pbem.errors import InvalidFile

__all__ = ["canonical", "sha256", "digest", "normalise", "RecordMemo", "canonical_spliced"]


def _where(path: tuple[str, ...]) -> str:
    return ".".join(path) if path else "(top level)"


def _refuse(what: str, path: tuple[str, ...]) -> InvalidFile:
    return InvalidFile(f"value not allowed in canonical form: {what} at path {_where(path)}")


def normalise(value: Any, path: tuple[str, ...] = ()) -> Any:
    """A copy of ``value`` with every string in NFC, tuples as lists, and every
    type checked.  Raises InvalidFile naming the first offending path."""
    # bool before int: bool is a subclass of int and both pass through as is.
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise _refuse(f"{type(key).__name__} key {key!r}", path)
            nkey = unicodedata.normalize("NFC", key)
            if nkey in out:
                # Two keys that differ only in Unicode composition would
                # collapse into one and silently lose a value.
                raise InvalidFile(
                    f"duplicate key {nkey!r} after Unicode normalisation at path {_where(path)}"
                )
            out[nkey] = normalise(item, path + (nkey,))
        return out
    if isinstance(value, (list, tuple)):
        return [normalise(item, path + (str(i),)) for i, item in enumerate(value)]
    raise _refuse(type(value).__name__, path)


_SCALARS = frozenset({str, int, bool, type(None)})
_ALLOWED = _SCALARS | {dict, list}
_KEYS = frozenset({str})


def _shaped(value: Any) -> bool:
    """True when ``value`` holds only exact JSON types with string keys, so
    it may be dumped as it is.  Lets a large game state skip the copying
    :func:`normalise` does; anything unusual takes the slow path, which also
    names what is wrong.  The types of a whole table or array are gathered
    at once (C speed); nested tables and arrays are checked in the loop over
    their parent, and visited in turn only when they nest further."""
    t = type(value)
    if t is dict:
        if not _KEYS.issuperset(map(type, value)):
            return False
        items = value.values()
    elif t is list:
        items = value
    else:
        return t in _SCALARS
    kinds = set(map(type, items))
    if not kinds <= _ALLOWED:
        return False
    if dict in kinds or list in kinds:
        for item in items:
            ti = type(item)
            if ti is dict:
                if not _KEYS.issuperset(map(type, item)):
                    return False
                sub = set(map(type, item.values()))
            elif ti is list:
                sub = set(map(type, item))
            else:
                continue
            if not sub <= _ALLOWED:
                return False
            if (dict in sub or list in sub) and not _shaped(item):
                return False
    return True


# json.dumps with these options builds this same encoder on every call;
# one kept encoder writes the same text (speed only).
_dumps = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode


def canonical(value: Any) -> bytes:
    """The canonical bytes of ``value`` (PROTOCOL.md).  Raises InvalidFile
    for a float, a date, bytes or any other type JSON cannot carry exactly."""
    if _shaped(value):
        text = _dumps(value)
        # Non-ASCII characters are written as themselves, so ASCII text
        # means every string and key is ASCII, which NFC leaves unchanged.
        if text.isascii():
            return text.encode("ascii")
    return _dumps(normalise(value)).encode("utf-8")


def sha256(data: bytes) -> bytes:
    """``H`` of PROTOCOL.md: the raw 32-byte SHA-256 of ``data``."""
    return hashlib.sha256(data).digest()


def digest(value: Any) -> str:
    """Lower-case hex SHA-256 of the canonical bytes of ``value``: how a state
    or an exchange is named in a game file."""
    return hashlib.sha256(canonical(value)).hexdigest()


# ------------------------------------------------------------ speed only

# Stands in for the spliced table while the rest is encoded: its canonical
# form is found exactly once in the result unless some other string holds
# it too, and then the whole value is encoded the usual way.
_HOLE = "\x00pbem:spliced\x00"
_HOLE_BYTES = b'"\\u0000pbem:spliced\\u0000"'
MEMO_LIMIT = 16384


class RecordMemo:
    """The canonical bytes of flat records (tables of scalars), kept across
    calls: a game state hashed after every exchange changes only a few of
    its many unit records, so most are not encoded again.  Each record name
    keeps the last record seen under it (a shallow copy, its keys in order
    and the exact types of its values) with its bytes, reused only while
    the record is equal to it in all three (``1 == True``, but their types
    differ).  A record that holds a table or an array is encoded every
    time."""

    __slots__ = ("_bytes",)

    def __init__(self) -> None:
        # name -> (copy, keys in order, value types in order, bytes)
        self._bytes: dict[str, tuple[dict[str, Any], tuple[Any, ...], tuple[type, ...], bytes]] = {}

    def table(self, table: dict[Any, Any]) -> bytes | None:
        """``canonical(table)`` for a table of records with ASCII string
        names, or None for any other table (the caller encodes it whole)."""
        if not _KEYS.issuperset(map(type, table)):
            return None
        known = self._bytes
        if len(known) > MEMO_LIMIT:
            known.clear()
        parts = []
        for name in sorted(table):
            record = table[name]
            if type(record) is not dict or not name.isascii():
                return None
            kept = known.get(name)
            types = tuple(map(type, record.values()))
            if kept is not None and kept[0] == record and kept[2] == types and kept[1] == tuple(record):
                parts.append(kept[3])
                continue
            if _SCALARS.issuperset(types):
                # canonical() of a flat record of exact JSON scalars with
                # text keys is its dump, when ASCII (as canonical decides).
                text = _dumps({name: record}) if _KEYS.issuperset(map(type, record)) else ""
                done = text.encode("ascii")[1:-1] if text and text.isascii() else canonical({name: record})[1:-1]
                known[name] = (dict(record), tuple(record), types, done)
            else:
                done = canonical({name: record})[1:-1]
            parts.append(done)
        return b"{" + b",".join(parts) + b"}"


def canonical_spliced(value: Any, path: tuple[str, ...], memo: RecordMemo) -> bytes:
    """``canonical(value)``, the same bytes, where the table at ``path`` (a
    table of flat records) is encoded record by record through ``memo``."""
    if type(value) is not dict or not path:
        return canonical(value)
    top = dict(value)
    here = top
    for key in path[:-1]:
        child = here.get(key)
        if type(child) is not dict:
            return canonical(value)
        here[key] = here = dict(child)
    table = here.get(path[-1])
    if type(table) is not dict:
        return canonical(value)
    here[path[-1]] = _HOLE
    try:
        rest = canonical(top)
        spliced = memo.table(table)
    except InvalidFile:
        spliced = None              # refused again, whole, naming the full path
    if spliced is None or rest.count(_HOLE_BYTES) != 1:
        return canonical(value)
    return rest.replace(_HOLE_BYTES, spliced)


def largest_table(value: Any, least: int = 16) -> str | None:
    """The key of ``value``'s largest table of tables (at least ``least``
    entries): where :func:`canonical_spliced` pays."""
    best, size = None, least - 1
    if type(value) is dict:
        for key, item in value.items():
            if type(item) is dict and len(item) > size and type(next(iter(item.values()))) is dict:
                best, size = key, len(item)
    return best
