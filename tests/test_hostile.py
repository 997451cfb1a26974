"""Every trust claim of the hidden-information service, attacked by a
modified program written here and shown caught: live where the rules make
it checkable, at the audit otherwise (issue 8, item 8).  The game is the
Vault test game (tests/vaultgame.py); M41's own attacks are in
tests/test_m41_hostile.py."""
from __future__ import annotations

from typing import Any

import pytest

import enginehelp as eh
import vaultgame
from pbem import cycle
from pbem.cycle import audit
from pbem.cycle.write import sign
from pbem.protocol.gamefile import GameFile, exchange_hash
from enginehelp import VAULT, table, until_acting, write


class Modified:
    """A modified program: red's rules state ``patch(items, seat)`` as the
    hidden items, and none of its own checks run (the owner's live checks,
    the rebuild of its own commits)."""

    def __init__(self, patch: Any) -> None:
        self.patch = patch

    def __enter__(self) -> "Modified":
        from pbem.cycle import hidden

        self.saved = (vaultgame.VaultRules.hidden_items, vaultgame.VaultRules.check_opening,
                      vaultgame.VaultRules.identity_of, hidden._audit)
        original, patch = self.saved[0], self.patch
        vaultgame.VaultRules.hidden_items = lambda self, st, s: patch(original(self, st, s), s)  # type: ignore
        vaultgame.VaultRules.check_opening = lambda *a: None  # type: ignore
        vaultgame.VaultRules.identity_of = lambda *a: None  # type: ignore
        hidden._audit = lambda *a: None  # type: ignore
        return self

    def __exit__(self, *exc: Any) -> None:
        from pbem.cycle import hidden

        (vaultgame.VaultRules.hidden_items, vaultgame.VaultRules.check_opening, vaultgame.VaultRules.identity_of,
         hidden._audit) = self.saved  # type: ignore


def _finish(gf: GameFile, sc: dict[str, Any], ids: dict[str, Any], seat: str, *orders: str,
            patch: Any = None) -> GameFile:
    """``seat``'s next exchange; with ``patch``, written by a modified program
    after an honest replay of the history."""
    m = cycle.replay(gf, sc, ids[seat])
    if patch is None:
        return _write_turn(gf, m, ids[seat], orders)
    with Modified(patch):
        return _write_turn(gf, m, ids[seat], orders)


def _write_turn(gf: GameFile, m: Any, me: Any, orders: tuple[str, ...]) -> GameFile:
    t = cycle.Turn(m, me)
    for o in orders:
        t.push(o)
    while not t.done:
        t.push("pass")
    return GameFile(gf.exchanges + [t.finish()])


def _refused_live(gf: GameFile, sc: dict[str, Any], ids: dict[str, Any], match: str) -> None:
    """The honest opponent's program and a bystander's refuse the file."""
    for who in (ids["blue"], None):
        with pytest.raises(cycle.Verification, match=match):
            cycle.replay(gf, sc, who)


@pytest.fixture()
def red_to_act() -> tuple[GameFile, dict[str, Any], dict[str, Any]]:
    gf, sc, ids = table("immediate")
    return until_acting(gf, sc, ids, "red"), sc, ids


def test_the_same_tile_shown_under_two_handles_is_caught_live(red_to_act) -> None:
    gf, sc, ids = red_to_act
    real = cycle.replay(gf, sc, ids["red"]).state["hidden"]["red"]["tiles"]
    gf = _finish(gf, sc, ids, "red", "show r1")
    gf = write(gf, sc, ids)                                           # blue passes
    # Red's program now claims r2 holds the tile already shown as r1.
    forged = _finish(gf, sc, ids, "red", "show r2",
                     patch=lambda items, seat: dict(items, r2=real["r1"]) if seat == "red" else items)
    _refused_live(forged, sc, ids, f"red's r2 shows {real['r1']['tile']}, already shown as r1")


