"""Moscow '41 fog of war through the exchange engine (issue 8): a misstated
hidden state is caught at the audit, the secret stream gives the same draw
to every re-run of the owner's program, and an exchange's file reads the
same length whichever block a secret change chose (7.1 H2, H5)."""
from __future__ import annotations

import enginehelp
import pytest

from pbem import cycle
from pbem.games.m41.rules import M41Rules
from pbem.game import probe
from pbem.protocol import gamefile
from m41help import PRACTICE, one_exchange, start


def _until(gf, ids, kind, limit=80):
    """Play the scripted bots until the sender's first decision is ``kind``."""
    for _ in range(limit):
        m = cycle.replay(gf, PRACTICE)
        side = m.next_sender()
        t = cycle.Turn(cycle.replay(gf, PRACTICE, ids[side]), ids[side])
        d = t.pending()
        if d is not None and d.kind == kind:
            return gf, side
        gf, _ = one_exchange(gf, PRACTICE, ids)
    raise AssertionError(f"no {kind} decision reached")


def _turn(gf, ids, side):
    return cycle.Turn(cycle.replay(gf, PRACTICE, ids[side]), ids[side])


def test_issue8_a_root_committing_a_strength_the_block_does_not_have_is_caught_at_the_audit(monkeypatch):
    """The German's program commits one block one step stronger than it is
    (a regeneration it never paid for): nothing live can see it; the audit,
    holding both seeds and hidden parts, recomputes the root and refuses it."""
    honest = M41Rules.hidden_items

    def inflated(self, state, seat):
        items = honest(self, state, seat)
        if seat == "german" and items:
            tok = sorted(items)[0]
            items[tok] = dict(items[tok], strength=items[tok]["strength"] + 1)
        return items
    gf, ids = start()
    gf, _ = one_exchange(gf, PRACTICE, ids)                        # soviet set-up
    with monkeypatch.context() as mp:
        mp.setattr(M41Rules, "hidden_items", inflated)
        gf, side = one_exchange(gf, PRACTICE, ids)                 # the german set-up and impulse, misstated
        assert side == "german"
        cycle.replay(gf, PRACTICE, ids["soviet"])                  # the opponent's program cannot tell
        while not cycle.replay(gf, PRACTICE).over():               # then the next seat free to order resigns
            side = cycle.replay(gf, PRACTICE).next_sender()
            t = _turn(gf, ids, side)
            if not t.done:
                t.push("resign")
            gf = gamefile.GameFile(gf.exchanges + [t.finish()])
        gf = enginehelp.disclose_all(gf, PRACTICE, ids)
    with pytest.raises(cycle.Verification, match="german's commit .* differs from the replay "
                                                 r"\(the hidden state was misstated\)"):
        cycle.replay(gf, PRACTICE, None, audit=True)


def test_issue8_a_fresh_turn_on_the_same_file_draws_the_same_blocks():
    gf, ids = start()
    gf, side = _until(gf, ids, "logistics")
    drawn = []
    for _ in range(2):
        t = _turn(gf, ids, side)
        t.push("logistics activate")
        state = t.es["game"]
        toks = (state.get("reinforcing") or {}).get("tokens", [])
        drawn.append({tok: state["hidden"][side]["blocks"][tok] for tok in toks})
    assert drawn[0] and drawn[0] == drawn[1]


def test_7_1_H5_a_rebuild_reads_the_same_length_in_the_file_whichever_block_it_chose():
    gf, ids = start()
    gf, side = _until(gf, ids, "logistics")
    t = _turn(gf, ids, side)
    state = t.es["game"]
    mine = state["hidden"][side]["blocks"]
    rules = t.m.rules
    tries = [f"logistics activate; regen {tok} 1" for tok in sorted(mine)] + \
            [f"logistics activate; replace {tok} 1" for tok in sorted(mine)]
    legal = [text for text in tries if probe(rules, state, side, rules.parse(text, state, side)) is None]
    assert len(legal) >= 2
    sizes, files = set(), []
    for text in legal[:2]:
        t = _turn(gf, ids, side)
        t.push(text)
        while not t.done:
            t.push(rules.demo_order(t.es["game"], t.pending()))
        new = gamefile.GameFile(gf.exchanges + [t.finish()])
        files.append(new)
        sizes.add(len(new.to_toml()))
    assert len(sizes) == 1
    orders = [[e["order"] for e in f.exchanges[-1]["orders"]] for f in files]
    assert orders[0] == orders[1]                      # the public orders are the same bytes
    for f in files:                                   # ... and both re-commit through one root
        assert len(f.exchanges[-1]["hidden_root"]) == 64
