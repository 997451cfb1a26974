"""Rule 16: victory - immediate wins, VP chits, and the end-of-game count
(rule-notes T30)."""
from __future__ import annotations

import pytest

from pbem.game import IllegalOrder
from pbem.games.avd import victory
from fakedice import ScriptedDice
from avd_fixtures import clear_map, frame, practice_rules, put


# --------------------------------------------------------------- T30 (16.3)
def test_16_3_1_T30_objective_moscow_doubles_uncaptured_and_six_per_panzer():
    winner, lines = victory.score("moscow", 10, 7, 0, 1)
    assert winner == "soviet"
    assert any("= 20" in line for line in lines)          # 2 x 7 + 6 x 1


def test_16_3_2_T30_hitler_distracted_single_count_and_four_per_panzer():
    winner, lines = victory.score("distracted", 10, 7, 0, 1)
    assert winner == "soviet"
    assert any("= 11" in line for line in lines)          # 7 + 4 x 1


def test_16_3_1_T30_tie_under_rolled_moscow_is_german_win():
    # Soviet 2 x 7 + 6 = 20 against German 20
    assert victory.score("moscow", 20, 7, 0, 1)[0] == "german"


def test_16_3_1_T30_chosen_moscow_tie_or_german_lead_is_a_draw():
    assert victory.score("choice_moscow", 20, 7, 0, 1)[0] == "draw"
    assert victory.score("choice_moscow", 25, 7, 0, 1)[0] == "draw"
    assert victory.score("choice_moscow", 19, 7, 0, 1)[0] == "soviet"


def test_16_3_2_tie_under_hitler_distracted_is_a_draw():
    assert victory.score("distracted", 11, 7, 0, 1)[0] == "draw"
    assert victory.score("choice_distracted", 12, 7, 0, 1)[0] == "german"


def test_16_3_minsk_chits_count_with_the_uncaptured_ones():
    # default 22: the Minsk chits sit inside the doubled set under Moscow
    assert "= 24" in " ".join(victory.score("moscow", 0, 7, 5, 0)[1])
    assert "= 12" in " ".join(victory.score("distracted", 0, 7, 5, 0)[1])


# ------------------------------------------------------- immediate (16.1)
def _moving(rules, side, uid, at):
    st = rules.initial_state()
    clear_map(st)
    put(st, uid, at, active=True)
    st["active"] = side
    st["stack"] = [frame("endturn"), frame("move", mode="normal")]
    return st


def _panzer(rules):
    return next(u for u, s in sorted(rules.scn.units.items())
                if s.side == "german" and s.kind == "combat" and s.motorized and s.setup)


def test_16_1_german_combat_unit_entering_moscow_wins_at_once():
    rules = practice_rules()
    moscow = sorted(rules.scn.map.moscow)[0]
    st = rules.initial_state()
    grid = rules.board(st).grid
    start = next(h for h in grid.neighbors(moscow) if h not in rules.scn.map.moscow)
    uid = _panzer(rules)
    st = _moving(rules, "german", uid, start)
    st, ev = rules.apply(st, "german", rules.parse(f"move {uid} {start} {moscow}", st, "german"), ScriptedDice())
    assert st["winner"] == "german"
    assert rules.pending(st) is None
    assert "Moscow" in rules.result(st)


def test_16_1_soviet_combat_unit_entering_the_minsk_pocket_wins_at_once():
    rules = practice_rules()
    pocket = sorted(rules.scn.map.minsk_pocket)
    st = rules.initial_state()
    grid = rules.board(st).grid
    target, start = next((p, h) for p in pocket for h in grid.neighbors(p) if h not in pocket)
    uid = next(u for u, s in sorted(rules.scn.units.items())
               if s.side == "soviet" and s.kind == "combat" and s.setup and not s.pvo)
    st = _moving(rules, "soviet", uid, start)
    st, _ = rules.apply(st, "soviet", rules.parse(f"move {uid} {start} {target}", st, "soviet"), ScriptedDice())
    assert st["winner"] == "soviet"
    assert "Minsk Pocket" in rules.result(st)


