"""Victory Roads combat arithmetic (``pbem/games/vr/combat.py``): the rule
edges the mutation check (``benchmarks/mutation.py``) found untested.  Each
test is named after the rule it reads; the expected values come from the
rulebook (and the project's rulings, scenarios/vr/RULINGS.md, where the
rulebook leaves a choice), not from the code."""
from __future__ import annotations

import pytest

import vrhelp
from pbem.board.crt2d6 import ATTACKER, DEFENDER, ROLLS, Crt2d6, parse_cell
from pbem.games.vr import combat
from pbem.games.vr.combat import MUD_BRIDGE, OOS, Part
from pbem.games.vr.profile import BASIC, with_switches

PRACTICE = vrhelp.scenario()
LADDER = PRACTICE.crt.ladder
CLEAR = PRACTICE.terrain["clear"].tactical
FOREST = PRACTICE.terrain["forest"].tactical


# ------------------------------------------------------------ 1.9 / 4.6.2
def test_1_9_1_one_halving_rounds_up_and_nothing_adds_nothing():
    assert combat.strength([]) == 0
    assert combat.strength([Part(0)]) == 0                  # a unit of 0 is allowed, and adds nothing
    assert combat.strength([Part(1, (OOS,))]) == 1          # half of 1 rounds up to 1
    assert combat.strength([Part(7, (OOS,))]) == 4
    assert combat.strength([Part(6, (OOS,))]) == 3          # an even value halves exactly


def test_1_9_a_negative_strength_is_refused():
    with pytest.raises(ValueError):
        combat.strength([Part(-1)])


def test_3_2_2_mud_bridge_divides_by_three_rounding_up():
    assert combat.strength([Part(9, (MUD_BRIDGE,))]) == 3
    assert combat.strength([Part(7, (MUD_BRIDGE,))]) == 3   # 7/3 rounds up
    assert combat.strength([Part(1, (MUD_BRIDGE,))]) == 1


# -------------------------------------------------------------------- 7.5
def test_7_5_no_attack_strength_gives_no_column():
    assert combat.odds(LADDER, 0, 5) == (None, None)
    assert combat.odds(LADDER, 0, 5, shifts=6) == (None, None)


def test_7_5_6_no_support_means_no_shift():
    first, final = combat.odds(LADDER, 10, 10)
    assert first == final and LADDER.label(final) == "1:1"


# ------------------------------------------------------------------ 7.9.3
def _crt_sharing_a_colour() -> Crt2d6:
    """Every cell of every column: attacker E:red, defender DR:blue, except
    roll 2, where the defender's result S is printed red as well."""
    cells = {}
    for lbl in LADDER.labels:
        col = {r: parse_cell("0/0 E:red DR:blue") for r in ROLLS}
        col[2] = parse_cell("0/0 E:red S:red")
        cells[lbl] = col
    return Crt2d6(LADDER, cells)


def test_7_9_3_elite_choice_reads_the_own_sub_column_by_default():
    # the side's own sub-column unless the profile reads the whole column
    crt = _crt_sharing_a_colour()
    assert combat.elite_choices(crt, 1, 5, ATTACKER, BASIC) == ("E",)
    whole = with_switches(BASIC, {"elite_group": "whole"})
    assert set(combat.elite_choices(crt, 1, 5, ATTACKER, whole)) == {"E", "S"}


# ---------------------------------------------------- tactical results
A, D = ATTACKER, DEFENDER
HALT = {"isolated_haltebefehl": True}
MUD, SNOW = {"weather": "mud"}, {"weather": "snow"}
HOURRA, FORT = {"hourra": True}, {"no_exploit": True}

