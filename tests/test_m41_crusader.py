"""OR 14.8 Operation Crusader through the hidden-information service: the
German's program shows its LW HQs in November's Final Phase (a private
decision, answered with ``open``), every program removes exactly the shown
tokens, and a program that hides one is caught at the audit."""
from __future__ import annotations

import copy

import enginehelp
import pytest
from m41help import PRACTICE, one_exchange, start
from m41help import FakeRng, empty_board, put

from pbem import cycle
from pbem.game import IllegalOrder
from pbem.games.m41 import GAME
from pbem.games.m41.rules import M41Rules
from pbem.protocol import gamefile

CRUSADER = {"or14_8_crusader": True}
LW_HQS = ("G-2FK", "G-8FK")


def _lw_tokens(m):
    """The German LW HQ tokens on the map, as the German's program knows them."""
    return sorted(t for t, e in m.state["hidden"]["german"]["blocks"].items() if e["block"] in LW_HQS)


def _until_crusader(gf, ids, limit=80):
    """Play the scripted bots until the German's Crusader decision is due."""
    for _ in range(limit):
        blind = cycle.replay(gf, PRACTICE)
        assert not blind.over(), "the game ended before November's Final Phase"
        d = blind.rules.pending(blind.state)
        if d is not None and d.kind == "crusader":
            return gf
        gf, _ = one_exchange(gf, PRACTICE, ids)
    raise AssertionError("no Crusader decision reached")


def _play_through_november(dice):
    gf, ids = start(dice=dice, options=CRUSADER)
    gf = _until_crusader(gf, ids)
    ger = cycle.replay(gf, PRACTICE, ids["german"])
    assert len(_lw_tokens(ger)) == 2, "the practice game should have both LW HQs on the map by November"
    lw = _lw_tokens(ger)
    for _ in range(4):                          # the Crusader answer, then December's first exchanges
        gf, _ = one_exchange(gf, PRACTICE, ids)
    return gf, ids, lw


@pytest.mark.parametrize("dice", ["immediate", "sealed"])
def test_14_8_crusader_replays_alike_for_the_german_the_soviet_and_a_bystander(dice):
    gf, ids, lw = _play_through_november(dice)
    seen = {side: cycle.replay(gf, PRACTICE, ids[side]) for side in ids}
    blind = cycle.replay(gf, PRACTICE)
    assert seen["german"].state_hash() == seen["soviet"].state_hash() == blind.state_hash()
    assert blind.state["turn"] >= 6
    for m in (*seen.values(), blind):            # the LW HQ tokens are gone in every program alike
        assert not set(lw) & set(m.state["tokens"])
    assert _lw_tokens(seen["german"]) == []
    assert blind.state["air"]["ready"] == {"he111": 0, "stuka": 0}
    entries = [e for r in blind.records for e in r.entries if e["order"].get("verb") == "crusader"]
    assert len(entries) == 1
    assert entries[0]["side"] == "german" and entries[0]["by"] == "private"
    assert sorted(entries[0]["order"]["open"]) == lw
    texts = [e.text for r in blind.records for e in r.events]
    assert any(t.startswith("Operation Crusader") and all(tok in t for tok in lw) for t in texts)
    gf = enginehelp.disclose_all(_resign(gf, ids), PRACTICE, ids)
    audited = cycle.replay(gf, PRACTICE, None, audit=True)
    assert audited.rules.audit(audited.state) == []


def _resign(gf, ids):
    while not cycle.replay(gf, PRACTICE).over():
        side = cycle.replay(gf, PRACTICE).next_sender()
        t = cycle.Turn(cycle.replay(gf, PRACTICE, ids[side]), ids[side])
        if not t.done:
            t.push("resign")
        gf = gamefile.GameFile(gf.exchanges + [t.finish()])
    return gf


