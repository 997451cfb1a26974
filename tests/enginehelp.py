"""Helpers for protocol tests: two generated players playing the duel test
game through the library (no CLI); the vault test game (hidden items) set
up and played on; the last state of a scripted demo game; a German-Soviet
game joined and played on by the scripted players."""
from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any, Callable

import pytest

from fakedice import seeded_urandom
from pbem import cycle
from pbem.protocol import gamefile
from pbem.protocol.gamefile import GameFile
from pbem.protocol.identity import generate
from pbem.scenario import load_toml

DATA = Path(__file__).parent / "data"
os.environ.setdefault("PBEM_GAME_MODULES", "duel=duelgame,trio=triogame,vault=vaultgame")


def duel_scenario() -> dict[str, Any]:
    return load_toml(DATA / "scenarios" / "duel" / "test.toml")


def players():
    return generate("Anna", "anna@example.org"), generate("Pavel", "pavel@example.org")


def start(dice: str = "sealed", scenario: dict[str, Any] | None = None, game_id: str = "g-test-duel"):
    scenario = scenario or duel_scenario()
    red, blue = players()
    gf = cycle.new_game(
        game_id=game_id, game="duel", scenario_name="duel/test", scenario=scenario,
        options={}, dice=dice, creator=red, creator_side="red", invited={"blue": blue.public},
    )
    m = cycle.replay(gf, scenario, blue)
    gf = gamefile.GameFile(gf.exchanges + [cycle.join_exchange(m, blue, "blue")])
    return gf, scenario, {"red": red, "blue": blue}


def first_option(d) -> str:
    return d.options[-1] if d.kind == "pick" else d.options[0]


def one_exchange(gf, scenario, ids, choose: Callable = first_option, before: Callable | None = None):
    """The side whose turn it is writes its exchange; returns the new file."""
    probe = cycle.replay(gf, scenario)
    side = probe.next_sender()
    me = ids[side]
    m = cycle.replay(gf, scenario, me)
    t = cycle.Turn(m, me)
    if before:
        before(t)
    while not t.done:
        t.push(choose(t.pending()))
    return gamefile.GameFile(gf.exchanges + [t.finish()])


def play_out(gf, scenario, ids, limit: int = 200, **kw):
    for _ in range(limit):
        if cycle.replay(gf, scenario).over():
            return gf
        gf = one_exchange(gf, scenario, ids, **kw)
    raise AssertionError("game did not end")


def disclose_all(gf, scenario, ids):
    """At game end every seat discloses, in the turn the audit gives."""
    from pbem.cycle import audit

    while True:
        m = cycle.replay(gf, scenario)
        due = audit.next_discloser(m)
        if due is None:
            return gf
        mine = cycle.replay(gf, scenario, ids[due])
        gf = gamefile.GameFile(gf.exchanges + [cycle.disclose_exchange(mine, ids[due])])


# ------------------------------------------------ the vault game (hidden items)

VAULT = load_toml(DATA / "scenarios" / "vault" / "test.toml")


def table(dice: str = "sealed", scenario: dict[str, Any] | None = None) -> tuple[GameFile, dict[str, Any], dict[str, Any]]:
    sc = scenario or VAULT
    ids = {"red": generate("Anna", "anna@example.org"), "blue": generate("Pavel", "pavel@example.org")}
    gf = cycle.new_game(game_id="vault-test", game="vault", scenario_name="vault/test", scenario=sc, options={},
                        dice=dice, creator=ids["red"], creator_side="red", invited={"blue": ids["blue"].public})
    gf = GameFile(gf.exchanges + [cycle.join_exchange(cycle.replay(gf, sc, ids["blue"]), ids["blue"], "blue")])
    return gf, sc, ids


def write(gf: GameFile, sc: dict[str, Any], ids: dict[str, Any], *orders: str) -> GameFile:
    """The seat whose turn it is writes its exchange: ``orders``, then set-up
    or pass for whatever else it must decide."""
    seat = cycle.replay(gf, sc).next_sender()
    t = cycle.Turn(cycle.replay(gf, sc, ids[seat]), ids[seat])
    for o in orders:
        t.push(o)
    while not t.done:
        t.push("setup" if t.pending().kind == "setup" else "pass")
    return GameFile(gf.exchanges + [t.finish()])


def until_acting(gf: GameFile, sc: dict[str, Any], ids: dict[str, Any], seat: str) -> GameFile:
    """Play set-ups and resolutions until ``seat`` must act."""
    for _ in range(12):
        m = cycle.replay(gf, sc)
        d = m.pending()
        if m.next_sender() == seat and d is not None and d.kind == "act" and not m.es.get("deferred"):
            return gf
        gf = write(gf, sc, ids)
    raise AssertionError("never reached an act decision")



# ------------------------------------------------ scripted demo games

