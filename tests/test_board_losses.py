"""Step-loss allocations (pbem/board/losses.py): complete, exact, in
product order, and the fault line agrees with the list."""
from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings, strategies as st

from pbem.board.losses import allocations, fault, needed

FAST = settings(max_examples=150, deadline=None)

pools = st.dictionaries(st.sampled_from("abcdef"), st.integers(0, 3), max_size=5)


def brute(pool: dict[str, int], steps: int) -> list[dict[str, int]]:
    """The definition: every product combination summing to the steps due."""
    keys = list(pool)
    need = min(steps, sum(pool.values()))
    return [{k: n for k, n in zip(keys, combo) if n}
            for combo in product(*(range(pool[k] + 1) for k in keys)) if sum(combo) == need]


def test_two_full_units_two_losses():
    # AVA 10.5's example: flip both, or both steps on one unit
    assert allocations({"p": 2, "q": 2}, 2) == [{"q": 2}, {"p": 1, "q": 1}, {"p": 2}]


def test_more_losses_than_steps_take_them_all():
    assert allocations({"p": 1, "q": 1}, 5) == [{"p": 1, "q": 1}]
    assert needed({"p": 1, "q": 1}, 5) == 2


def test_no_loss_is_one_empty_allocation():
    assert allocations({"p": 2}, 0) == [{}]
    assert allocations({}, 3) == [{}]


def test_negative_inputs_are_refused():
    with pytest.raises(ValueError):
        allocations({"p": 1}, -1)
    with pytest.raises(ValueError):
        allocations({"p": -1}, 1)


@FAST
@given(pools, st.integers(0, 8))
def test_same_list_and_order_as_the_product_definition(pool, steps):
    assert allocations(pool, steps) == brute(pool, steps)


@FAST
@given(pools, st.integers(0, 8))
def test_every_allocation_is_exact_and_within_each_counter(pool, steps):
    opts = allocations(pool, steps)
    assert opts, "there is always at least one way to take a loss"
    for a in opts:
        assert sum(a.values()) == needed(pool, steps)
        assert all(0 < n <= pool[k] for k, n in a.items())
    assert len({tuple(sorted(a.items())) for a in opts}) == len(opts)


@FAST
@given(pools, st.integers(0, 8), st.dictionaries(st.sampled_from("abcdefg"), st.integers(0, 4), max_size=4))
def test_fault_is_none_exactly_for_listed_allocations(pool, steps, alloc):
    listed = {tuple(sorted(a.items())) for a in allocations(pool, steps)}
    nonzero = {k: n for k, n in alloc.items() if n}
    ok = tuple(sorted(nonzero.items())) in listed and all(k in pool for k in alloc)
    assert (fault(pool, steps, alloc) is None) == ok


def test_fault_lines_name_the_counter():
    names = {"p": "7Pz"}.get
    assert fault({"p": 1}, 1, {"p": 2}, lambda k: names(k) or k) == "7Pz has 1 step(s) left, so it cannot lose 2"
    assert fault({"p": 1}, 1, {"x": 1}) == "x is not among the units taking the loss"
    assert fault({"p": 2}, 2, {"p": 1}) == "2 step loss(es) to take, 1 allocated"
