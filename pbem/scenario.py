"""Scenario files: loading, completeness, identity and lookup, for every game.

A scenario is one TOML file: shipped by its game (``GAME.scenario_package``;
the built-in games' live in the repository's ``scenarios/<game>/``) or in a
folder of ``$PBEM_SCENARIOS``.  Published
scenarios carry every fact the rulebook text gives and mark each value the
text does not give (it is printed on the map, the chart sheet or the
counters) with the string :data:`MISSING`; a ``[[missing]]`` list may add
whole groups that have no slot in the file yet::

    [[missing]]
    group = "CRT"
    what = "99 cells of the Combat Results Table"
    where = "chart sheet"

Practice scenarios are complete, original data designed for this program and
say so (``practice = true`` plus a ``notice`` shown in every sitrep).

Every file opens with a ``[scenario]`` table: ``id`` ("avd/practice"),
``game`` ("avd"), ``title``, ``practice`` (bool), ``notice``, ``source``.

Nothing here knows any game's rules; a game's own ``check_scenario`` adds
its consistency checks on top of :func:`find_missing`.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Iterator

from pbem.errors import InvalidFile, UsageError

__all__ = [
    "MISSING", "MAX_BYTES", "load_toml", "read_limited", "parse_toml", "find_missing", "count_missing",
    "scenario_sha256", "scenario_dirs", "shipped", "find", "list_all", "header",
]

MISSING = "MISSING"
"""The marker for a value the rulebook text does not give."""

MAX_BYTES = 5 * 1024 * 1024

# A group with more MISSING values than this is summarised, not listed.
_LIST_LIMIT = 6


# ------------------------------------------------------------------ loading
def load_toml(path: str | os.PathLike[str], what: str = "scenario",
              fast: Callable[[str], dict[str, Any] | None] | None = None) -> dict[str, Any]:
    """Read a scenario file (or another TOML input such as an orders file:
    ``what`` names it in messages).  Raises InvalidFile (one line) if it
    cannot be read, is larger than 5 MB, is not valid TOML, or holds a float
    or a date anywhere (the canonical form that game files hash allows
    neither).  ``fast``, a reader of a subset of TOML that gives up (None)
    on anything else (the game file's, passed in by the session), reads the
    file first; tomllib reads or refuses what it does not take."""
    name = f"{what} {Path(path).name}"
    return parse_toml(read_limited(path, name), name, fast)


def read_limited(path: str | os.PathLike[str], name: str) -> bytes:
    """The bytes of the file (``name`` for messages: "scenario x.toml"),
    InvalidFile if it cannot be read or is larger than 5 MB."""
    p = Path(path)
    try:
        size = p.stat().st_size
    except OSError as exc:
        raise InvalidFile(f"{name}: cannot read ({exc.strerror or exc})") from None
    if size > MAX_BYTES:
        raise InvalidFile(f"{name}: {size} bytes, larger than the 5 MB limit")
    try:
        return p.read_bytes()
    except OSError as exc:
        raise InvalidFile(f"{name}: cannot read ({exc.strerror or exc})") from None


def parse_toml(raw: bytes, name: str, fast: Callable[[str], dict[str, Any] | None] | None = None) -> dict[str, Any]:
    """The values of the TOML bytes ``raw`` of :func:`load_toml`'s file
    ``name``, or InvalidFile (not UTF-8, not TOML, a float or a date)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidFile(f"{name}: not UTF-8 text") from None
    data = fast(text) if fast is not None else None
    if data is None:
        import tomllib

        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise InvalidFile(f"{name}: invalid TOML ({exc})") from None
    _refuse_floats(data, name)
    return data


def _refuse_floats(data: Any, name: str) -> None:
    """``name`` is "scenario practice.toml"."""
    if _only_plain(data):      # the usual case: no leaf's path is worked out
        return
    for path, value in _walk(data, ()):
        if isinstance(value, float):
            raise InvalidFile(
                f"{name}: floats are not allowed (at {_dotted(path)}); use integers")
        if not isinstance(value, (str, int, bool)):
            raise InvalidFile(
                f"{name}: {type(value).__name__} values are not allowed "
                f"(at {_dotted(path)}); use strings or integers")


def _only_plain(data: Any) -> bool:
    """Whether every leaf of ``data`` is a string, an integer or a boolean
    (what :func:`_refuse_floats` lets through), found without building
    paths: a scenario has ~10,000 leaves, read at the start of a command."""
    return all(isinstance(value, (str, int)) for value in _leaves([data]))     # bool is an int


def _leaves(values: list[Any]) -> Iterator[Any]:
    """Every leaf within ``values`` (tables and arrays opened), in no
    particular order and with no path: the quick checks' walk."""
    stack = list(values)
    pop, push_all = stack.pop, stack.extend
    while stack:
        value = pop()
        if isinstance(value, dict):
            push_all(value.values())
        elif isinstance(value, list):
            push_all(value)
        else:
            yield value


def _walk(value: Any, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every leaf value with its path.  A list element that is a table with an
    ``id`` is named by that id, so paths read ``units.german.G-7Pz.attack``
    rather than ``units.german.12.attack``; a Turn Track row by its turn."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _walk(item, path + (str(key),))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            label = f"[{i}]"
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                label = item["id"]
            elif isinstance(item, dict) and isinstance(item.get("turn"), int):
                label = f"[turn={item['turn']}]"
            yield from _walk(item, path + (label,))
    else:
        yield path, value


def _dotted(path: tuple[str, ...]) -> str:
    out = ""
    for part in path:
        if part.startswith("["):
            out += part
        else:
            out += ("." if out else "") + part
    return out or "(top level)"


# ------------------------------------------------------------- completeness
def _missing_paths(data: dict[str, Any]) -> list[tuple[str, ...]]:
    return [path for path, value in _walk(data, ()) if value == MISSING
            and path[:1] != ("missing",)]


def count_missing(data: dict[str, Any]) -> int:
    """How many values are MISSING plus how many ``[[missing]]`` entries
    there are: 0 means the file is complete."""
    entries = data.get("missing", [])
    listed = len(entries) if isinstance(entries, list) else 0
    if not _any_missing(data):      # the usual case (every command loads a scenario): no leaf's path is made
        return listed
    return len(_missing_paths(data)) + listed


def _any_missing(data: dict[str, Any]) -> bool:
    """Whether a leaf outside the top-level ``missing`` table is MISSING
    (what :func:`_missing_paths` would list), found without building paths."""
    return MISSING in _leaves([value for key, value in data.items() if key != "missing"])


def find_missing(data: dict[str, Any]) -> list[str]:
    """What the file still lacks, one readable line per group.

    Values marked MISSING are grouped by top-level table.  A small group is
    listed in full ("map: offset, entry.9A"); a large one is summarised by
    the fields that are missing and how many entries lack them ("units: 180
    values MISSING — attack, defense, movement in 60 entries (e.g.
    units.german.G-7Pz)").  Then one line per ``[[missing]]`` entry.
    """
    groups: dict[str, list[tuple[str, ...]]] = {}
    for path in _missing_paths(data):
        groups.setdefault(path[0] if path else "(top level)", []).append(path)
    lines = [_describe_group(top, paths) for top, paths in groups.items()]
    entries = data.get("missing", [])
    if isinstance(entries, list):
        for entry in entries:
            lines.append(_describe_entry(entry))
    return lines


def _describe_group(top: str, paths: list[tuple[str, ...]]) -> str:
    rel = [p[1:] for p in paths]
    if not any(rel):
        return f"{top}: the whole table is MISSING"
    # Cells of one list (a CRT row) collapse into "rows.1 (11 cells)".
    items: dict[str, int] = {}
    cells_only = True
    for p in rel:
        if p and p[-1].startswith("["):
            items[_dotted(p[:-1])] = items.get(_dotted(p[:-1]), 0) + 1
        else:
            cells_only = False
            items[_dotted(p)] = items.get(_dotted(p), 0) + 1
    names = list(items)
    if cells_only and len(names) > 2:
        return (f"{top}: {len(paths)} cells MISSING in {len(names)} lists "
                f"({names[0]} ... {names[-1]})")
    if len(names) <= _LIST_LIMIT * 3:
        shown = ", ".join(n if items[n] == 1 else f"{n} ({items[n]} cells)" for n in names)
        return f"{top}: {shown} MISSING"
    # Many entries: which fields are missing, and in how many entries.
    fields: list[str] = []
    owners: list[tuple[str, ...]] = []
    for p in rel:
        last = p[-1]
        field = "cells" if last.startswith("[") else last
        if field not in fields:
            fields.append(field)
        owner = p[:-1]
        if owner not in owners:
            owners.append(owner)
    shown = ", ".join(fields[:8]) + (f" and {len(fields) - 8} more" if len(fields) > 8 else "")
    example = _dotted((top,) + owners[0]) if owners and owners[0] else top
    return (f"{top}: {len(paths)} values MISSING — {shown} in {len(owners)} "
            f"entries (e.g. {example})")


def _describe_entry(entry: Any) -> str:
    if not isinstance(entry, dict):
        return f"missing: {entry}"
    group = entry.get("group", "?")
    what = entry.get("what", "")
    where = entry.get("where", "")
    return f"{group}: {what}" + (f" (from the {where})" if where else "")


# ---------------------------------------------------------------- identity
def scenario_sha256(data: dict[str, Any]) -> str:
    """Hex SHA-256 of the canonical form of the scenario's values: what a game
    file pins, so both players provably use the same data whatever the
    file's formatting."""
    import hashlib

    from pbem.protocol import canon  # lazy: keeps `pbem scenarios` light

    return hashlib.sha256(canon.canonical(data)).hexdigest()


def header(data: dict[str, Any], where: str = "scenario") -> dict[str, Any]:
    """The ``[scenario]`` table, checked for its required keys."""
    head = data.get("scenario")
    if not isinstance(head, dict):
        raise InvalidFile(f"{where}: no [scenario] table")
    for key, kind in (("id", str), ("game", str), ("title", str), ("practice", bool)):
        if not isinstance(head.get(key), kind):
            raise InvalidFile(f"{where}: [scenario] {key} missing or not a {kind.__name__}")
    return head


# ------------------------------------------------------------------ lookup
def scenario_dirs() -> list[Path]:
    """The folders of ``$PBEM_SCENARIOS`` (os.pathsep-separated), each
    holding ``<game>/<name>.toml`` files.  They are searched after the
    scenarios the installed games ship (:func:`shipped`)."""
    dirs = []
    extra = os.environ.get("PBEM_SCENARIOS", "")
    for part in extra.split(os.pathsep):
        if part.strip():
            dirs.append(Path(part).expanduser())
    return dirs


def shipped(game_id: str) -> dict[str, Path]:
    """The scenarios a registered game ships: name ("avd/practice") -> file.

    A game names where they are as ``GAME.scenario_package``: a package
    (regular or namespace) installed with it whose ``*.toml`` files are the
    scenarios.  Its folders are the package's ``__path__`` (so it must be on
    the file system, as every pip-installed wheel is; the editable install's
    namespace placeholders are skipped, which Python 3.11's
    ``importlib.resources`` does not do).  A game without one ships none.
    UsageError if the game or its package cannot be loaded."""
    import importlib

    from pbem import games

    package = games.load(game_id).scenario_package
    if not package:
        return {}
    try:
        module = importlib.import_module(package)
    except ImportError as exc:
        raise UsageError(f"game {game_id!r}: its scenario package {package!r} cannot be imported ({exc})") from None
    folders = [Path(entry) for entry in getattr(module, "__path__", ()) if os.path.isdir(entry)]
    if not folders:
        raise UsageError(f"game {game_id!r}: its scenario package {package!r} is not a folder on disk")
    found: dict[str, Path] = {}
    for folder in folders:
        for f in sorted(folder.glob("*.toml")):
            found.setdefault(f"{game_id}/{f.stem}", f)
    return found


def _from_dirs(found: dict[str, Path]) -> None:
    for base in scenario_dirs():
        if not base.is_dir():
            continue
        for f in sorted(base.glob("*/*.toml")):
            found.setdefault(f"{f.parent.name}/{f.stem}", f)


def _available(failures: dict[str, str] | None = None) -> dict[str, Path]:
    """name ("avd/practice") -> file: every registered game's shipped
    scenarios, then ``$PBEM_SCENARIOS``; the first found wins.  A game that
    cannot be loaded is skipped (its reason put in ``failures``)."""
    from pbem import games

    found: dict[str, Path] = {}
    for gid in games.ids():
        try:
            for name, path in shipped(gid).items():
                found.setdefault(name, path)
        except UsageError as exc:
            if failures is not None:
                failures[gid] = str(exc)
    _from_dirs(found)
    return found


def find(name: str) -> Path:
    """A scenario by name ("avd/practice") or by path to a file."""
    p = Path(name).expanduser()
    if p.is_file():
        return p
    key = name[:-5] if name.endswith(".toml") else name
    # The usual case loads only the game the name starts with.
    from pbem import games

    gid = key.split("/", 1)[0]
    if "/" in key and games.known(gid):
        try:
            hit = shipped(gid).get(key)
        except UsageError:
            hit = None
        if hit is not None:
            return hit
    available = _available()
    if key in available:
        return available[key]
    listing = ", ".join(sorted(available)) or "none"
    raise UsageError(f"no scenario {name!r}; available: {listing}")


def list_all() -> list[tuple[str, str, str, bool, int]]:
    """Every scenario found: (name, game, title, practice, missing_count).
    A file that does not load is listed with its error as title and game
    "?"; a game whose scenarios cannot be read as ``<game>/*`` with the
    reason."""
    out = []
    failures: dict[str, str] = {}
    available = _available(failures)
    for name, path in sorted(available.items()):
        try:
            data = load_toml(path)
            head = header(data, f"scenario {name}")
        except InvalidFile as exc:
            out.append((name, "?", f"unreadable: {exc}", False, -1))
            continue
        out.append((name, head["game"], head["title"], head["practice"], count_missing(data)))
    for gid, reason in sorted(failures.items()):
        out.append((f"{gid}/*", gid, f"unavailable: {reason}", False, -1))
    return out
