"""The rule options of both games: the optional rules (AVA 17.3-17.6, FFS
16.3), the Leningrad Reserve limits (AVA 18.1) and the readings the
RULINGS files leave open, each through the sequence of play."""
from __future__ import annotations

from typing import Any

import avahelp
import pytest
from fakedice import ScriptedDice

from pbem.errors import UsageError
from pbem.game import IllegalOrder, ScenarioError
from pbem.games.ava import FFS_GAME, GAME

U = avahelp.unit
CHITS = {"supply": {"side": "common", "kind": "supply"},
         "ax-2PzG": {"side": "axis", "kind": "hq", "hq": "2PzG"},
         "su-13A": {"side": "soviet", "kind": "hq", "hq": "13A"}}


def build(game: str = "ava", units: dict[str, Any] | None = None, chits: dict[str, Any] | None = None,
          options: dict[str, Any] | None = None, **kw: Any) -> tuple[Any, dict[str, Any]]:
    params = {"surprise_attack": False, **kw.pop("params", {})}
    data = avahelp.mini(game=game, units=units, chits=chits or CHITS, params=params,
                        supply=kw.pop("supply", {"axis": ["1001"], "soviet": ["2030"]}), **kw)
    rules = (GAME if game == "ava" else FFS_GAME).rules(data, options or {})
    return rules, rules.initial_state()


def play(rules: Any, st: dict[str, Any], text: str, dice: Any = None) -> list[str]:
    d = rules.pending(st)
    order = rules.fill_secrets(st, d.seat, rules.parse(text, st, d.seat), lambda: bytes(16))
    _, events = rules.apply(st, d.seat, order, dice or ScriptedDice())
    return [e.text for e in events]


def reveal(rules: Any, st: dict[str, Any], dice: Any = None) -> list[str]:
    d = rules.pending(st)
    _, events = rules.apply(st, d.seat, rules.private_answer(st, d), dice or ScriptedDice())
    return [e.text for e in events]


def draw_axis(rules: Any, st: dict[str, Any], axis: str = "chits ax-2PzG", soviet: str = "chits su-13A") -> None:
    play(rules, st, axis)
    play(rules, st, soviet, ScriptedDice(draws=["sealed:a1.1"]))
    reveal(rules, st)


# --------------------------------------------------------------- the options themselves
def test_options_are_listed_per_book_with_the_profile_default() -> None:
    ava, ffs = GAME.options(), FFS_GAME.options()
    for name in ("hq_transfer", "soviet_supply_limited", "mech_limit", "pzg_second_activation",
                 "army19_turn3_only", "zhukov_in_campaign"):
        assert name in ava
    assert "hq_transfer" in ffs and "mech_limit" not in ffs and "pzg_second_activation" not in ffs
    assert ava["stacking_check"][0] == "unit" and ffs["stacking_check"][0] == "segment"
    assert ava["chits_exact"][0] is False and ffs["chits_exact"][0] is True
    assert ava["lone_hq_attackable"][0] is True


def test_validate_options_checks_values_in_one_line() -> None:
    assert GAME.validate_options({"stacking_check": "segment"})["stacking_check"] == "segment"
    with pytest.raises(UsageError, match="stacking_check is one of unit, segment, not 'end'"):
        GAME.validate_options({"stacking_check": "end"})
    with pytest.raises(UsageError):
        GAME.validate_options({"mech_limit": "yes"})
    with pytest.raises(ScenarioError, match="stacking_check"):
        build(options={"stacking_check": "end"})


def test_a_reading_option_changes_the_profile_the_mechanics_read() -> None:
    rules, _ = build(options={"stacking_check": "segment", "chits_exact": True, "axis_chit_limit": True})
    assert rules.profile.stacking_checked_at == "segment" and rules.profile.chit_quota_exact
    assert not rules.profile.axis_may_select_all
    rules, _ = build("ffs", options={"stacking_check": "unit"})
    assert rules.profile.stacking_checked_at == "move" and rules.profile.game == "ffs"


