"""Seats and sides (issue 7, item 1): a three-seat game, two seats on one
side and one on the other, through the real exchange engine in both dice
timings.  Every seat's program and a bystander verify every file; a sealed
roll is resolved only by a seat of another side; agreements need every
other seat."""
from __future__ import annotations

from typing import Any

import pytest

import enginehelp  # noqa: F401  (registers the test games)
from pbem import cycle, session
from pbem.cycle import run as run_mod
from pbem.errors import UsageError
from pbem.protocol.gamefile import GameFile
from pbem.protocol.identity import generate
from pbem.scenario import load_toml

SCENARIO = load_toml(enginehelp.DATA / "scenarios" / "trio" / "test.toml")
SIDE = {"north": "red", "south": "red", "blue": "blue"}


def _table(dice: str) -> tuple[GameFile, dict[str, Any]]:
    ids = {"north": generate("Nadia", "nadia@example.org"), "south": generate("Sergei", "sergei@example.org"),
           "blue": generate("Boris", "boris@example.org")}
    gf = cycle.new_game(game_id="trio-test", game="trio", scenario_name="trio/test", scenario=SCENARIO, options={},
                        dice=dice, creator=ids["north"], creator_side="north",
                        invited={"south": ids["south"].public, "blue": ids["blue"].public})
    for seat in ("south", "blue"):
        m = cycle.replay(gf, SCENARIO, ids[seat])
        gf = GameFile(gf.exchanges + [cycle.join_exchange(m, ids[seat], seat)])
    return gf, ids


def _write(gf: GameFile, ids: dict[str, Any], orders: list[str] | None = None) -> GameFile:
    """The seat whose turn it is writes its exchange (first legal option,
    unless ``orders`` are given)."""
    seat = cycle.replay(gf, SCENARIO).next_sender()
    assert seat is not None
    t = cycle.Turn(cycle.replay(gf, SCENARIO, ids[seat]), ids[seat])
    for text in orders or []:
        t.push(text)
    while not t.done:
        t.push(t.pending().options[0])
    return GameFile(gf.exchanges + [t.finish()])


def _everyone_agrees(gf: GameFile, ids: dict[str, Any]) -> str:
    hashes = {seat: cycle.replay(gf, SCENARIO, ident).state_hash() for seat, ident in ids.items()}
    hashes["bystander"] = cycle.replay(gf, SCENARIO).state_hash()
    assert len(set(hashes.values())) == 1, hashes
    return hashes["bystander"]


@pytest.mark.parametrize("dice", ["sealed", "immediate"])
def test_three_seats_two_sides_play_to_the_end_and_every_program_agrees(dice: str) -> None:
    gf, ids = _table(dice)
    m = cycle.replay(gf, SCENARIO)
    assert m.seat_names == ["north", "south", "blue"] and m.side_of("south") == "red"
    assert gf.header["seats"]["blue"] == {"side": "blue", "roles": ["umpire"]}
    senders = []
    for _ in range(80):
        if cycle.replay(gf, SCENARIO).over():
            break
        gf = _write(gf, ids)
        senders.append(gf.exchanges[-1]["side"])
        _everyone_agrees(gf, ids)
    m = cycle.replay(gf, SCENARIO)
    assert m.over() and m.result() in ("red wins", "blue wins", "draw")
    assert {"north", "south", "blue"} <= set(senders)
    rolls = [r for r in cycle.iter_rolls(m)]
    assert rolls, "the game rolled dice"
    if dice == "sealed":
        # Every deferred roll was resolved by the next exchange, sent by a
        # seat of another side than the seat that deferred it.
        deferred = [(i, rec) for i, rec in enumerate(m.records) if rec.deferred]
        assert deferred
        for i, rec in deferred:
            resolver = m.records[i + 1]
            assert SIDE[resolver.side] != SIDE[rec.deferred["by"]]
            assert resolver.rolls and resolver.rolls[0]["purpose"].endswith(f"{rec.deferred['side']} d6")
    else:
        assert not any(rec.deferred for rec in m.records)


def test_north_s_roll_is_resolved_by_blue_not_by_his_team_mate() -> None:
    gf, ids = _table("sealed")
    gf = _write(gf, ids)                               # north attacks: the d6 waits
    m = cycle.replay(gf, SCENARIO, ids["south"])
    assert m.es["deferred"]["by"] == "north"
    assert m.next_sender() == "blue"
    assert "blue's program first resolves the dice of north's last order" in m.who_acts()
    with pytest.raises(UsageError, match="it is blue's turn to send"):
        cycle.Turn(m, ids["south"])


def test_a_modified_program_letting_the_team_mate_resolve_is_caught_live(monkeypatch: pytest.MonkeyPatch) -> None:
    """South runs a program that names himself as the resolver of north's
    roll; every honest program refuses his file."""
    gf, ids = _table("sealed")
    gf = _write(gf, ids)
    m = cycle.replay(gf, SCENARIO, ids["south"])
    monkeypatch.setattr(cycle.Match, "resolver", lambda self, seat: "south")
    t = cycle.Turn(m, ids["south"])
    while not t.done:
        t.push(t.pending().options[0])
    forged = GameFile(gf.exchanges + [t.finish()])
    monkeypatch.undo()
    with pytest.raises(cycle.Verification, match="it was blue's turn to send, not south's"):
        cycle.replay(forged, SCENARIO)


