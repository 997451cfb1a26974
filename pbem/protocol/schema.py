"""What a ``pbem/1`` game file may hold, field by field (docs/FILE-FORMAT.md).

Anything the format does not define is refused by name before the replay
reads it: an unknown header key, an exchange field its kind does not carry,
an order entry's unknown key, a value of the wrong type, hex that is not
exactly lower-case digits of the right length.  The signatures make a file
tamper-evident, not well-formed: a hostile opponent signs whatever he likes,
so the shape of every field is checked here, once, and the replay may rely
on it.

Each check raises :class:`~pbem.errors.InvalidFile` with one line that
starts with ``where`` (the file and the exchange).
"""
from __future__ import annotations

import re
from typing import Any, Callable

from pbem.errors import InvalidFile, PbemError
from pbem.protocol.program import check_program

HEX64 = re.compile(r"[0-9a-f]{64}")
HEX128 = re.compile(r"[0-9a-f]{128}")
BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")
MAX_CHAIN = 1 << 16
"""The longest dice chain a file may announce (the program writes 256): an
audit hashes a disclosed seed ``chain_n`` times."""

Check = Callable[[Any, str], None]


def _type(typ: type, label: str) -> Check:
    def check(value: Any, where: str) -> None:
        if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
            raise InvalidFile(f"{where} should be {label}")
    return check


def _hex(pattern: re.Pattern[str], digits: int) -> Check:
    def check(value: Any, where: str) -> None:
        if not isinstance(value, str) or not pattern.fullmatch(value):
            raise InvalidFile(f"{where} should be exactly {digits} lower-case hex digits")
    return check


def _count(lo: int, hi: int) -> Check:
    def check(value: Any, where: str) -> None:
        _type(int, "an integer")(value, where)
        if not lo <= value <= hi:
            raise InvalidFile(f"{where} should be {lo} to {hi}, not {value}")
    return check


def _base64(value: Any, where: str) -> None:
    if not isinstance(value, str) or not value or len(value) % 4 or not BASE64.fullmatch(value):
        raise InvalidFile(f"{where} should be base64 text")


def _identity(value: Any, where: str) -> None:
    from pbem.protocol.identity import IDENTITY_FIELDS, PublicIdentity

    _table(value, where)
    _known(value, IDENTITY_FIELDS, where)
    try:
        PublicIdentity.from_dict(value, where=where)
    except PbemError as exc:
        raise InvalidFile(str(exc)) from None


def _table(value: Any, where: str) -> None:
    if not isinstance(value, dict):
        raise InvalidFile(f"{where} should be a table")


def _known(table: dict[str, Any], allowed: Any, where: str) -> None:
    extra = sorted(set(table) - set(allowed))
    if extra:
        raise InvalidFile(f"{where}: unknown field {extra[0]!r} (allowed: {', '.join(sorted(allowed))})")


def _str_list(value: Any, where: str) -> None:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidFile(f"{where} should be a list of names")


STR, INT, TABLE, LIST = _type(str, "text"), _type(int, "an integer"), _type(dict, "a table"), _type(list, "a list")
MESSAGE_LIMIT = 2000


def MESSAGE(value: Any, where: str) -> None:
    """A player's message: text of at most 2,000 characters (every input
    refuses longer; a file must not carry one either)."""
    STR(value, where)
    if len(value) > MESSAGE_LIMIT:
        raise InvalidFile(f"{where}: a message of {len(value)} characters; at most {MESSAGE_LIMIT}")
H64, H128 = _hex(HEX64, 64), _hex(HEX128, 128)
BOOL = _type(bool, "true or false")

# ------------------------------------------------------------------ header

HEADER_REQUIRED: dict[str, Check] = {
    "format": STR, "id": STR, "game": STR, "scenario": STR, "scenario_sha256": H64, "dice": STR, "sides": LIST,
}
HEADER_OPTIONAL: dict[str, Check] = {"options": TABLE, "invited": TABLE, "seats": TABLE, "position": TABLE,
                                     "features": _str_list, "program": check_program}


def check_header(header: dict[str, Any], name: str) -> None:
    """The ``[game]`` header of exchange 1 (read before the signature can
    be checked: the scenario is looked up by its name)."""
    where = f"{name}: game header"
    _known(header, HEADER_REQUIRED.keys() | HEADER_OPTIONAL.keys(), where)
    for key, check in HEADER_REQUIRED.items():
        if key not in header:
            raise InvalidFile(f"{name}: the game header lacks {key!r}")
        check(header[key], f"{where} field {key!r}")
    for key, check in HEADER_OPTIONAL.items():
        if key in header:
            check(header[key], f"{where} field {key!r}")
    sides = header["sides"]
    if not sides or not all(isinstance(s, str) and s for s in sides) or len(set(sides)) != len(sides):
        raise InvalidFile(f"{where} field 'sides' should list the sides by name, each once")
    if header["dice"] not in ("sealed", "immediate"):
        raise InvalidFile(f"{where}: unknown dice timing {header['dice']!r}")
    for seat, ident in header.get("invited", {}).items():
        if seat not in sides:
            raise InvalidFile(f"{where}: invites a player to {seat!r}, which is not a seat of this game")
        _identity(ident, f"{where}: invited {seat}")
    for seat, spec in header.get("seats", {}).items():
        w = f"{where}: seats.{seat}"
        if seat not in sides:
            raise InvalidFile(f"{where}: [seats] names {seat!r}, which is not a seat of this game")
        _table(spec, w)
        _known(spec, ("side", "roles"), w)
        STR(spec.get("side", ""), f"{w}.side")
        _str_list(spec.get("roles", []), f"{w}.roles")


