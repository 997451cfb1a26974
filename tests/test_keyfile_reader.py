"""Key and identity files are read by the game file's fast TOML reader
first (no tomllib import at start-up); whatever the file holds, the result
is what tomllib alone gave: the same values, or the same one-line refusal."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from pbem.errors import KeyFileError
from pbem.fsutil import loads_toml
from pbem.protocol import identity as ident
from pbem.protocol import keyfile


def _outcome(read: Any, path: Path) -> str:
    try:
        return "ok " + repr(read(path, "private key file"))
    except KeyFileError as exc:
        return f"refused {exc}"


def _tomllib_only(path: Path, what: str) -> dict[str, Any]:
    # keyfile._read_toml as it was before the fast reader (the file here is
    # always UTF-8 or refused the same way before parsing).
    text = path.read_bytes().decode("utf-8")
    return loads_toml(text, f"{path}: not a {what}", error=KeyFileError)


def _same(path: Path, text: str) -> None:
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    assert _outcome(keyfile._read_toml, path) == _outcome(_tomllib_only, path)


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str, str]:
    folder = tmp_path_factory.mktemp("keys")
    anna = ident.generate("Anna Petrova", "anna@example.org")
    ident.save_private(anna, folder / "plain.toml", None)
    ident.save_private(anna, folder / "locked.toml", "correct horse")
    ident.save_public(anna.public, folder / "me.id.toml")
    return tuple((folder / n).read_text(encoding="utf-8") for n in ("plain.toml", "locked.toml", "me.id.toml"))


def test_written_files_take_the_fast_reader(written: tuple[str, str, str], tmp_path: Path) -> None:
    from pbem.protocol import fasttoml

    for text in written:
        assert fasttoml.loads(text) is not None
        _same(tmp_path / "k.toml", text)


@pytest.mark.parametrize("text", [
    'kind = "pbem-private-key"\nkind = "pbem-private-key"\n',        # a key twice
    'kind = "pbem-private-key"\r\nname = "A"\r\n',                    # CRLF
    'kind = "pbem-private-key"\rname = "A"\n',                        # a lone CR
    '\ufeffkind = "pbem-private-key"\n',                              # a byte-order mark
    'kind = "x"\x00\n', 'name = "tab\there"\n', 'name = "\\u00e9"\n', 'name = "a\\qb"\n',
    'version = 99999999999999999999999999\n', 'version = 1_0\n', 'version = 1.0\n',
    '[encrypted]\nn = 1\n[encrypted]\nr = 2\n', 'encrypted = { n = 1, n = 2 }\n',
    'a = ' + '[' * 60 + ']' * 60 + '\n',                              # nested past the limit
    '[' + '.'.join(['a'] * 60) + ']\n',                               # a header 60 keys deep
    'a = ' + '{b = ' * 30 + '1' + '}' * 30 + '\n',
    'kind = """pbem-private-key"""\n', "kind = 'pbem-private-key'\n", 'kind = "pbem-private-key" # c\x7f\n',
    '', '\n\n', '# only a comment\n', '=', '[', '"', 'kind\n',
])
def test_hostile_files_read_or_refused_as_before(text: str, tmp_path: Path) -> None:
    _same(tmp_path / "k.toml", text)


def test_damaged_files_read_or_refused_as_before(written: tuple[str, str, str], tmp_path: Path) -> None:
    """Single-character damage to real key files, at random places."""
    rng = random.Random(18)
    alphabet = '[]{}"=,.#\n \t\\-01tfx\r\x00é\ufeff'
    for text in written:
        for _ in range(150):
            i = rng.randrange(len(text))
            how = rng.randrange(3)
            c = rng.choice(alphabet)
            _same(tmp_path / "k.toml", text[:i] + (c if how else "") + text[i + (how != 2):])
