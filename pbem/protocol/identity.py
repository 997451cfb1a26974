"""Player identities: who signs an exchange, and to whom private parts are sealed.

An identity is two key pairs (PROTOCOL.md, "Identities and signatures"):

* an Ed25519 pair that signs every exchange the player sends;
* an X25519 pair to which the player's hidden state (blocks, chits in the cup,
  the dice-chain seed) is sealed inside the shared game file.

The *public identity* (name, e-mail, both public keys) goes into the game file
and is swapped between players; its *fingerprint*, the first 20 hex digits of
SHA-256 of the Ed25519 public key in groups of four, is what two players read
to each other over the phone to be sure the file names the right opponent.

The *private key file* holds both private keys, optionally under a passphrase
(scrypt, then ChaCha20-Poly1305).  It is created with mode 0600, written
atomically, and never overwrites an existing file: losing a key ends every game
it plays.

Both files are TOML with a ``kind`` line, so a file given in the wrong place is
named for what it is rather than failing obscurely.  ``cryptography`` is
imported inside functions so that the CLI starts fast.
"""
from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.fsutil import fsync_dir
from pbem.errors import KeyFileError, UsageError

__all__ = [
    "PRIVATE_KIND",
    "PUBLIC_KIND",
    "PublicIdentity",
    "Identity",
    "fingerprint_of",
    "generate",
    "save_private",
    "load_private",
    "is_encrypted",
    "save_public",
    "load_public",
]

PRIVATE_KIND = "pbem-private-key"
PUBLIC_KIND = "pbem-identity"
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

