"""AVA 19.4-19.5: the Game Controller's queue, his legal choices, the forced
reveal, queue order (A48) and interrupts cancelling later chits (A46)."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from pbem.game import IllegalOrder
from pbem.games.ava import controller as ctl


class Table:
    """A cup of known chits in a fixed draw order, and the queue."""

    def __init__(self, draws: list[str]) -> None:
        self.cup = list(draws)
        self.q = ctl.new_queue()
        self.ran: list[str] = []

    def options(self) -> tuple[tuple[str, ...], bool]:
        return ctl.pending_choice(self.q, len(self.cup))

    def draw(self) -> int:
        return ctl.draw(self.q, len(self.cup), "sealed:" + self.cup.pop(0))

    def reveal(self, i: int) -> None:
        chit = self.q["entries"][i]["token"].removeprefix("sealed:")
        ctl.reveal(self.q, len(self.cup), i, chit)
        ctl.close_window(self.q)

    def hold(self) -> None:
        ctl.hold(self.q, len(self.cup))

    def up(self) -> None:
        """Draw and reveal at once."""
        self.reveal(self.draw())

    def down(self) -> None:
        """Draw and hold face down."""
        self.draw()
        self.hold()

    def run_one(self) -> str:
        i = ctl.stop(self.q, len(self.cup))
        chit = self.q["entries"][i]["chit"]
        ctl.finish(self.q, i)
        self.ran.append(chit)
        return str(chit)

    def at(self, chit: str) -> int:
        return next(i for i, e in enumerate(self.q["entries"]) if e["chit"] == chit
                    or e["token"] == "sealed:" + chit)


def test_19_4_first_draw_is_forced_then_its_reveal() -> None:
    t = Table(["4PzG", "9A"])
    assert t.options() == (("draw",), True)
    t.draw()
    assert t.options() == (("reveal 1",), True)          # 19.4(2): nothing else pending
    with pytest.raises(IllegalOrder, match="must reveal 1"):
        ctl.check_choice(t.q, len(t.cup), "hold")


def test_tc21_19_4_example_one() -> None:
    """Nick 4PzG, Brian 9A, Nick's 18A held face down, Pete 17A revealed at
    once; when 4PzG is done 18A may be revealed (not forced: 9A, 17A run)."""
    t = Table(["4PzG", "9A", "18A", "17A"])
    t.draw()
    t.reveal(0)                                          # Nick executes 4PzG
    assert t.options() == (("draw", "stop"), False)
    t.draw()
    assert t.options() == (("reveal 2", "hold"), False)
    t.reveal(1)                                          # Brian executes 9A
    t.draw()
    t.hold()                                             # 18A: Nick is busy
    t.draw()
    assert t.options() == (("reveal 4", "hold"), False)  # a face-down chit holds back no later draw
    t.reveal(3)                                          # Pete executes 17A
    assert [e["revealed"] for e in t.q["entries"]] == [True, True, False, True]
    assert t.run_one() == "4PzG"
    opts, forced = t.options()
    assert "reveal 3" in opts and not forced             # the Controller's judgement
    t.reveal(2)                                          # Nick begins 18A
    assert [t.run_one() for _ in range(3)] == ["9A", "17A", "18A"]
    assert ctl.finished(t.q, 0)
    assert t.options() == ((), False)


def test_tc22_19_4_example_two() -> None:
    """1PzG, Soviet 4A, 10A and 26A held, 16A revealed; 10A may be revealed
    once 4A ends, must be once 1PzG and 16A are done too; 26A after 10A."""
    t = Table(["1PzG", "SU4A", "SU10A", "SU26A", "16A"])
    t.up()
    t.up()
    t.down()
    t.down()
    assert len(ctl.face_down(t.q)) == 2
    t.draw()
    t.reveal(4)                                          # 16A face up at once, past two face-down chits
    assert len(ctl.under_way(t.q)) == 3                  # Pete, Scott, Nick
    assert t.run_one() == "1PzG"
    assert t.run_one() == "SU4A"
    opts, forced = t.options()
    assert "reveal 3" in opts and not forced             # may: 16A still under way
    with pytest.raises(IllegalOrder, match="A48"):
        ctl.check_choice(t.q, len(t.cup), "reveal 4")    # 26A before 10A: refused
    assert t.run_one() == "16A"
    assert t.options() == (("reveal 3",), True)          # must: nothing revealed under way
    t.reveal(2)
    assert t.options() == (("reveal 4", "stop"), False)   # 10A under way: 26A may follow, need not
    assert t.run_one() == "SU10A"
    assert t.options() == (("reveal 4",), True)
    t.reveal(3)
    assert t.run_one() == "SU26A"
    assert [c for c in t.ran if c.startswith("SU")] == ["SU4A", "SU10A", "SU26A"]


def test_tc23_19_5_interrupt_cancels_the_chit_and_later_face_down_ones() -> None:
    """[X revealed and executing, Y revealed, Z, W face down]: Guderian on Y
    sends Y, Z and W back; X goes on; 2PzG takes Y's place."""
    t = Table(["X", "Y", "Z", "W"])
    t.up()
    t.down()                                   # Y face down for now
    t.down()
    t.down()
    x = ctl.stop(t.q, len(t.cup))                        # X executing
    ctl.finish(t.q, x)
    ctl.reveal(t.q, 0, 1, "Y")
    assert ctl.pending_choice(t.q, 0) == ((), False)     # the window is open: holders answer first
    back = ctl.cancel(t.q, "guderian")
    assert back == ["Y", "sealed:Z", "sealed:W"]
    assert [e["chit"] for e in t.q["entries"]] == ["X", "guderian"]
    assert t.q["entries"][0]["done"]
    assert t.run_one() == "guderian"


