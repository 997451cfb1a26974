"""Multiplayer A Victory Awaits (AVA 19, 20) at the rules level: the seats
the options give, who decides what (A46, A49), the Game Controller's queue
(19.4, 19.5, A48) and the variant's HQ cups and Master cup (20.2), on the
four-seat practice set-up (ava/practice-multi: axis_north, axis_south,
soviet_north, soviet_south; soviet_south is the Controller)."""
from __future__ import annotations

from typing import Any

import pytest
from avamulti import SCENARIO, options
from fakedice import ScriptedDice

from pbem.game import IllegalOrder, ScenarioError, SeatSpec
from pbem.games.ava import FFS_GAME, GAME
from pbem.scenario import find, load_toml


def rules_and_state(mode: str) -> tuple[Any, dict[str, Any]]:
    r = GAME.rules(SCENARIO, GAME.validate_options(options(mode)))
    return r, r.initial_state()


def play(r: Any, st: dict[str, Any], text: str, dice: Any = None) -> list[str]:
    d = r.pending(st)
    _, events = r.apply(st, d.seat, r.parse(text, st, d.seat), dice or ScriptedDice())
    return [e.text for e in events]


def reveal(r: Any, st: dict[str, Any], dice: Any = None) -> list[str]:
    d = r.pending(st)
    assert d.kind == "reveal" and d.private
    _, events = r.apply(st, d.seat, r.private_answer(st, d), dice or ScriptedDice())
    return [e.text for e in events]


def queue_after_selection(draws: list[str]) -> tuple[Any, dict[str, Any]]:
    """19: no Surprise Attack made, both sides' selections in (Axis: AX-9A,
    AX-4A, AX-3PzG face down as a1.1-a1.3, Guderian in hand; Soviet: SU-10A,
    SU-3A, SU-4A as s1.1-s1.3); the Controller's first draw is ``draws[0]``."""
    r, st = rules_and_state("controller")
    play(r, st, "end-combat")
    play(r, st, "chits AX-9A AX-4A AX-3PzG guderian")
    play(r, st, "chits SU-10A SU-3A SU-4A", ScriptedDice(draws=draws))
    return r, st


# ------------------------------------------------------------ seats
def test_19_2_the_options_seat_four_players_from_the_scenario_layout() -> None:
    seats = GAME.seats(GAME.validate_options(options("controller")))
    assert [s.name for s in seats] == ["axis_north", "axis_south", "soviet_north", "soviet_south"]
    assert [s.side for s in seats] == ["axis", "axis", "soviet", "soviet"]
    roles = {s.name: s.roles for s in seats}
    assert "controller" in roles["soviet_south"] and "controller" not in roles["soviet_north"]
    assert "side_commands" in roles["axis_south"] and "side_commands" in roles["soviet_north"]


def test_19_2_without_a_layout_the_rulebook_table_seats_four_with_the_soviet_controller() -> None:
    seats = GAME.seats(GAME.validate_options({"players": 4, "multiplayer": "controller"}))
    assert [s.name for s in seats] == ["ag_north", "ag_center", "ag_south", "soviet"]
    assert "controller" in seats[3].roles


def test_the_default_options_keep_the_two_seat_game_and_ffs_has_no_multiplayer_option() -> None:
    assert GAME.seats(GAME.validate_options({})) == (SeatSpec("axis", "axis"), SeatSpec("soviet", "soviet"))
    assert "players" not in FFS_GAME.options()
    r = GAME.rules(SCENARIO, GAME.validate_options({}))
    assert r.seat_names() == ["axis", "soviet"] and not r.multi
    assert set(r.initial_state()["hidden"]) == {"axis", "soviet"}


def test_20_a38_the_variant_seats_teams_of_two_or_three_only() -> None:
    with pytest.raises(ScenarioError, match=r"^multiplayer variant seats 4 to 6 players \(19.2, 20.2\), not 2$"):
        GAME.seats(GAME.validate_options({"players": 2, "multiplayer": "variant"}))
    five = GAME.seats(GAME.validate_options({"players": 5, "multiplayer": "variant"}))
    assert [s.side for s in five] == ["axis"] * 3 + ["soviet"] * 2 and not any("controller" in s.roles for s in five)
    with pytest.raises(ScenarioError, match="standard game has 2 seats"):
        GAME.seats(GAME.validate_options({"players": 4}))


def test_a_layout_the_scenario_does_not_have_is_refused() -> None:
    practice = load_toml(find("ava/practice"))
    with pytest.raises(ScenarioError, match="seats"):
        GAME.rules(practice, GAME.validate_options(options("controller")))


# ------------------------------------------------------------ who decides (A49)
def test_a49_the_side_seat_makes_the_surprise_attack_and_the_selections() -> None:
    r, st = rules_and_state("controller")
    assert (r.pending(st).seat, r.pending(st).kind) == ("axis_south", "combat")
    play(r, st, "end-combat")
    assert (r.pending(st).seat, r.pending(st).kind) == ("axis_south", "chits")
    play(r, st, "chits AX-9A AX-4A AX-3PzG guderian")
    assert (r.pending(st).seat, r.pending(st).kind) == ("soviet_north", "chits")


