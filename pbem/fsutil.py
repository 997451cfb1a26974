"""Files in and out.

Reading untrusted input (a game file, an email, a key or identity file, an
orders file): :func:`read_bounded` refuses anything but a regular file
without blocking (a FIFO, a device, a socket) and never reads more than the
limit plus one byte, whatever ``stat`` says; :func:`loads_toml` parses TOML
with its nesting bounded.

Writing: a crash never leaves half of a file: write a temporary file in the
same folder, fsync it, then link or rename it into place, and fsync the
folder."""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any, Iterable

from pbem.errors import InvalidFile, PbemError, UsageError

MAX_DEPTH = 48
"""How deeply tables and arrays may nest in any TOML input: a real game
file nests about ten levels; thousands would exhaust Python's stack."""

_TYPES = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _not_regular(path: Path, mode: int, what: str) -> str:
    if stat.S_ISDIR(mode):
        return f"{path}: is a folder, not a file"
    kind = next((name for test, name in _TYPES if test(mode)), "a special file")
    return f"{path}: is {kind}, not a regular file: not read as a {what}"


def read_bounded(path: Path | str, limit: int, what: str = "file",
                 error: type[PbemError] = UsageError, error_large: type[PbemError] = InvalidFile) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    The file's type is checked before it is opened and again on the open
    descriptor (opened non-blocking, so a FIFO swapped in meanwhile cannot
    hang the program); the read stops at ``limit + 1`` bytes, so a file that
    grows or lies about its size costs no more memory than that.  Every
    failure is one line: ``error`` for a missing or unreadable file or one
    that is not a regular file, ``error_large`` for one that is too large."""
    path = Path(path)
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise error(_not_regular(path, st.st_mode, what))
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except OSError as exc:
        raise error(f"{path}: cannot read ({exc.strerror})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise error(_not_regular(path, st.st_mode, what))
        chunks, got = [], 0
        while got <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    except OSError as exc:
        raise error(f"{path}: cannot read ({exc.strerror})") from None
    finally:
        os.close(fd)
    if got > limit:
        raise error_large(f"{path}: larger than {_size(limit)}, far too large for a {what}")
    return b"".join(chunks)


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MB" if n >= 1024 * 1024 else f"{n} bytes"


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether tables and arrays nest more than ``limit`` levels in
    ``value`` (walked without recursion)."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        children: Iterable[Any]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth >= limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def loads_toml(text: str, name: str, error: type[PbemError] = InvalidFile) -> dict[str, Any]:
    """Parse TOML text from an untrusted source: a syntax error or nesting
    deeper than :data:`MAX_DEPTH` (which would otherwise exhaust the stack,
    in the parser or in whatever walks the result) is one ``error`` line
    naming ``name``."""
    import tomllib

    deep = f"{name}: tables or arrays nested more than {MAX_DEPTH} levels deep"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{name}: not valid TOML ({exc})") from None
    except RecursionError:
        raise error(deep) from None
    if too_deep(data):
        raise error(deep)
    return data


CONFIG_LIMIT = 1 << 20


def load_config_table(path: Path, table: str, what: str, hint: str = "") -> dict[str, Any]:
    """The ``[table]`` of a player's settings file (SMTP, IMAP...), read
    like any untrusted file (bounded, regular files only, bounded nesting);
    every problem is one UsageError line naming ``what`` and ``path``.
    ``hint`` follows the "not found" line (what the file should hold)."""
    if not Path(path).exists():
        raise UsageError(f"{what} {path} not found{hint}")
    data = read_bounded(path, CONFIG_LIMIT, what, error_large=UsageError)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{what} {path} is not UTF-8 text") from None
    doc = loads_toml(text, f"{what} {path}", UsageError)
    section = doc.get(table)
    if not isinstance(section, dict):
        raise UsageError(f"{what} {path} has no [{table}] table")
    return section


def atomic_write(path: Path, data: bytes, *, overwrite: bool = False, mode: int = 0o644) -> None:
    """Write ``data`` so that ``path`` is either absent, the old file, or the
    whole new file: temp file in the same folder, fsync, rename.  Refuses to
    replace an existing file unless ``overwrite``."""
    path = Path(path)
    if path.exists() and not overwrite:
        if path.read_bytes() == data:
            return
        raise UsageError(f"{path} already exists; not overwriting it")
    path.parent.mkdir(parents=True, exist_ok=True)
    import tempfile  # only a write needs it: not imported at every command's start

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        if overwrite:
            os.replace(tmp, path)
        else:
            # link() fails if the name appeared meanwhile: never clobber.
            try:
                os.link(tmp, path)
            except FileExistsError:
                raise UsageError(f"{path} already exists; not overwriting it") from None
            finally:
                os.unlink(tmp)
        fsync_dir(path.parent)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
