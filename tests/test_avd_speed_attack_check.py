"""The Combat Segment's attack check keeps the attacks it found legal
(AvdRules._can_attack, speed only): at every combat decision of scripted
practice games, for every hex next to a unit of the side that attacks, the
kept answer is combat.can_attack's for the adjacent units in several orders
and subsets, asked twice, whatever the units' flags."""
from __future__ import annotations

import itertools

import pytest

from pbem.games.avd import combat
from avd_fixtures import SeededRng, bot_order, practice_rules


def _trials(b, side):
    """(hex, attackers) pairs: each hex next to a unit of ``side``, with its
    neighbours of either side in a few orders and subsets."""
    for u in b.units_of(side)[:12]:
        at = b.hex_of(u)
        for h in b.grid.neighbors(at):
            near = sorted(x for n in b.grid.neighbors(h) for x in b.units_at(n))[:4]
            for n in range(1, len(near) + 1):
                for group in itertools.islice(itertools.permutations(near, n), 6):
                    yield h, list(group)
            yield h, [u, u]


@pytest.mark.parametrize("seed", [3, 11])
def test_kept_attack_checks_answer_as_can_attack(seed):
    rules = practice_rules()
    st, rng = rules.initial_state(), SeededRng(seed)
    asked = legal = 0
    while (d := rules.pending(st)) is not None and asked < 6000:
        if d.kind == "combat":
            b = rules.board(st)
            for h, group in _trials(b, d.side):
                want = combat.can_attack(b, group, h, st["attacked_hexes"])
                assert rules._can_attack(st, b, group, h) == want
                assert rules._can_attack(st, b, list(reversed(group)), h) == \
                    combat.can_attack(b, list(reversed(group)), h, st["attacked_hexes"])
                assert rules._can_attack(st, b, group, h) == want
                asked += 1
                legal += want is None
        st, _ = rules.apply(st, d.side, bot_order(rules, st, d, rng), rng)
    assert asked > 200 and legal > 10
