"""Review fixes of the ava/ffs engine, each rule on both profiles where
they part: the map-edge entry is MOVE's entering move (AVA 9.2, FFS
9.2.1(1) #21), an FFS attack below the first column is refused at
declaration (FFS 10.3.4; AVA 10.3(4) cancels it), one source for the FFS
16.2 Reserve limits, fortress markers per map (AVA 14.3), and the End
Phase's extras (AVA 5.0(5), notes A31)."""
from __future__ import annotations

from typing import Any

import pytest
from fakedice import ScriptedDice

from pbem.game import IllegalOrder
from pbem.games.ava import chits, reinforce
from pbem.games.ava.board import Board
from pbem.games.ava.profile import AVA, FFS, Profile
from pbem.games.ava.scenario import load
from tests import avahelp

U = avahelp.unit
PROFILES = [pytest.param(AVA, id="ava"), pytest.param(FFS, id="ffs")]


# ------------------------------------------------- 1. entry from the map edge
def _entry_board(profile: Profile, placed: dict[str, str] | None = None, **hexsides: list[str]) -> Board:
    """A foot unit of 4 MP waiting in the Available Box; 2010 is a From
    Moscow source and an east-edge source, with a road west of it."""
    units = {"s1": U("soviet", "foot", 3, 3, 8), "x1": U("soviet", "foot", 3, 3, 8),
             "x2": U("soviet", "foot", 3, 3, 8),
             "h19": U("soviet", "foot", 3, 3, 8, start="turn:3", flags=["19A"])}
    d = avahelp.mini(game=profile.game, units=units, hexsides=hexsides,
                     params={"strategic_reserve": 6, "strategic_reserve_from_turn": 6, "army19_turn": 3},
                     roads={"east": ["2010", "1910", "1810", "1710"]},
                     supply={"soviet": ["2010"], "axis": ["1010"]},
                     source_tags={"from_moscow": ["2010"], "east_edge": ["2010"]})
    scn = load(d)
    s = avahelp.state(scn, placed or {}, turn=6)
    s["units"]["h19"]["box"] = "track:3"
    return Board(scn, profile, s)


@pytest.mark.parametrize("profile", PROFILES)
def test_9_2_an_entering_unit_may_not_cross_an_unbridged_major_river(profile: Profile) -> None:
    """1 MP entering 2010 by road; 3 MP left would pay a plain hex, but the
    all-MP crossing must be the first step from the move's start hex, and
    an entering move starts off the map."""
    b = _entry_board(profile, major_river=["2010|2009"])
    with pytest.raises(IllegalOrder, match="whole move"):
        reinforce.check_entry(b, "s1", ["2010", "2009"], "normal", reinforce.from_moscow(b.scn))
    with pytest.raises(IllegalOrder, match="whole move"):
        reinforce.check_strategic_reserve(b, 6, {"s1": ("normal", ["2010", "2009"])})
    with pytest.raises(IllegalOrder, match="whole move"):
        reinforce.check_army19(b, 6, {"h19": ("normal", ["2010", "2009"])})
    # the road west is open, at the entry hex's price first
    assert reinforce.check_entry(b, "s1", ["2010", "1910", "1810", "1710"], "normal",
                                 reinforce.from_moscow(b.scn)) == 8


@pytest.mark.parametrize("profile", PROFILES)
def test_9_2_an_entering_move_pays_the_entry_hex_like_move_does(profile: Profile) -> None:
    from pbem.games.ava import movement
    b = _entry_board(profile)
    sources = reinforce.from_moscow(b.scn)
    for mode, path in (("normal", ["2010", "1910", "1810"]), ("strategic", ["2010", "1910", "1810"]),
                       ("normal", ["2010", "2009", "2008"])):
        assert reinforce.check_entry(b, "s1", path, mode, sources) == \
            movement.check_move(b, "s1", path, mode, entering=True)
    assert reinforce.entry_cost(b, "s1", "2010", "strategic") == 1


@pytest.mark.parametrize("profile", PROFILES)
def test_3_1_an_entry_may_not_end_overstacked(profile: Profile) -> None:
    b = _entry_board(profile, {"x1": "1910", "x2": "1910"})
    with pytest.raises(IllegalOrder, match="1910"):
        reinforce.check_entry(b, "s1", ["2010", "1910"], "normal", reinforce.from_moscow(b.scn))
    assert reinforce.check_entry(b, "s1", ["2010", "1910", "1810"], "normal", reinforce.from_moscow(b.scn)) == 6


