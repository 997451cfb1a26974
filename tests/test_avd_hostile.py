"""A Victory Denied's secret chits attacked by a modified German program
written here (issue 8): a chit turned up that the German never selected, or
the same chit turned up twice in one turn, is refused live by the Soviet's
program and a bystander's; a root committing other chits than the sealed
selection, or a mix of the cup the program chose itself, passes every blind
program and is refused at the audit."""
from __future__ import annotations

import contextlib

from typing import Any

import pytest
from avd_fixtures import reveals, table, turn_of, write

from pbem import cycle
from pbem.cycle import audit
from pbem.games.avd.rules import AvdRules
from pbem.protocol.gamefile import GameFile


class Modified:
    """A modified program: the rules state ``patch(items, seat, state)`` as
    the hidden items, and none of the owner's own checks run (the rules'
    opening constraints and identities, the core's rebuild of its own
    commits; with ``audit_only``, only the last)."""

    def __init__(self, patch: Any, audit_only: bool = False) -> None:
        self.patch, self.audit_only = patch, audit_only

    def __enter__(self) -> Modified:
        from pbem.cycle import hidden

        self.saved = (AvdRules.hidden_items, AvdRules.check_opening, AvdRules.identity_of, hidden._audit)
        original, patch = self.saved[0], self.patch
        AvdRules.hidden_items = lambda self, st, s: patch(original(self, st, s), s, st)  # type: ignore
        if not self.audit_only:
            AvdRules.check_opening = lambda *a: None  # type: ignore
            AvdRules.identity_of = lambda *a: None  # type: ignore
        hidden._audit = lambda *a: None  # type: ignore
        return self

    def __exit__(self, *exc: object) -> None:
        from pbem.cycle import hidden

        AvdRules.hidden_items, AvdRules.check_opening, AvdRules.identity_of, hidden._audit = self.saved  # type: ignore


def _lying(gf: GameFile, sc: dict[str, Any], ids: dict[str, Any], patch: Any, *orders: str) -> GameFile:
    """The German's next exchange, written by his modified program after
    an honest replay of the history."""
    m = cycle.replay(gf, sc, ids["german"])
    with Modified(patch):
        return GameFile(gf.exchanges + [turn_of(m, ids["german"], orders)])


def _refused_live(gf: GameFile, sc: dict[str, Any], ids: dict[str, Any], match: str) -> None:
    for who in (ids["soviet"], None):
        with pytest.raises(cycle.Verification, match=match):
            cycle.replay(gf, sc, who)


def _german_lies_until(gf: GameFile, sc: dict[str, Any], ids: dict[str, Any], patch: Any,
                       handles: set[str]) -> GameFile:
    """Play on honestly until the German must turn up one of ``handles``;
    that exchange is written by his modified program."""
    for _ in range(40):
        honest = write(gf, sc, ids)
        ex = honest.exchanges[-1]
        if ex["side"] == "german" and any(set(o["open"]) & handles for o in reveals(ex)):
            forged = _lying(gf, sc, ids, patch)
            assert any(set(o["open"]) & handles for o in reveals(forged.exchanges[-1]))
            return forged
        gf = honest
    raise AssertionError(f"the German never turned up {sorted(handles)}")


@pytest.fixture(params=["immediate", "sealed"])
def selected(request: Any) -> tuple[GameFile, dict[str, Any], dict[str, Any]]:
    """Both Turn 1 selections made honestly; the German set aside
    G-3PzG-1 (3.7) and put G-2PzG-1, G-9A-1, G-9A-2 in the cup."""
    gf, sc, ids = table(request.param)
    gf = write(gf, sc, ids, "chits G-3PzG-1 G-2PzG-1 G-9A-1 G-9A-2")
    gf = write(gf, sc, ids, "chits S-21A S-13A")
    return gf, sc, ids


def test_a_chit_turned_up_that_the_german_never_selected_is_refused_live(selected) -> None:
    """His program claims the set-aside chit is the Air Power chit, which is
    never his to select (it goes into the cup by itself, 7.1.1 / 7.1.2)."""
    gf, sc, ids = selected

    def air_power(items: dict[str, Any], seat: str, *_: Any) -> dict[str, Any]:
        return dict(items, **{"g1.1": {"chit": "G-AirPower", "turn": 1}}) if seat == "german" else items

    forged = _german_lies_until(gf, sc, ids, air_power, {"g1.1"})
    _refused_live(forged, sc, ids, r"german's g1\.1: G-AirPower could not be selected this turn \(7\.1\.1\)")


def test_a_chit_turned_up_of_the_other_side_or_another_turn_is_refused_live(selected) -> None:
    gf, sc, ids = selected
    for lie, match in (({"chit": "S-22A", "turn": 1}, "'S-22A' is not a German chit"),
                       ({"chit": "G-3PzG-1", "turn": 2}, "G-3PzG-1 was put in the cup on turn 2, not this turn")):
        def patch(items: dict[str, Any], seat: str, *_: Any, lie: Any = lie) -> dict[str, Any]:
            return dict(items, **{"g1.1": lie}) if seat == "german" else items

        _refused_live(_german_lies_until(gf, sc, ids, patch, {"g1.1"}), sc, ids, f"german's g1\\.1: {match}")


