"""Moscow '41 fog of war against a doctored program (issue 8): what the
core's checks of an opening refuse live, in one line, and what tokens and
public orders do not tell (7.1 H2-H5)."""
from __future__ import annotations

import copy

import pytest

from pbem.cycle import hidden
from pbem.game import IllegalOrder, public
from pbem.protocol.canon import canonical
from test_m41_rules import RULES, FakeRng, begin, empty_board, german_everywhere, play, put, started


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
    tok = sorted(state["hidden"]["german"]["blocks"])[0]
    e = state["hidden"]["german"]["blocks"][tok]
    for value, why in (({"block": e["block"], "strength": 9}, "has no strength 9"),
                       ({"block": "S-16A", "strength": 3}, "is not a german block"),
                       ({"block": "G-4Pg-HQ", "strength": 4}, "cannot stand on the set-up spot")):
        if value["block"] == e["block"] or value["block"] != "G-4Pg-HQ" or e["block"] != "G-4Pg-HQ":
            with pytest.raises(IllegalOrder, match=why) as exc:
                hidden.check_openings(RULES, _es(state), "german", _forged(state, "german", tok, value), None)
            assert "\n" not in str(exc.value)


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


def test_attrition_and_the_draw_apply_blind_to_the_same_public_state():
    state = empty_board()
    german_everywhere(state)
    state["hidden"]["german"]["pool"], state["pool_count"]["german"] = ["G-35K", "G-6K"], 2
    begin(state, "german")
    full, _ = play(state, "german", RULES.parse("si B; draw 2", state, "german"), FakeRng(3))
    blind = copy.deepcopy(state)
    blind["hidden"]["german"] = None
    order = RULES.fill_secrets(state, "german", RULES.parse("si B; draw 2", state, "german"), None)
    blind, _ = RULES.apply(blind, "german", {k: v for k, v in order.items() if k != "secret"},
                           FakeRng(3, blind=("german",)))
    d = RULES.pending(full)
    assert RULES.pending(blind).kind == "reinforce" and d.kind != "reinforce"
