"""Dice in the exchange cycle: chain renewal and the two reveal timings.

DESIGN.md, "Dice": each exchange reveals the sender's next chain value, and
a chain is renewed (a new anchor published in a signed exchange) before it
runs out.  Sealed timing: a roll the sender's order asks for is keyed by the
opponent's *next* reveal, so the sender signs without knowing it.
Immediate timing: the roll is made at once from the reveals already out.
"""
from __future__ import annotations

import copy
from typing import Any

import pytest

import enginehelp as eh
from pbem import cycle
from pbem.protocol.gamefile import GameFile
from pbem.protocol import chain as dchain
from pbem.protocol.stream import Stream, stream_key


def disclose_both(gf: GameFile, sc: dict[str, Any], ids: dict[str, Any]) -> GameFile:
    return eh.disclose_all(gf, sc, ids)


def test_the_dice_chain_renews_itself_before_it_runs_out(monkeypatch) -> None:
    """With six values per chain, a whole duel needs each player's chain
    renewed several times; the game still verifies, from each side, for a
    bystander, and in the final audit."""
    monkeypatch.setattr(cycle.match, "CHAIN_LENGTH", 6)
    sc = eh.duel_scenario()
    sc["duel"]["hp"] = 100          # all six rounds are played, whatever the dice
    gf, sc, ids = eh.start("sealed", sc)
    gf = eh.play_out(gf, sc, ids)
    plays = {s: [ex for ex in gf.exchanges if ex["kind"] == "play" and ex["side"] == s] for s in ("red", "blue")}
    for side, exs in plays.items():
        assert len(exs) > 6, f"{side} revealed only {len(exs)} values: the game is too short to need renewal"
        renewals = [ex for ex in exs if "anchor" in ex]
        assert len(renewals) >= 2, f"{side} never renewed its chain"
        assert all(ex["chain_n"] == 6 for ex in renewals)
        # Each renewal came while the old chain still had values left.
        first = gf.exchanges[0] if side == "red" else gf.exchanges[1]
        anchor = bytes.fromhex(first["anchor"])
        since = 0
        for ex in exs:
            reveal = bytes.fromhex(ex["reveal"])
            assert dchain.check_reveal(reveal, anchor), f"exchange {ex['n']}: reveal off {side}'s chain"
            anchor, since = reveal, since + 1
            assert since <= 6, f"{side} ran its chain out by exchange {ex['n']}"
            if "anchor" in ex:
                anchor, since = bytes.fromhex(ex["anchor"]), 0
    m = cycle.replay(gf, sc)
    assert m.over()
    for side in ("red", "blue"):
        assert cycle.replay(gf, sc, ids[side]).me == side
    audited = cycle.replay(disclose_both(gf, sc, ids), sc, audit=True)
    assert len(audited.exchanges) == len(gf.exchanges) + 2


def test_after_a_renewal_a_reveal_from_the_old_chain_is_refused(monkeypatch) -> None:
    """Once a new anchor is out, the next reveal must come from the new
    chain: one more value of the old chain is refused."""
    monkeypatch.setattr(cycle.match, "CHAIN_LENGTH", 6)
    gf, sc, ids = eh.start("sealed")
    while True:
        gf = eh.one_exchange(gf, sc, ids)
        if gf.last.get("anchor") and gf.last["kind"] == "play":
            break
    renewer = gf.last["side"]
    old_seed, old_n = cycle.replay(gf, sc, ids[renewer]).my_seeds[0]
    gf = eh.one_exchange(gf, sc, ids)            # the opponent answers
    good = eh.one_exchange(gf, sc, ids)          # the renewer's next, from the new chain
    assert good.last["side"] == renewer
    assert dchain.check_reveal(bytes.fromhex(good.last["reveal"]), bytes.fromhex(gf.exchanges[-2]["anchor"]))
    cycle.replay(good, sc)
    bad_ex = copy.deepcopy(good.last)
    used = sum(1 for ex in gf.exchanges if ex["kind"] == "play" and ex["side"] == renewer)
    bad_ex["reveal"] = dchain.value_at(old_seed, old_n - used - 1).hex()
    bad_ex = cycle.sign({k: v for k, v in bad_ex.items() if k != "sig"}, ids[renewer])
    with pytest.raises(cycle.Verification, match="dice reveal does not hash to .* previous reveal"):
        cycle.replay(GameFile(gf.exchanges + [bad_ex]), sc)


