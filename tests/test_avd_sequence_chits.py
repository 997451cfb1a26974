"""Rule 7 and the Turn 1 sequence (4.1.2): secret chit selection, the draw
loop, the Guderian trump (7.2.2) and the set-aside 3rd Panzer Group chit."""
from __future__ import annotations

import copy
import json

import pytest

from pbem.game import IllegalOrder, public
from fakedice import ScriptedDice
from avd_fixtures import (answer_all, chits_order, practice_rules, select_both,
                                       with_openings)

GERMAN_T1 = "chits G-3PzG-1 G-2PzG-1 G-9A-1 G-Guderian"
SOVIET_T1 = "chits S-21A S-13A"


def test_7_1_2_selection_is_sealed_and_an_opponent_replay_reaches_the_same_public_state():
    rules = practice_rules()
    st0 = rules.initial_state()
    order = chits_order(rules, st0, "german", GERMAN_T1)
    own, _ = rules.apply(copy.deepcopy(st0), "german", copy.deepcopy(order), ScriptedDice())
    replay = copy.deepcopy(st0)
    replay["hidden"]["german"] = None          # the Soviet program holds no German secrets
    public_order = {k: v for k, v in order.items() if k != "secret"}
    replay, _ = rules.apply(replay, "german", public_order, ScriptedDice())
    assert public(own) == public(replay)
    # 7.1.3: nobody sees what went in the cup; the public state keeps only
    # the chits the German could choose from (the prompt listed them, 7.1.1)
    offered = rules.available_chits(st0, "german")
    assert own["picks"]["german"] == {"from": [c for c in offered if c != "G-Guderian"], "first": "g1.1"}
    text = json.dumps({k: v for k, v in public(own).items() if k != "picks"})
    for chit in ("G-3PzG-1", "G-2PzG-1", "G-9A-1"):
        assert chit not in text
    assert own["guderian_box"] is True         # 7.1.2: Guderian sits in its own, open box
    assert [t for t in own["cup"] if t.startswith("sealed:")] == ["sealed:g1.2", "sealed:g1.3"]
    assert own["set_aside"] == "sealed:g1.1"
    assert rules.hidden_items(own, "german") == {       # what the core commits in the German's next root
        "g1.1": {"chit": "G-3PzG-1", "turn": 1}, "g1.2": {"chit": "G-2PzG-1", "turn": 1},
        "g1.3": {"chit": "G-9A-1", "turn": 1}}
    assert len(rules.hidden_items(own, "german")) <= rules.hidden_width


def test_7_1_2_selection_must_match_the_turn_track_count():
    rules = practice_rules()
    st = rules.initial_state()
    with pytest.raises(IllegalOrder, match="exactly 4"):
        rules.apply(st, "german", chits_order(rules, st, "german", "chits G-3PzG-1 G-2PzG-1"), ScriptedDice())


def test_3_7_turn_1_first_german_chit_must_be_a_3rd_panzer_group_chit():
    rules = practice_rules()
    st = rules.initial_state()
    with pytest.raises(IllegalOrder, match="3rd Panzer Group"):
        rules.apply(st, "german", chits_order(rules, st, "german", "chits G-2PzG-1 G-3PzG-1 G-9A-1 G-9A-2"),
                    ScriptedDice())


def test_13_1_turn_1_cup_holds_the_mandatory_chits_but_no_art():
    rules = practice_rules()
    st = select_both(rules, rules.initial_state(), GERMAN_T1, SOVIET_T1)
    plain = [t for t in st["cup"] if not t.startswith("sealed:")]
    kinds = sorted(rules.scn.chits[c].kind for c in plain)
    assert kinds == ["airpower", "reinf", "supply"]
    assert len(st["cup"]) == 2 + 2 + 3


def test_4_1_2_turn_1_special_combat_segment_comes_before_any_draw():
    rules = practice_rules()
    st = select_both(rules, rules.initial_state(), GERMAN_T1, SOVIET_T1)
    d = rules.pending(st)
    assert (d.side, d.kind) == ("german", "combat")
    assert st["played"] == []                              # no chit drawn for it
    active = sorted(u for u, x in st["units"].items() if x["active"])
    assert active and all(rules.scn.units[u].formation == "2PzG" for u in active)