# --------------------------------------------------------------- 17.3 / 16.3 HQ transfer
def _two_hqs(game: str = "ava", **options: Any) -> tuple[Any, dict[str, Any]]:
    units = {"2PzG": U("axis", "hq", 1, 2, 8, steps=1, type="panzergruppe", start="1510", command_range=4),
             "9A": U("axis", "hq", 1, 2, 8, steps=1, type="army", start="1512", command_range=4),
             "4A": U("axis", "hq", 1, 2, 8, steps=1, type="army", start="1520", command_range=4),
             "13A": U("soviet", "hq", 1, 2, 6, steps=1, type="army", start="1528", command_range=4),
             "s1": U("soviet", "foot", 3, 4, 6, start="1527")}
    return build(game, units=units, options=options, railroads={"r1": ["1001", "1101", "1201", "1301", "1401",
                                                                         "1501", "1502", "1503", "1504", "1505",
                                                                         "1506", "1507", "1508", "1509", "1510",
                                                                         "1511", "1512", "1513", "1514", "1515",
                                                                         "1516", "1517", "1518", "1519", "1520"]})


def test_17_3_another_hq_in_range_with_an_loc_goes_to_the_next_turn() -> None:
    rules, st = _two_hqs(hq_transfer=True)
    draw_axis(rules, st)
    d = rules.pending(st)
    assert "transfer 9A" in d.options and "transfer 4A" not in d.options      # 4A is 10 hexes away
    assert "transfer 2PzG" not in d.options                                   # the activated HQ itself
    with pytest.raises(IllegalOrder, match="not another HQ in command range"):
        play(rules, st, "transfer 4A")
    events = play(rules, st, "transfer 9A")
    assert "9A transfers to Turn 2 (HQ transfer)" in events
    assert st["units"]["9A"] == dict(st["units"]["9A"], hex=None, box="track:2", extra=True)


def test_17_3_without_the_option_there_is_no_transfer() -> None:
    rules, st = _two_hqs()
    draw_axis(rules, st)
    assert not any(o.startswith("transfer") for o in rules.pending(st).options)
    with pytest.raises(IllegalOrder, match="optional rule"):
        play(rules, st, "transfer 9A")


def test_ffs_16_3_each_side_transfers_any_hq_with_an_loc_at_the_supply_order() -> None:
    rules, st = _two_hqs("ffs", hq_transfer=True)
    play(rules, st, "chits ax-2PzG")
    play(rules, st, "chits su-13A", ScriptedDice(draws=["supply"]))
    assert rules.pending(st).kind == "withdraw"              # 11.2 first
    play(rules, st, "pass")
    d = rules.pending(st)
    assert (d.seat, d.kind) == ("axis", "transfer") and "transfer 4A" in d.options
    play(rules, st, "transfer 4A")
    assert st["units"]["4A"]["box"] == "track:2"
    play(rules, st, "pass")
    d = rules.pending(st)
    assert (d.seat, d.kind) == ("soviet", "transfer")        # 13A has a line to 2030, no enemy ZOC
    assert rules.standing_answer(st, d, {"transfer": "none"}) == {"verb": "pass"}


# --------------------------------------------------------------- 18.1 Leningrad Reserve
def test_18_1_a39_leningrad_reserve_units_never_leave_enemy_zoc_and_never_attack() -> None:
    units = {"2PzG": U("axis", "hq", 1, 2, 8, steps=1, type="panzergruppe", start="1510", command_range=4),
             "a1": U("axis", "foot", 3, 4, 6, start="1515"),
             "13A": U("soviet", "hq", 1, 2, 6, steps=1, type="army", start="1520", command_range=4),
             "s1": U("soviet", "foot", 3, 4, 6, start="1516"), "s2": U("soviet", "foot", 3, 4, 12, start="1519")}
    chits = dict(CHITS, **{"SU-res": {"side": "soviet", "kind": "reserve"}})
    rules, st = build(units=units, chits=chits, options={"reserve_okh": True},
                      params={"reserve_no_ezoc": True, "reserve_table": [1, 1, 2, 2, 3, 3]})
    play(rules, st, "chits ax-2PzG")
    play(rules, st, "chits su-13A SU-res", ScriptedDice(draws=["sealed:s1.2"]))
    reveal(rules, st, ScriptedDice([(6, 3, "SU-res")]))
    play(rules, st, "pick s1 s2")
    with pytest.raises(IllegalOrder):
        play(rules, st, "move s1 1517")                    # s1 starts next to a1: it may not leave
    with pytest.raises(IllegalOrder):
        play(rules, st, "move s2 1618 1617 1616")          # 1616 is in a1's ZOC: it may not enter
    play(rules, st, "move s2 1518")
    play(rules, st, "end-move")
    d = rules.pending(st)
    assert d.kind == "combat" and not any(o.startswith("attack") for o in d.options)


