"""A Victory Denied's secret chits on the core's hidden-information service
(issue 8): the selection is the side's hidden items under public handles
(7.1.2, 7.1.3), committed by the core, mixed under the handles by the
side's secret stream before the first draw (7.2.1), turned up by opening a
handle that every program checks; nothing told by size; no randomness or
commitment of AVD's own (VP chits, 3.4 / 16.2, need none)."""
from __future__ import annotations

import re
from typing import Any

import pytest
from avd_fixtures import ScriptRng, practice_rules

from pbem import cycle
from pbem.protocol.gamefile import GameFile
from avd_fixtures import ROOT, reveals, table, turn_of, write

GERMAN_CHITS = ("G-3PzG-1", "G-3PzG-2", "G-2PzG-1", "G-2PzG-2", "G-9A-1", "G-9A-2", "G-9A-3")


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


@pytest.mark.parametrize("where", ["face down", "played"])
def test_7_1_2_an_hq_bought_back_cannot_put_its_chit_in_the_cup_twice_in_a_turn(where: str) -> None:
    """Ruling (RULINGS.md, 7.1.2 / 11.1.1): a Soviet HQ eliminated and bought
    back in the same turn cannot buy its chit while that chit is in play
    (face down under one of his handles, or already played); the Soviet's
    own program refuses it, a blind one checks what it sees, the audit the
    rest.  Otherwise the same chit would turn up twice."""
    import copy

    from pbem.game import IllegalOrder
    from avd_fixtures import rp_rules
    from avd_fixtures import frame

    rules = rp_rules(5)
    st = rules.initial_state()
    st["turn"] = 2
    st["stack"] = [frame("endturn"), frame("reinf", stage="buy")]
    if where == "played":
        st["played"].append("S-24A")
    else:
        st["hidden"]["soviet"]["chits"]["s2.1"] = ["S-24A", 2]
        st["sealed"]["s2.1"] = "soviet"
        st["cup"].append("sealed:s2.1")
    rules._run(st, ScriptRng(), [])
    d = rules.pending(st)
    from pbem.games.avd import orders

    offered = [o for o in d.options if o.startswith(f"buy {orders.short(rules.scn, 'S-24A-HQ')} ")]
    assert d.kind == "buy" and offered and not [o for o in offered if o.endswith(" chit")]
    h = rules._placement_hexes(st, "S-24A-HQ")[0]
    order = rules.parse(f"buy S-24A-HQ {h} chit", st, "soviet")
    with pytest.raises(IllegalOrder, match=r"S-24A is already in play this turn.*\(7\.1\.2, 11\.1\.1\)"):
        rules.apply(copy.deepcopy(st), "soviet", order, ScriptRng())
    blind = copy.deepcopy(st)
    blind["hidden"]["soviet"] = None
    if where == "played":
        with pytest.raises(IllegalOrder, match="already in play"):
            rules.apply(blind, "soviet", order, ScriptRng())
    else:
        rules.apply(blind, "soviet", order, ScriptRng())       # cannot tell: the audit refuses it
    rules.apply(copy.deepcopy(st), "soviet", rules.parse(f"buy S-24A-HQ {h}", st, "soviet"), ScriptRng())
