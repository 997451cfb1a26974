"""Moscow '41 fog of war against a doctored program (issue 8): what the
core's checks of an opening refuse live, in one line, and what tokens and
public orders do not tell (7.1 H2-H5)."""
from __future__ import annotations

import copy

import pytest

from pbem.cycle import hidden
from pbem.game import IllegalOrder, public
from pbem.protocol.canon import canonical
from m41help import RULES, FakeRng, begin, empty_board, german_everywhere, put, started


def _es(state):
    return {"game": state, "opened": {"german": {}, "soviet": {}}, "hidden_roots": {"german": "", "soviet": ""}}


def _forged(state, side, handle, value):
    """An order showing ``handle`` as ``value``, with a root the forger built
    to match (as a doctored program would)."""
    from pbem.protocol.secret import HiddenTree
    items = dict(RULES.hidden_items(state, side), **{handle: value})
    t = HiddenTree(bytes(32), 7, items, RULES.hidden_width)
    return {"verb": "reveal", "open": [handle], "hidden_root": t.root, "hidden_epoch": 7,
            "openings": [t.opening(handle)]}


def test_1_5_handles_carry_nothing_two_secret_streams_two_deals_one_public_state():
    a, b = started(1), started(2)
    assert canonical(public(a)) == canonical(public(b))
    deal = {s: {t: e["block"] for t, e in st["hidden"]["german"]["blocks"].items()} for s, st in (("a", a), ("b", b))}
    assert deal["a"] != deal["b"]
    # and the public state after set-up holds no placement index, only each token's public spot
    assert "setup_slots" not in a and all("|" in k for k in a["setup_group"].values())


def test_check_opening_refuses_in_one_line_a_strength_above_the_maximum_and_a_wrong_set_up_type():
    state = started()
    tok = next(t for t, e in sorted(state["hidden"]["german"]["blocks"].items())
               if e["block"] != "G-4Pg-HQ" and state["tokens"][t]["area"] != "Pskov")
    e = state["hidden"]["german"]["blocks"][tok]
    for value, why in (({"block": e["block"], "strength": 9}, "has no strength 9"),
                       ({"block": "S-16A", "strength": 3}, "is not a german block"),
                       ({"block": "G-4Pg-HQ", "strength": 4}, "cannot stand on the set-up spot")):
        with pytest.raises(IllegalOrder, match=f"^german's {tok}: .*{why}") as exc:
            hidden.check_openings(RULES, _es(state), "german", _forged(state, "german", tok, value), None)
        assert "\n" not in str(exc.value)


def test_an_opening_that_does_not_match_the_root_is_refused_live():
    state = started()
    tok = sorted(state["hidden"]["german"]["blocks"])[0]
    order = _forged(state, "german", tok, state["hidden"]["german"]["blocks"][tok])
    order["openings"][0]["value"] = dict(order["openings"][0]["value"], strength=1)
    with pytest.raises(IllegalOrder, match=f"german's {tok}: the opening does not match the committed hidden state"):
        hidden.check_openings(RULES, _es(state), "german", order, None)


def test_the_same_block_shown_under_two_tokens_is_refused_live():
    state = empty_board()
    german_everywhere(state, "22")
    s1 = put(state, "soviet", "S-16A", "22", strength=3)
    s2 = put(state, "soviet", "S-13A", "22", strength=3)
    es = _es(state)
    hidden.check_openings(RULES, es, "soviet", _forged(state, "soviet", s1, {"block": "S-16A", "strength": 3}),
                          None)()
    with pytest.raises(IllegalOrder, match=f"{s2} shows S-16A, already shown as {s1}"):
        hidden.check_openings(RULES, es, "soviet", _forged(state, "soviet", s2, {"block": "S-16A", "strength": 3}),
                              None)


def _public_bytes(order):
    return canonical({k: v for k, v in order.items() if k != "secret"})