def demo_states(tmp_path_factory, game: str, exchanges: int):
    """A scripted game's rules and last state holding both seats' hidden
    parts (each seat's own program supplies its part), and the folder of
    its files and the last of them.  The same game on every run
    (:func:`seeded_urandom`): what a test finds in it is not down to the
    dice."""
    from rich.console import Console

    from pbem import demo, session
    from pbem.protocol.keyfile import load_private

    folder = tmp_path_factory.mktemp(f"demo-{game}")
    with pytest.MonkeyPatch.context() as mp, seeded_urandom(f"demo-{game}-{exchanges}"):
        mp.setenv("PBEM_HOME", str(folder / "home"))
        demo.run(game, exchanges, folder, echo=lambda s: None, console=Console(file=io.StringIO()))
        last = sorted(folder.glob("demo-*.toml"))[-1]
        hidden, m = {}, None
        for name in ("anna", "pavel"):
            m = session.open_game(last, load_private(folder / f"{name}.key.toml", None)).match
            hidden[m.me] = m.state["hidden"][m.me]
    assert m is not None
    return m.rules, {**m.state, "hidden": hidden}, folder, last


def join_and_play(gf: GameFile, data: dict[str, Any], players: tuple[Any, Any], exchanges: int):
    """A game the German (``players[0]``) created for the Soviet
    (``players[1]``): joined, then played on for ``exchanges`` exchanges by
    the scripted players, as the demo plays: each program verifies the
    other's exchange before writing its own.  The file and both matches."""
    anna, pavel = players
    views = {"soviet": cycle.replay(gf, data, pavel)}
    join = cycle.join_exchange(views["soviet"], pavel, "soviet")
    cycle.advance(views["soviet"], join, pavel)
    gf = gamefile.GameFile(gf.exchanges + [join])
    views["german"] = cycle.replay(gf, data, anna)
    keys = {"german": anna, "soviet": pavel}
    for _ in range(exchanges):
        side = views["german"].next_sender()
        if side is None:
            break
        turn = cycle.Turn(views[side], keys[side])
        while (d := turn.pending()) is not None:
            turn.push(turn.m.rules.demo_order(turn.es["game"], d))
        ex = turn.finish()
        for s, v in views.items():
            cycle.advance(v, ex, keys[s])
        gf = gamefile.GameFile(gf.exchanges + [ex])
    return gf, views


def new_and_joined(game: str, scenario_name: str, sc: dict[str, Any], players: dict[str, Any], creator: str,
                   dice: str, game_id: str | None = None) -> tuple[GameFile, dict[str, Any]]:
    """A two-seat game ``creator``'s seat made and the other seat joined:
    the file and each seat's match (both have verified the join)."""
    invited = next(seat for seat in players if seat != creator)
    gf = cycle.new_game(game_id=game_id or f"{game}-test-{dice}", game=game, scenario_name=scenario_name,
                        scenario=sc, options={}, dice=dice, creator=players[creator], creator_side=creator,
                        invited={invited: players[invited].public})
    guest = cycle.replay(gf, sc, players[invited])
    join = cycle.join_exchange(guest, players[invited], invited)
    cycle.advance(guest, join, players[invited])
    gf = GameFile(gf.exchanges + [join])
    return gf, {creator: cycle.replay(gf, sc, players[creator]), invited: guest}


def play_scripted(game: str, scenario_name: str, sc: dict[str, Any], players: dict[str, Any], creator: str,
                  dice: str, limit: int = 4000, stop_after: int | None = None, policies_once: bool = False):
    """A whole game (or its first ``stop_after`` exchanges) between the
    scripted demo players through the exchange engine: ``players`` maps
    each of the two seats to its identity; ``creator``'s seat makes the
    game and the other joins.  In each turn a seat first sets each of its
    demo standing orders its turn still has room for (``policies_once``:
    in its first turn only, the rest never), then answers every decision
    with the demo order; both programs advance on every exchange.  The file,
    the scenario, the identities and each seat's match."""
    _, matches = new_and_joined(game, scenario_name, sc, players, creator, dice)
    host = matches[creator]
    configured: set[tuple[str, str]] = set()
    for _ in range(limit):
        side = host.next_sender()
        if side is None or (stop_after is not None and len(host.exchanges) >= stop_after):
            break
        turn = cycle.Turn(matches[side], players[side])
        policies = turn.m.rules.demo_policies(side)
        for name, value in policies.items():
            if (side, name) not in configured and not turn.done:   # a standing order may answer the decision at hand
                turn.push(f"policy {name} {value}")
                configured.add((side, name))
        if policies_once:
            configured.update((side, name) for name in policies)
        while not turn.done:
            turn.push(turn.m.rules.demo_order(turn.es["game"], turn.pending()))
        ex = turn.finish()
        for s, m in matches.items():
            cycle.advance(m, ex, players[s])
    else:
        raise AssertionError("the game did not end")
    return GameFile(list(host.exchanges)), sc, players, matches


def play_ava(game: str, dice: str, limit: int = 4000, stop_after: int | None = None):
    """A practice game of A Victory Awaits or Fierce Fight! Smolensk
    (``game``), the Axis seat's creator Anna, the Soviet Pavel."""
    sc = load_toml(DATA.parent.parent / "scenarios" / game / "practice.toml")
    players = {"axis": generate("Anna", "anna@example.org"), "soviet": generate("Pavel", "pavel@example.org")}
    return play_scripted(game, f"{game}/practice", sc, players, "axis", dice, limit, stop_after, policies_once=True)


