"""Team secrets (a part sealed to every seat of a side; a hidden part every
seat of a team sees) on the Relay test game: north and south (red) pick
tokens for the team, blue (alone) strikes.  Every program and a bystander
agree; a team-mate's program knows the partner's pick and refuses a second
pick of the same token live; blue's program cannot read a pick (the file
holds no token, and every size is the same whichever token); a sender who
tells its team-mates something else, or leaves one out, is caught; the
audit checks it all again."""
from __future__ import annotations

import base64
import os
import re
from typing import Any

import pytest

import enginehelp as eh
from pbem import cycle
from pbem.cycle import write as cwrite
from pbem.errors import InvalidFile
from pbem.protocol import seal as pseal
from pbem.protocol.canon import canonical
from pbem.protocol.gamefile import GameFile
from pbem.protocol.identity import generate
from pbem.protocol.secret import pad

if "relay=" not in os.environ.get("PBEM_GAME_MODULES", ""):
    os.environ["PBEM_GAME_MODULES"] = os.environ.get("PBEM_GAME_MODULES", "") + ",relay=relaygame"

import relaygame as relay  # noqa: E402

SC: dict[str, Any] = {"scenario": {"id": "relay/test", "game": "relay", "title": "Relay", "practice": True},
                      "relay": {"rounds": 2}}


def _table(dice: str = "immediate") -> tuple[GameFile, dict[str, Any]]:
    ids = {"north": generate("Nadia", "nadia@example.org"), "south": generate("Sergei", "sergei@example.org"),
           "blue": generate("Boris", "boris@example.org")}
    gf = cycle.new_game(game_id="relay-test", game="relay", scenario_name="relay/test", scenario=SC, options={},
                        dice=dice, creator=ids["north"], creator_side="north",
                        invited={"south": ids["south"].public, "blue": ids["blue"].public})
    for seat in ("south", "blue"):
        gf = GameFile(gf.exchanges + [cycle.join_exchange(cycle.replay(gf, SC, ids[seat]), ids[seat], seat)])
    return gf, ids


def _turn(gf: GameFile, ids: dict[str, Any]) -> cycle.Turn:
    seat = cycle.replay(gf, SC).next_sender()
    assert seat is not None
    return cycle.Turn(cycle.replay(gf, SC, ids[seat]), ids[seat])


def _write(gf: GameFile, ids: dict[str, Any], *orders: str) -> GameFile:
    t = _turn(gf, ids)
    for o in orders:
        t.push(o)
    while not t.done:
        t.push(t.pending().options[0])
    return GameFile(gf.exchanges + [t.finish()])


def _agree(gf: GameFile, ids: dict[str, Any]) -> None:
    hashes = {s: cycle.replay(gf, SC, i).state_hash() for s, i in ids.items()}
    hashes["bystander"] = cycle.replay(gf, SC).state_hash()
    assert len(set(hashes.values())) == 1, hashes


def _play_out(gf: GameFile, ids: dict[str, Any]) -> GameFile:
    for _ in range(30):
        if cycle.replay(gf, SC).over():
            return gf
        gf = _write(gf, ids)
        _agree(gf, ids)
    raise AssertionError("the game did not end")


def _last(gf: GameFile) -> dict[str, Any]:
    return gf.exchanges[-1]


# ------------------------------------------------------------------ the construction

def test_a_team_copy_opens_only_with_its_recipient_s_key_in_its_own_slot() -> None:
    a, b = generate("A", "a@example.org"), generate("B", "b@example.org")
    blob = pseal.seal_team(a.public.seal_pub_raw, b"team secret", "g", 7, sender="north", recipient="south")
    assert pseal.unseal_team(a.seal_key, blob, "g", 7, sender="north", recipient="south") == b"team secret"
    for key, gid, n, sender, recipient in ((b.seal_key, "g", 7, "north", "south"), (a.seal_key, "g", 8, "north", "south"),
                                           (a.seal_key, "g", 7, "blue", "south"), (a.seal_key, "g", 7, "north", "north")):
        with pytest.raises(InvalidFile, match="team part of exchange .* does not open"):
            pseal.unseal_team(key, blob, gid, n, sender=sender, recipient=recipient)
    # A team copy is not a seal to the player: the two constructions do not mix.
    with pytest.raises(InvalidFile):
        pseal.unseal(a.seal_key, blob, "g", 7)
    with pytest.raises(InvalidFile):
        pseal.unseal_team(a.seal_key, pseal.seal(a.public.seal_pub_raw, b"x", "g", 7), "g", 7, sender="north",
                          recipient="south")


