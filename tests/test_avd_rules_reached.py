"""Rules that no test used to reach through the engine: each test below
plays the rule through ``apply`` on a small test board (TEST DATA: the
9 x 9 grid and made-up CRT of tests/avd_fixtures.py, whose rows are
listed there) and asserts what the rulebook says, so that breaking the
rule in the code fails it."""
from __future__ import annotations

import pytest

from pbem.game import IllegalOrder
from pbem.games.avd.model import GERMAN, SOVIET
from pbem.games.avd.rules import AvdRules
from avd_fixtures import GRID, scenario, state, unit
from fakedice import ScriptedDice
from avd_fixtures import frame

RING = GRID.neighbors("0505")
MAJOR_BRIDGED = frozenset({"major_river", "road"})
MINOR_BRIDGED = frozenset({"minor_river", "road"})
MINOR = frozenset({"minor_river"})


def _fight(units, at, side, *, active=(), turn=2, stukas=0, **kw):
    """Rules and a state in ``side``'s Combat Segment on the test board."""
    flags = {k: kw.pop(k) for k in ("isolated", "oos", "steps") if k in kw}
    scn = scenario(units, supply_german=["0909"], supply_soviet=["0101"], **kw)
    st = state(scn, at, turn=turn, active={u: True for u in active}, **flags)
    st.update({"stack": [frame("endturn"), frame("combat", special=False)], "active": side, "timoshenko": False,
               "minsk_drm": False, "stukas_ready": stukas, "stukas_used": 0, "winner": None,
               "art_hexes": [], "directive": None})
    return AvdRules(scn, {}), st


def _attack(rules, st, side, hex_, units, rolls, stuka=False):
    die = 10 if side == SOVIET else 6                  # 9.2: German d6, Soviet d10
    return rules.apply(st, side, {"verb": "attack", "hex": hex_, "units": list(units), "stuka": stuka},
                       ScriptedDice(rolls=[(die, r) for r in rolls]))


def _column(events) -> str:
    return next(e.text for e in events if e.text.startswith("Combat ")).split(" at ")[1].split(":")[0]


# --------------------------------------------------- 9.3.6 below 1-1: illegal
def test_9_3_6_an_attack_below_1_1_is_refused_by_apply():
    g = unit("G", GERMAN, attack=2)
    s = unit("S", SOVIET, defense=3)
    rules, st = _fight([g, s], {"G": RING[0], "S": "0505"}, GERMAN, active=["G"], stukas=3)
    with pytest.raises(IllegalOrder, match="below 1-1"):
        _attack(rules, st, GERMAN, "0505", ["G"], [6])
    # a Stuka and the Turn 1 shift come after the check and cannot lift it (T24)
    st["turn"] = 1
    with pytest.raises(IllegalOrder, match="below 1-1"):
        _attack(rules, st, GERMAN, "0505", ["G"], [6], stuka=True)


def test_9_3_6_T24_one_to_one_in_woods_is_refused_even_with_a_stuka_on_turn_1():
    g = unit("G", GERMAN, attack=3)
    s = unit("S", SOVIET, defense=3)
    rules, st = _fight([g, s], {"G": RING[0], "S": "0505"}, GERMAN, active=["G"], stukas=3, turn=1,
                       terrain={"0505": "woods"})
    with pytest.raises(IllegalOrder, match="woods"):
        _attack(rules, st, GERMAN, "0505", ["G"], [6], stuka=True)


# ------------------------------------------------- 9.3.7 zero defense: 10-1
def test_9_3_7_T25_zero_defense_is_resolved_on_10_1_whatever_the_terrain():
    # an isolated defender of 1 halves to 0: the last column, woods or not
    g = unit("G", GERMAN, attack=1)
    s = unit("S", SOVIET, defense=1)
    rules, st = _fight([g, s], {"G": RING[0], "S": "0505"}, GERMAN, active=["G"], terrain={"0505": "woods"},
                       isolated={"S": True})
    st, ev = _attack(rules, st, GERMAN, "0505", ["G"], [2])
    assert _column(ev) == "10-1"


def test_9_3_7_no_defensive_stuka_is_asked_against_a_zero_defense():
    s = unit("S", SOVIET, attack=1)
    g = unit("G", GERMAN, defense=1)
    rules, st = _fight([g, s], {"S": RING[0], "G": "0505"}, SOVIET, active=["S"], stukas=3,
                       terrain={"0505": "woods"}, isolated={"G": True})
    st, ev = _attack(rules, st, SOVIET, "0505", ["S"], [2])
    assert _column(ev) == "10-1" and st["stukas_ready"] == 3      # rolled at once, no Stuka asked


# ----------------------------------------- 9.3.4 the defensive Stuka: 2 left
def test_9_3_4_a_defensive_stuka_shifts_two_columns_left():
    s1, s2 = unit("S1", SOVIET, attack=6), unit("S2", SOVIET, attack=6)
    g = unit("G", GERMAN, defense=3)
    rules, st = _fight([s1, s2, g], {"S1": RING[0], "S2": RING[1], "G": "0505"}, SOVIET, active=["S1", "S2"],
                       stukas=1)
    st, _ = _attack(rules, st, SOVIET, "0505", ["S1", "S2"], [])
    d = rules.pending(st)
    assert (d.side, d.kind) == (GERMAN, "stuka") and "4-1" in d.prompt     # 12 against 3
    st, ev = rules.apply(st, GERMAN, {"verb": "stuka", "use": True}, ScriptedDice(rolls=[(10, 2)]))
    assert _column(ev) == "2-1"


