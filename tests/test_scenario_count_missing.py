"""pbem.scenario.count_missing's quick answer for a complete file (no leaf
MISSING: no paths built, speed only) is the count the path walk gives, on
every scenario the repository holds and on made-up tables."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem import scenario
from pbem.errors import InvalidFile

REPO = Path(__file__).resolve().parent.parent
FILES = sorted(REPO.glob("scenarios/*/*.toml")) + sorted(REPO.glob("tests/data/**/*.toml"))


def _by_paths(data: dict) -> int:
    entries = data.get("missing", [])
    return len(scenario._missing_paths(data)) + (len(entries) if isinstance(entries, list) else 0)


def test_every_scenario_file_gets_the_path_walks_count():
    checked = 0
    for path in FILES:
        try:
            data = scenario.load_toml(path)
        except InvalidFile:
            continue
        assert scenario.count_missing(data) == _by_paths(data), path
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("data", [
    {}, {"a": 1}, {"a": "MISSING"}, {"a": {"b": [1, {"c": "MISSING"}]}}, {"a": [["MISSING"], "x"]},
    {"missing": [{"group": "CRT", "what": "MISSING"}]}, {"missing": {"x": "MISSING"}, "b": True},
    {"missing": "MISSING"}, {"a": "missing", "b": 0, "c": False, "d": "MISSING "},
    {"units": [{"id": "G-1", "attack": "MISSING", "defense": "MISSING"}], "missing": [{"group": "x"}, "y"]},
])
def test_made_up_tables(data):
    assert scenario.count_missing(data) == _by_paths(data)
