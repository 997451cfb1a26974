"""9.3.1: each attacking unit adds its strength once.  A unit named twice in
an attack must not count twice, and the same holds for every order that
names units, hexes or chits: the rules themselves (apply, not only the
parser) refuse a name repeated, missing, unknown or of the wrong side, in
one line, and never fail with another exception."""
from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.game import IllegalOrder
from pbem.games.avd import combat
from avdpositions import POSITIONS, RULES, position, refused
from avd_fixtures import battle_setup
from fakedice import ScriptedDice
from avd_fixtures import practice_rules, put


def _one_line(msg: str | None) -> bool:
    return bool(msg) and "\n" not in msg


# ------------------------------------------------------------- the examples
def test_9_3_1_an_attacker_named_twice_is_refused_by_apply_not_counted_twice():
    rules = practice_rules()
    st, a, t = battle_setup(rules, "G-20Mot", "S-45C", "german")
    # 20Mot alone: 4 against 3 is 1-1; named twice it would read 8:3, 2-1
    assert rules.query(st, "german", f"odds {t} with 20Mot").splitlines()[0].endswith("1-1")
    order = {"verb": "attack", "hex": t, "units": ["G-20Mot", "G-20Mot"], "stuka": False}
    with pytest.raises(IllegalOrder, match="named twice") as exc:
        rules.apply(copy.deepcopy(st), "german", order, ScriptedDice(rolls=[(6, 1)]))
    assert "\n" not in str(exc.value)
    with pytest.raises(IllegalOrder, match="named twice"):
        rules.parse(f"attack {t} with 20Mot 20Mot", st, "german")
    b = rules.board(st)
    assert "twice" in (combat.can_attack(b, ["G-20Mot", "G-20Mot"], t, []) or "")


def test_9_3_6_a_repeated_name_cannot_lift_an_attack_below_1_1():
    rules = practice_rules()
    st, a, t = battle_setup(rules, "S-45C", "G-3Pz", "soviet")
    put(st, "G-26ID", t)
    st["stukas_ready"] = 0
    b = rules.board(st)
    d = b.defense("G-3Pz") + b.defense("G-26ID")
    assert b.attack("S-45C") < d <= 2 * b.attack("S-45C")        # 3 against 5 alone; 6 against 5 named twice
    with pytest.raises(IllegalOrder):
        rules.apply(copy.deepcopy(st), "soviet", {"verb": "attack", "hex": t, "units": ["S-45C"]}, ScriptedDice())
    with pytest.raises(IllegalOrder, match="named twice"):
        rules.apply(copy.deepcopy(st), "soviet", {"verb": "attack", "hex": t, "units": ["S-45C", "S-45C"]},
                    ScriptedDice(rolls=[(10, 1)]))


@pytest.mark.parametrize("kind, text", [
    ("loss", "loss 45Corps 1 45Corps 1"),
    ("disband", "disband 172ID 172ID"),
    ("withdraw", "withdraw 10Mot 10Pz 12Pz 14Mot 14Mot"),
    ("oos", "oos 10Mot 10Mot"),
    ("stars", "stars CavGr CavGr Kalin"),
    ("release", "release 161ID 161ID"),
    ("seed", "seed 12Pz 12Pz 14Mot"),
    ("add9a", "add-chit G-9A-1 G-9A-1"),
    ("chits", "chits G-3PzG-1 G-2PzG-1 G-2PzG-1 G-3PzG-2 G-Guderian"),
    ("chits", "chits G-3PzG-1 G-2PzG-1 G-2PzG-2 G-Guderian G-Guderian"),
    ("air", "air bomber 1621 bomber 1715"),
    ("air", "air recover recover"),
])
def test_a_name_typed_twice_is_refused_in_one_line(kind, text):
    st, d, _ = position(kind)
    with pytest.raises(IllegalOrder) as exc:
        RULES.parse(text, st, d.side)
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize("kind, order", [
    ("disband", {"verb": "disband", "units": ["S-172ID", "S-172ID"]}),
    ("withdraw", {"verb": "withdraw", "units": ["G-10Mot", "G-10Pz", "G-12Pz", "G-14Mot", "G-14Mot"]}),
    ("add9a", {"verb": "add-chit", "chits": ["G-9A-1", "G-9A-1"]}),
    ("move", {"verb": "move", "unit": "G-26ID", "path": []}),
    ("air", {"verb": "air", "recover": False, "bomber": None}),
])
def test_apply_refuses_what_the_parser_never_builds(kind, order):
    """Orders reach apply from files and programs, not only through parse."""
    st, d, _ = position(kind)
    assert _one_line(refused(st, d.side, order))


def test_a_move_must_enter_a_hex():
    st, d, order = position("move")
    start = order["path"][0]
    assert _one_line(refused(st, d.side, dict(order, path=[start])))


# ------------------------------------------------------------ the property
KINDS = sorted(POSITIONS)
MUTATIONS = ("repeat", "absent", "foreign", "other-side", "garbled")
_UNIT_KEYS = ("units", "unit", "steps", "chits")
_HEX_KEYS = ("hex", "path", "bomber")
_REQUIRED_ABSENT = {"retreat": ("path",), "release": ("units",), "air": ("bomber",)}


