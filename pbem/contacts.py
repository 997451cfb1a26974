"""Opponents' public identities kept in ``$PBEM_HOME/contacts/``.

``pbem contacts add pavel.id.toml`` shows the key's fingerprint (the first
time this player sees that key) and keeps a copy as ``contacts/pavel.id.toml``;
``pbem new ... --seat soviet=pavel`` then names him.  A contact's key is
pinned: a file that gives a known contact (the same contact name, or the
same email address) another key is refused with both fingerprints until
the player, having checked the new fingerprint with him, runs ``pbem
contacts accept pavel NEW.id.toml``; the replaced key is kept in
``contacts/replaced/``.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pbem.errors import UsageError

NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,39}")


class KeyChanged(UsageError):
    """A known contact with another key."""


def folder() -> Path:
    from pbem import session

    return session.home() / "contacts"


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", name.lower())[:40] or "player"


def check_name(name: str) -> str:
    if not NAME.fullmatch(name):
        raise UsageError(f"contact name {name!r}: use lower-case letters, digits, '.', '_' or '-' (at most 40)")
    return name


def path_of(name: str) -> Path:
    return folder() / f"{check_name(name)}.id.toml"


def load(name: str) -> Any | None:
    from pbem.protocol import identity

    path = path_of(name)
    return identity.load_public(path) if path.is_file() else None


def all_contacts() -> dict[str, Any]:
    from pbem.protocol import identity

    d = folder()
    out: dict[str, Any] = {}
    if d.is_dir():
        for p in sorted(d.glob("*.id.toml")):
            name = p.name[: -len(".id.toml")]
            if NAME.fullmatch(name):
                out[name] = identity.load_public(p)
    return out


def known_as(ident: Any) -> tuple[str, Any] | None:
    """The contact this identity claims to be: the one with its key, else
    the one with its email address (case aside)."""
    contacts = all_contacts()
    for name, kept in contacts.items():
        if kept.sign_pub == ident.sign_pub:
            return name, kept
    for name, kept in contacts.items():
        if kept.email.lower() == ident.email.lower():
            return name, kept
    return None


def changed(name: str, kept: Any, new: Any, source: str) -> KeyChanged:
    return KeyChanged(
        f"{name}'s key changed: you keep {kept.fingerprint}, {source} has {new.fingerprint}; refused. "
        f"Check the new fingerprint with {kept.name} (phone, in person), then `pbem contacts accept {name} FILE`")


def check(ident: Any, source: str) -> str | None:
    """Refuse an identity that gives a known contact another key; the
    contact's name when it is one, None for a key seen for the first time."""
    found = known_as(ident)
    if found is None:
        return None
    name, kept = found
    if kept.sign_pub != ident.sign_pub or kept.seal_pub != ident.seal_pub:
        raise changed(name, kept, ident, source)
    return name


def add(path: Path, name: str | None = None) -> tuple[str, Any, bool]:
    """Keep the identity in ``path`` as a contact: ``(name, identity, new)``;
    ``new`` is False when it is already kept with this key.  A known
    contact with another key is refused (:class:`KeyChanged`)."""
    from pbem.protocol import identity

    ident = identity.load_public(path)
    if name is None:
        found = known_as(ident)
        name = found[0] if found else slug(ident.name)
    check_name(name)
    kept = load(name)
    if kept is not None:
        if kept.sign_pub != ident.sign_pub or kept.seal_pub != ident.seal_pub:
            raise changed(name, kept, ident, str(path))
        return name, ident, False
    other = check(ident, str(path))
    if other is not None and other != name:
        raise UsageError(f"this key is already your contact {other!r}")
    folder().mkdir(parents=True, exist_ok=True, mode=0o700)
    identity.save_public(ident, path_of(name))
    return name, ident, True


def accept(name: str, path: Path) -> tuple[Any, Any]:
    """Replace contact ``name``'s key by the one in ``path`` (the old file
    moved to ``contacts/replaced/``): ``(old, new)``."""
    import os

    from pbem.protocol import identity

    kept = load(name)
    if kept is None:
        raise UsageError(f"no contact {name!r} (`pbem contacts list`); `pbem contacts add FILE` keeps a new one")
    new = identity.load_public(path)
    if new.sign_pub == kept.sign_pub and new.seal_pub == kept.seal_pub:
        raise UsageError(f"{path} holds the key you already keep for {name}: nothing to accept")
    for other, ident in all_contacts().items():
        if other != name and ident.sign_pub == new.sign_pub:
            raise UsageError(f"this key is already your contact {other!r}")
    old_dir = folder() / "replaced"
    old_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    stamp = kept.fingerprint.replace(" ", "")
    staged = folder() / f".{name}.new.id.toml"
    staged.unlink(missing_ok=True)
    identity.save_public(new, staged)            # written whole before anything moves
    moved = old_dir / f"{name}-{stamp}.id.toml"
    if not moved.exists():
        os.link(path_of(name), moved)
    os.replace(staged, path_of(name))
    return kept, new


def resolve(spec: str) -> Any | None:
    """The contact a ``--seat`` value names, or None when it is no
    contact name (then it is a path)."""
    if "/" in spec or spec.endswith(".toml") or not NAME.fullmatch(spec):
        return None
    return load(spec)
