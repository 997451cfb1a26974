"""AVA 20.2 through the exchange engine: each team's split of its HQ chits
among its seats' cups is sealed to the team's seats (the core's team
secrets).  A team-mate's program knows its partner's cup, proposes the rest
and refuses a cup holding a chit the partner cupped; a hostile program
that cups it anyway is caught live by the partner's program, and at the
audit (mastercup.check_split) where the other side's programs could not
see it; the other side's programs see only counts, and the file holds no
chit id of a cup.  Whole games in both dice timings: test_ava_multi_game."""
from __future__ import annotations

import base64
from typing import Any

import pytest
from avamulti import SCENARIO, SEATS, table

import enginehelp
from pbem import cycle
from pbem.game import IllegalOrder, team_part
from pbem.games.ava import seq_master
from pbem.protocol.gamefile import GameFile

AXIS_TEAM = team_part("axis")


def _first_cup(gf: GameFile, ids: dict[str, Any], text: str | None = None) -> tuple[GameFile, list[str]]:
    """axis_north cups (its default, or ``text``): the file and its chits."""
    m = cycle.replay(gf, SCENARIO, ids["axis_north"])
    assert m.next_sender() == "axis_north" and m.pending().kind == "cup"
    t = cycle.Turn(m, ids["axis_north"])
    order = text or t.pending().options[0]
    t.push(order)
    chits = [w for w in order.split()[1:]]
    while not t.done:
        t.push(m.rules.demo_order(t.es["game"], t.pending()))
    return GameFile(gf.exchanges + [t.finish()]), chits


def test_a_team_mate_knows_the_partner_s_cup_the_other_side_only_its_count() -> None:
    gf, ids = table("variant", "immediate")
    gf, chits = _first_cup(gf, ids)
    assert chits
    south = cycle.replay(gf, SCENARIO, ids["axis_south"])
    assert south.state["hidden"][AXIS_TEAM]["cups"] == {"axis_north": chits}
    assert south.state["hidden"]["axis_north"] is None                   # his committed cup stays his
    for foe in ("soviet_north", "soviet_south"):
        m = cycle.replay(gf, SCENARIO, ids[foe])
        assert m.state["hidden"][AXIS_TEAM] is None and m.state["cupcount"]["axis_north"] == len(chits)
    # the partner's program proposes the rest of the team's chits, none of the partner's
    proposal = cycle.Turn(south, ids["axis_south"]).pending().options[0].split()[1:]
    assert not set(proposal) & set(chits)
    pool = south.rules.hq_pool(south.state, "axis")
    assert sorted(proposal + chits) == sorted(pool)


def test_the_partner_s_program_refuses_a_chit_already_in_the_partner_s_cup() -> None:
    gf, ids = table("variant", "immediate")
    m = cycle.replay(gf, SCENARIO, ids["axis_north"])
    pool = m.rules.hq_pool(m.state, "axis")
    single, left_out = _unpaired(m, pool)[:2]
    gf, _ = _first_cup(gf, ids, f"cup {single}")
    t = cycle.Turn(cycle.replay(gf, SCENARIO, ids["axis_south"]), ids["axis_south"])
    with pytest.raises(IllegalOrder, match=f"{single} is already in axis_north's HQ cup"):
        t.push(" ".join(["cup", *[c for c in pool if c not in (single, left_out)], single]))


def seq_master_pairs(m: Any, cid: str) -> list[str]:
    from pbem.games.ava import mastercup
    return [cid, *mastercup.pair_of(m.rules.scn, cid)]


def _unpaired(m: Any, chits: list[str]) -> list[str]:
    from pbem.games.ava import mastercup
    return [c for c in chits if not mastercup.pair_of(m.rules.scn, c)]


