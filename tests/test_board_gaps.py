"""The kernel's scenario-gap walk (pbem/board/gaps.py): values marked MISSING
listed by kind, grouped per entry or one per value."""
from __future__ import annotations

from typing import Any

import pytest

from pbem.board.gaps import MISSING, gaps, load_complete, table_gaps

KINDS = {"map": "map", "units": "counters", "crt": "combat results table"}


def sample() -> dict[str, Any]:
    return {
        "scenario": {"missing": ["crt", "odd"]},
        "map": {"missing": True, "a": MISSING, "b": [MISSING, 1, {"c": MISSING, "d": "x MISSING"}]},
        "units": {"u1": {"name": MISSING, "steps": MISSING, "attack": 3}},
        "extra": {"q": MISSING},
        "missing": [{"group": "CRT", "what": "99 cells"}, {"what": "a note"}, 3],
    }


def test_grouped_lists_each_entry_once_and_counts_list_cells() -> None:
    assert gaps(sample(), KINDS, grouped=True) == [
        "combat results table: not transcribed yet",
        "odd: not transcribed yet",
        "map: map (whole table)",
        "map: map.a",
        "map: map.b (1 of 3)",
        "map: map.b[2].c",                       # only a value equal to MISSING counts when grouped
        "counters: units.u1.{name, steps}",
    ]


def test_whole_file_adds_other_tables_and_missing_entries() -> None:
    lines = gaps(sample(), KINDS, grouped=True, whole_file=True)
    assert lines[-3:] == ["extra: extra.q", "CRT: 99 cells", "?: a note"]


def test_per_value_lists_every_value_and_text_holding_missing() -> None:
    assert gaps(sample(), KINDS) == [
        "combat results table: not transcribed yet",
        "odd: not transcribed yet",
        "map: map (whole table)",
        "map: map.a",
        "map: map.b[0]",
        "map: map.b[2].c",
        "map: map.b[2].d",
        "counters: units.u1.name",
        "counters: units.u1.steps",
    ]


def test_a_top_level_value_and_an_empty_file() -> None:
    assert table_gaps("1/1 E:MISSING", "crt") == ["crt"]
    assert table_gaps("1/1 E:MISSING", "crt", grouped=True) == []
    assert gaps({}, KINDS) == [] and gaps({"scenario": None}, KINDS, grouped=True, whole_file=True) == []


class Refused(Exception):
    """Stands for the contract's ScenarioError."""


def test_load_complete_reads_only_a_file_without_gaps() -> None:
    assert load_complete({"a": 1}, [], lambda d: d["a"] + 1, Refused) == 2
    with pytest.raises(Refused, match=r"^scenario has 2 missing value\(s\), e\.g\. map: map\.a "
                                      r"\(pbem scenario check lists them\)$"):
        load_complete({}, ["map: map.a", "counters: units.x"], lambda d: 0, Refused)
    with pytest.raises(Refused, match=r"^bad scenario file: KeyError: 'units'$"):
        load_complete({}, [], lambda d: d["units"], Refused)
