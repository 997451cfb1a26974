"""The optimistic replay (speed only, issue 7: pbem.cycle.run.Careful).  A
replay's first try keeps a snapshot before a planned order only where the
file lists that order as skipped; where the rules refuse an order the file
lists as made, it stops and the whole file is replayed again the careful
way, so that the refusal is exactly the plain one.  Honest files never take
the second way."""
from __future__ import annotations

from typing import Any

import pytest

import avd_fixtures as fx
import enginehelp as eh
from pbem import cycle
from pbem.cycle import background, plan
from pbem.cycle import run as run_mod
from pbem.cycle import write
from pbem.errors import PbemError
from pbem.protocol.gamefile import GameFile

replay_module = __import__("pbem.cycle.replay", fromlist=["_replay"])   # (the module: pbem.cycle.replay is its function)


@pytest.fixture(scope="module")
def skipped_plan() -> tuple[GameFile, dict[str, Any], dict[str, Any]]:
    """A German plan whose second attack the rules refuse (its units have
    attacked), resolved by the Soviet's program: the reply lists it skipped."""
    gf, sc, ids, matches, t, planned = fx.at_combat()
    first = planned["orders"][0]
    t.push({"verb": "plan", "orders": [first, first, {"verb": "end-combat"}]})
    gf, ex = fx.send(gf, matches, ids, t)
    for s, m in matches.items():
        cycle.advance(m, ex, ids[s])
    reply, _ = fx.reply(gf, sc, ids, matches)
    assert [e.get("skipped") for e in reply["orders"] if e["by"] == "plan"].count(True) == 1
    return GameFile(gf.exchanges + [reply]), sc, ids


def verdicts(gf: GameFile, sc: dict[str, Any], me: Any, monkeypatch: Any) -> tuple[str, str, int]:
    """What replay() says, what the careful way alone says, and how often
    the optimistic try gave up."""
    gave_up = [0]
    real = plan.step

    def step(run: Any, d: Any) -> None:
        try:
            real(run, d)
        except run_mod.Careful:
            gave_up[0] += 1
            raise

    def told(**kw: Any) -> str:
        try:
            m = replay_module._replay(gf, sc, me, False, None, True, **kw) if kw else cycle.replay(gf, sc, me)
        except PbemError as exc:
            return f"{type(exc).__name__}: {exc}"
        return "accepted " + m.state_hash()

    with monkeypatch.context() as patched:
        patched.setattr(plan, "step", step)
        both = told(), told(optimistic=False)
    return both[0], both[1], gave_up[0]


def forged(gf: GameFile, ids: dict[str, Any]) -> GameFile:
    """The reply lists the refused planned order as made, signed again."""
    reply = dict(gf.exchanges[-1])
    reply["orders"] = [{k: v for k, v in e.items() if k != "skipped"} for e in reply["orders"]]
    return GameFile(gf.exchanges[:-1] + [write.sign(reply, ids[reply["side"]])])  # type: ignore[list-item]


@pytest.mark.parametrize("reader", ["german", "soviet", None])
def test_an_honest_skipped_step_replays_without_a_second_try(skipped_plan, monkeypatch, reader) -> None:
    gf, sc, ids = skipped_plan
    optimistic, careful, gave_up = verdicts(gf, sc, ids.get(reader) if reader else None, monkeypatch)
    assert optimistic == careful and optimistic.startswith("accepted ")
    assert gave_up == 0


@pytest.mark.parametrize("worker", [False, True])
@pytest.mark.parametrize("reader", ["german", "soviet", None])
def test_hostile_a_refused_step_listed_as_made_is_refused_as_the_careful_way_refuses_it(
        skipped_plan, monkeypatch, reader, worker) -> None:
    """The Soviet's program lists the German's refused attack as made: the
    optimistic try gives up at it, and the refusal is the careful one's,
    with the checks kept by a worker or not."""
    gf, sc, ids = skipped_plan
    if worker:
        monkeypatch.setattr(background, "BACKGROUND_FROM", 1)
        monkeypatch.setattr(background, "HASH_FROM", 1)
        monkeypatch.setattr(background, "core_free", lambda: True)
    optimistic, careful, gave_up = verdicts(forged(gf, ids), sc, ids.get(reader) if reader else None, monkeypatch)
    assert optimistic == careful
    assert optimistic.startswith("Verification: exchange ") and "order list differs" in optimistic
    assert gave_up == 1


def test_the_match_replayed_is_careful_from_then_on(skipped_plan) -> None:
    """A match a replay returns is advanced the careful way (an optimistic
    step outside a replay could not be taken back)."""
    gf, sc, ids = skipped_plan
    m = cycle.replay(GameFile(gf.exchanges[:-1]), sc, ids["german"])
    assert m.optimistic is False
    with pytest.raises(PbemError, match="order list differs"):
        cycle.advance(m, forged(gf, ids).exchanges[-1], ids["german"])