def test_a_hostile_team_mate_cupping_the_partner_s_chit_is_caught_live_by_the_partner_and_at_the_audit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """axis_north cups one chit; axis_south's modified program (blind to
    the team's split) cups that chit again and leaves another out, so the
    counts are right: the Soviet programs and a bystander cannot tell,
    axis_north's refuses the file at once, and the audit refuses it."""
    gf, ids = table("variant", "immediate")
    m = cycle.replay(gf, SCENARIO, ids["axis_north"])
    pool = m.rules.hq_pool(m.state, "axis")
    single, left_out = _unpaired(m, pool)[:2]
    gf, chits = _first_cup(gf, ids, f"cup {single}")
    real = seq_master.MasterMixin._check_team_cup

    def blind(self: Any, state: Any, team: Any, side: str, seat: str, chosen: list[str]) -> None:
        team.update(turn=state["turn"], cups={seat: list(chosen)})
    monkeypatch.setattr(seq_master.MasterMixin, "_check_team_cup", blind)
    t = cycle.Turn(cycle.replay(gf, SCENARIO, ids["axis_south"]), ids["axis_south"])
    t.push(" ".join(["cup", *[c for c in pool if c not in (single, left_out)], single]))
    while not t.done:
        t.push(t.m.rules.demo_order(t.es["game"], t.pending()))
    forged = GameFile(gf.exchanges + [t.finish()])
    monkeypatch.setattr(seq_master.MasterMixin, "_check_team_cup", real)
    with pytest.raises(cycle.Verification, match=f"{single} is already in axis_north's HQ cup"):
        cycle.replay(forged, SCENARIO, ids["axis_north"])
    for foe in ("soviet_north", "soviet_south"):
        assert cycle.replay(forged, SCENARIO, ids[foe]).state["cupcount"]["axis_south"] == len(pool) - 1
    cycle.replay(forged, SCENARIO)
    # the game ends (a resignation) and every seat discloses, the Axis seats
    # still running the blind program; the audit replays with everything known
    seat = cycle.replay(forged, SCENARIO).next_sender()
    t = cycle.Turn(cycle.replay(forged, SCENARIO, ids[seat]), ids[seat])
    t.push("resign")
    gf = GameFile(forged.exchanges + [t.finish()])
    monkeypatch.setattr(seq_master.MasterMixin, "_check_team_cup", blind)
    gf = enginehelp.disclose_all(gf, SCENARIO, ids)
    monkeypatch.setattr(seq_master.MasterMixin, "_check_team_cup", real)
    with pytest.raises(cycle.Verification, match=f"{single} is already in axis_north's HQ cup"):
        cycle.replay(gf, SCENARIO, None, audit=True)


def test_the_audit_checks_the_whole_split_with_check_split() -> None:
    """A split that leaves a chit in no cup, with no chit twice, is refused
    by the team's programs when the last cup goes in (check_split)."""
    gf, ids = table("variant", "immediate")
    m = cycle.replay(gf, SCENARIO, ids["axis_north"])
    pool = m.rules.hq_pool(m.state, "axis")
    single, left_out = _unpaired(m, pool)[:2]
    gf, _ = _first_cup(gf, ids, f"cup {single}")
    t = cycle.Turn(cycle.replay(gf, SCENARIO, ids["axis_south"]), ids["axis_south"])
    with pytest.raises(IllegalOrder, match="HQ cups hold its"):
        t.push(" ".join(["cup", *[c for c in pool if c not in (single, left_out)]]))


def test_the_file_holds_no_chit_of_a_cup_and_the_sealed_sizes_do_not_depend_on_the_chits() -> None:
    gf, ids = table("variant", "immediate")
    m = cycle.replay(gf, SCENARIO, ids["axis_north"])
    pool = m.rules.hq_pool(m.state, "axis")
    from pbem.games.ava import mastercup
    cups = []
    for c in pool:                              # every cup of one chit (or one Panzergruppe pair) axis_north may give
        cup = [c, *mastercup.pair_of(m.rules.scn, c)]
        if sorted(cup) not in [sorted(x) for x in cups]:
            cups.append(cup)
    sizes = set()
    for cup in cups:
        t = cycle.Turn(cycle.replay(gf, SCENARIO, ids["axis_north"]), ids["axis_north"])
        t.push(" ".join(["cup", *cup]))
        ex = t.finish()
        plain_text = GameFile(gf.exchanges + [ex]).to_toml()
        public = {k: v for k, v in ex.items() if k not in ("sealed", "team_sealed")}
        for chit in cup:
            assert chit not in repr(public)
            for blob in [ex["sealed"], *ex["team_sealed"].values()]:
                assert chit.encode() not in base64.b64decode(blob)
        sizes.add((len(cup), len(ex["sealed"]), tuple(len(b) for b in ex["team_sealed"].values())))
        assert sorted(ex["team_sealed"]) == ["axis_north", "axis_south"]
    # one size per cup size: which chits never shows
    by_count: dict[int, set[Any]] = {}
    for k, *rest in sizes:
        by_count.setdefault(k, set()).add(tuple(rest))
    assert all(len(v) == 1 for v in by_count.values()), by_count
    assert len({tuple(r) for v in by_count.values() for r in v}) == 1        # not even the count
