"""11.1.2 / 14.0 (rule-notes default 20): putting 9th Army chits into the cup
after German reinforcements enter, after a Minsk release that bought chits,
or on the Turn 4 release is answered by the German program from its hidden
unplayed chits.  Such an answer must hold no choice the program could steer
with dice it may already know: the count is fixed (every chit owed, as far
as unplayed ones last) and the 9th Army chits are alike, so one answer is
fixed too.  Apply takes that answer and nothing else whenever it holds the
German secrets; see RULINGS.md."""
from __future__ import annotations

import copy
from itertools import permutations

import pytest

from pbem.game import IllegalOrder
from fakedice import ScriptedDice
from avd_fixtures import frame, practice_rules

NINE = ["G-9A-1", "G-9A-2", "G-9A-3"]


def _add9a(count: int, sealed: tuple[str, ...] = ()):
    rules = practice_rules()
    st = rules.initial_state()
    st["stack"] = [frame("endturn"), frame("add9a", count=count)]
    for i, c in enumerate(sealed):                     # chosen for the cup this turn, so not unplayed
        st["hidden"]["german"]["chits"][f"h{i}"] = [c, "00"]
        st["sealed"][f"h{i}"] = "german"
        st["cup"].append(f"sealed:h{i}")
    return rules, st


def _accepted(rules, st, chits) -> bool:
    try:
        rules.apply(copy.deepcopy(st), "german", {"verb": "add-chit", "chits": list(chits)}, ScriptedDice())
    except IllegalOrder as exc:
        assert "\n" not in str(exc)
        return False
    return True


def _every_answer():
    for n in range(len(NINE) + 1):
        yield from permutations(NINE, n)


@pytest.mark.parametrize("count, sealed, forced", [
    (1, (), ["G-9A-1"]),
    (2, (), ["G-9A-1", "G-9A-2"]),
    (2, ("G-9A-1", "G-9A-2"), ["G-9A-3"]),                 # only one left unplayed: that one
    (1, tuple(NINE), []),                                  # none left: nothing goes in
])
def test_11_1_2_the_9th_army_chit_answer_is_forced(count, sealed, forced):
    rules, st = _add9a(count, sealed)
    d = rules.pending(st)
    assert (d.side, d.kind, d.private) == ("german", "add9a", True)
    assert rules.private_answer(st, d)["chits"] == forced
    ok = [list(a) for a in _every_answer() if _accepted(rules, st, a)]
    assert ok == [forced]                                  # one answer, and it is the program's


def test_11_1_2_the_opponents_replay_takes_only_the_public_effect():
    """Without the German secrets (the Soviet program replaying), the count
    cannot be checked against the hidden chits; the answer is still held to
    at most the chits owed, each an unplayed 9th Army chit."""
    rules, st = _add9a(1)
    st["hidden"]["german"] = None
    assert _accepted(rules, st, ["G-9A-2"])
    assert not _accepted(rules, st, ["G-9A-1", "G-9A-2"])
    st["stukas_used"] = 1
    st["stack"].insert(1, frame("air"))                   # a decision after it, so the cup can be read
    st, ev = rules.apply(st, "german", {"verb": "add-chit", "chits": ["G-9A-2"]}, ScriptedDice())
    assert "G-9A-2" in st["cup"] and rules.pending(st).kind == "air"


def test_11_1_2_the_prompt_says_the_answer_is_forced():
    rules, st = _add9a(2)
    d = rules.pending(st)
    assert "up to" not in d.prompt and "2" in d.prompt
