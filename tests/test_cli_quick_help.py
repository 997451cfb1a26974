"""`pbem --help` and `pbem --version` without click (pbem.cli.quick.quick_help):
the help kept in pbem.cli.helptext is click's, at every width, and the
script prints exactly what the click group prints, on the same streams with
the same exit status."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.cli import helptext

REPO = Path(__file__).resolve().parent.parent

# The `pbem` script, as pip writes it, calling the entry point or the click group.
SCRIPT = "import sys; sys.argv[0] = '/somewhere/bin/pbem'; from {} import main; sys.exit(main())"


def _run(module: str, columns: str, *args: str, importtime: bool = False) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("_")}
    env.update(COLUMNS=columns, PYTHONPATH=str(REPO), PYTHONIOENCODING="utf-8")
    flags = ["-X", "importtime"] if importtime else []
    r = subprocess.run([sys.executable, *flags, "-c", SCRIPT.format(module), *args], env=env,
                       capture_output=True, text=True, stdin=subprocess.DEVNULL)
    return r.returncode, r.stdout, r.stderr


def test_the_kept_help_is_what_click_renders_at_every_width():
    """Regenerate with `python -m pbem.cli.helptext` when this fails."""
    assert Path(helptext.__file__).read_text(encoding="utf-8") == helptext.source()
    assert sorted(helptext.HELP) == list(helptext.WIDTHS)


@pytest.mark.parametrize("columns", ["", "0", "abc", "30", "52", "66", "79", "80", "200"])
@pytest.mark.parametrize("args", [("--help",), ("--version",)])
def test_the_script_prints_what_click_prints(columns, args):
    quick = _run("pbem.cli", columns, *args)
    assert quick == _run("pbem.cli.base", columns, *args)
    assert quick[0] == 0 and quick[2] == "" and quick[1].startswith(("Usage: pbem ", "pbem, version "))


def _imported(err: str) -> set[str]:
    return {line.rsplit("|", 1)[1].strip() for line in err.splitlines()
            if line.startswith("import time:") and "|" in line}


@pytest.mark.parametrize("args", [("--help",), ("--version",)])
def test_help_and_version_import_no_click(args):
    code, out, err = _run("pbem.cli", "80", *args, importtime=True)
    names = _imported(err)
    assert code == 0 and "pbem.cli.quick" in names
    # typing and pathlib too, unless the interpreter's start imports them
    # (an editable install's finder does).
    at_start = _imported(subprocess.run([sys.executable, "-X", "importtime", "-c", "pass"],
                                        capture_output=True, text=True).stderr)
    assert not ({"click", "typing", "pathlib", "pbem.cli.base"} - at_start) & names


@pytest.mark.parametrize("args", [("--help", "--version"), ("--hel",), ("-h",), ("--help", "verify")])
def test_anything_else_is_clicks(args):
    assert _run("pbem.cli", "80", *args) == _run("pbem.cli.base", "80", *args)
