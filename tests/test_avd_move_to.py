"""8.1: a move may name only its destination; the cheapest legal path is
taken and written out in full."""
from __future__ import annotations

import pickle

import pytest

from pbem.game import IllegalOrder
from pbem.games.avd import movement
from pbem.protocol.stream import FrozenRng, NeedDice
from avd_fixtures import SeededRng, practice_rules, with_openings
from enginehelp import rules_order


def _movement_position():
    """The first normal movement segment of a scripted practice game."""
    rules = practice_rules()
    state, rng = rules.initial_state(), SeededRng(7)
    for _ in range(400):
        d = rules.pending(state)
        if d is None:
            break
        if d.kind == "move" and state["stack"][-1]["mode"] == "normal":
            return rules, state, d
        if d.private:
            order = with_openings(rules, state, d.side, rules.private_answer(state, d))
        else:
            order = rules_order(rules, state, d)
            order = rules.fill_secrets(state, d.side, order, lambda: b"")
        state, _ = rules.apply(state, d.side, order, rng)
    pytest.skip("no movement segment in the scripted game")


def test_8_1_a_destination_alone_takes_the_cheapest_legal_path() -> None:
    rules, state, d = _movement_position()
    b = rules.board(state)
    for uid in sorted(u for u in b.units_of(d.side) if state["units"][u]["active"] and not b.spec(u).pvo):
        reach = movement.reach(b, uid)
        far = [h for h in reach.endable if b.distance(b.hex_of(uid), h) >= 2]
        if not far:
            continue
        dest = sorted(far)[0]
        order = rules.parse(f"move {uid} {dest}", state, d.side)
        assert order["path"] == reach.path_to(dest)
        assert movement.check_move(b, uid, order["path"]) == reach.cost[dest]
        try:
            rules.apply(pickle.loads(pickle.dumps(state)), d.side, order, FrozenRng())
        except NeedDice:
            pass
        return
    pytest.skip("no unit can move two hexes here")


def test_8_1_an_unreachable_destination_is_refused_with_the_way_to_ask() -> None:
    rules, state, d = _movement_position()
    b = rules.board(state)
    uid = sorted(u for u in b.units_of(d.side) if state["units"][u]["active"] and not b.spec(u).pvo)[0]
    reach = movement.reach(b, uid)
    far = sorted(h for h in b.grid.hexes() if h not in reach.endable and b.distance(b.hex_of(uid), h) > 5)[0]
    with pytest.raises(IllegalOrder, match=r"cannot reach .*\(ask `reach"):
        rules.parse(f"move {uid} {far}", state, d.side)
