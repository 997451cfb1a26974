"""A fast reader for the TOML that ``tomli_w`` writes, the shape of every
game file this program produces.

The pure-Python ``tomllib`` spends ~0.08 s on a 300-exchange game file,
most of it walking long strings one character at a time.  This reader
takes whole tokens by regular expression (C speed) and accepts only a
strict subset of TOML: ``[table]`` and ``[[array]]`` headers of bare or
simply quoted keys, ``key = value`` lines, basic strings with the short
escapes, decimal integers, booleans, arrays (over several lines too) and
inline tables.  On anything else, including whatever TOML would refuse, it
gives up (returns None) and the caller parses with ``tomllib``, whose
verdict and error message stand.  So it never accepts a text ``tomllib``
refuses, and where it accepts one it yields the same values.
"""
from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["loads"]

# Headers nest at most this many keys, values at most this many levels:
# well under fsutil.MAX_DEPTH, so no depth check of the result is needed.
MAX_PATH = 8
MAX_NEST = 8

# Every repetition is possessive (Python 3.11): text that does not match
# fails at once instead of after trying every way of splitting it.
_SKIP = re.compile(r"(?:[ \t]*+(?:#[^\x00-\x08\x0a-\x1f\x7f]*+)?\n)*+[ \t]*+")
_SPACE = re.compile(r"[ \t]*")
_ARRAY_SPACE = re.compile(r"(?:[ \t\n]++|#[^\x00-\x08\x0a-\x1f\x7f]*+\n)*+")
_EOL = re.compile(r"[ \t]*+(?:#[^\x00-\x08\x0a-\x1f\x7f]*+)?(?:\n|\Z)")
_BARE = re.compile(r"[A-Za-z0-9_-]+")
_STR = re.compile(r'"((?:[^"\\\x00-\x08\x0a-\x1f\x7f]++|\\["\\btnfr])*+)"')
_INT = re.compile(r"-?(?:0|[1-9][0-9]*)(?![0-9A-Za-z_.:+-])")
_BOOL = re.compile(r"(true|false)(?![0-9A-Za-z_-])")
_EQ = re.compile(r"[ \t]*=[ \t]*")
# Most lines are one of four shapes, each read in one match after any
# blank lines: a bare key and a plain string, integer or boolean (groups
# 1-4, as in _STR, _INT and _BOOL); a [table] or [[array]] header of bare
# keys (5, 6); a bare key and an array of plain strings, over several lines
# or one (7, 8: the strings are then found with _PLAIN, there being nothing
# else between the brackets but blanks and commas).
_PLAIN_BODY = r'"[^"\\\x00-\x08\x0a-\x1f\x7f]*+"'
_BARE_PATH = r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*+"
_LINE = re.compile(
    r"(?:[ \t]*+\n)*+(?:"
    r'[ \t]*+([A-Za-z0-9_-]+)[ \t]*+=[ \t]*+(?:"([^"\\\x00-\x08\x0a-\x1f\x7f]*+)"'
    r"|(-?(?:0|[1-9][0-9]*+))|(true|false))"
    rf"|\[({_BARE_PATH})\]"
    rf"|\[\[({_BARE_PATH})\]\]"
    r"|([A-Za-z0-9_-]+)[ \t]*+=[ \t]*+\["
    rf"((?:[ \t\n]*+{_PLAIN_BODY}[ \t\n]*+,)*+[ \t\n]*+(?:{_PLAIN_BODY}[ \t\n]*+)?)\]"
    r")[ \t]*+(?:\n|\Z)")
_PLAIN = re.compile(r'"([^"]*)"')


class _GiveUp(Exception):
    """Not in the subset: ``tomllib`` decides."""


