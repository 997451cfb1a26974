"""VP bidding (AVA 17.1, FFS 16.1; rulings A52, FFS #58) through the
exchange engine: sealed bids committed and opened together, the higher
bidder plays the Axis (the core moves the players between the seats when
he joined as the Soviet), a tie broken by a coin flip from the shared
stream whose winner chooses a side, the bid as the victory threshold; a
hostile program that changes its bid after seeing the other's is caught by
the commitment; games without the option keep their files."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import enginehelp
from pbem import cycle
from pbem.errors import UsageError
from pbem.games.ava import seq_bid, victory
from pbem.protocol.gamefile import GameFile
from pbem.protocol.identity import generate
from pbem.scenario import load_toml

ROOT = Path(__file__).resolve().parent.parent


def _sc(game: str) -> dict[str, Any]:
    return load_toml(ROOT / "scenarios" / game / "practice.toml")


def _table(game: str = "ava", dice: str = "immediate", bidding: bool = True) -> tuple[GameFile, dict[str, Any], dict[str, Any]]:
    sc = _sc(game)
    ids = {"axis": generate("Anna", "anna@example.org"), "soviet": generate("Pavel", "pavel@example.org")}
    gf = cycle.new_game(game_id=f"{game}-bid-{dice}", game=game, scenario_name=f"{game}/practice", scenario=sc,
                        options={"vp_bidding": True} if bidding else {}, dice=dice, creator=ids["axis"],
                        creator_side="axis", invited={"soviet": ids["soviet"].public})
    gf = GameFile(gf.exchanges + [cycle.join_exchange(cycle.replay(gf, sc, ids["soviet"]), ids["soviet"], "soviet")])
    return gf, sc, ids


def _holder(gf: GameFile, sc: dict[str, Any], ids: dict[str, Any], seat: str) -> Any:
    """The identity of the player who holds ``seat`` now."""
    m = cycle.replay(gf, sc)
    return next(i for i in ids.values() if i.public.sign_pub == m.seats[seat].identity.sign_pub)


def _send(gf: GameFile, sc: dict[str, Any], ids: dict[str, Any], *orders: str, finish: bool = False) -> GameFile:
    seat = cycle.replay(gf, sc).next_sender()
    me = _holder(gf, sc, ids, seat)
    t = cycle.Turn(cycle.replay(gf, sc, me), me)
    for o in orders:
        t.push(o)
    while finish and not t.done:
        t.push(t.m.rules.demo_order(t.es["game"], t.pending()))
    return GameFile(gf.exchanges + [t.finish()])


def _agree(gf: GameFile, sc: dict[str, Any], ids: dict[str, Any]) -> Any:
    ms = [cycle.replay(gf, sc, i) for i in ids.values()] + [cycle.replay(gf, sc)]
    assert len({m.state_hash() for m in ms}) == 1
    return ms[-1]


def _bids(game: str, dice: str, a: int, s: int) -> tuple[GameFile, dict[str, Any], dict[str, Any]]:
    gf, sc, ids = _table(game, dice)
    gf = _send(gf, sc, ids, f"bid {a}")                 # the player who joined as axis
    gf = _send(gf, sc, ids, f"bid {s}")                 # the other bids and opens his bid at once
    m = _agree(gf, sc, ids)
    assert set(m.state["bid"]["commit"]) == {"axis", "soviet"} and list(m.state["bid"]["open"]) == ["soviet"]
    return gf, sc, ids


@pytest.mark.parametrize("dice", ["sealed", "immediate"])
@pytest.mark.parametrize("game", ["ava", "ffs"])
def test_the_higher_bidder_plays_the_axis_the_players_change_seats_and_every_program_agrees(game: str, dice: str) -> None:
    gf, sc, ids = _bids(game, dice, 30, 45)
    pavel = ids["soviet"]
    gf = _send(gf, sc, ids)                              # Anna's program opens her bid: Pavel bid higher
    m = _agree(gf, sc, ids)
    assert m.state["bid"]["axis"] == "soviet" and m.state["bid"]["value"] == 45
    assert m.seats["axis"].identity.sign_pub == pavel.public.sign_pub        # Pavel now holds the Axis seat
    assert cycle.replay(gf, sc, pavel).me == "axis" and cycle.replay(gf, sc, ids["axis"]).me == "soviet"
    assert m.reseated_at == len(gf.exchanges)
    # the game goes on with Pavel as the Axis: his key signs the Axis seat's exchanges
    for _ in range(6):
        if cycle.replay(gf, sc).over():
            break
        gf = _send(gf, sc, ids, finish=True)
        _agree(gf, sc, ids)
    assert any(ex["side"] == "axis" and ex["n"] > m.reseated_at for ex in gf.exchanges)
    # a rewind to before the players moved is refused
    with pytest.raises(UsageError, match="cannot be rewound to"):
        cycle.rewind_exchange(cycle.replay(gf, sc, pavel), pavel, 3)


def test_no_move_when_the_player_who_joined_as_axis_bids_higher() -> None:
    gf, sc, ids = _bids("ava", "immediate", 50, 20)
    gf = _send(gf, sc, ids, finish=True)                 # no move: Anna goes on as the Axis in the same exchange
    m = _agree(gf, sc, ids)
    assert m.state["bid"]["axis"] == "axis" and m.state["bid"]["value"] == 50 and m.reseated_at == 0
    assert m.seats["axis"].identity.sign_pub == ids["axis"].public.sign_pub


@pytest.mark.parametrize("dice", ["sealed", "immediate"])
def test_a_tie_is_a_coin_flip_from_the_shared_stream_and_its_winner_chooses_a_side(dice: str) -> None:
    gf, sc, ids = _bids("ava", dice, 40, 40)
    for _ in range(3):                                   # Anna opens: a tie, the flip; its winner chooses
        m = _agree(gf, sc, ids)
        if m.state["bid"]["axis"]:
            break
        seat = m.next_sender()
        me = _holder(gf, sc, ids, seat)
        t = cycle.Turn(cycle.replay(gf, sc, me), me)
        if not t.done:
            assert t.pending().kind == "bid-side" and t.es["game"]["bid"]["tie"] == seat
            winner = seat
            t.push("side soviet")                        # the winner lets the other play the Axis
        gf = GameFile(gf.exchanges + [t.finish()])
    m = _agree(gf, sc, ids)
    rolls = [r for r in cycle.iter_rolls(m) if "coin flip" in r[2]["purpose"]]
    assert len(rolls) == 1 and winner == seq_bid.ORDER[rolls[0][2]["result"] - 1] == m.state["bid"]["tie"]
    other = "axis" if winner == "soviet" else "soviet"
    assert m.state["bid"]["axis"] == other and m.state["bid"]["value"] == 40
    assert m.seats["axis"].identity.sign_pub == ids[other].public.sign_pub


def test_a_hostile_program_changing_its_bid_after_seeing_the_other_s_is_caught_by_the_commitment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    gf, sc, ids = _bids("ava", "immediate", 30, 45)
    assert cycle.replay(gf, sc, ids["axis"]).state["bid"]["open"]["soviet"] == 45     # Anna has seen 45
    real = seq_bid.BidMixin.bid_private_answer

    def outbid(self: Any, state: Any, decision: Any) -> dict[str, Any]:
        order = real(self, state, decision)
        return dict(order, value=46)                     # 30 sealed, 46 shown
    monkeypatch.setattr(seq_bid.BidMixin, "bid_private_answer", outbid)
    with pytest.raises(Exception, match="does not open the commitment"):
        _send(gf, sc, ids)                               # even her own program refuses to sign it
    # written anyway (the opening forged into an honest exchange and signed), every program refuses it
    monkeypatch.undo()
    t = cycle.Turn(cycle.replay(gf, sc, ids["axis"]), ids["axis"])
    ex = dict(t.finish())
    entry = next(e for e in ex["orders"] if e["order"].get("verb") == "bid-open")
    entry["order"] = dict(entry["order"], value=46)
    forged = GameFile(gf.exchanges + [cycle.sign({k: v for k, v in ex.items() if k != "sig"}, ids["axis"])])
    for reader in (None, ids["soviet"], ids["axis"]):
        with pytest.raises(cycle.Verification, match="does not open the commitment"):
            cycle.replay(forged, sc, reader)


def test_the_bid_is_sealed_in_the_file_until_it_is_opened() -> None:
    gf, sc, ids = _table()
    sizes = set()
    for value in (7, 123):
        t = cycle.Turn(cycle.replay(gf, sc, ids["axis"]), ids["axis"])
        t.push(f"bid {value}")
        ex = t.finish()
        text = GameFile(gf.exchanges + [ex]).to_toml()
        assert f"bid {value}" not in text and "bid (sealed)" in cycle.replay(GameFile(gf.exchanges + [ex]), sc).rules \
            .format(ex["orders"][0]["order"])
        sizes.add(len(ex["sealed"]))
    assert len(sizes) == 1


def test_the_bid_is_the_threshold_ava_axis_vp_ffs_axis_lead() -> None:
    from pbem.games.ava import scenario
    from pbem.games.ava.profile import AVA, FFS
    ava, ffs = scenario.load(_sc("ava")), scenario.load(_sc("ffs"))
    bid = victory.bid_threshold({"bid": {"value": 55}}, None)
    assert bid == 55 and victory.bid_threshold({}, 40) == 40
    assert victory.outcome(ava, AVA, {"axis:cities": 55}, bid=bid)[0] == "axis"
    assert victory.outcome(ava, AVA, {"axis:cities": 54}, bid=bid)[0] == "soviet"
    assert victory.outcome(ffs, FFS, {"axis:cities": 80, "soviet:cities": 25}, bid=bid)[0] == "axis"     # lead 55
    assert victory.outcome(ffs, FFS, {"axis:cities": 80, "soviet:cities": 26}, bid=bid)[0] == "soviet"   # lead 54


def test_games_without_bidding_keep_their_headers_and_refuse_bids() -> None:
    gf, sc, ids = _table(bidding=False)
    assert gf.header["sides"] == ["axis", "soviet"] and "seats" not in gf.header
    assert gf.header["options"]["vp_bidding"] is False
    m = cycle.replay(gf, sc, ids["axis"])
    assert m.pending().kind != "bid"
    with pytest.raises(Exception):
        cycle.Turn(m, ids["axis"]).push("bid 40")


def test_bidding_is_for_the_two_player_game() -> None:
    from pbem import games
    with pytest.raises(UsageError, match="vp_bidding .* two-player game"):
        games.load("ava").validate_options({"vp_bidding": True, "players": 4, "multiplayer": "controller"})
    gf, sc, ids = _table()
    with pytest.raises(Exception, match="a VP bid is a whole number from 0 to 999, not -3"):
        _send(gf, sc, ids, "bid -3")


def test_a_bid_game_plays_to_its_end_and_passes_the_audit() -> None:
    gf, sc, ids = _bids("ava", "immediate", 10, 35)
    # Each player's program and a bystander keep their match and verify one
    # exchange more at a time (cycle.advance), so the game stays linear.
    live = {name: cycle.replay(gf, sc, i) for name, i in ids.items()}
    anyone = cycle.replay(gf, sc)
    for _ in range(4000):
        if anyone.over():
            break
        holder = anyone.seats[anyone.next_sender()].identity.sign_pub
        name = next(n for n, i in ids.items() if i.public.sign_pub == holder)
        t = cycle.Turn(live[name], ids[name])
        while not t.done:
            t.push(t.m.rules.demo_order(t.es["game"], t.pending()))
        ex = t.finish()
        for n, mine in live.items():
            cycle.advance(mine, ex, ids[n])
        cycle.advance(anyone, ex)
    gf = GameFile(list(anyone.exchanges))
    m = cycle.replay(gf, sc)
    assert m.over() and "35 needed" in m.result()
    full = cycle.replay(enginehelp.disclose_all(gf, sc, {s: _holder(gf, sc, ids, s) for s in ("axis", "soviet")}),
                        sc, None, audit=True)
    assert full.state_hash() == m.state_hash()
