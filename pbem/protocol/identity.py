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
named for what it is rather than failing obscurely.  The files are
:mod:`pbem.protocol.keyfile`'s job; its functions are re-exported here.
``cryptography`` is imported inside functions so that the CLI starts fast.
"""
from __future__ import annotations

import hashlib
import re
from typing import Any

from pbem.errors import KeyFileError, UsageError

__all__ = [
    "PRIVATE_KIND",
    "PUBLIC_KIND",
    "PublicIdentity",
    "Identity",
    "IDENTITY_FIELDS",
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

IDENTITY_FIELDS = ("name", "email", "sign_pub", "seal_pub", "fingerprint")
"""Every field of a public identity table (in a game file or an identity file)."""

# Exactly lower-case hex: one spelling per key, as the program writes it.
_HEX32 = re.compile(r"[0-9a-f]{64}")
# The control characters no name or address may hold (a set, not a regular
# expression: speed only, one compile fewer at every start).
_CONTROL = frozenset(map(chr, [*range(0x20), 0x7F]))

_FILE_API = ("FORMAT_VERSION", "MAX_FILE_BYTES", "SCRYPT_N", "SCRYPT_R", "SCRYPT_P",
             "save_private", "load_private", "is_encrypted", "save_public", "load_public")


def fingerprint_of(sign_pub_raw: bytes) -> str:
    """``"3F2A 91C0 ..."``: 20 hex digits of SHA-256 of the raw Ed25519 public
    key, upper-case, in five groups of four."""
    digits = hashlib.sha256(sign_pub_raw).hexdigest()[:20].upper()
    return " ".join(digits[i : i + 4] for i in range(0, 20, 4))


def _check_person(name: Any, email: Any, where: str) -> None:
    """A name and e-mail address fit for one line of a sitrep or a mail header."""
    if not isinstance(name, str) or not name.strip() or not _CONTROL.isdisjoint(name):
        raise KeyFileError(f"{where}: player name must be a non-empty single line")
    if (
        not isinstance(email, str)
        or not _CONTROL.isdisjoint(email)
        or " " in email
        or email.count("@") != 1 or email.startswith("@") or email.endswith("@")    # not text@text
    ):
        raise KeyFileError(f"{where}: {email!r} is not an e-mail address")


def _hex_key(d: dict[str, Any], key: str, where: str) -> str:
    value = d.get(key)
    if not isinstance(value, str) or not _HEX32.fullmatch(value):
        raise KeyFileError(f"{where}: {key} must be 64 lower-case hex digits (a raw 32-byte key)")
    return value


# Speed only: each player's public key object, made once per program (a
# replay checks one signature per exchange with one of a few keys).
_VERIFIERS: dict[str, Any] = {}


class PublicIdentity:
    """What everyone may know of a player: name, e-mail and the two public
    keys as lower-case hex of their raw 32 bytes."""

    # A plain class, not a frozen dataclass (speed only: the generated
    # methods were compiled at every start of a command).  The same
    # behaviour: read-only fields, equal and hashed by their values.
    name: str
    email: str
    sign_pub: str
    seal_pub: str

    def __init__(self, name: str, email: str, sign_pub: str, seal_pub: str) -> None:
        # Straight into the instance's dict: __setattr__ refuses.
        self.__dict__.update(name=name, email=email, sign_pub=sign_pub, seal_pub=seal_pub)

    def __eq__(self, other: object) -> bool:
        # The four fields, in their order, are the instance's dict.
        return vars(self) == vars(other) if other.__class__ is self.__class__ else NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(vars(self).values()))

    def __repr__(self) -> str:
        return "PublicIdentity(" + ", ".join(f"{key}={value!r}" for key, value in vars(self).items()) + ")"

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a public identity")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a public identity")

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
        if claimed is not None and (not isinstance(claimed, str) or claimed != ident.fingerprint):
            raise KeyFileError(
                f"{where}: fingerprint {claimed!r} does not match its key ({ident.fingerprint})"
            )
        return ident

    def verify(self, message: bytes, signature: bytes) -> bool:
        """Whether ``signature`` is this player's Ed25519 signature of ``message``."""
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.asymmetric import ed25519

        try:
            key = _VERIFIERS.get(self.sign_pub)
            if key is None:
                key = ed25519.Ed25519PublicKey.from_public_bytes(self.sign_pub_raw)
                if len(_VERIFIERS) >= 64:
                    _VERIFIERS.clear()
                _VERIFIERS[self.sign_pub] = key
            key.verify(bytes(signature), bytes(message))
        except (InvalidSignature, ValueError):
            return False
        return True


class Identity:
    """A player's own identity with both private keys (raw 32 bytes each)."""

    # A plain class, not a dataclass, for the reason PublicIdentity is;
    # equal by every field, and its repr never shows a key.

    def __init__(self, name: str, email: str, sign_key: bytes, seal_key: bytes) -> None:
        self.name = name
        self.email = email
        self.sign_key = sign_key
        self.seal_key = seal_key
        self._public: PublicIdentity | None = None

    def known_public(self, public: PublicIdentity) -> None:
        """Take ``public`` as :attr:`public`, already checked to be the one
        the private keys give (speed only: by :mod:`pbem.protocol.early`'s
        worker, so that this process needs no cryptography to know it)."""
        self._public = public

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Identity) or other.__class__ is not self.__class__:
            return NotImplemented
        return ((self.name, self.email, self.sign_key, self.seal_key)
                == (other.name, other.email, other.sign_key, other.seal_key))

    def __repr__(self) -> str:
        return f"Identity(name={self.name!r}, email={self.email!r})"

    @property
    def public(self) -> PublicIdentity:
        if self._public is not None:
            return self._public
        from cryptography.hazmat.primitives.asymmetric import ed25519

        sign_pub = ed25519.Ed25519PrivateKey.from_private_bytes(self.sign_key).public_key()
        seal_pub = x25519_private(self.seal_key).public_key()
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


def x25519_private(raw: bytes) -> Any:
    """``X25519PrivateKey.from_private_bytes(raw)``, the same key object,
    without importing cryptography's OpenSSL backend module (~4 ms at the
    start of every command that loads a key), which that call imports only
    to ask whether FIPS mode forbids X25519: the binding answers that as the
    backend does, and in FIPS mode the public call refuses in its own
    words."""
    from cryptography.hazmat.bindings._rust import openssl as rust_openssl

    if rust_openssl.is_fips_enabled():
        from cryptography.hazmat.primitives.asymmetric import x25519

        return x25519.X25519PrivateKey.from_private_bytes(raw)
    return rust_openssl.x25519.from_private_bytes(raw)


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


def __getattr__(name: str) -> Any:
    """The key-file functions and constants, from :mod:`pbem.protocol.keyfile`
    (imported on first use: it imports this module)."""
    if name in _FILE_API:
        from pbem.protocol import keyfile

        return getattr(keyfile, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