# ------------------------------------------------- 2. below the first column
CHITS = {"supply": {"side": "common", "kind": "supply"},
         "ax-2PzG": {"side": "axis", "kind": "hq", "hq": "2PzG"},
         "su-13A": {"side": "soviet", "kind": "hq", "hq": "13A"}}


def _game(game: str, **over: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The Surprise Attack of a small game: 3Pz (8) next to s1 in 1513."""
    from pbem.games.ava import FFS_GAME, GAME
    units = {
        "2PzG": U("axis", "hq", 1, 2, 8, steps=1, type="panzergruppe", start="1510", formation="2PzG",
                  command_range=4),
        "3Pz": U("axis", "mech", 8, 6, 12, start="1512", formation="2PzG"),
        "13A": U("soviet", "hq", 1, 2, 6, steps=1, type="army", start="1515", command_range=4),
        "s1": U("soviet", "foot", 3, 4, 6, start="1513"),
        "s2": U("soviet", "foot", 3, 4, 6, start="1613"),
    }
    units.update(over)
    data = avahelp.mini(game=game, units=units, chits=CHITS, supply={"axis": ["1001"], "soviet": ["2030"]})
    rules = (GAME if game == "ava" else FFS_GAME).rules(data, {})
    return rules, rules.initial_state()


def _play(rules: Any, state: dict[str, Any], text: str, dice: Any = None) -> list[str]:
    d = rules.pending(state)
    order = rules.fill_secrets(state, d.seat, rules.parse(text, state, d.seat), lambda: bytes(16))
    _, events = rules.apply(state, d.seat, order, dice or ScriptedDice())
    return [e.text for e in events]


def test_td01_10_3_4_ffs_an_attack_below_1_to_1_is_refused_when_declared() -> None:
    """8 against 9 is below 1:1: FFS refuses the order in one line, and 3Pz
    stays free to attack, 1513 to be attacked."""
    rules, st = _game("ffs", s1=U("soviet", "foot", 3, 9, 6, start="1513"))
    assert not any(o.startswith("attack 1513") for o in rules.pending(st).options)
    with pytest.raises(IllegalOrder, match=r"below 1:1 after the shifts: no attack \(10\.3\.4\)") as exc:
        _play(rules, st, "attack 1513 with 3Pz")
    assert "\n" not in str(exc.value)
    assert not st["units"]["3Pz"]["attacked"] and "1513" not in st["attacked_hexes"]
    assert rules.pending(st).kind == "combat"


def test_tc25_10_3_4_ava_an_attack_below_1_to_1_is_declared_then_cancelled_with_no_roll() -> None:
    rules, st = _game("ava", s1=U("soviet", "foot", 3, 9, 6, start="1513"))
    _play(rules, st, "attack 1513 with 3Pz")
    assert st["units"]["3Pz"]["attacked"] and "1513" in st["attacked_hexes"]
    events = _play(rules, st, "end-combat")              # ScriptedDice() fails on any roll
    assert any("below 1:1: cancelled" in e for e in events)


@pytest.mark.parametrize("profile", PROFILES)
def test_10_3_4_check_odds_by_profile(profile: Profile) -> None:
    from pbem.games.ava import combat
    scn = avahelp.scenario(game=profile.game, units={"g": U("axis", "mech", 3, 3, 12), "s": U("soviet", "foot", 2, 2, 8)},
                           terrain={"heavy_woods": ["1523"]})
    b = Board(scn, profile, avahelp.state(scn, {"g": "1522", "s": "1523"}))
    b.state["units"]["g"]["active"] = True
    if profile.below_first_column == "refused":
        with pytest.raises(IllegalOrder, match="10.3.4"):
            combat.check_odds(b, ["g"], "1523")
    else:
        assert combat.check_odds(b, ["g"], "1523").cancelled
    assert combat.odds(b, ["g"], "1523").cancelled


# ------------------------------------------------- 3. the Reserve's limits, one source
@pytest.mark.parametrize("profile", PROFILES)
def test_17_2_16_2_reserve_limits_agree_with_the_move(profile: Profile) -> None:
    """AVA 17.2: normal movement only, full MP; FFS 16.2 (#59): half MP,
    strategic movement allowed.  The limits chits reports are what the move
    applies to a Reserve unit outside every HQ's range."""
    from pbem.games.ava import movement
    scn = avahelp.scenario(game=profile.game, units={"u": U("soviet", "foot", 3, 3, 12)},
                           roads={"r": ["1510", "1511", "1512"]})
    b = Board(scn, profile, avahelp.state(scn, {"u": "1510"}))
    lim = chits.reserve_limits(scn, profile, "reserve", False)
    assert lim.strategic == (profile is FFS) and lim.mp_half == (profile is FFS)
    try:
        movement.check_move(b, "u", ["1510", "1511", "1512"], "strategic", reserve_out_of_range=True)
        strategic = True
    except IllegalOrder:
        strategic = False
    assert strategic == lim.strategic
    halved = movement.allowance(b, "u", reserve_out_of_range=True) < movement.allowance(b, "u")
    assert halved == lim.mp_half


# ------------------------------------------------- 4. fortress markers per map (AVA 14.3)
CITIES = ["1010", "1210", "1410", "1610", "1810", "2010", "1020", "1220"]


def _fort_board(markers: Any, forts: dict[str, int] | None = None) -> Board:
    p = {"fortress_build_from_turn": 4, "fortress_steps_per_check": 2, "fortress_max_hexes": 6,
         "fortress_markers": markers}
    scn = load(avahelp.mini(units={"s": U("soviet", "foot", 3, 3, 8)}, cities={"major_city": CITIES},
                            params=p, fortress=forts or {}))
    return Board(scn, AVA, avahelp.state(scn, {}, turn=4))


def test_14_3_markers_left_counts_each_map_apart() -> None:
    """Campaign hex ids carry their map ("S:4112"): markers at the start and
    markers built count against their own map's countermix only."""
    from dataclasses import replace
    from pbem.games.ava import fortress
    def with_start_forts(markers: Any) -> Board:
        b = _fort_board(markers)
        scn = replace(b.scn, map=replace(b.scn.map, fortress={"S:0927": 1, "L:3602": 2}))
        return Board(scn, AVA, dict(b.state, fortress_placed=1, fortress_placed_maps={"S": 1}))

    per_map = with_start_forts({"L": 1, "S": 3, "K": 2})
    assert [fortress.markers_left(per_map, h) for h in ("L:3603", "S:4112", "K:3507")] == [0, 1, 2]
    assert fortress.markers_left(per_map, "X:0101") is None            # no count for that map
    whole = with_start_forts(6)
    assert fortress.markers_left(whole, "K:3507") == fortress.markers_left(whole) == 3    # 6 - 2 - 1


def test_14_3_construction_draws_on_the_hex_maps_markers(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test map has no map prefixes: columns 10-13 stand for map L, the
    rest for map S.  One L marker: a second L fortress is refused in the
    same check and later, an S one is not; a plain 1 caps both."""
    from pbem.games.ava import fortress
    monkeypatch.setattr(fortress, "map_of", lambda h: "L" if h[:2] in ("10", "11", "12", "13") else "S")
    loc = set(CITIES)
    b = _fort_board({"L": 1, "S": 5})
    with pytest.raises(IllegalOrder, match="no fortress marker is left"):
        fortress.check_build(b, 4, ["1010", "1210"], loc)
    after = fortress.check_build(b, 4, ["1010", "1410"], loc)
    fortress.build(b.state, {}, after)
    assert b.state["fortress_placed"] == 2 and b.state["fortress_placed_maps"] == {"L": 1, "S": 1}
    b2 = Board(b.scn, AVA, b.state)
    with pytest.raises(IllegalOrder, match="no fortress marker is left"):
        fortress.check_build(b2, 5, ["1220"], loc)
    assert fortress.check_build(b2, 5, ["1610", "1010"], loc) == {"1010": 2, "1410": 1, "1610": 1}
    with pytest.raises(IllegalOrder, match="no fortress marker is left"):
        fortress.check_build(_fort_board(1), 4, ["1010", "1410"], loc)


# ------------------------------------------------- 5. the End Phase (AVA 5.0(5), A31)
@pytest.mark.parametrize("game", ["ava", "ffs"])
def test_5_0_5_end_phase_axis_units_from_the_track_enter_outside_the_count(game: str) -> None:
    """A unit on the next turn's track space (an AVA 18.1 3PzG unit, a
    transferred HQ) goes to the Available Box tagged extra: it enters with
    the Reinforcements beside the turn's number, not in it (notes A31)."""
    rules, st = _game(game, g9=U("axis", "mech", 6, 4, 12, start="available"))
    st["units"]["g9"].update(hex=None, box="track:2")
    top = rules.push(st, "endturn")
    rules._auto_endturn(st, top, ScriptedDice(), [])
    assert st["turn"] == 2
    assert st["units"]["g9"]["box"] == "available" and st["units"]["g9"].get("extra") is True
    b = rules.board(st)
    assert "g9" in reinforce.extras(b, "axis", 4) and "g9" not in reinforce.pool(b, "axis")
