"""Hidden information, kept by the core for every game.

A game declares, per seat, its hidden items (``Rules.hidden_items``: public
handle -> secret value), a fixed tree width (``Rules.hidden_width``), what
makes an item unique (``identity_of``) and the constraints an opened item
must meet (``check_opening``).  The core does the rest:

* **Commit.**  After every exchange a seat sends, its program commits all of
  the seat's hidden items at once as one root
  (:class:`pbem.protocol.secret.HiddenTree`), with fresh salts derived from
  the seat's secret seed and the commit's number (its *epoch*).  The root is
  published whether or not anything changed, over a tree of the same width
  every time, so nobody learns which item changed, or whether one did.
* **Open.**  An order that shows items (``order["open"] = [handles]``, e.g.
  blocks revealed at a showdown) is given, by the owner's program, a fresh
  root of the items as they stand and an opening of each named item.  Every
  program checks each opening against that root, the game's constraints,
  and that no item is opened under two handles, before the game sees it.
* **Audit.**  A program that knows a seat's seed and hidden part (the
  owner's own, or anyone's at the audit) rebuilds every root the seat
  published and refuses the first one that differs.

What cannot be checked live (a root committing to items the seat does not
have) is caught at the audit, which cannot be skipped.  The public engine
state carries, per seat, the current root, the epoch, and which identities
have been opened under which handle.
"""
from __future__ import annotations

import re
from typing import Any

from pbem.game import IllegalOrder, Order, Rules
from pbem.protocol.secret import HiddenTree, verify_opening

HEX64 = re.compile(r"[0-9a-f]{64}")


def keeps_hidden(rules: Rules) -> bool:
    return rules.hidden_width > 0


def add_to_engine_state(es: dict[str, Any], rules: Rules, seats: list[str]) -> None:
    """The public record of every seat's commitments (games with hidden
    items only, so other games keep the state they always had)."""
    if keeps_hidden(rules):
        es["hidden_roots"] = {s: "" for s in seats}
        es["hidden_epochs"] = {s: 0 for s in seats}
        es["opened"] = {s: {} for s in seats}


def tree(rules: Rules, state: dict[str, Any], seat: str, seed: bytes, epoch: int) -> HiddenTree:
    items = rules.hidden_items(state, seat)
    width = rules.hidden_width
    if len(items) > width:
        raise IllegalOrder(f"{seat} holds {len(items)} hidden items, more than the game's {width}")
    return HiddenTree(seed, epoch, items, width)


def fill_openings(rules: Rules, es: dict[str, Any], seat: str, order: Order, seed: bytes | None) -> Order:
    """In the owner's program: give an order that opens items a fresh root
    and the openings."""
    handles = order.get("open")
    if not handles or not keeps_hidden(rules) or seed is None or "openings" in order:
        return order
    state = es["game"]
    if (state.get("hidden") or {}).get(seat) is None:
        return order
    t = tree(rules, state, seat, seed, es["hidden_epochs"][seat] + 1)
    missing = [h for h in handles if h not in t.items]
    if missing:
        raise IllegalOrder(f"{seat} has no hidden item {missing[0]!r} to show")
    return dict(order, root=t.root, openings=[t.opening(h) for h in handles])


def check_openings(rules: Rules, es: dict[str, Any], seat: str, order: Order, seed: bytes | None) -> None:
    """In every program, before the game applies ``order``: its openings open
    its root and meet the game's constraints; then the root becomes the
    seat's current one.  Raises IllegalOrder naming the handle."""
    handles = order.get("open")
    if not handles or not keeps_hidden(rules):
        if "openings" in order or "root" in order:
            raise IllegalOrder("openings without an `open` list")
        return
    if not isinstance(handles, list) or not all(isinstance(h, str) for h in handles) or len(set(handles)) != len(handles):
        raise IllegalOrder("`open` must list distinct handles")
    root, openings = order.get("root"), order.get("openings")
    if not isinstance(root, str) or not HEX64.fullmatch(root) or not isinstance(openings, list):
        raise IllegalOrder(f"{seat} opens {', '.join(handles)} without a root and openings")
    if [o.get("handle") if isinstance(o, dict) else None for o in openings] != handles:
        raise IllegalOrder("the openings do not match the handles to open")
    seen = dict(es["opened"][seat])
    for op in openings:
        handle = op["handle"]
        if not verify_opening(root, op):
            raise IllegalOrder(f"{seat}'s {handle}: the opening does not match the committed hidden state")
        why = rules.check_opening(es["game"], seat, handle, op["value"])
        if why:
            raise IllegalOrder(f"{seat}'s {handle}: {why}")
        ident = rules.identity_of(seat, op["value"])
        if ident is not None:
            if seen.get(ident, handle) != handle:
                raise IllegalOrder(f"{seat}'s {handle} shows {ident}, already shown as {seen[ident]}")
            seen[ident] = handle
    _adopt(rules, es, seat, root, seed)
    es["opened"][seat] = seen


def adopt_exchange_root(rules: Rules, es: dict[str, Any], seat: str, root: Any, seed: bytes | None) -> None:
    """An exchange's closing commit of its sender's hidden items."""
    if not keeps_hidden(rules):
        if root is not None:
            raise IllegalOrder("a hidden-state root in a game without hidden items")
        return
    if not isinstance(root, str) or not HEX64.fullmatch(root):
        raise IllegalOrder(f"{seat}'s exchange lacks the commit of its hidden items (root)")
    _adopt(rules, es, seat, root, seed)


def closing_root(rules: Rules, es: dict[str, Any], seat: str, seed: bytes) -> str | None:
    """In the owner's program: the root its exchange closes with."""
    if not keeps_hidden(rules):
        return None
    return tree(rules, es["game"], seat, seed, es["hidden_epochs"][seat] + 1).root


def _adopt(rules: Rules, es: dict[str, Any], seat: str, root: str, seed: bytes | None) -> None:
    epoch = es["hidden_epochs"][seat] + 1
    state = es["game"]
    if seed is not None and (state.get("hidden") or {}).get(seat) is not None:
        if tree(rules, state, seat, seed, epoch).root != root:
            raise IllegalOrder(f"{seat}'s commit {epoch} of its hidden items differs from the replay "
                               "(the hidden state was misstated)")
    es["hidden_roots"][seat] = root
    es["hidden_epochs"][seat] = epoch
