"""The Advanced Soviet Support phase (§11) and the TO markers' movement and
displacement (9.1.4), behind ``advanced_supports``: the rulebook's examples
T20-T24 of the notes' §6 through the engine, and the rules around them.  A
Basic game keeps the Basic Support phase (R-13)."""
from __future__ import annotations

import vrhelp
from pbem.board.hexgrid import HexGrid
from fakedice import ScriptedDice
from pbem.game import probe
from pbem.games.vr import seq_support, tos

u = vrhelp.unit
ADV = {"to_rules": True, "infantry_modes": True, "advanced_supports": True}
RAIL = {"r1": ["4820", "4920", "5020", "5120", "5220", "5320", "5420", "5520", "5620", "5720", "5820", "5920",
               "6020", "6120", "6220"]}


GRID = HexGrid(48, 62, 14, 30, "even-q")


def chain(*hexes: str) -> list[str]:
    """A chain of adjacent hexes through ``hexes`` (greedy steps)."""
    out = [hexes[0]]
    for goal in hexes[1:]:
        while out[-1] != goal:
            out.append(min(GRID.neighbors(out[-1]), key=lambda n: (GRID.distance(n, goal), n)))
    return out


def _rules(tos_at: dict[str, tuple[str, str]], units: dict | None = None, **kw):
    markers = {"tos": {to: {"hex": h, "mode": m} for to, (h, m) in tos_at.items()}}
    kw.setdefault("railroads", RAIL)
    kw.setdefault("supply", {"east_edge": ["6220"]})
    kw.setdefault("control", {"default": "soviet"})
    return vrhelp.rules(units={"g": u("ger", 4), **(units or {})}, switches=ADV, markers=markers, **kw)


def _frame():
    return {"k": "tosupport", "side": "soviet", "phase": "support", "stage": "start"}


def _start(r, placed, dice, **kw):
    st = vrhelp.engine_state(r, placed, _frame(), phase="support", **kw)
    st["phase"] = "support"
    events: list = []
    r._run(st, dice, events)
    return st, events


def _until(r, st, kind: str, dice) -> None:
    """Answer ``done`` (or the private reveal) until a ``kind`` decision."""
    while r.pending(st).kind != kind:
        d = r.pending(st)
        r.apply(st, d.seat, r.private_answer(st, d) if d.private else r.parse("done", st, d.seat), dice)


def _text(events) -> str:
    return " ".join(e.text for e in events)


def test_T21_11_3_3_drawing_supports_example_1_through_the_engine():
    """Turn 3, Fair: N Movement on a rail hex; CN and CS Offensive on Major
    Cities with rail; S Offensive on a Minor City with a road only.
    Priority CS, Secondary N; rolls CN 7, CS 8, S 4."""
    r = _rules({"N": ("5220", "movement"), "CN": ("5420", "offensive"), "CS": ("5620", "offensive"),
                "S": ("5424", "offensive")}, cities={"major": ["5420", "5620"], "minor": ["5424"]},
               roads={"r": ["5420", "5421", "5422", "5423", "5424"]})
    dice = ScriptedDice([(6, 3), (6, 4), (6, 4), (6, 4), (6, 2), (6, 2)], seed=1)
    st, _ = _start(r, {"g": "4820"}, dice)
    assert r.pending(st).kind == "priority"
    assert "six" in probe(r, st, "soviet", r.parse("priority CS N large zhukov", st, "soviet"))
    events = vrhelp.order(r, st, "soviet", "priority CS N", dice)
    boxes = seq_support.boxes(st)
    assert len(boxes["CN"]) == 3 and len(boxes["CS"]) == 6 and len(boxes["S"]) == 0 and len(boxes["N"]) == 0
    assert "TO S: 2D6 4 -> 0" in _text(events)
    # N is the Secondary: it may not take the Movement-Mode Support either (11.3.4)
    d = r.pending(st)
    assert "take N" not in d.options


