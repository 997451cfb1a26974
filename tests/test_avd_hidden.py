"""A Victory Denied's secret chits on the core's hidden-information service
(issue 8): the selection is the side's hidden items under public handles
(7.1.2, 7.1.3), committed by the core, mixed under the handles by the
side's secret stream before the first draw (7.2.1), turned up by opening a
handle that every program checks; nothing told by size; no randomness or
commitment of AVD's own (VP chits, 3.4 / 16.2, need none)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_avd_sequence_support import practice_rules

from pbem import cycle
from pbem.protocol.gamefile import GameFile
from pbem.protocol.identity import generate
from pbem.scenario import load_toml

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = load_toml(ROOT / "scenarios" / "avd" / "practice.toml")
GERMAN_CHITS = ("G-3PzG-1", "G-3PzG-2", "G-2PzG-1", "G-2PzG-2", "G-9A-1", "G-9A-2", "G-9A-3")


def table(dice: str = "immediate", game_id: str = "avd-hidden") -> tuple[GameFile, dict[str, Any], dict[str, Any]]:
    """A new practice game, joined: the German's Turn 1 selection is due."""
    sc = SCENARIO
    ids = {"german": generate("Anna", "anna@example.org"), "soviet": generate("Pavel", "pavel@example.org")}
    gf = cycle.new_game(game_id=game_id, game="avd", scenario_name="avd/practice", scenario=sc, options={},
                        dice=dice, creator=ids["german"], creator_side="german",
                        invited={"soviet": ids["soviet"].public})
    gf = GameFile(gf.exchanges + [cycle.join_exchange(cycle.replay(gf, sc, ids["soviet"]), ids["soviet"], "soviet")])
    return gf, sc, ids


def turn_of(m: Any, me: Any, orders: tuple[str, ...] = ()) -> dict[str, Any]:
    """``m``'s sender's exchange: ``orders``, then the scripted player's."""
    t = cycle.Turn(m, me)
    for o in orders:
        t.push(o)
    while not t.done:
        t.push(m.rules.demo_order(t.es["game"], t.pending()))
    return t.finish()


def write(gf: GameFile, sc: dict[str, Any], ids: dict[str, Any], *orders: str) -> GameFile:
    seat = cycle.replay(gf, sc).next_sender()
    return GameFile(gf.exchanges + [turn_of(cycle.replay(gf, sc, ids[seat]), ids[seat], orders)])


def reveals(ex: dict[str, Any]) -> list[dict[str, Any]]:
    return [e["order"] for e in ex.get("orders", []) if e["order"].get("verb") == "reveal"]


def _public_text(ex: dict[str, Any]) -> str:
    return repr({k: v for k, v in ex.items() if k != "sealed"})


@pytest.mark.parametrize("dice", ["sealed", "immediate"])
@pytest.mark.parametrize("guderian", [False, True])
def test_7_1_3_the_german_selection_exchange_is_the_same_length_whichever_chits(dice: str, guderian: bool) -> None:
    gf, sc, ids = table(dice)
    picks = [("G-3PzG-1", "G-2PzG-1", "G-9A-1", "G-9A-2"), ("G-3PzG-2", "G-9A-1", "G-9A-2", "G-9A-3"),
             ("G-3PzG-1", "G-3PzG-2", "G-2PzG-2", "G-9A-3"), ("G-3PzG-2", "G-2PzG-2", "G-2PzG-1", "G-3PzG-1")]
    lengths, sealed_sizes = set(), set()
    for pick in picks:
        chosen = pick[:3] + ("G-Guderian",) if guderian else pick
        ex = turn_of(cycle.replay(gf, sc, ids["german"]), ids["german"], ("chits " + " ".join(chosen),))
        assert ex["orders"][0]["order"] == {"verb": "chits", "guderian": guderian, "count": 3 if guderian else 4}
        text = GameFile(gf.exchanges + [ex]).to_toml()
        lengths.add(len(text))
        sealed_sizes.add(len(ex["sealed"]))
        assert not [c for c in GERMAN_CHITS if c in _public_text(ex)]      # nothing public names a chit
        assert re.fullmatch(r"[0-9a-f]{64}", ex["hidden_root"])         # the core committed the selection
        mine = cycle.replay(GameFile(gf.exchanges + [ex]), sc, ids["german"]).state["hidden"]["german"]["chits"]
        assert [c for c, _ in mine.values()] == [c for c in chosen if c != "G-Guderian"]
    assert len(lengths) == 1 and len(sealed_sizes) == 1