def test_a_strength_above_the_maximum_is_one_line_refused_live(red_to_act) -> None:
    gf, sc, ids = red_to_act
    forged = _finish(gf, sc, ids, "red", "show r3",
                     patch=lambda items, seat: {h: dict(v, strength=9) for h, v in items.items()})
    _refused_live(forged, sc, ids, r"red's r3: strength 9 is outside 1..4")


def test_a_tile_the_game_does_not_have_is_refused_live(red_to_act) -> None:
    gf, sc, ids = red_to_act
    forged = _finish(gf, sc, ids, "red", "show r1",
                     patch=lambda items, seat: {h: dict(v, tile="Q") for h, v in items.items()})
    _refused_live(forged, sc, ids, "red's r1: not a tile of this game")


def test_an_opening_altered_after_it_was_made_is_refused_live(red_to_act) -> None:
    gf, sc, ids = red_to_act
    t = cycle.Turn(cycle.replay(gf, sc, ids["red"]), ids["red"])
    t.push("show r1")
    ex = t.finish()
    entry = next(e for e in ex["orders"] if e["order"].get("verb") == "show")
    value = entry["order"]["openings"][0]["value"]
    entry["order"]["openings"][0]["value"] = dict(value, strength=4 if value["strength"] != 4 else 3)
    ex = sign({k: v for k, v in ex.items() if k != "sig"}, ids["red"])
    _refused_live(GameFile(gf.exchanges + [ex]), sc, ids, "does not match the committed hidden state")


def test_a_misstated_hidden_state_passes_a_blind_program_and_is_caught_at_the_audit() -> None:
    """Red's program commits a boosted tile it never paid a boost for: no
    program without red's secrets can tell, the audit can."""
    gf, sc, ids = table("immediate", dict(VAULT, vault=dict(VAULT["vault"], rounds=2)))
    gf = until_acting(gf, sc, ids, "red")

    def boosted(items: dict[str, Any], seat: str) -> dict[str, Any]:
        return {h: dict(v, strength=4) if h == "r1" else v for h, v in items.items()} if seat == "red" else items

    forged = _finish(gf, sc, ids, "red", patch=boosted)
    cycle.replay(forged, sc, ids["blue"])                  # blue's program cannot tell
    while not cycle.replay(forged, sc).over():
        forged = write(forged, sc, ids, ) if cycle.replay(forged, sc).next_sender() == "blue" else \
            _finish_lying(forged, sc, ids, boosted)
    # Disclosures open the sealed parts, which the lie did not touch.
    for _ in range(2):
        m = cycle.replay(forged, sc)
        seat = audit.next_discloser(m)
        mine = cycle.replay(forged, sc, ids[seat]) if seat == "blue" else _replay_lying(forged, sc, ids, boosted)
        forged = GameFile(forged.exchanges + [cycle.disclose_exchange(mine, ids[seat])])
    with pytest.raises(cycle.Verification, match="red's commit .* differs from the replay"):
        cycle.replay(forged, sc, None, audit=True)


def _replay_lying(gf: GameFile, sc: dict[str, Any], ids: dict[str, Any], patch: Any) -> Any:
    """Red's modified program replays its own lies without complaint."""
    with Modified(patch):
        return cycle.replay(gf, sc, ids["red"])


def _finish_lying(gf: GameFile, sc: dict[str, Any], ids: dict[str, Any], patch: Any) -> GameFile:
    with Modified(patch):
        return _write_turn(gf, cycle.replay(gf, sc, ids["red"]), ids["red"], ())


def test_an_empty_disclosure_is_refused_naming_the_first_part_missing() -> None:
    gf, sc, ids = table("immediate", dict(VAULT, vault=dict(VAULT["vault"], rounds=1)))
    while not cycle.replay(gf, sc).over():
        gf = write(gf, sc, ids)
    m = cycle.replay(gf, sc)
    seat = audit.next_discloser(m)
    ex = {"game_id": m.game_id, "n": len(gf.exchanges) + 1, "kind": "disclose", "side": seat,
          "prev": exchange_hash(gf.last), "secrets": {}, "state": m.state_hash()}
    first_sealed = next(e["n"] for e in gf.exchanges if e["side"] == seat and "sealed" in e)
    _refused = GameFile(gf.exchanges + [sign(ex, ids[seat])])
    with pytest.raises(cycle.Verification, match=f"does not open the sealed part of exchange {first_sealed}"):
        cycle.replay(_refused, sc)


