"""Every way a game file can be wrong is detected, and named.

DESIGN.md, "The game file": replay is verification.  An edit anywhere that
matters, a signature by the wrong key, an exchange of another game, an old
file sent again, two different exchanges with one number (equivocation), a
dice reveal off its chain, and a state that does not replay are each refused
with a message saying which exchange and why.

The game is the duel protocol test game (tests/duelgame.py), played through
the library by tests/enginehelp.py.  Sealed dice: exchange 5 is red's attack
(waiting for dice), 6 blue's defence (with the roll), 7 red's reveal.
"""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

import enginehelp as eh
from pbem import cycle, session
from pbem.errors import InvalidFile, PbemError, UsageError
from pbem.cycle import Verification
from pbem.protocol.gamefile import GameFile, exchange_hash, parse
from pbem.protocol.identity import generate
from pbem.protocol import chain as dchain


def pick(value: int):
    """A chooser that picks ``value`` and otherwise takes the first option."""
    def choose(d) -> str:
        return f"pick {value}" if d.kind == "pick" else d.options[0]
    return choose


@pytest.fixture(scope="module")
def played() -> tuple[GameFile, dict[str, Any], dict[str, Any]]:
    """A sealed duel game through exchange 8 (round 1 resolved)."""
    gf, sc, ids = eh.start("sealed")
    for _ in range(6):
        gf = eh.one_exchange(gf, sc, ids)
    assert len(gf.exchanges) == 8
    return gf, sc, ids


def clone(gf: GameFile, upto: int | None = None) -> GameFile:
    return GameFile(copy.deepcopy(gf.exchanges[:upto]))


def resign(ex: dict[str, Any], ident: Any) -> dict[str, Any]:
    body = {k: v for k, v in ex.items() if k != "sig"}
    return cycle.sign(body, ident)


def refused(gf: GameFile, sc: dict[str, Any], me: Any = None) -> str:
    with pytest.raises(PbemError) as info:
        cycle.replay(gf, sc, me)
    return str(info.value)


def test_the_untouched_game_replays(played) -> None:
    gf, sc, ids = played
    m = cycle.replay(gf, sc)
    assert len(m.exchanges) == 8 and m.next_sender() == "red"
    # Each side's own program can also open its sealed parts.
    assert cycle.replay(gf, sc, ids["red"]).me == "red"


# ------------------------------------------------------------- edited bytes


@pytest.mark.parametrize("n, edit, who", [
    (6, lambda ex: ex["orders"][0]["order"].update(how="dodge"), "blue"),      # an order
    (5, lambda ex: ex.update(reveal=ex["reveal"][:-1] + ("0" if ex["reveal"][-1] != "0" else "1")), "red"),
    (4, lambda ex: ex.update(state=("0" if ex["state"][0] != "0" else "1") + ex["state"][1:]), "blue"),
    (3, lambda ex: ex.update(sig=("0" if ex["sig"][0] != "0" else "1") + ex["sig"][1:]), "red"),
    (7, lambda ex: ex["orders"][0]["order"].update(pick=1), "red"),            # a reveal of a secret
    (1, lambda ex: ex["game"].update(dice="immediate"), "red"),                # the header
    (2, lambda ex: ex["player"].update(email="mallory@example.org"), "blue"),  # a player's identity
])
def test_an_edited_exchange_is_named_with_its_number_and_sender(played, n, edit, who) -> None:
    gf, sc, _ = played
    bad = clone(gf)
    edit(bad.exchanges[n - 1])
    msg = refused(bad, sc)
    assert msg.startswith(f"exchange {n} by {who}: bad signature: altered after signing"), msg


def test_a_changed_scenario_pin_in_the_header_is_named(played) -> None:
    gf, sc, _ = played
    bad = clone(gf)
    bad.exchanges[0]["game"]["scenario_sha256"] = "0" * 64
    assert "differs from the one this game was created with (SHA-256 mismatch)" in refused(bad, sc)