# --------------------------------------------------------------- 17.4 Soviet supply limitations
def test_17_4_a_soviet_line_off_the_road_longer_than_12_hexes_is_cut() -> None:
    from pbem.games.ava import supply
    units = {"s1": U("soviet", "foot", 3, 4, 6, start="1510"), "a1": U("axis", "foot", 3, 4, 6, start="1001")}
    for opt, lost in ((False, False), (True, True)):
        rules, st = build(units=units, chits={"supply": {"side": "common", "kind": "supply"}},
                          options={"soviet_supply_limited": opt}, roads={"r": ["2030", "2029", "2028"]})
        b = rules.board(st)
        assert ("1510" in supply.loc(b, "soviet", limited=opt)) is not lost
        events = play(rules, st, "chits", ScriptedDice(draws=["supply"])) if rules.pending(st).seat == "axis" else []
        events += play(rules, st, "chits", ScriptedDice(draws=["supply"]))
        assert (st["units"]["s1"]["steps"] == 1) is lost, events


# --------------------------------------------------------------- 17.5 the German mech limit
def test_17_5_a_german_hq_activates_at_most_ten_mech_units() -> None:
    units = {"2PzG": U("axis", "hq", 1, 2, 8, steps=1, type="panzergruppe", start="1510", command_range=4)}
    hexes = ["1509", "1511", "1409", "1410", "1609", "1610", "1508", "1512", "1408", "1411", "1608"]
    units.update({f"m{i}": U("axis", "mech", 4, 4, 12, start=h) for i, h in enumerate(hexes)})
    units["13A"] = U("soviet", "hq", 1, 2, 6, steps=1, type="army", start="1528", command_range=4)
    rules, st = build(units=units, options={"mech_limit": True})
    draw_axis(rules, st)
    d = rules.pending(st)
    assert (d.seat, d.kind) == ("axis", "mech") and "at most 10" in d.prompt
    with pytest.raises(IllegalOrder, match="at most 10 mech units"):
        play(rules, st, "pick " + " ".join(f"m{i}" for i in range(11)))
    play(rules, st, "pick " + " ".join(f"m{i}" for i in range(10)))
    assert not st["units"]["m10"]["active"] and st["units"]["m9"]["active"] and st["units"]["2PzG"]["active"]
    assert rules.pending(st).kind == "move"
    rules, st = build(units=units)
    draw_axis(rules, st)
    assert rules.pending(st).kind == "move" and st["units"]["m10"]["active"]


# --------------------------------------------------------------- 17.6 PzG second activation
def test_17_6_a_panzergruppe_without_an_loc_gets_no_second_activation() -> None:
    chits = dict(CHITS, **{"ax-2PzG-b": {"side": "axis", "kind": "hq", "hq": "2PzG"}})
    units = {"2PzG": U("axis", "hq", 1, 2, 8, steps=1, type="panzergruppe", start="1520", command_range=4),
             "13A": U("soviet", "hq", 1, 2, 6, steps=1, type="army", start="1528", command_range=4)}
    for opt in (False, True):
        rules, st = build(units=units, chits=chits, options={"pzg_second_activation": opt})
        play(rules, st, "chits ax-2PzG ax-2PzG-b")
        play(rules, st, "chits su-13A", ScriptedDice(draws=["sealed:a1.1"]))
        reveal(rules, st)                                   # first activation: no LOC asked
        assert rules.pending(st).kind == "move"
        play(rules, st, "end-move")
        play(rules, st, "end-combat", ScriptedDice(draws=["sealed:a1.2"]))
        events = reveal(rules, st)
        second = rules.pending(st).kind == "move"
        assert second is not opt, events
        if opt:
            assert any("no second activation (17.6)" in e for e in events)