# (rule, rolled code, side, terrain row, other conditions, final result)
TACTICAL = [
    # an isolated Haltebefehl's row replaces the defender's terrain row
    ("6.7.5", "S", D, CLEAR, HALT, ("-",)),
    ("6.7.5", "DR", D, CLEAR, HALT, ("Eng",)),
    ("6.7.5", "DR3", D, CLEAR, HALT, ("Eng",)),
    ("6.7.5", "DR", D, FOREST, HALT, ("Eng",)),          # Forest alone would make it S
    ("6.7.5", "E2", A, FOREST, HALT, ("E",)),            # the attacker keeps the terrain row
    ("6.7.5", "D1", A, CLEAR, HALT, ("D1",)),
    # Mud: the attacker's result ignores terrain, D1 goes, E levels become Eng, the rest stands
    ("3.2.2", "E", A, FOREST, MUD, ("Eng",)),
    ("3.2.2", "E3", A, FOREST, MUD, ("Eng",)),
    ("3.2.2", "D1", A, CLEAR, MUD, ("-",)),
    ("3.2.2", "S", A, FOREST, MUD, ("S",)),
    ("3.2.2", "E2", D, CLEAR, MUD, ("E2",)),             # the defender's result: not these rules
    ("3.2.2", "S", D, FOREST, MUD, ("-",)),
    # otherwise the defender's terrain for both sides
    ("7.9.2", "E", A, FOREST, {}, ("-",)),
    ("7.9.2", "D1", A, CLEAR, {}, ("D1",)),
    ("7.9.2", "E2", A, CLEAR, {}, ("E2",)),
    ("7.9.2", "-", A, CLEAR, {}, ("-",)),
    ("7.9.2", "S", D, FOREST, {}, ("-",)),
    ("7.9.2", "DR", D, CLEAR, {}, ("DR",)),
    # Snow caps an E3 (after terrain) at E2, nothing else
    ("3.2.3", "E3", A, CLEAR, SNOW, ("E2",)),
    ("3.2.3", "E2", A, CLEAR, SNOW, ("E2",)),
    ("3.2.3", "E3", A, CLEAR, {}, ("E3",)),
    ("3.2.3", "E4", A, FOREST, SNOW, ("E2",)),           # Forest first makes E4 an E3
    # Hourra: the attacker's only; one E level more, or an E added
    ("7.9.5", "DR", D, CLEAR, HOURRA, ("DR",)),
    ("7.9.5", "-", D, CLEAR, HOURRA, ("-",)),
    ("7.9.5", "E", A, CLEAR, HOURRA, ("E2",)),
    ("7.9.5", "E2", A, CLEAR, HOURRA, ("E3",)),
    ("7.9.5", "-", A, CLEAR, HOURRA, ("E",)),
    # no E result at an advanced fortification (or a German Major City), Hourra or not
    ("13.2.4", "D1", A, CLEAR, {**HOURRA, **FORT}, ("D1",)),
    ("13.2.4", "E2", A, CLEAR, {**HOURRA, **FORT}, ("-",)),
    ("13.2.4", "E", A, CLEAR, FORT, ("-",)),
    ("13.2.4", "DR", D, CLEAR, FORT, ("DR",)),
]


@pytest.mark.parametrize("rule, code, side, row, kw, expected", TACTICAL,
                         ids=[f"{c[0]}-{c[1]}-{c[2]}-{i}" for i, c in enumerate(TACTICAL)])
def test_7_9_tactical_result_after_the_modifiers(rule, code, side, row, kw, expected):
    assert combat.tactical(code, side, terrain_row=row, **kw) == expected


# ------------------------------------------------------------------ 7.14
def test_7_14_2_one_unit_per_e_level():
    assert combat.exploitation_fits(1, armor=0, infantry=1, half_armor=False)
    assert not combat.exploitation_fits(1, armor=0, infantry=2, half_armor=False)
    assert combat.exploitation_fits(2, armor=1, infantry=1, half_armor=False)
    assert not combat.exploitation_fits(2, armor=2, infantry=1, half_armor=False)
    assert combat.exploitation_fits(3, armor=3, infantry=0, half_armor=False)
    assert combat.exploitation_fits(0, armor=0, infantry=0, half_armor=False)    # no marker asked, none due


def test_7_14_3_half_armor_counts_infantry_whole():
    assert combat.exploitation_fits(1, armor=0, infantry=1, half_armor=True)
    assert not combat.exploitation_fits(1, armor=1, infantry=1, half_armor=True)
    assert combat.exploitation_fits(2, armor=1, infantry=1, half_armor=True)


@pytest.mark.parametrize("args", [(-1, 0, 0), (1, -1, 0), (1, 0, -1)])
def test_7_14_negative_counts_are_refused(args):
    with pytest.raises(ValueError):
        combat.exploitation_fits(*args, half_armor=False)


# ------------------------------------------------------------------ 7.11.3
def test_7_11_3_no_minor_ally_no_autonomous_attack():
    assert not combat.autonomous(major_steps=0, minor_steps=0, profile=BASIC)
    assert not combat.autonomous(major_steps=3, minor_steps=0, profile=BASIC)
    majority = with_switches(BASIC, {"autonomous_threshold": "majority"})
    assert not combat.autonomous(major_steps=0, minor_steps=0, profile=majority)


def test_7_11_3_fewer_than_half_of_the_steps():
    # the ally's steps against the whole attack's
    assert combat.autonomous(major_steps=0, minor_steps=1, profile=BASIC)
    assert combat.autonomous(major_steps=3, minor_steps=4, profile=BASIC)
    assert not combat.autonomous(major_steps=4, minor_steps=4, profile=BASIC)
    assert not combat.autonomous(major_steps=5, minor_steps=4, profile=BASIC)


def test_7_11_3_the_examples_reading_counts_a_tie_as_autonomous():
    majority = with_switches(BASIC, {"autonomous_threshold": "majority"})
    assert combat.autonomous(major_steps=4, minor_steps=4, profile=majority)
    assert combat.autonomous(major_steps=3, minor_steps=4, profile=majority)
    assert not combat.autonomous(major_steps=5, minor_steps=4, profile=majority)
