"""Player identities and their key files."""
from __future__ import annotations

import hashlib
import os
import re
import stat

import pytest

from pbem.protocol import identity as ident
from pbem.errors import KeyFileError, UsageError


@pytest.fixture(scope="module")
def anna():
    return ident.generate("Anna Petrova", "anna@example.org")


# scrypt at n=2**15 costs ~0.1 s per call, so the encrypted file is made once.
@pytest.fixture(scope="module")
def locked_file(anna, tmp_path_factory):
    path = tmp_path_factory.mktemp("keys") / "anna.key"
    ident.save_private(anna, path, "correct horse")
    return path


def test_fingerprint_is_first_20_hex_digits_of_sha256_of_sign_key_in_groups(anna):
    fp = anna.public.fingerprint
    assert re.fullmatch(r"[0-9A-F]{4}( [0-9A-F]{4}){4}", fp)
    expected = hashlib.sha256(bytes.fromhex(anna.public.sign_pub)).hexdigest()[:20].upper()
    assert fp.replace(" ", "") == expected


def test_public_identity_has_raw_32_byte_keys_as_hex(anna):
    pub = anna.public
    assert len(bytes.fromhex(pub.sign_pub)) == 32 and len(bytes.fromhex(pub.seal_pub)) == 32
    assert pub.sign_pub != pub.seal_pub


def test_signature_verifies_only_for_its_message_and_signer(anna):
    sig = anna.sign(b"pbem/exchange/v1\n{...}")
    assert len(sig) == 64
    assert anna.public.verify(b"pbem/exchange/v1\n{...}", sig)
    assert not anna.public.verify(b"pbem/exchange/v1\n{..!}", sig)
    assert not anna.public.verify(b"pbem/exchange/v1\n{...}", sig[:-1] + bytes([sig[-1] ^ 1]))
    assert not anna.public.verify(b"pbem/exchange/v1\n{...}", b"short")
    other = ident.generate("Boris", "boris@example.org")
    assert not other.public.verify(b"pbem/exchange/v1\n{...}", sig)


def test_identity_repr_shows_no_private_key(anna):
    assert anna.sign_key.hex() not in repr(anna) and anna.seal_key.hex() not in repr(anna)


def test_unseal_convenience(anna):
    from pbem.protocol.seal import seal

    blob = seal(anna.public.seal_pub_raw, b"my blocks", "g1", 5)
    assert anna.unseal(blob, "g1", 5) == b"my blocks"


def test_private_round_trip_without_passphrase(anna, tmp_path):
    path = tmp_path / "anna.key"
    ident.save_private(anna, path, None)
    assert ident.load_private(path, None) == anna
    assert not ident.is_encrypted(path)


def test_private_round_trip_with_passphrase(anna, locked_file):
    assert ident.load_private(locked_file, "correct horse") == anna
    assert ident.is_encrypted(locked_file)
    text = locked_file.read_text()
    assert anna.sign_key.hex() not in text and anna.seal_key.hex() not in text


def test_private_file_mode_is_0600(anna, tmp_path, locked_file):
    path = tmp_path / "plain.key"
    ident.save_private(anna, path, None)
    for p in (path, locked_file):
        assert stat.S_IMODE(os.stat(p).st_mode) == 0o600


def test_no_temporary_files_left_behind(anna, tmp_path):
    ident.save_private(anna, tmp_path / "a.key", None)
    assert [p.name for p in tmp_path.iterdir()] == ["a.key"]


def test_wrong_passphrase(locked_file):
    expected = f"^wrong passphrase for key file {re.escape(str(locked_file))}$"
    with pytest.raises(KeyFileError, match=expected):
        ident.load_private(locked_file, "incorrect horse")


def test_missing_passphrase(locked_file):
    with pytest.raises(KeyFileError, match="wrong passphrase for key file"):
        ident.load_private(locked_file, None)


def test_existing_file_is_not_overwritten(anna, tmp_path):
    path = tmp_path / "anna.key"
    path.write_text("precious")
    with pytest.raises(UsageError, match="already exists"):
        ident.save_private(anna, path, None)
    assert path.read_text() == "precious"


