"""Every decision shows all of its legal choices: for positions with many
choices, each listed option is accepted by the rules and each order the
rules accept is listed (or, past ``COMBO_LIST_LIMIT``, covered by the
compact form: a legal example, a template and the pool in the hint)."""
from __future__ import annotations

import copy
import json
from itertools import combinations

import pytest

from pbem.game import IllegalOrder
from pbem.games.avd import rules as rules_mod
from pbem.games.avd.bot import legal
from fakedice import ScriptedDice
from avd_fixtures import clear_map, frame, practice_rules, put


def accepted(rules, st, side: str, text: str) -> bool:
    """Whether the rules take ``text`` from ``side`` now (probed on a copy,
    as the scripted player probes its choices)."""
    try:
        order = rules.parse(text, copy.deepcopy(st), side)
    except IllegalOrder:
        return False
    return legal(rules, st, side, order)


def norm(rules, st, side: str, texts) -> set[str]:
    """Orders as the rules read them (short or long unit names; a set of
    units in any order), to compare what is listed with what is legal."""
    out = set()
    for t in texts:
        o = rules.parse(t, st, side)
        if "units" in o:
            o["units"] = sorted(o["units"])
        if o["verb"] == "chits":
            c = o["secret"]["chits"]
            o["secret"]["chits"] = c[:1] + sorted(c[1:])
        out.add(json.dumps(o, sort_keys=True))
    return out


def concrete(options) -> list[str]:
    """The options that are orders, not templates (templates name a slot
    in capitals: UNIT, ID, FIRST, HEX)."""
    return [o for o in options if not any(w.isupper() and w.isalpha() for w in o.split()[1:])]


def _motorized(rules):
    return [u for u, s in sorted(rules.scn.units.items())
            if s.side == "german" and s.kind == "combat" and s.motorized]


def _infantry(rules):
    return [u for u, s in sorted(rules.scn.units.items())
            if s.side == "german" and s.kind == "combat" and not s.motorized]


def _distracted(rules, motorized: int, infantry: int):
    """Start of Turn 7 under Hitler Distracted with a chosen German force."""
    st = rules.initial_state()
    clear_map(st)
    hexes = [h for h in rules.board(st).grid.hexes()][:200:5]
    for u, h in zip(_motorized(rules)[:motorized] + _infantry(rules)[:infantry], hexes):
        put(st, u, h)
    st["turn"], st["directive"] = 7, "distracted"
    st["stack"] = [frame("endturn"), frame("distracted")]
    return st


def test_15_2_withdraw_lists_every_set_of_four_motorized_units():
    rules = practice_rules()
    st = _distracted(rules, 8, 2)
    d = rules.pending(st)
    assert d.kind == "withdraw"
    names = _motorized(rules)[:8] + _infantry(rules)[:2]
    legal = {"withdraw " + " ".join(c) for c in combinations(names, 4)
             if accepted(rules, st, "german", "withdraw " + " ".join(c))}
    assert norm(rules, st, "german", d.options) == norm(rules, st, "german", legal) and len(legal) == 70          # C(8, 4): infantry never
    assert all(accepted(rules, st, "german", o) for o in d.options)


def test_15_2_withdraw_past_the_limit_is_compact_but_complete(monkeypatch):
    rules = practice_rules()
    st = _distracted(rules, 7, 1)
    monkeypatch.setattr(rules_mod, "COMBO_LIST_LIMIT", 10)
    d = rules.pending(st)
    orders_ = concrete(d.options)
    assert len(orders_) == 1 and all(accepted(rules, st, "german", o) for o in orders_)
    assert "withdraw UNIT UNIT UNIT UNIT" in d.options
    pool = d.hint.split(" of ", 1)[1].split()
    assert norm(rules, st, "german", ["withdraw " + " ".join(pool)]) == \
        norm(rules, st, "german", ["withdraw " + " ".join(_motorized(rules)[:7])])   # every choice named
    assert all(accepted(rules, st, "german", "withdraw " + " ".join(c)) for c in combinations(pool, 4))
    assert not accepted(rules, st, "german", "withdraw " + " ".join(pool[:3] + _infantry(rules)[:1]))


def test_11_3_stars_lists_every_choice_of_units_for_the_reserve():
    rules = practice_rules()
    st = rules.initial_state()
    st["turn"] = 4
    st["stack"] = [frame("endturn"), frame("reinf", stage="stars")]
    rules._run(st, ScriptedDice(rolls=[(6, 3)]), [])
    d = rules.pending(st)
    assert d.kind == "stars"
    stars = sorted(u for u, x in st["units"].items() if x["where"] == "stars")
    pool = stars + ["S-30C"]                                      # a reserve unit is never a choice
    legal = {"stars " + " ".join(c) for c in combinations(pool, 3)
             if accepted(rules, st, "soviet", "stars " + " ".join(c))}
    assert norm(rules, st, "soviet", d.options) == norm(rules, st, "soviet", legal) and len(legal) == 20          # C(6, 3)


def test_7_1_2_soviet_chits_list_every_selection():
    rules = practice_rules()
    st = rules.initial_state()
    st["turn"] = 2
    st["stack"] = [frame("chits", done=["german"])]
    d = rules.pending(st)
    assert (d.side, d.kind) == ("soviet", "chits")
    avail = rules.available_chits(st, "soviet")
    n = rules.quota(st, "soviet")
    legal = {"chits " + " ".join(c) for c in combinations(avail, n)
             if accepted(rules, st, "soviet", "chits " + " ".join(c))}
    assert norm(rules, st, "soviet", d.options) == norm(rules, st, "soviet", legal) and len(legal) > 1