# ---------------------------------------------------------------- exchanges

COMMON: dict[str, Check] = {
    "game_id": STR, "n": INT, "kind": STR, "side": STR, "prev": H64, "state": H64, "sig": H128,
}
CHAIN = _count(1, MAX_CHAIN)

def _team_copies(value: Any, where: str) -> None:
    """``team_sealed``: seat -> base64 of that seat's copy of the team part."""
    _table(value, where)
    if not value:
        raise InvalidFile(f"{where} should name at least one seat")
    for seat, blob in value.items():
        _base64(blob, f"{where}.{seat}")


# kind -> (required fields, optional fields), beyond COMMON.
SEALED: dict[str, Check] = {"sealed": _base64, "sealed_hash": H64}
KINDS: dict[str, tuple[dict[str, Check], dict[str, Check]]] = {
    "new": ({"game": TABLE, "player": _identity, "anchor": H64, "chain_n": CHAIN, **SEALED, "secret_commit": H64},
            {"message": MESSAGE}),
    "join": ({"player": _identity, "anchor": H64, "chain_n": CHAIN, **SEALED, "secret_commit": H64},
             {"orders": LIST, "message": MESSAGE}),
    "play": ({"reveal": H64, "orders": LIST, **SEALED},
             {"hidden_root": H64, "message": MESSAGE, "anchor": H64, "chain_n": CHAIN,
              "team_sealed": _team_copies, "team_hash": H64}),
    "disclose": ({"secrets": TABLE}, {}),
    "forfeit": ({"who": STR}, {}),
    "rewind-offer": ({"to": INT}, {}),
    "rewind": ({"to": INT}, {}),
    "rewind-decline": ({"to": INT}, {}),
}

ENTRY_FIELDS = ("side", "by", "order", "deferred", "skipped")
DISCLOSED = ("seed", "secret_seed", "nonce", "orders", "team")
"""What a disclosed sealed part may hold: the dice-chain seed, the secret
seed, the sealing nonce, the secret parts of orders, and the part the
sender sealed to its team (``{nonce, orders?}``)."""
ENTRY_BY = ("player", "policy", "private", "forced", "plan")


def allowed_fields(kind: str) -> list[str]:
    """Every field an exchange of ``kind`` may carry, sorted."""
    required, optional = KINDS[kind]
    return sorted(COMMON.keys() | required.keys() | optional.keys())


# Speed only: each kind's fields, worked out once.
_ALLOWED = {kind: frozenset(allowed_fields(kind)) for kind in KINDS}
_NEEDED = {kind: COMMON | required for kind, (required, _) in KINDS.items()}

def _is_hex(value: Any, digits: int) -> bool:
    """Speed only: True only of text HEX64 (HEX128) matches, found by a
    round trip in C, where the expression tries each character against its
    class: bytes.fromhex reads hex digits of either case (and spaces between
    pairs), .hex() writes them back lower-case and packed, so the text is
    given back only if it was exactly lower-case hex digits."""
    if type(value) is not str or len(value) != digits:
        return False
    try:
        return bytes.fromhex(value).hex() == value
    except ValueError:
        return False


# Speed only: for the usual checks, a test true only of values the check
# lets through (exact types), made without writing the line the check
# would need to refuse it; anything else goes to the check itself.
_PASSES: dict[Check, Callable[[Any], bool]] = {
    STR: lambda v: type(v) is str,
    INT: lambda v: type(v) is int,
    LIST: lambda v: type(v) is list,
    TABLE: lambda v: type(v) is dict,
    H64: lambda v: _is_hex(v, 64),
    H128: lambda v: _is_hex(v, 128),
    CHAIN: lambda v: type(v) is int and 1 <= v <= MAX_CHAIN,
    MESSAGE: lambda v: type(v) is str and len(v) <= MESSAGE_LIMIT,
    _base64: lambda v: type(v) is str and v != "" and not len(v) % 4 and BASE64.fullmatch(v) is not None,
}
_NEVER: Callable[[Any], bool] = lambda v: False
_PLAN = {kind: (tuple((key, _PASSES.get(check, _NEVER), check) for key, check in _NEEDED[kind].items()),
                tuple((key, _PASSES.get(check, _NEVER), check) for key, check in optional.items()))
         for kind, (_, optional) in KINDS.items()}


