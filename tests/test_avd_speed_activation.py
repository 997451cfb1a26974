"""Command (rule 7) worked out from per-scenario unit sets changes no
answer: on positions of the practice set-up whose units move a few at a
time, ``hq_activation`` wakes what the plain reading of 7.3.2-7.3.6 wakes
(hex distance to every HQ, unit by unit; in the same order), and the
Panzer Group lists are those of every unit's spec read in turn."""
from __future__ import annotations

import pytest

from pbem.games.avd import activation
from pbem.games.avd.board import Board
from supplyhelp import walk


def _plain_hq_activation(b: Board, hq: str) -> tuple[set[str], set[str]]:
    side, at0 = b.side_of(hq), b.hex_of(hq)
    assert at0 is not None
    hqs = {hq}
    for h, uids in b.hexes_and_units():
        for u in uids:
            if u in b.scn.units and b.side_of(u) == side and b.is_hq(u) \
                    and b.distance(at0, h) <= b.spec(hq).command_range:
                hqs.add(u)
    reach = [(b.hex_of(h), b.spec(h).command_range) for h in hqs if b.hex_of(h) is not None]
    units = {u for u in b.units_of(side) if b.is_combat(u) and not activation.is_panzer_motorized(b, u)
             and any(b.distance(at, b.hex_of(u) or "") <= cr for at, cr in reach)}
    return hqs, units


@pytest.mark.parametrize("seed", [31, 32, 33])
def test_hq_activation_wakes_what_the_rule_wakes(seed):
    for rules, st_ in walk(seed, 20):
        b = rules.board(st_)
        for u, s in rules.scn.units.items():
            if s.kind == "hq" and b.on_map(u):
                got, want = activation.hq_activation(b, u), _plain_hq_activation(b, u)
                assert got == want and list(got[0]) == list(want[0])


@pytest.mark.parametrize("seed", [34, 35])
def test_panzer_lists_are_every_spec_read_in_turn(seed):
    for rules, st_ in walk(seed, 20):
        b = Board(rules.scn, st_)
        motorized = [u for u in rules.scn.units if activation.is_panzer_motorized(b, u) and b.on_map(u)]
        for group in ("2PzG", "3PzG", "none"):
            want: list[str] = []
            for u in motorized:
                c = rules.scn.units[u].corps
                if rules.scn.units[u].formation == group and c and c not in want:
                    want.append(c)
            assert activation.panzer_corps(b, group) == want
        for corps in {s.corps for s in rules.scn.units.values()} | {"", "none"}:
            assert activation.corps_members(b, corps) == [u for u in motorized if rules.scn.units[u].corps == corps]
