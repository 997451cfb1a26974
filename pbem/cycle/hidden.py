"""Hidden information, kept by the core for every game.

A game declares, per seat, its hidden items (``Rules.hidden_items``: public
handle -> secret value), a fixed tree width (``Rules.hidden_width``), what
makes an item unique (``identity_of``) and the constraints an opened item
must meet (``check_opening``).  The core does the rest:

* **Commit.**  After every exchange a seat sends, its program commits all of
  the seat's hidden items at once as one root
  (:class:`pbem.protocol.secret.HiddenTree`), with fresh salts derived from
  the seat's secret seed and the commit's number (exchange ``n``'s closing
  commit is number ``n*1024 + 1023``; its ``j``-th opening, ``n*1024 + j``).  The root is
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
from typing import Any, Callable

from pbem.game import IllegalOrder, Order, Rules
from pbem.protocol.types import EngineState
from pbem.protocol.secret import HiddenTree, verify_opening

HEX64 = re.compile(r"[0-9a-f]{64}")


_OPENING_KEYS = frozenset({"openings", "hidden_root", "hidden_epoch"})   # what only an `open` order holds
EPOCHS_PER_EXCHANGE = 1024   # commit numbers: exchange n uses n*1024 + j


def opening_epoch(n: int, j: int) -> int:
    """The number of the ``j``-th opening commit made in exchange ``n``
    (1 <= j < 1023); every commit's number is distinct, so no two commits
    share a salt."""
    if not 1 <= j < EPOCHS_PER_EXCHANGE - 1:
        raise IllegalOrder(f"too many orders that show hidden items in one exchange ({j})")
    return n * EPOCHS_PER_EXCHANGE + j


def closing_epoch(n: int) -> int:
    return n * EPOCHS_PER_EXCHANGE + EPOCHS_PER_EXCHANGE - 1


def keeps_hidden(rules: Rules) -> bool:
    return rules.hidden_width > 0


def add_to_engine_state(es: EngineState, rules: Rules, seats: list[str]) -> None:
    """The public record of every seat's commitments (games with hidden
    items only, so other games keep the state they always had): the latest
    root, and which identity has been shown under which handle."""
    if keeps_hidden(rules):
        es["hidden_roots"] = {s: "" for s in seats}
        es["opened"] = {s: {} for s in seats}


def tree(rules: Rules, state: dict[str, Any], seat: str, seed: bytes, epoch: int) -> HiddenTree:
    items = rules.hidden_items(state, seat)
    width = rules.hidden_width
    if len(items) > width:
        raise IllegalOrder(f"{seat} holds {len(items)} hidden items, more than the game's {width}")
    return HiddenTree(seed, epoch, items, width)


def _knows(es: EngineState, seat: str, seed: bytes | None) -> bool:
    return seed is not None and (es["game"].get("hidden") or {}).get(seat) is not None


def fill_openings(rules: Rules, es: EngineState, seat: str, order: Order, seed: bytes | None,
                  epoch: int) -> Order:
    """In the owner's program: give an order that opens items a fresh root
    (commit number ``epoch``) and the openings."""
    handles = order.get("open")
    if not handles or not keeps_hidden(rules) or "openings" in order or not _knows(es, seat, seed):
        return order
    assert seed is not None
    t = tree(rules, es["game"], seat, seed, epoch)
    missing = [h for h in handles if h not in t.items]
    if missing:
        raise IllegalOrder(f"{seat} has no hidden item {missing[0]!r} to show")
    return dict(order, hidden_root=t.root, hidden_epoch=epoch, openings=[t.opening(h) for h in handles])


def check_openings(rules: Rules, es: EngineState, seat: str, order: Order,
                   seed: bytes | None) -> Callable[[], None] | None:
    """In every program, before the game applies ``order``: its openings open
    its root and meet the game's constraints, no identity shows under two
    handles, and (where the seat's secrets are known) the root is the true
    commit of the seat's items.  Raises IllegalOrder naming the handle;
    returns what to record once the order has been applied."""
    handles = order.get("open")
    if not handles or not keeps_hidden(rules):
        if not _OPENING_KEYS.isdisjoint(order):
            raise IllegalOrder("openings without an `open` list")
        return None
    if not isinstance(handles, list) or not all(isinstance(h, str) for h in handles) \
            or len(set(handles)) != len(handles):
        raise IllegalOrder("`open` must list distinct handles")
    root, openings, epoch = order.get("hidden_root"), order.get("openings"), order.get("hidden_epoch")
    if not isinstance(root, str) or not HEX64.fullmatch(root) or not isinstance(openings, list) \
            or not isinstance(epoch, int) or isinstance(epoch, bool) or epoch < 0:
        raise IllegalOrder(f"{seat} shows {', '.join(handles)} without a root, its number and the openings")
    if [o.get("handle") if isinstance(o, dict) else None for o in openings] != handles:
        raise IllegalOrder("the openings do not match the handles to show")
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
    _audit(rules, es, seat, root, seed, epoch)

    def record() -> None:
        es["hidden_roots"][seat] = root
        es["opened"][seat] = seen
    return record


def adopt_exchange_root(rules: Rules, es: EngineState, seat: str, root: Any, seed: bytes | None,
                        n: int) -> None:
    """Exchange ``n``'s closing commit of its sender's hidden items."""
    if not keeps_hidden(rules):
        if root is not None:
            raise IllegalOrder("a hidden-state root in a game without hidden items")
        return
    if not isinstance(root, str) or not HEX64.fullmatch(root):
        raise IllegalOrder(f"{seat}'s exchange lacks the commit of its hidden items (root)")
    _audit(rules, es, seat, root, seed, closing_epoch(n))
    es["hidden_roots"][seat] = root


def closing_root(rules: Rules, es: EngineState, seat: str, seed: bytes, n: int) -> str | None:
    """In the owner's program: the root exchange ``n`` closes with."""
    if not keeps_hidden(rules):
        return None
    return tree(rules, es["game"], seat, seed, closing_epoch(n)).root


def _audit(rules: Rules, es: EngineState, seat: str, root: str, seed: bytes | None, epoch: int) -> None:
    if _knows(es, seat, seed):
        assert seed is not None
        if tree(rules, es["game"], seat, seed, epoch).root != root:
            raise IllegalOrder(f"{seat}'s commit {epoch} of its hidden items differs from the replay "
                               "(the hidden state was misstated)")
