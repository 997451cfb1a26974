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


# ------------------------------------------------- 7.13.1 standing order
def _two_attackers_wiped_out():
    """Two one-step Soviet corps attack three German divisions from 5020
    and 5121 and roll 2: both are eliminated, both hexes are empty."""
    r = vrhelp.rules(units={"a": u("sov", 1, steps=1), "a2": u("sov", 1, steps=1), "g1": u("ger", 2, 2),
                            "g2": u("ger", 4, 2), "g3": u("ger", 3, 2)})
    st = vrhelp.engine_state(r, {"a": "5020", "a2": "5121", "g1": "5021", "g2": "5021", "g3": "5021"},
                             vrhelp.combat_frame())
    dice = ScriptedDice([(6, 1), (6, 1)])
    vrhelp.order(r, st, "soviet", "attack 5021 with a a2", dice)
    vrhelp.order(r, st, "soviet", "declare none", dice)
    assert st["units"]["a"]["box"] == st["units"]["a2"]["box"] == "eliminated"
    return r, st, dice


def test_7_13_1_the_standing_order_advance_all_answers_the_defenders_advance():
    r, st, dice = _two_attackers_wiped_out()
    d = r.pending(st)
    assert d.kind == "advance" and d.seat == "german" and d.policy == "advance"
    order = r.standing_answer(st, d, {"advance": "all"})
    assert order == {"verb": "advance", "units": ["g2", "g3", "g1"], "hex": "5020"}    # strongest first, all fit
    r.apply(st, "german", order, dice)
    assert {st["units"][x]["hex"] for x in ("g1", "g2", "g3")} == {"5020"}
    assert r.pending(st).kind == "combat"


def test_7_13_1_the_standing_order_advance_none_passes_for_the_defender():
    r, st, dice = _two_attackers_wiped_out()
    assert r.standing_answer(st, r.pending(st), {"advance": "none"}) == {"verb": "pass"}


# ------------------------------------------------------------- 7.8.4
def test_7_8_4_soviet_armor_outside_every_range_pays_the_extra_step_in_exploitation_combat_too():
    """8.3.2: an exploitation combat is a regular one but for the
    attacker's tactical result; 7.8.4 is an attrition rule (7.8), so the
    extra step of armor attacking into a forest outside every TO range is
    owed there as well."""
    r = vrhelp.rules(units={"t1": u("sov", 12, arm="armor"), "t2": u("sov", 12, arm="armor"), "g": u("ger", 4),
                            "g2": u("ger", 4)},
                     switches={"to_rules": True, "infantry_modes": True},
                     markers={"tos": {"N": {"hex": "6030", "mode": "offensive"}}}, terrain={"forest": ["5021"]})
    frame = {"k": "combat", "side": "soviet", "phase": "exploit_combat", "mode": "exploit"}
    st = vrhelp.engine_state(r, {"t1": "5020", "t2": "5022", "g": "5021", "g2": "5021"}, frame)
    st["units"]["t1"]["exploit"] = st["units"]["t2"]["exploit"] = True
    dice = ScriptedDice([(6, 2), (6, 1)])
    vrhelp.order(r, st, "soviet", "attack 5021 with t1 t2", dice)
    vrhelp.order(r, st, "soviet", "declare none", dice)
    f = st["stack"][-1]
    assert f["a_n"] == 1 and f["armor_extra"] == ["t1", "t2"]
    vrhelp.order(r, st, "soviet", "loss t1 1", dice)                    # the attrition step (8.3.2: on armor)
    for _ in range(10):                                                 # the rest of the battle
        if not any(x["k"] == "battle" for x in st["stack"]):
            break
        d = r.pending(st)
        vrhelp.order(r, st, d.seat, d.options[0], dice)
    assert st["units"]["t1"]["steps"] + st["units"]["t2"]["steps"] == 2      # 4 steps less the two owed
