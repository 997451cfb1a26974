"""Worked examples of the rule notes (rules/avd.md section 6) that need the
sequence of play around them: the Soviet 10 loop (9.4.3) with its +1 and
empty-cup cases, the ART chit count (13.2), the Bomber and artillery limits
(13.2, 13.3).  T-numbers are the rule notes'; tests are named after the
rule.  The index of every T-number is tests/test_avd_examples_index.py."""
from __future__ import annotations

import pytest

from pbem.game import IllegalOrder
from pbem.games.avd.model import GERMAN, SOVIET
from pbem.games.avd.rules import AvdRules
from avd_fixtures import GRID, scenario, state, unit
from avd_fixtures import battle_setup
from fakedice import ScriptedDice
from avd_fixtures import frame, practice_rules, put

MAJOR = frozenset({"major_river"})
MINOR = frozenset({"minor_river"})
RING = GRID.neighbors("0505")


def _ratio_example_rules(elite_in_cup: bool = True):
    """The combat ratio example of 9.3.2 on the 9 x 9 test board: KV-I #1
    across a major river, the 45th Corps across a minor river (two hexes),
    KV-I #2 with no river; one German unit (defense 2) in 0505; the elite
    infantry waits in the Elite Division cup.  The test CRT keeps the one
    cell the text pins: 4-1 with a 3 is DR."""
    kv1 = unit("KV1", SOVIET, motorized=True, attack=3, formation="red")
    c45 = unit("C45", SOVIET, attack=3)
    kv2 = unit("KV2", SOVIET, motorized=True, attack=3, formation="red")
    ei = unit("EI", SOVIET, attack=3, formation="red")
    g = unit("G", GERMAN, defense=2, attack=2)
    scn = scenario([kv1, c45, kv2, ei, g], sides={(RING[0], "0505"): MAJOR, (RING[1], "0505"): MINOR},
                   supply_german=["0909"], supply_soviet=["0101"])
    at = {"KV1": RING[0], "C45": RING[1], "KV2": RING[3], "G": "0505"}
    st = state(scn, at, active={"KV1": True, "C45": True, "KV2": True})
    st["units"]["EI"]["where"] = "elite_cup" if elite_in_cup else "removed"
    st.update({"stack": [frame("combat", special=False)], "active": SOVIET, "timoshenko": False,
               "minsk_drm": False, "stukas_ready": 0, "stukas_used": 0, "winner": None, "art_hexes": []})
    return AvdRules(scn, {}), st


def test_9_4_3_T11_attack_example_ten_draws_the_elite_infantry_and_the_reroll_of_3_is_dr():
    rules, st = _ratio_example_rules()
    assert rules.query(st, SOVIET, "odds 0505 with KV1 C45 KV2").splitlines()[-1].strip() == "-> 2-1"
    rng = ScriptedDice(rolls=[(10, 10), (10, 3)], draws=["EI"])
    st, ev = rules.apply(st, SOVIET, {"verb": "attack", "hex": "0505", "units": ["KV1", "C45", "KV2"]}, rng)
    d = rules.pending(st)
    # combat stops; the Soviet stacks the drawn unit with any attacker that has room
    assert (d.side, d.kind) == (SOVIET, "elite")
    assert set(d.options) == {"elite KV1", "elite C45", "elite KV2"}
    st, ev = rules.apply(st, SOVIET, {"verb": "elite", "unit": "KV2"}, rng)
    assert st["units"]["EI"]["where"] == "map" and st["units"]["EI"]["hex"] == RING[3]
    assert any("at 4-1: die 3 -> DR" in e.text for e in ev)             # 8:2 is 4-1
    assert rng.log.count("combat 0505, Soviet d10") == 2


def test_9_4_3_T26_with_the_minsk_plus_one_a_natural_9_draws_an_elite_unit():
    rules, st = _ratio_example_rules()
    st["minsk_drm"] = True
    rng = ScriptedDice(rolls=[(10, 9)], draws=["EI"])
    st, ev = rules.apply(st, SOVIET, {"verb": "attack", "hex": "0505", "units": ["KV1", "C45", "KV2"]}, rng)
    assert rules.pending(st).kind == "elite"                               # 9 + 1 = 10 (14.0)
    assert any("Elite" in p or "elite" in p for p in rng.log)


def test_9_4_3_without_the_plus_one_a_9_is_read_on_row_9():
    rules, st = _ratio_example_rules()
    rng = ScriptedDice(rolls=[(10, 9)])
    st, ev = rules.apply(st, SOVIET, {"verb": "attack", "hex": "0505", "units": ["KV1", "C45", "KV2"]}, rng)
    assert st["units"]["EI"]["where"] == "elite_cup"
    assert any(f"at 2-1: die 9 -> {rules.scn.crt.rows[9][2]}" in e.text for e in ev)