def test_T22_11_3_2_large_offensive_picks_in_secret_and_only_the_priority_to_draws():
    r = _rules({"N": ("5220", "offensive"), "CN": ("5420", "offensive"), "CS": ("5620", "offensive"),
                "S": ("5820", "offensive")}, cities={"major": ["5220", "5420", "5620", "5820"]})
    st = vrhelp.engine_state(r, {"g": "4820"}, _frame(), phase="support")
    held = vrhelp.give_supports(st, "soviet", ["air_support"] * 3 + ["artillery_2", "artillery_3", "partisans"])
    for h in held:
        st["supports"]["soviet"].setdefault("box", {})[h] = "S"
    dice = ScriptedDice([(6, 5), (6, 5)], seed=3)
    r._run(st, dice, [])
    events = vrhelp.order(r, st, "soviet", "priority S N large zhukov", dice)
    boxes = seq_support.boxes(st)
    assert len(boxes["S"]) == 6 + 1 + 9 == 16                       # one picked, then 5 + 2 + 2 drawn
    assert all(not boxes[to] for to in ("N", "CN", "CS"))
    picked = [h for h in boxes["S"] if st["hidden"]["soviet"]["items"][h]["support"] == "zhukov"]
    assert picked and "zhukov" not in _text(events).lower()          # the pick stays face down
    t = st["to_turn"]
    assert t["large"] and t["priority"] == "S" and seq_support.movers(r, st) == []
    assert "Large Offensive" in (seq_support.flip_refusal(r, st, "S") or "")
    # the public copy of the order never names the pick
    assert r.format(r.parse("priority S N large zhukov", st, "soviet")) == "priority S N large"


def test_11_3_2_large_offensive_refused_in_mud_off_a_major_city_or_in_movement_mode():
    r = _rules({"N": ("5220", "offensive"), "S": ("5820", "movement")}, cities={"major": ["5820"]})
    st = vrhelp.engine_state(r, {"g": "4820"}, _frame(), phase="support")
    for h in vrhelp.give_supports(st, "soviet", ["air_support"] * 3 + ["artillery_2", "artillery_3", "partisans"]):
        st["supports"]["soviet"].setdefault("box", {})[h] = "N"
    r._run(st, ScriptedDice(seed=1), [])
    assert "Major City" in probe(r, st, "soviet", r.parse("priority N S large zhukov", st, "soviet"))
    assert "Offensive Mode" in probe(r, st, "soviet", r.parse("priority S N large zhukov", st, "soviet"))
    st["weather"] = "mud"
    assert "Mud" in probe(r, st, "soviet", r.parse("priority N S large zhukov", st, "soviet"))


def test_T23_11_2_remoteness_an_offensive_to_draws_nothing_a_movement_to_moves_five_free():
    """Turn 12, Mud: no in-supply German unit within 10 hexes of N; S's only
    German unit within 10 is out of supply."""
    r = _rules({"N": ("4820", "offensive"), "CN": ("5420", "offensive"), "S": ("6220", "movement")},
               cities={"major": ["4820", "5420"]}, units={"g2": u("ger", 4)})
    placed = {"g": "6024", "g2": "5430"}
    dice = ScriptedDice([(6, 6), (6, 6)], seed=2)
    st, events = _start(r, placed, dice, oos=("g",), weather="mud")
    t = st["to_turn"]
    assert t["remote"] == ["N", "S"]
    d = r.pending(st)
    assert d.kind == "to-remote"
    assert "follows roads" in probe(r, st, "soviet", r.parse("tomove S 6121", st, "soviet"))
    vrhelp.order(r, st, "soviet", "tomove S 6120 6020 5920 5820 5720", dice)     # five hexes along the railroad
    assert st["tos"]["S"]["hex"] == "5720"
    events = vrhelp.order(r, st, "soviet", "priority CN S", dice)
    text = _text(events)
    assert "TO N draws nothing: remote" in text
    assert "TO CN: 2D6 12 -> 5" in text                              # 6 + 2 (Priority) - 3 (Mud)
    assert r.pending(st).kind != "to-take"                           # no Movement-Mode Support in Mud


