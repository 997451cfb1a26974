"""Review of the Advanced game (§9-19) against the rulebook: one test per
deviation found, named after its rule (issue 11, review pass)."""
from __future__ import annotations

import copy

import vrhelp
from fakedice import ScriptedDice
from pbem.games.vr import scenario as scenario_mod

u = vrhelp.unit
SW = {"rr_procedure": True, "approval_track": True, "fortification_classes": True}
GERMANY = {"germany": ["4820", "4821", "4822", "4920", "4921", "4922", "5020", "5021", "5022"]}


def _rules(switches=SW, schedule=None, **kw):
    units = {"g": u("ger", 6), "ge": u("ger", 7, elite=True), "ghq": vrhelp.hq("ger", 3),
             "s": u("sov", 8), "gr": u("ger", 5, start="turn:3")}
    units |= kw.pop("units", {})
    kw.setdefault("control", {"default": "german"})
    kw.setdefault("markers", {"approval": 7, "foa": 0})
    data = vrhelp.mini(units=units, switches=switches,
                       schedule=schedule or {"2": {"rp": {"sov": 2}}, "3": {"rp": {"sov": 2}}},
                       countries=GERMANY, cities={"major": ["4820", "5530"], "minor": ["5022"]},
                       fortifications={"advanced": ["5520"]}, supply={"june_cities": ["5530"]}, **kw)
    data["card"].pop("arrivals", None)          # the practice card's arrival hexes lie off this map (17.1-17.2)
    return vrhelp.rules(scenario_mod.load(data))


def _rr(r, placed, side="german", turn=2, **kw):
    st = vrhelp.engine_state(r, placed, {"k": "rr", "side": side, "phase": "rr"}, side=side, turn=turn, **kw)
    events: list = []
    r._run(st, ScriptedDice(seed=3), events)
    return st, " ".join(e.text for e in events)


def test_17_3_11_rebuilt_elite_arrives_in_a_german_city():
    """17.3.11's exception: a rebuilt Elite division comes next turn in a
    German-held City of Germany, not in an advanced fortification where a
    scheduled reinforcement may arrive (17.2.1)."""
    r = _rules()
    st, _ = _rr(r, {"ghq": "4820", "s": "5530"})
    vrhelp.order(r, st, "german", "rebuild ge", ScriptedDice(seed=3))
    assert st["units"]["ge"]["box"] == "turn:3"
    nxt = vrhelp.engine_state(r, {"ghq": "4820", "s": "5530"}, {"k": "rr", "side": "german", "phase": "rr"},
                              side="german", turn=3)
    nxt["units"]["ge"] = copy.deepcopy(st["units"]["ge"])
    nxt["units"]["gr"]["box"] = "turn:3"
    r._run(nxt, ScriptedDice(seed=3), [])
    d = r.pending(nxt)
    assert d.kind == "place"
    assert "place gr 5520" in d.options                    # 17.2.1: a reinforcement may use the fortification
    elite = sorted(o for o in d.options if o.startswith("place ge "))
    assert elite and all(o.split()[-1] in ("4820", "5022") for o in elite), elite
    assert "place ge 5520" not in d.options
