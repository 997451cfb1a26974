"""Bad input ends in one clear line, a non-zero exit, and nothing written.

DESIGN.md, "The command line": malformed TOML, a wrong key, a file of the
wrong kind, a huge or binary file: never a traceback, never a half-written
file.  The first tests run the real program in a subprocess; the fuzz tests
feed random documents to ``pbem verify`` in-process (click's CliRunner).
"""
from __future__ import annotations

import os
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.cli import main
from clihelp import Player, cli_env, make_players, start_game


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> tuple[Player, Player, Path]:
    """Anna and Pavel with a joined game; the file is Anna's to play."""
    root = tmp_path_factory.mktemp("badinput")
    anna, pavel = make_players(root)
    joined = start_game(anna, pavel, "sealed")
    return anna, pavel, joined


def fresh_out(p: Player, name: str) -> Path:
    out = p.root / f"out-{name}"
    out.mkdir()
    return out


def refused(p: Player, *args: str) -> str:
    """Run ``pbem ARGS``; assert a one-line failure; return that line."""
    return p.run(*args, ok=False).stderr.strip()


def assert_nothing_written(p: Player, out: Path, versions_before: list[str]) -> None:
    assert list(out.iterdir()) == [], f"something written: {list(out.iterdir())}"
    assert game_versions(p) == versions_before


def game_versions(p: Player) -> list[str]:
    games = p.home / "games"
    return sorted(str(f.relative_to(games)) for f in games.rglob("*")) if games.exists() else []


def good_text(joined: Path) -> str:
    return joined.read_text(encoding="utf-8")


CASES: dict[str, Any] = {
    "malformed TOML": (lambda g: "[[exchange]\nn = 1\n", "not valid TOML"),
    "wrong type": (lambda g: g.replace("n = 2\n", 'n = "2"\n', 1), "exchange 2: field 'n' should be int"),
    "missing field": (lambda g: g.replace("\nprev = ", "\nprevious = ", 1), "exchange 1 lacks its 'prev' field"),
    "binary junk": (lambda g: bytes(range(256)) * 8, "binary data, not a game file"),
    "not UTF-8": (lambda g: "# caf\xe9\n".encode("latin-1") + g.encode(), "not UTF-8 text"),
    "empty": (lambda g: "", "no [[exchange]] tables"),
    "no exchanges": (lambda g: '[game]\nid = "x"\n', "no [[exchange]] tables"),
    "header of wrong type": (lambda g: g.replace('dice = "sealed"', "dice = 3"), "dice"),
    "sides of wrong type": (lambda g: g.replace('sides = [\n    "red",\n    "blue",\n]', "sides = 5"), "sides"),
    "scenario name of wrong type": (lambda g: g.replace('scenario = "duel/short"', "scenario = 5"), "scenario"),
    "unknown game": (lambda g: g.replace('game = "duel"', 'game = "chess"'), "unknown game 'chess'"),
    "edited reading copy": (lambda g: g.replace('summary = "red to play', 'summary = "blue to play'), "[state] summary"),
}


def write_case(p: Player, name: str, make: Any, joined: Path) -> Path:
    data = make(good_text(joined))
    path = p.root / f"bad-{name.replace(' ', '-')}.toml"
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_bad_game_file_is_one_clear_line_and_nothing_written(table, name) -> None:
    anna, _, joined = table
    make, reason = CASES[name]
    bad = write_case(anna, name, make, joined)
    before = game_versions(anna)
    out = fresh_out(anna, f"play-{name.replace(' ', '-')}")
    line = refused(anna, "play", str(bad), "--out", str(out), "--orders", str(anna.orders("x", ["pick 1"])))
    assert reason in line, line
    assert "internal error" not in line, line
    assert_nothing_written(anna, out, before)
    # A bystander's verify says the same (in-process: quicker).
    result = CliRunner().invoke(main, ["verify", str(bad)], env=cli_env(anna.root / "nohome", anna.scenarios))
    assert result.exit_code in (1, 2) and reason in result.stderr and len(result.stderr.splitlines()) == 1, result.stderr