def test_7_1_a_rebuild_and_a_dl_build_read_the_same_whichever_block():
    state = empty_board()
    german_everywhere(state)
    hq = put(state, "german", "G-2Pg-HQ", "9", strength=2)
    inf = put(state, "german", "G-5K", "8", strength=1)
    state["phase"], state["logistics_queue"] = "logistics", ["german"]
    orders = [RULES.fill_secrets(state, "german", RULES.parse(f"logistics activate; {text}", state, "german"), None)
              for text in (f"regen {hq} 1", f"replace {inf} 1")]
    assert _public_bytes(orders[0]) == _public_bytes(orders[1])
    state = empty_board()
    german_everywhere(state)
    a, b = put(state, "german", "G-5K", "8", strength=3), put(state, "german", "G-24PzK", "8", strength=3)
    begin(state, "german")
    orders = [RULES.fill_secrets(state, "german", RULES.parse(f"pass; dl {t}", state, "german"), None) for t in (a, b)]
    assert _public_bytes(orders[0]) == _public_bytes(orders[1]) and b"dl_in" in _public_bytes(orders[0])


def test_5_0_a_reinforcement_draw_leaves_the_same_public_state_whatever_was_drawn():
    state = empty_board()
    german_everywhere(state)
    state["hidden"]["german"]["pool"], state["pool_count"]["german"] = ["G-35K", "G-6K", "G-9K"], 3
    begin(state, "german")
    outs = []
    for seed in range(6):
        order = RULES.fill_secrets(state, "german", RULES.parse("si B; draw 1", state, "german"), None)
        after, _ = RULES.apply(copy.deepcopy(state), "german", order, FakeRng(seed))
        outs.append(after)
    assert len({canonical(public(o)) for o in outs}) == 1
    assert len({next(e["block"] for t, e in o["hidden"]["german"]["blocks"].items() if t not in state["tokens"])
                for o in outs}) > 1
    d = RULES.pending(outs[0])
    assert d.kind == "reinforce" and d.options[0].startswith("reinforce ")


def test_9_3_an_isolation_loss_reads_the_same_whichever_blocks_lost_the_step():
    outs = []
    for blocks in (("G-5K", "G-24PzK"), ("G-2Pg-HQ", "G-47PzK")):
        state = empty_board()
        german_everywhere(state)
        toks = [put(state, "german", b, "8", strength=3) for b in blocks]
        for t in toks:
            state["tokens"][t]["cube"] = True
        state["phase"], state["active"] = "attrition", "german"
        state["combat"] = {"queue": [], "newly": [], "artillery": {}, "pass": True}
        d = RULES.pending(state)
        order = RULES.fill_secrets(state, "german", RULES.private_answer(state, d), None)
        after, _ = RULES.apply(copy.deepcopy(state), "german", order, FakeRng(0))
        blind = copy.deepcopy(state)
        blind["hidden"]["german"] = None
        seen, _ = RULES.apply(blind, "german", _public_order(order), FakeRng(0, blind=("german",)))
        assert canonical(public(seen)) == canonical(public(after))
        assert [after["hidden"]["german"]["blocks"][t]["strength"] for t in toks] == [2, 2]
        outs.append((_public_bytes(order), canonical(public(after))))
    assert outs[0] == outs[1]


def _public_order(order):
    return {k: v for k, v in order.items() if k != "secret"}


def test_5_0_the_draw_applies_blind_as_a_count_and_new_tokens():
    state = empty_board()
    german_everywhere(state)
    state["hidden"]["german"]["pool"], state["pool_count"]["german"] = ["G-35K", "G-6K"], 2
    begin(state, "german")
    order = RULES.fill_secrets(state, "german", RULES.parse("si B; draw 2", state, "german"), None)
    full, _ = RULES.apply(copy.deepcopy(state), "german", order, FakeRng(3))
    blind = copy.deepcopy(state)
    blind["hidden"]["german"] = None
    blind, _ = RULES.apply(blind, "german", _public_order(order), FakeRng(3, blind=("german",)))
    assert canonical(public(blind)) == canonical(public(full))
    assert blind["pool_count"]["german"] == 0 and len(blind["reinforcing"]["tokens"]) == 2
    assert RULES.pending(blind).options == ("reinforce TOK AREA ...",)       # the blind program lists nothing
    assert all(t in full["hidden"]["german"]["blocks"] for t in full["reinforcing"]["tokens"])