def test_9_4_3_T27_a_ten_with_an_empty_elite_cup_is_read_on_row_9():
    rules, st = _ratio_example_rules(elite_in_cup=False)
    rng = ScriptedDice(rolls=[(10, 10)])
    st, ev = rules.apply(st, SOVIET, {"verb": "attack", "hex": "0505", "units": ["KV1", "C45", "KV2"]}, rng)
    assert rng.log == ["combat 0505, Soviet d10"]                         # no draw, no re-roll
    row9 = rules.scn.crt.rows[9][rules.scn.crt.columns.index("2-1")]
    assert any(f"-> {row9}" in e.text and "at 2-1" in e.text for e in ev)
    assert any("row 9" in e.text for e in ev)


def test_9_4_3_T27_a_drawn_unit_no_attacker_can_stack_with_goes_back_and_row_9_is_read():
    rules, st = _ratio_example_rules()
    extra = ["X0", "X1", "X2"]
    scn = rules.scn
    units = dict(scn.units)
    for x in extra:
        units[x] = unit(x, SOVIET, attack=1, formation="red")
    import dataclasses
    rules = AvdRules(dataclasses.replace(scn, units=units), {})
    for x, host in zip(extra, ("KV1", "C45", "KV2")):           # every attacker's hex already holds two
        st["units"][x] = dict(st["units"]["KV1"], hex=st["units"][host]["hex"], active=False)
    rng = ScriptedDice(rolls=[(10, 10)], draws=["EI"])
    st, ev = rules.apply(st, SOVIET, {"verb": "attack", "hex": "0505", "units": ["KV1", "C45", "KV2"]}, rng)
    assert st["units"]["EI"]["where"] == "elite_cup"
    assert any("row 9" in e.text for e in ev)
    assert rng.log.count("combat 0505, Soviet d10") == 1


@pytest.mark.parametrize("roll,attacks", [(1, 0), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3)])
def test_13_2_T23_art_chit_gives_half_the_d6_rounded_down_attacks(roll, attacks):
    rules = practice_rules()
    st = rules.initial_state()
    st["turn"] = 2
    st["stack"] = [frame("endturn")]
    art = next(c for c, s in rules.scn.chits.items() if s.kind == "art")
    rng = ScriptedDice(rolls=[(6, roll)])
    rules._play(st, art, rng, [])
    assert st["stack"][-1]["k"] == "art" and st["stack"][-1]["left"] == attacks
    assert rng.log == ["ART chit: number of artillery attacks, Soviet d6"]


def _art_position(city: bool = False):
    rules = practice_rules()
    st, a, t = battle_setup(rules, "S-45C", "G-26ID", "soviet")
    if city:
        b = rules.board(st)
        t = next(h for h in sorted(b.grid.hexes()) if b.terrain(h).shift == 2 and not b.in_minsk_pocket(h)
                 and h not in rules.scn.map.moscow)
        a = b.grid.neighbors(t)[0]
        put(st, "S-45C", a)
        put(st, "G-26ID", t)
    st["stack"] = [frame("endturn"), frame("art", left=2)]
    st["stukas_ready"] = 0
    return rules, st, a, t


def test_13_2_rocket_is_once_a_game_on_7_1_with_a_d6():
    rules, st, a, t = _art_position()
    rng = ScriptedDice(rolls=[(6, 2)])
    st, ev = rules.apply(st, SOVIET, {"verb": "rocket", "hex": t}, rng)
    assert rng.log == [f"rocket {t}, Soviet d6"] and any("at 7-1" in e.text for e in ev)
    assert st["rocket"] is False


def test_9_5_7_a_unit_eliminated_by_the_zoc_of_its_retreat_hex_does_not_overrun_the_hq_there():
    """Five German units ring a one-step Soviet corps; the sixth neighbour
    holds a lone German HQ in German ZOC.  A DR2 sends the corps there, where
    the ZOC step loss eliminates it (9.5.4): the HQ is not overrun (9.5.7)."""
    ring = GRID.neighbors("0505")
    gs = [unit(f"G{i}", GERMAN, attack=3) for i in range(5)]
    hq = unit("GHQ", GERMAN, kind="hq", command_range=4)
    s = unit("S", SOVIET, defense=3, steps=1)
    scn = scenario(gs + [hq, s], supply_german=["0909"], supply_soviet=["0101"])
    at = {f"G{i}": ring[i] for i in range(5)}
    at.update({"GHQ": ring[5], "S": "0505"})
    st = state(scn, at, active={f"G{i}": True for i in range(5)})
    st.update({"stack": [frame("combat", special=False)], "active": GERMAN, "timoshenko": False,
               "minsk_drm": False, "stukas_ready": 0, "stukas_used": 0, "winner": None, "art_hexes": []})
    rules = AvdRules(scn, {})
    assert rules.scn.crt.rows[6][5] == "DR2"                       # 15:3 is 5-1; a 6 reads DR2
    st, ev = rules.apply(st, GERMAN, {"verb": "attack", "hex": "0505", "units": [f"G{i}" for i in range(5)]},
                         ScriptedDice(rolls=[(6, 6)]))
    assert st["units"]["S"]["where"] != "map"
    assert st["units"]["GHQ"]["where"] == "map" and st["units"]["GHQ"]["hex"] == ring[5]
    assert not any("overrun" in e.text for e in ev)