def test_D05_11_6_a_to_moves_three_plus_rail_plus_supports_and_pays_from_its_own_box():
    r = _rules({"N": ("5220", "movement"), "CN": ("5420", "offensive")}, cities={"major": ["5420"]})
    st = vrhelp.engine_state(r, {"g": "4820"}, _frame(), phase="support")
    hs = vrhelp.give_supports(st, "soviet", ["partisans", "maskirovka", "bridge_engineers"])
    for h in hs:
        st["supports"]["soviet"].setdefault("box", {})[h] = "N"
    dice = ScriptedDice([(6, 1), (6, 1)], seed=1)
    r._run(st, dice, [])
    vrhelp.order(r, st, "soviet", "priority CN N", dice)        # N is Secondary: no take, but it may move
    _until(r, st, "to-move", dice)
    assert "at most 4" in probe(r, st, "soviet", r.parse("tomove N 5320 5420 5520 5620 5720", st, "soviet"))
    assert "at most two" in probe(r, st, "soviet", r.parse(f"tomove N 5320 pay {' '.join(hs)}", st, "soviet"))
    vrhelp.order(r, st, "soviet", f"tomove N 5320 5420 5520 5620 5720 5820 pay {hs[0]} {hs[1]}", dice)
    assert st["tos"]["N"]["hex"] == "5820"                           # 3 + 1 (rail only) + 2
    assert seq_support.boxes(st)["N"] == [hs[2]]


def test_T20_10_3_2_reinforcing_infantry_corps():
    """CN Offensive with 2 Supports; 2 Guards corps at 5225 in CN's range
    and N's (Movement Mode); 2 corps at 5326 in CN's range only; both
    supplied on road/rail joined to CN."""
    corps = {k: u("sov", 6, corps=True, branch="guards" if k.startswith("gd") else "regular")
             for k in ("gd1", "gd2", "c1", "c2")}
    r = _rules({"CN": ("5426", "offensive"), "N": ("5121", "movement")}, units=corps,
               cities={"major": ["5426"]}, roads={"a": ["5225", "5326", "5426"]},
               railroads={"r": chain("5426", "6226")}, supply={"east_edge": ["6226"]})
    placed = {"g": "4820", "gd1": "5225", "gd2": "5225", "c1": "5326", "c2": "5326"}
    st = vrhelp.engine_state(r, placed, _frame(), phase="support", steps={k: 1 for k in corps})
    hs = vrhelp.give_supports(st, "soviet", ["partisans", "maskirovka"])
    for h in hs:
        st["supports"]["soviet"].setdefault("box", {})[h] = "CN"
    dice = ScriptedDice(seed=4)
    r._run(st, dice, [])
    vrhelp.order(r, st, "soviet", "priority CN N", dice)
    _until(r, st, "tosupport", dice)
    assert seq_support.reinforce_targets(r, st, "CN") == [["c1", "c2"]]
    assert "10.3.2" in probe(r, st, "soviet", r.parse(f"reinforce {hs[0]} gd1 gd2", st, "soviet"))
    vrhelp.order(r, st, "soviet", f"reinforce {hs[0]} c1 c2", dice)
    assert st["units"]["c1"]["steps"] == 2 and st["units"]["c2"]["steps"] == 2
    assert seq_support.reinforce_targets(r, st, "CN") == []           # the second Support has no target
    assert "10.3.2" in probe(r, st, "soviet", r.parse(f"reinforce {hs[1]} gd1", st, "soviet"))


def test_11_5_3_a_non_priority_box_gives_two_supports_a_turn():
    corps = {f"c{i}": u("sov", 6, corps=True) for i in range(1, 4)}
    r = _rules({"CN": ("5428", "offensive"), "CS": ("5628", "offensive")}, units=corps,
               cities={"major": ["5428", "5628"]}, roads={"a": chain("5227", "5428"), "b": chain("5229", "5428"),
                                                          "c": ["5429", "5428"]},
               railroads={"r": chain("5428", "6228")}, supply={"east_edge": ["6228"]})
    placed = {"g": "4820", "c1": "5227", "c2": "5229", "c3": "5429"}
    st = vrhelp.engine_state(r, placed, _frame(), phase="support", steps={k: 1 for k in corps})
    hs = vrhelp.give_supports(st, "soviet", ["partisans", "maskirovka", "bridge_engineers"])
    for h in hs:
        st["supports"]["soviet"].setdefault("box", {})[h] = "CN"
    dice = ScriptedDice(seed=4)
    r._run(st, dice, [])
    vrhelp.order(r, st, "soviet", "priority CS CN", dice)
    _until(r, st, "tosupport", dice)
    vrhelp.order(r, st, "soviet", f"reinforce {hs[0]} c1", dice)
    vrhelp.order(r, st, "soviet", f"reinforce {hs[1]} c2", dice)
    assert "10.3.2" in probe(r, st, "soviet", r.parse(f"reinforce {hs[2]} c3", st, "soviet"))


