"""The core's hidden-information service (issue 8) on the Vault test game:
secret deals and draws from each seat's secret stream, one root per
exchange, openings checked in every program, the audit rebuilding every
commit, and nothing told by size or pattern."""
from __future__ import annotations

import re
from typing import Any

import pytest

import enginehelp as eh
from pbem import cycle
from pbem.cycle import audit
from pbem.errors import UsageError
from pbem.protocol.gamefile import GameFile
from enginehelp import VAULT, table, until_acting, write


def hidden_of(gf: GameFile, sc: dict[str, Any], ids: dict[str, Any], seat: str) -> dict[str, Any]:
    return cycle.replay(gf, sc, ids[seat]).state["hidden"][seat]


@pytest.mark.parametrize("dice", ["sealed", "immediate"])
def test_a_whole_vault_game_replays_alike_everywhere_and_passes_the_audit(dice: str) -> None:
    gf, sc, ids = table(dice, dict(VAULT, vault=dict(VAULT["vault"], rounds=5)))
    script = {"red": ["draw", "boost r1", "show r1", "show r5"], "blue": ["boost b2", "draw", "show b2", "pass"]}
    for _ in range(40):
        m = cycle.replay(gf, sc)
        if m.over():
            break
        seat = m.next_sender()
        t = cycle.Turn(cycle.replay(gf, sc, ids[seat]), ids[seat])
        while not t.done:
            kind = t.pending().kind
            t.push("setup" if kind == "setup" else (script[seat].pop(0) if script[seat] else "pass"))
        gf = GameFile(gf.exchanges + [t.finish()])
        hashes = {cycle.replay(gf, sc, ids[s]).state_hash() for s in ids} | {cycle.replay(gf, sc).state_hash()}
        assert len(hashes) == 1
    m = cycle.replay(gf, sc)
    assert m.over()
    assert set(m.state["shown"]["red"]) == {"r1", "r5"} and set(m.state["shown"]["blue"]) == {"b2"}
    assert m.state["shown"]["red"]["r1"]["strength"] == 2
    gf = eh.disclose_all(gf, sc, ids)
    full = cycle.replay(gf, sc, None, audit=True)
    assert full.state_hash() == m.state_hash()
    assert full.state["hidden"]["red"]["tiles"]["r1"] == m.state["shown"]["red"]["r1"]


def test_every_play_exchange_commits_one_root_of_the_same_width() -> None:
    gf, sc, ids = table("immediate")
    gf = until_acting(gf, sc, ids, "red")
    plays = [ex for ex in gf.exchanges if ex["kind"] == "play"]
    assert plays and all(re.fullmatch(r"[0-9a-f]{64}", ex["hidden_root"]) for ex in plays)
    assert len({ex["hidden_root"] for ex in plays}) == len(plays)        # fresh salts every time


def test_the_deal_is_a_secret_permutation_the_public_state_does_not_show() -> None:
    deals, publics = set(), set()
    for _ in range(6):
        gf, sc, ids = table("immediate")
        gf = until_acting(gf, sc, ids, "red")
        tiles = hidden_of(gf, sc, ids, "red")["tiles"]
        deals.add(tuple(tiles[f"r{i}"]["tile"] for i in range(1, 5)))
        publics.add(re.sub(r"[0-9a-f]{64}", "", repr({k: v for k, v in cycle.replay(gf, sc).public_state().items()
                                                        if k != "hidden_roots"})))
    assert len(deals) > 1                 # the handles carry nothing: deals differ
    assert len(publics) == 1              # and the public state is the same whatever the deal


def test_the_same_exchange_always_gives_the_same_secret_draw() -> None:
    """Run `play`, look, answer n, run it again: the same draw."""
    gf, sc, ids = table("immediate")
    gf = until_acting(gf, sc, ids, "red")
    drawn = set()
    for _ in range(3):
        t = cycle.Turn(cycle.replay(gf, sc, ids["red"]), ids["red"])
        t.push("draw")
        drawn.add(t.es["game"]["hidden"]["red"]["tiles"]["r5"]["tile"])
    assert len(drawn) == 1


def test_a_secret_change_reads_the_same_length_whichever_tile_was_chosen() -> None:
    gf, sc, ids = table("immediate")
    gf = until_acting(gf, sc, ids, "red")
    lengths = set()
    for handle in ("r1", "r2", "r3", "r4"):
        t = cycle.Turn(cycle.replay(gf, sc, ids["red"]), ids["red"])
        t.push(f"boost {handle}")
        ex = t.finish()
        lengths.add(len(GameFile(gf.exchanges + [ex]).to_toml().split("[[exchange]]")[-1].split("[state]")[0]))
        assert handle not in repr({k: v for k, v in ex.items() if k != "sealed"})
    assert len(lengths) == 1


def test_sealed_parts_are_padded_to_the_same_size() -> None:
    gf, sc, ids = table("immediate")
    gf = until_acting(gf, sc, ids, "red")
    sizes = set()
    for orders in (["pass"], ["boost r1"], ["draw"]):
        t = cycle.Turn(cycle.replay(gf, sc, ids["red"]), ids["red"])
        for o in orders:
            t.push(o)
        sizes.add(len(t.finish()["sealed"]))
    assert len(sizes) == 1


def test_seats_disclose_in_turn_and_the_audit_needs_every_seat() -> None:
    gf, sc, ids = table("immediate", dict(VAULT, vault=dict(VAULT["vault"], rounds=1)))
    for _ in range(10):
        if cycle.replay(gf, sc).over():
            break
        gf = write(gf, sc, ids)
    m = cycle.replay(gf, sc)
    first = audit.next_discloser(m)
    second = "red" if first == "blue" else "blue"
    with pytest.raises(UsageError, match=f"waiting for {first} to disclose first"):
        cycle.disclose_exchange(cycle.replay(gf, sc, ids[second]), ids[second])
    gf = GameFile(gf.exchanges + [cycle.disclose_exchange(cycle.replay(gf, sc, ids[first]), ids[first])])
    with pytest.raises(UsageError, match=f"incomplete: {second} has not disclosed"):
        cycle.replay(gf, sc, None, audit=True)
    gf = GameFile(gf.exchanges + [cycle.disclose_exchange(cycle.replay(gf, sc, ids[second]), ids[second])])
    assert cycle.replay(gf, sc, None, audit=True).over()


def test_a_seat_that_will_not_disclose_can_be_recorded_as_forfeiting() -> None:
    gf, sc, ids = table("immediate", dict(VAULT, vault=dict(VAULT["vault"], rounds=1)))
    for _ in range(10):
        if cycle.replay(gf, sc).over():
            break
        gf = write(gf, sc, ids)
    first = audit.next_discloser(cycle.replay(gf, sc))
    second = "red" if first == "blue" else "blue"
    gf = GameFile(gf.exchanges + [cycle.disclose_exchange(cycle.replay(gf, sc, ids[first]), ids[first])])
    gf = GameFile(gf.exchanges + [cycle.write.forfeit_exchange(cycle.replay(gf, sc, ids[first]), ids[first])])
    m = cycle.replay(gf, sc, ids[second])
    assert m.forfeits == {second: len(gf.exchanges)} and audit.next_discloser(m) is None