def test_tc23_a46_a_later_chit_already_begun_stands() -> None:
    """V drawn after Y and revealed on its draw has begun: it stays."""
    t = Table(["X", "Y", "V", "W"])
    t.up()
    t.down()                                   # Y
    t.up()                                # V begins at once
    t.down()                                   # W
    assert t.run_one() == "X"
    assert t.run_one() == "V"
    ctl.reveal(t.q, 0, 1, "Y")
    assert ctl.cancel(t.q, "manstein") == ["Y", "sealed:W"]
    assert [e["chit"] for e in t.q["entries"]] == ["X", "manstein", "V"]
    assert t.q["entries"][2]["done"]


def test_tc23_a46_a_revealed_chit_waiting_its_turn_stands() -> None:
    """pbem runs one command at a time: a revealed chit not yet run has begun
    at the table, so an interrupt on an earlier reveal leaves it."""
    t = Table(["X", "Y", "V"])
    t.up()
    t.down()
    t.up()
    ctl.reveal(t.q, 0, 1, "Y")
    assert ctl.cancel(t.q, "guderian") == ["Y"]
    assert [t.run_one() for _ in range(3)] == ["X", "V", "guderian"]   # in the order revealed


def test_19_5_interrupt_only_as_a_chit_is_revealed() -> None:
    t = Table(["X", "Y"])
    t.up()
    with pytest.raises(IllegalOrder, match="revealed"):
        ctl.cancel(t.q, "guderian")


def test_19_4_the_controllers_own_chit_is_handled_the_same() -> None:
    """Scott, the Controller, draws his own 10A while busy: held like any."""
    t = Table(["SU4A", "SU10A"])
    t.up()
    t.draw()
    assert t.options() == (("reveal 2", "hold"), False)


def test_19_4_refusals_are_one_line() -> None:
    t = Table(["A", "B"])
    with pytest.raises(IllegalOrder, match="no entry 5"):
        t.draw()
        ctl.check_choice(t.q, 1, "reveal 5")
    t.reveal(0)
    with pytest.raises(IllegalOrder, match="already revealed"):
        ctl.check_choice(t.q, 1, "reveal 1")
    with pytest.raises(IllegalOrder, match="may draw | stop"):
        ctl.check_choice(t.q, 1, "hold")


def test_19_4_empty_cup_offers_no_draw() -> None:
    t = Table(["A", "B"])
    t.up()
    t.down()
    assert t.options() == (("reveal 2", "stop"), False)


