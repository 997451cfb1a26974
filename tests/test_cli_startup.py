"""A quick start: `pbem --help` lists the commands from the table in
:mod:`pbem.cli.base` and imports no command's module; a command's module is
imported only when it runs.  These tests keep the table in step with the
command modules and check what `--help` and `--version` import."""
from __future__ import annotations

import importlib
import importlib.metadata
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import pbem.cli
from pbem.cli.base import COMMANDS, help_width, main

# What no start-up without a command may import: the terminal renderer, the
# signatures, TOML reading (scenarios), pictures, mail sending, and any
# command's own module.
HEAVY = ("rich", "cryptography", "tomllib", "PIL", "smtplib", "ssl", "email",
         "pbem.cli.play", "pbem.cli.records", "pbem.cli.setup", "pbem.cli.mailbox", "pbem.cli.maps",
         "pbem.cli.position", "pbem.cli.replay", "pbem.session", "pbem.protocol", "pbem.games", "pbem.cycle")


def _loaded(name: str) -> click.Command:
    module, attribute, _summary = COMMANDS[name]
    command = getattr(importlib.import_module(f"pbem.cli.{module}"), attribute)
    assert isinstance(command, click.Command)
    return command


def _command_modules() -> list[str]:
    return [f"pbem.cli.{m.name}" for m in pkgutil.iter_modules(pbem.cli.__path__) if m.name != "__main__"]


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_table_entry_is_a_command_of_that_name_and_summary(name):
    command = _loaded(name)
    assert command.name == name
    assert command.get_short_help_str(10 ** 6) == COMMANDS[name][2]
    assert main.get_command(click.Context(main), name) is command


def test_every_command_the_modules_define_is_in_the_table():
    listed = {id(_loaded(name)): name for name in COMMANDS}
    for module_name in _command_modules():
        module = importlib.import_module(module_name)
        own = [obj for obj in vars(module).values()
               if isinstance(obj, click.Command) and obj is not main
               and getattr(obj.callback, "__module__", None) == module_name]
        nested = {id(sub) for obj in own if isinstance(obj, click.Group) for sub in obj.commands.values()}
        for command in own:
            if id(command) not in nested:
                assert id(command) in listed, f"{module_name}: command {command.name!r} is not in COMMANDS"


@pytest.mark.parametrize("width", [50, 80, 120])
def test_the_listing_is_what_the_loaded_commands_would_give(width):
    eager = click.Group("pbem", commands=[_loaded(name) for name in COMMANDS])
    lazy_out, eager_out = click.HelpFormatter(width=width), click.HelpFormatter(width=width)
    main.format_commands(click.Context(main), lazy_out)
    eager.format_commands(click.Context(eager), eager_out)
    assert lazy_out.getvalue() == eager_out.getvalue()
    assert all(name in lazy_out.getvalue() for name in COMMANDS)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_command_and_subcommand_has_its_help(name):
    runner = CliRunner()
    r = runner.invoke(main, [name, "--help"], prog_name="pbem")
    assert r.exit_code == 0, r.output
    assert f"Usage: pbem {name}" in r.output
    command = _loaded(name)
    if isinstance(command, click.Group):
        for sub in command.commands:
            r = runner.invoke(main, [name, sub, "--help"], prog_name="pbem")
            assert r.exit_code == 0 and f"Usage: pbem {name} {sub}" in r.output, r.output


def test_an_unknown_command_is_refused_with_close_names_from_the_table():
    r = CliRunner().invoke(main, ["pla"])
    assert r.exit_code == 2
    assert "No such command 'pla'." in r.output
    if hasattr(click.exceptions, "NoSuchCommand"):     # click 8.4+ suggests close names
        assert "(Did you mean one of: 'play', 'replay'?)" in r.output


def test_version_is_the_installed_distributions():
    r = CliRunner().invoke(main, ["--version"], prog_name="pbem")
    assert r.exit_code == 0
    assert r.output == f"pbem, version {importlib.metadata.version('pbem')}\n"


