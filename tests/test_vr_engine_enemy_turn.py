"""Supports played in the other side's turn (notes §2.3, §7.3): each a
``pending()`` decision of its owner at every moment the engine's Events
allow, with a standing order that answers it without an email: the
defender's battle Support (``react``: never, or the named rule ``odds3``),
a supply Event before a battle's supply check (``enemy-airlift``, R-97),
the TO the German names for Stalin after Warsaw fell (``stalin-to``,
19.1.2).  The last test counts the exchanges of a practice game with the
standing order on and with the owner answering himself."""
from __future__ import annotations

import hashlib
import os
import random
from pathlib import Path
from typing import Any

import pytest

import vrhelp
from enginehelp import new_and_joined
from fakedice import ScriptedDice
from pbem import cycle
from pbem.games.vr import seq_battle
from pbem.protocol.identity import Identity
from pbem.scenario import load_toml

u = vrhelp.unit
JU = {"ju52e": {"name": "Ju-52 (test)", "side": "german", "kind": "airplane", "airlift": True, "enemy_turn": True,
                "event": "TEST DATA"}}


def _airlift_rules(supports=JU):
    return vrhelp.rules(units={"s": u("sov", 12), "g": u("ger", 4), "ghq": vrhelp.hq("ger", 2)}, supports=supports,
                        pools={"german": {k: 1 for k in supports}},
                        countries={"germany": ["4820"]}, cities={"major": ["4820"]},
                        roads={"r": ["4820", "4821"]}, control={"default": "soviet", "german": ["4820", "4821"]})


def _attack(r, placed, give=("ju52e",)):
    st = vrhelp.engine_state(r, placed, vrhelp.combat_frame())
    hs = vrhelp.give_supports(st, "german", list(give))
    vrhelp.order(r, st, "soviet", f"attack {placed['g']} with s", ScriptedDice(seed=1))
    return st, hs


def test_R97_a_defender_about_to_be_found_out_of_supply_may_play_a_supply_event_of_the_enemy_turn():
    r = _airlift_rules()
    st, (h,) = _attack(r, {"s": "5225", "g": "5125"})
    d = r.pending(st)
    assert d.seat == "german" and d.kind == "enemy-airlift" and d.policy == "enemy-airlift"
    assert r.standing_answer(st, d, {"enemy-airlift": "never"}) == {"verb": "pass"}
    assert r.standing_answer(st, d, {"enemy-airlift": "ask"}) is None
    vrhelp.order(r, st, "german", f"airlift {h} 5125", ScriptedDice(seed=1))
    assert "5125" in st["airlift"] and not st["units"]["g"]["oos"]
    assert r.pending(st).kind != "enemy-airlift"


def test_R97_no_such_decision_when_the_defender_is_in_supply_or_has_no_such_event():
    r = _airlift_rules()
    st, _ = _attack(r, {"s": "4921", "g": "4821", "ghq": "4820"})
    assert r.pending(st).kind != "enemy-airlift"                        # supplied through its HQ
    plain = _airlift_rules(supports={})
    st, _ = _attack(plain, {"s": "5225", "g": "5125"}, give=("ju52",))
    assert plain.pending(st).kind != "enemy-airlift" and st["units"]["g"]["oos"]      # the Ju-52 is his own turn's


def test_R97_an_airlift_that_is_not_of_the_enemy_turn_is_refused():
    r = _airlift_rules()
    st, (h, other) = _attack(r, {"s": "5225", "g": "5125"}, give=("ju52e", "ju52"))
    from pbem.game import probe
    assert "playable in the enemy turn" in probe(r, st, "german", r.parse(f"airlift {other} 5125", st, "german"))
    assert "the attacked hex" in probe(r, st, "german", r.parse(f"airlift {h} 5126", st, "german"))


def test_react_odds3_passes_at_low_odds_and_asks_the_owner_at_three_to_one():
    r = vrhelp.rules(units={"s": u("sov", 12), "g": u("ger", 8)})         # out of supply: defends with 4
    for attack, asked in ((6, False), (12, True)):
        st = vrhelp.engine_state(r, {"s": "5225", "g": "5125"}, vrhelp.combat_frame())
        st["units"]["s"]["steps"] = 2 if attack == 12 else 1
        vrhelp.give_supports(st, "german", ["luftwaffe"])
        vrhelp.order(r, st, "soviet", "attack 5125 with s", ScriptedDice(seed=1))
        while r.pending(st).kind != "react":
            d = r.pending(st)
            r.apply(st, d.seat, r.parse(d.options[0], st, d.seat), ScriptedDice(seed=1))
        d = r.pending(st)
        assert d.seat == "german" and d.policy == "react"
        assert r.standing_answer(st, d, {"react": "never"}) == {"verb": "pass"}
        assert (r.standing_answer(st, d, {"react": "odds3"}) is None) is asked


