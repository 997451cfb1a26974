"""Moscow '41: an order that names a block, HQ, token or area twice, or one
that does not exist, or one of the other side, is refused in one line by the
rules check itself (apply), not only by the parser (issue 9, item 1).  A
block named twice would otherwise act or count twice (10.7: one action per
block)."""
from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from pbem.game import IllegalOrder
from pbem.games.m41 import mechanics as mx
from m41help import RULES, SC, FakeRng, begin, empty_board, german_everywhere, put, salts

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _german_board():
    state = empty_board()
    german_everywhere(state, "14", "20")
    t = {"hq": put(state, "german", "G-2Pg-HQ", "9"), "tank": put(state, "german", "G-24PzK", "9"),
         "inf": put(state, "german", "G-5K", "9"), "fk": put(state, "german", "G-2FK", "9"),
         "enemy": put(state, "soviet", "S-13A", "14"), "eng": put(state, "german", "G-6K", "14")}
    state["dl"].update({"2": "german", "20": "soviet"})
    state["initiative"] = "german"
    begin(state, "german")
    return state, t


def _logistics(side="german"):
    state, t = _german_board()
    state["phase"] = "logistics"
    state["logistics_queue"] = [side]
    return state, t


def _soviet_si_b():
    state = empty_board(side="soviet")
    for a in state["control"]:
        state["control"][a] = "soviet"
    state["control"]["13"] = "german"                      # a German-held City: not a Soviet entry area
    state["initiative"] = "soviet"
    put(state, "soviet", "S-16A", "40")
    enemy = put(state, "german", "G-5K", "13")
    begin(state, "soviet")
    return state, {"enemy": enemy}


def attempt(state, side, text):
    """Parse, fill the secret part and apply ``text`` as ``side``'s own
    program would; the refusal's text, or None when it stands."""
    try:
        order = RULES.parse(text, state, side)
        order = RULES.fill_secrets(state, side, order, salts(text))
        RULES.apply(copy.deepcopy(state), side, order, FakeRng(0))
    except IllegalOrder as e:
        assert "\n" not in str(e)
        return str(e)
    return None


def _lv(state, side="german"):
    return mx.logistics_value(state, SC, side)


#: kind -> (fixture, side, names a legal order uses, the order's text from its names, the foreign names)
KINDS = {
    "pass move": (_german_board, "german", lambda t, s: [t["tank"]],
                  lambda ns, t, s: "pass; " + "; ".join(f"move {n} 3" for n in ns)),
    "si move": (_german_board, "german", lambda t, s: [t["tank"], t["inf"]],
                lambda ns, t, s: f"si A lv {_lv(s)}; " + "; ".join(f"move {n} 3" for n in ns)),
    "pass dl": (_german_board, "german", lambda t, s: [t["inf"]],
                lambda ns, t, s: "pass; " + "; ".join(f"dl {n}" for n in ns)),
    "activate": (_german_board, "german", lambda t, s: [t["hq"]],
                 lambda ns, t, s: "ti; " + "; ".join(f"activate {n}" for n in ns)),
    "ti move": (_german_board, "german", lambda t, s: [t["tank"], t["inf"]],
                lambda ns, t, s: f"ti; activate {t['hq']}; " + "; ".join(f"move {n} 8" for n in ns)),
    "artillery": (_german_board, "german", lambda t, s: [t["hq"]],
                  lambda ns, t, s: f"ti; activate {t['hq']}; move {t['tank']} 14; "
                                   + "; ".join(f"art {n} 14" for n in ns) + "; fight 14"),
    "airstrike": (_german_board, "german", lambda t, s: [t["fk"]],
                  lambda ns, t, s: f"ti; activate {t['hq']}; activate {t['fk']}; move {t['tank']} 14; "
                                   + "; ".join(f"air {n} 14 he111 1" for n in ns) + "; fight 14"),
    "fight": (_german_board, "german", lambda t, s: ["14"],
              lambda ns, t, s: f"ti; activate {t['hq']}; fight " + " ".join(ns)),
    "disband": (_german_board, "german", lambda t, s: ["2"], lambda ns, t, s: "pass; disband " + " ".join(ns)),
    "regen": (_logistics, "german", lambda t, s: [t["hq"]],
              lambda ns, t, s: f"logistics activate lv {_lv(s)}; " + "; ".join(f"regen {n} 1" for n in ns)),
    "replace": (_logistics, "german", lambda t, s: [t["inf"]],
                lambda ns, t, s: f"logistics activate lv {_lv(s)}; " + "; ".join(f"replace {n} 1" for n in ns)),
}
#: names of the other side (or areas where the side has nothing) for each kind
FOREIGN = {"fight": lambda t: "8", "disband": lambda t: "20", "reinforce": lambda t: "13"}
ABSENT = {"fight": "999", "disband": "999", "reinforce": "999"}