def test_T24_11_5_2_surprise_attack_fought_in_the_support_phase_after_lend_lease():
    r = _rules({"CN": ("5420", "offensive"), "N": ("6220", "offensive")}, cities={"major": ["5420"]},
               units={"a1": u("sov", 16), "a2": u("sov", 16)})
    st = vrhelp.engine_state(r, {"a1": "5320", "a2": "5320", "g": "5321"}, _frame(), phase="support")
    ll, sa = vrhelp.give_supports(st, "soviet", ["lend_lease", "surprise_attack"])
    for h in (ll, sa):
        st["supports"]["soviet"].setdefault("box", {})[h] = "CN"
    dice = ScriptedDice(seed=7)
    r._run(st, dice, [])
    vrhelp.order(r, st, "soviet", "priority CN N", dice)
    _until(r, st, "tosupport", dice)
    vrhelp.order(r, st, "soviet", f"surprise {sa} 5321 with a1 a2", dice)
    f = st["stack"][-1]
    assert f["k"] == "battle" and f["surprise"] == "5320"
    # Lend-Lease may not come after the Surprise Attack (11.5.2)
    while st["stack"][-1]["k"] == "battle":
        d = r.pending(st)
        vrhelp.order(r, st, d.seat, d.options[0] if d.options else "pass", dice)
    assert r.pending(st).kind == "tosupport"
    assert "11.5.2" in probe(r, st, "soviet", r.parse(f"lendlease {ll} CN", st, "soviet"))


def test_9_1_4_a_german_unit_entering_a_tos_hex_sends_it_east_and_empties_its_box():
    r = _rules({"CN": ("5420", "offensive")}, cities={"major": ["5420", "5820", "5620"]})
    st = vrhelp.engine_state(r, {"g": "5320"}, vrhelp.movement_frame("german"), side="german")
    hs = vrhelp.give_supports(st, "soviet", ["partisans", "maskirovka"])
    for h in hs:
        st["supports"]["soviet"].setdefault("box", {})[h] = "CN"
    events = vrhelp.order(r, st, "german", "move g 5420", ScriptedDice())
    assert st["tos"]["CN"]["hex"] == "5620" and not st["supports"]["soviet"]["available"]
    assert "9.1.4" in _text(events)


def test_basic_keeps_the_basic_support_phase():
    r = vrhelp.rules(units={"g": u("ger", 4)})
    assert not r.profile.advanced_supports
    st = vrhelp.engine_state(r, {"g": "4820"}, {"k": "turn", "step": 1, "go": True}, phase="weather")
    st["stack"] = [{"k": "turn", "step": 1, "go": True}]
    r._run(st, ScriptedDice(seed=1), [])
    assert all(f["k"] != "tosupport" for f in st["stack"])
    assert tos.new_state(r) is None


# ------------------------------------------------------------- the Stavka
def _stavka_rules():
    units = {f"i{k}": u("sov", 6, corps=True, start="stavka") for k in range(10)}
    units["small"] = u("sov", 6, arm="armor", start="stavka")
    units.update({f"big{k}": u("sov", 12, arm="armor", start="stavka") for k in range(5)})
    units.update({"s0": u("sov", 6), "hq": vrhelp.hq("sov", 6)})
    return vrhelp.rules(
        units={"g": u("ger", 4), **units}, switches={**ADV, "stavka": True},
        markers={"tos": {"CS": {"hex": "5620", "mode": "offensive"}, "CN": {"hex": "5420", "mode": "offensive"},
                         "N": {"hex": "5220", "mode": "movement"}, "S": {"hex": "6020", "mode": "offensive"}}},
        railroads=RAIL, supply={"east_edge": ["6220"]}, control={"default": "soviet"},
        cities={"major": ["5420", "5620"]})


