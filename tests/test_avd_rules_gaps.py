"""Rules the sequence of play once skipped: an HQ advancing with its
attackers (12.4), a retreating stack splitting up with its HQ going with
one part (9.5.1, 12.3), and the one-"*"-unit-per-HQ placement limit
(11.1.1).  Written from the rulebook text; positions are set by hand on
the practice map."""
from __future__ import annotations

import pytest

from pbem.game import IllegalOrder
from pbem.games.avd import combat
from avd_fixtures import battle_setup
from fakedice import ScriptedDice
from avd_fixtures import practice_rules, put

HQ = "9thArmy"   # the 9th Army HQ's printed name, as typed in orders


def _row_with(rules, column: str, want) -> int:
    """The first die roll whose CRT cell on ``column`` satisfies ``want``."""
    col = rules.scn.crt.columns.index(column)
    for roll, row in sorted(rules.scn.crt.rows.items()):
        if want(row[col]):
            return roll
    raise AssertionError(f"no such cell on {column}")


def _german_attack_emptying_the_hex(hq_with_attacker: bool = True):
    """3 Pz (and the 9th Army HQ, stacked with it) attack a one-step
    Soviet corps that dies to any step loss; the attacked hex empties."""
    rules = practice_rules()
    st, a, t = battle_setup(rules, "G-3Pz", "S-45C", "german")
    st["units"]["S-45C"]["steps"] = 1
    hq_hex = a if hq_with_attacker else next(n for n in rules.board(st).grid.neighbors(a)
                                              if n != t and not rules.board(st).units_at(n))
    put(st, "G-9A-HQ", hq_hex)
    # 9 against 2 (the reduced corps) is 4-1; any roll with a step loss kills it
    o = rules.battle_odds(st, {"attackers": ["G-3Pz"], "hex": t, "stuka": 0, "dstuka": None,
                               "side": "german", "kind": "normal"})
    roll = _row_with(rules, o.label, lambda c: c[:1].isdigit() and not c.startswith("A"))
    st, _ = rules.apply(st, "german", rules.parse(f"attack {t} with 3Pz", st, "german"), ScriptedDice(rolls=[(6, roll)]))
    assert st["units"]["S-45C"]["where"] != "map"
    return rules, st, a, t


def test_12_4_hq_stacked_with_attackers_advances_after_them_up_to_two_hexes_with_motorized():
    rules, st, a, t = _german_attack_emptying_the_hex()
    d = rules.pending(st)
    assert (d.side, d.kind) == ("german", "advance")
    assert not any(o.startswith(f"advance {HQ}") for o in d.options)   # only with its stack-mates
    second = next(o for o in d.options if o.startswith("advance 3Pz") and len(o.split()) == 4)
    st, _ = rules.apply(st, "german", rules.parse(second, st, "german"), ScriptedDice())
    path = second.split()[2:]
    d = rules.pending(st)
    assert f"advance {HQ} {path[0]} {path[1]}" in d.options              # two: with a motorized unit
    hq_opts = [o for o in d.options if o.startswith(f"advance {HQ}")]
    assert hq_opts == [f"advance {HQ} {path[0]} {path[1]}"]              # not left alone in the attacked hex
    st, _ = rules.apply(st, "german", rules.parse(f"advance {HQ} {path[0]} {path[1]}", st, "german"),
                        ScriptedDice())
    assert st["units"]["G-9A-HQ"]["hex"] == path[1] == st["units"]["G-3Pz"]["hex"]


def test_12_4_hq_follows_only_as_far_as_its_units_advanced():
    rules, st, a, t = _german_attack_emptying_the_hex()
    st, _ = rules.apply(st, "german", rules.parse(f"advance 3Pz {t}", st, "german"), ScriptedDice())
    d = rules.pending(st)
    hq_opts = [o for o in d.options if o.startswith(f"advance {HQ}")]
    assert hq_opts == [f"advance {HQ} {t}"]
    with pytest.raises(IllegalOrder):
        n = next(x for x in rules.board(st).grid.neighbors(t) if x != a)
        rules.apply(st, "german", rules.parse(f"advance {HQ} {t} {n}", st, "german"), ScriptedDice())


def test_12_4_hq_not_stacked_with_an_attacker_does_not_advance():
    rules, st, a, t = _german_attack_emptying_the_hex(hq_with_attacker=False)
    st, _ = rules.apply(st, "german", rules.parse(f"advance 3Pz {t}", st, "german"), ScriptedDice())
    d = rules.pending(st)
    assert not any(o.startswith(f"advance {HQ}") for o in (d.options if d else ()))


