"""A draw from a cup of one is no chance: under sealed dice it needs no
stream, so an order of the sender's that makes one is not deferred and no
relay is sent for it (issue 12, item 5; docs/FILE-FORMAT.md, Dice).  The
duel test game, with a defence that first draws its arena from a cup."""
from __future__ import annotations

from typing import Any

import enginehelp  # noqa: F401  (registers the duel test game)
import pytest
from duelgame import DuelRules

from pbem.cycle import run as run_mod
from pbem.protocol.stream import RecordingRng, Stream


class ArenaDuel(DuelRules):
    """The defender's answer draws the arena from ``cup`` first."""

    cup: tuple[str, ...] = ("sand",)

    def _defend(self, st, side, order, rng):
        st["arena"] = self.cup[rng.draw(self.cup, "arena")]
        return super()._defend(st, side, order, rng)


def _blue_defends(cup: tuple[str, ...], features: tuple[str, ...]) -> tuple[str, Any, RecordingRng]:
    rules = ArenaDuel(enginehelp.duel_scenario(), {})
    rules.cup = cup
    st = rules.initial_state()
    st.update(step="defend", roll=3)
    es: Any = {"game": st, "policies": {}, "deferred": None}
    rng = RecordingRng(Stream(bytes(32)))
    run = run_mod.ExchangeRun(rules, es, "blue", rng, True, ["red", "blue"], features=features)
    given = [{"verb": "defend", "how": "block"}]
    how = run.run(lambda d: {"by": "player", "order": given.pop(0)} if given else None)
    return how, es, rng


def test_a_draw_from_a_cup_of_one_is_made_in_the_senders_own_exchange():
    how, es, rng = _blue_defends(("sand",), run_mod.FEATURES)
    # the defence went through: red must now show his pick (his program's)
    assert how == "handed" and es["deferred"] is None
    assert es["game"]["arena"] == "sand" and es["game"]["defense"] == "block"
    assert rng.records == []              # nothing taken from the stream the sender knows


@pytest.mark.parametrize("cup, features", [
    (("sand", "stone"), run_mod.FEATURES),    # a real draw waits for the next seat's stream
    (("sand",), ("forced", "plans")),         # a file without the feature replays as it was written
])
def test_any_other_draw_after_the_senders_choice_waits_for_dice(cup, features):
    how, es, rng = _blue_defends(cup, features)
    assert how == "deferred" and es["deferred"]["order"] == {"verb": "defend", "how": "block"}
    assert "arena" not in es["game"] and es["game"]["defense"] is None and rng.records == []