def test_14_no_plus_one_when_no_soviet_unit_is_left_in_the_pocket_to_escape():
    rules = practice_rules()
    st = rules.initial_state()
    st["turn"] = 2
    for u, x in st["units"].items():
        if x["where"] == "minsk" and rules.scn.units[u].side == SOVIET:
            x["where"] = "removed"
    st["stack"] = [frame("endturn"), frame("reinf", stage="minsk")]
    rules._run(st, ScriptedDice(), [])
    unit_ = next(u for u, x in sorted(st["units"].items()) if x["where"] == "minsk"
                 and rules.scn.units[u].side == GERMAN and rules.scn.units[u].kind == "combat")
    table = rules.scn.minsk_escape
    roll = max(int(r) for r in table["rows"])            # the best roll for the Soviet
    assert int(table["rows"][str(roll)][0].rstrip("V")) > 0
    st, _ = rules.apply(st, GERMAN, rules.parse(f"release {unit_}", st, GERMAN), ScriptedDice(rolls=[(6, roll)], draws=[0]))
    assert st["minsk_drm"] is False


# ------------------------------------------- T32 through the engine (2.2.2)
def _reich_rules(which: str):
    """Rules on the practice map whose SS Reich counter carries the values
    written in ``which`` scenario file (the published file cannot start:
    its map is MISSING, so its counter is set on the practice map)."""
    import tomllib

    from avd_fixtures import PRACTICE
    files = {"practice": PRACTICE, "standard": PRACTICE.parent / "standard.toml"}
    with open(PRACTICE, "rb") as fh:
        data = tomllib.load(fh)
    with open(files[which], "rb") as fh:
        src = tomllib.load(fh)
    reich = next(u for u in src["units"]["german"] if u["id"] == "G-SSReich")
    mine = next(u for u in data["units"]["german"] if u["id"] == "G-SSReich")
    for key in ("attack", "defense", "movement", "reduced_attack", "reduced_defense"):
        if key in reich:
            mine[key] = reich[key]
    from pbem.games.avd import scenario as avd_scenario
    return AvdRules(avd_scenario.load(data), {})


@pytest.mark.parametrize("which", ["practice", "standard"])
def test_2_2_2_T32_ss_reich_fights_8_8_and_moves_10_full_and_7_7_reduced(which):
    """The erratum: SS Reich is 8-8-10, reduced 7-7-10.  Read from each
    scenario file and seen through the engine: the strength it attacks and
    defends with, and its movement allowance."""
    rules = _reich_rules(which)
    for steps, strength in ((2, 8), (1, 7)):
        st, a, t = battle_setup(rules, "G-SSReich", "S-45C", GERMAN)
        st["units"]["G-SSReich"]["steps"] = steps
        assert f"attack {strength} (SS Reich {strength})" in rules.query(st, GERMAN, f"odds {t} with SSReich")
        assert f"allowance 10 MP" in rules.query(st, GERMAN, "reach SSReich")
        # the Soviet attacks it: it defends with the same strength
        st, a, t = battle_setup(rules, "S-45C", "G-SSReich", SOVIET)
        st["units"]["G-SSReich"]["steps"] = steps
        st["stukas_ready"] = 0
        put(st, "S-1MRD", a, active=True)
        assert f"defense {strength} (SS Reich {strength})" in rules.query(st, SOVIET, f"odds {t} with 45Corps 1MRD")
    # and a battle it fights is resolved at that strength: 8 against 3 is 2-1
    st, a, t = battle_setup(rules, "G-SSReich", "S-45C", GERMAN)
    st, ev = rules.apply(st, GERMAN, rules.parse(f"attack {t} with SSReich", st, GERMAN), ScriptedDice(rolls=[(6, 2)]))
    assert any(f"Combat {t} at 2-1" in e.text for e in ev)


# ------------------------------------------------- 13.2: one Rocket a game
def test_13_2_a_second_rocket_is_refused_by_apply():
    rules, st, a, t = _art_position()
    b = rules.board(st)
    t2 = next(n for n in b.grid.neighbors(a) if n != t and not b.units_at(n) and not b.in_minsk_pocket(n))
    put(st, "G-28ID", t2)
    assert {f"rocket {t}", f"rocket {t2}"} <= set(rules.pending(st).options)
    rng = ScriptedDice(rolls=[(6, 2)])
    st, _ = rules.apply(st, SOVIET, {"verb": "rocket", "hex": t}, rng)
    from avd_fixtures import answer_all
    st, d = answer_all(rules, st, rng, stop=lambda d: d.kind == "art")
    assert d is not None and d.kind == "art" and st["rocket"] is False
    assert f"art {t2}" in d.options and f"rocket {t2}" not in d.options
    with pytest.raises(IllegalOrder, match="Rocket was already used"):
        rules.apply(st, SOVIET, {"verb": "rocket", "hex": t2}, ScriptedDice(rolls=[(6, 6)]))