def test_the_same_chit_turned_up_twice_in_a_turn_is_refused_live(selected) -> None:
    """His program claims each chit in the cup is the 3rd Panzer Group chit
    he set aside, already played: the second time it is turned up, every
    other program refuses it (7.1.2: a chit goes into the cup once)."""
    gf, sc, ids = selected

    def again(items: dict[str, Any], seat: str, *_: Any) -> dict[str, Any]:
        if seat != "german":
            return items
        return {h: ({"chit": "G-3PzG-1", "turn": 1} if h != "g1.1" else v) for h, v in items.items()}

    forged = _german_lies_until(gf, sc, ids, again, {"g1.2", "g1.3", "g1.4"})
    _refused_live(forged, sc, ids, r"german's g1\.[234] shows G-3PzG-1 \(turn 1\), already shown as g1\.1")


@pytest.mark.parametrize("dice", ["immediate", "sealed"])
def test_a_root_committing_another_selection_than_the_sealed_order_is_caught_at_the_audit(dice: str) -> None:
    """The German's selection order seals G-9A-1, his root commits G-9A-3
    under the same handle: no program without his secrets can tell, and
    the Soviet resigns before it is ever turned up; the audit rebuilds the
    root from the disclosed selection and refuses it."""
    gf, sc, ids = table("immediate")

    def swapped(items: dict[str, Any], seat: str, *_: Any) -> dict[str, Any]:
        if seat != "german":
            return items
        return {h: (dict(v, chit="G-9A-3") if v["chit"] == "G-9A-1" else v) for h, v in items.items()}

    forged = _lying(gf, sc, ids, swapped, "chits G-3PzG-1 G-2PzG-1 G-9A-1 G-9A-2")
    selection_n = forged.exchanges[-1]["n"]
    for who in (ids["soviet"], None):
        cycle.replay(forged, sc, who)                         # nothing to see live
    forged = write(forged, sc, ids, "resign")
    assert cycle.replay(forged, sc).over()
    for _ in range(2):
        seat = audit.next_discloser(cycle.replay(forged, sc))
        assert seat is not None
        with Modified(swapped):
            mine = cycle.replay(forged, sc, ids[seat])   # his program replays its own lie
        forged = GameFile(forged.exchanges + [cycle.disclose_exchange(mine, ids[seat])])
    assert audit.next_discloser(cycle.replay(forged, sc)) is None
    with pytest.raises(cycle.Verification, match=f"german's commit {selection_n * 1024 + 1023} of its hidden "
                                                 "items differs from the replay"):
        cycle.replay(forged, sc, None, audit=True)


def test_the_same_start_played_honestly_passes_the_audit(selected) -> None:
    """The control: honest on both sides, resigned and disclosed."""
    import enginehelp

    gf, sc, ids = selected
    gf = write(gf, sc, ids, "resign")
    assert cycle.replay(gf, sc).over()
    gf = enginehelp.disclose_all(gf, sc, ids)
    assert cycle.replay(gf, sc, None, audit=True).over()


@pytest.mark.parametrize("dice", ["immediate", "sealed"])
def test_a_german_program_that_chooses_its_own_mix_of_the_cup_is_caught_at_the_audit(dice: str) -> None:
    """7.2.1: the chits are mixed under their handles by the owner's secret
    stream.  A program that puts them where it likes instead (here: the
    reverse of the true mix) turns up only chits it really selected, which
    every program accepts live; the audit replays the secret stream and
    refuses the first root after the mix."""
    gf, sc, ids = table(dice)
    gf = write(gf, sc, ids, "chits G-3PzG-1 G-2PzG-1 G-9A-1 G-9A-2")
    gf = write(gf, sc, ids, "chits S-21A S-13A")
    cup = ("g1.2", "g1.3", "g1.4")

    def reversed_mix(items: dict[str, Any], seat: str, st: dict[str, Any]) -> dict[str, Any]:
        if seat != "german" or not st["dealt"] or not set(cup) <= set(items):
            return items
        return dict(items, **dict(zip(cup, [items[h] for h in reversed(cup)])))

    shown = None
    for _ in range(40):
        seat = cycle.replay(gf, sc).next_sender()
        if seat == "german":
            with Modified(reversed_mix, audit_only=True):
                gf = GameFile(gf.exchanges + [turn_of(cycle.replay(gf, sc, ids["german"]), ids["german"])])
            shown = next((o for o in reveals(gf.exchanges[-1]) if set(o["open"]) & set(cup)), None)
            if shown:
                break
        else:
            gf = write(gf, sc, ids)
    assert shown is not None
    for who in (ids["soviet"], None):
        cycle.replay(gf, sc, who)                            # accepted live: a chit he did select
    # End the game: whoever sends next resigns at his first decision (an
    # exchange that only resolves the other side's dice has none, and hands on).
    while not cycle.replay(gf, sc).over():
        seat = cycle.replay(gf, sc).next_sender()
        with Modified(reversed_mix, audit_only=True) if seat == "german" else contextlib.nullcontext():
            t = cycle.Turn(cycle.replay(gf, sc, ids[seat]), ids[seat])
            if not t.done:
                t.push("resign")
            gf = GameFile(gf.exchanges + [t.finish()])
    while (seat := audit.next_discloser(cycle.replay(gf, sc))) is not None:
        with Modified(reversed_mix, audit_only=True):
            mine = cycle.replay(gf, sc, ids[seat])
        gf = GameFile(gf.exchanges + [cycle.disclose_exchange(mine, ids[seat])])
    with pytest.raises(cycle.Verification, match="german's commit [0-9]+ of its hidden items differs from the replay"):
        cycle.replay(gf, sc, None, audit=True)
