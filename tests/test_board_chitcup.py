"""The kernel chit cup (pbem/board/chitcup.py): secret selections under
public handles, a secret mix, public draws, owner reveals."""
from __future__ import annotations

import copy
import random
from typing import Any, Sequence, TypeVar

import pytest
from hypothesis import given, settings, strategies as st

from pbem.board import chitcup

FAST = settings(max_examples=150, deadline=None)
T = TypeVar("T")

CHITS = [f"c{i}" for i in range(12)]


class Stream:
    """A seeded stand-in for the shared stream and the owners' secret ones."""

    def __init__(self, seed: int, *, blind: Sequence[str] = ()) -> None:
        self.r = random.Random(seed)
        self.seed = seed
        self.blind = set(blind)

    def draw(self, items: Sequence[T], purpose: str) -> int:
        return self.r.randrange(len(items))

    def shuffle(self, items: Sequence[T], purpose: str) -> list[T]:
        out = list(items)
        self.r.shuffle(out)
        return out

    def secret(self, seat: str) -> "Stream | None":
        return None if seat in self.blind else Stream(hash((self.seed, seat)) & 0xFFFF)


selection = st.lists(st.sampled_from(CHITS), min_size=0, max_size=8, unique=True)


def sealed_cup(axis: list[str], soviet: list[str], seed: int, blind: Sequence[str] = ()) -> tuple[dict, dict]:
    cup = chitcup.new_cup()
    secrets = {"axis": chitcup.seal(cup, "axis", axis, "axis.1"),
               "soviet": chitcup.seal(cup, "soviet", soviet, "soviet.1")}
    chitcup.add_open(cup, "supply")
    chitcup.deal(cup, {s: v for s, v in secrets.items() if s not in blind}, Stream(seed, blind=blind))
    return cup, secrets


@FAST
@given(a=selection, b=selection, seed=st.integers(0, 10**6))
def test_public_cup_says_nothing_of_the_chits_or_their_order(a: list[str], b: list[str], seed: int) -> None:
    """Two selections of the same size, whatever chits and in whatever order,
    leave the same public cup: the handles never reveal the chits."""
    n = min(len(a), len(b))
    one, _ = sealed_cup(a[:n], list(reversed(b[:n])), seed)
    two, _ = sealed_cup(b[:n], a[:n], seed)
    assert one == two


@FAST
@given(a=selection, seed=st.integers(0, 10**6))
def test_deal_keeps_the_chits_under_the_owners_handles(a: list[str], seed: int) -> None:
    cup, secrets = sealed_cup(a, [], seed)
    assert sorted(secrets["axis"].values()) == sorted(a)
    assert set(secrets["axis"]) == {h for h, o in cup["sealed"].items() if o == "axis"}


@settings(max_examples=40, deadline=None)
@given(a=st.lists(st.sampled_from(CHITS), min_size=2, max_size=6, unique=True))
def test_the_first_named_chit_can_lie_under_any_handle(a: list[str]) -> None:
    """The secret mix, not the naming order, decides which handle holds a chit."""
    where = set()
    for seed in range(300):
        _, secrets = sealed_cup(a, [], seed)
        where |= {h for h, c in secrets["axis"].items() if c == a[0]}
    assert len(where) == len(a)


@FAST
@given(a=selection, s=selection, seed=st.integers(0, 10**6))
def test_a_blind_program_keeps_the_same_public_cup_and_draws(a: list[str], s: list[str], seed: int) -> None:
    """The opponent's program (without the owner's secret stream) must stay in
    step: same public cup, same public draws."""
    seeing, _ = sealed_cup(a, s, seed)
    blind, _ = sealed_cup(a, s, seed, blind=("axis",))
    assert seeing == blind
    r1, r2 = Stream(seed + 1), Stream(seed + 1)
    while not chitcup.empty(seeing):
        assert chitcup.draw(seeing, r1, "draw") == chitcup.draw(blind, r2, "draw")


@FAST
@given(a=selection, s=selection, seed=st.integers(0, 10**6),
       interrupts=st.lists(st.booleans(), max_size=30))
def test_every_chit_is_resolved_exactly_once_per_turn(a: list[str], s: list[str], seed: int,
                                                       interrupts: list[bool]) -> None:
    """Draw until the cup is empty; an interrupt returns the drawn chit (face
    up) and it comes out again later.  Every selected chit is played once."""
    s = ["s" + c for c in s]          # the two sides' chits are told apart by name
    cup, secrets = sealed_cup(a, s, seed)
    rng = Stream(seed)
    played: list[tuple[str, str]] = []
    flags = list(interrupts)
    while not chitcup.empty(cup):
        d = chitcup.draw(cup, rng, "draw")
        if d.chit is None:
            assert d.owner is not None and d.handle is not None
            chit = secrets[d.owner][d.handle]
            chitcup.reveal(cup, d.handle, chit)
            owner = d.owner
        else:
            chit = d.chit
            owner = next((o for o, m in secrets.items() if chit in m.values()), "common")
        if flags and flags.pop(0):
            chitcup.put_back(cup, chit)
            continue
        played.append((owner, chit))
    want = [("axis", c) for c in a] + [("soviet", c) for c in s] + [("common", "supply")]
    assert sorted(played) == sorted(want)
    assert cup["sealed"] == {}


def test_remaining_counts_face_down_tokens_per_owner() -> None:
    cup, _ = sealed_cup(["c1", "c2", "c3"], ["c4"], 1)
    assert chitcup.remaining(cup) == 5
    assert chitcup.remaining(cup, "axis") == 3
    assert chitcup.remaining(cup, "soviet") == 1


def test_reveal_refuses_a_handle_still_in_the_cup_or_unknown() -> None:
    cup, _ = sealed_cup(["c1"], [], 1)
    with pytest.raises(ValueError):
        chitcup.reveal(cup, "axis.1.1", "c1")
    with pytest.raises(ValueError):
        chitcup.reveal(cup, "nope", "c1")


def test_seal_refuses_a_handle_twice() -> None:
    cup = chitcup.new_cup()
    chitcup.seal(cup, "axis", ["c1"], "axis.1")
    with pytest.raises(ValueError):
        chitcup.seal(cup, "axis", ["c2"], "axis.1")


def test_draw_from_an_empty_cup_is_an_error() -> None:
    with pytest.raises(ValueError):
        chitcup.draw(chitcup.new_cup(), Stream(1), "draw")


def test_clear_empties_for_the_next_turn() -> None:
    cup, _ = sealed_cup(["c1"], ["c2"], 3)
    before: dict[str, Any] = copy.deepcopy(cup)
    chitcup.clear(cup)
    assert cup == chitcup.new_cup() and before != cup


@FAST
@given(a=st.lists(st.sampled_from(CHITS), min_size=1, max_size=8, unique=True), seed=st.integers(0, 10**6))
def test_a_fixed_handle_keeps_its_chit(a: list[str], seed: int) -> None:
    """AVD 3.7's chit set aside: never mixed with the others."""
    cup = chitcup.new_cup()
    secrets = {"axis": chitcup.seal(cup, "axis", a, "axis.1")}
    chitcup.deal(cup, secrets, Stream(seed), fixed={"axis.1.1"})
    assert secrets["axis"]["axis.1.1"] == a[0]
    assert sorted(secrets["axis"].values()) == sorted(a)
