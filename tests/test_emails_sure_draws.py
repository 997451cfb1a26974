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


# ------------------------------------------- Moscow '41: the pool's last block


def _m41_last_block(options: dict[str, Any]):
    import copy

    from m41help import PRACTICE, salts, started

    from pbem.games.m41 import GAME
    from pbem.protocol.stream import FrozenRng

    rules = GAME.rules(PRACTICE, options)
    state = started()
    state["turn"], state["phase"], state["logistics_queue"] = 5, "logistics", ["soviet", "german"]
    last = state["hidden"]["soviet"]["pool"][0]
    state["hidden"]["soviet"]["pool"], state["pool_count"]["soviet"] = [last], 1
    order = rules.fill_secrets(state, "soviet", rules.parse("logistics activate", state, "soviet"), salts("s"))
    return rules, last, rules.apply(copy.deepcopy(state), "soviet", order, FrozenRng())


def test_5_0_the_pools_last_block_comes_in_with_no_wait_for_dice():
    rules, last, (state, _) = _m41_last_block({"sure_draws": True})
    d = rules.pending(state)
    assert d.kind == "reinforce" and d.seat == "soviet"                 # placed in the same exchange
    (tok,) = state["reinforcing"]["tokens"]
    assert state["hidden"]["soviet"]["blocks"][tok]["block"] == last and state["pool_count"]["soviet"] == 0


def test_5_0_a_file_without_sure_draws_still_waits_and_new_games_have_it():
    from m41help import PRACTICE

    from pbem.games.m41 import GAME
    from pbem.protocol.stream import NeedDice

    with pytest.raises(NeedDice):
        _m41_last_block({})                    # written before the option: replays as it was
    assert GAME.validate_options({})["sure_draws"] is True
    # kept out of the state, so the states of older files hash as before
    assert "sure_draws" not in GAME.rules(PRACTICE, {"sure_draws": True}).initial_state()["options"]
