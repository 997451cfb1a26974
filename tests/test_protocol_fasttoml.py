"""The fast game-file reader never disagrees with tomllib: on every text it
either gives up (None) or yields exactly tomllib's values, types included,
and it never accepts a text tomllib refuses."""
from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest

from pbem.protocol import fasttoml
from tomlhelp import agrees as _agrees

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "avd-anna-pavel-005.toml"


@pytest.mark.parametrize("path", sorted(ROOT.glob("examples/*.toml")), ids=lambda p: p.name)
def test_written_files_read_the_same(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert fasttoml.loads(text) is not None
    assert _agrees(text)


def test_crlf_reads_the_same() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    assert repr(fasttoml.loads(text.replace("\n", "\r\n"))) == repr(tomllib.loads(text))


@pytest.mark.parametrize("text", [
    'a = 1\na = 2\n',                       # duplicate key
    '[t]\nx = 1\n[t]\ny = 2\n',             # table defined twice
    '[[t]]\n[t]\n',                          # array of tables, then a table
    't = []\n[[t]]\n',                       # static array, then array of tables
    'a = {x = 1}\n[a.b]\n',                  # inline tables are sealed
    'a = {x = 1,}\n',                        # trailing comma in an inline table
    'a = [1,,2]\n',
    'a = 01\n', 'a = +1\n', 'a = 1_000\n', 'a = 0x1f\n', 'a = 1.5\n', 'a = 1e3\n', 'a = inf\n',
    'a = 1979-05-27\n', 'a = "\\u00e9"\n', 'a = "\\x41"\n', 'a = "tab\there"\n', 'a = "bell\x07"\n',
    'a = """x"""\n', "a = 'lit'\n", 'a.b = 1\n', 'a = 1 b = 2\n', 'a = 1 # note\n', 'a = "x" # c\x01\n',
    '[a]\n[a.b]\n[a]\n', '[ a ]\n', '["q".x]\ny = true\n', '"" = 1\n', 'a = [\n  1, # c\n  2,\n]\n',
    'a = [[1, [2, [3, [4, [5, [6, [7, [8, [9]]]]]]]]]\n', 'a = "x"\r\n', 'a = "x"\rb = 1\n',
    'a = true\nb = falsey\n', 'a = "esc \\" \\\\ \\n"\n', '[x]\n[[x.y]]\nz = 1\n[[x.y]]\n[x.y.w]\n',
])
def test_edge_cases_agree(text: str) -> None:
    assert _agrees(text)


def test_mutated_files_agree() -> None:
    """Single-character damage to a real file, at random places."""
    text = EXAMPLE.read_text(encoding="utf-8")
    rng = random.Random(7)
    alphabet = '[]{}"=,.#\n \t\\-01tfx\r\x00é'
    for _ in range(400):
        i = rng.randrange(len(text))
        how = rng.randrange(3)
        c = rng.choice(alphabet)
        mutated = text[:i] + (c if how else "") + text[i + (how != 2):]
        assert _agrees(mutated), (i, how, c)
