"""Standing orders that spare an email: a routine decision that its owner
answered in advance is made by whichever program meets it, so the relay
that would hand it back to him is not sent (issue 12, item 5)."""
from __future__ import annotations

from avd_fixtures import ScriptRng, frame, rp_rules

from pbem.game import probe
from pbem.games.avd import orders


def _buy_stage(rp: int):
    rules = rp_rules(rp)
    st = rules.initial_state()
    st["turn"] = 2
    st["stack"] = [frame("endturn"), frame("reinf", stage="buy")]
    rules._run(st, ScriptRng(), [])
    return rules, st


def test_11_1_1_buy_first_spends_the_points_on_the_first_purchases_on_offer() -> None:
    rules, st = _buy_stage(3)
    assert rules.check_policy(st, "soviet", "buy", "first") is None
    bought = []
    for _ in range(10):
        d = rules.pending(st)
        if d is None or d.kind != "buy":
            break
        answer = rules.standing_answer(st, d, {"buy": "first"})
        assert answer is not None
        if answer["verb"] == "done":
            break
        # the first purchase on offer that the rules accept, and no other
        first = next(orders.parse(o, rules.scn) for o in d.options if o.startswith("buy ") and "UNIT" not in o
                     and probe(rules, st, "soviet", orders.parse(o, rules.scn)) is None)
        assert answer == first
        st, _ = rules.apply(st, "soviet", answer, ScriptRng(draws=[0] * 5))
        bought.append(answer["unit"])
    assert bought, "nothing bought with 3 RP"
    # every Reinforcement Point that could buy something was spent
    assert all(probe(rules, st, "soviet", orders.parse(o, rules.scn)) is not None
               for o in rules.pending(st).options if o.startswith("buy ")) or rules.pending(st).kind != "buy"


def test_11_1_1_buy_none_buys_nothing_and_ask_leaves_it_to_the_player() -> None:
    rules, st = _buy_stage(3)
    d = rules.pending(st)
    assert rules.standing_answer(st, d, {"buy": "none"}) == {"verb": "pass"}
    assert rules.standing_answer(st, d, {"buy": "ask"}) is None
    assert "first" in rules.check_policy(st, "soviet", "buy", "cheapest")


def test_9_4_3_elite_first_stacks_the_drawn_unit_with_the_first_attacker_it_may_join() -> None:
    from avd_fixtures import battle_setup, practice_rules, put
    from fakedice import ScriptedDice

    rules = practice_rules()
    st, a, t = battle_setup(rules, "S-45C", "G-26ID", "soviet")
    st["stukas_ready"] = 0
    put(st, "S-1MRD", "1611", active=True)                        # a second attacker, another hex
    elite = sorted(u for u, x in st["units"].items() if x["where"] == "elite_cup")[0]
    st, _ = rules.apply(st, "soviet", rules.parse(f"attack {t} with 45C 1MRD", st, "soviet"),
                        ScriptedDice(rolls=[(10, 10)], draws=[elite]))
    d = rules.pending(st)
    assert (d.kind, d.policy, len(d.options)) == ("elite", "elite", 2)
    answer = rules.standing_answer(st, d, {"elite": "first"})
    assert answer == orders.parse(d.options[0], rules.scn)
    assert rules.standing_answer(st, d, {"elite": "ask"}) is None
    st, _ = rules.apply(st, "soviet", answer, ScriptedDice(rolls=[(10, 1)]))
    assert st["units"][elite]["hex"] == st["units"][answer["unit"]]["hex"]
    assert rules.check_policy(st, "german", "elite", "first")       # the Soviet's decision, not the German's