def test_19_1_2_the_stalin_to_standing_order():
    from pbem.games.vr import policies
    assert policies.VALUES["stalin-to"] == ("never", "priority", "first", "ask")
    r = vrhelp.rules(units={"s": u("sov", 8)}, switches={"to_rules": True, "advanced_supports": True, "warsaw": True},
                     markers={"tos": {"CN": {"hex": "5520", "mode": "offensive"}}})
    st = vrhelp.engine_state(r, {"s": "5120"}, {"k": "tosupport", "side": "soviet", "phase": "support",
                                                "stage": "play", "new": []},
                             warsaw={"hex": "5020", "start": 1, "active": False, "stalin": True})
    d = r.pending(st)
    assert r.standing_answer(st, d, {"stalin-to": "never"}) == {"verb": "pass"}
    assert r.standing_answer(st, d, {"stalin-to": "first"}) == {"verb": "stalin", "to": "CN"}


# ------------------------------------------------------ exchanges counted
PRACTICE = Path(__file__).resolve().parent.parent / "scenarios" / "vr" / "practice-basic.toml"


def _identity(name: str, email: str) -> Identity:
    return Identity(name=name, email=email, sign_key=hashlib.sha256(f"sign {name}".encode()).digest(),
                    seal_key=hashlib.sha256(f"seal {name}".encode()).digest())


def _play(monkeypatch, react: str, turns: int) -> tuple[int, int, int]:
    """A seeded practice game up to the end of ``turns`` with the German's
    ``react`` standing order: (exchanges, React decisions the German
    answered himself, React decisions his standing order answered)."""
    gen = random.Random(7)
    monkeypatch.setattr(os, "urandom", lambda n: gen.randbytes(n))
    sc = load_toml(PRACTICE)
    sc["card"]["german_draws"] = 6                 # a German with Supports in hand when the Soviet attacks
    sc["card"]["pools"]["german"]["luftwaffe"] = 6
    ids = {"soviet": _identity("Pavel", "pavel@example.org"), "german": _identity("Anna", "anna@example.org")}
    _, matches = new_and_joined("vr", "vr/practice-basic", sc, ids, "soviet", "immediate", f"vr-react-{react}")
    german, soviet = matches["german"], matches["soviet"]
    by_hand = by_policy = 0
    counted = 0
    original = type(german.rules).standing_answer

    def watch(self, state, d, pol):
        nonlocal by_policy
        out = original(self, state, d, pol)
        if d.kind == "react" and out is not None and watching:
            by_policy += 1
        return out
    watching = False
    monkeypatch.setattr(type(german.rules), "standing_answer", watch)
    configured: set[tuple[str, str]] = set()
    while soviet.state["turn"] <= turns:
        side = soviet.next_sender()
        if side is None:
            break
        turn = cycle.Turn(matches[side], ids[side])
        rules: Any = turn.m.rules
        for name, value in dict(rules.demo_policies(side), react=react).items():
            if (side, name) not in configured and not turn.done:
                turn.push(f"policy {name} {value}")
                configured.add((side, name))
        watching = True                                          # the sender's own program only
        while not turn.done:
            d = turn.pending()
            assert d is not None
            by_hand += d.kind == "react"
            turn.push(rules.demo_order(turn.es["game"], d))
        ex = turn.finish()
        watching = False
        counted += 1
        for s, m in matches.items():
            cycle.advance(m, ex, ids[s])
    return counted, by_hand, by_policy


def test_a_default_game_spends_no_email_on_supports_of_the_enemy_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    never = _play(monkeypatch, "never", 3)
    asked = _play(monkeypatch, "ask", 3)
    assert never[1] == 0 and never[2] > 0            # the decisions came up; the standing order took them all
    assert asked[1] > 0 and asked[2] == 0            # the owner answered each himself ...
    assert asked[0] > never[0]                       # ... and that took more exchanges
