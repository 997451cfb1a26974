"""A whole Victory Roads ADVANCED practice game through the exchange engine
(scenarios/vr/practice-advanced.toml, Bagration's rule set): two generated
players (the scripted player with its standing orders) exchange signed
files from the Turn 1 weather roll to the end of Turn 9, in both dice
timings.  The Soviet Support phase of §11 with its TO draws, the Stavka,
the corps pile under sealed handles, the Approval track with its
Dismissals, End of Reich with the secret End-of-Reich Supports and the
Dismissal pick, last mobilization and the Ally Capitulation decision all
come up; each side's program verifies every exchange of the other, a
bystander's replay and the end-of-game audit (every face-down item opened)
agree."""
from __future__ import annotations

import enginehelp

from pathlib import Path

import pytest

from pbem import cycle
from pbem.protocol.gamefile import GameFile
from pbem.protocol.identity import generate
from pbem.scenario import load_toml

PRACTICE = Path(__file__).resolve().parent.parent / "scenarios" / "vr" / "practice-advanced.toml"
assert enginehelp


def play_game(dice: str, limit: int = 6000):
    sc = load_toml(PRACTICE)
    ids = {"soviet": generate("Pavel", "pavel@example.org"), "german": generate("Anna", "anna@example.org")}
    gf = cycle.new_game(game_id=f"vr-adv-{dice}", game="vr", scenario_name="vr/practice-advanced", scenario=sc,
                        options={}, dice=dice, creator=ids["soviet"], creator_side="soviet",
                        invited={"german": ids["german"].public})
    german = cycle.replay(gf, sc, ids["german"])
    join = cycle.join_exchange(german, ids["german"], "german")
    cycle.advance(german, join, ids["german"])
    soviet = cycle.replay(GameFile(gf.exchanges + [join]), sc, ids["soviet"])
    matches = {"german": german, "soviet": soviet}
    configured: set[tuple[str, str]] = set()
    kinds: dict[str, int] = {}
    for _ in range(limit):
        side = soviet.next_sender()
        if side is None:
            break
        turn = cycle.Turn(matches[side], ids[side])
        for name, value in turn.m.rules.demo_policies(side).items():
            if (side, name) not in configured and not turn.done:
                turn.push(f"policy {name} {value}")
                configured.add((side, name))
        while not turn.done:
            d = turn.pending()
            kinds[d.kind] = kinds.get(d.kind, 0) + 1
            turn.push(turn.m.rules.demo_order(turn.es["game"], d))
        ex = turn.finish()
        for s, m in matches.items():
            cycle.advance(m, ex, ids[s])
    else:
        raise AssertionError("the game did not end")
    return GameFile(list(soviet.exchanges)), sc, ids, matches, kinds


@pytest.fixture(scope="module", params=["sealed", "immediate"])
def game(request):
    return play_game(request.param), request.param


def test_practice_advanced_game_from_turn_1_to_the_end_through_the_engine(game) -> None:
    (gf, sc, ids, matches, kinds), dice = game
    german, soviet = matches["german"], matches["soviet"]
    assert german.over() and soviet.over()
    assert "victory at the end of turn 9" in german.rules.result(german.state)
    assert german.state_hash() == soviet.state_hash()
    bystander = cycle.replay(gf, sc)
    assert bystander.state_hash() == german.state_hash()
    gf = enginehelp.disclose_all(gf, sc, ids)
    audit = cycle.replay(gf, sc, None, audit=True)
    assert audit.state_hash() == german.state_hash()


def test_the_advanced_decisions_came_up_and_the_scripted_player_answered_them(game) -> None:
    (gf, sc, ids, matches, kinds), dice = game
    for kind in ("priority", "tosupport", "stavka", "to-mode", "stavka-enter", "replace"):
        assert kinds.get(kind), f"no {kind} decision in the game"
    st = matches["german"].state
    assert st["tos"] and st["eor"] is not None and st["capitulation"] is not None


def test_the_opponent_never_sees_a_face_down_item(game) -> None:
    (gf, sc, ids, matches, kinds), dice = game
    german, soviet = matches["german"], matches["soviet"]
    assert german.state["hidden"]["soviet"] is None and soviet.state["hidden"]["german"] is None
    block = next(b for b in german.rules.view(german.state, "german").blocks if b.title == "supports")
    handles = soviet.state["supports"]["soviet"]["available"]
    assert f"Soviet: {len(handles)} Available" in "\n".join(block.lines)
