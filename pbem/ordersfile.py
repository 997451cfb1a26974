"""Orders files: what ``pbem play --orders FILE`` reads.

An orders file is TOML with three entries and nothing else::

    orders = ["move 7Pz 3919 4019 4020", "end-move"]   # a list of order texts
    message = "Your move, Pavel."                       # optional, at most 2,000 characters
    [policies]                                          # optional standing orders: NAME = "VALUE"
    retreat = "first"

Anything else (another key, an order that is not text, a policy value that
is not text) is refused in one line naming it, before any order is tried.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.errors import UsageError
from pbem.fsutil import loads_toml, read_bounded

MAX_BYTES = 1 << 20
from pbem.protocol.schema import MESSAGE_LIMIT as MAX_MESSAGE  # the file format's limit
MAX_ORDERS = 1000
FIELDS = ("orders", "message", "policies")
_POLICY_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


@dataclass
class OrdersFile:
    orders: list[str] = field(default_factory=list)
    message: str = ""
    policies: dict[str, str] = field(default_factory=dict)

    def items(self) -> list[str]:
        """What the file asks for, in the order it is applied: the standing
        orders first (as ``policy NAME VALUE``), then the orders."""
        return [f"policy {k} {v}" for k, v in self.policies.items()] + list(self.orders)


def load(path: Path | str) -> OrdersFile:
    """Read and check an orders file; UsageError (one line) for any defect."""
    path = Path(path)
    raw = read_bounded(path, MAX_BYTES, "orders file", error=UsageError, error_large=UsageError)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text, not an orders file") from None
    return check(loads_toml(text, str(path), error=UsageError), str(path))


def check(data: dict[str, Any], name: str) -> OrdersFile:
    """An orders file's parsed TOML, checked entry by entry."""
    extra = sorted(set(data) - set(FIELDS))
    if extra:
        raise UsageError(f"{name}: unknown entry {extra[0]!r} (an orders file holds {', '.join(FIELDS)} only)")
    orders = data.get("orders", [])
    if not isinstance(orders, list):
        raise UsageError(f"{name}: `orders` must be a list of order texts")
    if len(orders) > MAX_ORDERS:
        raise UsageError(f"{name}: {len(orders)} orders; at most {MAX_ORDERS} in one file")
    for k, order in enumerate(orders, 1):
        if not isinstance(order, str):
            raise UsageError(f"{name}: order {k} is {_kind(order)}, not an order text (write it in quotes)")
        if _CONTROL.search(order) or "\n" in order:
            raise UsageError(f"{name}: order {k} holds a control character or a line break")
    message = data.get("message", "")
    if not isinstance(message, str):
        raise UsageError(f"{name}: `message` must be text, not {_kind(message)}")
    if len(message) > MAX_MESSAGE:
        raise UsageError(f"{name}: `message` has {len(message)} characters; at most {MAX_MESSAGE}")
    if _CONTROL.search(message):
        raise UsageError(f"{name}: `message` holds a control character")
    policies = data.get("policies", {})
    if not isinstance(policies, dict):
        raise UsageError(f"{name}: `policies` must be a table of NAME = \"VALUE\"")
    for key, value in policies.items():
        if not _POLICY_NAME.fullmatch(key):
            raise UsageError(f"{name}: policy name {key!r} is not a single word")
        if not isinstance(value, str):
            raise UsageError(f"{name}: policy {key} must be text (in quotes), not {_kind(value)}")
        if _CONTROL.search(value) or "\n" in value:
            raise UsageError(f"{name}: policy {key} holds a control character or a line break")
    return OrdersFile(list(orders), message, dict(policies))


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return f"a {type(value).__name__}"