def _soviet_stack_must_retreat():
    """Two Soviet corps (a tan and a red one) and the 16th Army HQ in one
    hex take a plain DR from two panzers; the Soviet retreat decision is
    open."""
    rules = practice_rules()
    st, a, t = battle_setup(rules, "G-3Pz", "S-45C", "german")
    b = rules.board(st)
    # a clear target hex, away from rivers, with at least two equally good retreat hexes
    for t2 in b.grid.hexes():
        a2 = next((n for n in b.grid.neighbors(t2) if not b.terrain(n).shift and not b.hexside(n, t2)), None)
        if a2 is None or b.terrain(t2).shift or len(b.grid.neighbors(t2)) < 6 or t2 in rules.scn.map.victory \
                or b.in_minsk_pocket(t2) or any(b.hexside(t2, n) for n in b.grid.neighbors(t2)):
            continue
        put(st, "G-3Pz", a2, active=True)
        put(st, "S-45C", t2)
        if len(combat.retreat_options(rules.board(st), ["S-45C"], t2, 1, "soviet")) >= 2:
            a, t = a2, t2
            break
    else:
        raise AssertionError("no open ground on the practice map")
    put(st, "G-4Pz", a, active=True)
    put(st, "S-100ID", t)
    put(st, "S-16A-HQ", t)
    o = rules.battle_odds(st, {"attackers": ["G-3Pz", "G-4Pz"], "hex": t, "stuka": 0, "dstuka": None,
                               "side": "german", "kind": "normal"})
    roll = _row_with(rules, o.label, lambda c: c == "DR")
    st, _ = rules.apply(st, "german", rules.parse(f"attack {t} with 3Pz 4Pz", st, "german"), ScriptedDice(rolls=[(6, roll)]))
    return rules, st, a, t


def test_9_5_1_retreat_decision_lists_the_stack_together_and_each_unit_on_its_own():
    rules, st, a, t = _soviet_stack_must_retreat()
    d = rules.pending(st)
    assert (d.side, d.kind, d.policy) == ("soviet", "retreat", "retreat")
    together = [o for o in d.options if o.split()[1].isdigit()]
    alone_45 = [o for o in d.options if o.split()[1] == "45Corps"]
    alone_100 = [o for o in d.options if o.split()[1] == "100ID"]
    assert together and alone_45 and alone_100
    # every listed path is one hex long (DR) and leaves the attacked hex
    b = rules.board(st)
    for o in d.options:
        assert b.distance(o.split()[-1], t) == 1
    # the standing order "first" keeps the stack together
    assert rules.standing_answer(st, d, {"retreat": "first"}) == rules.parse(together[0], st, "soviet")


def test_9_5_1_and_12_3_split_stack_and_the_hq_goes_with_the_part_its_owner_names():
    rules, st, a, t = _soviet_stack_must_retreat()
    d = rules.pending(st)
    first = next(o for o in d.options if o.split()[1] == "45Corps")
    h1 = first.split()[-1]
    st, _ = rules.apply(st, "soviet", rules.parse(first, st, "soviet"), ScriptedDice())
    d = rules.pending(st)
    assert d.kind == "retreat" and all(len(o.split()) == 2 for o in d.options)   # 100ID, the one left
    other = next((o for o in d.options if o.split()[-1] != h1), None)
    if other is None:
        pytest.skip("no second hex for the other corps on this board")
    h2 = other.split()[-1]
    st, _ = rules.apply(st, "soviet", rules.parse(other, st, "soviet"), ScriptedDice())
    d = rules.pending(st)
    hq = "16thArmy"
    assert (d.side, d.kind) == ("soviet", "retreat")
    assert sorted(d.options) == sorted([f"retreat {hq} {h1}", f"retreat {hq} {h2}"])
    with pytest.raises(IllegalOrder):
        rules.apply(st, "soviet", rules.parse(f"retreat {hq} {a}", st, "soviet"), ScriptedDice())
    st, _ = rules.apply(st, "soviet", rules.parse(f"retreat {hq} {h2}", st, "soviet"), ScriptedDice())
    assert st["units"]["S-16A-HQ"]["hex"] == h2 == st["units"]["S-100ID"]["hex"]
    assert st["units"]["S-45C"]["hex"] == h1