# ---------------------- 9.3.1 / 10.3 river and Out of Supply: quartered attack
def test_9_3_1_across_a_river_and_out_of_supply_the_attack_is_quartered():
    g = unit("G", GERMAN, attack=9, motorized=True)
    s = unit("S", SOVIET, defense=2)
    rules, st = _fight([g, s], {"G": RING[0], "S": "0505"}, GERMAN, active=["G"], oos={"G": True},
                       sides={(RING[0], "0505"): MINOR})
    st, ev = _attack(rules, st, GERMAN, "0505", ["G"], [2])
    assert _column(ev) == "1-1"                            # 9 / 4 = 2 against 2 (halved once: 2-1)


# ------------------------------- 9.5.6 no major river from ZOC to ZOC in retreat
def _ringed(hexside):
    """A two-step Soviet corps in 0505 attacked by four German units at
    4-1; a fifth German unit holds the next hex, so the only hex left is
    RING[5], in German ZOC, beyond ``hexside``."""
    gs = [unit(f"G{i}", GERMAN, attack=3) for i in range(5)]
    s = unit("S", SOVIET, defense=3)
    at = {f"G{i}": RING[i] for i in range(5)}
    at["S"] = "0505"
    return _fight(gs + [s], at, GERMAN, active=[f"G{i}" for i in range(4)], sides={("0505", RING[5]): hexside})


def test_9_5_6_a_retreat_may_not_cross_a_major_river_from_zoc_to_zoc_even_by_a_bridge():
    rules, st = _ringed(MAJOR_BRIDGED)
    assert rules.scn.crt.rows[3][4] == "DR"                      # 12 against 3 is 4-1; a 3 reads DR
    st, ev = _attack(rules, st, GERMAN, "0505", [f"G{i}" for i in range(4)], [3])
    assert st["units"]["S"]["where"] != "map"                    # no retreat left: eliminated (9.5.8)


def test_9_5_6_control_the_same_retreat_over_a_bridged_minor_river_goes():
    rules, st = _ringed(MINOR_BRIDGED)
    st, ev = _attack(rules, st, GERMAN, "0505", [f"G{i}" for i in range(4)], [3])
    assert st["units"]["S"]["hex"] == RING[5] and st["units"]["S"]["steps"] == 1   # one step for the ZOC


# ------------------------------------------ 14.0 Germans stay out of the Pocket
def test_14_0_a_german_unit_does_not_retreat_into_the_minsk_pocket():
    ss = [unit(f"S{i}", SOVIET, attack=3) for i in range(5)]
    g = unit("G", GERMAN, defense=3)
    at = {f"S{i}": RING[i] for i in range(5)}
    at["G"] = "0505"
    rules, st = _fight(ss + [g], at, SOVIET, active=[f"S{i}" for i in range(4)], minsk=[RING[5]])
    st, _ = _attack(rules, st, SOVIET, "0505", [f"S{i}" for i in range(4)], [3])   # 4-1, d10 3: DR
    assert st["units"]["G"]["where"] != "map"


def test_14_0_control_without_the_pocket_the_german_unit_retreats_there():
    ss = [unit(f"S{i}", SOVIET, attack=3) for i in range(5)]
    g = unit("G", GERMAN, defense=3)
    at = {f"S{i}": RING[i] for i in range(5)}
    at["G"] = "0505"
    rules, st = _fight(ss + [g], at, SOVIET, active=[f"S{i}" for i in range(4)])
    st, _ = _attack(rules, st, SOVIET, "0505", [f"S{i}" for i in range(4)], [3])
    assert st["units"]["G"]["hex"] == RING[5]


def test_14_0_a_german_unit_does_not_advance_into_the_minsk_pocket():
    g = unit("G", GERMAN, attack=9, motorized=True)
    s = unit("S", SOVIET, defense=1, steps=1)
    pocket = GRID.neighbors("0505")[3]
    rules, st = _fight([g, s], {"G": RING[0], "S": "0505"}, GERMAN, active=["G"], minsk=[pocket])
    assert rules.scn.crt.rows[5][9] == "1"                      # 9 against 1 is 9-1; a 5 reads 1
    st, _ = _attack(rules, st, GERMAN, "0505", ["G"], [5])
    d = rules.pending(st)
    assert d.kind == "advance" and st["units"]["S"]["where"] != "map"
    seconds = {o.split()[-1] for o in d.options if len(o.split()) == 4}
    assert pocket not in seconds and len(seconds) >= 4
    with pytest.raises(IllegalOrder):
        rules.apply(st, GERMAN, {"verb": "advance", "unit": "G", "path": ["0505", pocket]}, ScriptedDice())


# --------------------------------------- 9.4.2 more losses than steps: all die
def test_9_4_2_more_step_losses_than_steps_eliminates_the_defenders():
    s = unit("S", SOVIET, attack=9)
    g = unit("G", GERMAN, defense=1)
    rules, st = _fight([s, g], {"S": RING[0], "G": "0505"}, SOVIET, active=["S"])
    assert rules.scn.crt.rows[9][9] == "4DR"                    # 9 against 1 is 9-1; row 9: four steps
    st, ev = _attack(rules, st, SOVIET, "0505", ["S"], [9])
    assert st["units"]["G"]["where"] != "map"                   # two steps, three to lose
