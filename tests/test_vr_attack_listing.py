"""The Combat phase's listed attacks (7.1): every enemy hex that some group
of adjacent units may legally attack is offered, even where the whole
group of adjacent units may not attack together; and where none may, the
decision is forced (end-combat is the one answer, no email spent)."""
from __future__ import annotations

import vrhelp
from pbem.games.vr.seq_turn import ask_combat

UNITS = {"g1": vrhelp.unit("ger", 6), "g2": vrhelp.unit("ger", 6), "s1": vrhelp.unit("sov", 4)}


def _decision(weather: str, placed: dict[str, str], **map_parts):
    r = vrhelp.rules(units=UNITS, **map_parts)
    st = vrhelp.engine_state(r, placed, vrhelp.combat_frame("german"), side="german", weather=weather)
    return r, st, ask_combat(r, st, st["stack"][-1])


def test_7_1_an_attack_is_offered_when_one_adjacent_unit_may_not_join_it() -> None:
    # 3.2.2: in Mud g1 may not attack across the river; g2 may attack alone.
    r, st, d = _decision("mud", {"g1": "5020", "g2": "5121", "s1": "5021"}, hexsides={"minor_river": ["5020|5021"]})
    assert r.attack_check(st, st["stack"][-1], "5021", ["g1", "g2"]) is not None
    assert "attack 5021 with g2" in d.options
    assert not d.forced


def test_7_1_with_no_legal_attack_end_combat_is_forced() -> None:
    r, st, d = _decision("mud", {"g1": "5020", "s1": "5021"}, hexsides={"minor_river": ["5020|5021"]})
    assert d.options == ("end-combat",) and d.forced
    r, st, d = _decision("fair", {"g1": "5020", "s1": "5021"}, hexsides={"minor_river": ["5020|5021"]})
    assert "attack 5021 with g1" in d.options and not d.forced