def test_3_7_turn_1_german_chits_list_every_selection_led_by_a_3rd_panzer_chit():
    rules = practice_rules()
    st = rules.initial_state()
    d = rules.pending(st)
    assert (d.side, d.kind) == ("german", "chits")
    avail = rules.available_chits(st, "german")
    n = rules.quota(st, "german")
    legal = {"chits " + " ".join((f,) + c) for f in avail for c in combinations([x for x in avail if x != f], n)
             if accepted(rules, st, "german", "chits " + " ".join((f,) + c))}
    assert norm(rules, st, "german", d.options) == norm(rules, st, "german", legal) and len(legal) > 40           # no longer cut at 40


def _buy_state(rules, rp_turn: int = 2):
    st = rules.initial_state()
    st["turn"] = rp_turn
    st["stack"] = [frame("endturn"), frame("reinf", stage="buy")]
    rules._run(st, ScriptedDice(), [])
    return st


def test_11_1_1_buy_lists_every_reserve_unit_in_every_legal_hex():
    rules = practice_rules()
    st = _buy_state(rules)
    d = rules.pending(st)
    assert d.kind == "buy"
    b = rules.board(st)
    near = set(rules.scn.map.victory)
    for hq in (u for u in b.units_of("soviet") if b.is_hq(u)):
        near |= set(b.grid.within(b.hex_of(hq), 1))
    reserve = sorted(u for u, x in st["units"].items() if x["where"] == "reserve")
    reserve = reserve[:1] + reserve[-2:]                           # an HQ and two corps (the others place alike)
    assert [rules.scn.units[u].kind for u in reserve] == ["hq", "combat", "combat"]
    listed = norm(rules, st, "soviet", set(d.options) - {"done"})
    assert all(accepted(rules, st, "soviet", o) for o in d.options)
    for u in reserve:
        for h in sorted(near):
            for tail in ("", " chit") if rules.scn.units[u].kind == "hq" else ("",):
                text = f"buy {u} {h}{tail}"
                assert (norm(rules, st, "soviet", [text]) <= listed) == accepted(rules, st, "soviet", text), text
    assert len(listed) > 80                                        # no longer cut at 80


def test_10_1_2_oos_lists_every_eligible_unit_and_any_few_of_them_combine():
    rules = practice_rules()
    st = rules.initial_state()
    st["turn"] = 3
    st["stack"] = [frame("endturn"), frame("supply", stage="clear")]
    rules._run(st, ScriptedDice(), [])
    d = rules.pending(st)
    assert d.kind == "oos"
    el = rules._oos_eligible(st)
    assert len(el) > 20 and norm(rules, st, "soviet", [f"oos {u}" for u in el] + ["pass"]) == \
        norm(rules, st, "soviet", d.options)
    assert all(accepted(rules, st, "soviet", o) for o in d.options)
    n = rules._oos_count(st)
    assert accepted(rules, st, "soviet", "oos " + " ".join(el[-n:]))
    assert not accepted(rules, st, "soviet", "oos " + " ".join(el[-n - 1:]))


def test_13_3_air_power_lists_recovery_and_bomber_together():
    rules = practice_rules()
    st = rules.initial_state()
    st["stukas_used"], st["stukas_ready"] = 1, 2
    st["active"] = "german"
    st["stack"] = [frame("endturn"), frame("air")]
    d = rules.pending(st)
    assert d.kind == "air"
    targets = rules._air_targets(st)
    assert {f"air recover bomber {h}" for h in targets} <= set(d.options)
    assert all(accepted(rules, st, "german", o) for o in d.options)


@pytest.mark.parametrize("limit", [400, 3])
def test_7_4_2_seed_options_are_legal(limit, monkeypatch):
    monkeypatch.setattr(rules_mod, "COMBO_LIST_LIMIT", limit)
    rules = practice_rules()
    st = rules.initial_state()
    st["active"] = "german"
    st["stack"] = [frame("endturn"), frame("seed", chit="G-3PzG-1", formation="3PzG")]
    d = rules.pending(st)
    assert d.kind == "seed" and concrete(d.options)
    assert all(accepted(rules, st, "german", o) for o in concrete(d.options))


def test_10_4_voluntary_relocation_lists_every_hq_and_hex():
    rules = practice_rules()
    st = rules.initial_state()
    st["turn"] = 3
    st["stack"] = [frame("endturn"), frame("supply", stage="relocate_g")]
    rules._run(st, ScriptedDice(), [])
    d = rules.pending(st)
    assert (d.side, d.kind) == ("german", "relocate")
    b = rules.board(st)
    hqs = [u for u in b.units_of("german") if b.is_hq(u)]
    listed = norm(rules, st, "german", [o for o in d.options if o != "pass"])
    assert listed and all(accepted(rules, st, "german", o) for o in d.options)
    for hq in hqs:
        for h in b.grid.within(b.hex_of(hq), 6):
            text = f"relocate {hq} {h}"
            assert (norm(rules, st, "german", [text]) <= listed) == accepted(rules, st, "german", text), text