def through_attack(dice: str) -> tuple[GameFile, dict[str, Any], dict[str, Any], cycle.Turn]:
    """Play to red's first attack (exchange 5) and return red's finished Turn."""
    gf, sc, ids = eh.start(dice)
    for _ in range(2):                                        # both picks
        gf = eh.one_exchange(gf, sc, ids)
    m = cycle.replay(gf, sc, ids["red"])
    turn = cycle.Turn(m, ids["red"])
    assert turn.pending().kind == "attack"
    turn.push("attack")
    return GameFile(gf.exchanges + [turn.finish()]), sc, ids, turn


def test_sealed_the_attacker_signs_without_seeing_the_roll() -> None:
    gf, sc, ids, turn = through_attack("sealed")
    # What red's program knew when red signed: no roll, the order deferred.
    assert turn.done and turn.how == "deferred"
    assert turn.rng.records == []
    assert not any("rolls" in ev.text for ev in turn.sink.events)
    ex5 = gf.last
    assert ex5["orders"] == [{"side": "red", "by": "player", "order": {"verb": "attack"}, "deferred": True}]
    m5 = cycle.replay(gf, sc)
    assert m5.records[-1].rolls == []
    assert m5.next_sender() == "blue"
    assert m5.state["roll"] is None
    # Blue's exchange 6 resolves the roll, keyed by blue's new reveal.
    gf6 = eh.one_exchange(gf, sc, ids)
    m6 = cycle.replay(gf6, sc)
    rec6 = m6.records[-1]
    assert rec6.side == "blue" and len(rec6.rolls) == 1
    roll = rec6.rolls[0]
    assert roll["purpose"] == "round 1, red attack d6" and roll["pos"] == 0
    reveals = {"red": bytes.fromhex(ex5["reveal"]), "blue": bytes.fromhex(gf6.last["reveal"])}
    assert Stream(stream_key(m6.game_id, 6, reveals)).die(6) == roll["result"]
    # Keyed by anything red could have known, the face would be a guess.
    known = {"red": reveals["red"], "blue": bytes.fromhex(gf.exchanges[3]["reveal"])}
    assert stream_key(m6.game_id, 6, known) != stream_key(m6.game_id, 6, reveals)


def test_immediate_the_roll_is_in_the_senders_exchange() -> None:
    gf, sc, ids, turn = through_attack("immediate")
    assert turn.how == "handed"
    assert len(turn.rng.records) == 1
    ex5 = gf.last
    assert ex5["orders"] == [{"side": "red", "by": "player", "order": {"verb": "attack"}}]
    m5 = cycle.replay(gf, sc)
    rec5 = m5.records[-1]
    assert rec5.side == "red" and len(rec5.rolls) == 1
    roll = rec5.rolls[0]
    assert roll["purpose"] == "round 1, red attack d6"
    assert m5.state["roll"] == roll["result"] == turn.rng.records[0]["result"]
    # Keyed by red's reveal in this exchange and blue's latest (exchange 4).
    reveals = {"red": bytes.fromhex(ex5["reveal"]), "blue": bytes.fromhex(gf.exchanges[3]["reveal"])}
    assert Stream(stream_key(m5.game_id, 5, reveals)).die(6) == roll["result"]
    assert m5.next_sender() == "blue" and m5.pending().kind == "defend"


def test_sealed_an_order_after_the_senders_own_choice_waits_for_dice() -> None:
    """Blue picks (his own choice) and then attacks in one exchange: the
    stream he could foresee is closed to him, so the attack waits."""
    gf, sc, ids = eh.start("sealed")
    while True:
        m = cycle.replay(gf, sc)
        d = m.pending()
        if m.next_sender() == "blue" and d is not None and d.kind == "pick" and m.state["attacker"] == "blue":
            break
        gf = eh.one_exchange(gf, sc, ids)
    gf = eh.one_exchange(gf, sc, ids)
    assert [e["order"]["verb"] for e in gf.last["orders"]] == ["pick", "attack"]
    assert gf.last["orders"][-1].get("deferred") is True
    assert cycle.replay(gf, sc).records[-1].rolls == []