def test_public_round_trip_and_fingerprint_in_file(anna, tmp_path):
    path = tmp_path / "anna.id"
    ident.save_public(anna.public, path)
    assert ident.load_public(path) == anna.public
    assert f'fingerprint = "{anna.public.fingerprint}"' in path.read_text()


def test_public_file_given_as_private(anna, tmp_path):
    path = tmp_path / "anna.id"
    ident.save_public(anna.public, path)
    with pytest.raises(KeyFileError, match="is a public identity file, not a private key file"):
        ident.load_private(path, None)


def test_private_file_given_as_public(anna, locked_file):
    with pytest.raises(KeyFileError, match="is a private key file, not a public identity file"):
        ident.load_public(locked_file)


def test_public_overwrite_never_replaces_a_private_key(anna, locked_file):
    before = locked_file.read_bytes()
    with pytest.raises(KeyFileError, match="is a private key file"):
        ident.save_public(anna.public, locked_file, overwrite=True)
    assert locked_file.read_bytes() == before


def test_public_overwrite_replaces_an_identity(anna, tmp_path):
    path = tmp_path / "me.id"
    ident.save_public(ident.generate("Old", "old@example.org").public, path)
    with pytest.raises(UsageError):
        ident.save_public(anna.public, path)
    ident.save_public(anna.public, path, overwrite=True)
    assert ident.load_public(path) == anna.public


def test_fingerprint_is_rederived_on_load(anna, tmp_path):
    path = tmp_path / "anna.id"
    ident.save_public(anna.public, path)
    text = path.read_text().replace(anna.public.fingerprint, "0000 0000 0000 0000 0000")
    path.write_text(text)
    with pytest.raises(KeyFileError, match="fingerprint .* does not match"):
        ident.load_public(path)


@pytest.mark.parametrize(
    "content, message",
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe", "not a text file"),
        (b"this is = = not toml", "not valid TOML"),
        (b'title = "a game"\n', "not a pbem file"),
        (b'kind = "pbem-game"\nversion = 1\n', "is a game file, not a private key file"),
        (b'kind = "recipe"\n', "is a 'recipe' file"),
        (b'kind = "pbem-private-key"\nversion = 99\n', "version 99"),
        (b"x" * (1024 * 1024 + 5), "larger than 1 MB"),
    ],
)
def test_junk_files_are_named_in_one_line(tmp_path, content, message):
    path = tmp_path / "junk"
    path.write_bytes(content)
    with pytest.raises(KeyFileError, match=message) as exc:
        ident.load_private(path, None)
    assert "\n" not in str(exc.value)


def test_missing_file(tmp_path):
    with pytest.raises(KeyFileError, match="not found"):
        ident.load_private(tmp_path / "nope.key", None)


def test_private_file_with_foreign_public_key_is_refused(anna, tmp_path):
    path = tmp_path / "anna.key"
    ident.save_private(anna, path, None)
    other = ident.generate("Boris", "boris@example.org").public
    path.write_text(path.read_text().replace(anna.public.sign_pub, other.sign_pub))
    with pytest.raises(KeyFileError, match="sign_pub does not belong"):
        ident.load_private(path, None)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"sign_pub": "abc"}, "sign_pub must be 64 lower-case hex digits"),
        ({"seal_pub": None}, "seal_pub must be 64 lower-case hex digits"),
        ({"name": ""}, "player name"),
        ({"email": "not an address"}, "not an e-mail address"),
    ],
)
def test_from_dict_validates(anna, change, message):
    d = {**anna.public.to_dict(), **change}
    with pytest.raises(KeyFileError, match=message):
        ident.PublicIdentity.from_dict(d)


def test_to_dict_from_dict_round_trip(anna):
    assert ident.PublicIdentity.from_dict(anna.public.to_dict()) == anna.public


def test_generate_refuses_bad_name(tmp_path):
    with pytest.raises(UsageError):
        ident.generate("Anna\nPetrova", "anna@example.org")


def test_crafted_scrypt_cost_is_refused_before_deriving(locked_file, tmp_path):
    # A file asking for n = 2**30 would need a terabyte of memory.
    path = tmp_path / "crafted.key"
    path.write_text(locked_file.read_text().replace("n = 32768", f"n = {2**30}"))
    with pytest.raises(KeyFileError, match="unsupported encryption parameters"):
        ident.load_private(path, "correct horse")
