"""A whole practice game between two scripted standing-order players, from
the Turn 1 chit selection until no decision is pending."""
from __future__ import annotations

import re
import tomllib

import pytest

from pbem.game import Decision, public
from pbem.games.avd import GAME, movement
from test_avd_sequence_support import PRACTICE, SeededRng

from pbem.games.avd.bot import POLICIES  # the scripted players' standing orders


def _bot_move(rules, st, d: Decision, rng: SeededRng):
    """Move one active unit toward the enemy, or end the segment."""
    b = rules.board(st)
    top = st["stack"][-1]
    if top["mode"] != "normal":
        enter = [o for o in d.options if o.split()[0] in ("move", "strat") and "UNIT" not in o]
        return rules.parse(enter[0], st, d.side) if enter else {"verb": "end-move"}
    movers = [u for u in b.units_of(d.side) if st["units"][u]["active"] and not st["units"][u]["moved"]
              and not b.spec(u).pvo]
    if not movers or rng.r.random() < 0.3:
        return {"verb": "end-move"}
    uid = movers[rng.r.randrange(len(movers))]
    reach = movement.reach(b, uid)
    ends = sorted(h for h in reach.endable if h != b.hex_of(uid))
    if not ends:
        st["units"][uid]["moved"] = True    # the bot gives up on this unit (test shortcut)
        return {"verb": "end-move"} if len(movers) == 1 else _bot_move(rules, st, d, rng)
    here = b.hex_of(uid)
    enemy = sorted((b.hex_of(u) for u in b.units_of("soviet" if d.side == "german" else "german")),
                   key=lambda h: (b.distance(here, h), h))[:4]
    goal = min(ends, key=lambda h: (min((b.distance(h, e) for e in enemy), default=0), h))
    return {"verb": "move", "unit": uid, "path": reach.path_to(goal)}


def _bot(rules, st, d: Decision, rng: SeededRng):
    if d.private:
        return rules.private_answer(st, d)
    o = rules.standing_answer(st, d, POLICIES[d.side])
    if o is not None:
        return o
    if d.kind == "move":
        return _bot_move(rules, st, d, rng)
    if d.kind == "chits":
        return rules.fill_secrets(st, d.side, rules.parse(d.options[0], st, d.side), lambda: b"")
    wanted = [x for x in d.options if x.split()[0] in ("attack", "buy", "place", "release", "oos", "art",
                                                      "rocket", "relocate", "seed", "activate", "elite",
                                                      "withdraw", "stars", "directive", "loss", "retreat")]
    plain = [x for x in d.options if "UNIT" not in x and " HEX" not in x]
    choice = wanted[0] if wanted and rng.r.random() < 0.8 else (plain[0] if plain else "pass")
    return rules.parse(choice, st, d.side)


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
        st, _ = rules.apply(st, d.side, _bot(rules, st, d, rng), rng)
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