def test_team_vectors_are_the_documented_byte_strings() -> None:
    """The associated data and the team hash of docs/FILE-FORMAT.md, as
    fixed vectors (an independent verifier's check)."""
    assert pseal.team_aad("g-test", 12, "north", "south").hex() == (
        "0006672d74657374" "000000000000000c" "00056e6f727468" "0005736f757468")
    assert pseal.TEAM_INFO == b"pbem/team-seal/v1"
    # H(b"pbem/team/v1" || {"nonce":"00..00","orders":{"0":{"token":"tu~9"}}})
    assert cwrite.team_hash({"nonce": "00" * 16, "orders": {"0": {"token": "tu~9"}}}) == \
        "a24c451b6ad1d777269a4c73b77f35ef4dd8c54168ebdea4515432773c30bc32"


# ------------------------------------------------------------------ a whole game

@pytest.mark.parametrize("dice", ["sealed", "immediate"])
def test_a_team_game_plays_out_every_program_agrees_and_the_audit_checks_the_picks(dice: str) -> None:
    gf, ids = _table(dice)
    gf = _play_out(gf, ids)
    m = cycle.replay(gf, SC)
    assert m.over() and m.result().startswith("blue struck for")
    for ex in gf.exchanges:
        if ex["kind"] != "play":
            continue
        if ex["side"] == "blue":
            assert "team_sealed" not in ex and "team_hash" not in ex       # no team-mate, no team part
        else:
            assert sorted(ex["team_sealed"]) == ["north", "south"] and re.fullmatch(r"[0-9a-f]{64}", ex["team_hash"])
    gf = eh.disclose_all(gf, SC, ids)
    full = cycle.replay(gf, SC, None, audit=True)
    rounds = full.state["hidden"][relay.RED]["rounds"]
    assert len(rounds) == 2 and all(len(set(r.values())) == 2 for r in rounds)


def test_a_team_mate_s_program_knows_the_partner_s_pick_and_the_other_side_s_does_not() -> None:
    gf, ids = _table()
    gf = _write(gf, ids, "pick zircon-7f3a")                       # north
    south = cycle.replay(gf, SC, ids["south"])
    assert south.state["hidden"][relay.RED]["picks"] == {"north": "zircon-7f3a"}
    assert south.state["hidden"]["north"] is None                  # north's own part stays his
    blue = cycle.replay(gf, SC, ids["blue"])
    assert blue.state["hidden"][relay.RED] is None and blue.team_secrets == {}
    assert cycle.replay(gf, SC).state["hidden"][relay.RED] is None
    # south's honest program offers only the free tokens and refuses the taken one
    t = cycle.Turn(south, ids["south"])
    assert "pick zircon-7f3a" not in t.pending().options
    with pytest.raises(cycle.IllegalOrder if hasattr(cycle, "IllegalOrder") else Exception,
                       match="zircon-7f3a is already north's pick"):
        t.push("pick zircon-7f3a")
    # the view a seat may draw on: its own part and its team's (seen_by with its side)
    from pbem.game import seen_by
    seen = seen_by(south.state, "south", "red")
    assert seen["hidden"][relay.RED] is not None and seen["hidden"]["north"] is None
    assert seen_by(south.state, "south")["hidden"][relay.RED] is None


def test_the_other_side_s_file_holds_no_token_and_every_size_is_the_same() -> None:
    gf, ids = _table()
    sizes = set()
    for token in relay.TOKENS:
        t = _turn(gf, ids)
        t.push(f"pick {token}")
        ex = t.finish()
        text = GameFile(gf.exchanges + [ex]).to_toml()
        assert token not in text and token.encode() not in base64.b64decode(ex["sealed"])
        for blob in ex["team_sealed"].values():
            assert token.encode() not in base64.b64decode(blob)
        sizes.add((len(ex["sealed"]), tuple(len(b) for b in ex["team_sealed"].values()),
                   len(text.split("[[exchange]]")[-1].split("[state]")[0])))
    assert len(sizes) == 1, sizes


# ------------------------------------------------------------------ hostile programs

def test_a_modified_program_picking_the_partner_s_token_is_caught_live_by_the_partner_and_at_the_audit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    gf, ids = _table()
    gf = _write(gf, ids, "pick zircon-7f3a")
    # south's program skips the team check: it forgets north's pick before applying its own
    real = relay.RelayRules.apply

    def forgetful(self: Any, st: dict[str, Any], seat: str, order: dict[str, Any], rng: Any) -> Any:
        if st["hidden"].get(relay.RED) is not None:
            st["hidden"][relay.RED]["picks"] = {}
        return real(self, st, seat, order, rng)
    monkeypatch.setattr(relay.RelayRules, "apply", forgetful)
    t = cycle.Turn(cycle.replay(gf, SC, ids["south"]), ids["south"])
    t.push("pick zircon-7f3a")
    while not t.done:
        t.push(t.pending().options[0])
    forged = GameFile(gf.exchanges + [t.finish()])
    monkeypatch.undo()
    with pytest.raises(cycle.Verification, match="zircon-7f3a is already north's pick this round"):
        cycle.replay(forged, SC, ids["north"])
    # blue cannot see it, and plays on; the audit refuses the game
    assert cycle.replay(forged, SC, ids["blue"]).next_sender() == "blue"
    gf = forged
    for _ in range(20):
        if cycle.replay(gf, SC).over():
            break
        seat = cycle.replay(gf, SC).next_sender()
        monkeypatch.setattr(relay.RelayRules, "apply", forgetful)     # the red seats keep running it
        t = cycle.Turn(cycle.replay(gf, SC, ids[seat]), ids[seat])
        while not t.done:
            t.push(t.pending().options[0])
        gf = GameFile(gf.exchanges + [t.finish()])
        monkeypatch.undo()
    monkeypatch.setattr(relay.RelayRules, "apply", forgetful)
    gf = eh.disclose_all(gf, SC, ids)
    monkeypatch.undo()
    with pytest.raises(cycle.Verification, match="zircon-7f3a is already north's pick this round"):
        cycle.replay(gf, SC, None, audit=True)