def test_a_draw_needs_the_consent_of_every_other_seat() -> None:
    gf, ids = _table("immediate")
    gf = _write(gf, ids, ["offer-draw"])               # north offers, attacks
    gf = _write(gf, ids, ["accept-draw"])              # south accepts, then plays
    m = cycle.replay(gf, SCENARIO)
    assert not m.over() and m.es["draw_agreed"] == ["south"]
    gf = _write(gf, ids, ["accept-draw"])              # blue accepts: all have
    m = cycle.replay(gf, SCENARIO)
    assert m.over() and m.result() == "drawn by agreement"
    _everyone_agrees(gf, ids)


def test_one_decline_ends_a_draw_offer() -> None:
    gf, ids = _table("immediate")
    gf = _write(gf, ids, ["offer-draw"])
    gf = _write(gf, ids, ["decline-draw"])
    m = cycle.replay(gf, SCENARIO)
    assert m.es["draw_offer"] is None and "draw_agreed" not in m.es and not m.over()


def test_abandoning_needs_every_other_seat_too() -> None:
    gf, ids = _table("immediate")
    gf = _write(gf, ids, ["offer-abandon"])
    gf = _write(gf, ids, ["accept-abandon"])
    assert not cycle.replay(gf, SCENARIO).over()
    gf = _write(gf, ids, ["accept-abandon"])
    assert cycle.replay(gf, SCENARIO).result() == "abandoned by agreement"


def test_the_other_side_may_still_decline_after_a_team_mate_accepted() -> None:
    gf, ids = _table("immediate")
    gf = _write(gf, ids, ["offer-draw"])
    gf = _write(gf, ids, ["accept-draw"])
    m = cycle.replay(gf, SCENARIO, ids["blue"])
    t = cycle.Turn(m, ids["blue"])
    t.push("decline-draw")
    assert "declines" in " ".join(e.text for e in t.sink.events)


def test_a_rewind_takes_effect_only_when_every_other_seat_has_accepted(monkeypatch) -> None:
    # A file from before rewind-keeps-dice: its rewinds may take dice back (tests/test_team_streams_rewind.py).
    monkeypatch.setattr("pbem.cycle.write.FEATURES", tuple(f for f in run_mod.FEATURES if f != "rewind-keeps-dice"))
    gf, ids = _table("immediate")
    for _ in range(4):
        gf = _write(gf, ids)
    target = cycle.replay(GameFile(gf.exchanges[:4]), SCENARIO).state_hash()
    m = cycle.replay(gf, SCENARIO, ids["south"])
    gf = GameFile(gf.exchanges + [cycle.rewind_exchange(m, ids["south"], 4)])
    m = cycle.replay(gf, SCENARIO, ids["north"])
    with pytest.raises(UsageError, match="no rewind offer from another player"):
        cycle.rewind_exchange(cycle.replay(gf, SCENARIO, ids["south"]), ids["south"])
    gf = GameFile(gf.exchanges + [cycle.rewind_exchange(m, ids["north"])])
    m = cycle.replay(gf, SCENARIO, ids["blue"])
    assert m.state_hash() != target and m.rewind_offer["agreed"] == ["north"]
    gf = GameFile(gf.exchanges + [cycle.rewind_exchange(m, ids["blue"])])
    assert _everyone_agrees(gf, ids) == target
    gf = _write(gf, ids)                               # play goes on from there
    _everyone_agrees(gf, ids)


def test_a_declined_rewind_changes_nothing(monkeypatch) -> None:
    # A file from before rewind-keeps-dice: its rewinds may take dice back (tests/test_team_streams_rewind.py).
    monkeypatch.setattr("pbem.cycle.write.FEATURES", tuple(f for f in run_mod.FEATURES if f != "rewind-keeps-dice"))
    gf, ids = _table("immediate")
    for _ in range(4):
        gf = _write(gf, ids)
    before = cycle.replay(gf, SCENARIO).state_hash()
    m = cycle.replay(gf, SCENARIO, ids["blue"])
    gf = GameFile(gf.exchanges + [cycle.rewind_exchange(m, ids["blue"], 4)])
    m = cycle.replay(gf, SCENARIO, ids["south"])
    gf = GameFile(gf.exchanges + [cycle.rewind_exchange(m, ids["south"], decline=True)])
    m = cycle.replay(gf, SCENARIO)
    assert m.rewind_offer is None and m.state_hash() == before


def test_mail_goes_to_every_other_seat_with_display_names() -> None:
    gf, ids = _table("immediate")
    m = cycle.replay(gf, SCENARIO, ids["south"])
    assert session.recipients(m) == ["Nadia <nadia@example.org>", "Boris <boris@example.org>"]


def test_a_seat_of_the_same_side_cannot_be_the_only_side() -> None:
    from pbem.game import ScenarioError, SeatSpec, validate_seats

    with pytest.raises(ScenarioError, match="same side"):
        validate_seats([SeatSpec("a", "red"), SeatSpec("b", "red")])
    with pytest.raises(ScenarioError, match="2 to 6 seats"):
        validate_seats([SeatSpec(str(i), str(i % 2)) for i in range(7)])
