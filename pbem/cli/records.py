"""Commands that read a game: verify, sitrep, log, dice; and the agreements
and mail around it: audit, rewind, mail, demo."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from pbem.cli.base import _console, _me, main
from pbem.cli.play import _print_sitrep
from pbem.errors import UsageError


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--scenario", "scenario_override")
def verify(file: Path, scenario_override: str | None) -> None:
    """Replay the whole game; exit 0 if valid, 1 with the reason if not."""
    me = _me(required=False)
    loaded = _open_with_progress(file, me, scenario_override)
    m = loaded.match
    rolls = sum(len(r.rolls) for r in m.records)
    click.echo(f"valid: {len(m.exchanges)} exchanges, {rolls} rolls recomputed; {m.who_acts()}")


def _open_with_progress(file: Path, me: Any, scenario: str | None = None, audit: bool = False,
                        cached: bool = False) -> Any:
    from pbem import session

    gf = session.load_game(file)
    if len(gf.exchanges) < 200 or not sys.stderr.isatty():
        return session.open_game(file, me, scenario=scenario, audit=audit, gf=gf, cached=cached)
    from rich.progress import Progress

    with Progress(transient=True) as bar:
        task = bar.add_task("verifying", total=len(gf.exchanges))
        return session.open_game(file, me, scenario=scenario, audit=audit, gf=gf, cached=cached,
                                 progress=lambda i, n: bar.update(task, completed=i))


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--side", help="Whose view (default: yours; a bystander sees the public view).")
def sitrep(file: Path, side: str | None) -> None:
    """Situation report: map, units, what is pending for whom."""
    me = _me(required=False)
    loaded = _open_with_progress(file, me, cached=True)
    m = loaded.match
    view = side or m.me
    if view is not None and view != m.me:
        raise UsageError("you may only see your own side's view (or the public one)")
    console = _console()
    console.print(f"[bold]{m.game.title}[/bold] - game {m.game_id} - {m.who_acts()}")
    _print_sitrep(console, m, m.state, view)


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--last", "last", type=int, default=0, help="Only the last N exchanges.")
def log(file: Path, last: int) -> None:
    """The human-readable record of the game."""
    from pbem import session

    m = _open_with_progress(file, _me(required=False), cached=True).match
    records = m.records[-last:] if last else m.records
    click.echo(session.turn_log(m, records), nl=False)


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="The same listing as JSON, for an independent verifier.")
def dice(file: Path, as_json: bool) -> None:
    """Every roll and draw of the game, recomputed from the chain reveals:
    each stream with the reveals that keyed it, each value with its purpose
    and position, each draw with the cup it was drawn from."""
    import json

    from pbem.cycle import dice_listing

    m = _open_with_progress(file, _me(required=False), cached=True).match
    listing = dice_listing(m)
    if as_json:
        click.echo(json.dumps(listing, indent=1, sort_keys=True))
        return
    count = 0
    for stream in listing:
        keys = ", ".join(f"{s} {r[:16]}..." for s, r in stream["keyed_by"].items())
        click.echo(f"exchange {stream['exchange']} ({stream['sender']}): stream {stream['stream']} keyed by {keys}")
        for roll in stream["rolls"]:
            count += 1
            click.echo("  " + _roll_line(roll))
        for seat, rolls in stream["secret"].items():
            for roll in rolls:
                count += 1
                click.echo(f"  {seat}'s secret stream: " + _roll_line(roll))
    click.echo(f"{count} rolls and draws, each recomputed from the reveals: all match.")


def _roll_line(roll: dict[str, Any]) -> str:
    if roll["op"] == "draw":
        what = f"draw from [{', '.join(roll.get('cup', []))}] -> index {roll['result']} ({roll.get('item')})"
    else:
        what = f"{roll['op']} -> {roll['result']}"
    return f"value {roll['pos']:3}: {roll['purpose']}: {what}"





@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True)
def audit(file: Path, out_dir: Path) -> None:
    """At game end: disclose your secrets (first run), or, once both players
    have, replay the whole game with nothing hidden."""
    from pbem import cycle, session

    me = _me()
    loaded = session.open_game(file, me)
    m = loaded.match
    disclosed = {ex["side"] for ex in m.exchanges if ex["kind"] == "disclose"}
    if set(m.seat_names) <= disclosed:
        full = session.open_game(file, None, audit=True)
        n = len(full.match.exchanges)
        click.echo(f"audit: no discrepancy in {n} exchanges; {full.match.result()}")
        return
    if m.me in disclosed:
        raise UsageError(f"you have disclosed; waiting for {', '.join(sorted(set(m.seat_names) - disclosed))}")
    path = session.append_and_write(loaded, cycle.disclose_exchange(m, me), me, out_dir).path
    click.echo(f"Your secrets are disclosed in {path}; send it on. When both have disclosed, `pbem audit` replays everything.")


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--to", "to", type=int, help="Offer to take the game back to the state after exchange N.")
@click.option("--accept", is_flag=True, help="Accept the open offer.")
@click.option("--decline", is_flag=True, help="Decline the open offer (signed, like an acceptance).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True)
def rewind(file: Path, to: int | None, accept: bool, decline: bool, out_dir: Path) -> None:
    """Take back a misclick: one player offers (in or out of turn), every
    other player accepts (or one declines).  The signatures and the undone
    exchanges stay in the record."""
    from pbem import cycle, session

    if [to is not None, accept, decline].count(True) != 1:
        raise UsageError("give one of --to N (offer), --accept or --decline")
    me = _me()
    loaded = session.open_game(file, me)
    ex = cycle.rewind_exchange(loaded.match, me, to, decline=decline)
    path = session.append_and_write(loaded, ex, me, out_dir).path
    what = "Rewind offered" if to is not None else ("Rewind declined" if decline else "Rewind accepted")
    click.echo(f"{what}: {path}; send it on (`pbem mail {path}`).")


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--to", "recipient", help="Recipient address (default: every other seat's player).")
@click.option("--send", is_flag=True, help="Send it by SMTP (configured in $PBEM_HOME/smtp.toml or --smtp).")
@click.option("--smtp", "smtp_file", type=click.Path(path_type=Path), help="SMTP settings file ([smtp] host, port, sender...).")
def mail(file: Path, recipient: str | None, send: bool, smtp_file: Path | None) -> None:
    """Make an .eml with the turn log as body and the game file attached."""
    from pbem import mail as mailmod
    from pbem import session
    from pbem.protocol import gamefile

    me = _me()
    loaded = session.open_game(file, me, cached=True)
    m = loaded.match
    recipients = [recipient] if recipient else session.recipients(m)
    if not recipients:
        raise UsageError("no recipient: give --to")
    to = ", ".join(recipients)
    body = session.turn_log(m, m.records[-1:])
    subject = f"[pbem] {m.game.title} {m.game_id}: exchange {len(m.exchanges)}"
    sender = mailmod.address(me.public.name, me.public.email)
    eml = mailmod.compose_eml(file, body, sender=sender, recipient=to, subject=subject, game_id=m.game_id)
    out = file.with_suffix(".eml")
    gamefile.atomic_write(out, eml)
    click.echo(f"Email written: {out} (to {to})")
    if send:
        cfg = mailmod.load_smtp_config(smtp_file or session.home() / "smtp.toml")
        mailmod.send(cfg, eml, [mailmod.bare_address(r) for r in recipients])
        click.echo(f"Sent to {to} via {cfg.host}:{cfg.port}")


@main.command()
@click.argument("game", required=False, default=None)
@click.option("--exchanges", default=8, show_default=True, help="How many exchanges to play.")
@click.option("--keep", type=click.Path(file_okay=False, path_type=Path), help="Keep the demo folder here.")
def demo(game: str | None, exchanges: int, keep: Path | None) -> None:
    """A scripted game between two generated players in a temporary folder:
    each exchange's turn log and sitreps, then a full verify."""
    from pbem import demo as demomod

    demomod.run(game, exchanges, keep, echo=click.echo, console=_console())