def test_19_4_a_face_down_chit_is_turned_up_by_the_seat_that_sealed_it() -> None:
    r, st = queue_after_selection(["sealed:a1.1"])
    d = r.pending(st)                # the first draw and its reveal are forced (19.4(1), (2))
    assert (d.seat, d.kind) == ("axis_south", "reveal")
    events = reveal(r, st)
    assert "Revealed: AX-9A (queue place 1), axis_north's command" in events


def test_a49_the_hq_seat_orders_the_activation_it_executes() -> None:
    r, st = queue_after_selection(["sealed:a1.1"])
    reveal(r, st)                                          # AX-9A
    d = r.pending(st)
    assert (d.seat, d.kind) == ("axis_south", "interrupt")  # A28: Guderian may answer any chit
    play(r, st, "interrupt no")
    d = r.pending(st)
    assert (d.seat, d.kind) == ("soviet_south", "queue") and set(d.options) == {"draw", "stop"}
    events = play(r, st, "stop")
    assert "AX-9A is executed (queue place 1)" in events
    d = r.pending(st)
    assert (d.seat, d.kind) == ("axis_north", "move")


def test_a_seat_answering_another_seats_decision_is_refused_in_one_line() -> None:
    r, st = queue_after_selection(["sealed:a1.1"])
    reveal(r, st)
    play(r, st, "interrupt no")
    with pytest.raises(IllegalOrder) as exc:
        r.apply(st, "axis_north", r.parse("draw", st, "axis_north"), ScriptedDice())
    assert str(exc.value) == "it is soviet_south's decision (queue), not axis_north's"


def test_a49_the_defending_units_seat_decides_its_losses_and_retreats() -> None:
    r, st = rules_and_state("controller")
    def soviet_in(rows: range) -> str:
        return next(u for u, x in sorted(st["units"].items()) if r.scn.units[u].side == "soviet" and x["hex"]
                    and int(x["hex"][2:]) in rows and not r.scn.units[u].formation)
    north, south = soviet_in(range(1, 14)), soviet_in(range(14, 31))
    assert r.defender_seat(st, st["units"][north]["hex"], "soviet") == "soviet_north"
    assert r.defender_seat(st, st["units"][south]["hex"], "soviet") == "soviet_south"


# ------------------------------------------------------------ the Controller's queue (19.4, 19.5)
def _two_face_down() -> tuple[Any, dict[str, Any]]:
    """AX-9A revealed and waiting; two Soviet chits held face down."""
    r, st = queue_after_selection(["sealed:a1.1"])
    reveal(r, st)
    play(r, st, "interrupt no")
    play(r, st, "draw", ScriptedDice(draws=["sealed:s1.1"]))
    assert set(r.pending(st).options) == {"reveal 2", "hold"}
    play(r, st, "hold")
    play(r, st, "draw", ScriptedDice(draws=["sealed:s1.2"]))
    play(r, st, "hold")
    return r, st


def test_19_4_a48_face_down_chits_are_revealed_in_queue_order_refused_in_one_line() -> None:
    r, st = _two_face_down()
    assert set(r.pending(st).options) == {"draw", "reveal 2", "stop"}
    with pytest.raises(IllegalOrder, match=r"^face-down chits are revealed in queue order: entry 2 comes first "
                                           r"\(A48\)$"):
        play(r, st, "reveal 3")


def test_19_4_6_with_nothing_under_way_the_next_face_down_chit_must_be_revealed() -> None:
    r, st = _two_face_down()
    play(r, st, "stop")                                    # AX-9A runs
    play(r, st, "end-move")
    play(r, st, "end-combat")                              # complete: nothing revealed is under way
    d = r.pending(st)
    assert (d.seat, d.kind) == ("soviet_north", "reveal")  # forced, so not asked of the Controller
    assert st["stack"][-1]["revealing"] == 1


def test_19_5_an_interrupt_on_a_reveal_cancels_it_and_the_face_down_chits_after_it() -> None:
    r, st = _two_face_down()
    play(r, st, "reveal 2")
    reveal(r, st)                                           # SU-10A (s1.1)
    d = r.pending(st)
    assert (d.seat, d.kind) == ("axis_south", "interrupt") and "interrupt guderian" in d.options
    events = play(r, st, "interrupt guderian")
    assert "guderian cancels SU-10A; 2 chit(s) go back in the cup (19.5)" in events
    assert "SU-10A" in st["cup"] and "sealed:s1.2" in st["cup"]
    q = st["stack"][-1]["q"]
    assert [e["chit"] for e in q["entries"]] == ["AX-9A", "guderian"]   # the interrupt takes its place


def test_19_4_the_controller_standing_order_answers_only_for_the_controller() -> None:
    r, st = _two_face_down()
    assert r.check_policy(st, "axis_north", "controller", "simple") is not None
    assert r.check_policy(st, "soviet_south", "controller", "simple") is None
    d = r.pending(st)
    assert r.standing_answer(st, d, {"controller": "simple"}) == {"verb": "queue", "choice": "stop"}