def test_the_reading_copy_of_the_header_must_match_the_signed_one(played) -> None:
    gf, _, _ = played
    text = gf.to_toml()
    head, rest = text.split("\n[[exchange]]\n", 1)
    assert 'dice = "sealed"' in head
    edited = head.replace('dice = "sealed"', 'dice = "immediate"') + "\n[[exchange]]\n" + rest
    with pytest.raises(InvalidFile, match=r"the \[game\] table differs from the signed header of exchange 1"):
        parse(edited)


def test_history_rewritten_and_resigned_by_its_own_author_breaks_the_chain(played) -> None:
    """Red re-signs a different exchange 5; blue's exchange 6 names the old one."""
    gf, sc, ids = played
    bad = clone(gf)
    ex5 = bad.exchanges[4]
    ex5["message"] = "I never attacked"
    bad.exchanges[4] = resign(ex5, ids["red"])
    msg = refused(bad, sc)
    assert msg.startswith("exchange 6 by blue: does not follow exchange 5 (chain link broken"), msg


def test_reordered_exchanges_are_refused(played) -> None:
    gf, _, _ = played
    bad = clone(gf)
    bad.exchanges[3], bad.exchanges[4] = bad.exchanges[4], bad.exchanges[3]
    with pytest.raises(InvalidFile, match="exchange 4 is numbered 5: exchanges out of order"):
        parse(bad.to_toml())


# --------------------------------------------------------------- wrong keys


def test_an_exchange_signed_by_the_opponents_key_is_named(played) -> None:
    gf, sc, ids = played
    bad = clone(gf, 3)
    bad.exchanges[2] = resign(bad.exchanges[2], ids["blue"])
    assert refused(bad, sc) == "exchange 3 by red: signed by blue's key, but it claims to come from red"


def test_an_exchange_signed_by_a_stranger_is_refused(played) -> None:
    gf, sc, _ = played
    bad = clone(gf, 4)
    bad.exchanges[3] = resign(bad.exchanges[3], generate("Mallory", "mallory@example.org"))
    assert refused(bad, sc) == "exchange 4 by blue: bad signature: altered after signing, or not signed by blue's key"


def test_an_exchange_sent_out_of_turn_is_named(played) -> None:
    """Red signs a well-formed exchange 4 (its next chain value, no orders)
    while it was blue's turn to pick."""
    gf, sc, ids = played
    m = cycle.replay(clone(gf, 3), sc, ids["red"])
    seed, n = m.my_seeds[-1]
    ex = {"game_id": gf.game_id, "n": 4, "kind": "play", "side": "red", "prev": exchange_hash(gf.exchanges[2]),
          "reveal": dchain.value_at(seed, n - 2).hex(), "orders": [], "state": m.state_hash()}
    bad = GameFile(copy.deepcopy(gf.exchanges[:3]) + [cycle.sign(ex, ids["red"])])
    assert refused(bad, sc) == "exchange 4 by red: it was blue's turn to send, not red's"


# ------------------------------------------------------------- another game


def test_a_join_by_a_key_that_was_not_invited_is_refused(played) -> None:
    gf, sc, ids = played
    stranger = generate("Mallory", "mallory@example.org")
    m = cycle.replay(clone(gf, 1), sc, stranger)
    with pytest.raises(UsageError, match=r"this game invited another player as blue \(fingerprint "):
        cycle.join_exchange(m, stranger, "blue")
    # A join forged by hand (the library refuses to make one) fails replay.
    forged = copy.deepcopy(gf.exchanges[1])
    forged["player"] = stranger.public.to_dict()
    bad = GameFile(copy.deepcopy(gf.exchanges[:1]) + [resign(forged, stranger)])
    msg = refused(bad, sc)
    assert msg.startswith("exchange 2 by blue: joined with a key other than the invited player's"), msg
    assert stranger.public.fingerprint in msg


def other_game(dice: str = "sealed", game_id: str = "g-test-duel") -> tuple[GameFile, dict[str, Any], dict[str, Any]]:
    gf, sc, ids = eh.start(dice, game_id=game_id)
    return eh.one_exchange(gf, sc, ids), sc, ids