def test_a_50_mb_file_is_refused_before_it_is_read(table) -> None:
    anna, _, joined = table
    big = anna.root / "huge.toml"
    with big.open("wb") as fh:
        fh.write(joined.read_bytes())
        fh.write(b"# padding\n" * (5 * 1024 * 1024))
    assert big.stat().st_size > 50 * 1000 * 1000
    out = fresh_out(anna, "huge")
    before = game_versions(anna)
    line = refused(anna, "play", str(big), "--out", str(out))
    assert "larger than 20 MB, far too large for a game file" in line
    assert_nothing_written(anna, out, before)
    big.unlink()


def test_an_unknown_scenario_is_named_with_what_exists(table) -> None:
    anna, pavel, _ = table
    out = fresh_out(anna, "unknown-scenario")
    line = refused(anna, "new", "duel/nosuch", "--side", "red=me", "--side",
                   f"blue={pavel.root / 'pavel.id.toml'}", "--out", str(out))
    assert line.startswith("pbem: no scenario 'duel/nosuch'; available: ") and "duel/short" in line, line
    assert list(out.iterdir()) == []


@pytest.mark.parametrize("wrong", ["public identity", "game file", "garbage"])
def test_a_key_file_of_the_wrong_kind_is_named(table, tmp_path, wrong) -> None:
    """The key in PBEM_HOME is really a public identity, a game file, or junk."""
    anna, pavel, joined = table
    impostor = Player("Anna", "red", tmp_path / "impostor", anna.scenarios)
    impostor.home.mkdir(parents=True)
    source = {"public identity": anna.root / "anna.id.toml", "game file": joined}.get(wrong)
    if source is None:
        (impostor.home / "key.toml").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    else:
        shutil.copy(source, impostor.home / "key.toml")
    out = fresh_out(impostor, "x")
    line = refused(impostor, "play", str(joined), "--out", str(out))
    expected = {"public identity": "is a public identity file, not a private key file",
                "game file": "not a private key file", "garbage": "not a private key file"}[wrong]
    assert expected in line, line
    assert list(out.iterdir()) == []


@pytest.mark.parametrize("given", ["game file", "private key"])
def test_an_opponent_identity_of_the_wrong_kind_is_named(table, given) -> None:
    anna, pavel, joined = table
    path = joined if given == "game file" else pavel.home / "key.toml"
    out = fresh_out(anna, f"new-{given.replace(' ', '-')}")
    line = refused(anna, "new", "duel/short", "--side", "red=me", "--side", f"blue={path}", "--out", str(out))
    assert "not a public identity file" in line, line
    if given == "private key":
        assert "private key" in line
    assert list(out.iterdir()) == []


@pytest.mark.parametrize("what, reason", [
    ("scenario", "this is a scenario file, not a game file"),
    ("identity", "not a game file"),
    ("folder", "is a folder, not a file"),
    ("missing", "no such file"),
])
def test_the_wrong_thing_given_as_a_game_file(table, what, reason) -> None:
    anna, _, _ = table
    path = {"scenario": anna.scenarios / "duel" / "short.toml", "identity": anna.root / "anna.id.toml",
            "folder": anna.root, "missing": anna.root / "nosuch.toml"}[what]
    assert reason in refused(anna, "verify", str(path))


@pytest.mark.parametrize("orders, reason", [
    ("orders = [\n", "not valid TOML"),
    ("orders = 5\n", "`orders` must be a list"),
    ('orders = ["fly to the moon"]\n', "order 1 (fly to the moon): cannot read"),
    ('orders = ["attack"]\n', "order 1 (attack): expected pick, got attack"),
    ("orders = []\n", "orders ran out while you must still decide"),
    ('orders = ["pick 1", "pick 2"]\n', "order 2 (pick 2) comes after the exchange ended"),
])
def test_a_bad_orders_file_writes_nothing(table, orders, reason) -> None:
    anna, _, joined = table
    path = anna.root / "bad-orders.toml"
    path.write_text(orders, encoding="utf-8")
    out = fresh_out(anna, f"orders-{abs(hash(orders))}")
    before = game_versions(anna)
    line = refused(anna, "play", str(joined), "--orders", str(path), "--out", str(out))
    assert reason in line and line.endswith("nothing written") or reason in line, line
    assert list(out.iterdir()) == []
    # The received file itself may be kept as a version; no new exchange is.
    assert not any(v.endswith(f"{3:04d}.toml") for v in game_versions(anna))
    assert set(before) <= set(game_versions(anna))