def _setup(kind):
    fixture, side, names, text = KINDS[kind]
    state, toks = fixture()
    if kind == "regen":
        state["hidden"]["german"]["blocks"][toks["hq"]]["strength"] = 3
    if kind == "replace":
        state["hidden"]["german"]["blocks"][toks["inf"]]["strength"] = 2
    return state, toks, side, names(toks, state), text


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_order_kind_stands_with_its_names_once(kind):
    state, toks, side, names, text = _setup(kind)
    assert attempt(state, side, text(names, toks, state)) is None


@SETTINGS
@given(kind=st.sampled_from(sorted(KINDS)), fault=st.sampled_from(["repeated", "absent", "foreign"]),
       at=st.integers(0, 5))
def test_property_a_name_repeated_absent_or_foreign_is_refused_in_apply(kind, fault, at):
    state, toks, side, names, text = _setup(kind)
    i = at % len(names)
    if fault == "repeated":
        bad = names[:i + 1] + names[i:]
    elif fault == "absent":
        bad = names[:i] + [ABSENT.get(kind, "G99" if side == "german" else "S99")] + names[i + 1:]
    else:
        bad = names[:i] + [FOREIGN.get(kind, lambda t: t["enemy"])(toks)] + names[i + 1:]
    why = attempt(state, side, text(bad, toks, state))
    assert why is not None, f"{kind}: {text(bad, toks, state)!r} was accepted"


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_apply_refuses_a_repeated_name_even_when_the_parser_is_bypassed(kind):
    """The order dict as another program might send it: lists with a name
    twice, checked by the rules, not the notation."""
    state, toks, side, names, text = _setup(kind)
    order = RULES.parse(text(names, toks, state), state, side)
    for key in ("moves", "activate", "dl", "air", "fight", "disband"):
        if order.get(key):
            order[key] = order[key] + order[key][-1:]
            break
    else:
        if kind == "reinforce":
            order["reinforce"] = ["33", "33"]
        else:
            pytest.skip("a table part: a name cannot stand twice in it (the parser refuses it)")
    with pytest.raises(IllegalOrder):
        RULES.apply(copy.deepcopy(state), side, RULES.fill_secrets(state, side, order, salts(kind)), FakeRng(0))


@pytest.mark.parametrize("text", ["logistics activate lv 3; regen G01 1; regen G01 2", "ti; art G01 14; art G01 13",
                                  "ti; air G01 14 he111 1 he111 2", "aa destroyed he111 1 he111 1",
                                  "setup; place G01 3; place G01 4", "setup; pick G01 G-DR; pick G01 G-GD",
                                  "logistics activate lv 3; replace G05 1; replace G05 1"])
def test_parser_refuses_a_name_twice_in_a_table_part(text):
    with pytest.raises(IllegalOrder, match="named twice"):
        RULES.parse(text, _german_board()[0], "german")


def test_rebuild_of_zero_or_negative_steps_is_refused():
    state, toks = _logistics()
    lv = _lv(state)
    assert "at least one step" in attempt(state, "german", f"logistics activate lv {lv}; regen {toks['hq']} 0")
    assert "at least one step" in attempt(state, "german", f"logistics activate lv {lv}; replace {toks['inf']} -1")


def test_reveal_and_losses_name_each_token_once():
    state, toks = _german_board()
    # a block shown twice (showdown, surrender) is refused by the core before the rules see it
    from pbem.cycle import hidden
    es = {"game": state, "opened": {"german": {}, "soviet": {}}, "hidden_roots": {"german": "", "soviet": ""}}
    for verb in ("reveal", "attrition"):
        with pytest.raises(IllegalOrder, match="distinct handles"):
            hidden.check_openings(RULES, es, "soviet", {"verb": verb, "open": [toks["enemy"]] * 2}, None)
    with pytest.raises(IllegalOrder, match="not a bomber"):
        RULES._check_names(state, "german", {"verb": "aa", "destroyed": {"ju88": 1}})