def test_a_disclosure_of_something_other_than_what_was_sealed_is_refused() -> None:
    gf, sc, ids = table("immediate", dict(VAULT, vault=dict(VAULT["vault"], rounds=1)))
    while not cycle.replay(gf, sc).over():
        gf = write(gf, sc, ids)
    m = cycle.replay(gf, sc)
    seat = audit.next_discloser(m)
    honest = cycle.disclose_exchange(cycle.replay(gf, sc, ids[seat]), ids[seat])
    n, part = next(iter(honest["secrets"].items()))
    secrets = dict(honest["secrets"], **{n: dict(part, secret_seed="00" * 32)})
    ex = sign(dict({k: v for k, v in honest.items() if k != "sig"}, secrets=secrets), ids[seat])
    with pytest.raises(cycle.Verification, match=f"what is disclosed for exchange {n} is not what was sealed"):
        cycle.replay(GameFile(gf.exchanges + [ex]), sc)


def test_a_sealed_standing_order_never_shows_its_value(red_to_act) -> None:
    from pbem.session import turn_log

    gf, sc, ids = red_to_act
    gf = _finish(gf, sc, ids, "red", "policy motto tuesday")
    assert b"tuesday" not in gf.to_toml().encode()
    mine, theirs = cycle.replay(gf, sc, ids["red"]), cycle.replay(gf, sc, ids["blue"])
    assert mine.state["hidden"]["red"]["standing"] == {"motto": "tuesday"}
    assert theirs.es["policies"]["red"] == {"motto": "sealed"}
    for m in (mine, theirs):
        assert "tuesday" not in turn_log(m, m.records)


def test_a_public_standing_order_s_value_is_not_printed_in_any_log() -> None:
    from pbem.session import turn_log

    gf, sc, ids = eh.start("immediate")
    m = cycle.replay(gf, sc, ids["red"])
    t = cycle.Turn(m, ids["red"])
    t.push("policy defense dodge")
    while not t.done:
        t.push(eh.first_option(t.pending()))
    gf = GameFile(gf.exchanges + [t.finish()])
    for who in ("red", "blue"):
        m = cycle.replay(gf, sc, ids[who])
        log = turn_log(m, m.records)
        assert "sets a standing order (defense)" in log and "dodge" not in log


def test_an_unknown_or_empty_standing_order_is_refused_in_every_program() -> None:
    from pbem.game import IllegalOrder

    gf, sc, ids = eh.start("immediate")
    t = cycle.Turn(cycle.replay(gf, sc, ids["red"]), ids["red"])
    with pytest.raises(IllegalOrder, match="no standing order 'bogus'"):
        t.push({"verb": "policy", "name": "bogus", "value": "42"})
    with pytest.raises(IllegalOrder, match="needs a value"):
        t.push({"verb": "policy", "name": "defense", "value": " "})


def test_a_joiner_who_moves_first_cannot_grind_his_seed_for_the_first_dice() -> None:
    """The joiner chose his chain seed knowing the creator's anchor: a
    stream keyed by that anchor and his own reveal serves no order of his.
    His first draw waits for the creator's next reveal."""
    gf, sc, ids = table("immediate", dict(VAULT, vault=dict(VAULT["vault"], first="blue")))
    m = cycle.replay(gf, sc, ids["blue"])
    assert not m.stream_fresh("blue", 3)
    gf = _finish(gf, sc, ids, "blue", "setup")
    rec = cycle.replay(gf, sc).records[-1]
    assert rec.deferred and rec.deferred["side"] == "blue" and not rec.rolls
    assert cycle.replay(gf, sc).next_sender() == "red"
    gf = write(gf, sc, ids)                             # red's program resolves blue's deal, keyed by red's reveal
    assert cycle.replay(gf, sc, ids["blue"]).state["hidden"]["blue"]["tiles"]