def test_12_3_hq_retreats_with_a_stack_that_stays_together():
    rules, st, a, t = _soviet_stack_must_retreat()
    d = rules.pending(st)
    together = next(o for o in d.options if o.split()[1].isdigit())
    st, _ = rules.apply(st, "soviet", rules.parse(together, st, "soviet"), ScriptedDice())
    h = together.split()[-1]
    assert st["units"]["S-16A-HQ"]["hex"] == h == st["units"]["S-45C"]["hex"] == st["units"]["S-100ID"]["hex"]
    assert rules.pending(st).kind == "advance"


# ------------------------------------------------- 11.1.1 "*" reinforcements
def _stars_in_reserve():
    """Turn 5 Reinforcement Phase, buying: two Soviet HQs two hexes apart
    (their neighbourhoods overlap), every "*" unit in the Reserve Box, no
    German unit on the map."""
    import dataclasses

    from pbem.games.avd.rules import AvdRules
    from avd_fixtures import clear_map, frame, practice_scenario

    scn = practice_scenario()
    turns = dict(scn.turns)
    turns[5] = dataclasses.replace(turns[5], soviet_rp=6)
    rules = AvdRules(dataclasses.replace(scn, turns=turns), {})
    st = rules.initial_state()
    clear_map(st)
    st["turn"] = 5
    b = rules.board(st)
    a = "2617"
    bhex = next(x for x in sorted(b.grid.hexes()) if b.distance(a, x) == 2
                and not any(b.hexside(x, n) for n in b.grid.neighbors(x)))
    put(st, "S-13A-HQ", a)
    put(st, "S-20A-HQ", bhex)
    stars = sorted(u for u, s in rules.scn.units.items() if s.code == "*")
    for u in stars:
        st["units"][u]["where"] = "reserve"
    st["stack"] = [frame("endturn"), frame("reinf", stage="buy")]
    rules._run(st, ScriptedDice(), [])
    assert rules.pending(st).kind == "buy"
    return rules, st, a, bhex, stars


def test_11_1_1_a_second_star_unit_needs_another_hq():
    rules, st, a, bh, stars = _stars_in_reserve()
    b = rules.board(st)
    only_a = [h for h in rules._placement_hexes(st, stars[0], st["stack"][-1]) if b.distance(h, bh) > 1]
    st, _ = rules.apply(st, "soviet", rules.parse(f"buy {stars[0]} {only_a[0]}", st, "soviet"), ScriptedDice())
    top = st["stack"][-1]
    second = rules._placement_hexes(st, stars[1], top)
    assert second and all(b.distance(h, bh) <= 1 for h in second)       # only at the other HQ now
    near_a_only = [h for h in b.grid.neighbors(a) if b.distance(h, bh) > 1 and h != only_a[0]]
    with pytest.raises(IllegalOrder, match="cannot be placed"):
        rules.apply(st, "soviet", rules.parse(f"buy {stars[1]} {near_a_only[0]}", st, "soviet"), ScriptedDice())
    # a unit without the "*" code is not limited (11.1.1 names "*" units only)
    plain = next(u for u, x in sorted(st["units"].items()) if x["where"] == "reserve"
                 and rules.scn.units[u].kind == "combat" and rules.scn.units[u].code != "*")
    assert near_a_only[0] in rules._placement_hexes(st, plain, top)


def test_11_1_1_star_units_are_matched_to_different_hqs_whichever_way_fits():
    rules, st, a, bh, stars = _stars_in_reserve()
    b = rules.board(st)
    top = st["stack"][-1]
    both = [h for h in rules._placement_hexes(st, stars[0], top) if b.distance(h, a) <= 1
            and b.distance(h, bh) <= 1 and h not in (a, bh)]
    st, _ = rules.apply(st, "soviet", rules.parse(f"buy {stars[0]} {both[0]}", st, "soviet"), ScriptedDice())
    top = st["stack"][-1]
    # the first unit can count for the 20th Army HQ, so the 13th Army's hexes stay open
    second = rules._placement_hexes(st, stars[1], top)
    assert any(b.distance(h, bh) > 1 for h in second) and any(b.distance(h, a) > 1 for h in second)
    st, _ = rules.apply(st, "soviet", rules.parse(f"buy {stars[1]} {second[0]}", st, "soviet"), ScriptedDice())
    # two HQs, two "*" units: a third has nowhere to go this turn
    assert rules._placement_hexes(st, stars[2], st["stack"][-1]) == []
