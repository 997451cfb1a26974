"""Explanations written only when read (speed only) keep every word:
the over-allowance refusal of a move, and a cost asked without one."""
from __future__ import annotations

import pytest

from pbem.game import IllegalOrder
from pbem.games.avd import movement
from pbem.games.avd.board import Board
from pbem.games.avd.model import GERMAN, SOVIET
from avd_fixtures import GRID, scenario, state, unit

GER = "0505"     # a German unit whose ZOC covers its six neighbours


def _zoc_woods_board(allowance: int) -> tuple[Board, str]:
    mech = unit("S23M", SOVIET, motorized=True, movement=allowance)
    dest = sorted(set(GRID.neighbors(GER)) & set(GRID.neighbors("0504")))[0]
    scn = scenario([mech, unit("G1", GERMAN)], terrain={dest: "woods"})
    return Board(scn, state(scn, {"S23M": "0504", "G1": GER})), dest


def test_over_allowance_refusal_spells_out_the_step():
    b, dest = _zoc_woods_board(5)
    with pytest.raises(IllegalOrder) as e:
        movement.check_move(b, "S23M", ["0504", dest])
    assert str(e.value) == (f"{b.name('S23M')}: {dest} costs 6 MP (2 woods + 2 to leave German ZOC at 0504"
                            " + 2 to enter German ZOC) - 6 of 5 MP")


def test_cost_without_explanation_is_the_same_cost():
    b, dest = _zoc_woods_board(6)
    assert movement.step_reason(b, "S23M", "0504", "0504", dest) == (
        12, "2 woods + 2 to leave German ZOC at 0504 + 2 to enter German ZOC")
    assert movement.step_reason(b, "S23M", "0504", "0504", dest, explain=False) == (12, "")
