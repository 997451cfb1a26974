"""A whole Victory Roads Basic practice game through the exchange engine:
two generated players (the scripted demo player, with its standing orders)
exchange signed files from the Turn 1 weather roll to the end of Turn 9, in
both dice timings; each side's program verifies every exchange of the
other; a bystander's replay and the end-of-game audit (every face-down
Support opened) agree.  The opponent's copy never names a face-down
Support, and a program that shows a Support it did not draw is caught."""
from __future__ import annotations

import enginehelp
from vrhelp import play_practice

from pathlib import Path

import pytest

from pbem import cycle

PRACTICE = Path(__file__).resolve().parent.parent / "scenarios" / "vr" / "practice-basic.toml"
assert enginehelp


def play_game(dice: str, limit: int = 4000):
    return play_practice(dice, limit)


@pytest.fixture(scope="module", params=["sealed", "immediate"])
def game(request):
    return play_game(request.param), request.param


def test_practice_game_from_turn_1_to_the_end_through_the_engine(game) -> None:
    (gf, sc, ids, matches), dice = game
    german, soviet = matches["german"], matches["soviet"]
    assert german.over() and soviet.over()
    assert "victory at the end of turn 9" in german.rules.result(german.state)
    assert german.state_hash() == soviet.state_hash()
    bystander = cycle.replay(gf, sc)
    assert bystander.state_hash() == german.state_hash()
    assert sum(len(r.rolls) for r in bystander.records) > 30
    gf = enginehelp.disclose_all(gf, sc, ids)
    audit = cycle.replay(gf, sc, None, audit=True)
    assert audit.state_hash() == german.state_hash()


def test_the_opponent_never_sees_a_face_down_support(game) -> None:
    (gf, sc, ids, matches), dice = game
    german, soviet = matches["german"], matches["soviet"]
    assert german.state["hidden"]["soviet"] is None and soviet.state["hidden"]["german"] is None
    face_down = soviet.state["hidden"]["soviet"]["items"]
    handles = soviet.state["supports"]["soviet"]["available"]
    assert sorted(face_down) == sorted(handles)
    block = next(b for b in german.rules.view(german.state, "german").blocks if b.title == "supports")
    text = "\n".join(block.lines)
    assert f"Soviet: {len(handles)} Available" in text
    for v in face_down.values():
        if all(v["support"] != c[0] for c in soviet.state["supports"]["soviet"]["played"]):
            assert german.rules.scn.supports[v["support"]].name not in text.split("Soviet:")[1].split("German:")[0]
