"""``pbem play``: verify, show, decide, write the next exchange."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from pbem.cli.base import _console, _me, main
from pbem.errors import PbemError, UsageError


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--orders", "orders_file", type=click.Path(path_type=Path),
              help="Play non-interactively from an orders TOML file (orders = [\"...\"], message, [policies]).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True)
@click.option("--scenario", "scenario_override", help="Use this scenario file (its SHA-256 must match the game's).")
def play(file: Path, orders_file: Path | None, out_dir: Path, scenario_override: str | None) -> None:
    """Verify the file (or a saved .eml), show what the opponent did, and
    play your part: interactively, or from --orders."""
    from pbem import cycle, session
    from pbem.render.turnlog import record_lines

    me = _me()
    loaded = session.open_game(file, me, scenario=scenario_override, cached=True)
    if loaded.match.me is None:     # before anything is kept: a stranger's file never reaches $PBEM_HOME
        raise UsageError("your key is not a player of this game")
    mine = session.already_answered(loaded.gf, loaded.match.me)
    if mine is not None:
        m_local = cycle.replay(mine, loaded.scenario, me)
        k = len(loaded.gf.exchanges)
        path, _ = session.write_outputs(mine, m_local, session.turn_log(m_local, m_local.records[k:]), out_dir)
        click.echo(f"You already answered this file (exchange {len(mine.exchanges)}): the file to send is {path}")
        return
    session.compare_with_local(loaded.gf)
    session.keep_version(session.refresh_reading_copies(loaded.gf, loaded.match))
    m = loaded.match
    last = m.records[-1]
    if last.side != m.me:
        click.echo("\n".join(record_lines(session.log_heading(m), last)))
    if not m.joined():
        raise UsageError(f"waiting for {m.next_sender()} to join; nothing to play yet")
    if m.next_sender() != m.me:
        click.echo(f"Nothing to do: waiting for {m.next_sender() or 'nobody (game over)'}.")
        return
    turn = cycle.Turn(m, me)
    if orders_file is not None:
        _play_from_file(turn, orders_file)
    else:
        _play_interactive(turn, m)
    done = session.append_and_write(loaded, turn.finish(), me, out_dir)
    m2, path = done.match, done.path
    click.echo(done.log)
    click.echo(f"Written {path} and the turn log {done.log_path}.")
    if m2.over():
        click.echo("The game is over: both players may now run `pbem audit` on the last file.")
    else:
        click.echo(f"Send it to {m2.next_sender()}: `pbem mail {path}`.")


def _play_from_file(turn: Any, path: Path) -> None:
    from pbem import ordersfile
    from pbem.game import IllegalOrder

    given = ordersfile.load(path)       # orders texts, message, [policies]: nothing else
    turn.message = given.message
    for k, item in enumerate(given.items(), 1):
        if turn.done:
            raise UsageError(f"{path}: order {k} ({item}) comes after the exchange ended "
                             f"({'waiting for dice' if turn.how == 'deferred' else f'the decision passed to {turn.waiting_for()}'}); nothing written")
        try:
            turn.push(item)
        except IllegalOrder as exc:
            raise PbemError(f"order {k} ({item}): {exc}; nothing written") from None
    if not turn.done:
        d = turn.pending()
        opts = f"; options: {', '.join(d.options[:12])}" if d.options else ""
        raise UsageError(f"{path}: orders ran out while you must still decide: {d.prompt}{opts}; nothing written")


def _play_interactive(turn: Any, m: Any) -> None:
    from pbem.game import IllegalOrder

    console = _console()
    opening = turn.opening_lines()
    if opening:
        # The opponent's orders resolved by this program (their dice come
        # from our reveal) and what our standing orders answered.
        console.print("Resolved now, with your dice reveal:", style="bold")
        for line in opening:
            console.print(line, markup=False)
    _print_sitrep(console, m, turn.es["game"], m.me, turn.es["policies"])
    while not turn.done:
        d = turn.pending()
        # Orders contain brackets ("[stuka]"): print them as text, not markup.
        console.print(f"\n{d.prompt}", style="bold", markup=False)
        for i, opt in enumerate(d.options[:30], 1):
            console.print(f"  {i:2}. {opt}", markup=False)
        if len(d.options) > 30:
            console.print(f"  ... and {len(d.options) - 30} more (type the order)", markup=False)
        if d.hint:
            console.print(f"  ({d.hint})", markup=False)
        try:
            text = click.prompt("order (help for commands)", prompt_suffix="> ").strip()
        except click.exceptions.Abort:
            raise UsageError("interrupted; nothing written") from None
        if not text:
            continue
        if text == "help":
            console.print("number or order text | ? QUESTION (e.g. ? reach 7Pz) | undo | sitrep | "
                          "message TEXT | policy NAME VALUE | resign | offer-draw | quit")
            continue
        if text == "quit":
            raise UsageError("quit; nothing written")
        if text == "sitrep":
            _print_sitrep(console, m, turn.es["game"], m.me, turn.es["policies"])
            continue
        if text.startswith("message "):
            turn.message = text[8:].strip()
            continue
        try:
            if text == "undo":
                turn.undo()
                console.print("taken back")
                continue
            if text.startswith("?"):
                console.print(turn.query(text[1:].strip()), markup=False)
                continue
            if text.isdigit() and 1 <= int(text) <= len(d.options):
                text = d.options[int(text) - 1]
            try:
                order = turn.parse(text)
            except IllegalOrder as exc:
                # Not an order: perhaps a question asked without its "?"
                # (`reach 7Pz`, `odds 4121 with 7Pz`).
                try:
                    console.print(turn.query(text), markup=False)
                except IllegalOrder:
                    raise exc from None
                continue
            for ev in turn.push(order):
                console.print(f"  - {ev.text}", markup=False)
        except IllegalOrder as exc:
            console.print(f"refused: {exc}", style="red", markup=False)
    if turn.how == "deferred":
        console.print(f"Your order waits for {turn.waiting_for()}'s dice: that program resolves it.")
    if not click.confirm("Sign and write this exchange?", default=True):
        raise UsageError("not signed; nothing written")


def _print_sitrep(console: Any, m: Any, state: dict[str, Any], side: str | None,
                  policies: dict[str, dict[str, Any]] | None = None) -> None:
    from pbem.render.view import render_rich

    console.print(render_rich(m.rules.view(state, side)))   # a practice game's view says so itself
    for who, pols in sorted((policies if policies is not None else m.es.get("policies", {})).items()):
        if not pols:
            continue
        if who == side:
            console.print(f"Your standing orders: {', '.join(f'{k} = {v}' for k, v in sorted(pols.items()))}")
        else:
            # The opponent's program applies them; the opponent is shown only that they exist.
            console.print(f"{who}: policy set ({len(pols)} standing order{'s' if len(pols) > 1 else ''})")


# ------------------------------------------------------------ reading a game