def rules_order(rules: Any, state: dict[str, Any], d: Any) -> dict[str, Any]:
    """The scripted player's order at decision ``d``, parsed, as the rules
    take it: a plan (the core's, not the rules') is unwrapped to its first
    order, which is what the rules see next."""
    order = rules.demo_order(state, d)
    if isinstance(order, str):
        order = rules.parse(order, state, d.seat)
    if order.get("verb") == "plan":
        order = order["orders"][0]
    return order


def play_until(gf: GameFile, matches: dict[str, Any], players: dict[str, Any], found: Callable[..., Any],
               limit: int = 200, policies: dict[str, dict[str, str]] | None = None,
               policies_once: bool = False) -> tuple[GameFile, Any, Any] | None:
    """The scripted players play on from ``gf`` (``matches``: each seat's
    verified match of it, advanced on every exchange) until ``found(t, d,
    ready)`` gives something truthy for a decision ``d`` of the open Turn
    ``t``: the file then, that Turn (``d`` still pending) and what
    ``found`` gave; None when the game ends or ``limit`` exchanges pass.

    At the start of its turns a seat first sets its ``policies`` (name ->
    value) while its turn has room for them, those left over in its later
    turns (``policies_once``: in its first turn only, the rest never).
    ``ready``: every seat has had a turn and has none left to set."""
    unset = {s: dict((policies or {}).get(s, {})) for s in matches}
    played: set[str] = set()
    for _ in range(limit):
        side = next(iter(matches.values())).next_sender()
        if side is None:
            return None
        t = cycle.Turn(matches[side], players[side])
        while unset[side] and not t.done:     # a standing order may answer the decision at hand
            name = next(iter(unset[side]))
            t.push(f"policy {name} {unset[side].pop(name)}")
        if policies_once:
            unset[side].clear()
        played.add(side)
        ready = played == set(matches) and not any(unset.values())
        while (d := t.pending()) is not None:
            got = found(t, d, ready)
            if got:
                return gf, t, got
            t.push(t.m.rules.demo_order(t.es["game"], d))
        ex = t.finish()
        gf = GameFile(gf.exchanges + [ex])
        for s, m in matches.items():
            cycle.advance(m, ex, players[s])
    return None


def duel_played(exchanges: int) -> tuple[GameFile, dict[str, Any], dict[str, Any]]:
    """A sealed-dice duel game of ``exchanges`` exchanges after the first."""
    gf, sc, ids = start("sealed")
    for _ in range(exchanges):
        gf = one_exchange(gf, sc, ids)
    return gf, sc, ids


def kept_verdict(gf: GameFile, sc: dict[str, Any], monkeypatch: Any, kept_from: int, hash_from: int,
                 me: Any = None) -> str:
    """The replay's message, or the hashes of its exchanges and last state
    when it accepts, with the checks a replay keeps for its end
    (pbem.cycle.background.Background) kept from ``kept_from`` exchanges on,
    and the state hashes given to a worker from ``hash_from`` on; replayed
    by ``me`` (a private identity), or by a bystander."""
    from pbem.cycle import background
    from pbem.errors import PbemError

    monkeypatch.setattr(background, "BACKGROUND_FROM", kept_from)
    monkeypatch.setattr(background, "HASH_FROM", hash_from)
    monkeypatch.setattr(background, "core_free", lambda: True)
    try:
        m = cycle.replay(gf, sc, me)
    except PbemError as exc:
        return f"{type(exc).__name__}: {exc}"
    return "accepted " + " ".join(cycle.exchange_hash(ex) for ex in m.exchanges) + " " + m.state_hash()


def signed_by_other(gf: GameFile, ids: dict[str, Any], at: int) -> tuple[GameFile, str]:
    """Exchange ``at`` re-signed by a seat that did not send it, and that
    seat; with the message a replay gives for it."""
    from pbem.cycle import write

    ex = gf.exchanges[at - 1]
    other = next(seat for seat in ids if seat != ex["side"])
    forged = GameFile(gf.exchanges[:at - 1] + [write.sign(dict(ex), ids[other])] + gf.exchanges[at:])  # type: ignore[arg-type]
    return forged, (f"Verification: exchange {at} by {ex['side']}: signed by {other}'s key, "
                    f"but it claims to come from {ex['side']}")


def lying(gf: GameFile, ids: dict[str, Any], at: int, **fields: Any) -> GameFile:
    """Exchange ``at`` changed and signed again by its sender, and every
    exchange after it re-linked and re-signed by its own sender."""
    from pbem.cycle import write

    exchanges = [dict(ex) for ex in gf.exchanges]
    exchanges[at - 1].update(fields)
    for i in range(at - 1, len(exchanges)):
        if i >= at:
            exchanges[i]["prev"] = cycle.exchange_hash(exchanges[i - 1])  # type: ignore[arg-type]
        exchanges[i] = write.sign(exchanges[i], ids[exchanges[i]["side"]])  # type: ignore[arg-type]
    return GameFile(exchanges)  # type: ignore[arg-type]
