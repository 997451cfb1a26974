"""The sitrep of a multiplayer A Victory Awaits game (AVA 19, 20), seat by
seat, on the four-seat practice set-up (ava/practice-multi): the seat list
with sides and roles, the Game Controller's queue (19.4) and the cup, the
Master cup and each HQ cup (20.2), and each seat's own hidden part only.

The secrecy tests search every seat's rendered sitrep for the chit ids
another seat holds face down, position after position of a game the demo
player plays: no seat of the other side ever sees one; a team-mate does
only under 20, where the team's split of its HQ chits among its cups is
the team's shared hidden part (20.2), and never under 19 (the core seals
a seat's chits to that seat)."""
from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from avamulti import SCENARIO, SEATS, options
from enginehelp import rules_order
from fakedice import ScriptedDice

from pbem.game import Decision
from pbem.games.ava import GAME
from pbem.render.view import render_text

SEALED = "sealed:"
SEAT_LINES = {
    "axis_north": "axis_north: Axis - Axis north: 3rd Panzergruppe and 9th Army",
    "axis_south": "axis_south: Axis, side commands (A49) - Axis south: 2nd Panzergruppe, 4th and 2nd Armies",
    "soviet_north": "soviet_north: Soviet, side commands (A49) - Soviet north: 22nd, 20th, 16th and 19th Armies",
    "soviet_south": "soviet_south: Soviet, Game Controller (19.3) - Soviet south: 13th, 21st, 3rd, 4th and 10th "
                    "Armies; Game Controller",
}


