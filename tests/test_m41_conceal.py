"""Moscow '41: blocks are concealed again as the rulebook says (issue 9,
item 3).  10.15: after the one round of a battle, if one side has no units
left the other side's blocks are concealed (attacking Fast blocks that
cleared a Green area stay face up while they may Blitz); if the area is
still contested the attackers stay face up and the defenders are concealed.
10.17: an HQ is stood upright at its deactivation.  The public state keeps no
identity of a concealed block; only the opponent's own program remembers
what it saw, dated, in its own hidden part."""
from __future__ import annotations

import copy
import json

from pbem.game import public
from pbem.protocol.canon import canonical
from m41help import cleared_rudnya
from fakedice import d6
from m41help import RULES, SC, FakeRng, begin, empty_board, german_everywhere, play, put, shown


def _public_text(state):
    return json.dumps(public(state))


def _e11(rolls):
    """Vyazma (Yellow, City): a heart HQ and a DL against two German tanks;
    the three hits are absorbed, so the area stays contested (E11)."""
    state = empty_board()
    german_everywhere(state, "22")
    state["dl"]["22"] = "soviet"
    hq = put(state, "soviet", "S-W-HQ", "22", strength=0)
    t1, t2 = put(state, "german", "G-24PzK", "17"), put(state, "german", "G-47PzK", "23")
    gud = put(state, "german", "G-2Pg-HQ", "17")
    begin(state, "german")
    order = {"verb": "ti", "activate": [{"token": gud, "path": []}],
             "moves": [{"token": t1, "path": ["22"]}, {"token": t2, "path": ["22"]}], "skip": ["blitz", "exploit"]}
    state, events = play(state, "german", order, FakeRng(0, d6(*rolls)))
    return state, hq, t1, t2, gud


def test_10_15_still_contested_attackers_stay_face_up_defenders_are_concealed():
    state, hq, t1, t2, gud = _e11([6, 4, 5, 6, 1, 1, 1, 1])
    assert state["tokens"][hq]["area"] == "22" and not state["tokens"][hq]["revealed"]
    assert "block" not in state["tokens"][hq] and "strength" not in state["tokens"][hq]
    assert "S-W-HQ" not in _public_text(state)
    assert state["tokens"][t1]["revealed"] and state["tokens"][t2]["revealed"]        # the attackers stay visible
    assert {state["tokens"][t1]["strength"], state["tokens"][t2]["strength"]} == {3, 4}
    assert RULES.audit(state) == []


def test_10_17_the_activated_hq_is_concealed_at_deactivation():
    state, hq, t1, t2, gud = _e11([6, 4, 5, 6, 1, 1, 1, 1])
    assert not state["tokens"][gud]["revealed"] and "G-2Pg-HQ" not in _public_text(state)
    assert state["hidden"]["german"]["blocks"][gud]["strength"] == 3               # reduced, then stood upright
    assert RULES.audit(state) == []


def test_10_15_defender_wiped_out_remaining_attackers_are_concealed():
    state = empty_board()
    german_everywhere(state, "22")
    put(state, "soviet", "S-16A", "22", strength=1)
    inf = put(state, "german", "G-5K", "17")
    gud = put(state, "german", "G-2Pg-HQ", "17")
    begin(state, "german")
    order = {"verb": "ti", "activate": [{"token": gud, "path": []}], "moves": [{"token": inf, "path": ["22"]}],
             "skip": ["blitz", "exploit"]}
    state, _ = play(state, "german", order, FakeRng(0, d6(1, 6, 6, 6, 6)))
    assert state["control"]["22"] == "german"
    assert not state["tokens"][inf]["revealed"] and "G-5K" not in _public_text(state)
    assert RULES.audit(state) == []


