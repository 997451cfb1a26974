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
import marshal
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
_marshal = marshal.dumps


def canonical(value: Any) -> bytes:
    """The canonical bytes of ``value`` (PROTOCOL.md).  Raises InvalidFile
    for a float, a date, bytes or any other type JSON cannot carry exactly."""
    if type(value) is str and value.isascii() and value.isprintable() and '"' not in value and "\\" not in value:
        # Speed only (hashes, base64, names: most of an exchange's fields):
        # JSON writes printable ASCII other than a quote or a backslash as
        # it is, and NFC leaves ASCII alone.
        return b'"' + value.encode("ascii") + b'"'
    return _canonical(value, _shaped(value))


def _canonical(value: Any, shaped: bool) -> bytes:
    """:func:`canonical`, told whether ``value`` is :func:`_shaped`."""
    if shaped:
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

# A table with at least this many entries is encoded entry by entry (its
# big parts, a game state's unit table, change a little at a time); a
# smaller one is one leaf of the memo.
DESCEND = 16
MEMO_LIMIT = 16384
# A string that once stood in for a spliced table (tests still hash a
# state holding it).
_HOLE = "\x00pbem:spliced\x00"


class RecordMemo:
    """The canonical bytes of a game state's parts, kept across calls: a
    state hashed after every exchange changes only a few of its many unit
    records, so most are not encoded again.  :meth:`canonical` walks down
    the tables of text keys (the top one, and any with ``DESCEND`` entries
    or more) and looks every other value (a leaf) up by its marshal bytes.
    Those bytes say the value's exact types (``1`` and ``True`` differ),
    key order and content, so equal bytes mean an equal value of the same
    types; only a leaf of exact JSON types is kept, and marshal writes no
    other type as any of these (it refuses str and int subclasses).  The
    bytes of a table are its sorted keys' and its values' canonical bytes
    joined, as the JSON encoder writes them."""

    __slots__ = ("_leaves", "_keys")

    def __init__(self) -> None:
        self._leaves: dict[bytes, bytes] = {}     # marshal bytes -> canonical bytes
        self._keys: dict[str, bytes] = {}         # ASCII key -> ',', its canonical bytes, ':'

    def canonical(self, value: Any) -> bytes:
        """``canonical(value)``, the same bytes or the same refusal."""
        if type(value) is dict:
            if len(self._leaves) > MEMO_LIMIT:
                self._leaves.clear()
            try:
                out = self._table(value)
            except (InvalidFile, ValueError):   # refused (again, whole, naming the full path) or not marshal's
                out = None
            if out is not None:
                return out
        return canonical(value)

    def _table(self, table: dict[Any, Any]) -> bytes | None:
        """The canonical bytes of a table, or None when a key is not ASCII
        text (NFC and its duplicate check are canonical's to do).  The
        work on each entry is done by C loops (map) where it can be: every
        leaf, those of a table that also holds big tables included, is
        marshalled and looked up in one pass."""
        if not _KEYS.issuperset(map(type, table)):
            return None
        names = sorted(table)
        keys = list(map(self._keys.get, names))
        if None in keys and not self._new_keys(names, keys):
            return None
        items = list(map(table.__getitem__, names))
        down = _big_tables(items)
        leaves = items
        if down:
            leaves = items.copy()
            for i in down:
                leaves[i] = None        # marshalled for nothing: walked below
        marks = list(map(_marshal, leaves))
        done: list[bytes | None] = list(map(self._leaves.get, marks))
        for i in down:
            done[i] = self._table(items[i])
            if done[i] is None:
                return None
        if None in done:
            for i, got in enumerate(done):
                if got is None:
                    done[i] = self._miss(items[i], marks[i])
        # Each key is kept with the comma before it: the first one's is cut.
        parts: list[Any] = [b""] * (2 * len(names))
        parts[0::2] = keys
        parts[1::2] = done
        parts[0] = b"{" + parts[0][1:]
        parts.append(b"}")
        return b"".join(parts)

    def _new_keys(self, names: list[str], keys: list[bytes | None]) -> bool:
        """Fill in the keys not seen before; False if one is not ASCII."""
        for i, name in enumerate(names):
            if keys[i] is None:
                if not name.isascii():
                    return False
                keys[i] = self._keys[name] = b"," + _dumps(name).encode("ascii") + b":"
        return True

    def _miss(self, item: Any, mark: bytes) -> bytes:
        shaped = _shaped(item)
        done = _canonical(item, shaped)
        if shaped:          # exact JSON types only (see the class)
            self._leaves[mark] = done
        return done


def _big_tables(items: list[Any]) -> list[int]:
    """Where ``items`` holds a table of ``DESCEND`` entries or more (the
    memo walks down into those).  A table of small records (a unit table)
    is seen to hold none by C loops alone."""
    kinds = set(map(type, items))
    if dict not in kinds:
        return []
    if len(kinds) == 1 and max(map(len, items)) < DESCEND:
        return []
    return [i for i, item in enumerate(items) if type(item) is dict and len(item) >= DESCEND]


def canonical_spliced(value: Any, path: tuple[str, ...], memo: RecordMemo) -> bytes:
    """``canonical(value)`` through ``memo`` (``path``, the table that
    changes a little at a time, is found by the memo itself)."""
    return memo.canonical(value)