def _resign(ex: dict[str, Any], identity: Any) -> dict[str, Any]:
    ex = {k: v for k, v in ex.items() if k != "sig"}
    return cycle.sign(ex, identity)


def test_telling_a_team_mate_something_else_is_caught_by_his_program() -> None:
    gf, ids = _table()
    t = _turn(gf, ids)
    t.push("pick zircon-7f3a")
    ex = dict(t.finish())
    lie = {"nonce": "11" * 16, "orders": {"0": {"token": "tu~9"}}}
    blob = pseal.seal_team(ids["south"].public.seal_pub_raw, pad(canonical(lie), 1024), "relay-test", ex["n"],
                           sender="north", recipient="south")
    ex["team_sealed"] = dict(ex["team_sealed"], south=base64.b64encode(blob).decode())
    forged = GameFile(gf.exchanges + [_resign(ex, ids["north"])])
    with pytest.raises(cycle.Verification, match="team part differs from the hash it published"):
        cycle.replay(forged, SC, ids["south"])
    cycle.replay(forged, SC, ids["blue"])                      # blue cannot tell (the audit will)


@pytest.mark.parametrize("damage", ["drop", "extra", "swap"])
def test_a_team_part_without_a_copy_for_every_team_seat_is_refused_everywhere(damage: str) -> None:
    gf, ids = _table()
    t = _turn(gf, ids)
    t.push("pick tu~9")
    ex = dict(t.finish())
    copies = dict(ex["team_sealed"])
    if damage == "drop":
        copies.pop("south")
    elif damage == "extra":
        copies["blue"] = copies["south"]
    else:
        copies["north"], copies["south"] = copies["south"], copies["north"]
    ex["team_sealed"] = copies
    forged = GameFile(gf.exchanges + [_resign(ex, ids["north"])])
    if damage == "swap":      # structurally fine: only the recipient finds his copy is not his
        with pytest.raises(cycle.Verification, match="does not open with south's key"):
            cycle.replay(forged, SC, ids["south"])
        return
    for reader in (None, ids["blue"], ids["south"]):
        with pytest.raises(cycle.Verification, match="needs one copy for each of north, south"):
            cycle.replay(forged, SC, reader)


def test_a_seat_without_team_mates_may_not_send_a_team_part() -> None:
    gf, ids = _table()
    gf = _write(gf, ids)
    gf = _write(gf, ids)
    t = _turn(gf, ids)
    assert t.side == "blue"
    while not t.done:
        t.push(t.pending().options[0])
    ex = dict(t.finish())
    cwrite.seal_team_into(ex, {"blue": ids["blue"].public.seal_pub_raw}, {})
    forged = GameFile(gf.exchanges + [_resign(ex, ids["blue"])])
    with pytest.raises(cycle.Verification, match="a team part from blue, who has no team-mate"):
        cycle.replay(forged, SC)


def test_a_disclosure_must_open_the_team_part_as_sealed() -> None:
    gf, ids = _table()
    gf = _play_out(gf, ids)
    from pbem.cycle import audit
    while (due := audit.next_discloser(cycle.replay(gf, SC))) == "blue":
        gf = GameFile(gf.exchanges + [cycle.disclose_exchange(cycle.replay(gf, SC, ids[due]), ids[due])])
    mine = cycle.replay(gf, SC, ids[due])
    ex = dict(cycle.disclose_exchange(mine, ids[due]))
    n = next(k for k, part in ex["secrets"].items() if "team" in part)
    ex["secrets"] = {**ex["secrets"], n: {**ex["secrets"][n], "team": {"nonce": "00" * 16}}}
    forged = GameFile(gf.exchanges + [_resign(ex, ids[due])])
    with pytest.raises(cycle.Verification, match=f"exchange {n}'s team part is not what was sealed"):
        cycle.replay(forged, SC)
