"""The speed-only shortcuts of a cold verify (issue 7, "Measured, not timed
in tests") change no verdict: each is checked here against the slow way it
replaces, on the cases where a shortcut could go wrong (1 == True, a
record whose keys come in another order, sharing within a state, an
object the fast encoding cannot write)."""
from __future__ import annotations

from typing import Any

import pytest

import avd_fixtures as fx
from pbem.cycle.frozen import fast_copy, freeze, thaw
from pbem.cycle.plan import refusal
from pbem.game import probe
from pbem.games.avd.model import GERMAN, SOVIET
from pbem.protocol.canon import RecordMemo, canonical, canonical_spliced


class _Odd:
    """An object marshal cannot write (pickle can)."""

    def __init__(self, x: int) -> None:
        self.x = x

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Odd) and other.x == self.x


def _units(**records: dict[str, Any]) -> dict[str, Any]:
    base = {f"U{i:02d}": {"steps": 1, "where": "map"} for i in range(20)}
    base.update(records)
    return {"game": {"units": base, "turn": 3}}


def test_record_memo_reuses_nothing_that_encodes_otherwise():
    memo = RecordMemo()
    steps = [
        _units(A={"a": 1, "b": True}),
        _units(A={"b": 1, "a": True}),      # equal as dicts, same types in order, other keys: not the same
        _units(A={"a": True, "b": 1}),      # equal as dicts (1 == True): not the same
        _units(A={"a": 1, "b": True}),
        _units(A={"a": 1.0, "b": True}),    # a float: refused, as canonical refuses it
        _units(A={"a": [1], "b": True}),    # an array: encoded every time
        _units(A={"a": [True], "b": True}),
        _units(A={"a": 1, "b": True}),
        _units(A={"a": "e\u0301", "b": True}),   # not ASCII: NFC-normalised as canonical does
        _units(A={"a": "\u00e9", "b": True}),
        _units(A={1: "x", "b": True}),             # a key that is not text: refused as canonical refuses it
        _units(A={"a": "x", "b": None}),
    ]
    for state in steps:
        try:
            want: Any = canonical(state)
        except Exception as exc:
            want = type(exc)
        try:
            got: Any = canonical_spliced(state, ("game", "units"), memo)
        except Exception as exc:
            got = type(exc)
        assert got == want


def test_freeze_thaw_is_a_fresh_equal_copy_with_types_and_sharing():
    shared = [1, 2]
    value = {"t": (1, True), "l": [0, False, None, "é"], "a": shared, "b": shared, "n": {"x": {"y": 1}}}
    back = thaw(freeze(value))
    assert back == value and back is not value
    assert type(back["t"]) is tuple and back["t"][1] is True and back["l"][1] is False
    assert back["a"] is back["b"] and back["a"] is not shared
    back["n"]["x"]["y"] = 2
    assert value["n"]["x"]["y"] == 1
    odd = {"o": _Odd(3)}
    assert freeze(odd)[:1] == b"p" and thaw(freeze(odd)) == odd
    assert fast_copy(odd) == odd and fast_copy(odd)["o"] is not odd["o"]


def _combat_position():
    rules = fx.practice_rules()
    german = next(u for u, s in rules.scn.units.items() if s.side == GERMAN and s.kind == "combat" and s.attack)
    soviet = next(u for u, s in rules.scn.units.items() if s.side == SOVIET and s.kind == "combat")
    st, a, t = fx.battle_setup(rules, german, soviet, GERMAN)
    return rules, st, german, soviet, a, t


def test_plan_refusal_agrees_with_the_probe_and_changes_nothing():
    rules, st, german, soviet, a, t = _combat_position()
    before = canonical(st)
    far = next(h for h in sorted(rules.scn.map.terrain) if h not in (a, t) and rules.board(st).distance(h, a) > 3)
    orders = [
        {"verb": "attack", "hex": t, "units": [german]},            # legal: stops at its first roll
        {"verb": "attack", "hex": far, "units": [german]},          # not adjacent
        {"verb": "attack", "hex": a, "units": [soviet]},            # the other side's unit
        {"verb": "attack", "hex": t, "units": [german, german]},    # named twice
        {"verb": "move", "unit": german, "path": [a, t]},          # not this decision
        {"verb": "end-combat"},
    ]
    answers = [refusal(rules, st, GERMAN, o) for o in orders]
    assert answers == [probe(rules, st, GERMAN, o) for o in orders]
    assert answers[0] is None and all(answers[1:5]) and answers[5] is None
    assert refusal(rules, st, SOVIET, orders[0]) == probe(rules, st, SOVIET, orders[0]) is not None
    assert canonical(st) == before