def test_4_1_2_set_aside_3rd_panzer_group_chit_is_played_first_after_a_reveal():
    rules = practice_rules()
    rng = ScriptedDice()
    st = select_both(rules, rules.initial_state(), GERMAN_T1, SOVIET_T1)
    st, _ = rules.apply(st, "german", {"verb": "end-combat"}, rng)
    d = rules.pending(st)
    assert (d.side, d.kind, d.private) == ("german", "reveal", True)
    asked = rules.private_answer(st, d)
    assert asked == {"verb": "reveal", "open": ["g1.1"]}     # the German program opens the set-aside handle
    reveal = with_openings(rules, st, "german", asked)
    # the Soviet program reads the chit from the opening the core checked
    replay = copy.deepcopy(st)
    replay["hidden"]["german"] = None
    st, _ = rules.apply(st, "german", reveal, rng)
    replay, _ = rules.apply(replay, "german", reveal, rng)
    assert public(st) == public(replay)
    assert st["played"] == ["G-3PzG-1"]
    assert rng.log == []                                    # played without a draw
    assert rules.pending(st).side == "german"


@pytest.mark.parametrize("value, why", [
    ({"chit": "G-9A-2", "turn": 1}, r"set aside on Turn 1 is a 3rd Panzer Group chit.*\(3\.7\)"),
    ({"chit": "G-Guderian", "turn": 1}, r"Guderian goes to his own box.*\(7\.1\.2\)"),
    ({"chit": "S-21A", "turn": 1}, "is not a German chit"),
    ({"chit": "G-AirPower", "turn": 1}, r"could not be selected this turn \(7\.1\.1\)"),
    ({"chit": "G-3PzG-1", "turn": 2}, "not this turn"),
    ("G-3PzG-1", "not a chit and its turn"),
])
def test_7_2_a_reveal_showing_a_chit_the_side_could_not_have_put_there_is_refused(value, why):
    rules = practice_rules()
    st = select_both(rules, rules.initial_state(), GERMAN_T1, SOVIET_T1)
    st, _ = rules.apply(st, "german", {"verb": "end-combat"}, ScriptedDice())
    d = rules.pending(st)
    assert rules.check_opening(st, "german", "g1.1", value) is not None
    bad = dict(rules.private_answer(st, d), openings=[{"handle": "g1.1", "value": value}])
    with pytest.raises(IllegalOrder, match=why):
        rules.apply(st, "german", bad, ScriptedDice())


def test_7_2_a_reveal_must_open_the_drawn_handle_and_no_other():
    rules = practice_rules()
    st = select_both(rules, rules.initial_state(), GERMAN_T1, SOVIET_T1)
    st, _ = rules.apply(st, "german", {"verb": "end-combat"}, ScriptedDice())
    other = with_openings(rules, st, "german", {"verb": "reveal", "open": ["g1.2"]})
    with pytest.raises(IllegalOrder, match="the chit drawn is g1.1"):
        rules.apply(st, "german", other, ScriptedDice())
    assert "is not a face-down German chit" in rules.check_opening(st, "german", "s1.1",
                                                                    {"chit": "G-3PzG-1", "turn": 1})


def _to_first_draw(rules, rng):
    st = select_both(rules, rules.initial_state(), GERMAN_T1, SOVIET_T1, rng)
    return answer_all(rules, st, rng, stop=lambda d: d.kind == "guderian")


def test_7_2_2_guderian_trump_returns_the_drawn_chit_and_activates_2nd_panzer_group():
    rules = practice_rules()
    rng = ScriptedDice(draws=["G-AirPower"])
    st, d = _to_first_draw(rules, rng)
    assert (d.side, d.kind, d.policy) == ("german", "guderian", "guderian")
    st, ev = rules.apply(st, "german", rules.parse("guderian yes", st, "german"), rng)
    assert "G-AirPower" in st["cup"]                      # tossed back into the cup
    assert st["guderian_box"] is False
    assert st["played"][-1] == "G-Guderian"
    active = [u for u, x in st["units"].items() if x["active"]]
    assert active and all(rules.scn.units[u].formation == "2PzG" and rules.scn.units[u].motorized for u in active)


