"""A whole practice game between two scripted standing-order players, from
the Turn 1 chit selection until no decision is pending."""
from __future__ import annotations

import re
import tomllib

import pytest

from pbem.game import Decision, public
from pbem.games.avd import GAME
from avd_fixtures import PRACTICE, SeededRng

from avd_fixtures import bot_order


def _play(seed: int):
    with open(PRACTICE, "rb") as fh:
        rules = GAME.rules(tomllib.load(fh), {})
    st = rules.initial_state()
    rng = SeededRng(seed)
    decisions = 0
    seen_kinds = set()
    while (d := rules.pending(st)) is not None:
        decisions += 1
        assert decisions < 5000, "the game does not end"
        seen_kinds.add(d.kind)
        st, _ = rules.apply(st, d.side, bot_order(rules, st, d, rng), rng)
    return rules, st, seen_kinds


@pytest.mark.parametrize("seed", [3, 11])
def test_practice_game_plays_from_turn_1_to_a_result(seed):
    rules, st, kinds = _play(seed)
    assert rules.pending(st) is None
    text = rules.result(st)
    assert text and st["winner"] in ("german", "soviet", "draw")
    assert {"chits", "move", "combat"} <= kinds
    assert "hidden" not in public(st)
    from pbem.render.view import render_text
    assert "Game over" in render_text(rules.view(st, "german"))       # renders at the end too


def _engine_choice(d: Decision) -> str:
    opts = [o for o in d.options if "UNIT" not in o and "HQ HEX" not in o]
    if d.kind == "move" and opts and opts[0].split()[0] in ("move", "strat"):
        return opts[0]
    for pref in ("end-move", "end-combat", "pass", "done", "guderian no", "stuka no"):
        if pref in opts:
            return pref
    return opts[0]


def test_7_1_3_engine_exchanges_keep_the_chit_selection_sealed_until_drawn():
    """Through the real exchange cycle: each side's program seals its chits
    (its hidden items, committed by the core), the other side replays them
    from handles only."""
    from pbem import cycle
    from pbem.protocol import gamefile
    from pbem.protocol.identity import generate
    from pbem.scenario import load_toml

    scn = load_toml(PRACTICE)
    g, s = generate("Anna", "a@example.org"), generate("Pavel", "p@example.org")
    ids = {"german": g, "soviet": s}
    gf = cycle.new_game(game_id="g-avd-seq", game="avd", scenario_name="avd/practice", scenario=scn,
                           options={}, dice="sealed", creator=g, creator_side="german",
                           invited={"soviet": s.public})
    gf = gamefile.GameFile(gf.exchanges + [cycle.join_exchange(cycle.replay(gf, scn, s), s, "soviet")])
    for _ in range(6):
        side = cycle.replay(gf, scn).next_sender()
        t = cycle.Turn(cycle.replay(gf, scn, ids[side]), ids[side])
        while not t.done:
            t.push(_engine_choice(t.pending()))
        gf = gamefile.GameFile(gf.exchanges + [t.finish()])
    public_state = cycle.replay(gf, scn).es["game"]
    german_view = cycle.replay(gf, scn, g).es["game"]
    assert public_state["hidden"]["german"] is None and public_state["hidden"]["soviet"] is None
    mine = {c for c, _ in german_view["hidden"]["german"]["chits"].values()}
    sealed = [t for t in public_state["cup"] if t.startswith("sealed:")]
    assert mine and sealed
    assert not mine & set(public_state["cup"])          # the cup shows handles, not chits
    assert all(re.fullmatch(r"sealed:[gs]\d+\.\d+", t) for t in sealed)


def test_game_object_describes_itself_and_refuses_unknown_options():
    from pbem.game import ScenarioError
    assert GAME.id == "avd" and GAME.sides == ("german", "soviet")
    assert "strategic_cost" in GAME.options() and "losses" in GAME.policy_kinds()
    with open(PRACTICE, "rb") as fh:
        data = tomllib.load(fh)
    assert GAME.check_scenario(data) == []
    with pytest.raises(ScenarioError, match="unknown rule option"):
        GAME.rules(data, {"no_such_option": 1})
    rules = GAME.rules(data, {"strategic_cost": 2})
    assert rules.scn.strategic_cost == 2
