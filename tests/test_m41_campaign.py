"""Moscow '41 through the exchange engine: two generated players, signed
files, replay as verification, standing orders, disclosure and audit."""
from __future__ import annotations

import time
import tomllib
from pathlib import Path

import pytest

from pbem import exchange, gamefile
from pbem.identity import generate

ROOT = Path(__file__).resolve().parent.parent
PRACTICE = tomllib.loads((ROOT / "scenarios/m41/practice.toml").read_text())


def start(dice: str = "immediate", scenario=PRACTICE, options=None):
    ger, sov = generate("Anna", "anna@example.org"), generate("Pavel", "pavel@example.org")
    gf = exchange.new_game(game_id="m41-test", game="m41", scenario_name=scenario["scenario"]["id"],
                           scenario=scenario, options=options or {}, dice=dice, creator=ger,
                           creator_side="german", invited={"soviet": sov.public})
    m = exchange.replay(gf, scenario, sov)
    gf = gamefile.GameFile(gf.exchanges + [exchange.join_exchange(m, sov, "soviet")])
    return gf, {"german": ger, "soviet": sov}


def one_exchange(gf, scenario, ids, before=None, choose=None):
    """The side whose turn it is writes one exchange with the scripted bot."""
    side = exchange.replay(gf, scenario).next_sender()
    m = exchange.replay(gf, scenario, ids[side])
    t = exchange.Turn(m, ids[side])
    if before:
        before(t, side)
    while not t.done:
        d = t.pending()
        t.push((choose or m.rules.demo_order)(t.es["game"], d))
    return gamefile.GameFile(gf.exchanges + [t.finish()]), side


def test_10_14_an_impulse_with_battles_costs_the_defender_one_reply():
    gf, ids = start()
    gf, _ = one_exchange(gf, PRACTICE, ids)                    # soviet set-up
    m = exchange.replay(gf, PRACTICE, ids["german"])
    t = exchange.Turn(m, ids["german"])
    t.push("setup")
    t.push("policy losses first")
    rules = m.rules
    state = t.es["game"]
    tok = {v: k for k, v in {t_: rules.sc.placements[state["setup_slots"][t_]].get("block")
                              for t_ in state["setup_slots"]}.items() if v}
    hq = tok["G-2Pg-HQ"]
    movers = [x for x, v in state["tokens"].items() if v["area"] == "9" and x != hq and v["side"] == "german"]
    t.push(f"ti; activate {hq}; " + "; ".join(f"move {x} 14" for x in movers) + "; no blitz; no exploit")
    assert t.done and t.waiting_for() == "soviet"
    gf = gamefile.GameFile(gf.exchanges + [t.finish()])
    gf, side = one_exchange(gf, PRACTICE, ids)
    assert side == "soviet"
    m = exchange.replay(gf, PRACTICE)
    kinds = [e["order"]["verb"] for e in m.records[-1].entries]
    assert kinds[0] == "reveal" and kinds[-1] in ("pass", "ti", "si")
    assert any("fires in" in ev.text for ev in m.records[-1].events)
    assert m.records[-1].side == "soviet" and m.next_sender() == "german"


@pytest.mark.xfail(strict=True, reason="ENGINE BUG: Turn._simulate re-fills private answers with fresh salts on "
                   "every push, so an order pushed after a private answer in the same exchange may refer to secrets "
                   "the next simulation replaces (m41 works around it: set-up is a player order)")
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
    m = exchange.replay(gf, PRACTICE, ids["soviet"])
    t = exchange.Turn(m, ids["soviet"])          # the soviet set-up is answered privately
    gf = gamefile.GameFile(gf.exchanges + [t.finish()])
    m = exchange.replay(gf, PRACTICE, ids["german"])
    t = exchange.Turn(m, ids["german"])          # german set-up answered privately, then impulse 1
    state = t.es["game"]
    hq = next(x for x, e in state["hidden"]["german"]["blocks"].items() if e["block"] == "G-2Pg-HQ")
    t.push(f"ti; activate {hq}")                 # its reveal opens the set-up commitment