def _other_side_unit(uid: str, rnd: random.Random) -> str:
    side = RULES.scn.units[uid].side
    pool = sorted(u for u, s in RULES.scn.units.items() if s.side != side)
    return rnd.choice(pool)


def _other_side_chit(cid: str, rnd: random.Random) -> str:
    side = RULES.scn.chits[cid].side
    pool = sorted(c for c, s in RULES.scn.chits.items() if s.side not in (side, "both", None))
    return rnd.choice(pool)


def _fields(order: dict) -> list[tuple[str, str]]:
    """(key, kind) of every name the order carries: kind 'unit', 'chit' or 'hex'."""
    out = []
    for k in _UNIT_KEYS:
        if order.get(k):
            out.append((k, "chit" if k == "chits" else "unit"))
    if order.get("secret", {}).get("chits"):
        out.append(("secret", "chit"))
    for k in _HEX_KEYS:
        if order.get(k):
            out.append((k, "hex"))
    return out


def mutate(order: dict, how: str, rnd: random.Random) -> dict | None:
    """``order`` with one of its names repeated, removed, replaced by one
    that does not exist or by one of the other side, or garbled; None when
    the mutation does not apply to this order."""
    order = copy.deepcopy(order)
    fields = _fields(order)
    if how == "absent":
        keys = [k for k, _ in fields if k not in ("unit",) or order["verb"] != "retreat"]
        keys = [k for k in keys if k in _REQUIRED_ABSENT.get(order["verb"], (k,))]
        if not keys:
            return None
        k = rnd.choice(keys)
        if k == "secret":
            order["secret"]["chits"] = order["secret"]["chits"][:-1]
        else:
            choice = rnd.randrange(3)
            if choice == 0:
                del order[k]
            elif choice == 1:
                order[k] = None
            else:
                order[k] = type(order[k])()
        return order
    if how == "garbled":
        if not fields:
            return None
        k, _ = rnd.choice(fields)
        order[k] = rnd.choice([7, ["x", 7], {"x": "y"}, True, "", 2.5])
        return order
    if how == "other-side":
        fields = [(k, kind) for k, kind in fields if kind != "hex"]
    if how == "repeat":
        fields = [(k, kind) for k, kind in fields if k in ("units", "chits", "secret", "path")]
    if not fields:
        return None
    k, kind = rnd.choice(fields)
    holder, key = (order["secret"], "chits") if k == "secret" else (order, k)
    value = holder[key]
    if isinstance(value, str):
        names, single = [value], True
    elif isinstance(value, dict):
        names, single = list(value), False
    else:
        names, single = list(value), False
    i = rnd.randrange(len(names))
    if how == "repeat":
        names.insert(i + 1, names[i])          # next to itself: a path never steps in place
    elif how == "foreign":
        names[i] = {"unit": "X-NOSUCH", "chit": "NO-CHIT", "hex": "9999"}[kind]
    else:
        names[i] = _other_side_unit(names[i], rnd) if kind == "unit" else _other_side_chit(names[i], rnd)
    if single:
        holder[key] = names[0]
    elif isinstance(value, dict):
        holder[key] = {n: value.get(n, 1) for n in names} if how != "foreign" else \
            {n: v for n, v in zip(names, value.values())}
    else:
        holder[key] = names
    return order


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(KINDS), how=st.sampled_from(MUTATIONS), seed=st.integers(0, 10 ** 6))
def test_every_order_kind_refuses_a_name_repeated_absent_foreign_or_of_the_other_side(kind, how, seed):
    st_, d, order = position(kind)
    bad = mutate(order, how, random.Random(seed))
    if bad is None:
        return
    msg = refused(st_, d.side, bad)
    assert _one_line(msg), f"{kind} {how}: {bad} was accepted"


def test_the_mutations_reach_every_order_kind():
    """Each position's order carries a name each mutation can work on."""
    for kind in KINDS:
        _, _, order = position(kind)
        got = {how for how in MUTATIONS for s in range(30) if mutate(order, how, random.Random(s)) is not None}
        assert {"absent", "foreign", "garbled"} <= got, kind


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 10 ** 6))
def test_typed_orders_with_a_word_repeated_are_refused_or_legal_never_crash(kind, seed):
    """The typed form: repeating a word of a listed order is either read as
    a legal order or refused in one line."""
    st_, d, order = position(kind)
    if d.private:
        return
    text = RULES.format(order)
    words = text.split()
    rnd = random.Random(seed)
    i = rnd.randrange(1, len(words))
    words.insert(i, words[i])
    try:
        parsed = RULES.parse(" ".join(words), copy.deepcopy(st_), d.side)
    except IllegalOrder as exc:
        assert "\n" not in str(exc)
        return
    msg = refused(st_, d.side, parsed)
    assert msg is None or "\n" not in msg


@pytest.mark.parametrize("how", MUTATIONS)
@pytest.mark.parametrize("kind", KINDS)
def test_each_order_kind_and_mutation_in_turn(kind, how):
    """The same property swept: every kind with every mutation, a few
    random choices each."""
    st_, d, order = position(kind)
    for seed in range(8):
        bad = mutate(order, how, random.Random(seed))
        if bad is None:
            continue
        assert _one_line(refused(st_, d.side, bad)), f"{kind} {how}: {bad} was accepted"