def test_7_2_2_declining_the_trump_plays_the_drawn_chit():
    rules = practice_rules()
    rng = ScriptedDice(draws=["G-AirPower"])
    st, d = _to_first_draw(rules, rng)
    st, _ = rules.apply(st, "german", rules.standing_answer(st, d, {"guderian": "never"}), rng)
    assert st["played"][-1] == "G-AirPower"
    assert st["guderian_box"] is True


def test_7_2_2_unplayed_guderian_is_played_after_the_last_draw():
    rules = practice_rules()
    rng = ScriptedDice()
    st = select_both(rules, rules.initial_state(), GERMAN_T1, SOVIET_T1, rng)
    st, d = answer_all(rules, st, rng, policies={"guderian": "never", "relocate-voluntary": "none",
                                                  "disband": "none"},
                       stop=lambda d: "G-Guderian" in st["played"])
    assert st["cup"] == []
    assert st["played"][-1] == "G-Guderian"
    assert st["turn"] == 1


def test_7_1_2_fill_secrets_adds_no_salt_only_the_public_count_of_sealed_chits():
    rules = practice_rules()
    st = rules.initial_state()
    order = rules.fill_secrets(st, "german", rules.parse(GERMAN_T1, st, "german"), lambda: 1 / 0)
    assert order == {"verb": "chits", "guderian": True, "count": 3,
                     "secret": {"chits": ["G-3PzG-1", "G-2PzG-1", "G-9A-1"]}}
    st, _ = rules.apply(st, "german", order, ScriptedDice())
    assert rules.pending(st).side == "soviet"


def test_7_1_2_the_public_count_must_agree_with_the_turn_track():
    rules = practice_rules()
    st = rules.initial_state()
    order = dict(chits_order(rules, st, "german", GERMAN_T1), count=2)
    with pytest.raises(IllegalOrder, match="exactly 4"):
        rules.apply(st, "german", order, ScriptedDice())
    own = rules.initial_state()                 # the owner's program needs the secret part
    with pytest.raises(IllegalOrder, match="secret part"):
        rules.apply(own, "german", {"verb": "chits", "guderian": True, "count": 3}, ScriptedDice())


def test_7_1_3_a_sealed_selection_is_written_without_its_chits():
    rules = practice_rules()
    st = rules.initial_state()
    sealed = chits_order(rules, st, "german", GERMAN_T1)
    assert rules.format(sealed) == "chits (3 sealed) Guderian"


def test_7_1_1_panzer_group_chit_needs_a_motorized_unit_of_its_group_not_just_infantry():
    """Ruling (RULINGS.md, 7.1.1 with 7.0 / 7.4.1): infantry of a Panzer
    Group answer to HQs, so they alone do not make its chit available."""
    from avd_fixtures import clear_map, frame, put
    rules = practice_rules()
    st = rules.initial_state()
    st["turn"] = 2
    st["stack"] = [frame("chits", done=[])]
    clear_map(st)
    hq = next(u for u, s in sorted(rules.scn.units.items()) if s.side == "german" and s.kind == "hq")
    put(st, hq, "3508")
    put(st, "G-102ID", "3510")                 # 3rd PzG infantry
    put(st, "G-1Cav", "1813")                  # 2nd PzG non-motorized
    avail = rules.available_chits(st, "german")
    assert avail and not any(rules.scn.chits[c].kind in ("2PzG", "3PzG", "guderian") for c in avail)
    assert "G-3PzG-1" not in rules.pending(st).prompt
    with pytest.raises(IllegalOrder, match="not available"):
        rules.apply(st, "german", chits_order(rules, st, "german", "chits G-3PzG-1 G-9A-1 G-9A-2"), ScriptedDice())
    panzer = next(u for u, s in sorted(rules.scn.units.items())
                  if s.formation == "3PzG" and s.motorized and s.corps and s.kind == "combat")
    put(st, panzer, "3512")
    avail = rules.available_chits(st, "german")
    assert {"G-3PzG-1", "G-3PzG-2"} <= set(avail) and "G-2PzG-1" not in avail