def check_exchange(ex: dict[str, Any], where: str) -> None:
    """One signed exchange: its kind, the fields that kind carries and no
    other, each of its type."""
    kind = ex.get("kind")
    if kind not in KINDS:
        raise InvalidFile(f"{where}: unknown kind {kind!r} (one of {', '.join(KINDS)})")
    if not _ALLOWED[kind].issuperset(ex):
        extra = sorted(set(ex) - _ALLOWED[kind])
        raise InvalidFile(f"{where}: unknown field {extra[0]!r} for a {kind} exchange "
                          f"(allowed: {', '.join(allowed_fields(kind))})")
    needed, optional = _PLAN[kind]
    for key, passes, check in needed:
        if key not in ex:
            raise InvalidFile(f"{where}: a {kind} exchange needs a {key!r} field")
        if not passes(ex[key]):
            check(ex[key], f"{where}: field {key!r}")
    for key, passes, check in optional:
        if key in ex and not passes(ex[key]):
            check(ex[key], f"{where}: field {key!r}")
    if kind == "play" and ("anchor" in ex) != ("chain_n" in ex):
        raise InvalidFile(f"{where}: a renewed dice chain needs both 'anchor' and 'chain_n'")
    if ex["n"] > 1 and "game" in ex:
        raise InvalidFile(f"{where}: only exchange 1 carries the game header")
    for k, entry in enumerate(ex.get("orders", []), 1):
        if not _plain_entry(entry):
            check_entry(entry, f"{where}: order entry {k}")
    if kind == "disclose":
        check_secrets(ex["secrets"], f"{where}: secrets")


_ENTRY_KEYS = frozenset(ENTRY_FIELDS)


def _plain_entry(entry: Any) -> bool:
    """Speed only: True for an entry :func:`check_entry` accepts, told by
    exact types alone, with no message written; False sends any other
    (a subclass, a fault) to check_entry, which names what is wrong."""
    if type(entry) is not dict or not _ENTRY_KEYS.issuperset(entry):
        return False
    get = entry.get     # an absent flag reads as False: a bool, as a present one must be
    return (type(get("side")) is str and get("by") in ENTRY_BY and type(get("order")) is dict
            and type(get("deferred", False)) is bool and type(get("skipped", False)) is bool)


def check_entry(entry: Any, where: str) -> None:
    """``{side, by, order, deferred?}``; the order itself is the game's to
    judge, but it must be a table."""
    _table(entry, where)
    _known(entry, ENTRY_FIELDS, where)
    for key in ("side", "by", "order"):
        if key not in entry:
            raise InvalidFile(f"{where} lacks {key!r}")
    STR(entry["side"], f"{where}: 'side'")
    if entry["by"] not in ENTRY_BY:
        raise InvalidFile(f"{where}: 'by' should be one of {', '.join(ENTRY_BY)}")
    _table(entry["order"], f"{where}: 'order'")
    for key in ("deferred", "skipped"):
        if key in entry:
            BOOL(entry[key], f"{where}: {key!r}")


def check_secrets(secrets: dict[str, Any], where: str) -> None:
    """A disclosure: ``{exchange number: {seed?, orders?}}``."""
    for n, part in secrets.items():
        w = f"{where}.{n}"
        if not re.fullmatch(r"[1-9][0-9]{0,8}", n):
            raise InvalidFile(f"{where}: {n!r} is not an exchange number")
        _table(part, w)
        _known(part, DISCLOSED, w)
        for key in ("seed", "secret_seed"):
            if key in part:
                H64(part[key], f"{w}.{key}")
        if "nonce" in part and not (isinstance(part["nonce"], str) and re.fullmatch(r"[0-9a-f]{32}", part["nonce"])):
            raise InvalidFile(f"{w}.nonce should be exactly 32 lower-case hex digits")
        if "team" in part:
            _table(part["team"], f"{w}.team")
            _known(part["team"], ("nonce", "orders"), f"{w}.team")
        if "orders" in part:
            TABLE(part["orders"], f"{w}.orders")
            for i in part["orders"]:
                if not re.fullmatch(r"0|[1-9][0-9]{0,8}", i):
                    raise InvalidFile(f"{w}.orders: {i!r} is not an order entry number")


def check_state_copy(state: dict[str, Any], name: str) -> None:
    """The ``[state]`` reading copy: its fields and their types (its values
    are compared with the replay's after it)."""
    where = f"{name}: [state]"
    _known(state, ("hash", "summary", "public"), where)
    if "hash" in state:
        H64(state["hash"], f"{where} hash")
    for key in ("summary", "public"):
        if key in state:
            STR(state[key], f"{where} {key}")