def test_T25_12_1_1_stavka_example_through_the_engine():
    r = _stavka_rules()
    st = vrhelp.engine_state(r, {"g": "4820", "s0": "5720", "hq": "5820"},
                             {"k": "stavka", "side": "soviet", "phase": "stavka"}, phase="stavka")
    for uid, x in st["units"].items():
        if r.scn.units[uid].start == "stavka":
            x.update(hex=None, box="stavka")
    t = tos.turn_state(st)
    t.update(priority="CS", secondary="N")
    dice = ScriptedDice([(6, 5), (6, 6), (6, 3)])
    r._run(st, dice, [])
    assert r.pending(st).kind == "stavka"
    assert "Movement Mode" in probe(r, st, "soviet", r.parse("appeal CN move", st, "soviet"))
    vrhelp.order(r, st, "soviet", "appeal N move CN reserve CS reserve", dice)   # rolled CS, CN, then N
    vrhelp.order(r, st, "soviet", "roll", dice)                                  # CS: 5 -> 4 units
    vrhelp.order(r, st, "soviet", "release big0 5721", dice)
    vrhelp.order(r, st, "soviet", "release big1 5721", dice)
    assert r.pending(st).kind == "stavka-roll"                                   # no point left
    vrhelp.order(r, st, "soviet", "roll", dice)                                  # CN: 6 -> 3 units
    vrhelp.order(r, st, "soviet", "release big2 5719", dice)
    assert "12.2.2" in probe(r, st, "soviet", r.parse("release small 5719", st, "soviet"))
    vrhelp.order(r, st, "soviet", "release i0 5719", dice)
    box = seq_stavka_in_box(st)
    assert sum(1 for x in box if x.startswith("i")) == 9 and sum(1 for x in box if not x.startswith("i")) == 3
    vrhelp.order(r, st, "soviet", "roll", dice)                                  # N: secondary column, 3 -> 1 hex
    assert "at most 1" in probe(r, st, "soviet", r.parse("tomove N 5320 5420", st, "soviet"))
    vrhelp.order(r, st, "soviet", "tomove N 5320", dice)
    assert st["tos"]["N"]["hex"] == "5320"
    assert r.pending(st).kind == "move"          # no unit stacked with an HQ to enter the box: the phase ends


def seq_stavka_in_box(st):
    from pbem.games.vr import seq_stavka
    return seq_stavka.in_box(st)


def test_12_1_2_units_enter_the_stavka_box_stacked_with_an_hq_corps_to_standard():
    r = _stavka_rules()
    st = vrhelp.engine_state(r, {"g": "4820", "s0": "5720", "hq": "5720", "i0": "5720"},
                             {"k": "stavka", "side": "soviet", "phase": "stavka"}, phase="stavka")
    tos.turn_state(st).update(priority="CS", secondary="N")
    dice = ScriptedDice()
    r._run(st, dice, [])
    vrhelp.order(r, st, "soviet", "appeal none", dice)
    assert "enter i0" in r.pending(st).options
    vrhelp.order(r, st, "soviet", "enter i0 s0", dice)
    assert st["units"]["i0"]["box"] == "stavka" and st["units"]["i0"]["steps"] == 1


def test_9_1_1_the_sitrep_shows_each_to_box_count_and_mode_never_the_faces():
    r = _rules({"N": ("5220", "movement"), "CN": ("5420", "offensive")}, cities={"major": ["5420"]})
    st = vrhelp.engine_state(r, {"g": "4820"}, _frame(), phase="support")
    hs = vrhelp.give_supports(st, "soviet", ["zhukov", "partisans"])
    st["supports"]["soviet"]["box"] = {hs[0]: "CN", hs[1]: "CN"}
    block = next(b for b in r.view(st, "german").blocks if b.title == "situation")
    text = "\n".join(block.lines)
    assert "CN 5420 (Offensive Mode, 2 Support(s) in its box)" in text
    assert "N 5220 (Movement Mode, 0 Support(s) in its box)" in text
    assert "Zhukov" not in "\n".join(b2 for b in r.view(st, "german").blocks if hasattr(b, "lines") for b2 in b.lines)