_HEX32 = re.compile(r"[0-9a-fA-F]{64}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

_KIND_NAMES = {
    PUBLIC_KIND: "a public identity file",
    PRIVATE_KIND: "a private key file",
    "pbem-game": "a game file",
}


def fingerprint_of(sign_pub_raw: bytes) -> str:
    """``"3F2A 91C0 ..."``: 20 hex digits of SHA-256 of the raw Ed25519 public
    key, upper-case, in five groups of four."""
    digits = hashlib.sha256(sign_pub_raw).hexdigest()[:20].upper()
    return " ".join(digits[i : i + 4] for i in range(0, 20, 4))


def _check_person(name: Any, email: Any, where: str) -> None:
    """A name and e-mail address fit for one line of a sitrep or a mail header."""
    if not isinstance(name, str) or not name.strip() or _CONTROL.search(name):
        raise KeyFileError(f"{where}: player name must be a non-empty single line")
    if (
        not isinstance(email, str)
        or _CONTROL.search(email)
        or " " in email
        or not re.fullmatch(r"[^@]+@[^@]+", email)
    ):
        raise KeyFileError(f"{where}: {email!r} is not an e-mail address")


def _hex_key(d: dict[str, Any], key: str, where: str) -> str:
    value = d.get(key)
    if not isinstance(value, str) or not _HEX32.fullmatch(value):
        raise KeyFileError(f"{where}: {key} must be 64 hex digits (a raw 32-byte key)")
    return value.lower()


@dataclass(frozen=True)
class PublicIdentity:
    """What everyone may know of a player: name, e-mail and the two public
    keys as lower-case hex of their raw 32 bytes."""

    name: str
    email: str
    sign_pub: str
    seal_pub: str

    @property
    def sign_pub_raw(self) -> bytes:
        return bytes.fromhex(self.sign_pub)

    @property
    def seal_pub_raw(self) -> bytes:
        return bytes.fromhex(self.seal_pub)

    @property
    def fingerprint(self) -> str:
        return fingerprint_of(self.sign_pub_raw)

    def to_dict(self) -> dict[str, str]:
        """The identity as a table for a game or identity file; the
        fingerprint is included for people to read and re-checked on load."""
        return {
            "name": self.name,
            "email": self.email,
            "sign_pub": self.sign_pub,
            "seal_pub": self.seal_pub,
            "fingerprint": self.fingerprint,
        }

    @classmethod
    def from_dict(cls, d: Any, where: str = "identity") -> PublicIdentity:
        """Check and build an identity from a table.  Raises KeyFileError
        with one line saying what is wrong."""
        if not isinstance(d, dict):
            raise KeyFileError(f"{where}: an identity must be a table")
        _check_person(d.get("name"), d.get("email"), where)
        ident = cls(
            name=d["name"],
            email=d["email"],
            sign_pub=_hex_key(d, "sign_pub", where),
            seal_pub=_hex_key(d, "seal_pub", where),
        )
        claimed = d.get("fingerprint")
        if claimed is not None and claimed != ident.fingerprint:
            raise KeyFileError(
                f"{where}: fingerprint {claimed!r} does not match its key ({ident.fingerprint})"
            )
        return ident

    def verify(self, message: bytes, signature: bytes) -> bool:
        """Whether ``signature`` is this player's Ed25519 signature of ``message``."""
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.asymmetric import ed25519

        try:
            key = ed25519.Ed25519PublicKey.from_public_bytes(self.sign_pub_raw)
            key.verify(bytes(signature), bytes(message))
        except (InvalidSignature, ValueError):
            return False
        return True


@dataclass
class Identity:
    """A player's own identity with both private keys (raw 32 bytes each)."""

    name: str
    email: str
    sign_key: bytes = field(repr=False)
    seal_key: bytes = field(repr=False)

    @property
    def public(self) -> PublicIdentity:
        from cryptography.hazmat.primitives.asymmetric import ed25519, x25519

        sign_pub = ed25519.Ed25519PrivateKey.from_private_bytes(self.sign_key).public_key()
        seal_pub = x25519.X25519PrivateKey.from_private_bytes(self.seal_key).public_key()
        return PublicIdentity(
            name=self.name,
            email=self.email,
            sign_pub=sign_pub.public_bytes_raw().hex(),
            seal_pub=seal_pub.public_bytes_raw().hex(),
        )

    @property
    def fingerprint(self) -> str:
        return self.public.fingerprint

    def sign(self, message: bytes) -> bytes:
        """The 64-byte Ed25519 signature of ``message``."""
        from cryptography.hazmat.primitives.asymmetric import ed25519

        return ed25519.Ed25519PrivateKey.from_private_bytes(self.sign_key).sign(bytes(message))

    def unseal(self, blob: bytes, game_id: str, exchange_no: int) -> bytes:
        """Open a part of ``game_id``'s exchange ``exchange_no`` sealed to this player."""
        from pbem.protocol.seal import unseal

        return unseal(self.seal_key, blob, game_id, exchange_no)


def generate(name: str, email: str) -> Identity:
    """A new identity with fresh key pairs from the OS random source."""
    from cryptography.hazmat.primitives.asymmetric import ed25519, x25519

    try:
        _check_person(name, email, "new identity")
    except KeyFileError as exc:
        raise UsageError(str(exc)) from None
    return Identity(
        name=name,
        email=email,
        sign_key=ed25519.Ed25519PrivateKey.generate().private_bytes_raw(),
        seal_key=x25519.X25519PrivateKey.generate().private_bytes_raw(),
    )


# --- files ------------------------------------------------------------------


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
    """The parsed TOML at ``path``; any failure is one KeyFileError line."""
    import tomllib

    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise KeyFileError(f"{what} {path} not found") from None
    except IsADirectoryError:
        raise KeyFileError(f"{what} {path} is a folder, not a file") from None
    except OSError as exc:
        raise KeyFileError(f"cannot read {what} {path}: {exc.strerror}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise KeyFileError(f"{path} is larger than 1 MB: not a {what}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise KeyFileError(f"{path} is not a text file (not UTF-8): not a {what}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise KeyFileError(f"{path} is not TOML ({exc}): not a {what}") from None


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
    try:
        n, r, p = (int(enc[k]) for k in ("n", "r", "p"))
        salt = bytes.fromhex(enc["salt"])
        nonce = bytes.fromhex(enc["nonce"])
        ciphertext = bytes.fromhex(enc["ciphertext"])
    except (KeyError, TypeError, ValueError):
        raise KeyFileError(f"key file {path}: damaged encryption parameters") from None
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


def load_private(path: str | os.PathLike[str], passphrase: str | None) -> Identity:
    """Read a private key file.  Raises KeyFileError for a file of another
    kind, a damaged file, or a wrong or missing passphrase."""
    path = Path(path)
    data = _read_toml(path, "private key file")
    _expect_kind(data, PRIVATE_KIND, path, "private key file")
    where = f"key file {path}"
    _check_person(data.get("name"), data.get("email"), where)
    if "encrypted" in data:
        secret = _decrypt_keys(data["encrypted"], passphrase, path)
        sign_key, seal_key = secret[:32], secret[32:]
    else:
        sign_key = bytes.fromhex(_hex_key(data, "sign_key", where))
        seal_key = bytes.fromhex(_hex_key(data, "seal_key", where))
    identity = Identity(data["name"], data["email"], sign_key, seal_key)
    public = identity.public
    # The public halves are stored beside the private ones for reading;
    # they must be the ones the private keys give.
    for key in ("sign_pub", "seal_pub"):
        if key in data and str(data[key]).lower() != getattr(public, key):
            raise KeyFileError(f"{where}: {key} does not belong to its private key")
    return identity


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
    return PublicIdentity.from_dict(data, where=f"identity file {path}")
