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


# ------------------------------------------------ R-400.. open readings
def test_7_10_r401_an_attacker_never_retreats_into_the_hex_it_attacked():
    """A German attacker whose attack emptied the hex to its south (one of
    its retreat directions, away from the enemy) must retreat elsewhere:
    entering the attacked hex is the advance of 7.13, not a retreat."""
    r = vrhelp.rules(units={"g": u("ger", 4), "s": u("sov", 4)})
    st = vrhelp.engine_state(r, {"g": "5020", "s": "5017"}, vrhelp.combat_frame("german"), side="german")
    f = {"k": "battle", "side": "german", "dside": "soviet", "hex": "5021", "att": ["g"]}
    assert r.retreat_paths(st, f, "g", 1) == [["4921"]]
    assert all("5021" not in p for p in r.retreat_paths(st, f, "g", 2))
    d = {"k": "battle", "side": "soviet", "dside": "german", "hex": "5021", "att": ["s"]}
    assert ["5021"] in r.retreat_paths(st, d, "g", 1)            # a defender of another battle may go there


def test_7_15_1_r403_a_hungarian_elite_division_is_not_replaced_by_a_german_kg():
    r = vrhelp.rules(units={"e": u("hun", 4, steps=1, elite=True), "s": u("sov", 4), "s2": u("sov", 2)})
    st = vrhelp.engine_state(r, {"e": "5020", "s": "5021", "s2": "5121"}, vrhelp.combat_frame("german"),
                             side="german")
    dice = ScriptedDice([(6, 3), (6, 4)])               # 1:1, roll 7: 1/1, the Hungarian is eliminated
    vrhelp.order(r, st, "german", "attack 5021 with e", dice)
    vrhelp.order(r, st, "german", "declare none", dice)
    assert st["units"]["e"]["box"] == "eliminated"
    assert r.pending(st).kind != "kg" and not any(x["k"] == "kg" for x in st["stack"])


def test_7_9_4_r405_mixed_river_crossings_take_the_minor_rivers_factor_whoever_is_named_first():
    """Every attacker crosses a river, one a Major and one a Minor one: the
    factor is the Minor river's (a Major river's effects need every attacker
    across one, 7.9.4), in whatever order the attackers are named."""
    from pbem.games.vr import scenario as scenario_mod
    data = vrhelp.mini(units={"a": u("sov", 6), "b": u("sov", 6), "g": u("ger", 4)},
                       hexsides={"major_river": ["5020|5021"], "minor_river": ["5022|5021"]})
    data["hexside"]["major_river"]["attack"] = [1, 3]          # test data: the kinds differ
    r = vrhelp.rules(scenario_mod.load(data))
    st = vrhelp.engine_state(r, {"a": "5020", "b": "5022", "g": "5021"}, vrhelp.combat_frame())
    for att in (["a", "b"], ["b", "a"]):
        f = {"k": "battle", "side": "soviet", "dside": "german", "hex": "5021", "att": att, "terrain": None}
        assert r.strengths(st, f)[0] == 6                     # 12 halved, not thirded
    st["units"]["b"]["hex"] = "4921"                          # now both cross the Major river
    data2 = vrhelp.mini(units={"a": u("sov", 6), "b": u("sov", 6), "g": u("ger", 4)},
                        hexsides={"major_river": ["5020|5021", "4921|5021"]})
    data2["hexside"]["major_river"]["attack"] = [1, 3]
    r2 = vrhelp.rules(scenario_mod.load(data2))
    f = {"k": "battle", "side": "soviet", "dside": "german", "hex": "5021", "att": ["a", "b"], "terrain": None}
    assert r2.strengths(st, f)[0] == 4


# ------------------------------------------------------------ RULINGS.md
def test_rulings_of_the_review_pass_are_merged_and_name_only_options_that_exist():
    import re
    from pathlib import Path

    from pbem.games.vr import policies, profile
    text = (Path(__file__).resolve().parent.parent / "scenarios" / "vr" / "RULINGS.md").read_text(encoding="utf-8")
    have = set(re.findall(r"\*\*R-(\d+)", text))
    want = {str(i) for i in (*range(200, 213), *range(300, 311), *range(400, 408))}
    assert want <= have
    for name, values in re.findall(r"option `(\w+)` = ([^*]+)\*\*", text, flags=re.I):
        assert name in profile.CHOICES, name
        for v in re.findall(r'"?([\w]+)"?', values):
            assert v in {str(c) for c in profile.CHOICES[name]}, (name, v)
    for name in re.findall(r"standing\s+order\s+\(?`([\w-]+)", text):
        assert name in policies.KINDS, name
    q15 = text.split("**Q-15")[1].split("- **Q-16")[0]
    assert "R-53" in q15                                              # no longer "control now" against R-53


# ------------------------------------------- 6.4, 6.5 on the kernel's transport
def test_6_4_2_6_5_1_rail_and_naval_points_come_from_the_kernels_capacity():
    from pbem.games.vr import moves
    r = vrhelp.rules(units={"i": u("ger", 4), "a": u("ger", 8, arm="armor"), "a2": u("ger", 8, arm="armor"),
                            "hq": vrhelp.hq("ger", 4), "s": u("sov", 5)},
                     railroads={"r": ["4820", "4920", "5020", "5120", "5220", "5320", "5420"]},
                     cities={"major": ["4820"]}, countries={"germany": ["4820"]})
    st = vrhelp.engine_state(r, {"i": "4820", "a": "4820", "a2": "4820", "hq": "4920", "s": "5521"},
                             vrhelp.movement_frame("german", rail=3), side="german")
    b = r.board(st)
    assert moves.transport_cost(b, ["i", "hq"]) == 2 and moves.transport_cost(b, ["a"]) == 2 == moves.naval_cost(b, "a")
    # the kernel's rail search and the path search agree; 5420 lies next to the Soviet unit (6.4.3)
    assert moves.rail_ends(b, "i") == set(moves.reach(b, "i", "rail").cost) - {"4820"}
    assert "5420" not in moves.rail_ends(b, "i") and "5320" in moves.rail_ends(b, "i")
    from pbem.game import probe
    assert "costs 4 points, 3 left (6.4.2)" in probe(r, st, "german", r.parse("rail a a2 5320", st, "german"))
    vrhelp.order(r, st, "german", "rail a 5320", ScriptedDice())
    assert st["stack"][-1]["rail"] == 1