def test_the_most_chits_a_side_holds_fits_the_width_of_every_commit() -> None:
    rules = practice_rules()
    width = rules.hidden_width
    assert width & (width - 1) == 0
    for n, t in rules.scn.turns.items():           # 7.1.2 quotas, 3.7 set-aside on Turn 1
        assert max(t.german_chits + (1 if n == 1 else 0), t.german_chits_moscow or 0, t.soviet_chits) <= width
    assert width == 4


def test_7_2_1_a_drawn_chit_is_turned_up_by_an_opening_every_program_reads_alike() -> None:
    gf, sc, ids = table("immediate")
    gf = write(gf, sc, ids, "chits G-3PzG-1 G-2PzG-1 G-9A-1 G-9A-2")
    gf = write(gf, sc, ids, "chits S-21A S-13A")
    shown: dict[str, str] = {}
    for _ in range(12):
        gf = write(gf, sc, ids)
        for order in reveals(gf.exchanges[-1]):
            (handle,) = order["open"]
            (op,) = order["openings"]
            assert op["handle"] == handle and set(op) >= {"handle", "value"}
            assert re.fullmatch(r"[0-9a-f]{64}", order["hidden_root"])
            shown[handle] = op["value"]["chit"]
        if len(shown) >= 3:
            break
    assert shown["g1.1"] == "G-3PzG-1"                       # 3.7: the set-aside chit, turned up first
    states = [cycle.replay(gf, sc, who) for who in (ids["german"], ids["soviet"], None)]
    assert len({m.state_hash() for m in states}) == 1
    m = states[2]
    assert m.state["shown"] == shown and set(shown.values()) <= set(m.state["played"]) | set(m.state["cup"])
    assert all(m.es["opened"][seat][f"{c} (turn 1)"] == h for h, c in shown.items()
               for seat in ["german" if h.startswith("g") else "soviet"])
    assert not [t for t in m.state["cup"] if t.startswith("sealed:") and t[7:] in shown]


def test_7_2_1_the_chits_are_mixed_under_their_handles_by_the_owners_secret_stream() -> None:
    """The same selection, in games of different players' keys: after the
    first draw the chits stand under different handles; nobody but the
    owner knows which."""
    deals = set()
    for k in range(5):
        gf, sc, ids = table("immediate", game_id=f"avd-deal-{k}")
        gf = write(gf, sc, ids, "chits G-3PzG-1 G-2PzG-1 G-9A-1 G-9A-2")
        gf = write(gf, sc, ids, "chits S-21A S-13A")
        while not cycle.replay(gf, sc).state["dealt"]:
            gf = write(gf, sc, ids)
        mine = cycle.replay(gf, sc, ids["german"]).state["hidden"]["german"]["chits"]
        assert mine["g1.1"][0] == "G-3PzG-1"               # the set-aside chit is not mixed (3.7)
        deals.add(tuple(mine[h][0] for h in ("g1.2", "g1.3", "g1.4")))
        assert cycle.replay(gf, sc, ids["soviet"]).state["hidden"]["german"] is None
    assert len(deals) > 1


def test_avd_makes_no_randomness_salt_or_commitment_of_its_own() -> None:
    """Every secret is the core's: no random module, no salts, no
    commitments of AVD's own; the VP chits' values come from the shared
    stream when turned up (RULINGS.md, 16.2 / 3.4)."""
    source = "\n".join(p.read_text() for p in (ROOT / "pbem" / "games" / "avd").glob("*.py"))
    for word in ("import random", "from random", "import secrets", "urandom", "check_commitment",
                 "commit(", "salt_source", "bytes.fromhex"):
        assert word not in source, word