def test_10_15_fast_blocks_that_cleared_a_green_area_stay_face_up_until_the_blitz_is_over():
    state, gud, tank, target = cleared_rudnya()
    assert RULES.pending(state).kind == "blitz"
    assert state["tokens"][tank]["revealed"]                   # marked for the Blitz Segment
    after, _ = play(state, "german", {"verb": "blitz"}, FakeRng(0))
    assert not after["tokens"][tank]["revealed"] and "G-24PzK" not in _public_text(after)
    assert RULES.audit(after) == []


def test_10_15_attacker_wiped_out_the_defenders_are_concealed():
    state = empty_board()
    german_everywhere(state, "22")
    sov = put(state, "soviet", "S-16A", "22", strength=3)
    inf = put(state, "german", "G-5K", "17", strength=1)
    gud = put(state, "german", "G-2Pg-HQ", "17")
    begin(state, "german")
    order = {"verb": "ti", "activate": [{"token": gud, "path": []}], "moves": [{"token": inf, "path": ["22"]}],
             "skip": ["blitz", "exploit"]}
    state, _ = play(state, "german", order, FakeRng(0, d6(6, 1, 1, 1, 1)))
    assert inf not in state["tokens"] and not state["tokens"][sov]["revealed"]
    assert "S-16A" not in _public_text(state)


def test_concealment_replays_blind_to_the_same_public_state():
    """The program without the defender's secrets conceals from the
    reveal's public openings alone and reaches the same public state."""
    state = empty_board()
    german_everywhere(state, "22")
    state["dl"]["22"] = "soviet"
    put(state, "soviet", "S-W-HQ", "22", strength=0)
    t1 = put(state, "german", "G-24PzK", "17")
    gud = put(state, "german", "G-2Pg-HQ", "17")
    begin(state, "german")
    order = RULES.fill_secrets(state, "german", {"verb": "ti", "activate": [{"token": gud, "path": []}],
                                                 "moves": [{"token": t1, "path": ["22"]}],
                                                 "skip": ["blitz", "exploit"]}, lambda: b"\x07" * 16)
    full, _ = RULES.apply(copy.deepcopy(state), "german", order, FakeRng(0))
    blind = copy.deepcopy(full)
    blind["hidden"]["soviet"] = None
    n = 0
    while RULES.pending(full) is not None and RULES.pending(full).kind == "reveal":
        d = RULES.pending(full)
        ans = shown(full, d.side, RULES.fill_secrets(full, d.side, RULES.private_answer(full, d), lambda: b""))
        full, _ = RULES.apply(full, d.side, ans, FakeRng(0, d6(*[1] * 20)))
        blind, _ = RULES.apply(blind, d.side, ans if d.side == "german" else
                               {k: v for k, v in ans.items() if k != "secret"}, FakeRng(0, d6(*[1] * 20)))
        n += 1
    assert n == 2 and canonical(public(full)) == canonical(public(blind))
    assert not full["tokens"][gud]["revealed"] and RULES.audit(full) == []


def test_sitrep_shows_a_dated_past_sighting_only_to_the_side_that_saw_it():
    from rich.console import Console

    from pbem.render.view import render_rich

    state, hq, t1, t2, gud = _e11([6, 4, 5, 6, 1, 1, 1, 1])

    def text(side):
        console = Console(record=True, width=400)
        console.print(render_rich(RULES.view(state, side)))
        return console.export_text()
    german, soviet, anyone = text("german"), text("soviet"), text(None)
    when = f"seen at turn {state['turn']} impulse {state['impulse'] - 1}"          # the impulse of the battle
    assert f"{hq} (red) {when}: {SC.spec('S-W-HQ').name}, strength 0 (may be out of date)" in german
    assert f"{gud} (black) {when}: {SC.spec('G-2Pg-HQ').name}, strength 3 (may be out of date)" in soviet
    assert "seen at" not in anyone and SC.spec("S-W-HQ").name not in anyone
    assert "S-W-HQ" not in json.dumps(public(state)) and "seen" not in json.dumps(public(state))
