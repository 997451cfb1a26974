"""A quick start: `pbem --help` lists the commands from the table in
:mod:`pbem.cli.base` and imports no command's module; a command's module is
imported only when it runs.  These tests keep the table in step with the
command modules and check what `--help` and `--version` import."""
from __future__ import annotations

import importlib
import importlib.metadata
import pkgutil
import subprocess
import sys

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