def test_an_exchange_of_another_game_spliced_in_breaks_the_chain(played) -> None:
    gf, sc, _ = played
    other, _, _ = other_game()
    bad = GameFile(copy.deepcopy(gf.exchanges[:2]) + [copy.deepcopy(other.exchanges[2])])
    msg = refused(bad, sc)
    assert msg.startswith("exchange 3 by red: does not follow exchange 2 (chain link broken"), msg


def test_an_exchange_of_another_game_is_named_as_such(played) -> None:
    gf, sc, _ = played
    other, _, _ = other_game(game_id="g-other-duel")
    assert other.exchanges[2]["game_id"] != gf.game_id
    bad = GameFile(copy.deepcopy(gf.exchanges[:2]) + [copy.deepcopy(other.exchanges[2])])
    assert "another game" in refused(bad, sc)


def test_a_file_of_another_game_with_the_same_id_is_refused_as_a_fork(played, tmp_path, monkeypatch) -> None:
    """The player holds one game; a file of a different game under the same
    id arrives (a copy made elsewhere, or a forged one)."""
    gf, _, _ = played
    monkeypatch.setenv("PBEM_HOME", str(tmp_path))
    session.keep_version(gf)
    other, _, _ = other_game()
    assert other.game_id == gf.game_id
    with pytest.raises(InvalidFile) as info:
        session.compare_with_local(other)
    msg = str(info.value)
    assert msg.startswith("fork: exchange 1 of this file (")
    assert exchange_hash(other.exchanges[0])[:16] in msg and exchange_hash(gf.exchanges[0])[:16] in msg


# ------------------------------------------------- old files and equivocation


def test_an_old_file_sent_again_is_named_with_both_exchange_counts(played, tmp_path, monkeypatch) -> None:
    gf, _, _ = played
    monkeypatch.setenv("PBEM_HOME", str(tmp_path))
    session.keep_version(gf)
    with pytest.raises(InvalidFile, match=r"^old file: it holds exchange 5 while you hold 8; nothing written$"):
        session.compare_with_local(clone(gf, 5))
    # The same file again, or a later one, is fine.
    session.compare_with_local(gf)


def test_two_different_exchanges_with_one_number_are_a_fork_with_both_hashes(played, tmp_path, monkeypatch) -> None:
    """Red sends two versions of exchange 9 (picking 3, then picking 1)."""
    gf, sc, ids = played
    first = eh.one_exchange(gf, sc, ids, choose=pick(3))
    second = eh.one_exchange(gf, sc, ids, choose=pick(1))
    h1, h2 = exchange_hash(first.last), exchange_hash(second.last)
    assert h1 != h2
    # Each version on its own is a valid game: only holding both shows the fork.
    cycle.replay(first, sc)
    cycle.replay(second, sc)
    monkeypatch.setenv("PBEM_HOME", str(tmp_path))
    session.keep_version(first)
    with pytest.raises(InvalidFile) as info:
        session.compare_with_local(second)
    assert str(info.value) == (f"fork: exchange 9 of this file ({h2[:16]}) differs from the one you hold "
                               f"({h1[:16]}); nothing written")
    with pytest.raises(InvalidFile, match="holds a different exchange 9: refusing to replace it"):
        session.keep_version(second)


# -------------------------------------------------------------------- dice


def red_chain(gf: GameFile, sc: dict[str, Any], ids: dict[str, Any]) -> tuple[bytes, int]:
    return cycle.replay(gf, sc, ids["red"]).my_seeds[-1]


@pytest.mark.parametrize("how", ["random", "skipped"])
def test_a_dice_reveal_off_the_chain_is_refused(played, how) -> None:
    """Red's exchange 5 carries a reveal that is not the next value down its
    chain: a random one, or one that skips a value (to pick other dice)."""
    gf, sc, ids = played
    seed, n = red_chain(gf, sc, ids)
    ex5 = copy.deepcopy(gf.exchanges[4])
    # Red revealed c[n-1] in exchange 3; exchange 5 should reveal c[n-2].
    assert ex5["reveal"] == dchain.value_at(seed, n - 2).hex()
    ex5["reveal"] = bytes(range(32)).hex() if how == "random" else dchain.value_at(seed, n - 3).hex()
    bad = GameFile(copy.deepcopy(gf.exchanges[:4]) + [resign(ex5, ids["red"])])
    assert refused(bad, sc) == ("exchange 5 by red: dice reveal does not hash to red's previous reveal "
                                "(forged or skipped dice)")


