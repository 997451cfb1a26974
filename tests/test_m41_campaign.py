"""Moscow '41 through the exchange engine: two generated players, signed
files, replay as verification, standing orders, disclosure and audit."""
from __future__ import annotations

import enginehelp

import time

import pytest

from pbem import cycle
from pbem.protocol import gamefile
from m41help import PRACTICE, one_exchange, play_campaign, start


def test_10_14_an_impulse_with_battles_costs_the_defender_one_reply():
    gf, ids = start()
    gf, _ = one_exchange(gf, PRACTICE, ids)                    # soviet set-up
    m = cycle.replay(gf, PRACTICE, ids["german"])
    t = cycle.Turn(m, ids["german"])
    t.push("setup")
    t.push("policy losses first")
    rules = m.rules
    state = t.es["game"]
    hq = next(x for x, e in state["hidden"]["german"]["blocks"].items() if e["block"] == "G-2Pg-HQ")
    assert rules.pending(state).kind == "impulse"
    movers = [x for x, v in state["tokens"].items() if v["area"] == "9" and x != hq and v["side"] == "german"]
    t.push(f"ti; activate {hq}; " + "; ".join(f"move {x} 14" for x in movers) + "; no blitz; no exploit")
    assert t.done and t.waiting_for() == "soviet"
    gf = gamefile.GameFile(gf.exchanges + [t.finish()])
    gf, side = one_exchange(gf, PRACTICE, ids)
    assert side == "soviet"
    m = cycle.replay(gf, PRACTICE)
    kinds = [e["order"]["verb"] for e in m.records[-1].entries]
    assert kinds[0] == "reveal" and kinds[-1] in ("pass", "ti", "si")
    assert any("fires in" in ev.text for ev in m.records[-1].events)
    assert m.records[-1].side == "soviet" and m.next_sender() == "german"


def test_engine_private_answers_keep_their_secrets_across_pushes(monkeypatch):
    from pbem.game import Decision
    from pbem.games.m41.model import load
    from pbem.games.m41.rules import M41Game, M41Rules

    class PrivateSetup(M41Rules):
        """The set-up as a private answer, as it was first written."""

        def pending(self, state):
            d = super().pending(state)
            if d is not None and d.kind == "setup":
                return Decision(d.side, d.kind, d.prompt, d.options, private=True)
            return d

    monkeypatch.setattr(M41Game, "rules", lambda self, scenario, options: PrivateSetup(load(scenario), options))
    gf, ids = start()
    m = cycle.replay(gf, PRACTICE, ids["soviet"])
    t = cycle.Turn(m, ids["soviet"])          # the soviet set-up is answered privately
    gf = gamefile.GameFile(gf.exchanges + [t.finish()])
    m = cycle.replay(gf, PRACTICE, ids["german"])
    t = cycle.Turn(m, ids["german"])          # german set-up answered privately, then impulse 1
    state = t.es["game"]
    hq = next(x for x, e in state["hidden"]["german"]["blocks"].items() if e["block"] == "G-2Pg-HQ")
    t.push(f"ti; activate {hq}")                 # its reveal opens the set-up commitment


def _texts(m):
    return [e.text for r in m.records for e in r.events]


def test_campaign_practice_july_to_december_through_the_engine_then_audit():
    began = time.process_time()      # CPU time: a loaded machine's wall clock says nothing of the program
    gf, ids = play_campaign("immediate")
    m = cycle.replay(gf, PRACTICE)
    assert m.rules.pending(m.state) is None and m.over()
    assert m.state["turn"] > 6 or "decisive" in m.result()
    texts = _texts(m)
    assert any(t.startswith("battle in") for t in texts)
    assert any("Logistics" in t for t in texts)
    assert any(" moves to " in t for t in texts)
    gf = enginehelp.disclose_all(gf, PRACTICE, ids)
    audited = cycle.replay(gf, PRACTICE, None, audit=True)
    assert audited.rules.audit(audited.state) == []
    assert time.process_time() - began < 30


def test_campaign_sealed_dice_opening_replays_for_both_and_a_bystander():
    gf, ids = play_campaign("sealed", stop_after=10)
    seen = {side: cycle.replay(gf, PRACTICE, ids[side]) for side in ids}
    blind = cycle.replay(gf, PRACTICE)
    assert seen["german"].state_hash() == seen["soviet"].state_hash() == blind.state_hash()
    assert any(t.startswith("battle in") or "moves to" in t for t in _texts(blind))


def test_10_12_1_a_program_lying_at_a_showdown_is_caught_naming_token_and_exchange(monkeypatch):
    """A doctored program shows another strength at a showdown than its
    committed root holds (and skips its own check of it): the opponent's
    program refuses the exchange, naming it and the token."""
    from pbem.cycle import hidden
    from pbem.game import IllegalOrder

    gf, ids = start()
    gf, _ = one_exchange(gf, PRACTICE, ids)                    # soviet set-up
    m = cycle.replay(gf, PRACTICE, ids["german"])
    t = cycle.Turn(m, ids["german"])
    t.push("setup")
    state = t.es["game"]
    hidden_blocks = state["hidden"]["german"]["blocks"]
    hq = next(x for x, e in hidden_blocks.items() if e["block"] == "G-2Pg-HQ")
    movers = [x for x, v in state["tokens"].items() if v["area"] == "9" and x != hq and v["side"] == "german"]
    t.push(f"ti; activate {hq}; " + "; ".join(f"move {x} 14" for x in movers) + "; no blitz; no exploit")
    gf = gamefile.GameFile(gf.exchanges + [t.finish()])
    honest_fill, honest_check = hidden.fill_openings, hidden.check_openings

    def lying_fill(*args, **kw):
        order = honest_fill(*args, **kw)
        for op in order.get("openings", []):
            v = op["value"]
            op["value"] = dict(v, strength=v["strength"] - 1 if v["strength"] > 1 else v["strength"] + 1)
        return order
    def lax_check(*args, **kw):
        try:
            return honest_check(*args, **kw)
        except IllegalOrder:
            return None
    liar = cycle.replay(gf, PRACTICE, ids["soviet"])
    with monkeypatch.context() as mp:
        mp.setattr(hidden, "fill_openings", lying_fill)
        mp.setattr(hidden, "check_openings", lax_check)
        t = cycle.Turn(liar, ids["soviet"])
        while not t.done:
            t.push(liar.rules.demo_order(t.es["game"], t.pending()))
        bad = gamefile.GameFile(gf.exchanges + [t.finish()])
    n = len(bad.exchanges)
    lied = [e["order"] for e in bad.exchanges[-1]["orders"] if e["order"]["verb"] == "reveal"][0]["open"][0]
    with pytest.raises(cycle.Verification, match=rf"exchange {n} by soviet: .*{lied}: the opening does not match"):
        cycle.replay(bad, PRACTICE, ids["german"])
