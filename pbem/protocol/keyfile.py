"""Key files: a player's private key file and public identity files.

The *private key file* holds both private keys, optionally under a passphrase
(scrypt, then ChaCha20-Poly1305).  It is created with mode 0600, written
atomically, and never overwrites an existing file: losing a key ends every game
it plays.  The *public identity file* is what a player gives his opponents.

Both files are TOML with a ``kind`` line, so a file given in the wrong place is
named for what it is rather than failing obscurely; a field either kind does
not define is refused by name.  Reading is bounded (1 MB, regular files only,
nesting bounded).  ``from pbem.protocol.identity import load_public`` and the
like keep working: :mod:`pbem.protocol.identity` re-exports these.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Callable

from pbem.errors import KeyFileError, UsageError
from pbem.fsutil import fsync_dir, loads_toml, read_bounded
from pbem.protocol.identity import (
    _HEX32, IDENTITY_FIELDS, PRIVATE_KIND, PUBLIC_KIND, Identity, PublicIdentity, _check_person, _hex_key,
)
from pbem.protocol.early import KEY_GOOD, KEY_SEAL, KEY_SIGN

__all__ = ["FORMAT_VERSION", "MAX_FILE_BYTES", "save_private", "load_private", "is_encrypted", "save_public",
           "load_public"]

FORMAT_VERSION = 1
MAX_FILE_BYTES = 1 << 20

# Scrypt cost for a key file passphrase: 2**15 x 8 is about 32 MiB and a
# tenth of a second, the usual interactive setting.  Files with other costs
# load, within bounds that stop a crafted file from exhausting memory.
SCRYPT_N = 2**15
SCRYPT_R = 8
SCRYPT_P = 1
_SCRYPT_N_RANGE = (2**10, 2**20)
_KEY_AAD = b"pbem/private-key/v1"

_KIND_NAMES = {
    PUBLIC_KIND: "a public identity file",
    PRIVATE_KIND: "a private key file",
    "pbem-game": "a game file",
}

_PUBLIC_FIELDS = ("kind", "version", *IDENTITY_FIELDS)
_PRIVATE_FIELDS = (*_PUBLIC_FIELDS, "sign_key", "seal_key", "encrypted")
_ENCRYPTED_FIELDS = ("kdf", "n", "r", "p", "salt", "cipher", "nonce", "ciphertext")


def _write_new(path: Path, text: str, mode: int, *, replace: bool = False) -> None:
    """Write ``text`` to a new file at ``path`` with ``mode``, atomically.

    Unless ``replace`` is set, the name is first claimed with
    O_CREAT|O_EXCL, so an existing file (a key that may be the only copy) is
    never replaced, not even by a race.  The content then goes to a temporary
    file in the same folder, is synced, and is renamed over the claim: a
    crash leaves either nothing useful written or the whole file, never a
    truncated key.
    """
    import tempfile

    folder = path.parent
    claimed = False
    if not replace:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        except FileExistsError:
            raise UsageError(f"{path} already exists; it will not be overwritten") from None
        except OSError as exc:
            raise UsageError(f"cannot create {path}: {exc.strerror}") from None
        os.close(fd)
        claimed = True
    tmp_name = None
    try:
        tmp_fd, tmp_name = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(tmp_fd, "w", encoding="utf-8", newline="\n") as fh:
            os.fchmod(fh.fileno(), mode)
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp_name, path)
        tmp_name = None
        fsync_dir(folder)
    except OSError as exc:
        if claimed:
            path.unlink(missing_ok=True)
        raise UsageError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        if tmp_name is not None:
            Path(tmp_name).unlink(missing_ok=True)


def _read_toml(path: Path, what: str) -> dict[str, Any]:
    """The parsed TOML at ``path``; any failure is one KeyFileError line.
    Only a regular file is opened (a FIFO or a device is refused without
    blocking), and no more than 1 MB and a byte is read."""
    if not path.exists() and not path.is_symlink():
        raise KeyFileError(f"{what} {path} not found")
    raw = read_bounded(path, MAX_FILE_BYTES, what, error=KeyFileError, error_large=KeyFileError)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise KeyFileError(f"{path} is not a text file (not UTF-8): not a {what}") from None
    # The game file's fast reader takes the plain TOML these files are
    # written in, without importing tomllib (~5 ms at every start of a
    # command that loads the key); what it gives up on, tomllib reads or
    # refuses.  Its nesting is bounded well under fsutil.MAX_DEPTH.
    from pbem.protocol import fasttoml

    data = fasttoml.loads(text)
    if data is not None:
        return data
    return loads_toml(text, f"{path}: not a {what}", error=KeyFileError)


def _only(data: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
    extra = sorted(set(data) - set(allowed))
    if extra:
        raise KeyFileError(f"{where}: unknown field {extra[0]!r} (allowed: {', '.join(allowed)})")


def _strict_hex(enc: dict[str, Any], key: str, path: Path) -> bytes:
    value = enc.get(key)
    if not isinstance(value, str) or not re.fullmatch(r"(?:[0-9a-f]{2})+", value):
        raise KeyFileError(f"key file {path}: encryption field {key} must be lower-case hex")
    return bytes.fromhex(value)


def _expect_kind(data: dict[str, Any], kind: str, path: Path, what: str) -> None:
    found = data.get("kind")
    if found == kind:
        version = data.get("version")
        if version != FORMAT_VERSION:
            raise KeyFileError(
                f"{what} {path} has version {version!r}; this pbem reads version {FORMAT_VERSION}"
            )
        return
    if isinstance(found, str) and found in _KIND_NAMES:
        raise KeyFileError(f"{path} is {_KIND_NAMES[found]}, not {'a ' + what}")
    if isinstance(found, str):
        raise KeyFileError(f"{path} is a {found!r} file, not a {what}")
    raise KeyFileError(f"{path} is not a pbem file (no kind line): not a {what}")


def _derive_passphrase_key(passphrase: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

    return Scrypt(salt=salt, length=32, n=n, r=r, p=p).derive(passphrase.encode("utf-8"))


def save_private(identity: Identity, path: str | os.PathLike[str], passphrase: str | None) -> None:
    """Write ``identity``'s private key file (mode 0600, never over an
    existing file).  With a passphrase the two keys are encrypted; without
    one they are stored as hex and the file mode is all that protects them."""
    import tomli_w

    path = Path(path)
    public = identity.public
    data: dict[str, Any] = {
        "kind": PRIVATE_KIND,
        "version": FORMAT_VERSION,
        "name": identity.name,
        "email": identity.email,
        "sign_pub": public.sign_pub,
        "seal_pub": public.seal_pub,
        "fingerprint": public.fingerprint,
    }
    secret = bytes(identity.sign_key) + bytes(identity.seal_key)
    if passphrase:
        from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

        salt, nonce = os.urandom(16), os.urandom(12)
        key = _derive_passphrase_key(passphrase, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
        data["encrypted"] = {
            "kdf": "scrypt",
            "n": SCRYPT_N,
            "r": SCRYPT_R,
            "p": SCRYPT_P,
            "salt": salt.hex(),
            "cipher": "chacha20-poly1305",
            "nonce": nonce.hex(),
            "ciphertext": ChaCha20Poly1305(key).encrypt(nonce, secret, _KEY_AAD).hex(),
        }
    else:
        data["sign_key"] = identity.sign_key.hex()
        data["seal_key"] = identity.seal_key.hex()
    header = "# pbem private key: keep this file secret and backed up.\n"
    _write_new(path, header + tomli_w.dumps(data), 0o600)


def is_encrypted(path: str | os.PathLike[str]) -> bool:
    """Whether the private key file at ``path`` needs a passphrase (so the
    CLI knows whether to ask for one)."""
    path = Path(path)
    data = _read_toml(path, "private key file")
    _expect_kind(data, PRIVATE_KIND, path, "private key file")
    return "encrypted" in data


def _decrypt_keys(enc: Any, passphrase: str | None, path: Path) -> bytes:
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    known = isinstance(enc, dict) and (enc.get("kdf"), enc.get("cipher")) == (
        "scrypt",
        "chacha20-poly1305",
    )
    if not known:
        raise KeyFileError(f"key file {path}: unknown key encryption")
    _only(enc, _ENCRYPTED_FIELDS, f"key file {path}: [encrypted]")
    n, r, p = (enc.get(k) for k in ("n", "r", "p"))
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (n, r, p)):
        raise KeyFileError(f"key file {path}: damaged encryption parameters")
    salt, nonce, ciphertext = (_strict_hex(enc, k, path) for k in ("salt", "nonce", "ciphertext"))
    lo, hi = _SCRYPT_N_RANGE
    sane = lo <= n <= hi and n & (n - 1) == 0 and 1 <= r <= 32 and 1 <= p <= 16
    if not sane or len(nonce) != 12:
        raise KeyFileError(f"key file {path}: unsupported encryption parameters")
    if not passphrase:
        raise KeyFileError(f"wrong passphrase for key file {path} (none given)")
    key = _derive_passphrase_key(passphrase, salt, n, r, p)
    try:
        secret = ChaCha20Poly1305(key).decrypt(nonce, ciphertext, _KEY_AAD)
    except InvalidTag:
        raise KeyFileError(f"wrong passphrase for key file {path}") from None
    if len(secret) != 64:
        raise KeyFileError(f"key file {path}: damaged keys")
    return secret


def load_private(path: str | os.PathLike[str], passphrase: str | None,
                 check_later: Callable[[bytes, bytes, str, str], bool] | None = None) -> Identity:
    """Read a private key file.  Raises KeyFileError for a file of another
    kind, a damaged file, or a wrong or missing passphrase.

    ``check_later`` (speed only: :func:`pbem.protocol.early.hand_key`) may
    take on the check that the stored public halves are the ones the private
    keys give (handed the private keys, raw, and the stored halves, hex):
    if it does (True), the identity takes its stored halves as its public
    one, and :func:`check_halves` must settle the check before anything the
    command does is reported.  A key file that is not passphrase-protected
    then needs no cryptography here."""
    path = Path(path)
    data = _read_toml(path, "private key file")
    _expect_kind(data, PRIVATE_KIND, path, "private key file")
    where = f"key file {path}"
    _only(data, _PRIVATE_FIELDS, where)
    _check_person(data.get("name"), data.get("email"), where)
    if "encrypted" in data:
        secret = _decrypt_keys(data["encrypted"], passphrase, path)
        sign_key, seal_key = secret[:32], secret[32:]
    else:
        sign_key = bytes.fromhex(_hex_key(data, "sign_key", where))
        seal_key = bytes.fromhex(_hex_key(data, "seal_key", where))
    identity = Identity(data["name"], data["email"], sign_key, seal_key)
    # The public halves are stored beside the private ones for reading;
    # they must be the ones the private keys give.
    if check_later is not None and "encrypted" not in data and all(
            isinstance(data.get(key), str) and _HEX32.fullmatch(data[key]) for key in ("sign_pub", "seal_pub")):
        stored = PublicIdentity(data["name"], data["email"], data["sign_pub"], data["seal_pub"])
        if check_later(sign_key, seal_key, stored.sign_pub, stored.seal_pub):
            identity.known_public(stored)
            return identity
    _refuse_halves(where, identity.public, data)
    return identity


def check_halves(identity: Identity, path: str | os.PathLike[str], verdict: int | None) -> None:
    """Settle the check :func:`load_private` left for later on ``identity``,
    loaded from ``path``: ``verdict`` is its answer (``KEY_GOOD`` ...: see
    :mod:`pbem.protocol.early`), or None to make it here.  Raises what
    :func:`load_private` would have raised."""
    stored = identity.public
    if verdict is None or verdict not in (KEY_GOOD, KEY_SIGN, KEY_SEAL):
        _refuse_halves(f"key file {Path(path)}", Identity(identity.name, identity.email, identity.sign_key,
                                                           identity.seal_key).public, vars(stored))
    elif verdict != KEY_GOOD:
        key = "sign_pub" if verdict == KEY_SIGN else "seal_pub"
        raise KeyFileError(f"key file {Path(path)}: {key} does not belong to its private key")


def _refuse_halves(where: str, public: PublicIdentity, stored: dict[str, Any]) -> None:
    for key in ("sign_pub", "seal_pub"):
        if key in stored and stored[key] != getattr(public, key):
            raise KeyFileError(f"{where}: {key} does not belong to its private key")


def save_public(
    public: PublicIdentity, path: str | os.PathLike[str], *, overwrite: bool = False
) -> None:
    """Write a public identity file to give to opponents (mode 0644).  It
    refuses to replace an existing file unless ``overwrite`` is set, so a
    slip of the path cannot destroy a private key."""
    import tomli_w

    path = Path(path)
    data = {"kind": PUBLIC_KIND, "version": FORMAT_VERSION, **public.to_dict()}
    text = "# pbem public identity: give this file to your opponents.\n" + tomli_w.dumps(data)
    replace = overwrite and path.exists()
    if replace:
        # Only ever replace another public identity, never a private key.
        existing = _read_toml(path, "public identity file")
        _expect_kind(existing, PUBLIC_KIND, path, "public identity file")
    _write_new(path, text, 0o644, replace=replace)


def load_public(path: str | os.PathLike[str]) -> PublicIdentity:
    """Read a public identity file; the fingerprint is re-derived and checked."""
    path = Path(path)
    data = _read_toml(path, "public identity file")
    _expect_kind(data, PUBLIC_KIND, path, "public identity file")
    _only(data, _PUBLIC_FIELDS, f"identity file {path}")
    return PublicIdentity.from_dict(data, where=f"identity file {path}")
