"""Standing orders are checked in every program (issue 9, item 7): a kind the
game has, a value the kind takes, for a decision of the seat that sets it;
an empty value is refused; the refusal is one line."""
from __future__ import annotations

import pytest

from pbem import games
from pbem.scenario import load_toml


def _rules(gid: str):
    g = games.load(gid)
    sc = load_toml(f"scenarios/{gid}/practice.toml")
    return g.rules(sc, g.validate_options({}))


@pytest.mark.parametrize("seat,name,value,ok", [
    ("german", "losses", "reduce-strongest-first", True),
    ("soviet", "losses", "bogus", False),
    ("german", "stuka-defense", "3-1", True),
    ("german", "stuka-defense", "sometimes", False),
    ("german", "buy", "none", False),            # a Soviet decision (11.1.1)
    ("soviet", "guderian", "never", False),      # a German decision (7.1.2)
    ("soviet", "losses", "💣", False),
])
def test_avd_standing_order_values(seat: str, name: str, value: str, ok: bool) -> None:
    r = _rules("avd")
    why = r.check_policy(r.initial_state(), seat, name, value)
    assert (why is None) == ok, why
    if why:
        assert "\n" not in why


@pytest.mark.parametrize("seat,name,value,ok", [
    ("german", "aa", "destroy stuka", True),
    ("soviet", "aa", "destroy", False),          # 10.12.3: the German's
    ("german", "aa", "abort destroy", False),
    ("german", "logistics", "pause", True),
    ("soviet", "blitz", "yes", False),
    ("german", "losses", "G07 infantry", True),
    ("german", "losses", "💣", False),
])
def test_m41_standing_order_values(seat: str, name: str, value: str, ok: bool) -> None:
    r = _rules("m41")
    why = r.check_policy(r.initial_state(), seat, name, value)
    assert (why is None) == ok, why


def test_a_value_the_kind_does_not_take_is_refused_through_the_engine() -> None:
    import enginehelp  # noqa: F401
    from pbem import cycle
    from pbem.game import IllegalOrder
    from pbem.protocol.gamefile import GameFile
    from pbem.protocol.identity import generate

    sc = load_toml("scenarios/avd/practice.toml")
    anna, pavel = generate("Anna", "a@example.org"), generate("Pavel", "p@example.org")
    gf = cycle.new_game(game_id="avd-pol", game="avd", scenario_name="avd/practice", scenario=sc, options={},
                        dice="immediate", creator=anna, creator_side="german", invited={"soviet": pavel.public})
    gf = GameFile(gf.exchanges + [cycle.join_exchange(cycle.replay(gf, sc, pavel), pavel, "soviet")])
    t = cycle.Turn(cycle.replay(gf, sc, anna), anna)
    with pytest.raises(IllegalOrder, match="standing order losses: 'bogus' is not one of its values"):
        t.push("policy losses bogus")
    t.push("policy losses eliminate-weakest-first")