# ------------------------------------------------------------ the variant (20.2)
def test_20_2_each_seat_cups_its_own_hq_chits_in_seat_order() -> None:
    r, st = rules_and_state("variant")
    d = r.pending(st)
    assert (d.seat, d.kind) == ("axis_north", "cup")
    assert d.options == ("cup AX-3PzG AX-3PzG-2 AX-9A",)
    with pytest.raises(IllegalOrder, match=r"^the two AX-3PzG chits go to the same player \(20.2\): add AX-3PzG-2$"):
        play(r, st, "cup AX-3PzG AX-9A")
    with pytest.raises(IllegalOrder, match="outside any HQ cup"):
        play(r, st, "cup guderian")
    play(r, st, "cup AX-3PzG AX-3PzG-2 AX-9A")
    assert st["hqcups"]["axis_north"] == ["sealed:axis_north.1.1", "sealed:axis_north.1.2", "sealed:axis_north.1.3"]
    with pytest.raises(IllegalOrder, match="HQ cups hold its"):
        play(r, st, "cup AX-4A")                            # AX-2PzG left out of every cup


def test_20_2_a_blind_program_applies_only_the_count_of_a_cup() -> None:
    r, st = rules_and_state("variant")
    blind = {**st, "hidden": {**st["hidden"], "axis_north": None, "team:axis": None}}     # a Soviet program
    order = r.fill_secrets(st, "axis_north", r.parse("cup AX-3PzG AX-3PzG-2 AX-9A", st, "axis_north"), None)
    assert "secret" not in order and order["team_secret"] == {"chits": ["AX-3PzG", "AX-3PzG-2", "AX-9A"]}
    public = {k: v for k, v in order.items() if k != "team_secret"}
    assert public == {"verb": "cup", "count": 3} and r.format(public) == "cup (3 sealed)"
    r.apply(blind, "axis_north", public, ScriptedDice())
    assert blind["cupcount"]["axis_north"] == 3


def _variant_cups(draws: list[str] | None = None) -> tuple[Any, dict[str, Any]]:
    r, st = rules_and_state("variant")
    for _ in range(4):
        play(r, st, r.pending(st).options[0])
    return r, st


def test_20_2_the_master_cup_and_the_surprise_attack_after_the_turn_1_selection() -> None:
    r, st = _variant_cups()
    assert sorted(st["cup"]) == sorted(["master:axis"] * 7 + ["master:soviet"] * 7 + ["AX-okh", "SU-reserve", "supply"])
    assert st["hand"]["axis"] == ["guderian"]
    assert [st["cupcount"][s] for s in ("soviet_north", "soviet_south")] == [3, 3]   # dummies make them equal
    d = r.pending(st)
    assert (d.seat, d.kind) == ("axis_south", "combat") and "Surprise Attack" in d.prompt


def test_20_2_a_master_chit_has_every_seat_of_the_side_draw_then_turn_up_then_act_in_seat_order() -> None:
    r, st = _variant_cups()
    dice = ScriptedDice(draws=["master:axis", 0, 0])
    events = play(r, st, "end-combat", dice)
    assert "Master cup: Axis Master chit; axis_north draws a chit, axis_south draws a chit" in events
    assert (r.pending(st).seat, r.pending(st).kind) == ("axis_north", "reveal")
    reveal(r, st)
    d = r.pending(st)
    assert (d.seat, d.kind) == ("axis_south", "interrupt")           # 20.2: an HQ chit opens the window
    play(r, st, "interrupt no")
    assert (r.pending(st).seat, r.pending(st).kind) == ("axis_south", "reveal")
    reveal(r, st)
    play(r, st, "interrupt no")
    assert (r.pending(st).seat, r.pending(st).kind) == ("axis_north", "move")   # the first seat acts first


def test_20_2_a_dummy_opens_no_window_and_a_cancelled_hq_chit_goes_back_to_its_own_hq_cup() -> None:
    r, st = _variant_cups()                 # Turn 1: every Soviet HQ chit is soviet_south's, so north has dummies
    assert st["cupcount"]["soviet_north"] == 3
    play(r, st, "end-combat", ScriptedDice(draws=["master:soviet", 0, 0]))
    assert reveal(r, st)[-1].startswith("The chit is dummy:")
    assert (r.pending(st).seat, r.pending(st).kind) == ("soviet_south", "reveal")     # no window after it
    reveal(r, st)
    drawn = st["stack"][-1]["draws"][1]["chit"]
    assert drawn == "SU-10A"
    events = play(r, st, "interrupt guderian")
    assert "guderian cancels SU-10A, which goes back to soviet_south's HQ cup" in events
    assert "SU-10A" in st["hqcups"]["soviet_south"] and "guderian" not in st["hand"]["axis"]
    assert "soviet_north: a dummy chit, no effect (20.2)" in events
