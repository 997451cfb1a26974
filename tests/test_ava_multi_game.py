"""Whole multiplayer games of A Victory Awaits through the exchange engine
(issue 10, Multiplayer): four seats on ava/practice-multi, two a side, in
both dice timings.  Each seat's program and a bystander's verify every
exchange; the audit, every secret disclosed, agrees.

* 19 (a Game Controller, soviet_south): from the Surprise Attack to the
  result;
* 20 (the variant without one): from the Turn 1 HQ cups to the result
  (immediate dice), its whole splits checked at the audit; two full turns
  under sealed dice.

Each exchange's sender is checked against the decision it answered: the
seat the rules named (a seat answering another's decision is refused,
test_ava_multi_rules)."""
from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import enginehelp
import pytest
from avamulti import BYSTANDER, SCENARIO, SEATS, play, table

from pbem import cycle, session
from pbem.protocol import gamefile
from pbem.protocol.gamefile import GameFile

# The games are played by the scripted players with seeded seeds: the same
# games on every run, so that what the logs must show (a Controller's
# standing order, a dummy chit drawn) is not down to the draws.
pytestmark = pytest.mark.usefixtures("seeded_urandom")


def _senders_answer_their_own_decisions(matches: dict[str, Any], ex: dict[str, Any]) -> None:
    """The sender wrote only its own seat's orders (standing orders, forced
    answers and another seat's plan resolved here aside, which name theirs;
    every program has checked each against the seat the rules named)."""
    for line in ex.get("orders") or []:
        if line["by"] not in ("policy", "forced", "plan"):
            assert line["side"] == ex["side"], (line, ex["side"])


def _whole_game(mode: str, dice: str) -> tuple[GameFile, dict[str, Any], dict[str, Any]]:
    gf, ids, matches = play(mode, dice, check=_senders_answer_their_own_decisions)
    first = matches[SEATS[0]]
    assert all(m.over() for m in matches.values())
    assert len({m.state_hash() for m in matches.values()}) == 1
    assert "Game ends after the Turn" in (first.rules.result(first.state) or "")
    assert first.state["turn"] == first.rules.last_turn
    assert cycle.replay(gf, SCENARIO).state_hash() == first.state_hash()
    senders = Counter(ex["side"] for ex in gf.exchanges[len(SEATS):])
    assert set(senders) == set(SEATS), senders           # every seat played its part
    if dice == "sealed":
        assert any(r.deferred for r in matches[BYSTANDER].records)
    audit = cycle.replay(enginehelp.disclose_all(gf, SCENARIO, ids), SCENARIO, None, audit=True)
    assert audit.state_hash() == first.state_hash()
    return gf, ids, matches


@pytest.mark.parametrize("dice", ["sealed", "immediate"])
def test_19_four_seats_with_a_game_controller_play_from_the_surprise_attack_to_the_result(dice: str) -> None:
    gf, _, matches = _whole_game("controller", dice)
    log = session.turn_log(matches[BYSTANDER], matches[BYSTANDER].records)
    assert "soviet_south: stop (standing order)" in log            # the Controller's standing order
    assert "The Controller draws" in log and "Revealed: " in log
    assert "axis_north's command" in log and "soviet_north's command" in log


def test_20_the_variant_plays_every_turn_to_the_result() -> None:
    gf, _, matches = _whole_game("variant", "immediate")
    log = session.turn_log(matches[BYSTANDER], matches[BYSTANDER].records)
    assert "axis_north puts 3 chit(s) in its HQ cup" in log
    assert "Master cup: Axis Master chit; axis_north draws a chit, axis_south draws a chit" in log
    assert "a dummy chit, no effect (20.2)" in log


def test_20_the_variant_plays_two_full_turns_under_sealed_dice() -> None:
    gf, _, matches = play("variant", "sealed", until_turn=3, check=_senders_answer_their_own_decisions)
    first = matches[SEATS[0]]
    assert first.state["turn"] == 3 and first.state["phase"] == "selection"
    assert len({m.state_hash() for m in matches.values()}) == 1
    assert any(r.deferred for r in matches[BYSTANDER].records)
    log = session.turn_log(matches[BYSTANDER], matches[BYSTANDER].records)
    assert "Turn 2: 19 chits in the Master cup" in log and "End Phase: Turn 3 begins" in log


def test_mail_goes_to_every_other_seat() -> None:
    gf, ids = table("controller", "immediate")
    m = cycle.replay(gf, SCENARIO, ids["soviet_north"])
    assert session.recipients(m) == [f"{ids[s].public.name} <{s}@example.org>" for s in SEATS
                                      if s != "soviet_north"]


def test_pbem_demo_ava_with_four_seats_plays_the_multiplayer_set_up(tmp_path: Path) -> None:
    keep = tmp_path / "demo"
    r = subprocess.run([sys.executable, "-m", "pbem.cli", "demo", "ava", "--seats", "4", "--exchanges", "12",
                        "--keep", str(keep)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    for seat in SEATS:
        assert f"plays {seat}:" in r.stdout and f"=== {seat}'s sitrep ===" in r.stdout
    assert "soviet_south joins the game" in r.stdout and "valid" in r.stdout.splitlines()[-3]
    last = sorted(keep.glob("demo-*.toml"))[-1]
    m = cycle.replay(gamefile.load(last), SCENARIO)
    assert m.seat_names == list(SEATS)


def test_pbem_demo_refuses_seats_a_game_does_not_seat() -> None:
    r = subprocess.run([sys.executable, "-m", "pbem.cli", "demo", "avd", "--seats", "4"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and "avd's demo has 2 seats, not 4" in r.stderr