def test_14_german_units_may_never_enter_the_minsk_pocket():
    rules = practice_rules()
    pocket = sorted(rules.scn.map.minsk_pocket)
    st = rules.initial_state()
    grid = rules.board(st).grid
    target, start = next((p, h) for p in pocket for h in grid.neighbors(p) if h not in pocket)
    uid = _panzer(rules)
    st = _moving(rules, "german", uid, start)
    with pytest.raises(IllegalOrder, match="Minsk Pocket"):
        rules.apply(st, "german", rules.parse(f"move {uid} {start} {target}", st, "german"), ScriptedDice())


# -------------------------------------------------------- VP chits (16.2)
def _vh_and_start(rules, st, cls=None):
    grid = rules.board(st).grid
    for h, c in sorted(rules.scn.map.victory.items()):
        if cls and c != cls:
            continue
        for n in grid.neighbors(h):
            if n not in rules.scn.map.minsk_pocket and n not in rules.scn.map.moscow:
                return h, n
    raise AssertionError("no victory hex")


def test_16_2_german_entry_takes_the_face_down_chit_unseen():
    rules = practice_rules()
    st = rules.initial_state()
    vh, start = _vh_and_start(rules, st)
    uid = _panzer(rules)
    st = _moving(rules, "german", uid, start)
    st["vp"][vh] = "down"
    box = list(st["vp_box"])
    st, _ = rules.apply(st, "german", rules.parse(f"move {uid} {start} {vh}", st, "german"), ScriptedDice())
    assert st["vp"][vh] is None
    assert st["vp_box"] == box + [rules.scn.map.victory[vh]]   # still unseen: only its class is known


def test_16_2_soviet_recapture_draws_from_the_box_and_places_it_face_up():
    rules = practice_rules()
    st = rules.initial_state()
    vh, start = _vh_and_start(rules, st, "minor")
    uid = next(u for u, s in sorted(rules.scn.units.items())
               if s.side == "soviet" and s.kind == "combat" and s.setup and not s.pvo)
    st = _moving(rules, "soviet", uid, start)
    st["vp"][vh] = None
    st["vp_box"] = [4]                      # a chit seen face up before
    st, _ = rules.apply(st, "soviet", rules.parse(f"move {uid} {start} {vh}", st, "soviet"), ScriptedDice())
    assert st["vp"][vh] == "up:4"
    assert st["vp_box"] == []


def test_16_1_soviet_recapture_with_an_empty_box_wins_at_once():
    rules = practice_rules()
    st = rules.initial_state()
    vh, start = _vh_and_start(rules, st)
    uid = next(u for u, s in sorted(rules.scn.units.items())
               if s.side == "soviet" and s.kind == "combat" and s.setup and not s.pvo)
    st = _moving(rules, "soviet", uid, start)
    st["vp"][vh] = None
    st["vp_box"] = []
    st, _ = rules.apply(st, "soviet", rules.parse(f"move {uid} {start} {vh}", st, "soviet"), ScriptedDice())
    assert st["winner"] == "soviet"


# ------------------------------------------------------ end of game (16.3)
def test_16_3_end_of_turn_10_counts_box_uncaptured_minsk_and_eliminated_panzers():
    rules = practice_rules()
    st = rules.initial_state()
    st["turn"] = 10
    st["directive"] = "moscow"
    st["stack"] = [frame("endturn")]
    for h in st["vp"]:
        st["vp"][h] = None
    some = sorted(st["vp"])[0]
    st["vp"][some] = "up:3"
    st["vp_box"] = [5]
    st["vp_minsk"] = []
    st["units"][_panzer(rules)]["where"] = "elim_motorized"
    rules._run(st, ScriptedDice(), [])     # the End of Turn Phase runs by itself
    assert st["winner"] == "soviet"                    # German 5, Soviet 2 x 3 + 6 = 12
    assert "= 12" in rules.result(st)
    assert rules.pending(st) is None


def test_16_3_face_down_chits_are_turned_up_from_the_pool_at_the_end():
    rules = practice_rules()
    st = rules.initial_state()
    st["turn"] = 8
    st["directive"] = "distracted"
    st["stack"] = [frame("endturn")]
    for h in st["vp"]:
        st["vp"][h] = None
    minor = next(h for h, c in sorted(rules.scn.map.victory.items()) if c == "minor")
    st["vp"][minor] = "down"
    st["vp_pool"]["minor"] = [2]
    st["vp_box"] = []
    rules._run(st, ScriptedDice(), [])
    assert st["winner"] == "soviet"                    # 2 uncaptured against 0
    assert st["vp_pool"]["minor"] == []