# --------------------------------------------------------------- 15.3 (A24) army19_turn3_only
@pytest.mark.parametrize("option", [False, True])
def test_15_3_a24_the_19th_army_waits_for_a_later_draw_unless_turn3_only(option: bool) -> None:
    units = {"2PzG": U("axis", "hq", 1, 2, 8, steps=1, type="panzergruppe", start="1510", command_range=4),
             "13A": U("soviet", "hq", 1, 2, 6, steps=1, type="army", start="1528", command_range=4),
             "19A": U("soviet", "hq", 1, 2, 6, steps=1, type="army", start="turn:3", flags=["19A"]),
             "19-1": U("soviet", "foot", 3, 4, 6, start="turn:3", flags=["19A"])}
    rules, st = build(units=units, chits={"supply": {"side": "common", "kind": "supply"}},
                      options={"army19_turn3_only": option}, params={"army19_turn": 3})
    st["turn"] = 3
    play(rules, st, "chits")
    play(rules, st, "chits", ScriptedDice(draws=["supply"]))
    assert st["turn"] == 4
    assert (st["units"]["19-1"]["box"] == "withdrawn") is option
    assert (st["units"]["19A"]["box"] == "track:3") is not option


# --------------------------------------------------------------- 8.1 (A4, #62) reactivate_same_hq
@pytest.mark.parametrize("option", [True, False])
def test_8_1_a4_a_second_chit_of_the_same_hq_reactivates_unless_the_literal_reading(option: bool) -> None:
    chits = dict(CHITS, **{"ax-2PzG-b": {"side": "axis", "kind": "hq", "hq": "2PzG"}})
    units = {"2PzG": U("axis", "hq", 1, 2, 8, steps=1, type="panzergruppe", start="1510", command_range=4),
             "3Pz": U("axis", "mech", 8, 6, 12, start="1511"),
             "13A": U("soviet", "hq", 1, 2, 6, steps=1, type="army", start="1528", command_range=4)}
    rules, st = build(units=units, chits=chits, options={"reactivate_same_hq": option})
    play(rules, st, "chits ax-2PzG ax-2PzG-b")
    play(rules, st, "chits su-13A", ScriptedDice(draws=["sealed:a1.1"]))
    reveal(rules, st)
    assert st["units"]["3Pz"]["active"]
    play(rules, st, "end-move")
    play(rules, st, "end-combat", ScriptedDice(draws=["sealed:a1.2"]))
    reveal(rules, st)
    assert st["units"]["3Pz"]["active"] is option and st["units"]["2PzG"]["active"]


def test_ffs_15_6_2_full_game_margin_option() -> None:
    from pbem.games.ava import victory
    rules, _ = build("ffs", options={"full_game_margin": 39})
    assert rules.options["full_game_margin"] == 39
    assert victory.outcome(rules.scn, rules.profile, {"axis": 39}, bid=39)[0] == "axis"


def test_check_scenario_reports_inconsistencies_not_only_gaps() -> None:
    units = {"a": U("axis", "foot", 3, start="1510"), "b": U("axis", "foot", 3, start="1510"),
             "c": U("axis", "foot", 3, start="1510"), "d": U("soviet", "foot", 3, start="zone:nowhere")}
    out = GAME.check_scenario(avahelp.mini(units=units))
    assert any("hex 1510: set up with a, b, c" in line for line in out)
    assert any("names no deployment zone" in line for line in out)
    assert FFS_GAME.check_scenario(avahelp.mini(units=units))[-1] == "scenario: a ava scenario, not ffs"