@pytest.mark.parametrize("columns", ["", "0", "abc", "30", "60", "79", "80", "81", "200"])
@pytest.mark.parametrize("max_width", [None, 60, 120])
def test_help_width_is_the_width_click_would_take(monkeypatch, columns, max_width):
    import shutil

    monkeypatch.setenv("COLUMNS", columns)
    assert help_width(max_width) == click.HelpFormatter(max_width=max_width).width
    assert help_width(max_width) == max(min(shutil.get_terminal_size().columns, max_width or 80) - 2, 50)


def _imported(*args: str) -> set[str]:
    """The modules `python -m pbem ARGS` imports (`pbem` alone prints its
    help too, with exit 2 on click 8.2+)."""
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "pbem", *args], capture_output=True, text=True)
    assert r.returncode == (0 if args else r.returncode) and r.returncode in (0, 2), r.stderr[-2000:]
    assert "Usage: " in r.stdout + r.stderr or "version" in r.stdout
    names = {line.rsplit("|", 1)[1].strip() for line in r.stderr.splitlines()
             if line.startswith("import time:") and "|" in line}
    assert "pbem.cli.base" in names
    return names


@pytest.mark.parametrize("args", [("--help",), ("--version",), ()])
def test_help_and_version_import_nothing_heavy(args):
    names = _imported(*args)
    heavy = sorted(n for n in names if any(n == h or n.startswith(h + ".") for h in HEAVY))
    assert heavy == []


# ------------------------------------------------- `pbem verify FILE` quick


def _verify_both_ways(env: dict[str, str], *args: str) -> tuple[tuple[int, str, str], tuple[int, str, str]]:
    """``pbem ARGS`` through the script's entry point (quick when ARGS are
    ``verify FILE``) and through the click group itself."""
    out = []
    for module in ("pbem.cli", "pbem.cli.base"):
        r = subprocess.run([sys.executable, "-c", f"from {module} import main; main()", *args], env=env,
                           capture_output=True, text=True, stdin=subprocess.DEVNULL)
        out.append((r.returncode, r.stdout, r.stderr))
    return out[0], out[1]


@pytest.fixture(scope="module")
def verify_setup(tmp_path_factory):
    """A duel's file, a player's home and the environment to run pbem in."""
    import enginehelp as eh
    from pbem.protocol import identity

    tests = Path(__file__).resolve().parent
    folder = tmp_path_factory.mktemp("quick")
    gf, sc, ids = eh.start("sealed")
    for _ in range(3):
        gf = eh.one_exchange(gf, sc, ids)
    game = folder / "g.toml"
    game.write_text(gf.to_toml(), encoding="utf-8")
    home = folder / "home"
    home.mkdir()
    identity.save_private(ids["red"], home / "key.toml", None)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PBEM_", "_"))}
    env.update(PBEM_HOME=str(home), PBEM_SCENARIOS=str(tests / "data" / "scenarios"),
               PBEM_GAME_MODULES="duel=duelgame", PYTHONPATH=os.pathsep.join([str(tests.parent), str(tests)]),
               PYTHONIOENCODING="utf-8")
    return folder, game, home, env


def test_verify_file_runs_without_click_and_says_what_the_click_command_says(verify_setup):
    folder, game, home, env = verify_setup
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "pbem", "verify", str(game)], env=env,
                       capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert r.returncode == 0 and r.stdout.startswith("valid: "), r.stderr[-2000:]
    names = {line.rsplit("|", 1)[1].strip() for line in r.stderr.splitlines()
             if line.startswith("import time:") and "|" in line}
    assert "click" not in names and "pbem.cli.base" not in names
    quick, group = _verify_both_ways(env, "verify", str(game))
    assert quick == group and quick[0] == 0


