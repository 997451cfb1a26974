"""12.4: an HQ stacked with attacking units when the combat began may
advance with them.  "With them" is read as for the retreat (12.3): the HQ
ends in a hex where one of those units ended its advance, never alone in a
hex it only passed through."""
from __future__ import annotations

from avdpositions import position
from fakedice import ScriptedDice


def _advance(st, d, text):
    from avdpositions import RULES
    st, _ = RULES.apply(st, d.side, RULES.parse(text, st, d.side), ScriptedDice())
    return st, RULES.pending(st)


def _hq_options(d) -> list[str]:
    return [o for o in d.options if o.startswith("advance 9thArmy") or o.startswith("advance 9A")]


def test_12_4_the_hq_ends_where_a_stack_mate_ended_not_on_its_way():
    from avdpositions import RULES
    st, d, _ = position("advance")
    t = st["stack"][-1]["hex"]
    two = next(o for o in d.options if o.startswith("advance 3Pz ") and len(o.split()) == 4)
    second = two.split()[-1]
    assert not _hq_options(d)                             # nobody has advanced yet
    st, d = _advance(st, d, two)                          # 3 Pz goes through the attacked hex to a second
    hq = _hq_options(d)
    assert hq, d.options
    ends = {o.split()[-1] for o in hq}
    assert ends == {second}                               # not the attacked hex, where nobody stands
    assert all(o.split()[2] == t for o in hq)             # along the way 3 Pz went
    # once 4 Pz stops in the attacked hex, the HQ may stop there too
    st, d = _advance(st, d, f"advance 4Pz {t}")
    assert {o.split()[-1] for o in _hq_options(d)} == {t, second}
    # and wherever it goes, a stack-mate is there at the end
    for o in _hq_options(d):
        st2, _ = _advance(__import__("copy").deepcopy(st), d, o)
        b = RULES.board(st2)
        here = b.hex_of("G-9A-HQ")
        assert any(b.is_combat(u) for u in b.units_at(here)), o
