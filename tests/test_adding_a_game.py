"""docs/ADDING-A-GAME.md's minimal game, exactly as printed there, played
through the real exchange engine in both dice timings: the document cannot
drift from the contract."""
from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

from pbem import cycle
from pbem.game import View
from pbem.protocol.gamefile import GameFile
from pbem.protocol.identity import generate

DOC = Path(__file__).resolve().parent.parent / "docs" / "ADDING-A-GAME.md"


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


@pytest.fixture()
def race(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    (tmp_path / "race.py").write_text(_blocks("python")[0], encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PBEM_GAME_MODULES", "race=race")
    sys.modules.pop("race", None)
    import tomllib

    scenario = tomllib.loads(next(b for b in _blocks("toml") if "[race]" in b))
    return scenario


@pytest.mark.parametrize("dice", ["sealed", "immediate"])
def test_the_documented_game_plays_to_the_end_through_the_engine(race: dict[str, Any], dice: str) -> None:
    red, blue = generate("Anna", "anna@example.org"), generate("Pavel", "pavel@example.org")
    ids = {"red": red, "blue": blue}
    gf = cycle.new_game(game_id="race-doc", game="race", scenario_name="race/short", scenario=race, options={},
                        dice=dice, creator=red, creator_side="red", invited={"blue": blue.public})
    gf = GameFile(gf.exchanges + [cycle.join_exchange(cycle.replay(gf, race, blue), blue, "blue")])
    for _ in range(100):
        bystander = cycle.replay(gf, race)
        if bystander.over():
            break
        seat = bystander.next_sender()
        t = cycle.Turn(cycle.replay(gf, race, ids[seat]), ids[seat])
        while not t.done:
            t.push("roll")
        gf = GameFile(gf.exchanges + [t.finish()])
        assert cycle.replay(gf, race, red).state_hash() == cycle.replay(gf, race, blue).state_hash()
    m = cycle.replay(gf, race)
    assert m.over() and m.result() in ("red wins", "blue wins")
    assert max(m.state["score"].values()) >= 10
    assert isinstance(m.rules.view(m.state, "red"), View)


def test_the_documented_standing_order_answers_without_an_email(race: dict[str, Any]) -> None:
    race = dict(race, race={"goal": 100})          # nobody wins in two rolls
    red, blue = generate("Anna", "anna@example.org"), generate("Pavel", "pavel@example.org")
    gf = cycle.new_game(game_id="race-doc", game="race", scenario_name="race/short", scenario=race, options={},
                        dice="immediate", creator=red, creator_side="red", invited={"blue": blue.public})
    gf = GameFile(gf.exchanges + [cycle.join_exchange(cycle.replay(gf, race, blue), blue, "blue")])
    t = cycle.Turn(cycle.replay(gf, race, red), red)
    t.push("roll")
    gf = GameFile(gf.exchanges + [t.finish()])
    t = cycle.Turn(cycle.replay(gf, race, blue), blue)
    t.push("policy race rest")            # blue will always rest: this decision too
    assert t.done and t.waiting_for() == "red"
    gf = GameFile(gf.exchanges + [t.finish()])
    t = cycle.Turn(cycle.replay(gf, race, red), red)
    t.push("roll")                        # blue's next rest needs no email
    assert not t.done and t.pending().seat == "red"
    assert [e["by"] for e in t.sink.entries] == ["player", "policy"]
