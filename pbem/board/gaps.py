"""The gaps of a scenario file: every value still marked ``"MISSING"`` (the
rulebook text does not give it; it is printed on a map, chart or counter),
listed by kind for ``pbem scenario check``.

A game names its kinds (top-level table -> the words a line opens with,
"units" -> "counters") and chooses one of two ways to list them:

``grouped``
    one line per table entry: its MISSING fields together
    ("units.SU-19A: {name, steps}"), a list's MISSING cells counted
    ("crt.rows.1 (11 of 11)"); only a value equal to MISSING counts.
per value (``grouped=False``)
    one line per MISSING value, and a text holding MISSING among other
    words counts too (a combat cell whose colours are still unknown).

Either way a table carrying ``missing = true`` is named whole, and the kinds
listed under ``[scenario] missing`` come first, "not transcribed yet".
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

MISSING = "MISSING"
"""The marker for a value the rulebook text does not give."""


def gaps(data: Mapping[str, Any], kinds: Mapping[str, str], *, grouped: bool = False,
         whole_file: bool = False) -> list[str]:
    """Every gap of ``data``, one line each, opening with its kind's label.

    The tables of ``kinds`` are walked in that order; with ``whole_file``
    also every other top-level table (labelled by its own name) and the
    ``[[missing]]`` entries of the common scenario format ("group: what").
    """
    out = [f"{kinds.get(kind, kind)}: not transcribed yet"
           for kind in (data.get("scenario") or {}).get("missing") or []]
    tables = [k for k in kinds if k in data]
    if whole_file:
        tables += [k for k in data if k not in kinds and k not in ("scenario", "missing") and isinstance(data[k], dict)]
    for kind in tables:
        label = kinds.get(kind, kind)
        out.extend(f"{label}: {line}" for line in table_gaps(data[kind], kind, grouped=grouped))
    entries = data.get("missing")
    if whole_file and isinstance(entries, list):
        out.extend(f"{entry.get('group', '?')}: {entry.get('what', '')}" for entry in entries if isinstance(entry, dict))
    return out


def table_gaps(node: Any, path: str, *, grouped: bool = False) -> list[str]:
    """The gap lines of one value named ``path``, depth first: a whole table,
    then (``grouped``) the entry's MISSING fields and the list's MISSING
    cells, then what lies inside, in the file's order."""
    out: list[str] = []
    if isinstance(node, dict):
        if node.get("missing") is True:
            out.append(f"{path} (whole table)")
        if grouped:
            fields = [k for k, v in node.items() if v == MISSING]
            if fields:
                out.append(f"{path}.{fields[0]}" if len(fields) == 1 else f"{path}.{{{', '.join(fields)}}}")
        for k, v in node.items():
            if not grouped or isinstance(v, (dict, list)):
                out.extend(table_gaps(v, f"{path}.{k}", grouped=grouped))
    elif isinstance(node, list):
        if grouped:
            cells = sum(1 for v in node if v == MISSING)
            if cells:
                out.append(f"{path} ({cells} of {len(node)})")
        for i, v in enumerate(node):
            if not grouped or isinstance(v, (dict, list)):
                out.extend(table_gaps(v, f"{path}[{i}]", grouped=grouped))
    elif not grouped and isinstance(node, str) and MISSING in node:
        out.append(path)
    return out


T = TypeVar("T")


def load_complete(data: dict[str, Any], found: list[str], read: Callable[[dict[str, Any]], T],
                  refusal: Callable[[str], Exception]) -> T:
    """``read(data)`` for a file whose gaps ``found`` is empty; else, or when
    the reader meets a bad value (KeyError, TypeError, ValueError), raise
    ``refusal`` (the game passes the contract's ScenarioError) with one line."""
    if found:
        raise refusal(f"scenario has {len(found)} missing value(s), e.g. {found[0]} "
                      "(pbem scenario check lists them)")
    try:
        return read(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise refusal(f"bad scenario file: {type(exc).__name__}: {exc}") from None
