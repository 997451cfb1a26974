"""The fast reader's one-match lines (a plain key = value, a header of bare
keys, an array of plain strings) never disagree with tomllib: on hostile
variants of each shape it yields tomllib's values or gives up, and it
never accepts what tomllib refuses."""
from __future__ import annotations

import random

import pytest
from tomlhelp import agrees as _agrees  # the same comparison as the reader's first tests

from pbem.protocol import fasttoml


ARRAYS = [
    'a = []\n', 'a = [ ]\n', 'a = [\n]\n', 'a = ["x"]\n', 'a = ["x",]\n', 'a = [ "x" , "y" ]\n',
    'a = [\n    "x",\n    "y",\n]\n', 'a = [\n\n  "x"\n\n]\n', 'a = ["x"]', 'a = ["x"] \n',
    'a = [,]\n', 'a = [,"x"]\n', 'a = ["x",,]\n', 'a = ["x" "y"]\n', 'a = ["x"\n"y"]\n', 'a = ["x"]]\n',
    'a = [["x"]]\n', 'a = ["x", 1]\n', 'a = ["x", ["y"]]\n', 'a = ["x", {b = "y"}]\n', 'a = ["\\"q"]\n',
    'a = ["x" # c\n]\n', 'a = ["x"] # c\n', 'a = ["x"]b = 1\n', 'a = ["\t"]\n', 'a = ["\x01"]\n',
    'a = ["\x7f"]\n', 'a = ["x\ny"]\n', 'a = ["é"]\n', 'a = ["x"]\na = ["y"]\n', 'a = 1\na = ["y"]\n',
    'a = ["x"]\n[[a]]\n', 'a = ["x"]\n[a]\n', 'a = ["x"]\n[a.b]\n', 'a = [\r\n  "x",\r\n]\r\n',
    'a = ["x"\r]\n', "a = ['x']\n", 'a = ["""x"""]\n', 'a=["x"]\n', '  a = ["x"]\n', 'a = ["x"\t]\n',
    'a = [\t"x",\t]\n', '"a" = ["x"]\n', 'a.b = ["x"]\n',
]
HEADERS = [
    '[a]\n', '[a]', '[a] \n', '[a]\t\n', '[a.b]\n', '[a.b.c]\nx = 1\n', '[ a ]\n', '[a .b]\n', '[a. b]\n',
    '[a..b]\n', '[.a]\n', '[a.]\n', '[]\n', '[[]]\n', '[a]]\n', '[[a]\n', '[[a] ]\n', '[ [a]]\n',
    '[a]x = 1\n', '[a] # c\n', '[a]\n[a]\n', '[a]\n[[a]]\n', '[[a]]\n[a]\n', '[[a]]\n[[a]]\n[a.b]\n[a.b]\n',
    '[[a]]\nx = 1\n[[a]]\nx = 2\n', '[a.b]\n[a]\n', '[a.b]\n[a]\nb = 1\n', '[a]\nb = 1\n[a.b]\n',
    '[a]\nb.c = 1\n[a.b]\n', 'a = {b = 1}\n[a.b]\n', 'a = 1\n[a]\n', 'a = 1\n[a.b]\n', 'a = []\n[[a]]\n',
    '[' + '.'.join('k' * 9) + ']\n', '[' + '.'.join('k' * 8) + ']\n', '[[' + '.'.join('k' * 9) + ']]\n',
    '[a-b_C.9]\n', '[é]\n', '["a"]\n', '[\'a\']\n', '[a]\r\n', '[a]\rx = 1\n', '\n\n\n[a]\n\n\n',
    ' \n\t\n[a]\n', '[a]\n \n\t \nx = 1\n', '[a]\n\x00\n',
]
PLAIN = [
    'a = "x"\n', 'a = "x"', 'a = 0\n', 'a = -0\n', 'a = 00\n', 'a = -\n', 'a = 1 \n', 'a = 12345678901234567890\n',
    'a = true\n', 'a = false\n', 'a = True\n', 'a = truex\n', 'a = "x"y\n', 'a = "x" "y"\n', 'a = \n',
    'a = "x"\na = 1\n', '\n\n a = 1\n', '\t\ta\t=\t1\t\n', 'a=1\n', 'a = "\x7f"\n', 'a = "\x1f"\n',
    '= 1\n', 'a b = 1\n', 'a = 1\n\x0b\n', 'a = "x"\n\n\n',
]


@pytest.mark.parametrize("text", ARRAYS + HEADERS + PLAIN)
def test_line_shapes_agree(text: str) -> None:
    assert _agrees(text)


def test_the_shapes_are_taken_where_tomllib_takes_them() -> None:
    # Not a vacuous test: the written shapes are read, not given up on.
    for text in ('a = ["x", "y"]\n', '[a.b]\nx = 1\n', '[[a]]\n[[a]]\n', 'a = [\n    "x",\n]\n'):
        assert fasttoml.loads(text) is not None


def test_mutated_line_shapes_agree() -> None:
    """Random damage to a text made of every shape."""
    base = ('[game]\nid = "g"\nsides = [\n    "german",\n    "soviet",\n]\n\n[[exchange]]\nn = 1\nok = true\n'
            '[exchange.player]\nname = "A"\nopen = ["g1.1", "g1.2"]\n\n[[exchange]]\nn = 2\n'
            '[[exchange.orders]]\nside = "german"\n[exchange.orders.order]\nverb = "end-move"\nunits = []\n')
    assert _agrees(base) and fasttoml.loads(base) is not None
    rng = random.Random(18)
    alphabet = '[]{}"=,.#\n \t\\-01tfx\r\x00é\'abk'
    for _ in range(3000):
        text = base
        for _ in range(rng.randrange(1, 3)):
            i = rng.randrange(len(text))
            how = rng.randrange(3)
            text = text[:i] + (rng.choice(alphabet) if how else "") + text[i + (how != 2):]
        assert _agrees(text), repr(text)
