"""A game whose very first decision is forced (found by the team-streams
review, stop 17): the replay of a join answered it, with the join's
stream, while the join (which carries no order) answered nothing, so every
program refused the first join of such a game.  A join or a game's creation
answers nothing: the forced answer is made in the first exchange of play,
by whoever's program meets it, like any other."""
from __future__ import annotations

import pytest

import enginehelp as eh
from pbem import cycle
from pbem.protocol.gamefile import GameFile


def _joined(dice: str):
    sc = eh.duel_scenario()
    red, blue = eh.players()
    gf = cycle.new_game(game_id=f"g-forced-toss-{dice}", game="duel", scenario_name="duel/test", scenario=sc,
                        options={"forced_toss": True}, dice=dice, creator=red, creator_side="red",
                        invited={"blue": blue.public})
    m = cycle.replay(gf, sc, blue)
    assert m.rules.pending(m.state).forced
    gf = GameFile(gf.exchanges + [cycle.join_exchange(m, blue, "blue")])
    return gf, sc, {"red": red, "blue": blue}


@pytest.mark.parametrize("dice", ["sealed", "immediate"])
def test_a_game_that_opens_with_a_forced_die_can_be_joined_and_played(dice: str) -> None:
    gf, sc, ids = _joined(dice)
    for reader in (None, ids["red"], ids["blue"]):       # every program accepts the join
        m = cycle.replay(gf, sc, reader)
        assert m.state["toss"] is None and not m.records[-1].entries
    for _ in range(6):
        gf = eh.one_exchange(gf, sc, ids)
    m = cycle.replay(gf, sc)
    tossed = [(r.n, e) for r in m.records for e in r.entries if e["order"].get("verb") == "toss"]
    assert len(tossed) == 1 and tossed[0][0] >= 3 and tossed[0][1]["by"] == "forced"
    assert m.state["toss"] in range(1, 7)
    assert [x["purpose"] for r in m.records for x in r.rolls][:1] == ["opening toss d6"]