def rules_and_state(mode: str, data: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
    r = GAME.rules(data or SCENARIO, GAME.validate_options(options(mode)))
    return r, r.initial_state()


def play(r: Any, st: dict[str, Any], text: str, dice: Any = None) -> None:
    d = r.pending(st)
    r.apply(st, d.seat, r.parse(text, st, d.seat), dice or ScriptedDice())


def reveal(r: Any, st: dict[str, Any]) -> None:
    d = r.pending(st)
    assert d.kind == "reveal" and d.private
    r.apply(st, d.seat, r.private_answer(st, d), ScriptedDice())


def situation(r: Any, st: dict[str, Any], seat: str | None) -> list[str]:
    """The situation and seats blocks' lines (one line each, unwrapped)."""
    view = r.view(st, seat)
    return [ln for b in view.blocks if b.title in ("situation", "seats") for ln in b.lines]


def line(lines: list[str], start: str) -> str | None:
    return next((ln for ln in lines if ln.startswith(start)), None)


# ------------------------------------------------------------ 19: the Game Controller
def controller_queue() -> tuple[Any, dict[str, Any]]:
    """19: no Surprise Attack; Axis AX-9A, AX-4A, AX-3PzG face down (a1.1-
    a1.3, held by axis_south, A49), Guderian in hand; Soviet SU-10A, SU-3A,
    SU-4A (s1.1-s1.3, held by soviet_north); the Controller has drawn a1.1
    (AX-9A, revealed, waiting) and held s1.1 and s1.2 face down."""
    r, st = rules_and_state("controller")
    play(r, st, "end-combat")
    play(r, st, "chits AX-9A AX-4A AX-3PzG guderian")
    play(r, st, "chits SU-10A SU-3A SU-4A", ScriptedDice(draws=["sealed:a1.1"]))
    reveal(r, st)
    play(r, st, "interrupt no")
    for token in ("sealed:s1.1", "sealed:s1.2"):
        play(r, st, "draw", ScriptedDice(draws=[token]))
        play(r, st, "hold")
    return r, st


@pytest.mark.parametrize("seat", [*SEATS, None])
def test_19_every_seat_sees_the_seats_the_queue_the_cup_and_its_own_chits_only(seat: str | None) -> None:
    r, st = controller_queue()
    lines = situation(r, st, seat)
    # the seat list: sides, the Controller (19.3), the side-commanding seats (A49); the viewer marked
    assert "Multiplayer (19, with a Game Controller): 4 seats" in lines
    for s, text in SEAT_LINES.items():
        name, rest = text.split(": ", 1)
        assert (f"{name} (you): {rest}" if s == seat else text) in lines, s
    # the cup: the face-down tokens by the side of their backs (a1.2, a1.3; s1.3), the known chits by name
    assert "Cup: 4 chit(s): face down Axis 2, Soviet 1; known: supply" in lines
    # the Controller's queue in order; a face-down entry by its back, named to the seat holding it
    mine = seat == "soviet_north"
    assert line(lines, "Game Controller soviet_south's queue (19.4): ") == (
        "Game Controller soviet_south's queue (19.4): 1 AX-9A (waiting); "
        + ("2 face down (Soviet; yours: SU-10A); 3 face down (Soviet; yours: SU-3A)" if mine
           else "2 face down (Soviet); 3 face down (Soviet)"))
    # A49: the side's commanding seat holds its face-down chits; no other seat, team-mate or not
    own = line(lines, "Your face-down chits")
    expected = {"axis_south": "AX-3PzG, AX-4A", "soviet_north": "SU-10A, SU-3A, SU-4A"}.get(str(seat))
    assert own == (f"Your face-down chits this turn (secret): {expected}" if expected else None)


def test_19_the_queue_shows_a_command_running_then_done() -> None:
    r, st = controller_queue()
    play(r, st, "stop")                                     # AX-9A runs (axis_north's command, A49)
    queue = line(situation(r, st, "axis_north"), "Game Controller")
    assert queue is not None and queue.endswith(": 1 AX-9A (running); 2 face down (Soviet); 3 face down (Soviet)")
    play(r, st, "end-move")
    play(r, st, "end-combat")                               # complete; 19.4(6): entry 2 must be turned up
    assert (r.pending(st).seat, r.pending(st).kind) == ("soviet_north", "reveal")
    queue = line(situation(r, st, None), "Game Controller")
    assert queue is not None and queue.endswith(": 1 AX-9A (done); 2 face down (Soviet); 3 face down (Soviet)")
    reveal(r, st)
    lines = situation(r, st, "soviet_north")
    queue = line(lines, "Game Controller")
    assert queue is not None and queue.endswith(": 1 AX-9A (done); 2 SU-10A (waiting); "
                                                "3 face down (Soviet; yours: SU-3A)")
    # a chit turned up is no longer among the seat's face-down ones
    assert "Your face-down chits this turn (secret): SU-3A, SU-4A" in lines


# ------------------------------------------------------------ 20: the Master cup and the HQ cups
def test_20_the_hq_cups_fill_seat_by_seat_and_only_the_owner_sees_its_own() -> None:
    r, st = rules_and_state("variant")
    for seat in [*SEATS, None]:
        lines = situation(r, st, seat)
        assert "Multiplayer (20, no Game Controller): 4 seats" in lines
        assert "HQ cups: axis_north not filled, axis_south not filled, soviet_north not filled, " \
               "soviet_south not filled" in lines
        assert not any("Game Controller (19.3)" in ln for ln in lines)      # 20 has no Controller
    play(r, st, "cup AX-3PzG AX-3PzG-2 AX-9A")
    for seat in [*SEATS, None]:
        lines = situation(r, st, seat)
        assert "HQ cups: axis_north 3, axis_south not filled, soviet_north not filled, soviet_south not filled" \
            in lines, seat
        own = line(lines, "Your HQ cup")
        assert own == ("Your HQ cup (secret): AX-3PzG, AX-3PzG-2, AX-9A" if seat == "axis_north" else None), seat


def variant_draw() -> tuple[Any, dict[str, Any]]:
    """20: every seat's cup as pbem proposes it (Turn 1: soviet_north's
    three are dummies), no Surprise Attack, then an Axis Master chit: each
    Axis seat has drawn one chit from its HQ cup, both still face down."""
    r, st = rules_and_state("variant")
    for _ in SEATS:
        play(r, st, r.pending(st).options[0])
    play(r, st, "end-combat", ScriptedDice(draws=["master:axis", 0, 0]))
    return r, st


@pytest.mark.parametrize("seat", [*SEATS, None])
def test_20_every_seat_sees_the_master_cup_each_hq_cup_count_and_its_own_cup_only(seat: str | None) -> None:
    r, st = variant_draw()
    lines = situation(r, st, seat)
    for s, text in SEAT_LINES.items():
        text = text.replace(", Game Controller (19.3)", "")          # the scenario's title keeps its words
        name, rest = text.split(": ", 1)
        assert (f"{name} (you): {rest}" if s == seat else text) in lines, s
    # 20.2: 7 Master chits a side on Turn 1 for a team of two, one Axis drawn; the chits beside them
    assert "Master cup: 16 chit(s): Axis Master 6, Soviet Master 7; also AX-okh, SU-reserve, supply" in lines
    assert "HQ cups: axis_north 2, axis_south 1, soviet_north 3, soviet_south 3" in lines
    assert "Drawn now: axis_north: face down; axis_south: face down" in lines
    hidden = st["hidden"]
    cups = {s: sorted("dummy" if c.startswith("dummy:") else c for c, _ in hidden[s]["chits"].values())
            for s in SEATS}
    assert cups == {"axis_north": ["AX-3PzG", "AX-3PzG-2", "AX-9A"], "axis_south": ["AX-2PzG", "AX-4A"],
                    "soviet_north": ["dummy"] * 3, "soviet_south": ["SU-10A", "SU-3A", "SU-4A"]}
    own = [ln for ln in lines if ln.startswith(("Your HQ cup", "Drawn from it"))]
    if seat is None:
        assert own == []
        return
    drawn = {t[len(SEALED):] for d in st["stack"][-1]["draws"] for t in [d["token"]] if d["seat"] == seat}
    names = {h: ("dummy" if c.startswith("dummy:") else c) for h, (c, _) in hidden[seat]["chits"].items()}
    in_cup = sorted(n for h, n in names.items() if h not in drawn)
    assert own[0] == f"Your HQ cup (secret): {', '.join(in_cup)}"
    assert own[1:] == ([f"Drawn from it, still face down (secret): {names[h]}" for h in drawn])


def test_20_a_dummy_turned_up_shows_as_a_dummy() -> None:
    r, st = rules_and_state("variant")
    for _ in SEATS:
        play(r, st, r.pending(st).options[0])
    play(r, st, "end-combat", ScriptedDice(draws=["master:soviet", 0, 0]))
    reveal(r, st)                                                    # soviet_north's cup holds dummies only
    lines = situation(r, st, None)
    assert line(lines, "Drawn now: ") == "Drawn now: soviet_north: dummy; soviet_south: face down"


def test_20_a_turned_up_chit_leaves_the_owners_secret_lines() -> None:
    r, st = variant_draw()
    drawn = st["stack"][-1]["draws"][0]
    reveal(r, st)                                                    # axis_north turns its chit up
    lines = situation(r, st, "axis_north")
    assert st["shown"][drawn["token"][len(SEALED):]] == "AX-3PzG"
    assert line(lines, "Drawn now: ") == "Drawn now: axis_north: AX-3PzG; axis_south: face down"
    assert line(lines, "Drawn from it") is None
    assert line(lines, "Your HQ cup") == "Your HQ cup (secret): AX-3PzG-2, AX-9A"


# ------------------------------------------------------------ secrecy
def unique_hq_names(data: dict[str, Any]) -> dict[str, Any]:
    """The practice set-up with every HQ chit renamed apart from its HQ (a
    unit shows as its counter id, and an HQ and its chit share one, as on
    the printed pieces): in this copy a chit id can only show where the
    sitrep names a chit."""
    data = copy.deepcopy(data)
    renamed = {cid: f"{cid}-chit" for cid in data["chits"] if cid in data["units"]}
    data["chits"] = {renamed.get(cid, cid): c for cid, c in data["chits"].items()}
    for seat in (data.get("seats") or {}).values():
        if "chits" in seat:
            seat["chits"] = [renamed.get(c, c) for c in seat["chits"]]
    return data


def face_down(st: dict[str, Any], seat: str) -> list[str]:
    """The chits ``seat`` holds face down now (its handles still sealed)."""
    mine = (st["hidden"].get(seat) or {}).get("chits") or {}
    return [c for h, (c, _) in mine.items() if st["sealed"].get(h) == seat]


def mentions(text: str, chit: str) -> int:
    """How often ``chit`` shows as a whole word (AX-3PzG is not named by
    AX-3PzG-2), searched in the bytes of the text."""
    return len(re.findall(rb"(?<![\w-])" + re.escape(chit.encode()) + rb"(?![\w-])", text.encode()))


def drive(r: Any, st: dict[str, Any], d: Decision, dice: ScriptedDice) -> None:
    """One decision as the demo player (or the owner's program, for a
    private one) answers it."""
    if d.private:
        order = r.private_answer(st, d)
    else:
        order = rules_order(r, st, d)
    r.apply(st, d.seat, order, dice)


@pytest.mark.parametrize("mode", ["controller", "variant"])
def test_secrecy_no_seat_sitrep_names_a_chit_another_seat_holds_face_down(mode: str) -> None:
    r, st = rules_and_state(mode, unique_hq_names(SCENARIO))
    assert not {r.short(u) for u in r.scn.units} & set(r.scn.chits)
    dice = ScriptedDice(seed=7, draws=[])
    checked = own_seen = mate_seen = 0
    side = {s: r.side_of_seat(s) for s in SEATS}
    for _ in range(160):
        d = r.pending(st)
        if d is None:
            break
        if d.kind in ("reveal", "interrupt", "zhukov", "queue", "cup", "chits"):   # the chits' positions
            held = {s: face_down(st, s) for s in SEATS}
            public = render_text(r.view(st, None))
            for seat in SEATS:
                text = render_text(r.view(st, seat))
                for other, chits in held.items():
                    for chit in chits:
                        if other == seat:
                            own_seen += mentions(text, chit) > mentions(public, chit)
                            continue
                        if mode == "variant" and side[other] == side[seat]:
                            # 20.2: the team's split is the team's: a partner's cup shows to its team-mate
                            mate_seen += mentions(text, chit) > mentions(public, chit)
                            continue
                        # 20.2: while the HQ cups fill, the prompt lists the side's chits to divide (public);
                        # which cup holds which is not, so no seat's text names one more often than anyone's
                        allowed = mentions(public, chit) if d.kind == "cup" else 0
                        assert mentions(text, chit) == allowed, f"{seat} sees {other}'s face-down {chit} ({d.kind})"
                        checked += 1
        drive(r, st, d, dice)
    # the search ran, and would find a chit id: each seat's own face-down chits show in its own sitrep
    assert checked > 100 and own_seen > 20, (checked, own_seen)
    # ... and, under 20, a team-mate's cup in a partner's sitrep (opponents never: checked above)
    assert (mate_seen > 10) if mode == "variant" else mate_seen == 0, mate_seen


@pytest.mark.parametrize("seat", [*SEATS, None])
def test_20_a_seat_sees_its_partners_hq_cups_and_never_the_other_sides(seat: str | None) -> None:
    r, st = variant_draw()
    lines = situation(r, st, seat)
    team = [ln for ln in lines if "(team secret, 20.2)" in ln]
    expected = {
        "axis_north": ["axis_south's HQ cup as filled this turn (team secret, 20.2): AX-2PzG, AX-4A"],
        "axis_south": ["axis_north's HQ cup as filled this turn (team secret, 20.2): AX-3PzG, AX-3PzG-2, AX-9A"],
        "soviet_north": ["soviet_south's HQ cup as filled this turn (team secret, 20.2): SU-10A, SU-3A, SU-4A"],
        "soviet_south": ["soviet_north's HQ cup as filled this turn (team secret, 20.2): dummy, dummy, dummy"],
    }
    assert team == expected.get(seat or "", [])
    # the bytes: with chit ids no counter shares, the other side's cups show nowhere more than in public
    r, st = rules_and_state("variant", unique_hq_names(SCENARIO))
    for _ in SEATS:
        play(r, st, r.pending(st).options[0])
    public = render_text(r.view(st, None))
    text = render_text(r.view(st, seat))
    for side in ("axis", "soviet"):
        cups = st["hidden"][f"team:{side}"]["cups"]
        chits = [c for cup in cups.values() for c in cup if not c.startswith("dummy:")]
        assert chits
        for c in chits:
            mine = seat is not None and r.side_of_seat(seat) == side
            if mine and c not in cups.get(seat or "", []):
                assert mentions(text, c) > mentions(public, c), (seat, c)     # a partner's chit: shown
            elif not mine:
                assert mentions(text, c) == mentions(public, c), (seat, c)    # the other side's: never
