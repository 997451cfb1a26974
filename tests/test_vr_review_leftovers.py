"""Items left by the review of Victory Roads (issue 11): each test is
named after the rule it checks."""
from __future__ import annotations

import vrhelp
from fakedice import ScriptedDice

u = vrhelp.unit


# ------------------------------------------------------------ 18.1.1
def _w_rules(withdrawals):
    units = {"g1": u("ger", 6, arm="armor"), "h1": u("hun", 8, arm="armor"), "r1": u("rum", 7, arm="armor"),
             "s": u("sov", 8)}
    return vrhelp.rules(units=units, switches={"withdrawals": True}, schedule={"2": {"withdrawals": withdrawals}})


def _german_rr(r, placed):
    st = vrhelp.engine_state(r, placed, {"k": "rr", "side": "german", "phase": "rr"}, side="german", turn=2)
    r._run(st, ScriptedDice(seed=1), [])
    return st


def test_18_1_1_only_german_divisions_are_withdrawn():
    r = _w_rules([{"count": 1, "arm": "armor", "min_attack": 6}])
    st = _german_rr(r, {"g1": "4920", "h1": "4921", "r1": "4922", "s": "5530"})
    d = r.pending(st)
    assert d.kind == "withdrawal-pick" and d.options == ("remove g1",)     # not the Hungarian h1 nor the Romanian r1


def test_18_1_1_a_withdrawal_with_only_allied_divisions_left_cannot_be_met():
    r = _w_rules([{"count": 1, "arm": "armor", "min_attack": 6}])
    st = _german_rr(r, {"h1": "4921", "r1": "4922", "s": "5530"})
    assert st["rp_forfeit"] is True                                        # 18.1.2
