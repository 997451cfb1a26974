"""Forced answers (issue 12 item 3): a decision the rules force is taken by
the program, costs no email and freezes no dice; the listing of it is not
the sender's to choose, and a real choice cannot pass as forced.  The duel
test game's attack has one option; it is forced only under its rule option
``forced_attack`` (Decision.forced is the game's word, never len(options))."""
from __future__ import annotations

import pytest

import enginehelp as eh
from pbem import cycle
from pbem.cycle import run as run_mod
from pbem.cycle import turn as turn_mod
from pbem.errors import InvalidFile
from pbem.protocol import gamefile
from pbem.protocol.gamefile import GameFile


def _start(dice: str = "sealed", forced: bool = True, game_id: str = "g-forced"):
    sc = eh.duel_scenario()
    red, blue = eh.players()
    gf = cycle.new_game(game_id=game_id, game="duel", scenario_name="duel/test", scenario=sc,
                        options={"forced_attack": forced}, dice=dice, creator=red, creator_side="red",
                        invited={"blue": blue.public})
    m = cycle.replay(gf, sc, blue)
    gf = GameFile(gf.exchanges + [cycle.join_exchange(m, blue, "blue")])
    return gf, sc, {"red": red, "blue": blue}


def _write(gf, sc, ids, cheat=None):
    """The seat whose turn it is writes its exchange (``cheat(m)`` first
    changes that seat's own program)."""
    seat = cycle.replay(gf, sc).next_sender()
    m = cycle.replay(gf, sc, ids[seat])
    if cheat:
        cheat(m)
    t = cycle.Turn(m, ids[seat])
    while not t.done:
        t.push(eh.first_option(t.pending()))
    return GameFile(gf.exchanges + [t.finish()]), t


def _entries(gf, verb):
    return [(ex["n"], e) for ex in gf.exchanges for e in ex.get("orders", []) if e["order"].get("verb") == verb]


def test_a_forced_attack_is_the_programs_and_its_dice_wait_when_the_sender_has_chosen():
    gf, sc, ids = _start()
    gf = eh.play_out(gf, sc, ids)
    m = cycle.replay(gf, sc)                      # a bystander verifies it all
    assert m.over()
    attacks = _entries(gf, "attack")
    assert attacks and all(e["by"] == "forced" for _, e in attacks)
    for ex in gf.exchanges:
        listed = ex.get("orders", [])
        for k, e in enumerate(listed):
            if e["by"] == "forced":
                chose = any(x["by"] == "player" for x in listed[:k])
                # After a choice of the sender's, the forced roll waits for the
                # next seat's stream; before any, it is rolled at once.
                assert bool(e.get("deferred")) == chose, (ex["n"], listed)


def test_a_forced_decision_costs_no_email():
    # Immediate dice: the forced roll is made in whatever program meets it,
    # instead of the attacker's being asked for it in an email of his own.
    counts = {}
    for forced in (False, True):
        gf, sc, ids = _start("immediate", forced=forced, game_id=f"g-forced-{forced}")
        gf = eh.play_out(gf, sc, ids)
        counts[forced] = sum(1 for ex in gf.exchanges if ex["kind"] == "play")
    assert counts[True] < counts[False]


def test_a_lone_option_is_not_forced_unless_the_game_says_so():
    gf, sc, ids = _start(forced=False)
    gf = eh.play_out(gf, sc, ids)
    attacks = _entries(gf, "attack")
    assert attacks and all(e["by"] == "player" for _, e in attacks)


def _without_forced(monkeypatch):
    """A modified program: it does not take forced answers itself, so the
    forced order comes to its player like any other."""
    monkeypatch.setattr(turn_mod, "features", lambda m: frozenset({"plans"}))