# -------------------------------------------------- a state that won't replay


def test_an_order_changed_and_resigned_does_not_replay(played) -> None:
    """Blue changes his defence after the roll and re-signs: the signature is
    good, the state hash is not."""
    gf, sc, ids = played
    ex6 = copy.deepcopy(gf.exchanges[5])
    assert ex6["orders"][0]["order"] == {"verb": "defend", "how": "block"}
    ex6["orders"][0]["order"]["how"] = "dodge"
    bad = GameFile(copy.deepcopy(gf.exchanges[:5]) + [resign(ex6, ids["blue"])])
    assert refused(bad, sc) == "exchange 6 by blue: state hash differs from the replay (the exchange does not replay)"


def test_an_illegal_order_resigned_does_not_replay(played) -> None:
    gf, sc, ids = played
    ex6 = copy.deepcopy(gf.exchanges[5])
    ex6["orders"][0]["order"] = {"verb": "pick", "commitment": "00" * 32}
    bad = GameFile(copy.deepcopy(gf.exchanges[:5]) + [resign(ex6, ids["blue"])])
    assert refused(bad, sc) == "exchange 6 by blue: an order does not replay: expected defend, got pick"


def test_a_revealed_secret_that_breaks_its_commitment_does_not_replay(played) -> None:
    """Red's program reveals red's pick in exchange 7; a different pick,
    even signed by red, does not match what red committed in exchange 3."""
    gf, sc, ids = played
    ex7 = copy.deepcopy(gf.exchanges[6])
    real = ex7["orders"][0]["order"]["pick"]
    ex7["orders"][0]["order"]["pick"] = 1 if real != 1 else 2
    bad = GameFile(copy.deepcopy(gf.exchanges[:6]) + [resign(ex7, ids["red"])])
    assert refused(bad, sc) == ("exchange 7 by red: an order does not replay: "
                                "red's revealed pick does not match its commitment")


def test_a_false_state_hash_resigned_does_not_replay(played) -> None:
    gf, sc, ids = played
    ex4 = copy.deepcopy(gf.exchanges[3])
    ex4["state"] = exchange_hash({"any": "thing"})
    bad = GameFile(copy.deepcopy(gf.exchanges[:3]) + [resign(ex4, ids["blue"])])
    assert refused(bad, sc) == "exchange 4 by blue: state hash differs from the replay (the exchange does not replay)"


def test_hiding_that_an_order_waited_for_dice_does_not_replay(played) -> None:
    """Red's attack in exchange 5 needs dice red may not see (sealed timing);
    an exchange claiming it was resolved at once is refused."""
    gf, sc, ids = played
    ex5 = copy.deepcopy(gf.exchanges[4])
    assert ex5["orders"][0].pop("deferred") is True
    bad = GameFile(copy.deepcopy(gf.exchanges[:4]) + [resign(ex5, ids["red"])])
    assert refused(bad, sc) == "exchange 5 by red: order list differs from the replay at entry 1"


def test_an_answer_falsely_claimed_as_a_standing_order_does_not_replay(played) -> None:
    gf, sc, ids = played
    ex6 = copy.deepcopy(gf.exchanges[5])
    ex6["orders"][0]["by"] = "policy"
    bad = GameFile(copy.deepcopy(gf.exchanges[:5]) + [resign(ex6, ids["blue"])])
    # Blue set no standing order: the replay still waits for his own answer.
    assert refused(bad, sc) == "exchange 6 by blue: ends while blue still has to decide (defend)"


def test_a_signature_spelled_in_upper_case_is_refused(played) -> None:
    """The signature is outside what it signs but inside the exchange's hash:
    a second spelling of the last one would fork the chain unnoticed."""
    gf, sc, _ = played
    bad = clone(gf)
    bad.exchanges[-1]["sig"] = bad.exchanges[-1]["sig"].upper()
    assert refused(bad, sc) == f"exchange {len(bad.exchanges)} by {bad.exchanges[-1]['side']}: signature is not 128 lower-case hex digits"
