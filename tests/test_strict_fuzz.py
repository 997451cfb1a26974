"""Mutated real game files through ``pbem verify`` (issue 7, item 7).

Real files (a duel game, the shipped AVD example, a finished Moscow '41 demo
game) get one mutation each: a field deleted, a value swapped for one of
another type, an extra key, or a value buried under deep nesting.  Whatever
comes out, ``pbem verify`` answers with exit 1 or 2 and exactly one line on
stderr, never an internal error; exit 0 only when the signed exchanges are
untouched (a reading copy may be dropped).
"""
from __future__ import annotations

import copy
import os
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.cli import main
from pbem.protocol.canon import canonical
from clihelp import Player, cli_env, make_players, start_game

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("strictfuzz")
    anna, pavel = make_players(root)
    joined = start_game(anna, pavel, "immediate")
    demo = Player("Demo", "-", root / "m41", anna.scenarios)
    demo.root.mkdir()
    demo.run("demo", "m41", "--exchanges", "60", "--keep", str(root / "m41" / "demo"))
    m41 = sorted((root / "m41" / "demo").glob("demo-*.toml"))[-1]
    files = [joined, REPO / "examples" / "avd-anna-pavel-005.toml", m41]
    return {"docs": [tomllib.loads(f.read_text(encoding="utf-8")) for f in files], "folder": root,
            "env": cli_env(root / "nohome", anna.scenarios)}


def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += paths(v, prefix + (i,))
    return out


scalars = st.one_of(st.integers(-2**63, 2**63 - 1), st.text(max_size=12), st.booleans(),
                    st.sampled_from(["AB" * 32, "ab " * 21, "0" * 64, "red", "blue", "play", "new", "rewind"]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(min_size=1, max_size=6), inner, max_size=3)), max_leaves=6)


def bury(value: Any, depth: int, as_table: bool) -> Any:
    for _ in range(depth):
        value = {"x": value} if as_table else [value]
    return value


FUZZ = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "80")), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@FUZZ
@given(st.data())
def test_mutated_real_game_files_are_one_line_refusals(corpus, data) -> None:
    original = data.draw(st.sampled_from(corpus["docs"]))
    doc = copy.deepcopy(original)
    where = data.draw(st.sampled_from(paths(doc)))
    parent = doc
    for k in where[:-1]:
        parent = parent[k]
    key = where[-1]
    how = data.draw(st.sampled_from(["delete", "swap", "extra key", "deep"]))
    if how == "delete":
        del parent[key]
    elif how == "swap":
        new = data.draw(values)
        if type(new) is type(parent[key]):
            return
        parent[key] = new
    elif how == "extra key":
        target = parent[key] if isinstance(parent[key], dict) else parent
        if not isinstance(target, dict):
            return
        name = data.draw(st.text(min_size=1, max_size=8))
        if name in target:
            return
        target[name] = data.draw(values)
    else:
        parent[key] = bury(parent[key], data.draw(st.integers(50, 3000)), data.draw(st.booleans()))
    try:
        text = tomli_w.dumps(doc)
    except (TypeError, ValueError, RecursionError):
        return
    path = corpus["folder"] / "mutated.toml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["verify", str(path)], env=corpus["env"])
    err = result.stderr.strip()
    label = f"{how} at {where}"
    assert "internal error" not in err and "Traceback" not in err, f"{label}: {err}"
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), \
        f"{label}: {result.exception!r}"
    if result.exit_code == 0:
        assert canonical(doc.get("exchange")) == canonical(original["exchange"]), f"{label} accepted"
        return
    assert result.exit_code in (1, 2), f"{label}: exit {result.exit_code}: {err}"
    assert len(err.splitlines()) == 1 and err.startswith("pbem: "), f"{label}: {err!r}"