def test_14_8_a_german_program_that_hides_one_lw_hq_is_caught_at_the_audit(monkeypatch):
    """The German's program shows only one of its two LW HQs (and skips its
    own check of the answer): the Soviet's program and a bystander cannot
    tell; the audit, holding the German's hidden part, refuses the answer."""
    gf, ids = start(options=CRUSADER)
    gf = _until_crusader(gf, ids)
    lw = _lw_tokens(cycle.replay(gf, PRACTICE, ids["german"]))
    assert len(lw) == 2
    honest = M41Rules.private_answer

    def hides_one(self, state, decision):
        order = honest(self, state, decision)
        if decision.kind == "crusader":
            order = dict(order, open=[t for t in order["open"] if t != lw[-1]])
        return order
    with monkeypatch.context() as mp:
        mp.setattr(M41Rules, "private_answer", hides_one)
        mp.setattr(M41Rules, "_lw_hqs_unshown", lambda self, state, shown: [])
        gf, side = one_exchange(gf, PRACTICE, ids)
        assert side == "german"
        sov = cycle.replay(gf, PRACTICE, ids["soviet"])        # nothing live can tell
        blind = cycle.replay(gf, PRACTICE)
        assert sov.state_hash() == blind.state_hash()
        assert lw[0] not in blind.state["tokens"] and lw[-1] in blind.state["tokens"]
        gf = enginehelp.disclose_all(_resign(gf, ids), PRACTICE, ids)
    with pytest.raises(cycle.Verification, match=rf"by german: .*{lw[-1]}.*LW HQ.*OR 14\.8"):
        cycle.replay(gf, PRACTICE, None, audit=True)


# --- the rules alone ---------------------------------------------------------------------

def _november(rules):
    state = empty_board()
    state["options"] = dict(rules.options)
    state["turn"] = 5
    fk2 = put(state, "german", "G-2FK", "9")
    fk8 = put(state, "german", "G-8FK", "12", strength=2)
    hq = put(state, "german", "G-2Pg-HQ", "9")
    rules._final_phase(state, FakeRng(0), [])
    return state, fk2, fk8, hq


def _answer(rules, state, handles, values=None):
    h = state["hidden"]["german"]["blocks"]
    return {"verb": "crusader", "open": handles,
            "openings": [{"handle": t, "value": (values or {}).get(t, h[t])} for t in handles]}


def test_14_8_the_final_phase_waits_for_the_german_to_show_his_lw_hqs():
    rules = GAME.rules(PRACTICE, CRUSADER)
    state, fk2, fk8, hq = _november(rules)
    d = rules.pending(state)
    assert (d.seat, d.kind, d.private) == ("german", "crusader", True)
    assert state["turn"] == 5 and fk2 in state["tokens"]
    answer = rules.private_answer(state, d)
    assert answer == {"verb": "crusader", "open": [fk2, fk8]}
    blind = copy.deepcopy(state)
    blind["hidden"]["german"] = None
    outs = []
    for s in (state, blind):                      # the same public effect, whoever applies it
        after, _ = rules.apply(copy.deepcopy(s), "german", _answer(rules, state, [fk2, fk8]), FakeRng(0))
        assert fk2 not in after["tokens"] and fk8 not in after["tokens"] and hq in after["tokens"]
        assert after["turn"] == 6 and after["german_lost"] == 0
        outs.append({k: v for k, v in after.items() if k != "hidden"})
    assert outs[0] == outs[1]


def test_14_8_an_opening_that_is_not_an_lw_hq_is_refused_in_one_line():
    rules = GAME.rules(PRACTICE, CRUSADER)
    state, fk2, fk8, hq = _november(rules)
    blind = copy.deepcopy(state)
    blind["hidden"]["german"] = None
    with pytest.raises(IllegalOrder) as exc:
        rules.apply(blind, "german", _answer(rules, state, [fk2, fk8, hq]), FakeRng(0))
    assert str(exc.value) == f"{hq}: G-2Pg-HQ is not an LW HQ (OR 14.8: only the LW HQs leave)"


def test_14_8_where_the_german_secrets_are_known_an_unshown_lw_hq_is_refused():
    rules = GAME.rules(PRACTICE, CRUSADER)
    state, fk2, fk8, _ = _november(rules)
    with pytest.raises(IllegalOrder, match=rf"{fk8}: .*LW HQ.*OR 14\.8"):
        rules.apply(copy.deepcopy(state), "german", _answer(rules, state, [fk2]), FakeRng(0))
    blind = copy.deepcopy(state)                  # a program without them takes the answer on trust
    blind["hidden"]["german"] = None
    after, _ = rules.apply(blind, "german", _answer(rules, state, [fk2]), FakeRng(0))
    assert fk8 in after["tokens"]


def test_14_8_not_in_other_months_nor_without_the_option():
    for options, turn in ((CRUSADER, 4), ({}, 5)):
        rules = GAME.rules(PRACTICE, options)
        state = empty_board()
        state["options"] = dict(rules.options)
        state["turn"] = turn
        fk = put(state, "german", "G-2FK", "9")
        rules._final_phase(state, FakeRng(0), [])
        assert fk in state["tokens"] and rules.pending(state).kind != "crusader"