def test_19_4_simple_policy_reproduces_tc21() -> None:
    owner = {"4PzG": "nick", "9A": "brian", "18A": "nick", "17A": "pete"}
    t = Table(["4PzG", "9A", "18A", "17A"])
    seen: list[str] = []
    while not ctl.finished(t.q, len(t.cup)):
        who = {i: owner[e["token"].removeprefix("sealed:")] for i, e in enumerate(t.q["entries"])}
        choice = ctl.simple_policy(t.q, len(t.cup), who, depth=4)
        seen.append(choice)
        if choice == "draw":
            t.draw()
        elif choice.startswith("reveal"):
            t.reveal(int(choice.split()[1]) - 1)
        elif choice == "hold":
            t.hold()
        else:
            t.run_one()
    assert seen[:8] == ["draw", "reveal 1", "draw", "reveal 2", "draw", "hold", "draw", "reveal 4"]
    assert t.ran[0] == "4PzG" and sorted(t.ran) == sorted(owner)


# ------------------------------------------------------------ properties
@settings(max_examples=150, deadline=None)
@given(hs.integers(1, 8), hs.data())
def test_19_4_property_every_draw_runs_once_or_goes_back(n: int, data: Any) -> None:
    """Whatever the Controller and the interrupt holders choose, every chit
    drawn is executed exactly once or returned to the cup, the forced reveal
    is always the first face-down entry, and the queue ends through."""
    cup = [f"c{i}" for i in range(n)]
    q = ctl.new_queue()
    interrupts = ["manstein", "guderian"]
    drawn = executed = returned = 0
    for _ in range(500):
        if ctl.finished(q, len(cup)):
            break
        if q["window"] is not None:
            if interrupts and data.draw(hs.booleans()):
                back = ctl.cancel(q, interrupts.pop())
                returned += len(back)
                cup += [b.removeprefix("sealed:") for b in back]
            else:
                ctl.close_window(q)
            continue
        opts, forced = ctl.pending_choice(q, len(cup))
        assert opts, q
        if forced and opts[0].startswith("reveal"):
            assert int(opts[0].split()[1]) - 1 == ctl.face_down(q)[0]
        choice = data.draw(hs.sampled_from(opts))
        if choice == "draw":
            k = data.draw(hs.integers(0, len(cup) - 1))
            ctl.draw(q, len(cup), "sealed:" + cup.pop(k))
            drawn += 1
        elif choice.startswith("reveal"):
            i = int(choice.split()[1]) - 1
            ctl.reveal(q, len(cup), i, q["entries"][i]["token"].removeprefix("sealed:"))
        elif choice == "hold":
            ctl.hold(q, len(cup))
        else:
            i = ctl.stop(q, len(cup))
            ctl.finish(q, i)
            executed += not q["entries"][i]["interrupt"]
    assert ctl.finished(q, len(cup))
    assert drawn == executed + returned
    assert len([e for e in q["entries"] if not e["interrupt"]]) == executed


@settings(max_examples=100, deadline=None)
@given(hs.lists(hs.sampled_from(["reveal", "hold"]), min_size=1, max_size=8))
def test_a48_property_reveals_follow_queue_order(fresh: list[str]) -> None:
    """Face-down chits turn up in the order they were drawn, whatever was
    revealed fresh in between."""
    q = ctl.new_queue()
    cup = [f"c{i}" for i in range(len(fresh))]
    for how in fresh:
        ctl.draw(q, len(cup), cup.pop(0))
        opts, forced = ctl.pending_choice(q, len(cup))
        if forced or how == "reveal":
            ctl.reveal(q, len(cup), len(q["entries"]) - 1, q["entries"][-1]["token"])
        else:
            ctl.hold(q, len(cup))
        ctl.close_window(q)
    held = ctl.face_down(q)
    order = []
    while ctl.face_down(q):
        opts, _ = ctl.pending_choice(q, len(cup))
        rev = [o for o in opts if o.startswith("reveal")]
        if rev:
            i = int(rev[0].split()[1]) - 1
            order.append(i)
            ctl.reveal(q, len(cup), i, "x")
            ctl.close_window(q)
        else:
            ctl.finish(q, ctl.stop(q, len(cup)))
    assert order == held
