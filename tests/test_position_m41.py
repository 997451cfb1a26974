"""Positions of Moscow '41 (issue 12 item 6): blocks stand face down, so a
position starts at the set-up, each side placing its own blocks in secret
on the scenario's spots, with the public situation around it changed
(turn, weather, control...).  Written from a played state it holds the
public state only, and each side's hidden part only in the audit's."""
from __future__ import annotations

import tomllib

import pytest
import tomli_w

from pbem import cycle, session
from pbem.game import ScenarioError, public
from pbem.games.m41 import GAME
from enginehelp import join_and_play, players
from m41help import PRACTICE, RULES, started

MUD = {"game": "m41", "scenario": "m41/practice", "markers": {"turn": 3, "weather": "mud"}}


def test_a_game_starts_at_the_set_up_from_a_position_in_both_programs():
    data = session.load_scenario("m41/practice")
    anna, pavel = players()
    gf = cycle.new_game(game_id="m41-pos", game="m41", scenario_name="m41/practice", scenario=data, options={},
                        dice="sealed", creator=anna, creator_side="german", invited={"soviet": pavel.public},
                        position=MUD)
    gf, views = join_and_play(gf, data, (anna, pavel), 6)
    m = cycle.replay(gf, data)
    first = m.snapshots[0]["game"]
    assert (first["turn"], first["weather"], first["phase"]) == (3, "mud", "setup")
    assert public(views["german"].state) == public(views["soviet"].state) == public(m.state)
    assert len(m.exchanges) >= 5


def test_the_position_of_a_played_state_is_public_for_a_player_and_full_for_the_audit():
    state = started()
    full = tomllib.loads(tomli_w.dumps(RULES.position_of(state, None)))
    assert set(full["hidden"]) == {"german", "soviet"}
    with pytest.raises(ScenarioError, match="hidden blocks"):
        GAME.rules(PRACTICE, {}).state_from_position(full)
    mine = RULES.position_of({**state, "hidden": {"german": None, "soviet": None}}, "german")
    assert "hidden" not in mine and mine["markers"]["phase"] != "setup"
    with pytest.raises(ScenarioError, match="comes from the set-up|no marker"):   # past the set-up
        GAME.rules(PRACTICE, {}).state_from_position(mine)


@pytest.mark.parametrize("change, says", [
    ({"markers": {"tokens": {}}}, "comes from the set-up"),
    ({"markers": {"snow": 1}}, "no marker 'snow'"),
    ({"markers": {"turn": "three"}}, "takes a int"),
    ({"markers": {"control": {"Atlantis": "german"}}}, "an area of the map"),
    ({"game": "avd"}, "not of m41"),
    ({"units": {}}, "unknown entry 'units'"),
])
def test_a_bad_position_is_refused_in_one_line(change, says):
    with pytest.raises(ScenarioError, match=says) as info:
        GAME.rules(PRACTICE, {}).state_from_position({**MUD, **change})
    assert "\n" not in str(info.value)