def test_hostile_a_forced_answer_listed_as_the_senders_own_order_is_refused_live(monkeypatch):
    # Listed as his own, the forced roll would be frozen out of his stream and
    # deferred to the next seat's: a sender who had seen what his own stream
    # held could so choose between two streams.  Only one listing replays.
    caught = 0
    gf, sc, ids = _start()
    for _ in range(40):
        if cycle.replay(gf, sc).over():
            break
        seat = cycle.replay(gf, sc).next_sender()
        m = cycle.replay(gf, sc, ids[seat])
        with monkeypatch.context() as mp:
            _without_forced(mp)
            t = cycle.Turn(m, ids[seat])
            while not t.done:
                t.push(eh.first_option(t.pending()))
            forged = t.finish()
        if any(e["order"].get("verb") == "attack" and e["by"] == "player" for e in forged.get("orders", [])) \
                or len(forged.get("orders", [])) != len(_honest_entries(gf, sc, ids, seat)):
            other = "blue" if seat == "red" else "red"
            with pytest.raises(InvalidFile):
                cycle.advance(cycle.replay(gf, sc, ids[other]), forged, ids[other])
            caught += 1
        gf, _ = _write(gf, sc, ids)
    assert caught >= 2


def _honest_entries(gf, sc, ids, seat):
    m = cycle.replay(gf, sc, ids[seat])
    t = cycle.Turn(m, ids[seat])
    while not t.done:
        t.push(eh.first_option(t.pending()))
    return t.sink.entries


def test_hostile_a_real_choice_passed_off_as_forced_is_refused_live():
    # The attacker's program claims his attack is forced, so that it rolls at
    # once on the stream he already knows (he would send it only when the
    # roll suits him): every other program sees a choice and refuses it.
    gf, sc, ids = _start(forced=False)
    for _ in range(12):
        m = cycle.replay(gf, sc)
        d = m.pending()
        if d is not None and d.kind == "attack" and not m.es.get("deferred") and m.next_sender() == d.seat:
            break
        gf, _ = _write(gf, sc, ids)
    else:
        raise AssertionError("never reached an attack decision at the start of an exchange")
    seat = d.seat

    def claims_forced(mine):
        mine.rules.options = dict(mine.rules.options, forced_attack=True)

    forged_gf, t = _write(gf, sc, ids, cheat=claims_forced)
    forged = forged_gf.exchanges[-1]
    assert any(e["by"] == "forced" and e["order"]["verb"] == "attack" and not e.get("deferred")
               for e in forged["orders"])
    assert t.rng.records, "the forged exchange rolled on the sender's own stream"
    other = "blue" if seat == "red" else "red"
    with pytest.raises(InvalidFile, match=r"still has to decide \(attack\)|differs|listed"):
        cycle.advance(cycle.replay(gf, sc, ids[other]), forged, ids[other])
    with pytest.raises(InvalidFile):
        cycle.replay(forged_gf, sc)


def test_a_file_naming_no_features_replays_as_before(monkeypatch):
    # Files written before forced answers list them as their sender's orders
    # (and freeze the dice after them): they still verify.
    monkeypatch.setattr("pbem.cycle.write.FEATURES", ())
    gf, sc, ids = _start(game_id="g-legacy")
    monkeypatch.undo()
    assert "forced" not in gf.header.get("features", [])
    gf = eh.play_out(gf, sc, ids)
    attacks = _entries(gf, "attack")
    assert attacks and all(e["by"] == "player" for _, e in attacks)
    assert cycle.replay(gf, sc).over()


def test_a_file_relying_on_an_unknown_feature_is_refused_by_name(monkeypatch):
    monkeypatch.setattr("pbem.cycle.write.FEATURES", run_mod.FEATURES + ("teleport",))
    with pytest.raises(InvalidFile, match="teleport.*newer pbem"):
        _start(game_id="g-future")          # the invited player's program reads it first


def test_the_header_names_the_features_a_new_game_relies_on():
    gf, _, _ = _start()
    assert gf.header["features"] == list(run_mod.FEATURES)
    text = gf.to_toml()
    assert gamefile.parse(text).header["features"] == list(run_mod.FEATURES)
