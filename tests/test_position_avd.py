"""Positions of A Victory Denied (issue 12 item 6): a described situation to
start a game from, and where a game stands written in the same form.

A position round-trips (written from a played state, read back: the same
public state); ``pbem new --position`` signs it into the header, so both
players' programs replay from the same start and an edited position does
not verify; a position may keep only a rectangle of the map; every bad
position is one line; ``pbem position`` writes the public position."""
from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest
import tomli_w

from pbem import cycle, session
from pbem.errors import InvalidFile
from pbem.game import ScenarioError, public, seen_by
from pbem.protocol import gamefile
from pbem.protocol.keyfile import load_private
from avd_fixtures import practice_rules
from enginehelp import demo_states, join_and_play, players
from picturehelp import pbem

POSITIONS = Path(__file__).resolve().parent / "data" / "positions"


def _load(name: str) -> dict:
    with open(POSITIONS / name, "rb") as fh:
        return tomllib.load(fh)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    return demo_states(tmp_path_factory, "avd", 70)


def test_a_played_state_round_trips_through_its_position(played):
    """Every state of a scripted game with no face-down chit: written as a
    position, through TOML text, read back by rules that start afresh."""
    _, _, folder, last = played
    m = session.open_game(last, load_private(folder / "anna.key.toml", None)).match
    checked = 0
    for i in range(len(m.snapshots)):
        state = seen_by(m.snapshots[i]["game"], None)
        position = tomllib.loads(tomli_w.dumps(m.rules.position_of(state, "german")))
        assert "hidden" not in position
        if state["sealed"] or any(c.startswith("sealed:") for c in state["cup"]):
            with pytest.raises(ScenarioError, match="face down"):
                practice_rules().state_from_position(position)
            continue
        assert public(practice_rules().state_from_position(position)) == public(state), i
        checked += 1
    assert checked >= 2


def test_the_audit_position_holds_the_hidden_chits_and_cannot_start_a_game(played):
    rules, state, _, _ = played
    position = rules.position_of(state, None)
    assert set(position["hidden"]) <= {"german", "soviet"} and position["hidden"]
    with pytest.raises(ScenarioError, match="secret chits"):
        practice_rules().state_from_position(position)


def test_a_game_started_from_a_position_replays_from_it_in_both_programs():
    data = session.load_scenario("avd/practice")
    position = _load("avd-13-3-bomber.toml")
    anna, pavel = players()
    gf = cycle.new_game(game_id="avd-pos", game="avd", scenario_name="avd/practice", scenario=data, options={},
                        dice="sealed", creator=anna, creator_side="german", invited={"soviet": pavel.public},
                        position=position)
    assert gf.exchanges[0]["game"]["position"] == position
    gf, views = join_and_play(gf, data, (anna, pavel), 6)
    m = cycle.replay(gf, data)                                   # a bystander, from the file alone
    assert len(m.exchanges) == len(gf.exchanges) >= 4
    first = m.snapshots[0]["game"]
    assert first["turn"] == 2 and first["units"]["G-3Pz"]["hex"] == "1712"
    assert first["units"]["G-12Pz"]["where"] == "removed"
    assert public(views["german"].state) == public(views["soviet"].state) == public(m.state)
    # the position is signed with exchange 1: edited, the file does not verify
    text = gf.to_toml()
    edited = text.replace('hex = "1612"', 'hex = "1613"')
    assert edited != text
    with pytest.raises(InvalidFile):
        cycle.replay(gamefile.parse(edited), data)


def test_a_position_may_keep_only_a_rectangle_of_the_map():
    rules = practice_rules()
    rules.start_from(_load("avd-small-map.toml"))
    st = rules.initial_state()
    grid = rules.board(st).grid
    assert len(grid) == 5 * 5 and "1510" in grid and "1914" in grid and "2020" not in grid
    d = rules.pending(st)
    assert (d.side, d.kind) == ("german", "combat")
    assert rules.position_of(st, None)["map"] == {"from": "1510", "to": "1914"}
    outside = _load("avd-small-map.toml")
    outside["units"]["S-45C"] = {"hex": "2020"}
    with pytest.raises(ScenarioError, match="2020"):
        practice_rules().state_from_position(outside)


@pytest.mark.parametrize("change, says", [
    ({"units": {"G-Nope": {"hex": "1712"}}}, "no unit 'G-Nope'"),
    ({"units": {"G-3Pz": {"hex": "9999"}}}, "not a hex of the map"),
    ({"units": {"G-3Pz": {"hex": "1712", "steps": 3}}}, "steps 3"),
    ({"units": {"G-3Pz": {"where": "moon"}}}, "where 'moon'"),
    ({"colour": "red"}, "unknown entry 'colour'"),
    ({"game": "m41"}, "not of avd"),
    ({"turn": 99}, "turn 99"),
    ({"active": "finnish"}, "not a side"),
    ({"markers": {"stukas_ready": "many"}}, "takes a int"),
    ({"markers": {"weather": 1}}, "no marker 'weather'"),
    ({"markers": {"cup": ["sealed:g2.1"]}}, "face down"),
    ({"point": "lunch", "stack": None}, "point 'lunch'"),
])
def test_a_bad_position_is_refused_in_one_line(change, says):
    position = _load("avd-13-3-bomber.toml")
    for k, v in change.items():
        if v is None:
            position.pop(k)
        elif isinstance(v, dict) and isinstance(position.get(k), dict):
            position[k] = {**position[k], **v}
        else:
            position[k] = v
    with pytest.raises(ScenarioError, match=says) as info:
        practice_rules().state_from_position(position)
    assert "\n" not in str(info.value)


def test_pbem_new_position_and_pbem_position_on_the_command_line(played, tmp_path):
    _, _, folder, last = played
    home = tmp_path / "home"
    home.mkdir()
    shutil.copy(folder / "anna.key.toml", home / "key.toml")
    shutil.copy(folder / "anna.id.toml", home / "me.id.toml")
    out = tmp_path / "games"
    out.mkdir()
    pbem(home, "new", "avd/practice", "--seat", "german=me", "--seat", f"soviet={folder / 'pavel.id.toml'}",
         "--position", str(POSITIONS / "avd-13-2-artillery.toml"), "--out", str(out))
    (created,) = out.glob("*-001.toml")
    r = pbem(home, "sitrep", str(created))
    assert "Turn 2" in r.stdout
    r = pbem(home, "position", str(created), "--out", str(tmp_path / "p.toml"))
    assert "(public)" in r.stdout
    written = tomllib.loads((tmp_path / "p.toml").read_text(encoding="utf-8"))
    assert written["units"]["G-26ID"] == {"hex": "1621"} and written["stack"][-1] == {"k": "art", "left": 2}
    assert "hidden" not in written
    # the written position starts a game in the same place
    pbem(home, "new", "avd/practice", "--seat", "german=me", "--seat", f"soviet={folder / 'pavel.id.toml'}",
         "--position", str(tmp_path / "p.toml"), "--out", str(tmp_path))
    r = pbem(home, "position", str(last))                      # mid-turn, chits face down: still written
    assert (last.parent / f"{last.stem}-position.toml").is_file()
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "avd"\n[units]\nG-3Pz = {hex = "0000"}\n', encoding="utf-8")
    for args, says in ((["--position", str(bad)], "not a hex of the map"),
                       (["--position", str(tmp_path / "none.toml")], "no such file")):
        r = pbem(home, "new", "avd/practice", "--seat", "german=me", "--seat",
                 f"soviet={folder / 'pavel.id.toml'}", *args, "--out", str(out), ok=False)
        assert says in r.stderr
    assert len(list(out.glob("*.toml"))) == 1