def test_verify_quick_and_click_agree_on_every_outcome(verify_setup):
    folder, game, home, env = verify_setup
    text = game.read_text(encoding="utf-8")
    (folder / "bad.toml").write_text(text.replace('sig = "', 'sig = "00', 1), encoding="utf-8")
    (folder / "junk.toml").write_text("[game]\nx = 1\n", encoding="utf-8")
    (folder / "ctl\x1b[31m.toml").write_text("not toml at all \x1b[1m", encoding="utf-8")
    cases = [("verify", str(game)), ("verify", str(folder / "missing.toml")), ("verify", str(folder)),
             ("verify", str(folder / "bad.toml")), ("verify", str(folder / "junk.toml")),
             ("verify", str(folder / "ctl\x1b[31m.toml")), ("verify", ""), ("verify", "-x"),
             ("verify", str(game), "--scenario", "duel/test"), ("verify",), ("verify", "--help")]
    for args in cases:
        quick, group = _verify_both_ways(env, *args)
        assert quick == group, args
    # Without a key (a bystander), with a key others can read, with one that
    # needs its passphrase (no terminal to ask at), with no home at all.
    key = home / "key.toml"
    key.chmod(0o644)
    try:
        quick, group = _verify_both_ways(env, "verify", str(game))
        assert quick == group and "can be read by others" in quick[2]
    finally:
        key.chmod(0o600)
    from pbem.protocol import identity

    locked = folder / "locked"
    locked.mkdir()
    identity.save_private(identity.load_private(key, None), locked / "key.toml", "secret words")
    for where in (locked, folder / "nohome"):
        quick, group = _verify_both_ways({**env, "PBEM_HOME": str(where)}, "verify", str(game))
        assert quick == group, where


def _same_tree(a, b) -> bool:
    """Equal values of the same types, tables in the same order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same_tree(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same_tree(x, y) for x, y in zip(a, b))
    return bool(a == b)


def test_every_shipped_scenario_reads_as_tomllib_reads_it():
    """Scenarios are read by the game file's fast TOML reader (tomllib only
    for what it does not take): every shipped one is taken, with the values,
    types and order tomllib gives."""
    import tomllib

    from pbem import scenario, session
    from pbem.protocol import fasttoml

    repo = Path(__file__).resolve().parent.parent
    files = sorted(repo.glob("scenarios/*/*.toml")) + sorted(repo.glob("tests/data/**/*.toml"))
    assert len(files) > 20
    for path in files:
        expected = tomllib.loads(path.read_text(encoding="utf-8"))
        if path.parent.parent.name == "scenarios":      # a shipped one: the fast reader takes it
            assert fasttoml.loads(path.read_text(encoding="utf-8")) is not None, path
        assert _same_tree(scenario.load_toml(path, fast=fasttoml.loads), expected), path
        if path.parent.parent.name == "scenarios":
            assert _same_tree(session.load_scenario(str(path)), expected), path


@pytest.mark.parametrize("text", ["[scenario]\nid = 'x'\n", "[scenario]\nv = 1.5\n", "[scenario\n", "a = 1\r\rb = 2\n",
                                  "d = 1979-05-27\n", "x = \"\"\"\nlong\n\"\"\"\n"])
def test_a_scenario_outside_the_fast_subset_gets_tomllibs_verdict(tmp_path, text):
    import tomllib

    from pbem import scenario
    from pbem.errors import InvalidFile
    from pbem.protocol import fasttoml

    path = tmp_path / "s.toml"
    path.write_text(text, encoding="utf-8")
    try:
        expected: object = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        expected = f"scenario s.toml: invalid TOML ({exc})"
    try:
        got: object = scenario.load_toml(path, fast=fasttoml.loads)
    except InvalidFile as exc:
        got = str(exc)
    if isinstance(expected, dict) and any(isinstance(v, (float,)) or type(v).__name__ == "date"
                                          for t in expected.values() for v in (t.values() if isinstance(t, dict) else [t])):
        assert isinstance(got, str) and "not allowed" in got
    else:
        assert got == expected


def test_a_key_that_must_ask_at_the_terminal_goes_to_click(verify_setup, monkeypatch, capsys):
    """The quick path asks nothing: a locked key with a terminal to ask at
    (and no PBEM_PASSPHRASE) leaves the command to click, untouched."""
    import io

    from pbem.cli import quick

    folder, game, home, env = verify_setup

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setenv("PBEM_HOME", str(folder / "locked"))
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    monkeypatch.setattr(sys, "stdin", Terminal())
    monkeypatch.setattr(quick, "_plain_streams", lambda: True)     # pytest's capture is no plain stream
    if not (folder / "locked" / "key.toml").exists():
        from pbem.protocol import identity

        (folder / "locked").mkdir(exist_ok=True)
        identity.save_private(identity.load_private(home / "key.toml", None), folder / "locked" / "key.toml",
                              "secret words")
    assert quick.quick_verify(["verify", str(game)]) is False
    assert capsys.readouterr() == ("", "")