def loads(text: str) -> dict[str, Any] | None:
    """The document ``text`` holds, or None where it is outside the subset
    (then parse it with ``tomllib``)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\r" in text:
            return None
    try:
        return _Reader(text).document()
    except (_GiveUp, RecursionError, ValueError):
        return None


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.root: dict[str, Any] = {}
        # Tables a header may extend or pass through, and arrays a [[header]]
        # may append to: anything else (a value, an inline table) is sealed.
        self.open_tables: set[int] = {id(self.root)}
        self.table_arrays: set[int] = set()

    def document(self) -> dict[str, Any]:
        text, end = self.text, len(self.text)
        table = self.root
        line = _LINE.match
        pos = 0
        while True:
            # The usual line, in this loop's locals (a third of the time
            # of a method call per line).
            m = line(text, pos)
            if m is not None:
                pos = m.end()
                key, string, number, flag, header, array_header, array_key, strings = m.groups()
                if key is None:     # a header or an array of strings, told apart here (speed only)
                    if header is not None:
                        table = self._table_header(header.split("."))
                    elif array_header is not None:
                        table = self._array_header(array_header.split("."))
                    else:
                        table = self._strings(table, array_key, strings)
                elif key in table:
                    raise _GiveUp
                else:
                    table[key] = string if string is not None else int(number) if number is not None else flag == "true"
                continue
            self.pos = _SKIP.match(text, pos).end()  # type: ignore[union-attr]
            if self.pos >= end:
                return self.root
            if text.startswith("[[", self.pos):
                self.pos += 2
                table = self._array_header(self._path("]]"))
            elif text[self.pos] == "[":
                self.pos += 1
                table = self._table_header(self._path("]"))
            else:
                key = self._key()
                m = _EQ.match(text, self.pos)
                if m is None or key in table:
                    raise _GiveUp
                self.pos = m.end()
                table[key] = self._value(0)
            m = _EOL.match(text, self.pos)
            if m is None:
                raise _GiveUp
            pos = m.end()

    @staticmethod
    def _strings(table: dict[str, Any], key: str | None, strings: str | None) -> dict[str, Any]:
        """``table`` with the array of plain strings matched by _LINE."""
        if key is None or strings is None or key in table:
            raise _GiveUp
        table[key] = _PLAIN.findall(strings)
        return table

    # ------------------------------------------------------------ headers
    def _path(self, close: str) -> list[str]:
        keys = [self._key()]
        while self.text.startswith(".", self.pos):
            self.pos += 1
            keys.append(self._key())
        if not self.text.startswith(close, self.pos):
            raise _GiveUp
        self.pos += len(close)
        return keys

    def _walk(self, keys: list[str]) -> dict[str, Any]:
        """The table the header ``keys`` names the parent of (``keys[:-1]``),
        made where missing; a header of more than MAX_PATH keys gives up."""
        if len(keys) > MAX_PATH:
            raise _GiveUp
        table = self.root
        for key in keys[:-1]:
            item = table.get(key)
            if item is None:
                item = table[key] = {}
                self.open_tables.add(id(item))
            elif id(item) in self.table_arrays:
                item = item[-1]
            elif id(item) not in self.open_tables:
                raise _GiveUp
            table = item
        return table

    def _table_header(self, keys: list[str]) -> dict[str, Any]:
        parent = self._walk(keys)
        if keys[-1] in parent:      # defined before, perhaps only implicitly: tomllib judges
            raise _GiveUp
        table: dict[str, Any] = {}
        parent[keys[-1]] = table
        self.open_tables.add(id(table))
        return table

    def _array_header(self, keys: list[str]) -> dict[str, Any]:
        parent = self._walk(keys)
        array = parent.get(keys[-1])
        if array is None:
            array = parent[keys[-1]] = []
            self.table_arrays.add(id(array))
        elif id(array) not in self.table_arrays:
            raise _GiveUp
        table: dict[str, Any] = {}
        array.append(table)
        self.open_tables.add(id(table))
        return table

    # ------------------------------------------------------------- values
    def _key(self) -> str:
        text, pos = self.text, self.pos
        m = _BARE.match(text, pos)
        if m is not None:
            self.pos = m.end()
            return m.group()
        if text.startswith('"', pos):
            return self._string()
        raise _GiveUp

    def _string(self) -> str:
        m = _STR.match(self.text, self.pos)
        if m is None:
            raise _GiveUp
        self.pos = m.end()
        body = m.group(1)
        if "\\" not in body:
            return body
        # The escapes let through are JSON's too, with the same meaning.
        return json.loads(m.group(), strict=False)  # type: ignore[no-any-return]

    def _value(self, depth: int) -> Any:
        text, pos = self.text, self.pos
        if pos >= len(text):
            raise _GiveUp
        c = text[pos]
        if c == '"':
            if text.startswith('"""', pos):
                raise _GiveUp
            return self._string()
        if c == "[":
            return self._array(depth + 1)
        if c == "{":
            return self._inline_table(depth + 1)
        m = _INT.match(text, pos)
        if m is not None:
            self.pos = m.end()
            return int(m.group())
        m = _BOOL.match(text, pos)
        if m is not None:
            self.pos = m.end()
            return m.group() == "true"
        raise _GiveUp

    def _array(self, depth: int) -> list[Any]:
        if depth > MAX_NEST:
            raise _GiveUp
        text = self.text
        self.pos += 1
        out: list[Any] = []
        while True:
            self.pos = _ARRAY_SPACE.match(text, self.pos).end()  # type: ignore[union-attr]
            if text.startswith("]", self.pos):
                self.pos += 1
                return out
            out.append(self._value(depth))
            self.pos = _ARRAY_SPACE.match(text, self.pos).end()  # type: ignore[union-attr]
            if text.startswith(",", self.pos):
                self.pos += 1
            elif not text.startswith("]", self.pos):
                raise _GiveUp

    def _inline_table(self, depth: int) -> dict[str, Any]:
        if depth > MAX_NEST:
            raise _GiveUp
        text = self.text
        self.pos = _SPACE.match(text, self.pos + 1).end()  # type: ignore[union-attr]
        out: dict[str, Any] = {}
        if text.startswith("}", self.pos):
            self.pos += 1
            return out
        while True:
            key = self._key()
            m = _EQ.match(text, self.pos)
            if m is None or key in out:
                raise _GiveUp
            self.pos = m.end()
            out[key] = self._value(depth)
            self.pos = _SPACE.match(text, self.pos).end()  # type: ignore[union-attr]
            if text.startswith(",", self.pos):
                self.pos = _SPACE.match(text, self.pos + 1).end()  # type: ignore[union-attr]
            elif text.startswith("}", self.pos):
                self.pos += 1
                return out
            else:
                raise _GiveUp
