"""Parsed scenario files kept in a player's home (pbem.cache.load_scenario):
the same bytes are not parsed twice, the values are the parse's exactly, and
an entry that is corrupt, truncated, made under another home's key or for
other bytes is ignored (the file parsed again), never trusted."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from pbem import cache, scenario, session

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def home(tmp_path, monkeypatch):
    h = tmp_path / "home"
    h.mkdir()
    monkeypatch.setenv("PBEM_HOME", str(h))
    return h


@pytest.fixture
def parses(monkeypatch):
    """The scenario parses made (each file's name)."""
    made: list[str] = []
    parse = scenario.parse_toml

    def counted(raw, name, fast=None):
        made.append(name)
        return parse(raw, name, fast)

    monkeypatch.setattr(scenario, "parse_toml", counted)
    return made


def _same_tree(a, b) -> bool:
    """Equal values of the same types, tables in the same order (JSON tells
    true from 1 and "1", and keeps the order)."""
    return json.dumps(a) == json.dumps(b)


def _entries(home: Path) -> list[Path]:
    return sorted((home / "cache" / "scenarios").glob("*.bin"))


SHIPPED = sorted(REPO.glob("scenarios/*/*.toml"))


def test_the_same_bytes_are_parsed_once_and_read_back_as_parsed(home, parses):
    path = str(REPO / "scenarios" / "avd" / "practice.toml")
    first = session.load_scenario(path)
    assert parses == ["scenario practice.toml"] and len(_entries(home)) == 1
    again = session.load_scenario(path)
    assert parses == ["scenario practice.toml"]
    assert again is not first and _same_tree(again, first)
    assert _same_tree(first, scenario.load_toml(path))
    assert scenario.scenario_sha256(again) == scenario.scenario_sha256(first)


@pytest.mark.parametrize("path", SHIPPED[:4], ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_shipped_scenarios_read_back_as_parsed(home, path):
    assert _same_tree(session.load_scenario(str(path)), session.load_scenario(str(path)))
    assert _same_tree(session.load_scenario(str(path)), scenario.load_toml(path))


def _spoil(entry: Path, how: str) -> None:
    data = entry.read_bytes()
    if how == "flipped":
        entry.write_bytes(data[:-5] + bytes([data[-5] ^ 1]) + data[-4:])
    elif how == "truncated":
        entry.write_bytes(data[:len(cache.SCENARIO_MAGIC) + 10])
    elif how == "empty":
        entry.write_bytes(b"")
    elif how == "another home's key":
        (entry.parents[1] / "mac.key").write_bytes(b"k" * 32)
    elif how == "other bytes":          # an entry made for another file under this one's name
        other = sorted(entry.parent.glob("*.bin"))
        source = next(p for p in other if p != entry)
        entry.write_bytes(source.read_bytes())
    elif how == "not a table":
        import hmac
        import marshal

        body = marshal.dumps([1, 2])
        key = (entry.parents[1] / "mac.key").read_bytes()
        digest = bytes.fromhex(entry.stem)
        mac = hmac.new(key, cache._scenario_context(digest) + body, hashlib.sha256).digest()
        entry.write_bytes(cache.SCENARIO_MAGIC + mac + body)


@pytest.mark.parametrize("how", ["flipped", "truncated", "empty", "another home's key", "other bytes",
                                 "not a table"])
def test_a_spoiled_entry_is_ignored(home, parses, how):
    path = str(REPO / "scenarios" / "avd" / "practice.toml")
    other = str(REPO / "scenarios" / "m41" / "practice.toml")
    expected = scenario.load_toml(path)
    session.load_scenario(path)
    session.load_scenario(other)
    entry = next(p for p in _entries(home)
                 if p.stem == hashlib.sha256(Path(path).read_bytes()).hexdigest())
    _spoil(entry, how)
    parses.clear()
    assert _same_tree(session.load_scenario(path), expected)
    assert parses == ["scenario practice.toml"]


def test_an_edited_reader_is_not_trusted_with_old_entries(home, parses, monkeypatch):
    path = str(REPO / "scenarios" / "avd" / "practice.toml")
    session.load_scenario(path)
    monkeypatch.setattr(cache, "_reader_stamp", lambda: "another reader")
    session.load_scenario(path)
    assert len(parses) == 2


def test_no_home_no_entry(tmp_path, monkeypatch, parses):
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "nohome"))
    path = str(REPO / "scenarios" / "avd" / "practice.toml")
    session.load_scenario(path)
    session.load_scenario(path)
    assert len(parses) == 2 and not (tmp_path / "nohome").exists()


def test_the_newest_entries_are_kept(home, monkeypatch):
    monkeypatch.setattr(cache, "SCENARIO_KEEP", 2)
    for path in SHIPPED[:3]:
        session.load_scenario(str(path))
    assert len(_entries(home)) == 2
    assert all(p.stat().st_mode & 0o077 == 0 for p in _entries(home))
