"""A question agrees with the order it asks about: ``odds HEX with UNIT ...``
says an attack is illegal exactly when ``attack HEX with UNIT ...`` would be
refused, and why, from the one legality check both use (9.1, 9.3.6, 13.3)."""
from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.game import IllegalOrder
from pbem.games.avd import orders
from avdpositions import refused
from avd_fixtures import battle_setup
from avd_fixtures import frame, practice_rules, put

RULES = practice_rules()


def _refusal(st, side, text) -> str | None:
    """What the order says: its refusal, or None when it is accepted."""
    try:
        order = RULES.parse(text, copy.deepcopy(st), side)
    except IllegalOrder as exc:
        return str(exc)
    return refused(st, side, order)


def _verdict(answer: str) -> str | None:
    head = answer.splitlines()[0]
    return head.split("illegal - ", 1)[1] if "illegal - " in head else None


def test_9_1_odds_of_units_not_adjacent_and_a_stuka_not_there_is_illegal_and_says_why():
    st, a, t = battle_setup(RULES, "G-20Pz", "S-18C", "german")
    b = RULES.board(st)
    far = next(h for h in sorted(b.grid.within(t, 2)) if b.distance(h, t) == 2 and not b.units_at(h))
    put(st, "G-20Pz", far, active=True)
    put(st, "G-7Pz", far, active=True)
    st["stukas_ready"] = 0
    text = f"attack {t} with 20Pz 7Pz stuka"
    answer = RULES.query(st, "german", "odds " + text[len("attack "):])
    why = _refusal(st, "german", text)
    assert why and _verdict(answer) == why                  # was: an 8-1 column
    assert "adjacent" in why


def test_9_3_6_odds_below_1_1_says_illegal_like_the_order():
    st, a, t = battle_setup(RULES, "S-45C", "G-3Pz", "soviet")
    put(st, "G-26ID", t)
    text = f"attack {t} with 45Corps"
    why = _refusal(st, "soviet", text)
    assert why and "1-1" in why
    assert _verdict(RULES.query(st, "soviet", "odds " + text[len("attack "):])) == why


def test_legal_odds_still_show_the_column_and_shifts():
    st, a, t = battle_setup(RULES, "G-3Pz", "S-45C", "german", turn=1)
    answer = RULES.query(st, "german", f"odds {t} with 3Pz")
    assert _verdict(answer) is None and _refusal(st, "german", f"attack {t} with 3Pz") is None
    assert answer.splitlines()[-1].strip() == "-> 5-1" and "Turn 1: 2 right" in answer


# ------------------------------------------------------------ the property
def _front():
    """A practice position in a German Combat Segment: some German units
    activated, one already attacked, one hex already attacked."""
    st = RULES.initial_state()
    st["turn"] = 2
    b = RULES.board(st)
    german = sorted(u for u in b.units_of("german") if b.is_combat(u))
    soviet = sorted(u for u in b.units_of("soviet") if b.is_combat(u) and not b.spec(u).pvo)
    rnd = random.Random(5)
    for g, s in zip(german[::2], soviet):                 # bring the fronts into contact
        free = [n for n in b.grid.neighbors(b.hex_of(g)) if not b.units_at(n) and not b.in_minsk_pocket(n)]
        if free:
            put(st, s, rnd.choice(free))
            b = RULES.board(st)
    for u in german:
        st["units"][u]["active"] = rnd.random() < 0.7
    st["active"] = "german"
    st["stack"] = [frame("endturn"), frame("combat", special=False)]
    return st


FRONT = _front()
_B = RULES.board(FRONT)
_GERMANS = sorted(u for u in _B.units_of("german") if _B.is_combat(u))
_SOVIETS = sorted(u for u in _B.units_of("soviet") if _B.is_combat(u))
_TARGETS = sorted({n for u in _GERMANS for n in _B.grid.neighbors(_B.hex_of(u))})


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6), stukas=st.integers(0, 1), asker=st.sampled_from(["german", "soviet"]),
       stuka=st.booleans(), attacked=st.booleans())
def test_the_odds_question_is_illegal_iff_the_attack_order_is_refused(seed, stukas, asker, stuka, attacked):
    rnd = random.Random(seed)
    stt = copy.deepcopy(FRONT)
    stt["stukas_ready"] = stukas
    t = rnd.choice(_TARGETS)
    near = [u for u in _GERMANS if _B.distance(_B.hex_of(u), t) == 1]
    pool = near * 3 + rnd.sample(_GERMANS, 3) + rnd.sample(_SOVIETS, 1)
    units = [rnd.choice(pool) for _ in range(rnd.randint(1, 3))]
    if attacked and near:
        stt["units"][near[0]]["attacked"] = True
        stt["attacked_hexes"] = [rnd.choice(_TARGETS)]
    words = [orders.short(RULES.scn, u) for u in units]
    text = f"attack {t} with {' '.join(words)}" + (" stuka" if stuka else "")
    answer = RULES.query(stt, asker, "odds " + text[len("attack "):])
    why = _refusal(stt, asker, text)
    assert (_verdict(answer) is not None) == (why is not None), (text, asker, answer, why)
    if why is not None:
        assert _verdict(answer) == why


def test_the_property_sees_both_legal_and_illegal_attacks():
    seen = set()
    for seed in range(60):
        rnd = random.Random(seed)
        t = rnd.choice(_TARGETS)
        near = [u for u in _GERMANS if _B.distance(_B.hex_of(u), t) == 1]
        if not near:
            continue
        words = [orders.short(RULES.scn, u) for u in near]
        seen.add(_refusal(FRONT, "german", f"attack {t} with {' '.join(words)}") is None)
    assert seen == {True, False}
    assert len(RULES._attack_options(FRONT)) >= 5
