"""The speed-ups of the AVD rules change no answer: supply lines remembered
across boards, decisions remembered per position, relocation searched ring
by ring and placement remembered per kind of unit all agree with the
answers worked out from scratch."""
from __future__ import annotations

import copy
import random

import pytest

from pbem.board import supply as ksupply
from pbem.games.avd import relocation, supply
from pbem.games.avd.board import Board
from pbem.games.avd.model import GERMAN, SOVIET
from pbem.games.avd.rules import AvdRules
from avd_fixtures import SeededRng, practice_rules, practice_scenario


def _reference_supply(b: Board, side: str) -> dict[str, int]:
    """10.2.2 traced straight from the board's own questions (no cache)."""
    def passable(h):
        return not b.in_enemy_zoc(h, side) or any(b.side_of(u) == side for u in b.units_at(h))

    def can_enter(a, c):
        if b.enemy_occupied(c, side) or b.unbridged_major(a, c):
            return False
        return side == GERMAN or not b.in_minsk_pocket(c)

    def usable(s):
        return s in b.grid and not b.enemy_occupied(s, side) and passable(s)

    return ksupply.traced(sorted(b.supply_sources(side)), b.grid.neighbors, can_enter,
                          can_pass=passable, usable=usable)


def _shuffled_positions(rules: AvdRules, seed: int, n: int):
    """``n`` positions: the practice set-up with some units moved at random."""
    r = random.Random(seed)
    st = rules.initial_state()
    hexes = rules.board(st).grid.hexes()
    on_map = sorted(u for u, x in st["units"].items() if x["where"] == "map")
    for _ in range(n):
        for u in r.sample(on_map, 6):
            st["units"][u]["hex"] = r.choice(hexes)
        st["turn"] = r.choice([2, 5])
        yield copy.deepcopy(st)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_10_2_2_remembered_supply_lines_match_a_fresh_trace(seed):
    rules = practice_rules()
    shared: dict = {}
    positions = list(_shuffled_positions(rules, seed, 6))
    for st in positions + positions[::-1]:          # the second pass is served from memory
        for side in (GERMAN, SOVIET):
            got = supply.supplied_hexes(Board(rules.scn, st, shared), side)
            assert got == _reference_supply(Board(rules.scn, st), side)


@pytest.mark.parametrize("seed", [4, 5])
def test_12_6_relocation_ring_search_matches_a_whole_map_scan(seed):
    rules = practice_rules()
    for st in _shuffled_positions(rules, seed, 3):
        b = Board(rules.scn, st)
        for hq in (u for u in b.units_of(GERMAN) + b.units_of(SOVIET) if b.is_hq(u)):
            start = b.hex_of(hq)
            sources = sorted(b.supply_sources(b.side_of(hq)))
            good = [h for h in b.grid.hexes() if b.distance(start, h) >= relocation.MIN_RELOCATION
                    and relocation._relocation_ok(b, hq, b.side_of(hq), start, h, sources, None)]
            near = min((b.distance(start, h) for h in good), default=None)
            assert relocation.relocation_options(b, hq) == [h for h in good if b.distance(start, h) == near]


def test_remembered_decisions_and_placements_match_a_fresh_rules_object():
    """Play the practice game a while with one rules object; at every
    decision a rules object that has seen nothing lists the same choices
    (the buy and place options come from the remembered placements)."""
    scn = practice_scenario()
    rules = AvdRules(scn, {})
    st = rules.initial_state()
    rng = SeededRng(9)
    kinds = set()
    for _ in range(150):
        d = rules.pending(st)
        if d is None:
            break
        assert AvdRules(scn, {}).pending(copy.deepcopy(st)) == d
        kinds.add(d.kind)
        st, _ = rules.apply(st, d.side, _first_answer(rules, st, d), rng)
    assert {"chits", "move", "combat", "buy"} <= kinds


def _first_answer(rules, st, d):
    if d.private:
        return rules.private_answer(st, d)
    o = rules.standing_answer(st, d, {"relocate-voluntary": "none", "disband": "none"})
    if o is None:
        first = next((x for x in d.options if "UNIT" not in x and "HQ HEX" not in x), "pass")
        o = rules.parse(first, st, d.side)
        o = rules.fill_secrets(st, d.side, o, lambda: b"")
    return o