@pytest.mark.parametrize("bad", ["not adjacent", "named twice"])
def test_a_plan_whose_first_order_is_illegal_is_refused_by_the_replay(bad):
    # The probe's check in the signing program is the one every verifying
    # program repeats: a forged plan fails there whatever its sender claims.
    from pbem.cycle import run as run_mod
    from pbem.game import Decision, IllegalOrder

    rules, st, german, soviet, a, t = _combat_position()
    far = next(h for h in sorted(rules.scn.map.terrain) if h not in (a, t) and rules.board(st).distance(h, a) > 3)
    first = {"verb": "attack", "hex": far, "units": [german]} if bad == "not adjacent" else \
        {"verb": "attack", "hex": t, "units": [german, german]}
    es = {"game": st, "policies": {GERMAN: {}, SOVIET: {}}, "ended": None, "draw_offer": None, "deferred": None}
    run = run_mod.ExchangeRun(rules, es, GERMAN, None, True, [GERMAN, SOVIET], features=("forced", "plans"))
    d = rules.pending(st)
    assert isinstance(d, Decision) and d.plannable
    with pytest.raises(IllegalOrder, match="first order"):
        run._sign_plan(d, {"verb": "plan", "orders": [first, {"verb": "end-combat"}]})
    assert es["deferred"] is None


@pytest.mark.parametrize("offset", ["odd-q", "even-q", "odd-r", "even-r"])
def test_rings_are_by_distance_ring_by_ring(offset):
    from pbem.board.hexgrid import HexGrid

    grid = HexGrid(3, 17, 2, 14, offset)
    origins = grid.hexes()[::7] + ["0101", "2020", "0908"]
    for h in origins:
        want = [(d, ring) for d, ring in grid.by_distance(h).items() if d >= 2]
        assert list(grid.rings(h, 2)) == want
        assert list(grid.rings(h)) == [(d, r) for d, r in grid.by_distance(h).items()]



def test_a_cold_verify_keeps_no_past_state_unless_the_file_takes_the_game_back():
    # The verdict and the state are the same either way; only a file that
    # rewinds needs the states after each exchange for its own replay.
    import enginehelp as eh
    from pbem import cycle
    from pbem.protocol.gamefile import GameFile

    gf, sc, ids = eh.start("immediate")
    for _ in range(4):                  # ... red attacks, rolling at once in exchange 5; blue defends
        gf = eh.one_exchange(gf, sc, ids)
    full = cycle.replay(gf, sc, ids["red"])
    lean = cycle.replay(gf, sc, ids["red"], snapshots=False)
    assert lean.state_hash() == full.state_hash() and lean.next_sender() == full.next_sender()
    assert len(lean.snapshots) == len(full.snapshots)
    with pytest.raises(RuntimeError, match="not kept"):
        lean.snapshots[2]
    gf = GameFile(gf.exchanges + [cycle.rewind_exchange(full, ids["red"], 5)])   # not past the roll
    m = cycle.replay(gf, sc, ids["blue"])
    gf = GameFile(gf.exchanges + [cycle.rewind_exchange(m, ids["blue"])])
    back = cycle.replay(gf, sc, snapshots=False)
    kept = cycle.replay(gf, sc)
    assert back.state_hash() == kept.state_hash()
    assert back.snapshots[2] == kept.snapshots[2]


def test_a_question_asked_again_after_the_state_changed_gets_the_new_answer():
    # No decision is remembered across questions: the same state object,
    # changed in place, and an equal copy are each asked afresh.
    rules, st, german, soviet, a, t = _combat_position()
    first = rules.pending(st)
    assert first is not None and rules.pending(fast_copy(st)) == first
    st["units"][german]["attacked"] = True
    again = rules.pending(st)
    assert again == rules.pending(fast_copy(st))
    assert any(o.startswith(f"attack {t}") for o in first.options)
    assert again.options == ("end-combat",)