# ------------------------------------------------------------------ fuzzing


@pytest.fixture(scope="module")
def fuzz_env(table, tmp_path_factory) -> dict[str, Any]:
    anna, _, joined = table
    folder = tmp_path_factory.mktemp("fuzz")
    env = cli_env(folder / "nohome", anna.scenarios)
    return {"env": env, "folder": folder, "doc": tomllib.loads(good_text(joined))}


def verify_in_process(env: dict[str, Any], data: bytes) -> None:
    path = env["folder"] / "fuzz.toml"
    path.write_bytes(data)
    runner = CliRunner()
    result = runner.invoke(main, ["verify", str(path)], env=env["env"], catch_exceptions=True)
    assert result.exit_code != 0, f"accepted: {result.stdout}"
    err = result.stderr.strip()
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1, err
    assert err.startswith("pbem: ") and "internal error" not in err, err
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exception


FUZZ = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "60")), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@FUZZ
@given(st.binary(max_size=2000))
def test_fuzz_random_bytes_to_verify(fuzz_env, data) -> None:
    verify_in_process(fuzz_env, data)


toml_scalars = st.one_of(st.integers(-2**63, 2**63 - 1), st.text(max_size=20), st.booleans())
toml_values = st.recursive(
    toml_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(min_size=1, max_size=8), inner, max_size=4)),
    max_leaves=12,
)


@FUZZ
@given(st.dictionaries(st.sampled_from(["game", "exchange", "state", "kind", "scenario", "x"]), toml_values, max_size=4))
def test_fuzz_random_toml_documents_to_verify(fuzz_env, doc) -> None:
    verify_in_process(fuzz_env, tomli_w.dumps(doc).encode("utf-8"))


def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += paths(v, prefix + (i,))
    return out


@FUZZ
@given(st.data())
def test_fuzz_one_field_of_a_real_game_file_replaced(fuzz_env, data) -> None:
    """Near-valid files: a real game with one field deleted or given a value
    of another type, so the checks behind the TOML parser are reached."""
    import copy

    doc = copy.deepcopy(fuzz_env["doc"])
    where = data.draw(st.sampled_from(paths(doc)))
    parent = doc
    for k in where[:-1]:
        parent = parent[k]
    new = data.draw(st.one_of(st.just("<delete>"), toml_values))
    if new == "<delete>":
        if isinstance(parent, list):
            parent.pop(where[-1])
        else:
            del parent[where[-1]]
    else:
        if new == parent[where[-1]]:
            return
        parent[where[-1]] = new
    try:
        text = tomli_w.dumps(doc)
    except (TypeError, ValueError):
        return
    path = fuzz_env["folder"] / "fuzz.toml"
    path.write_text(text, encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(main, ["verify", str(path)], env=fuzz_env["env"])
    err = result.stderr.strip()
    assert "Traceback" not in err and "internal error" not in err, f"{where} = {new!r}: {err}"
    if result.exit_code == 0:
        # Only a reading copy may go (the [game] copy or a [state] line), or
        # [state] be replaced by a table holding none of its fields.
        gone = new == "<delete>" and where[0] in ("game", "state")
        blank = where == ("state",) and isinstance(new, dict) and not {"hash", "summary", "public"} & set(new)
        assert gone or blank, f"{where} = {new!r} accepted"
    else:
        assert len(err.splitlines()) == 1 and err.startswith("pbem: "), err
