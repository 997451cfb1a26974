"""The ``buy first`` standing order answers the first purchase listed
without probing it (speed only): every purchase the rules list is one they
accept.  Checked here on every buy decision of scripted practice games (and
of positions with many Reinforcement Points), against the probing answer
the policy gave before: the first listed purchase ``probe`` accepts."""
from __future__ import annotations

import copy

import pytest

from pbem.game import probe
from pbem.games.avd import orders, policies
from avd_fixtures import SeededRng, bot_order, frame, practice_rules, rp_rules
from fakedice import ScriptedDice


def _probed(rules, st, d):
    """The answer the policy gave when it probed each purchase in turn."""
    for text in d.options:
        if not text.startswith("buy ") or "UNIT" in text:
            continue
        order = orders.parse(text, rules.scn)
        if probe(rules, st, d.seat, order) is None:
            return order
    return {"verb": "done"}


def _check(rules, st, d) -> int:
    """The decision's purchases are all accepted and the policy answers as
    the probing policy did; the number of purchases listed."""
    buys = [t for t in d.options if t.startswith("buy ")]
    before = copy.deepcopy(st)
    for text in buys:
        assert probe(rules, st, d.seat, orders.parse(text, rules.scn)) is None, text
    assert rules.standing_answer(st, d, {"buy": "first"}) == _probed(rules, st, d)
    assert st == before
    return len(buys)


def _scripted_buys(seed: int):
    """Each buy decision of a scripted practice game, with its state."""
    rules = practice_rules()
    st, rng = rules.initial_state(), SeededRng(seed)
    while (d := rules.pending(st)) is not None:
        if d.kind == "buy":
            yield rules, st, d
        st, _ = rules.apply(st, d.side, bot_order(rules, st, d, rng), rng)


@pytest.mark.parametrize("seed", [3, 11, 17])
def test_every_listed_purchase_of_a_scripted_game_is_accepted(seed):
    assert sum(_check(rules, st, d) for rules, st, d in _scripted_buys(seed)) > 0


@pytest.mark.parametrize("rp", [3, 6])
def test_every_purchase_is_accepted_until_the_points_run_out(rp):
    """HQs with and without their chit, '*' units placed one per HQ,
    purchases until no point is left."""
    rules = rp_rules(rp)
    st = rules.initial_state()
    st["turn"] = 2
    st["stack"] = [frame("endturn"), frame("reinf", stage="buy")]
    rules._run(st, ScriptedDice(), [])
    kinds = set()
    for _ in range(rp + 1):
        d = rules.pending(st)
        if d is None or d.kind != "buy":
            break
        assert _check(rules, st, d) > 0
        order = policies._buy(rules, st, d, "first")
        if order["verb"] != "buy":
            break
        kinds.add((rules.scn.units[order["unit"]].kind, order["chit"]))
        st, _ = rules.apply(st, d.side, order, SeededRng(rp))
    assert kinds
