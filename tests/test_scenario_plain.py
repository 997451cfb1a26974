"""A scenario's leaves are checked in one pass without paths first
(scenario._only_plain); the path-naming walk, whose message stands, runs
only when a leaf is not a string, an integer or a boolean."""
from __future__ import annotations

import datetime
import tomllib
from pathlib import Path
from typing import Any

import pytest

from pbem import scenario
from pbem.errors import InvalidFile

ROOT = Path(__file__).resolve().parent.parent


def _plain_by_walk(data: Any) -> bool:
    return all(isinstance(v, (str, int, bool)) for _, v in scenario._walk(data, ()))


@pytest.mark.parametrize("data", [
    {}, [], {"a": {}}, {"a": []}, {"a": [[], {}]}, {"a": 1, "b": True, "c": "x"},
    {"a": 1.5}, {"a": [1, 2, 3.0]}, {"a": [{"id": "G-7Pz", "attack": 9.0}]}, {"a": {"b": {"c": None}}},
    {"a": datetime.date(1941, 7, 10)}, {"a": datetime.time(1, 2)}, {"a": [[[["x", 1, False, b"y"]]]]},
    {"a": (1, 2)}, {"a": {"b": [{"turn": 1, "x": float("nan")}]}}, {"a": 10 ** 40, "b": -0},
])
def test_the_quick_pass_says_what_the_walk_says(data: Any) -> None:
    assert scenario._only_plain(data) == _plain_by_walk(data)


@pytest.mark.parametrize("path", sorted(ROOT.glob("scenarios/*/*.toml")), ids=lambda p: p.parent.name + "/" + p.name)
def test_shipped_scenarios_are_plain(path: Path) -> None:
    assert scenario._only_plain(tomllib.loads(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("value, message", [
    ("1.5", r"floats are not allowed \(at units\.german\.G-7Pz\.attack\); use integers"),
    ("inf", r"floats are not allowed \(at units\.german\.G-7Pz\.attack\)"),
    ("1941-07-10", r"date values are not allowed \(at units\.german\.G-7Pz\.attack\); use strings or integers"),
    ("07:30:00", r"time values are not allowed \(at units\.german\.G-7Pz\.attack\)"),
    ("[1, 2.5]", r"floats are not allowed \(at units\.german\.G-7Pz\.attack\[1\]\)"),
])
def test_a_deep_bad_leaf_is_named_by_its_path(tmp_path: Path, value: str, message: str) -> None:
    f = tmp_path / "bad.toml"
    f.write_text(f'[scenario]\nid = "x"\n[units]\ngerman = [{{ id = "G-7Pz", attack = {value} }}]\n')
    with pytest.raises(InvalidFile, match=message):
        scenario.load_toml(f)
