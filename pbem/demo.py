"""``pbem demo``: two generated players exchange files in a temporary
folder, each side's program verifying the other's file, with the turn logs
and both sides' sitreps shown as they go.

The "players" answer every decision with the game's scripted choice
(``Rules.demo_order``; by default the first listed option), so the demo
shows the protocol and the rules at work, not good play.
"""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any, Callable

from pbem import cycle, scenario, session
from pbem.protocol import gamefile
from pbem.errors import PbemError, UsageError
from pbem.protocol.identity import generate, save_private, save_public
from pbem.render.view import render_rich

SIDE_NAMES = (("Anna", "anna@example.org"), ("Pavel", "pavel@example.org"), ("Nadia", "nadia@example.org"),
              ("Sergei", "sergei@example.org"), ("Boris", "boris@example.org"), ("Vera", "vera@example.org"))


def demo_setup(game: str, seats: int) -> tuple[str, dict[str, Any]]:
    """The scenario and rule options of a demo with ``seats`` players: the
    game's ``demo_setup(seats)`` where it has one (AVA's multiplayer)."""
    from pbem import games

    g = games.load(game)
    if seats == 2:
        return demo_scenario(game), {}
    setup = getattr(g, "demo_setup", None)
    if setup is None:
        raise UsageError(f"{game}'s demo has 2 seats, not {seats}")
    try:
        name, options = setup(seats)
    except PbemError as exc:
        raise UsageError(f"{game}'s demo with {seats} seats: {exc}") from None
    return str(name), dict(options)


def demo_scenario(game: str) -> str:
    """The scenario a game's demo plays: its ``GAME.demo_scenario``."""
    from pbem import games

    name = games.load(game).demo_scenario
    if not name:
        loaded, _ = games.load_all()
        demos = [gid for gid, g in loaded.items() if g.demo_scenario]
        raise UsageError(f"no demo for {game!r}; demos: {', '.join(demos) or 'none'}")
    return str(name)


def run(game: str | None, exchanges: int, keep: Path | None, echo: Callable[[str], None], console: Any,
        seats: int = 2) -> None:
    """Play the demo of ``game`` (None: :func:`pbem.games.default_demo`)
    with ``seats`` players."""
    if game is None:
        from pbem import games

        game = games.default_demo()
    name, options = demo_setup(game, seats)
    folder = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="pbem-demo-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        last = _play(game, name, exchanges, folder, echo, console, options)
    finally:
        if keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    if keep is None:
        return      # the temporary folder is gone; `pbem demo --keep DIR` keeps the files
    echo(f"The files are kept in {folder}: demo-001.toml to {last.name}, each with its turn log (.txt).")
    echo(f"Try `pbem verify {last}`, `pbem dice {last}` and `pbem log {last}` on them.")


def _play(game: str, scenario_name: str, count: int, folder: Path, echo: Callable[[str], None],
          console: Any, options: dict[str, Any] | None = None) -> Path:
    data = scenario.load_toml(scenario.find(scenario_name))
    from pbem import games

    g = games.load(game)
    options = dict(options or {})
    seat_names = [s.name for s in cycle.write.game_seats(g, g.validate_options(options))]
    players = {}
    for side, (name, email) in zip(seat_names, SIDE_NAMES):
        ident = generate(name, email)
        save_private(ident, folder / f"{name.lower()}.key.toml", None)
        save_public(ident.public, folder / f"{name.lower()}.id.toml")
        players[side] = ident
        echo(f"{name} plays {side}: fingerprint {ident.public.fingerprint}")
    first, second, *others = seat_names
    gf = cycle.new_game(game_id=f"{game}-demo", game=game, scenario_name=data["scenario"]["id"], scenario=data,
                           options=options, dice="sealed", creator=players[first], creator_side=first,
                           invited={s: players[s].public for s in seat_names[1:]})
    # Each player's program keeps its own verified view of the game and
    # checks every exchange the other sends before acting on it.
    views = {second: cycle.replay(gf, data, players[second])}
    # The set-up files come first, as a newcomer will meet them: the game
    # created (001), then joined (002).
    created_log = session.turn_log(views[second], views[second].records[:1])
    created = _save(folder, gf, 1, created_log)
    echo(f"--- {created.name} ---")
    echo(created_log)
    join = cycle.join_exchange(views[second], players[second], second)
    cycle.advance(views[second], join, players[second])
    gf = gamefile.GameFile(gf.exchanges + [join])
    views[first] = cycle.replay(gf, data, players[first])
    joined_log = session.turn_log(views[second], views[second].records[-1:])
    joined = _save(folder, gf, 2, joined_log)
    echo(f"--- {joined.name} ---")
    echo(joined_log)
    for seat in others:         # a game of more seats: each joins in turn
        m = cycle.replay(gf, data, players[seat])
        ex = cycle.join_exchange(m, players[seat], seat)
        gf = gamefile.GameFile(gf.exchanges + [ex])
        cycle.advance(m, ex, players[seat])
        for s, view in views.items():
            cycle.advance(view, ex, players[s])
        views[seat] = m
        path = _save(folder, gf, len(gf.exchanges), session.turn_log(m, m.records[-1:]))
        echo(f"--- {path.name} ---")
        echo(session.turn_log(m, m.records[-1:]))
    echo(f"Game created by {first} and joined by {', '.join(seat_names[1:])} (sealed dice).\n")
    configured: dict[str, set[str]] = {s: set() for s in seat_names}
    for _ in range(count):
        sender = views[first].next_sender()
        if sender is None:
            break
        side = sender
        me = players[side]
        turn = cycle.Turn(views[side], me)
        if hasattr(turn.m.rules, "demo_policies") and not turn.done:
            # Standing orders answer routine questions without an email; one
            # may answer the decision at hand and end the exchange, and the
            # rest wait for the seat's next one.
            for name, value in turn.m.rules.demo_policies(side).items():
                if not turn.done and name not in configured[side]:
                    turn.push(f"policy {name} {value}")
                    configured[side].add(name)
        while (decision := turn.pending()) is not None:     # None once the exchange is done
            turn.push(turn.m.rules.demo_order(turn.es["game"], decision))
        ex = turn.finish()
        for s, view in views.items():
            cycle.advance(view, ex, players[s])
        gf = gamefile.GameFile(gf.exchanges + [ex])
        mine = views[side]
        text = session.turn_log(mine, mine.records[-1:])
        path = _save(folder, gf, len(gf.exchanges), text)
        echo(f"--- {path.name} ---")
        echo(text)
    for side, view in views.items():
        echo(f"=== {side}'s sitrep ===")
        console.print(render_rich(view.rules.view(view.state, side)))
    final = cycle.replay(gf, data)
    echo(f"verify: {len(final.exchanges)} exchanges replayed from the file by a bystander; every signature, "
         "dice reveal, roll and state hash checked: valid")
    return _save_name(folder, len(gf.exchanges))


def _save_name(folder: Path, n: int) -> Path:
    return folder / f"demo-{n:03d}.toml"


def _save(folder: Path, gf: gamefile.GameFile, n: int, log: str | None = None) -> Path:
    path = _save_name(folder, n)
    gamefile.atomic_write(path, gf.to_toml().encode("utf-8"))
    if log is not None:
        gamefile.atomic_write(path.with_suffix(".txt"), log.encode("utf-8"))
    return path
